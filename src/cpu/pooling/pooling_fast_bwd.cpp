// Pooling backward on f32 tensors through the channel-vector walk
// (pooling_cv.hpp): layout checks and execution.
#include "common/exec_ctx.hpp"
#include "cpu/pooling/pooling_fast.hpp"
#include "cpu/pooling/pooling_kernel_name.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

status_t pooling_fast_bwd_t::pd_t::init(engine_t *) {
    if (is_fwd()) return dnnl_unimplemented;
    if (!attr_.post_ops.entries.empty() || !attr_.scales.empty()
            || !attr_.zero_points.empty())
        return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    if (diff_src_md_.ndims < 3 || diff_src_md_.ndims > 5)
        return dnnl_unimplemented;
    if (md_nelems(diff_src_md_) == 0) return dnnl_unimplemented;
    if (has_ws() && ws_md_.data_type != dnnl_u8 && ws_md_.data_type != dnnl_s32)
        return dnnl_unimplemented;
    geom_t g;
    init_geom(*this, diff_src_md_, diff_dst_md_, g);
    const memory_desc_t *ws = has_ws() ? &ws_md_ : nullptr;
    if (cv_plan(g, false, diff_dst_md_, diff_src_md_, ws, cv) != dnnl_success)
        return dnnl_unimplemented;
    k = &select_fast_kernels();
    name_ = "simd:" + cv_kernel_name(cv, k->isa);
    return dnnl_success;
}

status_t pooling_fast_bwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const cv_plan_t &c = p->cv;
    const geom_t &g = c.g;
    const float *ddst = ctx.input<float>(DNNL_ARG_DIFF_DST);
    float *dsrc = ctx.output<float>(DNNL_ARG_DIFF_SRC);
    void *ws = p->has_ws() ? ctx.host_ptr(DNNL_ARG_WORKSPACE) : nullptr;
    if (g.mb * g.c * g.id * g.ih * g.iw == 0) return dnnl_success;
    if (!ddst || !dsrc || (p->has_ws() && !ws)) return dnnl_invalid_arguments;
    const bool wu8 = ws && p->ws_md()->data_type == dnnl_u8;
    cv_args_t a;
    a.g = g;
    a.alg = p->desc()->alg_kind;
    a.kind = c.kind;
    a.gw = c.gw;
    a.ngroups = c.ngroups;
    a.tail = c.tail;
    a.out_padded = c.out_padded;
    a.ws_padded = false;
    a.in = ddst + c.in_off0;
    a.out = dsrc + c.out_off0;
    a.wu8 = wu8;
    a.ws = !ws ? nullptr
               : wu8 ? (void *)(static_cast<uint8_t *>(ws) + c.ws_off0)
                     : (void *)(static_cast<int32_t *>(ws) + c.ws_off0);
    a.I = c.I, a.O = c.O, a.W = c.W;
    a.nthr = pool_nthr(g);
    p->k->cv.bwd(a);
    return dnnl_success;
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
