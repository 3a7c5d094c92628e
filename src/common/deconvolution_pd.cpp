// Deconvolution descriptor construction, validation and attribute checks.
#include "common/deconvolution_pd.hpp"
#include "common/dim_math.hpp"

#include "oneapi/dnnl/dnnl_debug.h"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {
bool md_usable(const memory_desc_t *md)
{
    return md && md->ndims > 0 && md->ndims <= max_ndims
            && data_type_size(md->data_type) > 0
            && (md->format_kind == dnnl_format_kind_any
                    || md->format_kind == dnnl_blocked);
}

#define DECONV_CHECK(cond, status, ...) \
    do { \
        if (!(cond)) { \
            verbose_check("deconvolution", __VA_ARGS__); \
            return status; \
        } \
    } while (0)
} // namespace

status_t deconv_desc_init(deconvolution_desc_t &dd, prop_kind_t prop_kind,
        alg_kind_t alg_kind, const memory_desc_t *src_desc,
        const memory_desc_t *weights_desc, const memory_desc_t *bias_desc,
        const memory_desc_t *dst_desc, const dims_t strides,
        const dims_t dilates, const dims_t padding_l, const dims_t padding_r)
{
    DECONV_CHECK(src_desc && weights_desc && dst_desc && strides && padding_l,
            dnnl_invalid_arguments, "one of the arguments is null");
    DECONV_CHECK(alg_kind == dnnl_deconvolution_direct
                    || alg_kind == dnnl_deconvolution_winograd,
            dnnl_invalid_arguments, "bad algorithm");
    DECONV_CHECK(prop_kind == dnnl_forward_training
                    || prop_kind == dnnl_forward_inference
                    || prop_kind == dnnl_backward_data
                    || prop_kind == dnnl_backward_weights,
            dnnl_invalid_arguments, "bad propagation kind");
    if (!padding_r) padding_r = padding_l;

    const bool with_bias
            = bias_desc && bias_desc->format_kind != dnnl_format_kind_undef;
    DECONV_CHECK(md_usable(src_desc) && md_usable(weights_desc)
                    && md_usable(dst_desc)
                    && (!with_bias || md_usable(bias_desc)),
            dnnl_invalid_arguments, "bad memory descriptor");
    bool runtime = md_has_runtime_dims_or_strides(*src_desc)
            || md_has_runtime_dims_or_strides(*weights_desc)
            || md_has_runtime_dims_or_strides(*dst_desc)
            || (with_bias && md_has_runtime_dims_or_strides(*bias_desc));
    DECONV_CHECK(!runtime, dnnl_unimplemented, "runtime dims are unsupported");

    deconvolution_desc_t d;
    d.prop_kind = prop_kind;
    d.alg_kind = alg_kind;
    d.src_desc = d.diff_src_desc = zero_md();
    d.dst_desc = d.diff_dst_desc = zero_md();
    d.weights_desc = d.diff_weights_desc = zero_md();
    d.bias_desc = d.diff_bias_desc = zero_md();
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
    DECONV_CHECK(d.accum_data_type != dnnl_data_type_undef,
            dnnl_invalid_arguments, "no accumulation data type");

    const int nd = src_desc->ndims;
    DECONV_CHECK(md_nelems(*weights_desc) > 0, dnnl_invalid_arguments,
            "empty weights");
    DECONV_CHECK(nd == dst_desc->ndims, dnnl_invalid_arguments,
            "src and dst ranks differ");
    DECONV_CHECK(nd >= 3 && nd <= 5, dnnl_invalid_arguments, "bad src rank");
    DECONV_CHECK(weights_desc->ndims == nd || weights_desc->ndims == nd + 1,
            dnnl_invalid_arguments, "weights rank inconsistent with src");
    const int wg = weights_desc->ndims == nd + 1 ? 1 : 0;
    const dim_t g = wg ? weights_desc->dims[0] : 1;
    DECONV_CHECK(!with_bias
                    || (bias_desc->ndims == 1
                            && bias_desc->dims[0] == dst_desc->dims[1]),
            dnnl_invalid_arguments, "bad bias dims");
    DECONV_CHECK(g > 0, dnnl_invalid_arguments, "bad groups");
    DECONV_CHECK(src_desc->dims[0] == dst_desc->dims[0],
            dnnl_invalid_arguments, "src and dst batch differ");
    DECONV_CHECK(src_desc->dims[1] == g * weights_desc->dims[wg + 1],
            dnnl_invalid_arguments, "src channels inconsistent with weights");
    DECONV_CHECK(dst_desc->dims[1] == g * weights_desc->dims[wg + 0],
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
        DECONV_CHECK(str > 0, dnnl_invalid_arguments, "bad stride");
        DECONV_CHECK(dil >= 0 && pl >= 0 && pr > -str,
                dnnl_invalid_arguments, "bad dilation or padding");
        // Deconvolution is convolution's backward: dst plays the source.
        dim_t out = 0;
        DECONV_CHECK(window_out(dst, ker, dil, pl, pr, str, out),
                dnnl_invalid_arguments, "spatial sizes overflow");
        DECONV_CHECK(out == src, dnnl_invalid_arguments,
                "inconsistent spatial sizes (src %lld, kernel %lld, dst %lld)",
                (long long)src, (long long)ker, (long long)dst);
    }
    dd = d;
    return dnnl_success;
}

status_t deconv_attr_check(
        const deconvolution_desc_t &dd, const primitive_attr_t *attr)
{
    if (!attr) return dnnl_success;
    const bool fwd = dd.prop_kind == dnnl_forward_training
            || dd.prop_kind == dnnl_forward_inference;
    if (!fwd) {
        DECONV_CHECK(attr->scales.empty() && attr->zero_points.empty()
                        && attr->post_ops.entries.empty()
                        && attr->rounding_modes.empty()
                        && attr->acc_mode == dnnl_accumulation_mode_strict,
                dnnl_unimplemented, "unsupported attribute for backward");
        return dnnl_success;
    }
    // The forward checks are those of a forward convolution with the same
    // tensors, except that dst scales are common only, there is no
    // depthwise post-op and no rounding mode (oneDNN's deconvolution takes
    // none).
    for (const auto &r : attr->rounding_modes)
        DECONV_CHECK(r.mode == dnnl_rounding_mode_environment,
                dnnl_unimplemented, "unsupported rounding mode");
    convolution_desc_t cd;
    cd.prop_kind = dd.prop_kind;
    cd.src_desc = dd.src_desc;
    cd.weights_desc = dd.weights_desc;
    cd.dst_desc = dd.dst_desc;
    DNNL_CHECK(conv_attr_check(cd, attr));
    DECONV_CHECK(!attr->zero_points.has(DNNL_ARG_WEIGHTS), dnnl_unimplemented,
            "unsupported zero points");
    const auto *ds = attr->scales.get(DNNL_ARG_DST);
    DECONV_CHECK(!ds || ds->mask == 0, dnnl_unimplemented, "dst scale mask");
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
