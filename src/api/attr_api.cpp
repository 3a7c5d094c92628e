// C API: primitive attributes and post-op chains. The setters check what
// oneDNN 3.13 checks in its setters, in the same order, and answer with
// the same statuses (dnnl_invalid_arguments for a bad value, with a verbose
// `check` line; dnnl_out_of_memory for a 33rd post-op); what depends on the
// primitive is checked when a primitive descriptor is created.
#include <initializer_list>
#include <new>

#include "api/c_enum.hpp"
#include "common/primitive_attr.hpp"
#include "common/utils.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

bool valid_dt(data_type_t dt) {
    const size_t size = data_type_size(dt);
    return dt != dnnl_data_type_undef && size != (size_t)-1 && size > 0;
}

bool valid_binary_alg(alg_kind_t alg) {
    return alg >= dnnl_binary_add && alg <= dnnl_binary_select;
}

bool one_of_args(int arg, std::initializer_list<int> args) {
    for (int a : args)
        if (arg == a) return true;
    return false;
}

// The eltwise algorithms a post-op may name, with oneDNN's limits on their
// parameters (clip: beta >= alpha; the dst-based relu and elu: alpha >= 0).
bool eltwise_po_ok(alg_kind_t alg, float alpha, float beta) {
    const bool fwd = alg >= dnnl_eltwise_relu && alg <= dnnl_eltwise_hardswish;
    const bool use_dst = alg >= dnnl_eltwise_relu_use_dst_for_bwd
            && alg <= dnnl_eltwise_clip_v2_use_dst_for_bwd;
    if (!fwd && !use_dst) return false;
    if (one_of_args(alg,
                {dnnl_eltwise_clip, dnnl_eltwise_clip_v2,
                        dnnl_eltwise_clip_v2_use_dst_for_bwd}))
        return beta >= alpha;
    if (one_of_args(alg,
                {dnnl_eltwise_relu_use_dst_for_bwd,
                        dnnl_eltwise_elu_use_dst_for_bwd}))
        return alpha >= 0.f;
    return true;
}

// oneDNN's limit on a post-op chain; one entry more is dnnl_out_of_memory.
const int max_post_ops = 32;

bool chain_full(const_dnnl_post_ops_t po) {
    return (int)po->entries.size() >= max_post_ops;
}

// The arguments oneDNN keeps scales for: the common tensors, binary's
// second source, concat's sources, the fused depthwise convolution's
// tensors, and the arguments of its fused attention and MLP primitives.
bool scales_arg_ok(int arg) {
    const int dw = DNNL_ARG_ATTR_POST_OP_DW;
    if ((arg & DNNL_ARG_MULTIPLE_SRC) && arg < 2 * DNNL_ARG_MULTIPLE_SRC)
        return true;
    return one_of_args(arg,
            {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST, DNNL_ARG_SRC_1,
                    DNNL_ARG_SRC_2, DNNL_ARG_WEIGHTS_1, DNNL_ARG_WEIGHTS_2,
                    dw | DNNL_ARG_SRC, dw | DNNL_ARG_WEIGHTS, dw | DNNL_ARG_DST});
}

// Zero points: the common tensors and the fused primitives' ones.
bool zero_points_arg_ok(int arg) {
    return one_of_args(arg,
            {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST, DNNL_ARG_SRC_2,
                    DNNL_ARG_WEIGHTS_1, DNNL_ARG_WEIGHTS_2});
}

// Groups: none, or two positive sizes (the last two dims).
bool groups_ok(int group_ndims, const dnnl_dims_t group_dims) {
    if (group_ndims > 0 && !group_dims) return false;
    for (int i = 0; i < group_ndims && i < DNNL_MAX_NDIMS; ++i)
        if (group_dims[i] <= 0) return false;
    return group_ndims == 0 || group_ndims == 2;
}

status_t bad(const char *what) {
    verbose_check("attr", "invalid %s", what);
    return dnnl_invalid_arguments;
}

// What scales and zero points check alike about mask, groups and host
// placement, in oneDNN's order: the first invalid part, or nullptr.
const char *quant_layout_problem(int mask, int group_ndims,
        const dnnl_dims_t group_dims, int is_on_host) {
    if (!groups_ok(group_ndims, group_dims)) return "group_dims";
    if (is_on_host && (mask != 0 || group_ndims != 0)) return "host mask";
    if (mask < 0) return "mask";
    if (group_ndims > 0 && mask <= 0) return "mask for groups";
    return nullptr;
}

void store_quant(quant_map_t &map, int arg, int mask, int group_ndims,
        const dnnl_dims_t group_dims, data_type_t dt, int is_on_host,
        int qmode) {
    quant_entry_t e;
    e.mask = mask;
    e.group_ndims = group_ndims;
    for (int i = 0; i < group_ndims; ++i)
        e.group_dims[i] = group_dims[i];
    e.data_type = dt;
    e.is_on_host = is_on_host ? 1 : 0;
    e.qmode = qmode;
    map.set(arg, e);
}

// A post-op entry of the given kind: oneDNN's index and kind checks.
const post_op_t *post_op_at(const_dnnl_post_ops_t po, int index, post_op_kind_t kind) {
    if (!po || index < 0 || index >= (int)po->entries.size()) return nullptr;
    const post_op_t &e = po->entries[index];
    return e.kind == kind ? &e : nullptr;
}

// A binary post-op's tensor: a descriptor oneDNN would take (consistent,
// no runtime dims; `any` is resolved when a primitive is created).
status_t binary_po_md_ok(const memory_desc_t *md) {
    if (!md || !md_consistent(*md) || is_zero_md(*md)) return bad("binary post-op tensor");
    for (int d = 0; d < md->ndims; ++d)
        if (md->dims[d] == DNNL_RUNTIME_DIM_VAL) return bad("binary post-op runtime dims");
    return dnnl_success;
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
    if (!attr) return dnnl_invalid_arguments;
    if (mode) *mode = attr->fpmath_mode;
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
        int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type_arg, int is_on_host,
        dnnl_quantization_mode_t qmode_arg) {
    const dnnl_data_type_t dt = checked(data_type_arg, dnnl_data_type_undef);
    const int qmode = raw_value(qmode_arg);
    if (!attr) return bad("attr");
    if (arg < 0) return bad("arg");
    if (!one_of_args(qmode,
                {dnnl_quantization_mode_static_sazp,
                        dnnl_quantization_mode_dynamic_mx,
                        dnnl_quantization_mode_dynamic_fp}))
        return bad("qmode");
    if (!one_of_args(dt, {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_e8m0, dnnl_f8_e4m3}))
        return bad("scales data type");
    // Low-precision scales come per group, never as one value.
    if ((dt == dnnl_e8m0 || dt == dnnl_f8_e4m3) && mask <= 0)
        return bad("scales data type");
    if (const char *what = quant_layout_problem(
                mask, group_ndims, group_dims, is_on_host))
        return bad(what);
    if (!scales_arg_ok(arg)) return bad("scales arg");
    store_quant(attr->scales, arg, mask, group_ndims, group_dims, dt,
            is_on_host, qmode);
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_scales_v2(dnnl_primitive_attr_t attr,
        int arg, int mask, int ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type, int is_on_host) {
    // Passing the argument on by value loads it as the enum: check first.
    return dnnl_primitive_attr_set_scales_v3(attr, arg, mask, ndims, group_dims,
            checked(data_type, dnnl_data_type_undef), is_on_host,
            dnnl_quantization_mode_static_sazp);
}

dnnl_status_t dnnl_primitive_attr_set_scales(dnnl_primitive_attr_t attr,
        int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type) {
    return dnnl_primitive_attr_set_scales_v3(attr, arg, mask, group_ndims,
            group_dims, checked(data_type, dnnl_data_type_undef), 0,
            dnnl_quantization_mode_static_sazp);
}

dnnl_status_t dnnl_primitive_attr_set_scales_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) {
    if (!attr) return bad("attr");
    if (mask < 0) return bad("mask");
    if (arg < 0 || !scales_arg_ok(arg)) return bad("scales arg");
    store_quant(attr->scales, arg, mask, 0, nullptr, dnnl_f32, 0,
            dnnl_quantization_mode_static_sazp);
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_zero_points_v2(dnnl_primitive_attr_t attr,
        int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type_arg, int is_on_host) {
    const dnnl_data_type_t dt = checked(data_type_arg, dnnl_data_type_undef);
    if (!attr) return bad("attr");
    if (arg < 0) return bad("arg");
    if (!one_of_args(dt, {dnnl_s32, dnnl_s8, dnnl_u8, dnnl_s4, dnnl_u4}))
        return bad("zero points data type");
    if ((dt == dnnl_s4 || dt == dnnl_u4) && mask <= 0)
        return bad("mask with int4 zero points");
    // Only the sources and weights take narrow or grouped zero points.
    if (!one_of_args(arg,
                {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_WEIGHTS_1,
                        DNNL_ARG_WEIGHTS_2})
            && (dt != dnnl_s32 || group_ndims != 0))
        return bad("zero points data type");
    if (const char *what = quant_layout_problem(
                mask, group_ndims, group_dims, is_on_host))
        return bad(what);
    if (!zero_points_arg_ok(arg)) return bad("zero points arg");
    store_quant(attr->zero_points, arg, mask, group_ndims, group_dims, dt,
            is_on_host, 0);
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_zero_points(dnnl_primitive_attr_t attr,
        int arg, int mask, int group_ndims, const dnnl_dims_t group_dims,
        dnnl_data_type_t data_type) {
    return dnnl_primitive_attr_set_zero_points_v2(attr, arg, mask, group_ndims,
            group_dims, checked(data_type, dnnl_data_type_undef), 0);
}

dnnl_status_t dnnl_primitive_attr_set_zero_points_mask(
        dnnl_primitive_attr_t attr, int arg, int mask) {
    if (!attr) return bad("attr");
    if (mask < 0) return bad("mask");
    if (!zero_points_arg_ok(arg)) return bad("zero points arg");
    store_quant(attr->zero_points, arg, mask, 0, nullptr, dnnl_s32, 0, 0);
    return dnnl_success;
}

// Stored and compared like scales; no implementation consumes them, so a
// primitive descriptor with them is refused (dnnl_unimplemented).
dnnl_status_t dnnl_primitive_attr_set_precomputed_reductions(
        dnnl_primitive_attr_t attr, int arg, int mask, int group_ndims,
        const dnnl_dims_t group_dims, dnnl_data_type_t data_type_arg) {
    const dnnl_data_type_t dt = checked(data_type_arg, dnnl_data_type_undef);
    if (!attr) return bad("attr");
    if (mask < 0) return bad("mask");
    // Only the source, as oneDNN's storage takes them.
    if (arg != DNNL_ARG_SRC) return bad("arg");
    if (group_ndims < 0) return bad("group_ndims");
    if (dt != dnnl_s32) return bad("precomputed reductions data type");
    if (!groups_ok(group_ndims, group_dims)) return bad("group_dims");
    if (group_ndims > 0 && mask <= 0) return bad("mask for groups");
    store_quant(attr->precomputed_reductions, arg, mask, group_ndims,
            group_dims, dt, 0, 0);
    return dnnl_success;
}

// Only destinations and gradients may round otherwise than the
// environment says; setting the environment's mode again keeps what an
// argument had (oneDNN's behaviour). An integer that names no mode is
// refused (oneDNN stores it).
dnnl_status_t dnnl_primitive_attr_set_rounding(
        dnnl_primitive_attr_t attr, int arg, dnnl_rounding_mode_t mode_arg) {
    const int mode = raw_value(mode_arg);
    if (!attr || !known(mode_arg)) return dnnl_invalid_arguments;
    if (mode == dnnl_rounding_mode_environment) return dnnl_success;
    if (!one_of_args(arg, {DNNL_ARG_DST, DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_WEIGHTS}))
        return bad("rounding mode arg");
    attr->set_rounding(arg, mode);
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
    return post_ops ? (int)post_ops->entries.size() : 0;
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

dnnl_status_t dnnl_post_ops_append_sum(dnnl_post_ops_t post_ops, float scale,
        int32_t zero_point, dnnl_data_type_t data_type_arg) {
    const dnnl_data_type_t data_type
            = checked(data_type_arg, dnnl_data_type_max);
    if (!post_ops) return dnnl_invalid_arguments;
    if (chain_full(post_ops)) return dnnl_out_of_memory;
    if (is_runtime_f32(scale)) return bad("sum scale");
    // A value that names no data type: refused here (oneDNN keeps it and
    // fails later).
    if (data_type != dnnl_data_type_undef && !valid_dt(data_type))
        return bad("sum data type");
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
    if (!post_ops) return dnnl_invalid_arguments;
    if (chain_full(post_ops)) return dnnl_out_of_memory;
    if (!eltwise_po_ok(alg_kind, alpha, beta) || is_runtime_f32(alpha)
            || is_runtime_f32(beta))
        return bad("eltwise post-op");
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
    if (!e) return dnnl_invalid_arguments;
    if (alg_kind) *alg_kind = e->alg;
    if (alpha) *alpha = e->alpha;
    if (beta) *beta = e->beta;
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
    if (!post_ops) return dnnl_invalid_arguments;
    if (chain_full(post_ops)) return dnnl_out_of_memory;
    if (!valid_dt(weights_data_type) || !valid_dt(dst_data_type)
            || (bias_data_type != dnnl_data_type_undef
                    && !valid_dt(bias_data_type)))
        return bad("depthwise post-op data type");
    if (kernel_size <= 0 || stride_size <= 0) return bad("depthwise post-op sizes");
    // The kernel must reach past the left padding.
    if (padding_l_size < 0 || padding_l_size + 1 > kernel_size)
        return bad("depthwise post-op padding");
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
        dnnl_alg_kind_t alg_kind, const_dnnl_memory_desc_t src1_desc) {
    // Passing the argument on by value loads it as the enum: check first.
    return dnnl_post_ops_append_binary_v2(post_ops,
            checked(alg_kind, dnnl_alg_kind_undef), src1_desc, nullptr);
}

// Binary post-ops: `any` layouts are taken (resolved at creation); a second
// tensor is read for select only (the condition: any data type, non-zero
// selects the primitive's value) and ignored otherwise, as in oneDNN.
dnnl_status_t dnnl_post_ops_append_binary_v2(dnnl_post_ops_t post_ops,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t src1_desc,
        const_dnnl_memory_desc_t src2_desc) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (!post_ops) return dnnl_invalid_arguments;
    if (chain_full(post_ops)) return dnnl_out_of_memory;
    if (!valid_binary_alg(alg_kind)) return bad("binary post-op algorithm");
    const bool select = alg_kind == dnnl_binary_select;
    DNNL_CHECK(binary_po_md_ok(src1_desc));
    if (select) DNNL_CHECK(binary_po_md_ok(src2_desc));
    post_op_t e;
    e.kind = post_op_kind_t::binary;
    e.alg = alg_kind;
    e.src1_md = *src1_desc;
    if (select) e.src2_md = *src2_desc;
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
    if (!post_ops) return dnnl_invalid_arguments;
    if (chain_full(post_ops)) return dnnl_out_of_memory;
    post_op_t e;
    e.kind = post_op_kind_t::prelu;
    e.prelu_mask = mask;
    post_ops->entries.push_back(e);
    return dnnl_success;
}

// As in oneDNN, the entry's kind is not checked (another kind's entry reads
// a mask of 0).
dnnl_status_t dnnl_post_ops_get_params_prelu(
        const_dnnl_post_ops_t post_ops, int index, int *mask) {
    if (!post_ops || index < 0 || index >= (int)post_ops->entries.size())
        return dnnl_invalid_arguments;
    const post_op_t &e = post_ops->entries[index];
    if (mask) *mask = e.kind == post_op_kind_t::prelu ? e.prelu_mask : 0;
    return dnnl_success;
}
