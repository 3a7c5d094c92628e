// Convolution descriptor construction and validation, and attribute
// checks.
#include "common/convolution_pd.hpp"
#include "common/dim_math.hpp"

#include "oneapi/dnnl/dnnl_debug.h"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {
bool one_of_dt(data_type_t v, std::initializer_list<data_type_t> l)
{
    for (auto x : l)
        if (x == v) return true;
    return false;
}

bool md_usable(const memory_desc_t *md)
{
    return md && md->ndims > 0 && md->ndims <= max_ndims
            && data_type_size(md->data_type) > 0
            && (md->format_kind == dnnl_format_kind_any
                    || md->format_kind == dnnl_blocked);
}

#define CONV_CHECK(cond, status, ...) \
    do { \
        if (!(cond)) { \
            verbose_check("convolution", __VA_ARGS__); \
            return status; \
        } \
    } while (0)
} // namespace

data_type_t conv_default_accum_data_type(data_type_t src_dt,
        data_type_t wei_dt, data_type_t dst_dt, prop_kind_t prop_kind)
{
    using std::initializer_list;
    if (src_dt == dnnl_f32 && wei_dt == dnnl_f32) return dnnl_f32;
    if (src_dt == dnnl_f64 && wei_dt == dnnl_f64) return dnnl_f64;
    const bool fwd = prop_kind == dnnl_forward_training
            || prop_kind == dnnl_forward_inference;
    if (fwd) {
        if (one_of_dt(src_dt, {dnnl_u8, dnnl_s8})
                && one_of_dt(wei_dt, {dnnl_u8, dnnl_s8}))
            return dnnl_s32;
        if (src_dt == dnnl_f16 || wei_dt == dnnl_f16) return dnnl_f32;
        if (one_of_dt(src_dt, {dnnl_bf16, dnnl_f32})
                && one_of_dt(wei_dt, {dnnl_u8, dnnl_s8, dnnl_s4, dnnl_u4}))
            return dnnl_f32;
    } else if (prop_kind == dnnl_backward_data) {
        if (one_of_dt(src_dt, {dnnl_f32, dnnl_s32, dnnl_s8, dnnl_u8})
                && wei_dt == dnnl_s8
                && one_of_dt(dst_dt, {dnnl_s8, dnnl_u8, dnnl_s32}))
            return dnnl_s32;
        if (dst_dt == dnnl_f16 || wei_dt == dnnl_f16) return dnnl_f32;
        if (dst_dt == dnnl_f32 && wei_dt == dnnl_f32
                && one_of_dt(src_dt, {dnnl_s8, dnnl_u8}))
            return dnnl_f32;
    }
    for (data_type_t dt : {dnnl_f8_e5m2, dnnl_f8_e4m3, dnnl_bf16, dnnl_f16})
        if (src_dt == dt || wei_dt == dt || dst_dt == dt) return dnnl_f32;
    return dnnl_data_type_undef;
}

status_t conv_desc_init(convolution_desc_t &cd, prop_kind_t prop_kind,
        alg_kind_t alg_kind, const memory_desc_t *src_desc,
        const memory_desc_t *weights_desc, const memory_desc_t *bias_desc,
        const memory_desc_t *dst_desc, const dims_t strides,
        const dims_t dilates, const dims_t padding_l, const dims_t padding_r)
{
    CONV_CHECK(src_desc && weights_desc && dst_desc && strides && padding_l,
            dnnl_invalid_arguments, "one of the arguments is null");
    CONV_CHECK(alg_kind == dnnl_convolution_auto
                    || alg_kind == dnnl_convolution_direct
                    || alg_kind == dnnl_convolution_winograd,
            dnnl_invalid_arguments, "bad algorithm");
    CONV_CHECK(prop_kind == dnnl_forward_training
                    || prop_kind == dnnl_forward_inference
                    || prop_kind == dnnl_backward_data
                    || prop_kind == dnnl_backward_weights,
            dnnl_invalid_arguments, "bad propagation kind");
    if (!padding_r) padding_r = padding_l;

    const bool with_bias
            = bias_desc && bias_desc->format_kind != dnnl_format_kind_undef;
    CONV_CHECK(md_usable(src_desc) && md_usable(weights_desc)
                    && md_usable(dst_desc)
                    && (!with_bias || md_usable(bias_desc)),
            dnnl_invalid_arguments, "bad memory descriptor");
    bool runtime = md_has_runtime_dims_or_strides(*src_desc)
            || md_has_runtime_dims_or_strides(*weights_desc)
            || md_has_runtime_dims_or_strides(*dst_desc)
            || (with_bias && md_has_runtime_dims_or_strides(*bias_desc));
    CONV_CHECK(!runtime, dnnl_unimplemented, "runtime dims are unsupported");

    // Built in place (the descriptor is large): the caller passes a fresh
    // one, whose unused descriptors are already zero, and drops it when
    // this fails.
    convolution_desc_t &d = cd;
    d.prop_kind = prop_kind;
    d.alg_kind = alg_kind;
    d.key_alg = alg_kind == dnnl_convolution_auto ? dnnl_convolution_direct
                                                  : alg_kind;
    const bool fwd = prop_kind == dnnl_forward_training
            || prop_kind == dnnl_forward_inference;
    (prop_kind == dnnl_backward_data ? d.diff_src_desc : d.src_desc)
            = *src_desc;
    (fwd ? d.dst_desc : d.diff_dst_desc) = *dst_desc;
    (prop_kind == dnnl_backward_weights ? d.diff_weights_desc
                                        : d.weights_desc)
            = *weights_desc;
    if (with_bias)
        (prop_kind == dnnl_backward_weights ? d.diff_bias_desc : d.bias_desc)
                = *bias_desc;

    d.accum_data_type = conv_default_accum_data_type(src_desc->data_type,
            weights_desc->data_type, dst_desc->data_type, prop_kind);
    CONV_CHECK(d.accum_data_type != dnnl_data_type_undef,
            dnnl_invalid_arguments, "no accumulation data type");

    const int nd = src_desc->ndims;
    CONV_CHECK(md_nelems(*weights_desc) > 0, dnnl_invalid_arguments,
            "empty weights");
    CONV_CHECK(nd == dst_desc->ndims, dnnl_invalid_arguments,
            "src and dst ranks differ");
    CONV_CHECK(nd >= 3 && nd <= 5, dnnl_invalid_arguments, "bad src rank");
    CONV_CHECK(weights_desc->ndims == nd || weights_desc->ndims == nd + 1,
            dnnl_invalid_arguments, "weights rank inconsistent with src");
    const int wg = weights_desc->ndims == nd + 1 ? 1 : 0;
    const dim_t g = wg ? weights_desc->dims[0] : 1;
    const dim_t bias_dim = prop_kind == dnnl_backward_data ? src_desc->dims[1]
                                                           : dst_desc->dims[1];
    CONV_CHECK(!with_bias
                    || (bias_desc->ndims == 1
                            && bias_desc->dims[0] == bias_dim),
            dnnl_invalid_arguments, "bad bias dims");
    CONV_CHECK(g > 0, dnnl_invalid_arguments, "bad groups");
    CONV_CHECK(src_desc->dims[0] == dst_desc->dims[0], dnnl_invalid_arguments,
            "src and dst batch differ");
    CONV_CHECK(src_desc->dims[1] == g * weights_desc->dims[wg + 1],
            dnnl_invalid_arguments, "src channels inconsistent with weights");
    CONV_CHECK(dst_desc->dims[1] == g * weights_desc->dims[wg + 0],
            dnnl_invalid_arguments, "dst channels inconsistent with weights");

    const int sp = nd - 2;
    for (int i = 0; i < sp; ++i) {
        d.strides[i] = strides[i];
        d.padding_l[i] = padding_l[i];
        d.padding_r[i] = padding_r[i];
        d.dilates[i] = dilates ? dilates[i] : 0;
    }
    for (int i = 0; i < sp; ++i) {
        const dim_t src = src_desc->dims[2 + i];
        const dim_t ker = weights_desc->dims[wg + 2 + i];
        const dim_t dil = d.dilates[i];
        const dim_t pl = padding_l[i], pr = padding_r[i];
        const dim_t str = strides[i];
        const dim_t dst = dst_desc->dims[2 + i];
        CONV_CHECK(str > 0, dnnl_invalid_arguments, "bad stride");
        CONV_CHECK(dil >= 0 && pl >= 0 && pr > -str,
                dnnl_invalid_arguments, "bad dilation or padding");
        dim_t out = 0;
        CONV_CHECK(window_out(src, ker, dil, pl, pr, str, out),
                dnnl_invalid_arguments, "spatial sizes overflow");
        CONV_CHECK(out == dst, dnnl_invalid_arguments,
                "inconsistent spatial sizes (src %lld, kernel %lld, dst %lld)",
                (long long)src, (long long)ker, (long long)dst);
    }
    return dnnl_success;
}

status_t conv_attr_check(
        const convolution_desc_t &cd, const primitive_attr_t *attr)
{
    if (!attr) return dnnl_success;
    const bool fwd = cd.prop_kind == dnnl_forward_training
            || cd.prop_kind == dnnl_forward_inference;
    if (!fwd) {
        CONV_CHECK(attr->scales.empty() && attr->zero_points.empty()
                        && attr->post_ops.entries.empty()
                        && attr->rounding_modes.empty(),
                dnnl_unimplemented, "unsupported attribute for backward");
        return dnnl_success;
    }
    const data_type_t src_dt = cd.src_desc.data_type;
    const data_type_t dst_dt = cd.dst_desc.data_type;
    const bool is_int8 = src_dt == dnnl_s8 || src_dt == dnnl_u8;
    const bool groups = cd.weights_desc.ndims == cd.src_desc.ndims + 1;
    bool with_dw = false;
    for (const auto &e : attr->post_ops.entries)
        with_dw = with_dw || e.kind == post_op_kind_t::dw_conv;

    CONV_CHECK(attr->acc_mode == dnnl_accumulation_mode_strict
                    || attr->acc_mode == dnnl_accumulation_mode_relaxed
                    || attr->acc_mode == dnnl_accumulation_mode_any,
            dnnl_unimplemented, "unsupported accumulation mode");
    // Rounding modes are taken on forward (the DST one applies: stochastic
    // rounding of the output, as oneDNN's reference convolution); the
    // implementations that cannot round decline it themselves.

    if (!attr->scales.empty()) {
        CONV_CHECK(is_int8, dnnl_unimplemented, "scales need int8 source");
        for (const auto &it : attr->scales.items) {
            const auto &e = it.e;
            CONV_CHECK(e.group_ndims == 0 && e.data_type == dnnl_f32
                            && !e.is_on_host,
                    dnnl_unimplemented, "unsupported scales configuration");
            if (it.arg == DNNL_ARG_SRC)
                CONV_CHECK(e.mask == 0, dnnl_unimplemented, "src scale mask");
            else if (it.arg == DNNL_ARG_WEIGHTS)
                CONV_CHECK(e.mask == 0 || e.mask == (groups ? 3 : 1),
                        dnnl_unimplemented, "weights scale mask");
            else if (it.arg == DNNL_ARG_DST)
                CONV_CHECK(e.mask == 0 || e.mask == 2, dnnl_unimplemented,
                        "dst scale mask");
            // A depthwise post-op's own weights (grouped: per channel is
            // dims 0 and 1) and destination scales.
            else if (it.arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS))
                CONV_CHECK(with_dw && (e.mask == 0 || e.mask == 3),
                        dnnl_unimplemented, "depthwise weights scale mask");
            else if (it.arg == (DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_DST))
                CONV_CHECK(with_dw && (e.mask == 0 || e.mask == 2),
                        dnnl_unimplemented, "depthwise dst scale mask");
            else
                CONV_CHECK(false, dnnl_unimplemented, "scales argument");
        }
    }
    if (!attr->zero_points.empty()) {
        CONV_CHECK(is_int8, dnnl_unimplemented, "zero points need int8");
        for (const auto &it : attr->zero_points.items) {
            const auto &e = it.e;
            // Weights take one common zero point (the gpu engine's
            // implementation applies it; the cpu engine's refuse it, as
            // oneDNN's).
            CONV_CHECK(e.group_ndims == 0 && e.data_type == dnnl_s32
                            && !e.is_on_host
                            && (((it.arg == DNNL_ARG_SRC
                                         || it.arg == DNNL_ARG_DST)
                                        && (e.mask == 0 || e.mask == 2))
                                    || (it.arg == DNNL_ARG_WEIGHTS
                                            && e.mask == 0)),
                    dnnl_unimplemented, "unsupported zero points");
        }
    }
    const auto &po = attr->post_ops.entries;
    int n_sum = 0;
    bool after_dw = false;
    for (const auto &e : po) {
        // Post-ops after a depthwise one apply to its output: the nested
        // depthwise convolution checks them.
        if (after_dw) continue;
        switch (e.kind) {
            case post_op_kind_t::eltwise: break;
            case post_op_kind_t::sum: {
                ++n_sum;
                CONV_CHECK(n_sum == 1, dnnl_unimplemented, "several sums");
                if (e.sum_dt != dnnl_data_type_undef) {
                    CONV_CHECK(data_type_size(e.sum_dt)
                                    == data_type_size(dst_dt),
                            dnnl_unimplemented, "sum data type size");
                    CONV_CHECK(is_int8 || e.sum_dt == dst_dt,
                            dnnl_unimplemented, "sum data type");
                }
                CONV_CHECK(e.zero_point == 0 || is_int8, dnnl_unimplemented,
                        "sum zero point");
                break;
            }
            case post_op_kind_t::binary: {
                const auto &m = e.src1_md;
                CONV_CHECK(m.ndims == cd.dst_desc.ndims,
                        dnnl_invalid_arguments, "binary post-op rank");
                for (int i = 0; i < m.ndims; ++i)
                    CONV_CHECK(m.dims[i] == 1
                                    || m.dims[i] == cd.dst_desc.dims[i],
                            dnnl_invalid_arguments, "binary post-op dims");
                // `any` is resolved when the implementation is created.
                CONV_CHECK(m.format_kind == dnnl_blocked
                                || m.format_kind == dnnl_format_kind_any,
                        dnnl_unimplemented, "binary post-op format");
                break;
            }
            case post_op_kind_t::prelu:
                CONV_CHECK(e.prelu_mask >= 0
                                && e.prelu_mask < (1 << cd.dst_desc.ndims),
                        dnnl_unimplemented, "prelu mask");
                break;
            case post_op_kind_t::dw_conv:
                CONV_CHECK(cd.src_desc.ndims == 4 && !groups,
                        dnnl_unimplemented,
                        "depthwise post-op needs a 2D convolution without groups");
                CONV_CHECK(e.dw_padding < e.dw_kernel, dnnl_invalid_arguments,
                        "depthwise post-op padding not below its kernel");
                after_dw = true;
                break;
        }
    }
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
