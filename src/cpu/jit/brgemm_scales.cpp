// Scales of the u8 x s8 BRGEMM primitives (brgemm_scales.hpp).
#include "cpu/jit/brgemm_scales.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

bool brgemm_scales_ok(const primitive_attr_t &attr, int per_n_mask,
        bool epilogue, brgemm_scale_t &kind) {
    kind = brgemm_scale_t::none;
    for (const auto &it : attr.scales.items) {
        const quant_entry_t &e = it.e;
        if (e.data_type != dnnl_f32 || e.group_ndims != 0) return false;
        if ((it.arg == DNNL_ARG_SRC || it.arg == DNNL_ARG_DST) && e.mask == 0) {
            if (it.arg == DNNL_ARG_DST && epilogue) return false;
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

status_t brgemm_combine_scales(const exec_ctx_t &ctx,
        const primitive_attr_t &attr, brgemm_scale_t kind, dim_t N,
        float &common, float *per_n, const float *&out) {
    out = nullptr;
    if (kind == brgemm_scale_t::none) return dnnl_success;
    auto value = [&](int arg, const float *&v) {
        v = nullptr;
        if (!attr.scales.get(arg)) return true;
        v = static_cast<const float *>(
                ctx.host_ptr(DNNL_ARG_ATTR_SCALES | arg));
        return v != nullptr;
    };
    const float *s = nullptr, *w = nullptr, *d = nullptr;
    if (!value(DNNL_ARG_SRC, s) || !value(DNNL_ARG_WEIGHTS, w)
            || !value(DNNL_ARG_DST, d))
        return dnnl_invalid_arguments;
    common = (s ? s[0] : 1.f) / (d ? d[0] : 1.f);
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

bool brgemm_zero_points_ok(const primitive_attr_t &attr, bool &src_zp) {
    src_zp = false;
    for (const auto &it : attr.zero_points.items) {
        if (it.arg != DNNL_ARG_SRC || it.e.mask != 0 || it.e.group_ndims != 0
                || it.e.data_type != dnnl_s32)
            return false;
        src_zp = true;
    }
    return true;
}

status_t brgemm_src_shift(const exec_ctx_t &ctx, const primitive_attr_t &attr,
        bool a_s8, int32_t &shift) {
    shift = a_s8 ? 128 : 0;
    if (!attr.zero_points.get(DNNL_ARG_SRC)) return dnnl_success;
    const auto *zp = static_cast<const int32_t *>(
            ctx.host_ptr(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC));
    if (!zp) return dnnl_invalid_arguments;
    shift += zp[0];
    return dnnl_success;
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
