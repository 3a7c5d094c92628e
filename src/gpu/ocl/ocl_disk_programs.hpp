// The engine entries of the disk cache (common/cache/disk_cache.hpp): per
// device, an engine blob of every program compiled for it. The first
// engine of a device in a process reads the entry into a pool of binaries;
// a program the kernel cache misses is then loaded from the pool instead
// of compiled, whatever primitive asks for it (a primitive of a shape seen
// in no earlier run, whose primitive entry is missing, still compiles
// nothing). An engine released after programs were compiled for its device
// writes the entry again (pool and kernel cache together).
#pragma once

#include <CL/cl.h>

#include <memory>
#include <string>

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

class ocl_engine_t;

void disk_programs_load(ocl_engine_t *engine);
// The pooled binary of `portable_id` for `device`, or null.
std::shared_ptr<const std::string> disk_programs_find(
        cl_device_id device, const std::string &portable_id);
// A program was compiled from source for `device`.
void disk_programs_note_compiled(cl_device_id device);
void disk_programs_save(ocl_engine_t *engine);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
