// Pooling forward on f32 tensors (see pooling_fast.hpp): kernel-table
// selection, layout checks and the execution of both walks.
#include "cpu/pooling/pooling_fast.hpp"

#include "common/exec_ctx.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/pooling/pooling_kernel_name.hpp"
#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

// One kernel set per ISA of the two kernel files.
namespace {
const fast_kernels_t &kernels_avx512_core() {
    static const fast_kernels_t k {
            "avx512_core", fwd_ncsp_avx512_core, {cv_fwd_avx512_core, cv_bwd_avx512_core}};
    return k;
}
const fast_kernels_t &kernels_avx2() {
    static const fast_kernels_t k {
            "avx2", fwd_ncsp_avx2, {cv_fwd_avx2, cv_bwd_avx2}};
    return k;
}
const fast_kernels_t &kernels_base() {
    static const fast_kernels_t k {
            "sse2", fwd_ncsp_base, {cv_fwd_base, cv_bwd_base}};
    return k;
}
} // namespace

const isa_table_t<fast_kernels_t> &fast_kernel_table() {
    static const isa_table_t<fast_kernels_t> table {
            {avx512_core, &kernels_avx512_core()}, {avx2, &kernels_avx2()},
            {isa_undef, &kernels_base()}};
    return table;
}

const fast_kernels_t &select_fast_kernels() {
    return *isa_select(fast_kernel_table());
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
    // An empty source (windows wholly in padding) is the reference's.
    if (md_nelems(src_md_) == 0) return dnnl_unimplemented;
    if (has_ws() && ws_md_.data_type != dnnl_u8 && ws_md_.data_type != dnnl_s32)
        return dnnl_unimplemented;
    init_geom(*this, src_md_, dst_md_, g);
    k = &select_fast_kernels();
    const memory_desc_t *ws = has_ws() ? &ws_md_ : nullptr;
    if (cv_plan(g, true, src_md_, dst_md_, ws, cv) != dnnl_success)
        return dnnl_unimplemented;
    // Fewer than 16 ncsp channels would leave most transposed lanes idle:
    // the row walk works on the rows themselves.
    rows = cv.kind == cv_kind_t::ncsp && g.c < 16 && strides5(src_md_, s)
            && strides5(dst_md_, d) && (!ws || strides5(ws_md_, w));
    name_ = "simd:"
            + (rows ? kernel_name("f32", "pool_rows", k->isa)
                    : cv_kernel_name(cv, k->isa));
    return dnnl_success;
}

status_t pooling_fast_fwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const geom_t &g = p->g;
    const float *src = ctx.input<float>(DNNL_ARG_SRC);
    float *dst = ctx.output<float>(DNNL_ARG_DST);
    void *ws = p->has_ws() ? ctx.host_ptr(DNNL_ARG_WORKSPACE) : nullptr;
    if (g.mb * g.c * g.od * g.oh * g.ow == 0) return dnnl_success;
    if (!src || !dst || (p->has_ws() && !ws)) return dnnl_invalid_arguments;
    const bool wu8 = ws && p->ws_md()->data_type == dnnl_u8;
    if (p->rows) {
        fast_args_t a;
        a.g = g;
        a.S = p->s, a.D = p->d, a.W = p->w;
        a.alg = p->desc()->alg_kind;
        a.src = src + a.S.off0;
        a.dst = dst + a.D.off0;
        a.ws = ws;
        a.wu8 = wu8;
        a.nthr = pool_nthr(g);
        p->k->ncsp(a);
        return dnnl_success;
    }
    const cv_plan_t &c = p->cv;
    cv_args_t a;
    a.g = c.g;
    a.alg = p->desc()->alg_kind;
    a.kind = c.kind;
    a.gw = c.gw;
    a.ngroups = c.ngroups;
    a.tail = c.tail;
    a.out_padded = c.out_padded;
    a.ws_padded = c.ws_padded;
    a.in = src + c.in_off0;
    a.out = dst + c.out_off0;
    a.wu8 = wu8;
    a.ws = !ws ? nullptr
               : wu8 ? (void *)(static_cast<uint8_t *>(ws) + c.ws_off0)
                     : (void *)(static_cast<int32_t *>(ws) + c.ws_off0);
    a.I = c.I, a.O = c.O, a.W = c.W;
    a.nthr = pool_nthr(g);
    p->k->cv.fwd(a);
    return dnnl_success;
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
