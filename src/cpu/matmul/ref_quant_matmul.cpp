// Integer matmul over the full quantization grid (ref_quant_matmul.hpp):
// which masks and groups are taken, and the per-element reference loop.
#include "cpu/matmul/ref_quant_matmul.hpp"

#include <vector>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/verbose.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

status_t refuse(const char *why) {
    verbose_check("matmul", "ref_quant: %s", why);
    return dnnl_unimplemented;
}

bool is_x8(data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8;
}

bool plain(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked
            && md.format_desc.blocking.inner_nblks == 0;
}

// Group sizes of a quantization entry per dim of an nd tensor: the two
// group dims apply to the last two dims.
void group_sizes(const quant_entry_t &e, int nd, dim_t *g) {
    for (int d = 0; d < nd; ++d)
        g[d] = 1;
    if (e.group_ndims == 2) {
        g[nd - 2] = e.group_dims[0];
        g[nd - 1] = e.group_dims[1];
    }
}

// Whether `e` on a tensor of `md`'s dims is taken: a mask within the dims,
// groups only with their dims in the mask, dividing them, with `k_dim`
// (the reduction dim, -1 for dst) grouped by a multiple of 32 and every
// other dim ungrouped (as oneDNN's CPU matmul).
bool entry_ok(const quant_entry_t &e, const memory_desc_t &md, int k_dim) {
    const int nd = md.ndims;
    if (e.mask < 0 || e.mask >= (1 << nd)) return false;
    if (e.group_ndims != 0 && e.group_ndims != 2) return false;
    dim_t g[DNNL_MAX_NDIMS];
    group_sizes(e, nd, g);
    for (int d = 0; d < nd; ++d) {
        if (g[d] == 1) continue;
        if (d != k_dim || !(e.mask & (1 << d))) return false;
        if (g[d] % 32 != 0 || md.dims[d] % g[d] != 0) return false;
    }
    return true;
}

// One quantization tensor at execution: its values and how a logical
// position of the quantized tensor finds its entry.
struct quant_t {
    const void *data = nullptr;
    data_type_t dt = dnnl_f32;
    int nd = 0, mask = 0;
    dim_t dims[DNNL_MAX_NDIMS] = {}, group[DNNL_MAX_NDIMS] = {};

    bool init(const quant_entry_t *e, const memory_desc_t &md,
            const exec_ctx_t &ctx, int arg) {
        if (!e) return true;
        data = ctx.host_ptr(arg);
        if (!data) return false;
        dt = e->data_type;
        nd = md.ndims;
        mask = e->mask;
        group_sizes(*e, nd, group);
        for (int d = 0; d < nd; ++d)
            dims[d] = md.dims[d];
        return true;
    }
    bool on() const { return data != nullptr; }
    // Row-major over the masked dims, each in units of its group.
    float at(const dim_t *pos) const {
        dim_t idx = 0;
        for (int d = 0; d < nd; ++d)
            if (mask & (1 << d))
                idx = idx * (dims[d] / group[d]) + pos[d] / group[d];
        return load_f32(dt, data, idx);
    }
};

// Position of the same batch element in a tensor that may broadcast its
// batch dims (size 1).
void bcast_pos(const memory_desc_t &md, const dim_t *dst_pos, dim_t *pos) {
    for (int d = 0; d < md.ndims; ++d)
        pos[d] = md.dims[d] == 1 ? 0 : dst_pos[d];
}

} // namespace

status_t ref_quant_matmul_t::pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    const data_type_t sdt = src_md_.data_type, wdt = weights_md_.data_type;
    if (!is_x8(sdt) || !is_x8(wdt)) return dnnl_unimplemented;
    if (has_runtime_dims_or_strides()) return refuse("runtime dims");
    for (memory_desc_t *md : {&src_md_, &weights_md_, &dst_md_, &bias_md_}) {
        if (md == &bias_md_ && !with_bias()) continue;
        if (md->format_kind == dnnl_format_kind_any) {
            memory_desc_t r;
            DNNL_CHECK(md_init_by_strides(
                    r, md->ndims, md->dims, md->data_type, nullptr));
            *md = r;
        }
        if (!plain(*md)) return refuse("plain layouts only");
    }
    const data_type_t ddt = dst_md_.data_type;
    if (ddt != dnnl_f32 && ddt != dnnl_bf16 && ddt != dnnl_f16
            && ddt != dnnl_s32 && !is_x8(ddt))
        return refuse("dst data type");
    if (attr_.get_rounding(DNNL_ARG_DST) != dnnl_rounding_mode_environment)
        return refuse("rounding mode");
    if (attr_.dropout.on()) return refuse("dropout");
    const int nd = dst_md_.ndims, k_src = nd - 1, k_wei = nd - 2;
    for (const auto &it : attr_.scales.items) {
        const quant_entry_t &e = it.e;
        if (e.qmode > dnnl_quantization_mode_static_sazp)
            return refuse("dynamic quantization");
        if (e.data_type != dnnl_f32 && e.data_type != dnnl_bf16
                && e.data_type != dnnl_f16)
            return refuse("scales data type");
        if (it.arg == DNNL_ARG_SRC) {
            if (!entry_ok(e, src_md_, k_src)) return refuse("src scales");
            // Per K without groups is not oneDNN's on CPU either.
            if ((e.mask & (1 << k_src)) && e.group_ndims == 0)
                return refuse("src scales per K need groups");
        } else if (it.arg == DNNL_ARG_WEIGHTS) {
            if (!entry_ok(e, weights_md_, k_wei))
                return refuse("weights scales");
        } else if (it.arg == DNNL_ARG_DST) {
            if (!entry_ok(e, dst_md_, -1)) return refuse("dst scales");
        } else {
            return refuse("scales argument");
        }
    }
    for (const auto &it : attr_.zero_points.items) {
        const quant_entry_t &e = it.e;
        if (e.data_type != dnnl_s32 && !is_x8(e.data_type))
            return refuse("zero points data type");
        const int n_bit = 1 << (nd - 1);
        if (it.arg == DNNL_ARG_SRC) {
            if (!entry_ok(e, src_md_, k_src)) return refuse("src zero points");
        } else if (it.arg == DNNL_ARG_WEIGHTS) {
            if (!entry_ok(e, weights_md_, k_wei))
                return refuse("weights zero points");
        } else if (it.arg == DNNL_ARG_DST) {
            if (e.group_ndims != 0 || (e.mask != 0 && e.mask != n_bit))
                return refuse("dst zero points per tensor or per N only");
        } else {
            return refuse("zero points argument");
        }
    }
    for (const auto &it : attr_.precomputed_reductions.items)
        if (it.arg != DNNL_ARG_SRC || !entry_ok(it.e, src_md_, k_src)
                || it.e.mask != (1 << k_src | 1 << (nd - 2)))
            return refuse("precomputed reductions: src, per M and K only");
    return po.init(attr_.post_ops, dst_md_);
}

status_t ref_quant_matmul_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd();
    const memory_desc_t &smd = p->src_md(), &wmd = p->weights_md(),
                        &dmd = p->dst_md(), &bmd = p->bias_md();
    const char *src = (const char *)ctx.host_ptr(DNNL_ARG_SRC);
    const char *wei = (const char *)ctx.host_ptr(DNNL_ARG_WEIGHTS);
    char *dst = (char *)ctx.host_ptr(DNNL_ARG_DST);
    const void *bias = p->with_bias() ? ctx.host_ptr(DNNL_ARG_BIAS) : nullptr;
    const int nd = dmd.ndims;
    const dim_t M = dmd.dims[nd - 2], N = dmd.dims[nd - 1];
    const dim_t K = smd.dims[nd - 1];
    if (md_nelems(dmd) == 0) return dnnl_success;
    if (!dst || (K > 0 && (!src || !wei)) || (p->with_bias() && !bias))
        return dnnl_invalid_arguments;

    const primitive_attr_t &a = *p->attr();
    quant_t ss, ws, ds, sz, wz, dz;
    const int S = DNNL_ARG_ATTR_SCALES, Z = DNNL_ARG_ATTR_ZERO_POINTS;
    if (!ss.init(a.scales.get(DNNL_ARG_SRC), smd, ctx, S | DNNL_ARG_SRC)
            || !ws.init(a.scales.get(DNNL_ARG_WEIGHTS), wmd, ctx,
                    S | DNNL_ARG_WEIGHTS)
            || !ds.init(a.scales.get(DNNL_ARG_DST), dmd, ctx, S | DNNL_ARG_DST)
            || !sz.init(a.zero_points.get(DNNL_ARG_SRC), smd, ctx,
                    Z | DNNL_ARG_SRC)
            || !wz.init(a.zero_points.get(DNNL_ARG_WEIGHTS), wmd, ctx,
                    Z | DNNL_ARG_WEIGHTS)
            || !dz.init(a.zero_points.get(DNNL_ARG_DST), dmd, ctx,
                    Z | DNNL_ARG_DST)) {
        verbose_error("matmul", "a scale or zero point argument is missing");
        return dnnl_invalid_arguments;
    }
    postops::postops_args_t pa;
    DNNL_CHECK(pa.init(p->po, ctx));

    dim_t batches = 1;
    for (int d = 0; d < nd - 2; ++d)
        batches *= dmd.dims[d];
    const data_type_t sdt = smd.data_type, wdt = wmd.data_type;
    const data_type_t ddt = dmd.data_type;
    const size_t dsz = data_type_size(ddt);
    const dim_t dcs = dmd.format_desc.blocking.strides[nd - 1];

    // One row of dst per task: formed in f32, post-ops over the row (sum
    // reads the row of dst in place), then dst scale, zero point, store.
    parallel_nd(batches * M, [&](dim_t bm) {
        dim_t pos[DNNL_MAX_NDIMS] = {};
        dim_t rem = bm / M;
        for (int d = nd - 3; d >= 0; --d) {
            pos[d] = rem % dmd.dims[d];
            rem /= dmd.dims[d];
        }
        pos[nd - 2] = bm % M;
        std::vector<float> row((size_t)N);
        dim_t sp[DNNL_MAX_NDIMS], wp[DNNL_MAX_NDIMS];
        bcast_pos(smd, pos, sp);
        bcast_pos(wmd, pos, wp);
        for (dim_t n = 0; n < N; ++n) {
            double acc = 0;
            for (dim_t k = 0; k < K; ++k) {
                sp[nd - 1] = k;
                wp[nd - 2] = k;
                wp[nd - 1] = n;
                double s = load_f32(sdt, src, md_off_v(smd, sp));
                double w = load_f32(wdt, wei, md_off_v(wmd, wp));
                if (sz.on()) s -= sz.at(sp);
                if (wz.on()) w -= wz.at(wp);
                if (ss.on()) s *= ss.at(sp);
                if (ws.on()) w *= ws.at(wp);
                acc += s * w;
            }
            row[(size_t)n] = (float)acc;
        }
        dim_t dp[DNNL_MAX_NDIMS];
        for (int d = 0; d < nd; ++d)
            dp[d] = pos[d];
        if (bias) {
            dim_t bp[DNNL_MAX_NDIMS];
            for (dim_t n = 0; n < N; ++n) {
                dp[nd - 1] = n;
                bcast_pos(bmd, dp, bp);
                row[(size_t)n] += load_f32(bmd.data_type, bias, md_off_v(bmd, bp));
            }
        }
        dp[nd - 1] = 0;
        char *drow = dst + md_off_v(dmd, dp) * dsz;
        if (!p->po.empty())
            postops::apply(p->po, pa, row.data(), N, 1, N, dp, -1, nd - 1,
                    drow, 0, dcs);
        for (dim_t n = 0; n < N; ++n) {
            dp[nd - 1] = n;
            float v = row[(size_t)n];
            if (ds.on()) v /= ds.at(dp);
            if (dz.on()) v += dz.at(dp);
            store_f32(ddt, v, dst, md_off_v(dmd, dp));
        }
    });
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
