// Pooling forward on plain f32 layouts (see pooling_fast.hpp).
#include "cpu/pooling/pooling_fast.hpp"

#include "common/exec_ctx.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"
#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

const fast_kernels_t &select_fast_kernels() {
    if (mayiuse(avx512_core) && !prefer_ymm()) return fast_kernels_avx512();
    if (mayiuse(avx2)) return fast_kernels_avx2();
    return fast_kernels_base();
}

namespace {

bool strides5(const memory_desc_t &md, strides5_t &s) {
    dims_t st;
    if (!postops::plain_strides(md, st)) return false;
    const int ns = md.ndims - 2;
    s.off0 = md.offset0;
    s.n = st[0];
    s.c = st[1];
    s.d = ns == 3 ? st[2] : 0;
    s.h = ns >= 2 ? st[md.ndims - 2] : 0;
    s.w = ns >= 1 ? st[md.ndims - 1] : 0;
    return true;
}

} // namespace

status_t pooling_fast_fwd_t::pd_t::init(engine_t *) {
    if (!is_fwd()) return dnnl_unimplemented;
    if (!attr_.post_ops.entries.empty() || !attr_.scales.empty()
            || !attr_.zero_points.empty())
        return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    if (src_md_.data_type != dnnl_f32 || dst_md_.data_type != dnnl_f32)
        return dnnl_unimplemented;
    if (src_md_.ndims < 3 || src_md_.ndims > 5) return dnnl_unimplemented;
    if (!strides5(src_md_, s) || !strides5(dst_md_, d))
        return dnnl_unimplemented;
    if (has_ws()) {
        if (ws_md_.data_type != dnnl_u8 && ws_md_.data_type != dnnl_s32)
            return dnnl_unimplemented;
        if (!strides5(ws_md_, w)) return dnnl_unimplemented;
    }
    init_geom(*this, src_md_, dst_md_, g);
    const bool c1 = s.c == 1 && d.c == 1 && (!has_ws() || w.c == 1);
    const bool w1 = s.w == 1 && d.w == 1 && (!has_ws() || w.w == 1);
    // Channels-last needs a few channels to vectorise over; rows need the
    // spatial w innermost.
    if (c1 && g.c >= 4)
        nxc = true;
    else if (w1)
        nxc = false;
    else
        return dnnl_unimplemented;
    k = &select_fast_kernels();
    name_ = std::string(nxc ? "simd:nxc:" : "simd:ncsp:") + k->isa;
    return dnnl_success;
}

status_t pooling_fast_fwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    fast_args_t a;
    a.g = p->g;
    a.S = p->s;
    a.D = p->d;
    a.W = p->w;
    a.alg = p->desc()->alg_kind;
    const float *src = ctx.input<float>(DNNL_ARG_SRC);
    float *dst = ctx.output<float>(DNNL_ARG_DST);
    a.ws = p->has_ws() ? ctx.host_ptr(DNNL_ARG_WORKSPACE) : nullptr;
    const geom_t &g = a.g;
    if (g.mb * g.c * g.od * g.oh * g.ow == 0) return dnnl_success;
    if (!src || !dst || (p->has_ws() && !a.ws)) return dnnl_invalid_arguments;
    a.src = src + a.S.off0;
    a.dst = dst + a.D.off0;
    a.wu8 = a.ws && p->ws_md()->data_type == dnnl_u8;
    a.nthr = eltwise::nthr_for(
            g.mb * g.c * g.od * g.oh * g.ow * g.kd * g.kh * g.kw, 32768);
    if (p->nxc)
        p->k->nxc(a);
    else
        p->k->ncsp(a);
    return dnnl_success;
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
