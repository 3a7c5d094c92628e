// GEMM output stage: scales, bias, post-ops, dst scale / zero point and
// conversion, one row chunk at a time through a small f32 buffer.
#include "cpu/postops/gemm_epilogue.hpp"

#include <algorithm>
#include <cstring>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/rounding_seed.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace postops {

status_t gemm_epilogue_t::init(const primitive_attr_t &attr,
        const memory_desc_t &dst_md, const memory_desc_t *bias_md,
        bool acc_is_s32, int col_dim, int wei_col_mask) {
    acc_s32 = acc_is_s32;
    dst_dt = dst_md.data_type;
    with_bias = bias_md && !is_zero_md(*bias_md);
    if (with_bias) DNNL_CHECK(bias.init(*bias_md, dst_md));
    const quant_entry_t *s = attr.scales.get(DNNL_ARG_SRC);
    const quant_entry_t *w = attr.scales.get(DNNL_ARG_WEIGHTS);
    const quant_entry_t *d = attr.scales.get(DNNL_ARG_DST);
    src_scale = s != nullptr;
    wei_scale = w != nullptr;
    wei_scale_per_col = w && w->mask != 0 && w->mask == wei_col_mask;
    dst_scale = d != nullptr;
    dst_scale_per_col = d && d->mask == (1 << col_dim);
    const quant_entry_t *z = attr.zero_points.get(DNNL_ARG_DST);
    dst_zp = z != nullptr;
    dst_zp_per_col = z && z->mask == (1 << col_dim);
    sround = attr.get_rounding(DNNL_ARG_DST) == dnnl_rounding_mode_stochastic;
    if (sround && !math::sround_params(dst_dt, sround_p))
        return dnnl_unimplemented;
    return po.init(attr.post_ops, dst_md);
}

status_t gemm_epilogue_args_t::init(
        const gemm_epilogue_t &e, const exec_ctx_t &ctx) {
    if (e.with_bias) {
        bias = ctx.host_ptr(e.bias_arg);
        if (!bias) return dnnl_invalid_arguments;
    }
    auto get = [&](bool need, int arg, const void *&p) {
        if (!need) return true;
        p = ctx.host_ptr(arg);
        return p != nullptr;
    };
    const void *ss = nullptr, *ws = nullptr, *ds = nullptr, *dz = nullptr;
    if (!get(e.src_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, ss)
            || !get(e.wei_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, ws)
            || !get(e.dst_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, ds)
            || !get(e.dst_zp, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, dz))
        return dnnl_invalid_arguments;
    src_scale = (const float *)ss;
    wei_scale = (const float *)ws;
    dst_scale = (const float *)ds;
    dst_zp = (const int32_t *)dz;
    if (e.sround) {
        DNNL_CHECK(read_rounding_seed(ctx, sround_seed));
        dst_base = (const char *)ctx.host_ptr(DNNL_ARG_DST);
        if (!dst_base) return dnnl_invalid_arguments;
    }
    return po.init(e.po, ctx);
}

namespace {
constexpr dim_t chunk = 256;

void store_row(data_type_t dt, const float *v, void *dst, dim_t cs, dim_t n) {
    if (cs == 1) {
        cvt_from_f32(dt, v, dst, n);
        return;
    }
    for (dim_t j = 0; j < n; ++j)
        store_f32(dt, v[j], dst, j * cs);
}
} // namespace

void apply(const gemm_epilogue_t &e, const gemm_epilogue_args_t &a,
        const void *acc, dim_t ldacc, void *dst, dim_t dst_rs, dim_t dst_cs,
        dim_t m, dim_t n, const dim_t *pos, int row_dim, int col_dim) {
    if (m <= 0 || n <= 0) return;
    const size_t dsz = data_type_size(e.dst_dt);
    const float common_scale = (e.src_scale ? a.src_scale[0] : 1.f)
            * (e.wei_scale && !e.wei_scale_per_col ? a.wei_scale[0] : 1.f);
    const float dst_scale = e.dst_scale ? a.dst_scale[0] : 1.f;
    const bool has_dst_scale = e.dst_scale && !e.dst_scale_per_col;
    const dim_t bias_cs = e.with_bias ? e.bias.step(col_dim) : 0;
    const dim_t bias_rs = e.with_bias ? e.bias.step(row_dim) : 0;
    const dim_t bias_off0 = e.with_bias ? e.bias.offset(pos) : 0;
    const size_t asz = e.acc_s32 ? sizeof(int32_t) : sizeof(float);
    const dim_t col0 = col_dim >= 0 ? pos[col_dim] : 0;

    alignas(64) float tmp[chunk];
    dims_t p;
    std::memcpy(p, pos, sizeof(dim_t) * (e.po.ndims > 0 ? e.po.ndims : 0));
    const int nd = e.po.ndims;
    for (dim_t i = 0; i < m; ++i) {
        const char *acc_row = (const char *)acc + i * ldacc * (dim_t)asz;
        char *dst_row = (char *)dst + i * dst_rs * (dim_t)dsz;
        for (dim_t j0 = 0; j0 < n; j0 += chunk) {
            const dim_t nb = std::min(chunk, n - j0);
            if (e.acc_s32) {
                const int32_t *s = (const int32_t *)acc_row + j0;
                for (dim_t j = 0; j < nb; ++j)
                    tmp[j] = (float)s[j] * common_scale;
            } else {
                const float *s = (const float *)acc_row + j0;
                if (common_scale == 1.f)
                    for (dim_t j = 0; j < nb; ++j)
                        tmp[j] = s[j];
                else
                    for (dim_t j = 0; j < nb; ++j)
                        tmp[j] = s[j] * common_scale;
            }
            if (e.wei_scale_per_col) {
                const float *ws = a.wei_scale + col0 + j0;
                for (dim_t j = 0; j < nb; ++j)
                    tmp[j] *= ws[j];
            }
            if (e.with_bias) {
                const dim_t off = bias_off0 + i * bias_rs + j0 * bias_cs;
                if (e.bias.dt == dnnl_f32 && bias_cs == 1) {
                    const float *b = (const float *)a.bias + off;
                    for (dim_t j = 0; j < nb; ++j)
                        tmp[j] += b[j];
                } else {
                    for (dim_t j = 0; j < nb; ++j)
                        tmp[j] += load_f32(e.bias.dt, a.bias, off + j * bias_cs);
                }
            }
            char *dst_chunk = dst_row + j0 * dst_cs * (dim_t)dsz;
            if (!e.po.empty()) {
                if (nd > 0) {
                    if (row_dim >= 0) p[row_dim] = pos[row_dim] + i;
                    if (col_dim >= 0) p[col_dim] = pos[col_dim] + j0;
                }
                postops::apply(e.po, a.po, tmp, chunk, 1, nb, p, -1, col_dim,
                        dst_chunk, dst_rs, dst_cs);
            }
            if (has_dst_scale)
                for (dim_t j = 0; j < nb; ++j)
                    tmp[j] /= dst_scale;
            if (e.dst_scale_per_col) {
                const float *ds = a.dst_scale + col0 + j0;
                for (dim_t j = 0; j < nb; ++j)
                    tmp[j] /= ds[j];
            }
            if (e.dst_zp) {
                if (e.dst_zp_per_col)
                    for (dim_t j = 0; j < nb; ++j)
                        tmp[j] += (float)a.dst_zp[col0 + j0 + j];
                else {
                    const float z = (float)a.dst_zp[0];
                    for (dim_t j = 0; j < nb; ++j)
                        tmp[j] += z;
                }
            }
            if (e.sround) {
                // Offsets are truncated to 32 bits, as the pinned version
                // does.
                const dim_t off0 = (dim_t)((dst_chunk - a.dst_base) / (ptrdiff_t)dsz);
                for (dim_t j = 0; j < nb; ++j)
                    tmp[j] = math::stochastic_round(tmp[j],
                            (uint32_t)(off0 + j * dst_cs), a.sround_seed,
                            e.sround_p);
            }
            store_row(e.dst_dt, tmp, dst_chunk, dst_cs, nb);
        }
    }
}

} // namespace postops
} // namespace cpu
} // namespace impl
} // namespace dnnl
