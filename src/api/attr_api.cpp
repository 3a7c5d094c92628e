// C API: primitive attributes and post-op chains.
#include <new>

#include "api/c_enum.hpp"
#include "common/primitive_attr.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

bool valid_dt(data_type_t dt) {
    const size_t size = data_type_size(dt);
    return dt != dnnl_data_type_undef && size != (size_t)-1 && size > 0;
}

bool valid_eltwise_alg(alg_kind_t alg) {
    return (alg >= dnnl_eltwise_relu && alg <= dnnl_eltwise_hardswish)
            || (alg >= dnnl_eltwise_relu_use_dst_for_bwd
                    && alg <= dnnl_eltwise_clip_v2_use_dst_for_bwd);
}

bool valid_binary_alg(alg_kind_t alg) {
    return alg >= dnnl_binary_add && alg <= dnnl_binary_select;
}

status_t set_quant(quant_map_t &map, int arg, int mask, int group_ndims,
        const dnnl_dims_t group_dims, data_type_t dt, int is_on_host, int qmode) {
    if (mask < 0 || group_ndims < 0 || group_ndims > DNNL_MAX_NDIMS
            || (group_ndims > 0 && !group_dims) || !valid_dt(dt) || arg < 0)
        return dnnl_invalid_arguments;
    quant_entry_t e;
    e.mask = mask;
    e.group_ndims = group_ndims;
    for (int i = 0; i < group_ndims; ++i) {
        if (group_dims[i] <= 0) return dnnl_invalid_arguments;
        e.group_dims[i] = group_dims[i];
    }
    e.data_type = dt;
    e.is_on_host = is_on_host;
    e.qmode = qmode;
    map.set(arg, e);
    return dnnl_success;
}

const post_op_t *post_op_at(const_dnnl_post_ops_t po, int index, post_op_kind_t kind) {
    if (!po || index < 0 || index >= (int)po->entries.size()) return nullptr;
    const post_op_t &e = po->entries[index];
    return e.kind == kind ? &e : nullptr;
}

} // namespace

dnnl_status_t dnnl_primitive_attr_create(dnnl_primitive_attr_t *attr) {
    if (!attr) return dnnl_invalid_arguments;
    *attr = new (std::nothrow) dnnl_primitive_attr();
    return *attr ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_primitive_attr_clone(
        dnnl_primitive_attr_t *attr, const_dnnl_primitive_attr_t existing_attr) {
    if (!attr || !existing_attr) return dnnl_invalid_arguments;
    *attr = new (std::nothrow) dnnl_primitive_attr(*existing_attr);
    return *attr ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_primitive_attr_destroy(dnnl_primitive_attr_t attr) {
    delete attr;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_get_fpmath_mode_v2(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode, int *apply_to_int) {
    if (!attr || !mode) return dnnl_invalid_arguments;
    *mode = attr->fpmath_mode;
    if (apply_to_int) *apply_to_int = attr->fpmath_apply_to_int;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_get_fpmath_mode(
        const_dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t *mode) {
    return dnnl_primitive_attr_get_fpmath_mode_v2(attr, mode, nullptr);
}

dnnl_status_t dnnl_primitive_attr_set_fpmath_mode_v2(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode, int apply_to_int) {
    if (!attr || !known(mode)) return dnnl_invalid_arguments;
    attr->fpmath_mode = (dnnl_fpmath_mode_t)raw_value(mode);
    attr->fpmath_apply_to_int = apply_to_int ? 1 : 0;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_fpmath_mode(
        dnnl_primitive_attr_t attr, dnnl_fpmath_mode_t mode) {
    if (!known(mode)) return dnnl_invalid_arguments;
    return dnnl_primitive_attr_set_fpmath_mode_v2(
            attr, (dnnl_fpmath_mode_t)raw_value(mode), 0);
}

dnnl_status_t dnnl_primitive_attr_get_deterministic(
        const_dnnl_primitive_attr_t attr, int *value) {
    if (!attr || !value) return dnnl_invalid_arguments;
    *value = attr->deterministic;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_deterministic(dnnl_primitive_attr_t attr, int value) {
    if (!attr) return dnnl_invalid_arguments;
    attr->deterministic = value ? 1 : 0;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_get_accumulation_mode(
        const_dnnl_primitive_attr_t attr, dnnl_accumulation_mode_t *mode) {
    if (!attr || !mode) return dnnl_invalid_arguments;
    *mode = attr->acc_mode;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_accumulation_mode(
        dnnl_primitive_attr_t attr, dnnl_accumulation_mode_t mode) {
    if (!attr || !known(mode)) return dnnl_invalid_arguments;
    attr->acc_mode = (dnnl_accumulation_mode_t)raw_value(mode);
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_get_scratchpad_mode(
        const_dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t *mode) {
    if (!attr || !mode) return dnnl_invalid_arguments;
    *mode = attr->scratchpad_mode;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_scratchpad_mode(
        dnnl_primitive_attr_t attr, dnnl_scratchpad_mode_t mode) {
    if (!attr || !known(mode)) return dnnl_invalid_arguments;
    attr->scratchpad_mode = (dnnl_scratchpad_mode_t)raw_value(mode);
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_scales_v3(dnnl_primitive_attr_t attr,
        int arg, int mask, int ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type_arg, int is_on_host, dnnl_quantization_mode_t qmode) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    if (!attr || !known(qmode)) return dnnl_invalid_arguments;
    return set_quant(attr->scales, arg, mask, ndims, group_dims, data_type,
            is_on_host, raw_value(qmode));
}

dnnl_status_t dnnl_primitive_attr_set_scales_v2(dnnl_primitive_attr_t attr,
        int arg, int mask, int ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type_arg, int is_on_host) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    return dnnl_primitive_attr_set_scales_v3(attr, arg, mask, ndims, group_dims,
            data_type, is_on_host, dnnl_quantization_mode_static_sazp);
}

dnnl_status_t dnnl_primitive_attr_set_scales(dnnl_primitive_attr_t attr,
        int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type_arg) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    return dnnl_primitive_attr_set_scales_v2(
            attr, arg, mask, group_ndims, group_dims, data_type, 0);
}

dnnl_status_t dnnl_primitive_attr_set_scales_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) {
    return dnnl_primitive_attr_set_scales(attr, arg, mask, 0, nullptr, dnnl_f32);
}

dnnl_status_t dnnl_primitive_attr_set_zero_points_v2(dnnl_primitive_attr_t attr,
        int arg, int mask, int ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type_arg, int is_on_host) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    if (!attr) return dnnl_invalid_arguments;
    return set_quant(attr->zero_points, arg, mask, ndims, group_dims, data_type,
            is_on_host, 0);
}

dnnl_status_t dnnl_primitive_attr_set_zero_points(dnnl_primitive_attr_t attr,
        int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type_arg) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    return dnnl_primitive_attr_set_zero_points_v2(
            attr, arg, mask, group_ndims, group_dims, data_type, 0);
}

dnnl_status_t dnnl_primitive_attr_set_zero_points_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) {
    return dnnl_primitive_attr_set_zero_points(attr, arg, mask, 0, nullptr, dnnl_s32);
}

dnnl_status_t dnnl_primitive_attr_set_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t mode) {
    if (!attr || !known(mode)) return dnnl_invalid_arguments;
    attr->set_rounding(arg, raw_value(mode));
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_get_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t *mode) {
    if (!attr || !mode) return dnnl_invalid_arguments;
    *mode = (dnnl_rounding_mode_t)attr->get_rounding(arg);
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_get_post_ops(
        const_dnnl_primitive_attr_t attr, const_dnnl_post_ops_t *post_ops) {
    if (!attr || !post_ops) return dnnl_invalid_arguments;
    *post_ops = &attr->post_ops;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_post_ops(
        dnnl_primitive_attr_t attr, const_dnnl_post_ops_t post_ops) {
    if (!attr || !post_ops) return dnnl_invalid_arguments;
    attr->post_ops = *post_ops;
    return dnnl_success;
}

// ---- post-ops ----

dnnl_status_t dnnl_post_ops_create(dnnl_post_ops_t *post_ops) {
    if (!post_ops) return dnnl_invalid_arguments;
    *post_ops = new (std::nothrow) dnnl_post_ops();
    return *post_ops ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_post_ops_clone(
        dnnl_post_ops_t *post_ops, const_dnnl_post_ops_t existing_post_ops) {
    if (!post_ops || !existing_post_ops) return dnnl_invalid_arguments;
    *post_ops = new (std::nothrow) dnnl_post_ops(*existing_post_ops);
    return *post_ops ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_post_ops_destroy(dnnl_post_ops_t post_ops) {
    delete post_ops;
    return dnnl_success;
}

int dnnl_post_ops_len(const_dnnl_post_ops_t post_ops) {
    return post_ops ? (int)post_ops->entries.size() : -1;
}

dnnl_primitive_kind_t dnnl_post_ops_get_kind(const_dnnl_post_ops_t post_ops, int index) {
    if (!post_ops || index < 0 || index >= (int)post_ops->entries.size())
        return dnnl_undefined_primitive;
    switch (post_ops->entries[index].kind) {
        case post_op_kind_t::eltwise: return dnnl_eltwise;
        case post_op_kind_t::sum: return dnnl_sum;
        case post_op_kind_t::binary: return dnnl_binary;
        case post_op_kind_t::dw_conv: return dnnl_convolution;
        case post_op_kind_t::prelu: return dnnl_prelu;
    }
    return dnnl_undefined_primitive;
}

static const int max_post_ops = 32;

dnnl_status_t dnnl_post_ops_append_sum(dnnl_post_ops_t post_ops, float scale,
        int32_t zero_point, dnnl_data_type_t data_type_arg) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    if (!post_ops || (int)post_ops->entries.size() >= max_post_ops)
        return dnnl_invalid_arguments;
    if (data_type != dnnl_data_type_undef && !valid_dt(data_type))
        return dnnl_invalid_arguments;
    post_op_t e;
    e.kind = post_op_kind_t::sum;
    e.scale = scale;
    e.zero_point = zero_point;
    e.sum_dt = data_type;
    post_ops->entries.push_back(e);
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_get_params_sum(const_dnnl_post_ops_t post_ops,
        int index, float *scale, int32_t *zero_point, dnnl_data_type_t *data_type) {
    const post_op_t *e = post_op_at(post_ops, index, post_op_kind_t::sum);
    if (!e) return dnnl_invalid_arguments;
    if (scale) *scale = e->scale;
    if (zero_point) *zero_point = e->zero_point;
    if (data_type) *data_type = e->sum_dt;
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_append_eltwise(dnnl_post_ops_t post_ops,
        dnnl_alg_kind_t alg_kind_arg, float alpha, float beta) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!post_ops || !valid_eltwise_alg(alg_kind)
            || (int)post_ops->entries.size() >= max_post_ops)
        return dnnl_invalid_arguments;
    post_op_t e;
    e.kind = post_op_kind_t::eltwise;
    e.alg = alg_kind;
    e.alpha = alpha;
    e.beta = beta;
    post_ops->entries.push_back(e);
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_get_params_eltwise(const_dnnl_post_ops_t post_ops,
        int index, dnnl_alg_kind_t *alg_kind, float *alpha, float *beta) {
    const post_op_t *e = post_op_at(post_ops, index, post_op_kind_t::eltwise);
    if (!e || !alg_kind || !alpha || !beta) return dnnl_invalid_arguments;
    *alg_kind = e->alg;
    *alpha = e->alpha;
    *beta = e->beta;
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_append_dw(dnnl_post_ops_t post_ops,
        dnnl_data_type_t weights_data_type_arg, dnnl_data_type_t bias_data_type_arg,
        dnnl_data_type_t dst_data_type_arg, dnnl_dim_t kernel_size,
        dnnl_dim_t stride_size, dnnl_dim_t padding_l_size) {
    const dnnl_data_type_t weights_data_type
            = checked(weights_data_type_arg, dnnl_data_type_max);
    const dnnl_data_type_t bias_data_type
            = checked(bias_data_type_arg, dnnl_data_type_max);
    const dnnl_data_type_t dst_data_type
            = checked(dst_data_type_arg, dnnl_data_type_max);
    if (!post_ops || kernel_size <= 0 || stride_size <= 0 || padding_l_size < 0
            || !valid_dt(weights_data_type) || !valid_dt(dst_data_type)
            || (bias_data_type != dnnl_data_type_undef
                    && !valid_dt(bias_data_type))
            || (int)post_ops->entries.size() >= max_post_ops)
        return dnnl_invalid_arguments;
    post_op_t e;
    e.kind = post_op_kind_t::dw_conv;
    e.dw_wei_dt = weights_data_type;
    e.dw_bias_dt = bias_data_type;
    e.dw_dst_dt = dst_data_type;
    e.dw_kernel = kernel_size;
    e.dw_stride = stride_size;
    e.dw_padding = padding_l_size;
    post_ops->entries.push_back(e);
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_get_params_dw(const_dnnl_post_ops_t post_ops,
        int index, dnnl_data_type_t *weights_data_type,
        dnnl_data_type_t *bias_data_type, dnnl_data_type_t *dst_data_type,
        dnnl_dim_t *kernel_size, dnnl_dim_t *stride_size,
        dnnl_dim_t *padding_l_size) {
    const post_op_t *e = post_op_at(post_ops, index, post_op_kind_t::dw_conv);
    if (!e) return dnnl_invalid_arguments;
    if (weights_data_type) *weights_data_type = e->dw_wei_dt;
    if (bias_data_type) *bias_data_type = e->dw_bias_dt;
    if (dst_data_type) *dst_data_type = e->dw_dst_dt;
    if (kernel_size) *kernel_size = e->dw_kernel;
    if (stride_size) *stride_size = e->dw_stride;
    if (padding_l_size) *padding_l_size = e->dw_padding;
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_append_binary(dnnl_post_ops_t post_ops,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t src1_desc) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!post_ops || !src1_desc || !valid_binary_alg(alg_kind)
            || alg_kind == dnnl_binary_select
            || (int)post_ops->entries.size() >= max_post_ops)
        return dnnl_invalid_arguments;
    if (src1_desc->format_kind == dnnl_format_kind_any) return dnnl_invalid_arguments;
    post_op_t e;
    e.kind = post_op_kind_t::binary;
    e.alg = alg_kind;
    e.src1_md = *src1_desc;
    post_ops->entries.push_back(e);
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_append_binary_v2(dnnl_post_ops_t post_ops,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t src1_desc,
        const_dnnl_memory_desc_t src2_desc) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    const bool select = alg_kind == dnnl_binary_select;
    const bool has_src2 = src2_desc && !is_zero_md(*src2_desc);
    if (!select) {
        // Only select reads a third tensor.
        if (has_src2) return dnnl_invalid_arguments;
        return dnnl_post_ops_append_binary(post_ops, alg_kind, src1_desc);
    }
    if (!post_ops || !src1_desc || !has_src2
            || (int)post_ops->entries.size() >= max_post_ops)
        return dnnl_invalid_arguments;
    for (const auto *md : {src1_desc, src2_desc})
        if (md->format_kind == dnnl_format_kind_any
                || md_has_runtime_dims_or_strides(*md))
            return dnnl_invalid_arguments;
    // The condition is an s8 tensor, as for the select primitive.
    if (src2_desc->data_type != dnnl_s8) {
        verbose_error("post_ops", "binary select condition must be s8");
        return dnnl_invalid_arguments;
    }
    post_op_t e;
    e.kind = post_op_kind_t::binary;
    e.alg = alg_kind;
    e.src1_md = *src1_desc;
    e.src2_md = *src2_desc;
    post_ops->entries.push_back(e);
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_get_params_binary_v2(
        const_dnnl_post_ops_t post_ops, int index, dnnl_alg_kind_t *alg_kind,
        const_dnnl_memory_desc_t *src1_desc,
        const_dnnl_memory_desc_t *src2_desc) {
    const post_op_t *e = post_op_at(post_ops, index, post_op_kind_t::binary);
    if (!e) return dnnl_invalid_arguments;
    if (alg_kind) *alg_kind = e->alg;
    if (src1_desc) *src1_desc = &e->src1_md;
    if (src2_desc) *src2_desc = &e->src2_md;
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_get_params_binary(const_dnnl_post_ops_t post_ops,
        int index, dnnl_alg_kind_t *alg_kind, const_dnnl_memory_desc_t *src1_desc) {
    const post_op_t *e = post_op_at(post_ops, index, post_op_kind_t::binary);
    if (!e) return dnnl_invalid_arguments;
    if (alg_kind) *alg_kind = e->alg;
    if (src1_desc) *src1_desc = &e->src1_md;
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_append_prelu(dnnl_post_ops_t post_ops, int mask) {
    if (!post_ops || mask < 0 || (int)post_ops->entries.size() >= max_post_ops)
        return dnnl_invalid_arguments;
    post_op_t e;
    e.kind = post_op_kind_t::prelu;
    e.prelu_mask = mask;
    post_ops->entries.push_back(e);
    return dnnl_success;
}

dnnl_status_t dnnl_post_ops_get_params_prelu(
        const_dnnl_post_ops_t post_ops, int index, int *mask) {
    const post_op_t *e = post_op_at(post_ops, index, post_op_kind_t::prelu);
    if (!e || !mask) return dnnl_invalid_arguments;
    *mask = e->prelu_mask;
    return dnnl_success;
}
