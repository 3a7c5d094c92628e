// CPU resampling: problem set-up, the choice of walk, execution, and the
// resampling implementation list.
#include "cpu/resampling/resampling.hpp"

#include <vector>

#include "common/exec_ctx.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/kernel_name.hpp"
#include "cpu/pooling/dense_io.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {

namespace {

bool fwd_dt_ok(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16 || dt == dnnl_s8
           || dt == dnnl_u8;
}
bool bwd_dt_ok(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

tensor_t make_tensor(const memory_desc_t &md, const void *p) {
    tensor_t t;
    t.base = (char *)p;
    t.dt = md.data_type;
    t.esz = data_type_size(md.data_type);
    t.l = chan_layout(md);
    return t;
}

// A dense f32 ncsp copy (io::in_view / out_view) of a tensor of `md`'s dims.
tensor_t f32_ncsp(const memory_desc_t &md, const float *p) {
    tensor_t t;
    t.base = (char *)p;
    t.l.cls = chan_class_t::ncsp;
    t.l.N = md.dims[0];
    t.l.C = md.dims[1];
    for (int d = 2; d < md.ndims; ++d) t.l.SP *= md.dims[d];
    return t;
}

dim_t volume(const memory_desc_t &md) {
    dim_t v = 1;
    for (int d = 0; d < md.ndims; ++d) v *= md.dims[d];
    return v;
}

} // namespace

template <bool fwd>
status_t resampling_t<fwd>::pd_t::init(engine_t *) {
    if (this->is_fwd() != fwd) return dnnl_unimplemented;
    const auto &at = this->attr_;
    if (!at.scales.empty() || !at.zero_points.empty()
            || (!fwd && !at.post_ops.entries.empty()))
        return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    const memory_desc_t &x = fwd ? this->src_md_ : this->diff_src_md_;
    const memory_desc_t &y = fwd ? this->dst_md_ : this->diff_dst_md_;
    if (fwd ? !fwd_dt_ok(x.data_type) || !fwd_dt_ok(y.data_type)
            : !bwd_dt_ok(x.data_type) || !bwd_dt_ok(y.data_type))
        return dnnl_unimplemented;
    g.N = x.dims[0];
    g.C = x.dims[1];
    g.nd = x.ndims;
    g.linear = this->is_linear();
    const int nsp = x.ndims - 2;
    for (int i = 0; i < 3; ++i) {
        const int d = i - (3 - nsp); // logical spatial index, < 0 when absent
        if (d < 0)
            g.t[i].init(1, 1, g.linear);
        else
            g.t[i].init(x.dims[2 + d], y.dims[2 + d], g.linear);
    }
    const chan_layout_t lx = chan_layout(x), ly = chan_layout(y);
    g.walk = lx.same_walk(ly) ? lx.cls : chan_class_t::other;
    g.ker = &select_kernels();
    // The name: the stored types, input first (src_dst, backward
    // diff_dst_diff_src), then the walk: "rows" (channels first, in
    // place), "cvec" (channel vectors of channels-last and blocked
    // tensors, in place), "f32copy_rows" (other layouts, through dense
    // f32 copies).
    const char *walk = g.walk == chan_class_t::ncsp ? "rows"
            : g.walk == chan_class_t::other         ? "f32copy_rows"
                                                    : "cvec";
    name_ = "simd:"
            + kernel_name(fwd ? dt_pair_name(x.data_type, y.data_type)
                              : dt_pair_name(y.data_type, x.data_type),
                    std::string("resampling_") + (fwd ? "" : "bwd_")
                            + (g.linear ? "linear_" : "nearest_") + walk,
                    g.ker->isa_name);
    if (fwd) {
        DNNL_CHECK(po.init(at.post_ops, y));
        // With dense f32 copies the sum reads the user's dst, which needs
        // a plain layout.
        if (g.walk == chan_class_t::other && po.has_sum()
                && y.format_desc.blocking.inner_nblks != 0)
            return dnnl_unimplemented;
    }
    return dnnl_success;
}

template <>
status_t resampling_t<true>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const void *src = ctx.host_ptr(DNNL_ARG_SRC);
    void *dst = ctx.host_ptr(DNNL_ARG_DST);
    if (!src || !dst) return dnnl_invalid_arguments;
    postops::postops_args_t pa;
    DNNL_CHECK(pa.init(p->po, ctx));
    const memory_desc_t &smd = *p->src_md(), &dmd = *p->dst_md();
    if (volume(dmd) == 0) return dnnl_success;
    const geom_t &g = p->g;
    fwd_args_t a;
    a.po = &p->po;
    a.po_args = &pa;
    if (g.walk != chan_class_t::other) {
        a.src = make_tensor(smd, src);
        a.dst = make_tensor(dmd, dst);
        if (g.walk == chan_class_t::ncsp)
            fwd_ncsp(g, a);
        else
            fwd_vec(g, a);
        return dnnl_success;
    }
    std::vector<float> sb, db;
    a.src = f32_ncsp(smd, io::in_view(smd, src, sb));
    float *d = io::out_view(dmd, dst, db);
    a.dst = f32_ncsp(dmd, d);
    a.old_base = dst;
    a.old_md = &dmd;
    fwd_ncsp(g, a);
    io::commit(dmd, dst, db, d);
    return dnnl_success;
}

template <>
status_t resampling_t<false>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const void *dd = ctx.host_ptr(DNNL_ARG_DIFF_DST);
    void *ds = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
    if (!dd || !ds) return dnnl_invalid_arguments;
    const memory_desc_t &smd = *p->diff_src_md(), &dmd = *p->diff_dst_md();
    if (volume(smd) == 0) return dnnl_success;
    const geom_t &g = p->g;
    if (g.walk != chan_class_t::other) {
        const tensor_t tdd = make_tensor(dmd, dd), tds = make_tensor(smd, ds);
        if (g.walk == chan_class_t::ncsp)
            bwd_ncsp(g, tdd, tds);
        else
            bwd_vec(g, tdd, tds);
        return dnnl_success;
    }
    std::vector<float> db, sb;
    const tensor_t tdd = f32_ncsp(dmd, io::in_view(dmd, dd, db));
    float *s = io::out_view(smd, ds, sb);
    bwd_ncsp(g, tdd, f32_ncsp(smd, s));
    io::commit(smd, ds, sb, s);
    return dnnl_success;
}

template struct resampling_t<true>;
template struct resampling_t<false>;

} // namespace resampling

const impl_list_item_t *resampling_impl_list() {
    using namespace resampling;
    static const impl_list_item_t list[] = {
            {create_pd<resampling_t<true>::pd_t, resampling_desc_t>},
            {create_pd<resampling_t<false>::pd_t, resampling_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
