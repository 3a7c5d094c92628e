// C API: deconvolution primitive descriptors (forward, backward data,
// backward weights). Validation happens here; the CPU implementations live
// in src/cpu/deconvolution.
#include <new>

#include "api/c_enum.hpp"
#include "common/deconvolution_pd.hpp"
#include "common/primitive_iface.hpp"

using namespace dnnl::impl;

namespace {
status_t create_deconv_pd(dnnl_primitive_desc_t *pd, engine_t *engine,
        prop_kind_t prop_kind, alg_kind_t alg_kind, const memory_desc_t *src,
        const memory_desc_t *wei, const memory_desc_t *bias,
        const memory_desc_t *dst, const dims_t strides, const dims_t dilates,
        const dims_t padding_l, const dims_t padding_r,
        const primitive_desc_iface_t *hint_fwd, const primitive_attr_t *attr)
{
    if (!pd || !engine) return dnnl_invalid_arguments;
    try {
        deconvolution_desc_t cd;
        DNNL_CHECK(deconv_desc_init(cd, prop_kind, alg_kind, src, wei, bias,
                dst, strides, dilates, padding_l, padding_r));
        DNNL_CHECK(deconv_attr_check(cd, attr));
        return dnnl_primitive_desc::create(pd, cd, attr, engine, hint_fwd);
    } catch (const std::bad_alloc &) {
        return dnnl_out_of_memory;
    } catch (...) {
        return dnnl_runtime_error;
    }
}
} // namespace

dnnl_status_t dnnl_deconvolution_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind_arg, dnnl_alg_kind_t alg_kind_arg,
        const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_desc,
        const dnnl_dims_t strides, const dnnl_dims_t dilates,
        const dnnl_dims_t padding_l, const dnnl_dims_t padding_r,
        const_dnnl_primitive_attr_t attr)
{
    const dnnl_prop_kind_t prop_kind
            = checked(prop_kind_arg, dnnl_prop_kind_undef);
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (prop_kind != dnnl_forward_training
            && prop_kind != dnnl_forward_inference)
        return dnnl_invalid_arguments;
    return create_deconv_pd(primitive_desc, engine, prop_kind, alg_kind,
            src_desc, weights_desc, bias_desc, dst_desc, strides, dilates,
            padding_l, padding_r, nullptr, attr);
}

dnnl_status_t dnnl_deconvolution_backward_data_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t diff_src_desc,
        const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dims_t strides,
        const dnnl_dims_t dilates, const dnnl_dims_t padding_l,
        const dnnl_dims_t padding_r, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr)
{
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    return create_deconv_pd(primitive_desc, engine, dnnl_backward_data,
            alg_kind, diff_src_desc, weights_desc, nullptr, diff_dst_desc,
            strides, dilates, padding_l, padding_r, hint_fwd_pd, attr);
}

dnnl_status_t dnnl_deconvolution_backward_weights_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t src_desc,
        const_dnnl_memory_desc_t diff_weights_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_desc, const dnnl_dims_t strides,
        const dnnl_dims_t dilates, const dnnl_dims_t padding_l,
        const dnnl_dims_t padding_r, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr)
{
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    return create_deconv_pd(primitive_desc, engine, dnnl_backward_weights,
            alg_kind, src_desc, diff_weights_desc, diff_bias_desc,
            diff_dst_desc, strides, dilates, padding_l, padding_r,
            hint_fwd_pd, attr);
}
