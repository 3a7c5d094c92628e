// The convolution epilogue (see conv_epilogue.hpp): scales, bias, the
// post-op chain through the shared math module, destination scale and
// zero point, conversion to the destination data type.
#include "cpu/convolution/conv_epilogue.hpp"

#include <algorithm>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/rounding_seed.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

status_t epilogue_t::init(const primitive_attr_t &attr,
        const memory_desc_t &out_md, bool bias, data_type_t bias_data_type)
{
    dst_dt = out_md.data_type;
    with_bias = bias;
    bias_dt = bias_data_type;
    ndims = out_md.ndims;
    od = ndims == 5 ? out_md.dims[2] : 1;
    oh = ndims >= 4 ? out_md.dims[ndims - 2] : 1;
    ow = out_md.dims[ndims - 1];

    src_scale = attr.scales.has(DNNL_ARG_SRC);
    if (const auto *s = attr.scales.get(DNNL_ARG_WEIGHTS)) {
        wei_scale = true;
        wei_scale_per_c = s->mask != 0;
    }
    if (const auto *s = attr.scales.get(DNNL_ARG_DST)) {
        dst_scale = true;
        dst_scale_per_c = s->mask != 0;
    }
    if (const auto *z = attr.zero_points.get(DNNL_ARG_DST)) {
        dst_zp = true;
        dst_zp_per_c = z->mask != 0;
    }
    sround = attr.get_rounding(DNNL_ARG_DST) == dnnl_rounding_mode_stochastic;
    if (sround && !math::sround_params(dst_dt, sround_p))
        return dnnl_unimplemented;
    this->out_md = out_md;
    return po.init(attr.post_ops, out_md);
}

status_t epilogue_args_t::init(
        const epilogue_t &e, const exec_ctx_t &ctx, int bias_arg)
{
    auto get = [&](bool need, int arg, const void *&ptr) {
        ptr = need ? ctx.host_ptr(arg) : nullptr;
        return !need || ptr != nullptr;
    };
    const void *ss, *ws, *ds, *dz;
    if (!get(e.with_bias, bias_arg, bias)
            || !get(e.src_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, ss)
            || !get(e.wei_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, ws)
            || !get(e.dst_scale, DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, ds)
            || !get(e.dst_zp, DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, dz))
        return dnnl_invalid_arguments;
    src_scale = static_cast<const float *>(ss);
    wei_scale = static_cast<const float *>(ws);
    dst_scale = static_cast<const float *>(ds);
    dst_zp = static_cast<const int32_t *>(dz);
    if (e.sround) DNNL_CHECK(read_rounding_seed(ctx, sround_seed));
    return po.init(e.po, ctx);
}

namespace {
constexpr int VL = 64;

// Stochastic rounding of v[0, L): channels and spatial points as in
// process(); each element keyed by its offset in the user's output (oneDNN
// truncates it to 32 bits).
template <bool C_INNER>
void round_stochastic(const epilogue_t &e, const epilogue_args_t &a,
        float *v, int L, dim_t n, dim_t cb, dim_t spb) {
    const int nd = e.out_md.ndims;
    dim_t pos[max_ndims] = {n};
    for (int j = 0; j < L; ++j) {
        const dim_t sp = C_INNER ? spb : spb + j;
        pos[1] = C_INNER ? cb + j : cb;
        pos[nd - 1] = sp % e.ow;
        if (nd >= 4) pos[nd - 2] = sp / e.ow % e.oh;
        if (nd == 5) pos[2] = sp / (e.ow * e.oh);
        const dim_t off = md_off_v(e.out_md, pos);
        v[j] = math::stochastic_round(v[j], (uint32_t)off, a.sround_seed, e.sround_p);
    }
}

// One contiguous vector of L output elements: channels c[j] and spatial
// points sp[j] are either c0 + j / fixed or fixed / sp0 + j.
template <bool C_INNER>
void process(const epilogue_t &e, const epilogue_args_t &a, float *v, int L,
        dim_t n, dim_t cb, dim_t spb, const void *out, dim_t out_off,
        dim_t out_stride)
{
    auto ch = [&](int j) { return C_INNER ? cb + j : cb; };

    if (e.src_scale || e.wei_scale) {
        const float ss = e.src_scale ? a.src_scale[0] : 1.f;
        if (e.wei_scale && e.wei_scale_per_c) {
            for (int j = 0; j < L; ++j)
                v[j] *= ss * a.wei_scale[ch(j)];
        } else {
            const float s = ss * (e.wei_scale ? a.wei_scale[0] : 1.f);
            for (int j = 0; j < L; ++j)
                v[j] *= s;
        }
    }
    if (e.with_bias) {
        if (e.bias_dt == dnnl_f32) {
            const float *b = static_cast<const float *>(a.bias);
            for (int j = 0; j < L; ++j)
                v[j] += b[ch(j)];
        } else {
            for (int j = 0; j < L; ++j)
                v[j] += load_f32(e.bias_dt, a.bias, ch(j));
        }
    }
    if (!e.po.empty()) {
        // The chain module walks one logical dim per call: channels, or
        // output points within one row of the width dim.
        const size_t osz = data_type_size(e.dst_dt);
        dim_t pos[5];
        auto set_pos = [&](dim_t c, dim_t sp) {
            pos[0] = n;
            pos[1] = c;
            const dim_t w = sp % e.ow, h = (sp / e.ow) % e.oh,
                        d = sp / (e.ow * e.oh);
            const dim_t sp3[3] = {d, h, w};
            for (int k = 2; k < e.ndims; ++k)
                pos[k] = sp3[k - 2 + (5 - e.ndims)];
        };
        if (C_INNER) {
            set_pos(cb, spb);
            postops::apply(e.po, a.po, v, L, 1, L, pos, -1, 1,
                    static_cast<const char *>(out) + out_off * osz, 0,
                    out_stride);
        } else {
            for (int j = 0; j < L;) {
                const dim_t sp = spb + j;
                const int len = (int)std::min<dim_t>(L - j, e.ow - sp % e.ow);
                set_pos(cb, sp);
                postops::apply(e.po, a.po, v + j, len, 1, len, pos, -1,
                        e.ndims - 1,
                        static_cast<const char *>(out)
                                + (out_off + j * out_stride) * osz,
                        0, out_stride);
                j += len;
            }
        }
    }
    if (e.dst_scale) {
        if (e.dst_scale_per_c)
            for (int j = 0; j < L; ++j)
                v[j] /= a.dst_scale[ch(j)];
        else
            for (int j = 0; j < L; ++j)
                v[j] /= a.dst_scale[0];
    }
    if (e.dst_zp) {
        if (e.dst_zp_per_c)
            for (int j = 0; j < L; ++j)
                v[j] += (float)a.dst_zp[ch(j)];
        else
            for (int j = 0; j < L; ++j)
                v[j] += (float)a.dst_zp[0];
    }
}

template <bool C_INNER>
void apply_impl(const epilogue_t &e, const epilogue_args_t &a,
        bool acc_s32, const void *acc, dim_t acc_sp, dim_t acc_c, void *out, dim_t out_sp,
        dim_t out_c, dim_t n, dim_t c0, dim_t nc, dim_t sp0, dim_t nsp)
{
    float v[VL];
    const dim_t rows = C_INNER ? nsp : nc;
    const dim_t len = C_INNER ? nc : nsp;
    const dim_t acc_rs = C_INNER ? acc_sp : acc_c;
    const dim_t acc_vs = C_INNER ? acc_c : acc_sp;
    const dim_t out_rs = C_INNER ? out_sp : out_c;
    const dim_t out_vs = C_INNER ? out_c : out_sp;
    for (dim_t r = 0; r < rows; ++r) {
        for (dim_t j0 = 0; j0 < len; j0 += VL) {
            const int L = (int)std::min<dim_t>(VL, len - j0);
            const dim_t aoff = r * acc_rs + j0 * acc_vs;
            const dim_t ooff = r * out_rs + j0 * out_vs;
            if (acc_s32) {
                const int32_t *s = static_cast<const int32_t *>(acc) + aoff;
                for (int j = 0; j < L; ++j)
                    v[j] = (float)s[j * acc_vs];
            } else {
                const float *s = static_cast<const float *>(acc) + aoff;
                for (int j = 0; j < L; ++j)
                    v[j] = s[j * acc_vs];
            }
            const dim_t cb = C_INNER ? c0 + j0 : c0 + r;
            const dim_t spb = C_INNER ? sp0 + r : sp0 + j0;
            process<C_INNER>(e, a, v, L, n, cb, spb, out, ooff, out_vs);
            if (e.sround) round_stochastic<C_INNER>(e, a, v, L, n, cb, spb);
            if (e.dst_dt == dnnl_f32) {
                float *o = static_cast<float *>(out) + ooff;
                for (int j = 0; j < L; ++j)
                    o[j * out_vs] = v[j];
            } else if (out_vs == 1) {
                char *o = static_cast<char *>(out)
                        + ooff * (dim_t)data_type_size(e.dst_dt);
                cvt_from_f32(e.dst_dt, v, o, L);
            } else {
                for (int j = 0; j < L; ++j)
                    store_f32(e.dst_dt, v[j], out, ooff + j * out_vs);
            }
        }
    }
}
} // namespace

void epilogue_apply(const epilogue_t &e, const epilogue_args_t &a,
        bool acc_s32, const void *acc, dim_t acc_sp, dim_t acc_c, void *out, dim_t out_sp,
        dim_t out_c, dim_t n, dim_t c0, dim_t nc, dim_t sp0, dim_t nsp)
{
    if (out_c == 1)
        apply_impl<true>(e, a, acc_s32, acc, acc_sp, acc_c, out, out_sp, out_c, n, c0,
                nc, sp0, nsp);
    else
        apply_impl<false>(e, a, acc_s32, acc, acc_sp, acc_c, out, out_sp, out_c, n,
                c0, nc, sp0, nsp);
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
