// CPU batch normalization, forward and backward, and its implementation
// list. Tensors are viewed as dense row-major f32 [N, C, SP] (used in place
// when already so, converted otherwise); channels in chunks claimed by threads, with
// the shared row kernels (norm_kernels) over the spatial points. Forward
// applies eltwise post-ops after the fused relu and reads / writes s8 when
// the statistics are given.
#include <cmath>
#include <string>
#include <vector>

#include "common/batch_normalization_pd.hpp"
#include "common/exec_ctx.hpp"
#include "cpu/threading/threading.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/kernel_name.hpp"
#include "cpu/norm_kernels/norm_kernels.hpp"
#include "cpu/pooling/dense_io.hpp"
#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace bnorm {

template <bool fwd>
struct bnorm_t : public primitive_t {
    struct pd_t : public cpu_pd_t<batch_normalization_pd_t, bnorm_t> {
        using cpu_pd_t<batch_normalization_pd_t, bnorm_t>::cpu_pd_t;
        // The row kernels are picked once, here; the name says which.
        const char *name() const override { return name_.c_str(); }
        const norm::kernels_t *ker = &norm::select_kernels();
        std::string name_
                = "simd:" + kernel_name("f32", "bnorm_rows", ker->isa);
        status_t init(engine_t *) {
            auto *b = static_cast<batch_normalization_pd_t *>(this);
            return b_init(*b);
        }
        status_t b_init(batch_normalization_pd_t &) {
            if (this->is_fwd() != fwd) return dnnl_unimplemented;
            const auto &a = this->attr_;
            if ((!fwd && !a.post_ops.entries.empty()) || !a.scales.empty()
                    || !a.zero_points.empty())
                return dnnl_unimplemented;
            // s8 data as in oneDNN: src and dst both s8, statistics given.
            const data_type_t sdt = this->src_md_.data_type;
            const bool s8 = fwd && sdt == dnnl_s8
                    && this->dst_md_.data_type == dnnl_s8
                    && this->global_stats();
            if (!io::float_dt(sdt) && !s8) return dnnl_unimplemented;
            if (fwd && !io::float_dt(this->dst_md_.data_type) && !s8)
                return dnnl_unimplemented;
            if (fwd) DNNL_CHECK(po.init(a.post_ops, this->dst_md_));
            if (!fwd
                    && (!io::float_dt(this->diff_src_md_.data_type)
                            || !io::float_dt(this->diff_dst_md_.data_type)))
                return dnnl_unimplemented;
            return this->init_formats();
        }
        postops::postops_t po; // forward: eltwise post-ops (after relu)
    };
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

template <>
status_t bnorm_t<true>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const memory_desc_t &smd = *p->src_md();
    const dim_t N = smd.dims[0], C = smd.dims[1];
    dim_t SP = 1;
    for (int d = 2; d < smd.ndims; ++d) SP *= smd.dims[d];
    std::vector<float> sb, db, s1b;
    const float *src = io::in_view(smd, ctx.host_ptr(DNNL_ARG_SRC), sb);
    void *dst_h = ctx.host_ptr(DNNL_ARG_DST);
    float *dst = io::out_view(*p->dst_md(), dst_h, db);
    const float *src1 = p->fuse_add_relu() ? io::in_view(
                                *p->dst_md(), ctx.host_ptr(DNNL_ARG_SRC_1), s1b)
                                           : nullptr;
    float *mean = static_cast<float *>(ctx.host_ptr(DNNL_ARG_MEAN));
    float *var = static_cast<float *>(ctx.host_ptr(DNNL_ARG_VARIANCE));
    const float *scale =
            p->use_scale() ? ctx.input<float>(DNNL_ARG_SCALE) : nullptr;
    const float *shift =
            p->use_shift() ? ctx.input<float>(DNNL_ARG_SHIFT) : nullptr;
    uint8_t *ws =
            p->has_ws() ? ctx.output<uint8_t>(DNNL_ARG_WORKSPACE) : nullptr;
    if (!src || !dst || (p->fuse_add_relu() && !src1)
            || (p->use_scale() && !scale) || (p->use_shift() && !shift)
            || (p->has_ws() && !ws)
            || ((p->stats_in() || p->stats_out()) && (!mean || !var)))
        return dnnl_invalid_arguments;
    const memory_desc_t &wmd = *p->ws_md();
    const bool wdense = ws && io::is_rowmajor_dense(wmd);
    const bool gs = p->global_stats(), so = p->stats_out(),
               relu = p->any_relu();
    const float eps = p->desc()->epsilon;
    const double cnt = (double)(N * SP);
    const norm::kernels_t &k = *p->ker;
    postops::postops_args_t pa;
    DNNL_CHECK(pa.init(p->po, ctx));
    // Eltwise post-ops only (the API refuses others): no coordinates needed.
    const dims_t no_pos = {};
    auto post = [&](float *y) {
        if (!p->po.empty())
            postops::apply(p->po, pa, y, SP, 1, SP, no_pos, -1, -1, nullptr, 0, 0);
    };

    // Chunks taken one at a time: a thread the scheduler delays takes fewer.
    parallel_chunks(nthr_for(N * C * SP, 16384), C,
            [&](int, dim_t c0, dim_t c1) {
                for (dim_t c = c0; c < c1; ++c) {
                    float m, v;
                    if (gs) {
                        m = mean[c];
                        v = var[c];
                    } else {
                        // Two passes with blocked partial sums (norm_kernels),
                        // double across images.
                        double s = 0;
                        for (dim_t n = 0; n < N; ++n)
                            s += k.sum(src + (n * C + c) * SP, SP);
                        m = (float)(s / cnt);
                        double q = 0;
                        for (dim_t n = 0; n < N; ++n)
                            q += k.sum_sq_dev(src + (n * C + c) * SP, SP, m);
                        v = (float)(q / cnt);
                        if (so) {
                            mean[c] = m;
                            var[c] = v;
                        }
                    }
                    const float inv = 1.f / std::sqrt(v + eps);
                    const float a = (scale ? scale[c] : 1.f) * inv;
                    const float b = shift ? shift[c] : 0.f;
                    for (dim_t n = 0; n < N; ++n) {
                        const dim_t base = (n * C + c) * SP;
                        const float *x = src + base;
                        float *y = dst + base;
                        if (!relu) {
                            k.affine(x, y, SP, m, a, b);
                            post(y);
                            continue;
                        }
                        for (dim_t i = 0; i < SP; ++i) {
                            float r = a * (x[i] - m) + b;
                            if (src1) r += src1[base + i];
                            if (ws)
                                ws[io::off(wmd, wdense, base + i)] =
                                        r > 0 ? 1 : 0;
                            y[i] = r > 0 ? r : 0;
                        }
                        post(y);
                    }
                }
            });
    io::commit(*p->dst_md(), dst_h, db, dst);
    return dnnl_success;
}

template <>
status_t bnorm_t<false>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const memory_desc_t &smd = *p->src_md();
    const dim_t N = smd.dims[0], C = smd.dims[1];
    dim_t SP = 1;
    for (int d = 2; d < smd.ndims; ++d) SP *= smd.dims[d];
    std::vector<float> sb, ddb, dsb, ds1b;
    const float *src = io::in_view(smd, ctx.host_ptr(DNNL_ARG_SRC), sb);
    const float *ddst = io::in_view(
            *p->diff_dst_md(), ctx.host_ptr(DNNL_ARG_DIFF_DST), ddb);
    void *dsrc_h = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
    float *dsrc = io::out_view(*p->diff_src_md(), dsrc_h, dsb);
    void *dsrc1_h =
            p->fuse_add_relu() ? ctx.host_ptr(DNNL_ARG_DIFF_SRC_1) : nullptr;
    float *dsrc1 = io::out_view(*p->diff_src_md(), dsrc1_h, ds1b);
    const float *mean = ctx.input<float>(DNNL_ARG_MEAN);
    const float *var = ctx.input<float>(DNNL_ARG_VARIANCE);
    const float *scale =
            p->use_scale() ? ctx.input<float>(DNNL_ARG_SCALE) : nullptr;
    const bool full = p->desc()->prop_kind == dnnl_backward;
    float *dscale = full && p->use_scale()
                            ? ctx.output<float>(DNNL_ARG_DIFF_SCALE)
                            : nullptr;
    float *dshift = full && p->use_shift()
                            ? ctx.output<float>(DNNL_ARG_DIFF_SHIFT)
                            : nullptr;
    const uint8_t *ws =
            p->has_ws() ? ctx.input<uint8_t>(DNNL_ARG_WORKSPACE) : nullptr;
    if (!src || !ddst || !dsrc || !mean || !var || (p->use_scale() && !scale)
            || (p->has_ws() && !ws) || (p->fuse_add_relu() && !dsrc1))
        return dnnl_invalid_arguments;
    const memory_desc_t &wmd = *p->ws_md();
    const bool wdense = ws && io::is_rowmajor_dense(wmd);
    const bool gs = p->global_stats();
    const float eps = p->desc()->epsilon;
    const float cnt = (float)(N * SP);
    const norm::kernels_t &k = *p->ker;
    auto dd = [&](dim_t l) {
        return ws ? (ws[io::off(wmd, wdense, l)] ? ddst[l] : 0.f) : ddst[l];
    };

    // Chunks taken one at a time: a thread the scheduler delays takes fewer.
    parallel_chunks(nthr_for(N * C * SP, 16384), C,
            [&](int, dim_t c0, dim_t c1) {
                for (dim_t c = c0; c < c1; ++c) {
                    const float m = mean[c],
                                inv = 1.f / std::sqrt(var[c] + eps);
                    double sdd = 0, sddx = 0;
                    for (dim_t n = 0; n < N; ++n) {
                        const dim_t base = (n * C + c) * SP;
                        if (!ws) {
                            double a, b;
                            k.dot_dev(ddst + base, nullptr, src + base, SP, m,
                                    &a, &b);
                            sdd += a;
                            sddx += b;
                        } else {
                            for (dim_t i = 0; i < SP; ++i) {
                                const float g = dd(base + i);
                                sdd += g;
                                sddx += g * (src[base + i] - m);
                            }
                        }
                    }
                    const float sd = (float)sdd, sdx = (float)sddx * inv;
                    if (dscale) dscale[c] = sdx;
                    if (dshift) dshift[c] = sd;
                    const float sc = scale ? scale[c] : 1.f;
                    // diff_src = sc * inv * (g - sd / cnt - (x - m) * inv * sdx
                    // / cnt).
                    const float ka = sc * inv,
                                kb = gs ? 0.f : -sc * inv * inv * sdx / cnt,
                                kc = gs ? 0.f : -sc * inv * sd / cnt;
                    for (dim_t n = 0; n < N; ++n) {
                        const dim_t base = (n * C + c) * SP;
                        if (!ws && !dsrc1) {
                            k.lin2(ddst + base, src + base, dsrc + base, SP,
                                    nullptr, ka, m, kb, kc);
                            continue;
                        }
                        for (dim_t i = 0; i < SP; ++i) {
                            const float g = dd(base + i);
                            dsrc[base + i] =
                                    ka * g + kb * (src[base + i] - m) + kc;
                            if (dsrc1) dsrc1[base + i] = g;
                        }
                    }
                }
            });
    io::commit(*p->diff_src_md(), dsrc_h, dsb, dsrc);
    if (dsrc1) io::commit(*p->diff_src_md(), dsrc1_h, ds1b, dsrc1);
    return dnnl_success;
}

template struct bnorm_t<true>;
template struct bnorm_t<false>;

} // namespace bnorm

const impl_list_item_t *batch_normalization_impl_list() {
    using namespace bnorm;
    static const impl_list_item_t list[] = {
            {create_pd<bnorm_t<true>::pd_t, batch_normalization_desc_t>},
            {create_pd<bnorm_t<false>::pd_t, batch_normalization_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
