// CPU layer normalization, forward and backward, and its implementation
// list. Tensors are viewed as dense row-major f32 [rows, C]; rows in
// chunks claimed by threads, through the shared row kernels
// (norm_kernels: blocked float partial sums with double totals, so the
// statistics stay within a few ULPs); diff scale/shift reduce over rows
// per channel in per-thread accumulators. Forward applies src scale,
// eltwise/binary post-ops and dst scale per row, and reads / writes int8
// too.
#include "cpu/threading/threading.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/exec_ctx.hpp"
#include "common/layer_normalization_pd.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/kernel_name.hpp"
#include "cpu/norm_kernels/norm_kernels.hpp"
#include "cpu/pooling/dense_io.hpp"
#include "cpu/postops/dense_rows.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lnorm {

// Threads for `elems` elements: at least 8192 a thread, fewer run on the
// calling thread (2 AVX2 cores: 8x32x64 training 7.1 -> 5.3 us on two,
// backward 13.2 -> 9.5; 2x16x256 inference 1.9 -> 2.8 us, so 8192
// elements stay on one).
inline int lnorm_threads(dim_t elems) {
    return (int)std::max<dim_t>(
            1, std::min<dim_t>(max_threads(), elems / 8192));
}

template <bool fwd>
struct lnorm_t : public primitive_t {
    struct pd_t : public cpu_pd_t<layer_normalization_pd_t, lnorm_t> {
        using cpu_pd_t<layer_normalization_pd_t, lnorm_t>::cpu_pd_t;
        // Binary select post-ops go through the shared post-op code.
        bool handles_select_post_op() const override { return true; }
        // The row kernels are picked once, here; the name says which.
        const char *name() const override { return name_.c_str(); }
        const norm::kernels_t *ker = &norm::select_kernels();
        std::string name_
                = "simd:" + kernel_name("f32", "lnorm_rows", ker->isa);
        status_t init(engine_t *) {
            if (this->is_fwd() != fwd) return dnnl_unimplemented;
            const auto &a = this->attr_;
            if (!a.zero_points.empty()) return dnnl_unimplemented;
            if (!fwd && (!a.post_ops.entries.empty() || !a.scales.empty()))
                return dnnl_unimplemented;
            // f32 per-tensor scales, in memory or host scalars (both read
            // through the host pointer).
            for (const auto &it : a.scales.items)
                if (it.e.data_type != dnnl_f32 || it.e.mask != 0)
                    return dnnl_unimplemented;
            if (!io_dt(this->src_md_.data_type)) return dnnl_unimplemented;
            if (fwd && !io_dt(this->dst_md_.data_type))
                return dnnl_unimplemented;
            if (!fwd
                    && (!io::float_dt(this->diff_src_md_.data_type)
                            || !io::float_dt(this->diff_dst_md_.data_type)))
                return dnnl_unimplemented;
            DNNL_CHECK(this->init_formats());
            if (fwd) DNNL_CHECK(po.init(a.post_ops, this->dst_md_));
            return this->stat_md_.data_type == dnnl_f32 ? dnnl_success
                                                        : dnnl_unimplemented;
        }
        // Forward also reads and writes int8 (converted through f32 with
        // rounding and saturation), as oneDNN's does.
        static bool io_dt(data_type_t dt) {
            return io::float_dt(dt) || (fwd && (dt == dnnl_s8 || dt == dnnl_u8));
        }
        postops::postops_t po; // forward: eltwise and binary post-ops
    };
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

static void shape(const memory_desc_t &md, dim_t &R, dim_t &C) {
    C = md.dims[md.ndims - 1];
    R = 1;
    for (int d = 0; d < md.ndims - 1; ++d) R *= md.dims[d];
}

template <>
status_t lnorm_t<true>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    dim_t R, C;
    shape(*p->src_md(), R, C);
    if (R * C == 0) {
        // An empty tensor (oneDNN's answer): computed statistics of the
        // rows that exist are zero, nothing else is written.
        if (!p->stats_out() || p->global_stats()) return dnnl_success;
        const memory_desc_t &st = *p->stat_md();
        const bool sdense = io::is_rowmajor_dense(st);
        float *mean = static_cast<float *>(ctx.host_ptr(DNNL_ARG_MEAN));
        float *var = static_cast<float *>(ctx.host_ptr(DNNL_ARG_VARIANCE));
        for (dim_t r = 0; r < R; ++r) {
            if (mean && !p->rms()) mean[io::off(st, sdense, r)] = 0.f;
            if (var) var[io::off(st, sdense, r)] = 0.f;
        }
        return dnnl_success;
    }
    std::vector<float> sb, db;
    const float *src =
            io::in_view(*p->src_md(), ctx.host_ptr(DNNL_ARG_SRC), sb);
    void *dst_h = ctx.host_ptr(DNNL_ARG_DST);
    float *dst = io::out_view(*p->dst_md(), dst_h, db);
    float *mean = static_cast<float *>(ctx.host_ptr(DNNL_ARG_MEAN));
    float *var = static_cast<float *>(ctx.host_ptr(DNNL_ARG_VARIANCE));
    const float *scale =
            p->use_scale() ? ctx.input<float>(DNNL_ARG_SCALE) : nullptr;
    const float *shift =
            p->use_shift() ? ctx.input<float>(DNNL_ARG_SHIFT) : nullptr;
    const bool rms = p->rms(), gs = p->global_stats(), so = p->stats_out();
    if (!src || !dst || (p->use_scale() && !scale) || (p->use_shift() && !shift)
            || ((gs || so) && (!var || (!rms && !mean))))
        return dnnl_invalid_arguments;
    const memory_desc_t &st = *p->stat_md();
    const bool sdense = io::is_rowmajor_dense(st);
    const float eps = p->desc()->epsilon;
    const norm::kernels_t &k = *p->ker;
    // Epilogue in oneDNN's order: y * src_scale, post-ops, / dst_scale.
    const auto *ss = ctx.input<float>(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC);
    const auto *ds = ctx.input<float>(DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST);
    const bool with_ss = p->attr()->scales.has(DNNL_ARG_SRC),
               with_ds = p->attr()->scales.has(DNNL_ARG_DST);
    if ((with_ss && !ss) || (with_ds && !ds)) return dnnl_invalid_arguments;
    postops::postops_args_t pa;
    DNNL_CHECK(pa.init(p->po, ctx));
    const float src_scale = with_ss ? ss[0] : 1.f;
    const float inv_dst_scale = with_ds ? 1.f / ds[0] : 1.f;
    auto epilogue = [&](float *y, dim_t r) {
        if (p->po.empty()) {
            if (src_scale * inv_dst_scale != 1.f)
                k.affine(y, y, C, 0.f, src_scale * inv_dst_scale, 0.f);
            return;
        }
        if (src_scale != 1.f) k.affine(y, y, C, 0.f, src_scale, 0.f);
        postops::apply_dense_row(p->po, pa, y, *p->dst_md(), r);
        if (inv_dst_scale != 1.f) k.affine(y, y, C, 0.f, inv_dst_scale, 0.f);
    };

    // Rows in chunks claimed by the threads, so that the straggler guard
    // covers the call. A plain static split waited for a descheduled
    // thread every call on a busy machine (384x768 beside two busy loops:
    // 20-24 ms against 0.06-0.13 for oneDNN); claims first-come moved rows
    // between cores from call to call, losing the caches that hold a
    // thread's share of a large problem. The claims take each thread's own
    // block first (threading/claims.hpp), which keeps the rows on their
    // core while the machine is idle (doc/performance.md).
    // Short rows go in blocks, each step over the whole block before the
    // next: a row's statistics are a chain of dependent reductions and
    // divisions, and rows taken one at a time left the core waiting on
    // it (8x32x64: 8.4 us against oneDNN's 4.8); a block's rows are
    // independent, so their chains overlap. Long rows stay one at a time
    // to be read from L1 by each pass.
    constexpr int block_rows = 16;
    const double inv_c = 1.0 / (double)C;
    const dim_t RB = C <= 256 ? block_rows : 1;
    parallel_chunks(lnorm_threads(R * C), R, [&](int, dim_t r0, dim_t r1) {
        // Per row of the block: mean, variance, then 1 / sqrt(var + eps).
        float m[block_rows], v[block_rows], inv[block_rows];
        for (dim_t b0 = r0; b0 < r1; b0 += RB) {
            const int nb = (int)std::min(RB, r1 - b0);
            if (gs) {
                for (int i = 0; i < nb; ++i) {
                    const dim_t so_ = io::off(st, sdense, b0 + i);
                    m[i] = rms ? 0.f : mean[so_];
                    v[i] = var[so_];
                }
            } else {
                // Two passes with blocked partial sums (see
                // norm_kernels.hpp): the variance of the centred values,
                // accurate to a few ULPs.
                // (Times 1 / C: a division a row was a tenth of the
                // time of 8x32x64.)
                k.row_stats(src + b0 * C, C, C, nb, rms, inv_c, m, v);
                if (so)
                    for (int i = 0; i < nb; ++i) {
                        const dim_t so_ = io::off(st, sdense, b0 + i);
                        if (mean && !rms) mean[so_] = m[i];
                        var[so_] = v[i];
                    }
            }
            for (int i = 0; i < nb; ++i) inv[i] = 1.f / std::sqrt(v[i] + eps);
            for (int i = 0; i < nb; ++i) {
                const dim_t r = b0 + i;
                k.norm_row(src + r * C, dst + r * C, C, m[i], inv[i], scale,
                        shift);
                epilogue(dst + r * C, r);
            }
        }
    });
    io::commit(*p->dst_md(), dst_h, db, dst);
    return dnnl_success;
}

template <>
status_t lnorm_t<false>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    dim_t R, C;
    shape(*p->src_md(), R, C);
    if (R * C == 0) {
        // An empty tensor: the scale and shift gradients are zero.
        if (p->desc()->prop_kind != dnnl_backward) return dnnl_success;
        for (int arg : {DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT}) {
            const bool used = arg == DNNL_ARG_DIFF_SCALE ? p->use_scale()
                                                        : p->use_shift();
            float *d = used ? ctx.output<float>(arg) : nullptr;
            for (dim_t c = 0; d && c < C; ++c) d[c] = 0.f;
        }
        return dnnl_success;
    }
    std::vector<float> sb, ddb, dsb;
    const float *src =
            io::in_view(*p->src_md(), ctx.host_ptr(DNNL_ARG_SRC), sb);
    const float *ddst = io::in_view(
            *p->diff_dst_md(), ctx.host_ptr(DNNL_ARG_DIFF_DST), ddb);
    void *dsrc_h = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
    float *dsrc = io::out_view(*p->diff_src_md(), dsrc_h, dsb);
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
    const bool rms = p->rms(), gs = p->global_stats();
    if (!src || !ddst || !dsrc || !var || (!rms && !mean)
            || (p->use_scale() && !scale))
        return dnnl_invalid_arguments;
    const memory_desc_t &st = *p->stat_md();
    const bool sdense = io::is_rowmajor_dense(st);
    const float eps = p->desc()->epsilon;
    const norm::kernels_t &k = *p->ker;
    auto stats = [&](dim_t r, float &m, float &inv) {
        const dim_t o = io::off(st, sdense, r);
        m = rms ? 0.f : mean[o];
        inv = 1.f / std::sqrt(var[o] + eps);
    };

    // diff scale / shift first (diff_src may alias diff_dst): per-thread
    // per-channel float sums over runs of rows, flushed into double.
    if (dscale || dshift) {
        const int nthr = lnorm_threads(R * C);
        std::vector<double> part((size_t)(2 * nthr * C), 0.0);
        // A static split: the per-thread sums are added in a fixed order.
        parallel(nthr, [&](int ithr, int nt) {
            const dim_t r0 = R * ithr / nt, r1 = R * (ithr + 1) / nt;
            std::vector<float> f1((size_t)C, 0.f), f2((size_t)C, 0.f);
            double *d1 = part.data() + 2 * ithr * C, *d2 = d1 + C;
            int n = 0;
            for (dim_t r = r0; r < r1; ++r) {
                float m, inv;
                stats(r, m, inv);
                k.acc_dot_dev_s(f1.data(), f2.data(), ddst + r * C, src + r * C,
                        m, inv, C);
                if (++n == norm::flush_rows) {
                    k.flush(d1, f1.data(), C);
                    k.flush(d2, f2.data(), C);
                    n = 0;
                }
            }
            k.flush(d1, f1.data(), C);
            k.flush(d2, f2.data(), C);
        });
        for (dim_t c = 0; c < C; ++c) {
            double a = 0, b = 0;
            for (int t = 0; t < nthr; ++t) {
                a += part[2 * t * C + c];
                b += part[(2 * t + 1) * C + c];
            }
            if (dscale) dscale[c] = (float)a;
            if (dshift) dshift[c] = (float)b;
        }
    }
    // diff_src = inv * (dxh - mean(dxh) - xh * mean(dxh * xh)), dxh = dd *
    // scale.
    parallel_chunks(lnorm_threads(R * C), R, [&](int, dim_t r0, dim_t r1) {
        for (dim_t r = r0; r < r1; ++r) {
            float m, inv;
            stats(r, m, inv);
            const float *x = src + r * C, *g = ddst + r * C;
            double s1, s2;
            k.dot_dev(g, scale, x, C, m, &s1, &s2);
            const float k1 = (gs || rms) ? 0.f : (float)(s1 / (double)C);
            const float k2 = gs ? 0.f : (float)(s2 * inv / (double)C);
            k.lin2(g, x, dsrc + r * C, C, scale, inv, m, -inv * inv * k2,
                    -inv * k1);
        }
    });
    io::commit(*p->diff_src_md(), dsrc_h, dsb, dsrc);
    return dnnl_success;
}

template struct lnorm_t<true>;
template struct lnorm_t<false>;

} // namespace lnorm

const impl_list_item_t *layer_normalization_impl_list() {
    using namespace lnorm;
    static const impl_list_item_t list[] = {
            {create_pd<lnorm_t<true>::pd_t, layer_normalization_desc_t>},
            {create_pd<lnorm_t<false>::pd_t, layer_normalization_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
