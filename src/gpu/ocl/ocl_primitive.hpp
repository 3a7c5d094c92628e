// Scaffolding shared by OpenCL implementations: a pd base that makes
// primitives of a given type, the implementation-list creator, and access
// to an execution's OpenCL buffers.
//
// An OpenCL primitive builds its kernels in init() (through the kernel
// cache) and keeps them: the primitive cache then holds compiled kernels,
// and every execution only sets arguments and enqueues.
#pragma once

#include <CL/cl.h>

#include <new>

#include "common/exec_ctx.hpp"
#include "common/post_op_select.hpp"
#include "common/primitive.hpp"
#include "gpu/ocl/ocl_device_info.hpp"
#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_kernel.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// pd_t of an implementation derives from ocl_pd_t<base_pd, primitive_type>
// and provides `status_t init(engine_t *)` and `const char *name() const`.
template <typename base_pd_t, typename primitive_type>
struct ocl_pd_t : public base_pd_t {
    using base_pd_t::base_pd_t;
    // OpenCL implementations either refuse post-ops or apply them through
    // post_ops_conf_t (ocl_post_ops.hpp), which applies select too.
    bool handles_select_post_op() const override { return true; }
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override {
        auto self = this->shared_self();
        p = std::make_shared<primitive_type>(
                std::static_pointer_cast<const primitive_desc_t>(self));
        p->set_object_size(sizeof(primitive_type));
        return dnnl_success;
    }
};

// Creator for implementation lists: constructs pd_type from the operation
// and attributes, then lets it decide whether it applies to the engine.
template <typename pd_type, typename op_type>
status_t create_pd(primitive_desc_t **out, const op_desc_t &op,
        const primitive_attr_t &attr, engine_t *engine,
        const primitive_desc_t *hint_fwd) {
    if (op.primitive_kind != op_type().primitive_kind)
        return dnnl_invalid_arguments;
    if (!as_ocl_engine(engine)) return dnnl_unimplemented;
    pd_type *pd = nullptr;
    const status_t st = create_with_post_op_checks(pd,
            [&] {
                return new (std::nothrow)
                        pd_type(static_cast<const op_type &>(op), attr, hint_fwd);
            },
            attr, engine);
    if (st != dnnl_success) return st;
    pd->set_object_size(sizeof(pd_type));
    *out = pd;
    return dnnl_success;
}

// The cl_mem of an execution argument; null when the argument is absent
// or has no buffer.
cl_mem mem_of(const exec_ctx_t &ctx, int arg);
// The scratchpad buffer of an execution (null when none was booked).
inline cl_mem scratchpad_of(const exec_ctx_t &ctx) {
    return static_cast<cl_mem>(ctx.scratchpad());
}
// The device facts of an OpenCL engine (engines query them once).
const device_info_t &device_info_of(engine_t *engine);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
