// What happens to a kernel once it is generated, for people looking at
// it: ONEDNN_JIT_DUMP / dnnl_set_jit_dump write its bytes to
// dnnl_dump_<name>.<n>.bin in the working directory (CPU code from the
// JIT generator; on the gpu engine each OpenCL program built from source,
// as its expanded source, options and build log in a .cl file and the
// driver's binary in a .bin file), and the Linux perf
// map flag of ONEDNN_JIT_PROFILE / dnnl_set_jit_profiling_flags appends
// "<address> <size> <name>" to /tmp/perf-<pid>.map so that `perf report`
// names generated functions. The other profiling flags (VTune, jitdump
// files) are accepted and have no effect.
#pragma once

#include <cstddef>
#include <string>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {

// The API setters; they override the environment (read on first use).
status_t set_jit_dump(int enable);
status_t set_jit_profiling_flags(unsigned flags);
status_t set_jit_profiling_jitdumpdir(const char *dir);

bool jit_dump_enabled();
unsigned jit_profiling_flags();

// A new dump number (the dumps of the process are counted; files of one
// kernel share its number).
unsigned jit_dump_id();
// Writes `size` bytes as dnnl_dump_<name>.<id>.<ext> in the working
// directory (a warning when it cannot).
void jit_dump_write(const std::string &name, unsigned id, const char *ext,
        const void *data, size_t size);

// Called once per generated CPU kernel, after it became executable.
void jit_register_code(const std::string &name, const void *code, size_t size);

} // namespace impl
} // namespace dnnl
