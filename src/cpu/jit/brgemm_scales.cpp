// Quantization of the u8 x s8 BRGEMM primitives (brgemm_scales.hpp).
#include "cpu/jit/brgemm_scales.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

bool brgemm_quant_t::init(const primitive_attr_t &attr, int per_n_mask,
        bool epilogue, bool s8_source) {
    *this = brgemm_quant_t();
    a_s8 = s8_source;
    bool dst = false;
    for (const auto &it : attr.scales.items) {
        const quant_entry_t &e = it.e;
        if (e.data_type != dnnl_f32 || e.group_ndims != 0) return false;
        if (it.arg == DNNL_ARG_DST && e.mask == 0) {
            dst = true;
        } else if (it.arg == DNNL_ARG_SRC && e.mask == 0) {
            if (scale == brgemm_scale_t::none) scale = brgemm_scale_t::common;
        } else if (it.arg == DNNL_ARG_WEIGHTS
                   && (e.mask == 0 || e.mask == per_n_mask)) {
            if (e.mask)
                scale = brgemm_scale_t::per_n;
            else if (scale == brgemm_scale_t::none)
                scale = brgemm_scale_t::common;
        } else {
            return false;
        }
    }
    for (const auto &it : attr.zero_points.items) {
        if ((it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST)
                || it.e.mask != 0 || it.e.group_ndims != 0
                || it.e.data_type != dnnl_s32)
            return false;
        (it.arg == DNNL_ARG_SRC ? src_zp : dst_zp) = true;
    }
    if (dst && !epilogue) {
        fold_dst = true;
        if (scale == brgemm_scale_t::none) scale = brgemm_scale_t::common;
    } else {
        dst_scale = dst;
    }
    return true;
}

void brgemm_quant_t::configure(brgemm_config_t &cfg) const {
    cfg.scale = scale;
    cfg.a_s8 = a_s8;
    cfg.comp = comp();
    cfg.dst_scale = dst_scale;
    cfg.dst_zp = dst_zp;
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

status_t brgemm_quant_values_t::init(const exec_ctx_t &ctx,
        const primitive_attr_t &attr, const brgemm_quant_t &q, dim_t N,
        float *per_n) {
    const float *s = nullptr, *w = nullptr, *d = nullptr;
    const int32_t *sz = nullptr, *dz = nullptr;
    const int S = DNNL_ARG_ATTR_SCALES, Z = DNNL_ARG_ATTR_ZERO_POINTS;
    if (!quant_arg(ctx, attr.scales, S, DNNL_ARG_SRC, s)
            || !quant_arg(ctx, attr.scales, S, DNNL_ARG_WEIGHTS, w)
            || !quant_arg(ctx, attr.scales, S, DNNL_ARG_DST, d)
            || !quant_arg(ctx, attr.zero_points, Z, DNNL_ARG_SRC, sz)
            || !quant_arg(ctx, attr.zero_points, Z, DNNL_ARG_DST, dz))
        return dnnl_invalid_arguments;
    const float dst_scale = d ? d[0] : 1.f;
    common = (s ? s[0] : 1.f) / (q.fold_dst ? dst_scale : 1.f);
    scales = nullptr;
    if (q.scale == brgemm_scale_t::per_n) {
        if (!per_n || !w) return dnnl_invalid_arguments;
        for (dim_t j = 0; j < N; ++j) per_n[j] = common * w[j];
        scales = per_n;
    } else if (q.scale == brgemm_scale_t::common) {
        if (w) common *= w[0];
        scales = &common;
    }
    dst_inv_scale = q.dst_scale ? 1.f / dst_scale : 1.f;
    dst_zp = dz ? (float)dz[0] : 0.f;
    shift = (q.a_s8 && !q.exact_s8 ? 128 : 0) + (sz ? sz[0] : 0);
    return dnnl_success;
}

void brgemm_quant_values_t::set_args(
        brgemm_args_t &a, const brgemm_quant_t &q, dim_t n0) const {
    a.scales = q.scale == brgemm_scale_t::per_n && scales ? scales + n0
                                                          : scales;
    a.dst_scale = &dst_inv_scale;
    a.dst_zp = &dst_zp;
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
