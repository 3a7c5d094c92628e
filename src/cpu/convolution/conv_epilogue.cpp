// The convolution epilogue (see conv_epilogue.hpp): scales, bias, the
// post-op chain through the shared math module, destination scale and
// zero point, conversion to the destination data type.
#include "cpu/convolution/conv_epilogue.hpp"

#include <algorithm>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {
// Maps a dimension index of an ndims-dimensional activation tensor to the
// (n, c, d, h, w) slot.
int slot_of(int d, int ndims)
{
    return d < 2 ? d : d + (5 - ndims);
}
} // namespace

status_t epilogue_t::init(const primitive_attr_t &attr,
        const memory_desc_t &out_md, bool acc_is_s32, bool bias,
        data_type_t bias_data_type)
{
    acc_s32 = acc_is_s32;
    dst_dt = out_md.data_type;
    with_bias = bias;
    bias_dt = bias_data_type;
    ndims = out_md.ndims;
    od = ndims == 5 ? out_md.dims[2] : 1;
    oh = ndims >= 4 ? out_md.dims[ndims - 2] : 1;
    ow = out_md.dims[ndims - 1];

    if (const auto *s = attr.scales.get(DNNL_ARG_SRC)) src_scale = true;
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
    po.clear();
    const auto &entries = attr.post_ops.entries;
    for (size_t i = 0; i < entries.size(); ++i) {
        const post_op_t &e = entries[i];
        epi_post_op_t p;
        p.kind = e.kind;
        p.alg = e.alg;
        p.alpha = e.alpha;
        p.beta = e.beta;
        p.scale = e.scale;
        p.zero_point = e.zero_point;
        p.arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        switch (e.kind) {
            case post_op_kind_t::eltwise:
                if (!math::eltwise_is_known_alg(e.alg)) return dnnl_unimplemented;
                break;
            case post_op_kind_t::sum:
                p.dt = e.sum_dt == dnnl_data_type_undef ? dst_dt : e.sum_dt;
                break;
            case post_op_kind_t::binary: {
                const memory_desc_t &m = e.src1_md;
                if (m.ndims != ndims || m.format_kind != dnnl_blocked)
                    return dnnl_unimplemented;
                if (!math::is_binary_alg(e.alg) || e.alg == dnnl_binary_select)
                    return dnnl_unimplemented;
                if (!is_f32_convertible(m.data_type)) return dnnl_unimplemented;
                p.dt = m.data_type;
                p.arg |= DNNL_ARG_SRC_1;
                p.md = m;
                p.generic = m.format_desc.blocking.inner_nblks != 0;
                for (int d = 0; d < ndims; ++d) {
                    if (m.dims[d] != 1 && m.dims[d] != out_md.dims[d])
                        return dnnl_invalid_arguments;
                    p.str[slot_of(d, ndims)] = m.dims[d] == 1
                            ? 0
                            : m.format_desc.blocking.strides[d];
                }
                break;
            }
            case post_op_kind_t::prelu: {
                p.dt = dnnl_f32;
                p.arg |= DNNL_ARG_WEIGHTS;
                dim_t s = 1;
                for (int d = ndims - 1; d >= 0; --d) {
                    const bool on = (e.prelu_mask >> d) & 1;
                    const dim_t n = on ? out_md.dims[d] : 1;
                    p.str[slot_of(d, ndims)] = n == 1 ? 0 : s;
                    s *= n;
                }
                break;
            }
            case post_op_kind_t::dw_conv: return dnnl_unimplemented;
        }
        po.push_back(p);
    }
    return dnnl_success;
}

bool epilogue_t::has_sum() const
{
    for (const auto &p : po)
        if (p.kind == post_op_kind_t::sum) return true;
    return false;
}

void epilogue_args_t::init(
        const epilogue_t &e, const exec_ctx_t &ctx, int bias_arg)
{
    bias = e.with_bias ? ctx.host_ptr(bias_arg) : nullptr;
    src_scale = e.src_scale
            ? ctx.input<float>(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC)
            : nullptr;
    wei_scale = e.wei_scale
            ? ctx.input<float>(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS)
            : nullptr;
    dst_scale = e.dst_scale
            ? ctx.input<float>(DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST)
            : nullptr;
    dst_zp = e.dst_zp
            ? ctx.input<int32_t>(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST)
            : nullptr;
    po_data.assign(e.po.size(), nullptr);
    for (size_t i = 0; i < e.po.size(); ++i)
        if (e.po[i].kind == post_op_kind_t::binary
                || e.po[i].kind == post_op_kind_t::prelu)
            po_data[i] = ctx.host_ptr(e.po[i].arg);
}

namespace {
constexpr int VL = 64;

// Offset of the second tensor of a binary/prelu post-op for element
// (n, c, sp) of the output.
inline dim_t po_offset(const epilogue_t &e, const epi_post_op_t &p, dim_t n,
        dim_t c, dim_t sp)
{
    const dim_t w = sp % e.ow;
    const dim_t h = (sp / e.ow) % e.oh;
    const dim_t d = sp / (e.ow * e.oh);
    if (!p.generic)
        return n * p.str[0] + c * p.str[1] + d * p.str[2] + h * p.str[3]
                + w * p.str[4];
    dim_t pos[5] = {n, c, 0, 0, 0};
    const dim_t sp3[3] = {d, h, w};
    for (int k = 2; k < e.ndims; ++k) {
        const dim_t v = sp3[k - 2 + (5 - e.ndims)];
        pos[k] = p.md.dims[k] == 1 ? 0 : v;
    }
    if (p.md.dims[0] == 1) pos[0] = 0;
    if (p.md.dims[1] == 1) pos[1] = 0;
    return md_off_v(p.md, pos);
}

// One contiguous vector of L output elements: channels c[j] and spatial
// points sp[j] are either c0 + j / fixed or fixed / sp0 + j.
template <bool C_INNER>
void process(const epilogue_t &e, const epilogue_args_t &a, float *v, int L,
        dim_t n, dim_t cb, dim_t spb, const void *out, dim_t out_off,
        dim_t out_stride)
{
    auto ch = [&](int j) { return C_INNER ? cb + j : cb; };
    auto spi = [&](int j) { return C_INNER ? spb : spb + j; };

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
    for (size_t i = 0; i < e.po.size(); ++i) {
        const epi_post_op_t &p = e.po[i];
        switch (p.kind) {
            case post_op_kind_t::eltwise:
                for (int j = 0; j < L; ++j)
                    v[j] = p.scale
                            * math::eltwise_fwd(p.alg, v[j], p.alpha, p.beta);
                break;
            case post_op_kind_t::sum: {
                const float zp = (float)p.zero_point;
                if (p.dt == dnnl_f32 && out_stride == 1) {
                    const float *o = static_cast<const float *>(out) + out_off;
                    for (int j = 0; j < L; ++j)
                        v[j] += p.scale * (o[j] - zp);
                } else {
                    for (int j = 0; j < L; ++j)
                        v[j] += p.scale
                                * (load_f32(p.dt, out, out_off + j * out_stride)
                                        - zp);
                }
                break;
            }
            case post_op_kind_t::binary: {
                const void *s1 = a.po_data[i];
                for (int j = 0; j < L; ++j) {
                    const float b
                            = load_f32(p.dt, s1, po_offset(e, p, n, ch(j), spi(j)));
                    v[j] = math::binary_op(p.alg, v[j], b);
                }
                break;
            }
            case post_op_kind_t::prelu: {
                const float *w = static_cast<const float *>(a.po_data[i]);
                for (int j = 0; j < L; ++j) {
                    const float s = w[po_offset(e, p, n, ch(j), spi(j))];
                    v[j] = v[j] > 0.f ? v[j] : v[j] * s;
                }
                break;
            }
            case post_op_kind_t::dw_conv: break;
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
        const void *acc, dim_t acc_sp, dim_t acc_c, void *out, dim_t out_sp,
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
            if (e.acc_s32) {
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
        const void *acc, dim_t acc_sp, dim_t acc_c, void *out, dim_t out_sp,
        dim_t out_c, dim_t n, dim_t c0, dim_t nc, dim_t sp0, dim_t nsp)
{
    if (out_c == 1)
        apply_impl<true>(e, a, acc, acc_sp, acc_c, out, out_sp, out_c, n, c0,
                nc, sp0, nsp);
    else
        apply_impl<false>(e, a, acc, acc_sp, acc_c, out, out_sp, out_c, n,
                c0, nc, sp0, nsp);
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
