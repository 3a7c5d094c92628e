// The OpenCL C sources embedded into the library at build time (every .cl
// kernel and .clh header under src/gpu/ocl, by path relative to it), and
// their expansion into one program text.
#pragma once

#include <cstdint>
#include <string>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// The program text of source `name` ("eltwise/eltwise.cl") with every
// `#include "path"` line replaced by that embedded file (each file once,
// recursively). dnnl_runtime_error when `name` or an include is unknown.
status_t expand_kernel_source(const std::string &name, std::string &text);

// A hash of every embedded file (names and texts), so that cache blobs of
// a library with other kernel sources are never used.
uint64_t kernel_sources_digest();

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
