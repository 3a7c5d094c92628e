// Integer matmul over the full quantization grid (ref_quant_matmul.hpp):
// the per-element reference loop (what it takes: common/matmul_quant_grid).
#include "cpu/matmul/ref_quant_matmul.hpp"

#include <vector>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/matmul_quant_grid.hpp"
#include "common/verbose.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

// One quantization tensor at execution: its values and how a logical
// position of the quantized tensor finds its entry.
struct quant_t {
    const void *data = nullptr;
    data_type_t dt = dnnl_f32;
    int nd = 0;
    quant_index_t index;

    bool init(const quant_entry_t *e, const memory_desc_t &md,
            const exec_ctx_t &ctx, int arg) {
        if (!e) return true;
        data = ctx.host_ptr(arg);
        if (!data) return false;
        dt = e->data_type;
        nd = md.ndims;
        index.init(*e, md);
        return true;
    }
    bool on() const { return data != nullptr; }
    float at(const dim_t *pos) const {
        return load_f32(dt, data, index.at(pos, nd));
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
    DNNL_CHECK(check_matmul_quant_grid(*this, "ref_quant"));
    DNNL_CHECK(init_formats());
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
