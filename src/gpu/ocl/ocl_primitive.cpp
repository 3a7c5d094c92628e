// Execution helpers of OpenCL implementations.
#include "gpu/ocl/ocl_primitive.hpp"

#include "gpu/ocl/ocl_memory_storage.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

cl_mem mem_of(const exec_ctx_t &ctx, int arg) {
    const memory_t *m = ctx.memory(arg);
    if (!m) return nullptr;
    const ocl_buffer_memory_storage_t *s = as_ocl_storage(m);
    return s ? s->mem_object() : nullptr;
}

const device_info_t &device_info_of(engine_t *engine) {
    return as_ocl_engine(engine)->info();
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
