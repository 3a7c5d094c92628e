// Quantization of the u8 x s8 BRGEMM primitives (brgemm_scales.hpp).
#include "cpu/jit/brgemm_scales.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

bool brgemm_scales_ok(const primitive_attr_t &attr, int per_n_mask,
        brgemm_scale_t &kind, bool &dst) {
    kind = brgemm_scale_t::none;
    dst = false;
    for (const auto &it : attr.scales.items) {
        const quant_entry_t &e = it.e;
        if (e.data_type != dnnl_f32 || e.group_ndims != 0) return false;
        if (it.arg == DNNL_ARG_DST && e.mask == 0) {
            dst = true;
        } else if (it.arg == DNNL_ARG_SRC && e.mask == 0) {
            if (kind == brgemm_scale_t::none) kind = brgemm_scale_t::common;
        } else if (it.arg == DNNL_ARG_WEIGHTS
                   && (e.mask == 0 || e.mask == per_n_mask)) {
            if (e.mask)
                kind = brgemm_scale_t::per_n;
            else if (kind == brgemm_scale_t::none)
                kind = brgemm_scale_t::common;
        } else {
            return false;
        }
    }
    return true;
}

namespace {

// The value buffer of an argument's scales or zero points: null without
// them; false where they are expected but missing.
template <typename T>
bool quant_arg(const exec_ctx_t &ctx, const quant_map_t &map, int kind,
        int arg, const T *&v) {
    v = nullptr;
    if (!map.get(arg)) return true;
    v = static_cast<const T *>(ctx.host_ptr(kind | arg));
    return v != nullptr;
}

} // namespace

status_t brgemm_combine_scales(const exec_ctx_t &ctx,
        const primitive_attr_t &attr, brgemm_scale_t kind, dim_t N,
        float &common, float *per_n, const float *&out) {
    out = nullptr;
    if (kind == brgemm_scale_t::none) return dnnl_success;
    const float *s = nullptr, *w = nullptr;
    if (!quant_arg(ctx, attr.scales, DNNL_ARG_ATTR_SCALES, DNNL_ARG_SRC, s)
            || !quant_arg(ctx, attr.scales, DNNL_ARG_ATTR_SCALES,
                    DNNL_ARG_WEIGHTS, w))
        return dnnl_invalid_arguments;
    common = s ? s[0] : 1.f;
    if (kind == brgemm_scale_t::per_n) {
        if (!per_n || !w) return dnnl_invalid_arguments;
        for (dim_t j = 0; j < N; ++j) per_n[j] = common * w[j];
        out = per_n;
    } else {
        if (w) common *= w[0];
        out = &common;
    }
    return dnnl_success;
}

bool brgemm_zero_points_ok(
        const primitive_attr_t &attr, bool &src_zp, bool &dst_zp) {
    src_zp = dst_zp = false;
    for (const auto &it : attr.zero_points.items) {
        if ((it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST)
                || it.e.mask != 0 || it.e.group_ndims != 0
                || it.e.data_type != dnnl_s32)
            return false;
        (it.arg == DNNL_ARG_SRC ? src_zp : dst_zp) = true;
    }
    return true;
}

status_t brgemm_src_shift(const exec_ctx_t &ctx, const primitive_attr_t &attr,
        bool a_s8, int32_t &shift) {
    shift = a_s8 ? 128 : 0;
    const int32_t *zp = nullptr;
    if (!quant_arg(ctx, attr.zero_points, DNNL_ARG_ATTR_ZERO_POINTS,
                DNNL_ARG_SRC, zp))
        return dnnl_invalid_arguments;
    if (zp) shift += zp[0];
    return dnnl_success;
}

status_t brgemm_dst_quant(const exec_ctx_t &ctx, const primitive_attr_t &attr,
        float &inv_scale, float &zp) {
    const float *s = nullptr;
    const int32_t *z = nullptr;
    if (!quant_arg(ctx, attr.scales, DNNL_ARG_ATTR_SCALES, DNNL_ARG_DST, s)
            || !quant_arg(ctx, attr.zero_points, DNNL_ARG_ATTR_ZERO_POINTS,
                    DNNL_ARG_DST, z))
        return dnnl_invalid_arguments;
    inv_scale = s ? 1.f / s[0] : 1.f;
    zp = z ? (float)z[0] : 0.f;
    return dnnl_success;
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
