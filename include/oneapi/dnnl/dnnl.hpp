// C++ API of the primitive library: memory, attributes, primitive
// descriptors and every primitive. Header-only wrappers of dnnl.h; usable
// from C++11.
#ifndef ONEAPI_DNNL_DNNL_HPP
#define ONEAPI_DNNL_DNNL_HPP

#include "oneapi/dnnl/dnnl_config.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_common.hpp"

namespace dnnl {

// Throws invalid_arguments when v.size() is outside [min_size, max_size]
// (max_size < 0: no upper bound).
template <typename T>
void validate_container_size(const T &v, const char *error_message,
        int min_size = 1, int max_size = -1) {
    const int n = (int)v.size();
    if (n < min_size || (max_size >= 0 && n > max_size))
        DNNL_THROW_ERROR(dnnl_invalid_arguments, error_message);
}

// Destroy functions of the C handles wrapped here.
template <>
struct handle_traits<dnnl_memory_desc_t> {
    static dnnl_status_t destructor(dnnl_memory_desc_t p) {
        return dnnl_memory_desc_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_memory_t> {
    static dnnl_status_t destructor(dnnl_memory_t p) {
        return dnnl_memory_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_primitive_desc_t> {
    static dnnl_status_t destructor(dnnl_primitive_desc_t p) {
        return dnnl_primitive_desc_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_primitive_t> {
    static dnnl_status_t destructor(dnnl_primitive_t p) {
        return dnnl_primitive_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_post_ops_t> {
    static dnnl_status_t destructor(dnnl_post_ops_t p) {
        return dnnl_post_ops_destroy(p);
    }
};

template <>
struct handle_traits<dnnl_primitive_attr_t> {
    static dnnl_status_t destructor(dnnl_primitive_attr_t p) {
        return dnnl_primitive_attr_destroy(p);
    }
};

struct stream;
struct memory;
struct primitive_desc;

// Base of every primitive: an executable object made from a primitive
// descriptor.
struct primitive : public handle<dnnl_primitive_t> {
    enum class kind {
        undef = dnnl_undefined_primitive,
        reorder = dnnl_reorder,
        shuffle = dnnl_shuffle,
        concat = dnnl_concat,
        sum = dnnl_sum,
        convolution = dnnl_convolution,
        deconvolution = dnnl_deconvolution,
        eltwise = dnnl_eltwise,
        lrn = dnnl_lrn,
        batch_normalization = dnnl_batch_normalization,
        inner_product = dnnl_inner_product,
        rnn = dnnl_rnn,
        binary = dnnl_binary,
        matmul = dnnl_matmul,
        resampling = dnnl_resampling,
        pooling = dnnl_pooling,
        reduction = dnnl_reduction,
        prelu = dnnl_prelu,
        softmax = dnnl_softmax,
        layer_normalization = dnnl_layer_normalization,
        group_normalization = dnnl_group_normalization,
    };

    using handle::handle;

    primitive() = default;
    primitive(const_dnnl_primitive_desc_t c_pd);
    primitive(const_dnnl_primitive_desc_t c_pd,
            const std::vector<uint8_t> &cache_blob);
    primitive(const primitive_desc &pd);
    primitive(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob);

    // C descriptor owned by the primitive (not to be destroyed).
    const_dnnl_primitive_desc_t get_primitive_desc() const {
        const_dnnl_primitive_desc_t c_pd = nullptr;
        error::wrap_c_api(dnnl_primitive_get_primitive_desc(get(), &c_pd),
                "could not get the primitive descriptor of a primitive");
        return c_pd;
    }

    kind get_kind() const {
        dnnl_primitive_kind_t k;
        error::wrap_c_api(dnnl_primitive_desc_query(get_primitive_desc(),
                                  dnnl_query_primitive_kind, 0, (void *)&k),
                "could not get the kind of a primitive");
        return static_cast<kind>(k);
    }

    // Serialised form of the primitive for the persistent cache.
    std::vector<uint8_t> get_cache_blob() const {
        size_t size = 0;
        error::wrap_c_api(dnnl_primitive_get_cache_blob(get(), &size, nullptr),
                "could not get the cache blob size of a primitive");
        std::vector<uint8_t> blob(size);
        error::wrap_c_api(
                dnnl_primitive_get_cache_blob(get(), &size, blob.data()),
                "could not get the cache blob of a primitive");
        return blob;
    }

    void execute(const stream &astream,
            const std::unordered_map<int, memory> &args) const;
};

inline dnnl_primitive_kind_t convert_to_c(primitive::kind akind) {
    return static_cast<dnnl_primitive_kind_t>(akind);
}

// Who provides the scratchpad memory of a primitive.
enum class scratchpad_mode {
    library = dnnl_scratchpad_mode_library,
    user = dnnl_scratchpad_mode_user,
};

inline dnnl_scratchpad_mode_t convert_to_c(scratchpad_mode mode) {
    return static_cast<dnnl_scratchpad_mode_t>(mode);
}

// Rounding applied to a primitive argument.
enum class rounding_mode {
    environment = dnnl_rounding_mode_environment,
    stochastic = dnnl_rounding_mode_stochastic,
};

inline dnnl_rounding_mode_t convert_to_c(rounding_mode mode) {
    return static_cast<dnnl_rounding_mode_t>(mode);
}

// How quantization scales are obtained.
enum class quantization_mode {
    undef = dnnl_quantization_mode_undef,
    static_sazp = dnnl_quantization_mode_static_sazp,
    dynamic_mx = dnnl_quantization_mode_dynamic_mx,
    dynamic_fp = dnnl_quantization_mode_dynamic_fp,
};

inline dnnl_quantization_mode_t convert_to_c(quantization_mode qmode) {
    return static_cast<dnnl_quantization_mode_t>(qmode);
}

// Propagation kinds.
enum class prop_kind {
    undef = dnnl_prop_kind_undef,
    forward_training = dnnl_forward_training,
    forward_inference = dnnl_forward_inference,
    forward = dnnl_forward,
    backward = dnnl_backward,
    backward_data = dnnl_backward_data,
    backward_weights = dnnl_backward_weights,
    backward_bias = dnnl_backward_bias,
};

inline dnnl_prop_kind_t convert_to_c(prop_kind akind) {
    return static_cast<dnnl_prop_kind_t>(akind);
}

// Algorithms of all primitives.
enum class algorithm {
    undef = dnnl_alg_kind_undef,
    convolution_auto = dnnl_convolution_auto,
    convolution_direct = dnnl_convolution_direct,
    convolution_winograd = dnnl_convolution_winograd,
    deconvolution_direct = dnnl_deconvolution_direct,
    deconvolution_winograd = dnnl_deconvolution_winograd,
    eltwise_relu = dnnl_eltwise_relu,
    eltwise_tanh = dnnl_eltwise_tanh,
    eltwise_elu = dnnl_eltwise_elu,
    eltwise_square = dnnl_eltwise_square,
    eltwise_abs = dnnl_eltwise_abs,
    eltwise_sqrt = dnnl_eltwise_sqrt,
    eltwise_swish = dnnl_eltwise_swish,
    eltwise_linear = dnnl_eltwise_linear,
    eltwise_soft_relu = dnnl_eltwise_soft_relu,
    eltwise_mish = dnnl_eltwise_mish,
    eltwise_logistic = dnnl_eltwise_logistic,
    eltwise_exp = dnnl_eltwise_exp,
    eltwise_gelu_tanh = dnnl_eltwise_gelu_tanh,
    eltwise_gelu_erf = dnnl_eltwise_gelu_erf,
    eltwise_log = dnnl_eltwise_log,
    eltwise_clip = dnnl_eltwise_clip,
    eltwise_clip_v2 = dnnl_eltwise_clip_v2,
    eltwise_pow = dnnl_eltwise_pow,
    eltwise_round = dnnl_eltwise_round,
    eltwise_hardswish = dnnl_eltwise_hardswish,
    eltwise_hardsigmoid = dnnl_eltwise_hardsigmoid,
    eltwise_relu_use_dst_for_bwd = dnnl_eltwise_relu_use_dst_for_bwd,
    eltwise_tanh_use_dst_for_bwd = dnnl_eltwise_tanh_use_dst_for_bwd,
    eltwise_elu_use_dst_for_bwd = dnnl_eltwise_elu_use_dst_for_bwd,
    eltwise_sqrt_use_dst_for_bwd = dnnl_eltwise_sqrt_use_dst_for_bwd,
    eltwise_logistic_use_dst_for_bwd = dnnl_eltwise_logistic_use_dst_for_bwd,
    eltwise_exp_use_dst_for_bwd = dnnl_eltwise_exp_use_dst_for_bwd,
    eltwise_clip_v2_use_dst_for_bwd = dnnl_eltwise_clip_v2_use_dst_for_bwd,
    lrn_across_channels = dnnl_lrn_across_channels,
    lrn_within_channel = dnnl_lrn_within_channel,
    pooling_max = dnnl_pooling_max,
    pooling_avg_include_padding = dnnl_pooling_avg_include_padding,
    pooling_avg_exclude_padding = dnnl_pooling_avg_exclude_padding,
    vanilla_rnn = dnnl_vanilla_rnn,
    vanilla_lstm = dnnl_vanilla_lstm,
    vanilla_gru = dnnl_vanilla_gru,
    lbr_gru = dnnl_lbr_gru,
    vanilla_augru = dnnl_vanilla_augru,
    lbr_augru = dnnl_lbr_augru,
    binary_add = dnnl_binary_add,
    binary_mul = dnnl_binary_mul,
    binary_max = dnnl_binary_max,
    binary_min = dnnl_binary_min,
    binary_div = dnnl_binary_div,
    binary_sub = dnnl_binary_sub,
    binary_ge = dnnl_binary_ge,
    binary_gt = dnnl_binary_gt,
    binary_le = dnnl_binary_le,
    binary_lt = dnnl_binary_lt,
    binary_eq = dnnl_binary_eq,
    binary_ne = dnnl_binary_ne,
    binary_select = dnnl_binary_select,
    resampling_nearest = dnnl_resampling_nearest,
    resampling_linear = dnnl_resampling_linear,
    reduction_max = dnnl_reduction_max,
    reduction_min = dnnl_reduction_min,
    reduction_sum = dnnl_reduction_sum,
    reduction_mul = dnnl_reduction_mul,
    reduction_mean = dnnl_reduction_mean,
    reduction_norm_lp_max = dnnl_reduction_norm_lp_max,
    reduction_norm_lp_sum = dnnl_reduction_norm_lp_sum,
    reduction_norm_lp_power_p_max = dnnl_reduction_norm_lp_power_p_max,
    reduction_norm_lp_power_p_sum = dnnl_reduction_norm_lp_power_p_sum,
    softmax_accurate = dnnl_softmax_accurate,
    softmax_log = dnnl_softmax_log,
};

inline dnnl_alg_kind_t convert_to_c(algorithm aalgorithm) {
    return static_cast<dnnl_alg_kind_t>(aalgorithm);
}

// Flags of the batch/layer/group normalization primitives.
enum class normalization_flags : unsigned {
    none = dnnl_normalization_flags_none,
    use_global_stats = dnnl_use_global_stats,
    use_scale = dnnl_use_scale,
    use_shift = dnnl_use_shift,
    fuse_norm_relu = dnnl_fuse_norm_relu,
    fuse_norm_add_relu = dnnl_fuse_norm_add_relu,
    rms_norm = dnnl_rms_norm,
};

inline dnnl_normalization_flags_t convert_to_c(normalization_flags flags) {
    return static_cast<dnnl_normalization_flags_t>(flags);
}

// Flags of the recurrent primitives.
enum class rnn_flags : unsigned {
    undef = dnnl_rnn_flags_undef,
    diff_weights_overwrite = dnnl_rnn_flags_diff_weights_overwrite,
};

inline dnnl_rnn_flags_t convert_to_c(rnn_flags flags) {
    return static_cast<dnnl_rnn_flags_t>(flags);
}

DNNL_DEFINE_BITMASK_OPS(normalization_flags)
DNNL_DEFINE_BITMASK_OPS(rnn_flags)

// Directions of the recurrent primitives.
enum class rnn_direction {
    undef = dnnl_rnn_direction_undef,
    unidirectional_left2right = dnnl_unidirectional_left2right,
    unidirectional_right2left = dnnl_unidirectional_right2left,
    bidirectional_concat = dnnl_bidirectional_concat,
    bidirectional_sum = dnnl_bidirectional_sum,
};

inline dnnl_rnn_direction_t convert_to_c(rnn_direction dir) {
    return static_cast<dnnl_rnn_direction_t>(dir);
}

// What primitive and memory descriptors can be asked about.
enum class query {
    undef = dnnl_query_undef,
    engine = dnnl_query_engine,
    primitive_kind = dnnl_query_primitive_kind,
    num_of_inputs_s32 = dnnl_query_num_of_inputs_s32,
    num_of_outputs_s32 = dnnl_query_num_of_outputs_s32,
    time_estimate_f64 = dnnl_query_time_estimate_f64,
    memory_consumption_s64 = dnnl_query_memory_consumption_s64,
    scratchpad_engine = dnnl_query_scratchpad_engine,
    reorder_src_engine = dnnl_query_reorder_src_engine,
    reorder_dst_engine = dnnl_query_reorder_dst_engine,
    impl_info_str = dnnl_query_impl_info_str,
    prop_kind = dnnl_query_prop_kind,
    cache_blob_id_size_s64 = dnnl_query_cache_blob_id_size_s64,
    cache_blob_id = dnnl_query_cache_blob_id,
    strides = dnnl_query_strides,
    dilations = dnnl_query_dilations,
    padding_l = dnnl_query_padding_l,
    padding_r = dnnl_query_padding_r,
    epsilon_f32 = dnnl_query_epsilon_f32,
    flags = dnnl_query_flags,
    alg_kind = dnnl_query_alg_kind,
    alpha_f32 = dnnl_query_alpha_f32,
    beta_f32 = dnnl_query_beta_f32,
    axis_s32 = dnnl_query_axis_s32,
    local_size_s64 = dnnl_query_local_size_s64,
    k_f32 = dnnl_query_k_f32,
    p_f32 = dnnl_query_p_f32,
    factors = dnnl_query_factors,
    cell_kind = dnnl_query_cell_kind,
    direction = dnnl_query_direction,
    activation_kind = dnnl_query_activation_kind,
    kernel = dnnl_query_kernel,
    group_size_s64 = dnnl_query_group_size_s64,
    src_md = dnnl_query_src_md,
    diff_src_md = dnnl_query_diff_src_md,
    weights_md = dnnl_query_weights_md,
    diff_weights_md = dnnl_query_diff_weights_md,
    dst_md = dnnl_query_dst_md,
    diff_dst_md = dnnl_query_diff_dst_md,
    workspace_md = dnnl_query_workspace_md,
    scratchpad_md = dnnl_query_scratchpad_md,
    exec_arg_md = dnnl_query_exec_arg_md,
    ndims_s32 = dnnl_query_ndims_s32,
    dims = dnnl_query_dims,
    data_type = dnnl_query_data_type,
    submemory_offset_s64 = dnnl_query_submemory_offset_s64,
    padded_dims = dnnl_query_padded_dims,
    padded_offsets = dnnl_query_padded_offsets,
    format_kind = dnnl_query_format_kind,
    inner_nblks_s32 = dnnl_query_inner_nblks_s32,
    inner_blks = dnnl_query_inner_blks,
    inner_idxs = dnnl_query_inner_idxs,
    sparse_encoding = dnnl_query_sparse_encoding,
    nnz_s64 = dnnl_query_nnz_s64,
    num_handles_s32 = dnnl_query_num_handles_s32,
};

inline dnnl_query_t convert_to_c(query aquery) {
    return static_cast<dnnl_query_t>(aquery);
}

// A memory object: data handle(s) described by a memory descriptor on an
// engine.
struct memory : public handle<dnnl_memory_t> {
    using handle::handle;

    using dim = dnnl_dim_t;
    using dims = std::vector<dim>;

    // Throws when v has fewer than min_size or more than DNNL_MAX_NDIMS
    // entries.
    template <typename T>
    static void validate_dims(const std::vector<T> &v, int min_size = 0) {
        validate_container_size(
                v, "dimensions are invalid", min_size, DNNL_MAX_NDIMS);
    }

    enum class data_type {
        undef = dnnl_data_type_undef,
        f4_e3m0 = dnnl_f4_e3m0,
        f4_e2m1 = dnnl_f4_e2m1,
        e8m0 = dnnl_e8m0,
        f8_e5m2 = dnnl_f8_e5m2,
        f8_e4m3 = dnnl_f8_e4m3,
        f16 = dnnl_f16,
        bf16 = dnnl_bf16,
        f32 = dnnl_f32,
        f64 = dnnl_f64,
        s64 = dnnl_s64,
        s32 = dnnl_s32,
        s8 = dnnl_s8,
        u8 = dnnl_u8,
        s4 = dnnl_s4,
        u4 = dnnl_u4,
    };

    static size_t data_type_size(data_type adata_type) {
        return dnnl_data_type_size(convert_to_c(adata_type));
    }

    enum class format_kind {
        undef = dnnl_format_kind_undef,
        any = dnnl_format_kind_any,
        blocked = dnnl_blocked,
        sparse = dnnl_format_kind_sparse,
        host_scalar = dnnl_format_kind_host_scalar,
        opaque = dnnl_format_kind_opaque,
    };

    enum class sparse_encoding {
        undef = dnnl_sparse_encoding_undef,
        csr = dnnl_csr,
        packed = dnnl_packed,
        coo = dnnl_coo,
#if DNNL_EXPERIMENTAL_GROUPED_MEMORY
        grouped = dnnl_grouped,
#endif
    };

    // Every format tag of the C API, under its C name without the prefix.
    enum class format_tag {
        undef = dnnl_format_tag_undef, any = dnnl_format_tag_any, a = dnnl_a,
        ab = dnnl_ab, abc = dnnl_abc, abcd = dnnl_abcd, abcde = dnnl_abcde,
        abcdef = dnnl_abcdef, abcdefg = dnnl_abcdefg, abcdefgh = dnnl_abcdefgh,
        abcdefghi = dnnl_abcdefghi, abcdefghij = dnnl_abcdefghij,
        abcdefghijk = dnnl_abcdefghijk, abcdefghijkl = dnnl_abcdefghijkl,
        ba = dnnl_ba, acb = dnnl_acb, bac = dnnl_bac, bca = dnnl_bca,
        cab = dnnl_cab, cba = dnnl_cba, abdc = dnnl_abdc, acbd = dnnl_acbd,
        acdb = dnnl_acdb, adbc = dnnl_adbc, adcb = dnnl_adcb, bacd = dnnl_bacd,
        bcda = dnnl_bcda, cdab = dnnl_cdab, cdba = dnnl_cdba, dcab = dnnl_dcab,
        abced = dnnl_abced, abdec = dnnl_abdec, acbde = dnnl_acbde,
        acdeb = dnnl_acdeb, adecb = dnnl_adecb, bacde = dnnl_bacde,
        bcdea = dnnl_bcdea, cdeab = dnnl_cdeab, cdeba = dnnl_cdeba,
        decab = dnnl_decab, abcdfe = dnnl_abcdfe, abdefc = dnnl_abdefc,
        abdfce = dnnl_abdfce, acbdef = dnnl_acbdef, adefcb = dnnl_adefcb,
        defcab = dnnl_defcab, abcdegf = dnnl_abcdegf, abcdefhg = dnnl_abcdefhg,
        abcdefgih = dnnl_abcdefgih, abcdefghji = dnnl_abcdefghji,
        abcdefghikj = dnnl_abcdefghikj, abcdefghijlk = dnnl_abcdefghijlk,
        Abc16a = dnnl_Abc16a, ABc16a16b = dnnl_ABc16a16b,
        ABc32a32b = dnnl_ABc32a32b, ABc4a4b = dnnl_ABc4a4b,
        aBc16b = dnnl_aBc16b, ABc16b16a = dnnl_ABc16b16a, Abc4a = dnnl_Abc4a,
        aBc32b = dnnl_aBc32b, aBc4b = dnnl_aBc4b, ABc4b16a4b = dnnl_ABc4b16a4b,
        ABc2b8a4b = dnnl_ABc2b8a4b, ABc16b16a4b = dnnl_ABc16b16a4b,
        ABc16b16a2b = dnnl_ABc16b16a2b, ABc4b4a = dnnl_ABc4b4a,
        ABc8a16b2a = dnnl_ABc8a16b2a, ABc8a8b = dnnl_ABc8a8b,
        ABc8a4b = dnnl_ABc8a4b, aBc8b = dnnl_aBc8b,
        ABc8b16a2b = dnnl_ABc8b16a2b, BAc8a16b2a = dnnl_BAc8a16b2a,
        ABc8b8a = dnnl_ABc8b8a, Abcd16a = dnnl_Abcd16a, Abcd8a = dnnl_Abcd8a,
        ABcd16a16b = dnnl_ABcd16a16b, Abcd32a = dnnl_Abcd32a,
        ABcd32a32b = dnnl_ABcd32a32b, aBcd16b = dnnl_aBcd16b,
        ABcd16b16a = dnnl_ABcd16b16a, aBCd16b16c = dnnl_aBCd16b16c,
        aBCd16c16b = dnnl_aBCd16c16b, Abcd4a = dnnl_Abcd4a,
        aBcd32b = dnnl_aBcd32b, aBcd4b = dnnl_aBcd4b,
        ABcd4b16a4b = dnnl_ABcd4b16a4b, ABcd16b16a4b = dnnl_ABcd16b16a4b,
        ABcd16b16a2b = dnnl_ABcd16b16a2b, ABcd4b4a = dnnl_ABcd4b4a,
        ABcd4a4b = dnnl_ABcd4a4b, aBCd2c4b2c = dnnl_aBCd2c4b2c,
        aBCd4b8c2b = dnnl_aBCd4b8c2b, aBCd4c16b4c = dnnl_aBCd4c16b4c,
        aBCd2c8b4c = dnnl_aBCd2c8b4c, aBCd16c16b4c = dnnl_aBCd16c16b4c,
        aBCd16c16b2c = dnnl_aBCd16c16b2c, aBCd4c4b = dnnl_aBCd4c4b,
        aBCd4b4c = dnnl_aBCd4b4c, ABcd8a16b2a = dnnl_ABcd8a16b2a,
        ABcd2b8a4b = dnnl_ABcd2b8a4b, ABcd8a8b = dnnl_ABcd8a8b,
        ABcd8a4b = dnnl_ABcd8a4b, aBcd8b = dnnl_aBcd8b,
        aBCd4c8b2c = dnnl_aBCd4c8b2c, ABcd8b16a2b = dnnl_ABcd8b16a2b,
        aBCd8b16c2b = dnnl_aBCd8b16c2b, BAcd8a16b2a = dnnl_BAcd8a16b2a,
        ABcd8b8a = dnnl_ABcd8b8a, aBCd8b8c = dnnl_aBCd8b8c,
        aBCd8b4c = dnnl_aBCd8b4c, aBCd8c16b2c = dnnl_aBCd8c16b2c,
        ABcde8a16b2a = dnnl_ABcde8a16b2a, aCBd8b16c2b = dnnl_aCBd8b16c2b,
        aBCd8c8b = dnnl_aBCd8c8b, Abcde16a = dnnl_Abcde16a,
        Abcde32a = dnnl_Abcde32a, ABcde16a16b = dnnl_ABcde16a16b,
        BAcde8a16b2a = dnnl_BAcde8a16b2a, aBCd2b4c2b = dnnl_aBCd2b4c2b,
        ABcde4b16a4b = dnnl_ABcde4b16a4b, ABcde2b8a4b = dnnl_ABcde2b8a4b,
        aBcde16b = dnnl_aBcde16b, ABcde16b16a = dnnl_ABcde16b16a,
        aBCde16b16c = dnnl_aBCde16b16c, aBCde16c16b = dnnl_aBCde16c16b,
        aBCde2c8b4c = dnnl_aBCde2c8b4c, Abcde4a = dnnl_Abcde4a,
        aBcde32b = dnnl_aBcde32b, aBcde4b = dnnl_aBcde4b,
        ABcde4b4a = dnnl_ABcde4b4a, ABcde4a4b = dnnl_ABcde4a4b,
        aBCde4b4c = dnnl_aBCde4b4c, aBCde2c4b2c = dnnl_aBCde2c4b2c,
        aBCde4b8c2b = dnnl_aBCde4b8c2b, aBCde4c16b4c = dnnl_aBCde4c16b4c,
        aBCde16c16b4c = dnnl_aBCde16c16b4c, aBCde16c16b2c = dnnl_aBCde16c16b2c,
        aBCde4c4b = dnnl_aBCde4c4b, Abcde8a = dnnl_Abcde8a,
        ABcde8a8b = dnnl_ABcde8a8b, ABcde8a4b = dnnl_ABcde8a4b,
        BAcde16b16a = dnnl_BAcde16b16a, aBcde8b = dnnl_aBcde8b,
        ABcde8b16a2b = dnnl_ABcde8b16a2b, aBCde8b16c2b = dnnl_aBCde8b16c2b,
        aBCde4c8b2c = dnnl_aBCde4c8b2c, aCBde8b16c2b = dnnl_aCBde8b16c2b,
        ABcde8b8a = dnnl_ABcde8b8a, ABcde32a32b = dnnl_ABcde32a32b,
        aBCde8b8c = dnnl_aBCde8b8c, aBCde8b4c = dnnl_aBCde8b4c,
        ABc4a8b8a4b = dnnl_ABc4a8b8a4b, ABcd4a8b8a4b = dnnl_ABcd4a8b8a4b,
        ABcde4a8b8a4b = dnnl_ABcde4a8b8a4b, BAc4b8a8b4a = dnnl_BAc4b8a8b4a,
        BAcd4b8a8b4a = dnnl_BAcd4b8a8b4a, BAcde4b8a8b4a = dnnl_BAcde4b8a8b4a,
        ABcd2a8b8a2b = dnnl_ABcd2a8b8a2b, aBCd4b8c8b4c = dnnl_aBCd4b8c8b4c,
        aBCde4b8c8b4c = dnnl_aBCde4b8c8b4c, aBCde2b8c8b2c = dnnl_aBCde2b8c8b2c,
        aBCde8c16b2c = dnnl_aBCde8c16b2c, aBCde8c8b = dnnl_aBCde8c8b,
        aBCde2b4c2b = dnnl_aBCde2b4c2b, aBcdef16b = dnnl_aBcdef16b,
        aBCdef16b16c = dnnl_aBCdef16b16c, aBCdef16c16b = dnnl_aBCdef16c16b,
        aBCdef4c16b4c = dnnl_aBCdef4c16b4c, aBCdef2c8b4c = dnnl_aBCdef2c8b4c,
        aBCdef4c8b2c = dnnl_aBCdef4c8b2c, aBCdef2b4c2b = dnnl_aBCdef2b4c2b,
        aBcdef4b = dnnl_aBcdef4b, aBCdef4c4b = dnnl_aBCdef4c4b,
        aBCdef4b4c = dnnl_aBCdef4b4c, aBCdef2c4b2c = dnnl_aBCdef2c4b2c,
        aBCdef4b8c2b = dnnl_aBCdef4b8c2b, aBCdef8b8c = dnnl_aBCdef8b8c,
        aBCdef8b4c = dnnl_aBCdef8b4c, aBCdef8c16b2c = dnnl_aBCdef8c16b2c,
        aBCdef4b8c8b4c = dnnl_aBCdef4b8c8b4c,
        aBCdef8b16c2b = dnnl_aBCdef8b16c2b, aCBdef8b16c2b = dnnl_aCBdef8b16c2b,
        aBCdef8c8b = dnnl_aBCdef8c8b, aBdc16b = dnnl_aBdc16b,
        aBdC16b2c = dnnl_aBdC16b2c, aBdC16b4c = dnnl_aBdC16b4c,
        aBdc4b = dnnl_aBdc4b, aBdc8b = dnnl_aBdc8b, aBdec16b = dnnl_aBdec16b,
        aBdeC16b2c = dnnl_aBdeC16b2c, aBdeC16b4c = dnnl_aBdeC16b4c,
        aBdec32b = dnnl_aBdec32b, aBdec4b = dnnl_aBdec4b,
        aBdec8b = dnnl_aBdec8b, aBdefc16b = dnnl_aBdefc16b,
        aBdefC16b2c = dnnl_aBdefC16b2c, aCBdef16c16b = dnnl_aCBdef16c16b,
        aBdefc4b = dnnl_aBdefc4b, aBdefc8b = dnnl_aBdefc8b,
        Abcdef16a = dnnl_Abcdef16a, Abcdef32a = dnnl_Abcdef32a,
        aBedc16b = dnnl_aBedc16b, Acb16a = dnnl_Acb16a,
        AcB16a2b = dnnl_AcB16a2b, AcB16a4b = dnnl_AcB16a4b, Acb4a = dnnl_Acb4a,
        Acb8a = dnnl_Acb8a, aCBd16b16c = dnnl_aCBd16b16c,
        aCBd16c16b = dnnl_aCBd16c16b, aCBde16b16c = dnnl_aCBde16b16c,
        aCBde16c16b = dnnl_aCBde16c16b, Acdb16a = dnnl_Acdb16a,
        AcdB16a2b = dnnl_AcdB16a2b, AcdB16a4b = dnnl_AcdB16a4b,
        Acdb32a = dnnl_Acdb32a, Acdb4a = dnnl_Acdb4a, Acdb8a = dnnl_Acdb8a,
        Acdeb16a = dnnl_Acdeb16a, AcdeB16a2b = dnnl_AcdeB16a2b,
        Acdeb4a = dnnl_Acdeb4a, Acdeb8a = dnnl_Acdeb8a, Adcb16a = dnnl_Adcb16a,
        BAc16a16b = dnnl_BAc16a16b, BAc16b16a = dnnl_BAc16b16a,
        BAcd16a16b = dnnl_BAcd16a16b, BAcd16b16a = dnnl_BAcd16b16a,
        aCBd4c8b8c4b = dnnl_aCBd4c8b8c4b, aCBde4c8b8c4b = dnnl_aCBde4c8b8c4b,
        aCBdef4c8b8c4b = dnnl_aCBdef4c8b8c4b, BAcde16a16b = dnnl_BAcde16a16b,
        aCBdef16b16c = dnnl_aCBdef16b16c, ABc16b32a = dnnl_ABc16b32a,
        ABc16b64a = dnnl_ABc16b64a, ABc4b32a4b = dnnl_ABc4b32a4b,
        ABc4b64a4b = dnnl_ABc4b64a4b, ABc8b32a2b = dnnl_ABc8b32a2b,
        ABc8b64a2b = dnnl_ABc8b64a2b, AB16b16a = dnnl_AB16b16a,
        AB16b32a = dnnl_AB16b32a, AB16b64a = dnnl_AB16b64a,
        AB8b16a2b = dnnl_AB8b16a2b, AB8b32a2b = dnnl_AB8b32a2b,
        AB8b64a2b = dnnl_AB8b64a2b, AB4b16a4b = dnnl_AB4b16a4b,
        AB4b32a4b = dnnl_AB4b32a4b, AB4b64a4b = dnnl_AB4b64a4b,
        AB16b16a4b = dnnl_AB16b16a4b, ABcd16b32a = dnnl_ABcd16b32a,
        ABcd16b64a = dnnl_ABcd16b64a, ABcd4b32a4b = dnnl_ABcd4b32a4b,
        ABcd4b64a4b = dnnl_ABcd4b64a4b, ABcd8b32a2b = dnnl_ABcd8b32a2b,
        ABcd8b64a2b = dnnl_ABcd8b64a2b, ABcde4b32a4b = dnnl_ABcde4b32a4b,
        ABcde4b64a4b = dnnl_ABcde4b64a4b, ABcde16b16a4b = dnnl_ABcde16b16a4b,
        ABcde16b16a2b = dnnl_ABcde16b16a2b, ABcde16b32a = dnnl_ABcde16b32a,
        ABcde16b64a = dnnl_ABcde16b64a, ABcde8b32a2b = dnnl_ABcde8b32a2b,
        ABcde8b64a2b = dnnl_ABcde8b64a2b, aBCdef16c16b4c = dnnl_aBCdef16c16b4c,
        aBCdef16c16b2c = dnnl_aBCdef16c16b2c, AB32a32b8a4b = dnnl_AB32a32b8a4b,
        AB8a4b = dnnl_AB8a4b, AB32a32b8a2b = dnnl_AB32a32b8a2b,
        AB8a2b = dnnl_AB8a2b, abDc32d = dnnl_abDc32d,
        abDC32d4c = dnnl_abDC32d4c, abdEc32e = dnnl_abdEc32e,
        abdEC32e2c = dnnl_abdEC32e2c, abdEC32e4c = dnnl_abdEC32e4c,
        aBdefC16b4c = dnnl_aBdefC16b4c, AcdeB16a4b = dnnl_AcdeB16a4b,
        ABcd16a16b2a = dnnl_ABcd16a16b2a, ABc16a16b2a = dnnl_ABc16a16b2a,
        aBCd16b16c2b = dnnl_aBCd16b16c2b, aBCde16b16c2b = dnnl_aBCde16b16c2b,
        Acb32a = dnnl_Acb32a, AcB32a2b = dnnl_AcB32a2b,
        AcB32a4b = dnnl_AcB32a4b, Acb48a = dnnl_Acb48a,
        AcB48a2b = dnnl_AcB48a2b, AcB48a4b = dnnl_AcB48a4b,
        Acb64a = dnnl_Acb64a, AcB64a2b = dnnl_AcB64a2b,
        AcB64a4b = dnnl_AcB64a4b, cBa2b = dnnl_cBa2b, cBa4b = dnnl_cBa4b,
        aBdc32b = dnnl_aBdc32b, aBdC32b2c = dnnl_aBdC32b2c,
        aBdC32b4c = dnnl_aBdC32b4c, aBdc48b = dnnl_aBdc48b,
        aBdC48b2c = dnnl_aBdC48b2c, aBdC48b4c = dnnl_aBdC48b4c,
        aBdc64b = dnnl_aBdc64b, aBdC64b2c = dnnl_aBdC64b2c,
        aBdC64b4c = dnnl_aBdC64b4c, adCb2c = dnnl_adCb2c, adCb4c = dnnl_adCb4c,
        AcdB32a2b = dnnl_AcdB32a2b, AcdB32a4b = dnnl_AcdB32a4b,
        Acdb48a = dnnl_Acdb48a, AcdB48a2b = dnnl_AcdB48a2b,
        AcdB48a4b = dnnl_AcdB48a4b, Acdb64a = dnnl_Acdb64a,
        AcdB64a2b = dnnl_AcdB64a2b, AcdB64a4b = dnnl_AcdB64a4b,
        cdBa2b = dnnl_cdBa2b, cdBa4b = dnnl_cdBa4b,
        aBdeC32b2c = dnnl_aBdeC32b2c, aBdeC32b4c = dnnl_aBdeC32b4c,
        aBdec48b = dnnl_aBdec48b, aBdeC48b2c = dnnl_aBdeC48b2c,
        aBdeC48b4c = dnnl_aBdeC48b4c, aBdec64b = dnnl_aBdec64b,
        aBdeC64b2c = dnnl_aBdeC64b2c, aBdeC64b4c = dnnl_aBdeC64b4c,
        adeCb2c = dnnl_adeCb2c, adeCb4c = dnnl_adeCb4c,
        Acdeb32a = dnnl_Acdeb32a, AcdeB32a2b = dnnl_AcdeB32a2b,
        AcdeB32a4b = dnnl_AcdeB32a4b, Acdeb48a = dnnl_Acdeb48a,
        AcdeB48a2b = dnnl_AcdeB48a2b, AcdeB48a4b = dnnl_AcdeB48a4b,
        Acdeb64a = dnnl_Acdeb64a, AcdeB64a2b = dnnl_AcdeB64a2b,
        AcdeB64a4b = dnnl_AcdeB64a4b, cdeBa2b = dnnl_cdeBa2b,
        cdeBa4b = dnnl_cdeBa4b, aBdefc32b = dnnl_aBdefc32b,
        aBdefC32b2c = dnnl_aBdefC32b2c, aBdefC32b4c = dnnl_aBdefC32b4c,
        aBdefc48b = dnnl_aBdefc48b, aBdefC48b2c = dnnl_aBdefC48b2c,
        aBdefC48b4c = dnnl_aBdefC48b4c, aBdefc64b = dnnl_aBdefc64b,
        aBdefC64b2c = dnnl_aBdefC64b2c, aBdefC64b4c = dnnl_aBdefC64b4c,
        adefCb2c = dnnl_adefCb2c, adefCb4c = dnnl_adefCb4c,
        AB16b32a4b = dnnl_AB16b32a4b, AB16b48a4b = dnnl_AB16b48a4b,
        AB16b64a4b = dnnl_AB16b64a4b, AB16b16a2b = dnnl_AB16b16a2b,
        AB16b32a2b = dnnl_AB16b32a2b, AB16b48a2b = dnnl_AB16b48a2b,
        AB16b64a2b = dnnl_AB16b64a2b, ABc16b32a4b = dnnl_ABc16b32a4b,
        ABc16b48a4b = dnnl_ABc16b48a4b, ABc16b64a4b = dnnl_ABc16b64a4b,
        ABc16b32a2b = dnnl_ABc16b32a2b, ABc16b48a2b = dnnl_ABc16b48a2b,
        ABc16b64a2b = dnnl_ABc16b64a2b, ABcd16b32a4b = dnnl_ABcd16b32a4b,
        ABcd16b48a4b = dnnl_ABcd16b48a4b, ABcd16b64a4b = dnnl_ABcd16b64a4b,
        ABcd16b32a2b = dnnl_ABcd16b32a2b, ABcd16b48a2b = dnnl_ABcd16b48a2b,
        ABcd16b64a2b = dnnl_ABcd16b64a2b, ABcde16b32a4b = dnnl_ABcde16b32a4b,
        ABcde16b48a4b = dnnl_ABcde16b48a4b, ABcde16b64a4b = dnnl_ABcde16b64a4b,
        ABcde16b32a2b = dnnl_ABcde16b32a2b, ABcde16b48a2b = dnnl_ABcde16b48a2b,
        ABcde16b64a2b = dnnl_ABcde16b64a2b, ABc32a16b = dnnl_ABc32a16b,
        ABcd32a16b = dnnl_ABcd32a16b, ABcde32a16b = dnnl_ABcde32a16b,
        AB48a16b = dnnl_AB48a16b, AB48a32b = dnnl_AB48a32b,
        ABc40a16b = dnnl_ABc40a16b, ABc40a32b = dnnl_ABc40a32b,
        aBC48b16c = dnnl_aBC48b16c, aBC48b32c = dnnl_aBC48b32c,
        ABcd40a16b = dnnl_ABcd40a16b, ABcd40a32b = dnnl_ABcd40a32b,
        abCd32c = dnnl_abCd32c, abdCe32c = dnnl_abdCe32c,
        abdCE32c2e = dnnl_abdCE32c2e, BA16a16b2a = dnnl_BA16a16b2a,
        BA16a32b2a = dnnl_BA16a32b2a, BA16a48b2a = dnnl_BA16a48b2a,
        BA16a64b2a = dnnl_BA16a64b2a, BA16a16b4a = dnnl_BA16a16b4a,
        BA16a32b4a = dnnl_BA16a32b4a, BA16a48b4a = dnnl_BA16a48b4a,
        BA16a64b4a = dnnl_BA16a64b4a, ABcd8a2b = dnnl_ABcd8a2b,
        aBdeC16c16b2c = dnnl_aBdeC16c16b2c, aBdeC16c16b4c = dnnl_aBdeC16c16b4c,
        aBdefC16c16b2c = dnnl_aBdefC16c16b2c, AcB16b16a2b = dnnl_AcB16b16a2b,
        AcB16b16a4b = dnnl_AcB16b16a4b, AcdB16b16a2b = dnnl_AcdB16b16a2b,
        AcdB16b16a4b = dnnl_AcdB16b16a4b, AcdeB16b16a2b = dnnl_AcdeB16b16a2b,
        aBdefC16c16b4c = dnnl_aBdefC16c16b4c,
        AcdeB16b16a4b = dnnl_AcdeB16b16a4b, AcB16b32a2b = dnnl_AcB16b32a2b,
        AcB16b32a4b = dnnl_AcB16b32a4b, AcB16b48a2b = dnnl_AcB16b48a2b,
        AcB16b48a4b = dnnl_AcB16b48a4b, AcB16b64a2b = dnnl_AcB16b64a2b,
        AcB16b64a4b = dnnl_AcB16b64a4b, aBdC16c16b2c = dnnl_aBdC16c16b2c,
        aBdC16c16b4c = dnnl_aBdC16c16b4c, aBdC16c32b2c = dnnl_aBdC16c32b2c,
        aBdC16c32b4c = dnnl_aBdC16c32b4c, aBdC16c48b2c = dnnl_aBdC16c48b2c,
        aBdC16c48b4c = dnnl_aBdC16c48b4c, aBdC16c64b2c = dnnl_aBdC16c64b2c,
        aBdC16c64b4c = dnnl_aBdC16c64b4c, AcdB16b32a2b = dnnl_AcdB16b32a2b,
        AcdB16b32a4b = dnnl_AcdB16b32a4b, AcdB16b48a2b = dnnl_AcdB16b48a2b,
        AcdB16b48a4b = dnnl_AcdB16b48a4b, AcdB16b64a2b = dnnl_AcdB16b64a2b,
        AcdB16b64a4b = dnnl_AcdB16b64a4b, aBdeC16c32b2c = dnnl_aBdeC16c32b2c,
        aBdeC16c32b4c = dnnl_aBdeC16c32b4c, aBdeC16c48b2c = dnnl_aBdeC16c48b2c,
        aBdeC16c48b4c = dnnl_aBdeC16c48b4c, aBdeC16c64b2c = dnnl_aBdeC16c64b2c,
        aBdeC16c64b4c = dnnl_aBdeC16c64b4c, AcdeB16b32a2b = dnnl_AcdeB16b32a2b,
        AcdeB16b32a4b = dnnl_AcdeB16b32a4b, AcdeB16b48a2b = dnnl_AcdeB16b48a2b,
        AcdeB16b48a4b = dnnl_AcdeB16b48a4b, AcdeB16b64a2b = dnnl_AcdeB16b64a2b,
        AcdeB16b64a4b = dnnl_AcdeB16b64a4b,
        aBdefC16c32b2c = dnnl_aBdefC16c32b2c,
        aBdefC16c32b4c = dnnl_aBdefC16c32b4c,
        aBdefC16c48b2c = dnnl_aBdefC16c48b2c,
        aBdefC16c48b4c = dnnl_aBdefC16c48b4c,
        aBdefC16c64b2c = dnnl_aBdefC16c64b2c,
        aBdefC16c64b4c = dnnl_aBdefC16c64b4c, decbA16a = dnnl_decbA16a,
        ABc4a2b = dnnl_ABc4a2b, ABc8a2b = dnnl_ABc8a2b,
        aBCd8b2c = dnnl_aBCd8b2c, ABcde4a2b = dnnl_ABcde4a2b,
        ABcde8a2b = dnnl_ABcde8a2b, ABcde40a16b = dnnl_ABcde40a16b,
        ABcde40a32b = dnnl_ABcde40a32b, aBCde8b2c = dnnl_aBCde8b2c,
        ABcde4a8b8a2b = dnnl_ABcde4a8b8a2b, ABcd4a8b8a2b = dnnl_ABcd4a8b8a2b,
        ABc4a8b8a2b = dnnl_ABc4a8b8a2b, aBCdef4b8c8b2c = dnnl_aBCdef4b8c8b2c,
        aBCde4b8c8b2c = dnnl_aBCde4b8c8b2c, aBCd4b8c8b2c = dnnl_aBCd4b8c8b2c,
        BAcde4b8a8b2a = dnnl_BAcde4b8a8b2a, BAcd4b8a8b2a = dnnl_BAcd4b8a8b2a,
        BAc4b8a8b2a = dnnl_BAc4b8a8b2a, aCBdef4c8b8c2b = dnnl_aCBdef4c8b8c2b,
        aCBde4c8b8c2b = dnnl_aCBde4c8b8c2b, aCBd4c8b8c2b = dnnl_aCBd4c8b8c2b,
        aBCdef8b2c = dnnl_aBCdef8b2c, AB32a16b = dnnl_AB32a16b,
        AB32a32b = dnnl_AB32a32b, BA4b8a8b2a = dnnl_BA4b8a8b2a,
        BA4b8a8b4a = dnnl_BA4b8a8b4a, aBC32b16c = dnnl_aBC32b16c,
        aBC32b32c = dnnl_aBC32b32c, aCB4c8b8c2b = dnnl_aCB4c8b8c2b,
        aCB4c8b8c4b = dnnl_aCB4c8b8c4b, ABcd4a2b = dnnl_ABcd4a2b,
        ABc2b8a16b4a = dnnl_ABc2b8a16b4a, ABcd2b8a16b4a = dnnl_ABcd2b8a16b4a,
        ABcde2b8a16b4a = dnnl_ABcde2b8a16b4a, ABc2a8b16a4b = dnnl_ABc2a8b16a4b,
        ABc2a8b16a2b = dnnl_ABc2a8b16a2b, ABc2b32a8b = dnnl_ABc2b32a8b,
        ABcd2a8b16a4b = dnnl_ABcd2a8b16a4b, ABcd2a8b16a2b = dnnl_ABcd2a8b16a2b,
        aCBd2c8b16c2b = dnnl_aCBd2c8b16c2b, ABcd2b32a8b = dnnl_ABcd2b32a8b,
        aBCd2c8b16c2b = dnnl_aBCd2c8b16c2b,
        ABcde2a8b16a4b = dnnl_ABcde2a8b16a4b,
        ABcde2a8b16a2b = dnnl_ABcde2a8b16a2b,
        aCBde2c8b16c2b = dnnl_aCBde2c8b16c2b, ABcde2b32a8b = dnnl_ABcde2b32a8b,
        aBC2b8c16b2c = dnnl_aBC2b8c16b2c, aBCd2b8c16b2c = dnnl_aBCd2b8c16b2c,
        aBCde2b8c16b2c = dnnl_aBCde2b8c16b2c,
        aBCdef2b8c16b2c = dnnl_aBCdef2b8c16b2c,
        BAcde2b8a16b4a = dnnl_BAcde2b8a16b4a,
        BAcd2b8a16b4a = dnnl_BAcd2b8a16b4a, BAc2b8a16b4a = dnnl_BAc2b8a16b4a,
        BAcde2b8a16b2a = dnnl_BAcde2b8a16b2a,
        BAcd2b8a16b2a = dnnl_BAcd2b8a16b2a, BAc2b8a16b2a = dnnl_BAc2b8a16b2a,
        aBCde2c8b16c2b = dnnl_aBCde2c8b16c2b,
        aBCdef2c8b16c2b = dnnl_aBCdef2c8b16c2b,
        aCBdef2c8b16c2b = dnnl_aCBdef2c8b16c2b,
        aBCd2b8c16b4c = dnnl_aBCd2b8c16b4c,
        aBCde2b8c16b4c = dnnl_aBCde2b8c16b4c, BA4b8a16b2a = dnnl_BA4b8a16b2a,
        BA4b8a16b4a = dnnl_BA4b8a16b4a, aCB4c8b16c2b = dnnl_aCB4c8b16c2b,
        aCB4c8b16c4b = dnnl_aCB4c8b16c4b, BA16a16b = dnnl_BA16a16b,
        BA16a32b = dnnl_BA16a32b, BA16a48b = dnnl_BA16a48b,
        BA16a64b = dnnl_BA16a64b, aCB16c2b = dnnl_aCB16c2b,
        aCB16c4b = dnnl_aCB16c4b, BA16b2a = dnnl_BA16b2a,
        BA16b4a = dnnl_BA16b4a, aBC16b16c = dnnl_aBC16b16c,
        aBC16b32c = dnnl_aBC16b32c, AB16a16b = dnnl_AB16a16b,
        AB16a32b = dnnl_AB16a32b, ABcde16a16b2a = dnnl_ABcde16a16b2a,
        aBCdef16b16c2b = dnnl_aBCdef16b16c2b, Acedb16a = dnnl_Acedb16a,
        aBdfec16b = dnnl_aBdfec16b, abdEC64e2c = dnnl_abdEC64e2c,
        abdEC64e4c = dnnl_abdEC64e4c, aCB16b16c = dnnl_aCB16b16c,
        aCB16b32c = dnnl_aCB16b32c, aCB16b48c = dnnl_aCB16b48c,
        aCB16b64c = dnnl_aCB16b64c, aCB16b16c2b = dnnl_aCB16b16c2b,
        aCB16b32c2b = dnnl_aCB16b32c2b, aCB16b48c2b = dnnl_aCB16b48c2b,
        aCB16b64c2b = dnnl_aCB16b64c2b, aCB16b16c4b = dnnl_aCB16b16c4b,
        aCB16b32c4b = dnnl_aCB16b32c4b, aCB16b48c4b = dnnl_aCB16b48c4b,
        aCB16b64c4b = dnnl_aCB16b64c4b, abCd4c = dnnl_abCd4c,
        abCde4c = dnnl_abCde4c, abCdef4c = dnnl_abCdef4c,
        abCde32c = dnnl_abCde32c, abCdef32c = dnnl_abCdef32c,
        ABcd16a32b = dnnl_ABcd16a32b, decbA8a = dnnl_decbA8a,
        aCdefB16b32c2b = dnnl_aCdefB16b32c2b,
        aCdefB16b32c4b = dnnl_aCdefB16b32c4b,
        aCdefB16b48c2b = dnnl_aCdefB16b48c2b,
        aCdefB16b48c4b = dnnl_aCdefB16b48c4b,
        aCdefB16b64c2b = dnnl_aCdefB16b64c2b,
        aCdefB16b64c4b = dnnl_aCdefB16b64c4b,
        BcdeA16a32b2a = dnnl_BcdeA16a32b2a, BcdeA16a32b4a = dnnl_BcdeA16a32b4a,
        BcdeA16a48b2a = dnnl_BcdeA16a48b2a, BcdeA16a48b4a = dnnl_BcdeA16a48b4a,
        BcdeA16a64b2a = dnnl_BcdeA16a64b2a, BcdeA16a64b4a = dnnl_BcdeA16a64b4a,
        aCdefb32c = dnnl_aCdefb32c, aCdefB32c2b = dnnl_aCdefB32c2b,
        aCdefB32c4b = dnnl_aCdefB32c4b, aCdefb48c = dnnl_aCdefb48c,
        aCdefB48c2b = dnnl_aCdefB48c2b, aCdefB48c4b = dnnl_aCdefB48c4b,
        aCdefb64c = dnnl_aCdefb64c, aCdefB64c2b = dnnl_aCdefB64c2b,
        aCdefB64c4b = dnnl_aCdefB64c4b, Bcdea32b = dnnl_Bcdea32b,
        BcdeA32b2a = dnnl_BcdeA32b2a, BcdeA32b4a = dnnl_BcdeA32b4a,
        Bcdea48b = dnnl_Bcdea48b, BcdeA48b2a = dnnl_BcdeA48b2a,
        BcdeA48b4a = dnnl_BcdeA48b4a, Bcdea64b = dnnl_Bcdea64b,
        BcdeA64b2a = dnnl_BcdeA64b2a, BcdeA64b4a = dnnl_BcdeA64b4a,
        Bca32b = dnnl_Bca32b, BcA32b2a = dnnl_BcA32b2a,
        BcA32b4a = dnnl_BcA32b4a, Bca48b = dnnl_Bca48b,
        BcA48b2a = dnnl_BcA48b2a, BcA48b4a = dnnl_BcA48b4a,
        Bca64b = dnnl_Bca64b, BcA64b2a = dnnl_BcA64b2a,
        BcA64b4a = dnnl_BcA64b4a, aCdb32c = dnnl_aCdb32c,
        aCdB32c2b = dnnl_aCdB32c2b, aCdB32c4b = dnnl_aCdB32c4b,
        aCdb48c = dnnl_aCdb48c, aCdB48c2b = dnnl_aCdB48c2b,
        aCdB48c4b = dnnl_aCdB48c4b, aCdb64c = dnnl_aCdb64c,
        aCdB64c2b = dnnl_aCdB64c2b, aCdB64c4b = dnnl_aCdB64c4b,
        BcA16a16b2a = dnnl_BcA16a16b2a, BcA16a16b4a = dnnl_BcA16a16b4a,
        BcdA16a16b2a = dnnl_BcdA16a16b2a, BcdA16a16b4a = dnnl_BcdA16a16b4a,
        BcdeA16a16b2a = dnnl_BcdeA16a16b2a, BcdeA16a16b4a = dnnl_BcdeA16a16b4a,
        aCdB16b16c2b = dnnl_aCdB16b16c2b, aCdB16b16c4b = dnnl_aCdB16b16c4b,
        aCdeB16b16c2b = dnnl_aCdeB16b16c2b, aCdeB16b16c4b = dnnl_aCdeB16b16c4b,
        aCdefB16b16c2b = dnnl_aCdefB16b16c2b,
        aCdefB16b16c4b = dnnl_aCdefB16b16c4b, BcA16a32b2a = dnnl_BcA16a32b2a,
        BcA16a32b4a = dnnl_BcA16a32b4a, BcA16a48b2a = dnnl_BcA16a48b2a,
        BcA16a48b4a = dnnl_BcA16a48b4a, BcA16a64b2a = dnnl_BcA16a64b2a,
        BcA16a64b4a = dnnl_BcA16a64b4a, aCdB16b32c2b = dnnl_aCdB16b32c2b,
        aCdB16b32c4b = dnnl_aCdB16b32c4b, aCdB16b48c2b = dnnl_aCdB16b48c2b,
        aCdB16b48c4b = dnnl_aCdB16b48c4b, aCdB16b64c2b = dnnl_aCdB16b64c2b,
        aCdB16b64c4b = dnnl_aCdB16b64c4b, BcdA16a32b2a = dnnl_BcdA16a32b2a,
        BcdA16a32b4a = dnnl_BcdA16a32b4a, BcdA16a48b2a = dnnl_BcdA16a48b2a,
        BcdA16a48b4a = dnnl_BcdA16a48b4a, BcdA16a64b2a = dnnl_BcdA16a64b2a,
        BcdA16a64b4a = dnnl_BcdA16a64b4a, aCdeB16b32c2b = dnnl_aCdeB16b32c2b,
        aCdeB16b32c4b = dnnl_aCdeB16b32c4b, aCdeB16b48c2b = dnnl_aCdeB16b48c2b,
        aCdeB16b48c4b = dnnl_aCdeB16b48c4b, aCdeB16b64c2b = dnnl_aCdeB16b64c2b,
        aCdeB16b64c4b = dnnl_aCdeB16b64c4b, Bca16b = dnnl_Bca16b,
        BcA16b2a = dnnl_BcA16b2a, BcA16b4a = dnnl_BcA16b4a,
        Bcda16b = dnnl_Bcda16b, BcdA16b2a = dnnl_BcdA16b2a,
        BcdA16b4a = dnnl_BcdA16b4a, Bcdea16b = dnnl_Bcdea16b,
        BcdeA16b2a = dnnl_BcdeA16b2a, BcdeA16b4a = dnnl_BcdeA16b4a,
        aCdb16c = dnnl_aCdb16c, aCdB16c2b = dnnl_aCdB16c2b,
        aCdB16c4b = dnnl_aCdB16c4b, aCdeb16c = dnnl_aCdeb16c,
        aCdeB16c2b = dnnl_aCdeB16c2b, aCdeB16c4b = dnnl_aCdeB16c4b,
        aCdefb16c = dnnl_aCdefb16c, aCdefB16c2b = dnnl_aCdefB16c2b,
        aCdefB16c4b = dnnl_aCdefB16c4b, Bcda32b = dnnl_Bcda32b,
        BcdA32b2a = dnnl_BcdA32b2a, BcdA32b4a = dnnl_BcdA32b4a,
        Bcda48b = dnnl_Bcda48b, BcdA48b2a = dnnl_BcdA48b2a,
        BcdA48b4a = dnnl_BcdA48b4a, Bcda64b = dnnl_Bcda64b,
        BcdA64b2a = dnnl_BcdA64b2a, BcdA64b4a = dnnl_BcdA64b4a,
        aCdeb32c = dnnl_aCdeb32c, aCdeB32c2b = dnnl_aCdeB32c2b,
        aCdeB32c4b = dnnl_aCdeB32c4b, aCdeb48c = dnnl_aCdeb48c,
        aCdeB48c2b = dnnl_aCdeB48c2b, aCdeB48c4b = dnnl_aCdeB48c4b,
        aCdeb64c = dnnl_aCdeb64c, aCdeB64c2b = dnnl_aCdeB64c2b,
        aCdeB64c4b = dnnl_aCdeB64c4b, Acb24a = dnnl_Acb24a,
        Acdb24a = dnnl_Acdb24a, Acdeb24a = dnnl_Acdeb24a,
        aBdc24b = dnnl_aBdc24b, aBdec24b = dnnl_aBdec24b,
        aBdefc24b = dnnl_aBdefc24b, abDc16d = dnnl_abDc16d,
        abdEc16e = dnnl_abdEc16e, abdCe16c = dnnl_abdCe16c,
        AcB24a2b = dnnl_AcB24a2b, AcdB24a2b = dnnl_AcdB24a2b,
        AcdeB24a2b = dnnl_AcdeB24a2b, aBdC24b2c = dnnl_aBdC24b2c,
        aBdeC24b2c = dnnl_aBdeC24b2c, aBdefC24b2c = dnnl_aBdefC24b2c,
        AcB8a2b = dnnl_AcB8a2b, AcdB8a2b = dnnl_AcdB8a2b,
        AcdeB8a2b = dnnl_AcdeB8a2b, aBdC8b2c = dnnl_aBdC8b2c,
        aBdeC8b2c = dnnl_aBdeC8b2c, aBdefC8b2c = dnnl_aBdefC8b2c,
        AB8b32a = dnnl_AB8b32a, ABc8b32a = dnnl_ABc8b32a,
        ABcd8b32a = dnnl_ABcd8b32a, ABcde8b32a = dnnl_ABcde8b32a,
        AB8b24a = dnnl_AB8b24a, ABc8b24a = dnnl_ABc8b24a,
        ABcd8b24a = dnnl_ABcd8b24a, ABcde8b24a = dnnl_ABcde8b24a,
        AB8b16a = dnnl_AB8b16a, ABc8b16a = dnnl_ABc8b16a,
        ABcd8b16a = dnnl_ABcd8b16a, ABcde8b16a = dnnl_ABcde8b16a,
        AB8b8a = dnnl_AB8b8a, AB4b8a4b = dnnl_AB4b8a4b,
        AB4b24a4b = dnnl_AB4b24a4b, ABc4b8a4b = dnnl_ABc4b8a4b,
        ABc4b24a4b = dnnl_ABc4b24a4b, ABcd4b8a4b = dnnl_ABcd4b8a4b,
        ABcd4b24a4b = dnnl_ABcd4b24a4b, ABcde4b8a4b = dnnl_ABcde4b8a4b,
        ABcde4b24a4b = dnnl_ABcde4b24a4b, AB8b24a2b = dnnl_AB8b24a2b,
        ABc8b24a2b = dnnl_ABc8b24a2b, ABcd8b24a2b = dnnl_ABcd8b24a2b,
        ABcde8b24a2b = dnnl_ABcde8b24a2b, AB8b8a2b = dnnl_AB8b8a2b,
        ABc8b8a2b = dnnl_ABc8b8a2b, ABcd8b8a2b = dnnl_ABcd8b8a2b,
        ABcde8b8a2b = dnnl_ABcde8b8a2b, AcB24a4b = dnnl_AcB24a4b,
        AcdB24a4b = dnnl_AcdB24a4b, AcdeB24a4b = dnnl_AcdeB24a4b,
        aBdC24b4c = dnnl_aBdC24b4c, aBdeC24b4c = dnnl_aBdeC24b4c,
        aBdefC24b4c = dnnl_aBdefC24b4c, AcB8a4b = dnnl_AcB8a4b,
        AcdB8a4b = dnnl_AcdB8a4b, AcdeB8a4b = dnnl_AcdeB8a4b,
        aBdC8b4c = dnnl_aBdC8b4c, aBdeC8b4c = dnnl_aBdeC8b4c,
        aBdefC8b4c = dnnl_aBdefC8b4c, Bca8b = dnnl_Bca8b,
        BcA8b2a = dnnl_BcA8b2a, Bcda8b = dnnl_Bcda8b, BcdA8b2a = dnnl_BcdA8b2a,
        Bcdea8b = dnnl_Bcdea8b, BcdeA8b2a = dnnl_BcdeA8b2a,
        aCdb8c = dnnl_aCdb8c, aCdB8c2b = dnnl_aCdB8c2b, aCdeb8c = dnnl_aCdeb8c,
        aCdeB8c2b = dnnl_aCdeB8c2b, aCdefb8c = dnnl_aCdefb8c,
        aCdefB8c2b = dnnl_aCdefB8c2b, Bca24b = dnnl_Bca24b,
        BcA24b2a = dnnl_BcA24b2a, Bcda24b = dnnl_Bcda24b,
        BcdA24b2a = dnnl_BcdA24b2a, Bcdea24b = dnnl_Bcdea24b,
        BcdeA24b2a = dnnl_BcdeA24b2a, aCdb24c = dnnl_aCdb24c,
        aCdB24c2b = dnnl_aCdB24c2b, aCdeb24c = dnnl_aCdeb24c,
        aCdeB24c2b = dnnl_aCdeB24c2b, aCdefb24c = dnnl_aCdefb24c,
        aCdefB24c2b = dnnl_aCdefB24c2b, BcA8b4a = dnnl_BcA8b4a,
        BcdA8b4a = dnnl_BcdA8b4a, BcdeA8b4a = dnnl_BcdeA8b4a,
        aCdB8c4b = dnnl_aCdB8c4b, aCdeB8c4b = dnnl_aCdeB8c4b,
        aCdefB8c4b = dnnl_aCdefB8c4b, BcA24b4a = dnnl_BcA24b4a,
        BcdA24b4a = dnnl_BcdA24b4a, BcdeA24b4a = dnnl_BcdeA24b4a,
        aCdB24c4b = dnnl_aCdB24c4b, aCdeB24c4b = dnnl_aCdeB24c4b,
        aCdefB24c4b = dnnl_aCdefB24c4b, AB16b48a = dnnl_AB16b48a,
        ABc16b48a = dnnl_ABc16b48a, ABcd16b48a = dnnl_ABcd16b48a,
        ABcde16b48a = dnnl_ABcde16b48a, ABc16a4b = dnnl_ABc16a4b,
        ABcd16a4b = dnnl_ABcd16a4b, ABcde16a4b = dnnl_ABcde16a4b,
        defcbA16a = dnnl_defcbA16a, defcbA8a = dnnl_defcbA8a,
        AcB16b64a = dnnl_AcB16b64a, AcdB16b64a = dnnl_AcdB16b64a,
        AcdeB16b64a = dnnl_AcdeB16b64a, AcB16b48a = dnnl_AcB16b48a,
        AcdB16b48a = dnnl_AcdB16b48a, AcdeB16b48a = dnnl_AcdeB16b48a,
        AcB16b32a = dnnl_AcB16b32a, AcdB16b32a = dnnl_AcdB16b32a,
        AcdeB16b32a = dnnl_AcdeB16b32a, AcB16b16a = dnnl_AcB16b16a,
        AcdB16b16a = dnnl_AcdB16b16a, AcdeB16b16a = dnnl_AcdeB16b16a,
        AcB8b32a = dnnl_AcB8b32a, AcdB8b32a = dnnl_AcdB8b32a,
        AcdeB8b32a = dnnl_AcdeB8b32a, AcB8b24a = dnnl_AcB8b24a,
        AcdB8b24a = dnnl_AcdB8b24a, AcdeB8b24a = dnnl_AcdeB8b24a,
        AcB8b16a = dnnl_AcB8b16a, AcdB8b16a = dnnl_AcdB8b16a,
        AcdeB8b16a = dnnl_AcdeB8b16a, AcB8b8a = dnnl_AcB8b8a,
        AcdB8b8a = dnnl_AcdB8b8a, AcdeB8b8a = dnnl_AcdeB8b8a,
        AcB8b64a2b = dnnl_AcB8b64a2b, AcdB8b64a2b = dnnl_AcdB8b64a2b,
        AcdeB8b64a2b = dnnl_AcdeB8b64a2b, AcB8b32a2b = dnnl_AcB8b32a2b,
        AcdB8b32a2b = dnnl_AcdB8b32a2b, AcdeB8b32a2b = dnnl_AcdeB8b32a2b,
        AcB8b24a2b = dnnl_AcB8b24a2b, AcdB8b24a2b = dnnl_AcdB8b24a2b,
        AcdeB8b24a2b = dnnl_AcdeB8b24a2b, AcB8b16a2b = dnnl_AcB8b16a2b,
        AcdB8b16a2b = dnnl_AcdB8b16a2b, AcdeB8b16a2b = dnnl_AcdeB8b16a2b,
        AcB8b8a2b = dnnl_AcB8b8a2b, AcdB8b8a2b = dnnl_AcdB8b8a2b,
        AcdeB8b8a2b = dnnl_AcdeB8b8a2b, AcB4b64a4b = dnnl_AcB4b64a4b,
        AcdB4b64a4b = dnnl_AcdB4b64a4b, AcdeB4b64a4b = dnnl_AcdeB4b64a4b,
        AcB4b32a4b = dnnl_AcB4b32a4b, AcdB4b32a4b = dnnl_AcdB4b32a4b,
        AcdeB4b32a4b = dnnl_AcdeB4b32a4b, AcB4b24a4b = dnnl_AcB4b24a4b,
        AcdB4b24a4b = dnnl_AcdB4b24a4b, AcdeB4b24a4b = dnnl_AcdeB4b24a4b,
        AcB4b16a4b = dnnl_AcB4b16a4b, AcdB4b16a4b = dnnl_AcdB4b16a4b,
        AcdeB4b16a4b = dnnl_AcdeB4b16a4b, AcB4b8a4b = dnnl_AcB4b8a4b,
        AcdB4b8a4b = dnnl_AcdB4b8a4b, AcdeB4b8a4b = dnnl_AcdeB4b8a4b,
        Ab4a = dnnl_Ab4a, Ab8a = dnnl_Ab8a, BA4b4a = dnnl_BA4b4a,
        BA8b4a = dnnl_BA8b4a, BA2a24b = dnnl_BA2a24b, aCB2b24c = dnnl_aCB2b24c,
        BA2a8b = dnnl_BA2a8b, aCB2b8c = dnnl_aCB2b8c, BA8a24b = dnnl_BA8a24b,
        aCB8b24c = dnnl_aCB8b24c, BA8a16b = dnnl_BA8a16b,
        aCB8b16c = dnnl_aCB8b16c, BA8a8b = dnnl_BA8a8b, aCB8b8c = dnnl_aCB8b8c,
        bcad = dnnl_bcad, cabd = dnnl_cabd, dabc = dnnl_dabc,
        Ab32a = dnnl_Ab32a, aCBd8b8c = dnnl_aCBd8b8c,
        aCBde8b8c = dnnl_aCBde8b8c, BAc8a8b = dnnl_BAc8a8b,
        BAcd8a8b = dnnl_BAcd8a8b, BAcde8a8b = dnnl_BAcde8a8b,
        aCBdef8b8c = dnnl_aCBdef8b8c, abdEC16e4c = dnnl_abdEC16e4c,
        abDC16d4c = dnnl_abDC16d4c, BA24b8a = dnnl_BA24b8a,
        aCB24c8b = dnnl_aCB24c8b, abDC24d8c = dnnl_abDC24d8c,
        decbA4a = dnnl_decbA4a, defcbA4a = dnnl_defcbA4a,
        abDC8d8c = dnnl_abDC8d8c, abDC16d8c = dnnl_abDC16d8c,
        aCB8c8b = dnnl_aCB8c8b, aCB16c8b = dnnl_aCB16c8b, BA8b8a = dnnl_BA8b8a,
        BA16b8a = dnnl_BA16b8a, AB2a4b = dnnl_AB2a4b, aCBd4b4c = dnnl_aCBd4b4c,
        aCBde4b4c = dnnl_aCBde4b4c, aCBdef4b4c = dnnl_aCBdef4b4c,
        BAc4a4b = dnnl_BAc4a4b, BAcd4a4b = dnnl_BAcd4a4b,
        BAcde4a4b = dnnl_BAcde4a4b, BA12b8a = dnnl_BA12b8a,
        aCB12c8b = dnnl_aCB12c8b, abDC12d8c = dnnl_abDC12d8c,
        BA4b8a = dnnl_BA4b8a, aCB4c8b = dnnl_aCB4c8b, abDC4d8c = dnnl_abDC4d8c,
        Abc8a = dnnl_Abc8a, Abc32a = dnnl_Abc32a, aBcdef8b = dnnl_aBcdef8b,
        aBcdef32b = dnnl_aBcdef32b, format_tag_last = dnnl_format_tag_last,
        x = dnnl_x, nc = dnnl_nc, cn = dnnl_cn, tn = dnnl_tn, nt = dnnl_nt,
        ncw = dnnl_ncw, nwc = dnnl_nwc, nchw = dnnl_nchw, nhwc = dnnl_nhwc,
        chwn = dnnl_chwn, ncdhw = dnnl_ncdhw, ndhwc = dnnl_ndhwc, oi = dnnl_oi,
        io = dnnl_io, oiw = dnnl_oiw, owi = dnnl_owi, wio = dnnl_wio,
        woi = dnnl_woi, iwo = dnnl_iwo, oihw = dnnl_oihw, hwio = dnnl_hwio,
        hwoi = dnnl_hwoi, ohwi = dnnl_ohwi, ihwo = dnnl_ihwo, iohw = dnnl_iohw,
        oidhw = dnnl_oidhw, iodhw = dnnl_iodhw, dhwio = dnnl_dhwio,
        dhwoi = dnnl_dhwoi, odhwi = dnnl_odhwi, idhwo = dnnl_idhwo,
        goiw = dnnl_goiw, gowi = dnnl_gowi, wigo = dnnl_wigo,
        goihw = dnnl_goihw, gohwi = dnnl_gohwi, hwigo = dnnl_hwigo,
        giohw = dnnl_giohw, goidhw = dnnl_goidhw, godhwi = dnnl_godhwi,
        giodhw = dnnl_giodhw, dhwigo = dnnl_dhwigo, tnc = dnnl_tnc,
        ntc = dnnl_ntc, ldnc = dnnl_ldnc, ldigo = dnnl_ldigo,
        ldgoi = dnnl_ldgoi, ldio = dnnl_ldio, ldoi = dnnl_ldoi,
        ldgo = dnnl_ldgo, ldOi16o = dnnl_ldOi16o, ldOi32o = dnnl_ldOi32o,
        ldOI16o4i = dnnl_ldOI16o4i, ldOI32o4i = dnnl_ldOI32o4i,
        ldIo32i = dnnl_ldIo32i, ldgOi16o = dnnl_ldgOi16o,
        ldgOI16o4i = dnnl_ldgOI16o4i, ldgOi32o = dnnl_ldgOi32o,
        ldgOI32o2i = dnnl_ldgOI32o2i, ldgOI32o4i = dnnl_ldgOI32o4i,
        ldgOI64o2i = dnnl_ldgOI64o2i, ldgOI64o4i = dnnl_ldgOI64o4i,
        ldgIo16i = dnnl_ldgIo16i, ldgIo32i = dnnl_ldgIo32i,
        ldgIO32i2o = dnnl_ldgIO32i2o, nCdhw32c = dnnl_nCdhw32c,
        nCdhw16c = dnnl_nCdhw16c, nCdhw4c = dnnl_nCdhw4c,
        nCdhw8c = dnnl_nCdhw8c, nChw32c = dnnl_nChw32c, nChw16c = dnnl_nChw16c,
        nChw4c = dnnl_nChw4c, nChw8c = dnnl_nChw8c, nCw32c = dnnl_nCw32c,
        nCw16c = dnnl_nCw16c, nCw4c = dnnl_nCw4c, nCw8c = dnnl_nCw8c,
        NCw16n16c = dnnl_NCw16n16c, NCdhw16n16c = dnnl_NCdhw16n16c,
        NChw16n16c = dnnl_NChw16n16c, NCw32n16c = dnnl_NCw32n16c,
        NChw32n16c = dnnl_NChw32n16c, NChw16n32c = dnnl_NChw16n32c,
        NCdhw32n16c = dnnl_NCdhw32n16c, NCw32n32c = dnnl_NCw32n32c,
        NChw32n32c = dnnl_NChw32n32c, NCdhw32n32c = dnnl_NCdhw32n32c,
        OI16i16o = dnnl_OI16i16o, OI16i32o = dnnl_OI16i32o,
        OI16i48o = dnnl_OI16i48o, OI16i64o = dnnl_OI16i64o,
        OI8i8o2i = dnnl_OI8i8o2i, OI8i16o2i = dnnl_OI8i16o2i,
        OI8i24o2i = dnnl_OI8i24o2i, OI8i32o2i = dnnl_OI8i32o2i,
        OI8i64o2i = dnnl_OI8i64o2i, OI4i8o4i = dnnl_OI4i8o4i,
        OI4i16o4i = dnnl_OI4i16o4i, OI4i24o4i = dnnl_OI4i24o4i,
        OI4i32o4i = dnnl_OI4i32o4i, OI4i64o4i = dnnl_OI4i64o4i,
        OI16i16o4i = dnnl_OI16i16o4i, OI8i32o = dnnl_OI8i32o,
        OI8i24o = dnnl_OI8i24o, OI8i16o = dnnl_OI8i16o, OI8i8o = dnnl_OI8i8o,
        IOw4o4i = dnnl_IOw4o4i, IOw8o8i = dnnl_IOw8o8i,
        IOw16o16i = dnnl_IOw16o16i, IOw16i16o = dnnl_IOw16i16o,
        OIw16i16o = dnnl_OIw16i16o, OwI16i16o = dnnl_OwI16i16o,
        OIw16i32o = dnnl_OIw16i32o, OwI16i32o = dnnl_OwI16i32o,
        OIw16i48o = dnnl_OIw16i48o, OwI16i48o = dnnl_OwI16i48o,
        OIw16i64o = dnnl_OIw16i64o, OwI16i64o = dnnl_OwI16i64o,
        OIw16o16i = dnnl_OIw16o16i, Oiw16o = dnnl_Oiw16o, Oiw32o = dnnl_Oiw32o,
        OIw4i8o4i = dnnl_OIw4i8o4i, OwI4i8o4i = dnnl_OwI4i8o4i,
        OIw4i16o4i = dnnl_OIw4i16o4i, OwI4i16o4i = dnnl_OwI4i16o4i,
        OIw4i24o4i = dnnl_OIw4i24o4i, OwI4i24o4i = dnnl_OwI4i24o4i,
        OIw4i32o4i = dnnl_OIw4i32o4i, OwI4i32o4i = dnnl_OwI4i32o4i,
        OIw4i64o4i = dnnl_OIw4i64o4i, OwI4i64o4i = dnnl_OwI4i64o4i,
        OIw2i8o4i = dnnl_OIw2i8o4i, OIw16i16o4i = dnnl_OIw16i16o4i,
        OIw16i16o2i = dnnl_OIw16i16o2i, OIw16o16i2o = dnnl_OIw16o16i2o,
        OIw4i4o = dnnl_OIw4i4o, OIw4o4i = dnnl_OIw4o4i, Oiw4o = dnnl_Oiw4o,
        Oiw8o = dnnl_Oiw8o, OIw8i8o2i = dnnl_OIw8i8o2i,
        OwI8i8o2i = dnnl_OwI8i8o2i, OIw8i16o2i = dnnl_OIw8i16o2i,
        OwI8i16o2i = dnnl_OwI8i16o2i, OIw8i24o2i = dnnl_OIw8i24o2i,
        OwI8i24o2i = dnnl_OwI8i24o2i, OIw8i32o2i = dnnl_OIw8i32o2i,
        OwI8i32o2i = dnnl_OwI8i32o2i, OIw8i64o2i = dnnl_OIw8i64o2i,
        OwI8i64o2i = dnnl_OwI8i64o2i, OIw8i8o = dnnl_OIw8i8o,
        OwI8i8o = dnnl_OwI8i8o, OIw8o16i2o = dnnl_OIw8o16i2o,
        IOw8o16i2o = dnnl_IOw8o16i2o, OIw8o8i = dnnl_OIw8o8i,
        OIw8o4i = dnnl_OIw8o4i, Owi16o = dnnl_Owi16o, OwI16o2i = dnnl_OwI16o2i,
        OwI16o4i = dnnl_OwI16o4i, Iwo8i = dnnl_Iwo8i, IwO8i2o = dnnl_IwO8i2o,
        IwO8i4o = dnnl_IwO8i4o, Iwo16i = dnnl_Iwo16i, IwO16i2o = dnnl_IwO16i2o,
        IwO16i4o = dnnl_IwO16i4o, Iwo24i = dnnl_Iwo24i,
        IwO24i2o = dnnl_IwO24i2o, IwO24i4o = dnnl_IwO24i4o, Owi4o = dnnl_Owi4o,
        Owi8o = dnnl_Owi8o, OwI8o2i = dnnl_OwI8o2i, OIw8i32o = dnnl_OIw8i32o,
        OwI8i32o = dnnl_OwI8i32o, OIw8i24o = dnnl_OIw8i24o,
        OwI8i24o = dnnl_OwI8i24o, OIw8i16o = dnnl_OIw8i16o,
        OwI8i16o = dnnl_OwI8i16o, OwI8o4i = dnnl_OwI8o4i,
        IOhw16i16o = dnnl_IOhw16i16o, IOhw4o4i = dnnl_IOhw4o4i,
        IOhw8o8i = dnnl_IOhw8o8i, IOhw16o16i = dnnl_IOhw16o16i,
        Ohwi16o = dnnl_Ohwi16o, OhwI16o2i = dnnl_OhwI16o2i,
        OhwI16o4i = dnnl_OhwI16o4i, Ihwo8i = dnnl_Ihwo8i,
        IhwO8i2o = dnnl_IhwO8i2o, IhwO8i4o = dnnl_IhwO8i4o,
        Ihwo16i = dnnl_Ihwo16i, IhwO16i2o = dnnl_IhwO16i2o,
        IhwO16i4o = dnnl_IhwO16i4o, Ihwo24i = dnnl_Ihwo24i,
        IhwO24i2o = dnnl_IhwO24i2o, IhwO24i4o = dnnl_IhwO24i4o,
        Ohwi24o = dnnl_Ohwi24o, Ohwi32o = dnnl_Ohwi32o, Ohwi4o = dnnl_Ohwi4o,
        Ohwi8o = dnnl_Ohwi8o, OhwI8o2i = dnnl_OhwI8o2i,
        OhwI8o4i = dnnl_OhwI8o4i, OIhw16i16o = dnnl_OIhw16i16o,
        OhwI16i16o = dnnl_OhwI16i16o, OIhw16i32o = dnnl_OIhw16i32o,
        OhwI16i32o = dnnl_OhwI16i32o, OIhw16i48o = dnnl_OIhw16i48o,
        OhwI16i48o = dnnl_OhwI16i48o, OIhw16i64o = dnnl_OIhw16i64o,
        OhwI16i64o = dnnl_OhwI16i64o, OIhw16o16i = dnnl_OIhw16o16i,
        Oihw16o = dnnl_Oihw16o, Oihw32o = dnnl_Oihw32o,
        OIhw4i8o4i = dnnl_OIhw4i8o4i, OhwI4i8o4i = dnnl_OhwI4i8o4i,
        OIhw4i16o4i = dnnl_OIhw4i16o4i, OhwI4i16o4i = dnnl_OhwI4i16o4i,
        OIhw4i24o4i = dnnl_OIhw4i24o4i, OhwI4i24o4i = dnnl_OhwI4i24o4i,
        OIhw4i32o4i = dnnl_OIhw4i32o4i, OhwI4i32o4i = dnnl_OhwI4i32o4i,
        OIhw4i64o4i = dnnl_OIhw4i64o4i, OhwI4i64o4i = dnnl_OhwI4i64o4i,
        OIhw16i16o4i = dnnl_OIhw16i16o4i, OIhw16i16o2i = dnnl_OIhw16i16o2i,
        OIhw16o16i2o = dnnl_OIhw16o16i2o, OIhw4i4o = dnnl_OIhw4i4o,
        OIhw4o4i = dnnl_OIhw4o4i, Oihw4o = dnnl_Oihw4o, Oihw8o = dnnl_Oihw8o,
        OIhw8i8o2i = dnnl_OIhw8i8o2i, OhwI8i8o2i = dnnl_OhwI8i8o2i,
        OIhw8i16o2i = dnnl_OIhw8i16o2i, OhwI8i16o2i = dnnl_OhwI8i16o2i,
        OIhw8i32o2i = dnnl_OIhw8i32o2i, OhwI8i32o2i = dnnl_OhwI8i32o2i,
        OIhw8i24o2i = dnnl_OIhw8i24o2i, OhwI8i24o2i = dnnl_OhwI8i24o2i,
        OIhw8i64o2i = dnnl_OIhw8i64o2i, OhwI8i64o2i = dnnl_OhwI8i64o2i,
        OIhw8i8o = dnnl_OIhw8i8o, OhwI8i8o = dnnl_OhwI8i8o,
        OIhw8o16i2o = dnnl_OIhw8o16i2o, OIhw2i8o4i = dnnl_OIhw2i8o4i,
        IOhw8o16i2o = dnnl_IOhw8o16i2o, OIhw8o8i = dnnl_OIhw8o8i,
        OIhw8o4i = dnnl_OIhw8o4i, Owhi16o = dnnl_Owhi16o,
        OIhw8i32o = dnnl_OIhw8i32o, OhwI8i32o = dnnl_OhwI8i32o,
        OIhw8i24o = dnnl_OIhw8i24o, OhwI8i24o = dnnl_OhwI8i24o,
        OIhw8i16o = dnnl_OIhw8i16o, OhwI8i16o = dnnl_OhwI8i16o,
        Odhwi16o = dnnl_Odhwi16o, OdhwI16o2i = dnnl_OdhwI16o2i,
        OdhwI16o4i = dnnl_OdhwI16o4i, Idhwo8i = dnnl_Idhwo8i,
        IdhwO8i2o = dnnl_IdhwO8i2o, IdhwO8i4o = dnnl_IdhwO8i4o,
        Idhwo16i = dnnl_Idhwo16i, IdhwO16i2o = dnnl_IdhwO16i2o,
        IdhwO16i4o = dnnl_IdhwO16i4o, Idhwo24i = dnnl_Idhwo24i,
        IdhwO24i2o = dnnl_IdhwO24i2o, IdhwO24i4o = dnnl_IdhwO24i4o,
        Odhwi4o = dnnl_Odhwi4o, Odhwi8o = dnnl_Odhwi8o,
        OdhwI8o2i = dnnl_OdhwI8o2i, OdhwI8o4i = dnnl_OdhwI8o4i,
        Odwhi16o = dnnl_Odwhi16o, OIdhw16i16o = dnnl_OIdhw16i16o,
        OdhwI16i16o = dnnl_OdhwI16i16o, OIdhw16i32o = dnnl_OIdhw16i32o,
        OdhwI16i32o = dnnl_OdhwI16i32o, OIdhw16i48o = dnnl_OIdhw16i48o,
        OdhwI16i48o = dnnl_OdhwI16i48o, OIdhw16i64o = dnnl_OIdhw16i64o,
        OdhwI16i64o = dnnl_OdhwI16i64o, OIdhw16o16i = dnnl_OIdhw16o16i,
        Oidhw16o = dnnl_Oidhw16o, Oidhw32o = dnnl_Oidhw32o,
        OIdhw4i4o = dnnl_OIdhw4i4o, OIdhw4o4i = dnnl_OIdhw4o4i,
        Oidhw4o = dnnl_Oidhw4o, Oidhw8o = dnnl_Oidhw8o,
        OIdhw8i8o2i = dnnl_OIdhw8i8o2i, OdhwI8i8o2i = dnnl_OdhwI8i8o2i,
        OIdhw8i16o2i = dnnl_OIdhw8i16o2i, OdhwI8i16o2i = dnnl_OdhwI8i16o2i,
        OIdhw8i32o2i = dnnl_OIdhw8i32o2i, OdhwI8i32o2i = dnnl_OdhwI8i32o2i,
        OIdhw8i24o2i = dnnl_OIdhw8i24o2i, OdhwI8i24o2i = dnnl_OdhwI8i24o2i,
        OIdhw8i64o2i = dnnl_OIdhw8i64o2i, OdhwI8i64o2i = dnnl_OdhwI8i64o2i,
        OIdhw8i8o = dnnl_OIdhw8i8o, OdhwI8i8o = dnnl_OdhwI8i8o,
        OIdhw8o16i2o = dnnl_OIdhw8o16i2o, IOdhw8o16i2o = dnnl_IOdhw8o16i2o,
        OIdhw4i8o4i = dnnl_OIdhw4i8o4i, OdhwI4i8o4i = dnnl_OdhwI4i8o4i,
        OIdhw4i16o4i = dnnl_OIdhw4i16o4i, OdhwI4i16o4i = dnnl_OdhwI4i16o4i,
        OIdhw4i24o4i = dnnl_OIdhw4i24o4i, OdhwI4i24o4i = dnnl_OdhwI4i24o4i,
        OIdhw4i32o4i = dnnl_OIdhw4i32o4i, OdhwI4i32o4i = dnnl_OdhwI4i32o4i,
        OIdhw4i64o4i = dnnl_OIdhw4i64o4i, OdhwI4i64o4i = dnnl_OdhwI4i64o4i,
        OIdhw16i16o4i = dnnl_OIdhw16i16o4i, OIdhw16i16o2i = dnnl_OIdhw16i16o2i,
        OIdhw2i8o4i = dnnl_OIdhw2i8o4i, OIdhw8o8i = dnnl_OIdhw8o8i,
        OIdhw8o4i = dnnl_OIdhw8o4i, IOdhw16i16o = dnnl_IOdhw16i16o,
        OIdhw4o8i8o4i = dnnl_OIdhw4o8i8o4i, IOdhw4o4i = dnnl_IOdhw4o4i,
        IOdhw8o8i = dnnl_IOdhw8o8i, IOdhw16o16i = dnnl_IOdhw16o16i,
        OIdhw16o16i2o = dnnl_OIdhw16o16i2o, OIdhw8i32o = dnnl_OIdhw8i32o,
        OdhwI8i32o = dnnl_OdhwI8i32o, OIdhw8i24o = dnnl_OIdhw8i24o,
        OdhwI8i24o = dnnl_OdhwI8i24o, OIdhw8i16o = dnnl_OIdhw8i16o,
        OdhwI8i16o = dnnl_OdhwI8i16o, Goiw16g = dnnl_Goiw16g,
        Goiw8g = dnnl_Goiw8g, Goiw4g = dnnl_Goiw4g, gIOw4o4i = dnnl_gIOw4o4i,
        gIOw8o8i = dnnl_gIOw8o8i, gIOw16o16i = dnnl_gIOw16o16i,
        gIOw16i16o = dnnl_gIOw16i16o, gOIw16i16o = dnnl_gOIw16i16o,
        gOIw16o16i = dnnl_gOIw16o16i, gOiw16o = dnnl_gOiw16o,
        gOiw32o = dnnl_gOiw32o, gOIw4i16o4i = dnnl_gOIw4i16o4i,
        gOIw2i8o4i = dnnl_gOIw2i8o4i, gOIw16i16o4i = dnnl_gOIw16i16o4i,
        gOIw16i16o2i = dnnl_gOIw16i16o2i, gOIw16o16i2o = dnnl_gOIw16o16i2o,
        gOIw4i4o = dnnl_gOIw4i4o, gOIw4o4i = dnnl_gOIw4o4i,
        gOiw4o = dnnl_gOiw4o, gOiw8o = dnnl_gOiw8o,
        gOIw8i16o2i = dnnl_gOIw8i16o2i, gOIw8i8o = dnnl_gOIw8i8o,
        gOIw8o16i2o = dnnl_gOIw8o16i2o, gIOw8o16i2o = dnnl_gIOw8o16i2o,
        gOIw8o8i = dnnl_gOIw8o8i, gOIw8o4i = dnnl_gOIw8o4i,
        gOwi16o = dnnl_gOwi16o, gOwI16o2i = dnnl_gOwI16o2i,
        gOwI16o4i = dnnl_gOwI16o4i, gIwo8i = dnnl_gIwo8i,
        gIwO8i2o = dnnl_gIwO8i2o, gIwO8i4o = dnnl_gIwO8i4o,
        gIwo16i = dnnl_gIwo16i, gIwO16i2o = dnnl_gIwO16i2o,
        gIwO16i4o = dnnl_gIwO16i4o, gIwo24i = dnnl_gIwo24i,
        gIwO24i2o = dnnl_gIwO24i2o, gIwO24i4o = dnnl_gIwO24i4o,
        gOwi4o = dnnl_gOwi4o, gOwi8o = dnnl_gOwi8o, gOwI8o2i = dnnl_gOwI8o2i,
        gOwI8o4i = dnnl_gOwI8o4i, Goiw32g = dnnl_Goiw32g,
        gOIw2i4o2i = dnnl_gOIw2i4o2i, gOIw2o4i2o = dnnl_gOIw2o4i2o,
        gOIw4i8o2i = dnnl_gOIw4i8o2i, gOIw4o8i2o = dnnl_gOIw4o8i2o,
        goIw4i = dnnl_goIw4i, goIw32i = dnnl_goIw32i,
        gIOhw16i16o = dnnl_gIOhw16i16o, gIOhw4o4i = dnnl_gIOhw4o4i,
        gIOhw8o8i = dnnl_gIOhw8o8i, gIOhw16o16i = dnnl_gIOhw16o16i,
        gOhwi16o = dnnl_gOhwi16o, gOhwI16o2i = dnnl_gOhwI16o2i,
        gOhwI16o4i = dnnl_gOhwI16o4i, gIhwo8i = dnnl_gIhwo8i,
        gIhwO8i2o = dnnl_gIhwO8i2o, gIhwO8i4o = dnnl_gIhwO8i4o,
        gIhwo16i = dnnl_gIhwo16i, gIhwO16i2o = dnnl_gIhwO16i2o,
        gIhwO16i4o = dnnl_gIhwO16i4o, gIhwo24i = dnnl_gIhwo24i,
        gIhwO24i2o = dnnl_gIhwO24i2o, gIhwO24i4o = dnnl_gIhwO24i4o,
        gOhwi32o = dnnl_gOhwi32o, gOhwi24o = dnnl_gOhwi24o,
        gOhwI24o2i = dnnl_gOhwI24o2i, gOhwI24o4i = dnnl_gOhwI24o4i,
        gOhwi4o = dnnl_gOhwi4o, gOhwi8o = dnnl_gOhwi8o,
        gOhwI8o2i = dnnl_gOhwI8o2i, gOhwI8o4i = dnnl_gOhwI8o4i,
        Goihw16g = dnnl_Goihw16g, gOIhw16i16o = dnnl_gOIhw16i16o,
        gOIhw16o16i = dnnl_gOIhw16o16i, gOihw16o = dnnl_gOihw16o,
        gOihw32o = dnnl_gOihw32o, gOIhw2i8o4i = dnnl_gOIhw2i8o4i,
        gOIhw4i16o4i = dnnl_gOIhw4i16o4i, gOIhw16i16o4i = dnnl_gOIhw16i16o4i,
        gOIhw16i16o2i = dnnl_gOIhw16i16o2i, gOIhw16o16i2o = dnnl_gOIhw16o16i2o,
        gOIhw4i4o = dnnl_gOIhw4i4o, gOIhw4o4i = dnnl_gOIhw4o4i,
        gOihw4o = dnnl_gOihw4o, gOihw8o = dnnl_gOihw8o, Goihw8g = dnnl_Goihw8g,
        Goihw4g = dnnl_Goihw4g, gOIhw8i16o2i = dnnl_gOIhw8i16o2i,
        gOIhw8i8o = dnnl_gOIhw8i8o, gOIhw8o16i2o = dnnl_gOIhw8o16i2o,
        gIOhw8o16i2o = dnnl_gIOhw8o16i2o, gOIhw8o8i = dnnl_gOIhw8o8i,
        gOIhw8o4i = dnnl_gOIhw8o4i, Goihw32g = dnnl_Goihw32g,
        gOwhi16o = dnnl_gOwhi16o, goIhw4i = dnnl_goIhw4i,
        goIhw32i = dnnl_goIhw32i, OIw4o8i8o4i = dnnl_OIw4o8i8o4i,
        OIhw4o8i8o4i = dnnl_OIhw4o8i8o4i, IOw4i8o8i4o = dnnl_IOw4i8o8i4o,
        IOhw4i8o8i4o = dnnl_IOhw4i8o8i4o, IOdhw4i8o8i4o = dnnl_IOdhw4i8o8i4o,
        OIhw2o8i8o2i = dnnl_OIhw2o8i8o2i, gOIw4o8i8o4i = dnnl_gOIw4o8i8o4i,
        gOIhw4o8i8o4i = dnnl_gOIhw4o8i8o4i,
        gOIdhw4o8i8o4i = dnnl_gOIdhw4o8i8o4i, gIOw4i8o8i4o = dnnl_gIOw4i8o8i4o,
        gIOhw4i8o8i4o = dnnl_gIOhw4i8o8i4o,
        gIOdhw4i8o8i4o = dnnl_gIOdhw4i8o8i4o,
        gOIhw2o8i8o2i = dnnl_gOIhw2o8i8o2i, gOIhw2i4o2i = dnnl_gOIhw2i4o2i,
        gOIhw2o4i2o = dnnl_gOIhw2o4i2o, gOIhw4i8o2i = dnnl_gOIhw4i8o2i,
        gOIhw4o8i2o = dnnl_gOIhw4o8i2o, gIOdhw16i16o = dnnl_gIOdhw16i16o,
        gIOdhw4o4i = dnnl_gIOdhw4o4i, gIOdhw8o8i = dnnl_gIOdhw8o8i,
        gIOdhw16o16i = dnnl_gIOdhw16o16i, gOdhwi16o = dnnl_gOdhwi16o,
        gOdhwI16o2i = dnnl_gOdhwI16o2i, gOdhwI16o4i = dnnl_gOdhwI16o4i,
        gIdhwo8i = dnnl_gIdhwo8i, gIdhwO8i2o = dnnl_gIdhwO8i2o,
        gIdhwO8i4o = dnnl_gIdhwO8i4o, gIdhwo16i = dnnl_gIdhwo16i,
        gIdhwO16i2o = dnnl_gIdhwO16i2o, gIdhwO16i4o = dnnl_gIdhwO16i4o,
        gIdhwo24i = dnnl_gIdhwo24i, gIdhwO24i2o = dnnl_gIdhwO24i2o,
        gIdhwO24i4o = dnnl_gIdhwO24i4o, gOdhwi4o = dnnl_gOdhwi4o,
        gOdhwi8o = dnnl_gOdhwi8o, gOdhwI8o2i = dnnl_gOdhwI8o2i,
        gOdhwI8o4i = dnnl_gOdhwI8o4i, gOdwhi16o = dnnl_gOdwhi16o,
        gOIdhw16i16o = dnnl_gOIdhw16i16o, gOIdhw4i16o4i = dnnl_gOIdhw4i16o4i,
        gOIdhw16i16o4i = dnnl_gOIdhw16i16o4i, gOIdhw2i8o4i = dnnl_gOIdhw2i8o4i,
        gOIdhw16i16o2i = dnnl_gOIdhw16i16o2i, gOIdhw16o16i = dnnl_gOIdhw16o16i,
        gOIdhw16o16i2o = dnnl_gOIdhw16o16i2o, gOidhw16o = dnnl_gOidhw16o,
        gOidhw32o = dnnl_gOidhw32o, gOIdhw4i4o = dnnl_gOIdhw4i4o,
        gOIdhw4o4i = dnnl_gOIdhw4o4i, gOidhw4o = dnnl_gOidhw4o,
        gOidhw8o = dnnl_gOidhw8o, gOIdhw8i16o2i = dnnl_gOIdhw8i16o2i,
        gOIdhw8i8o = dnnl_gOIdhw8i8o, gOIdhw8o16i2o = dnnl_gOIdhw8o16i2o,
        gIOdhw8o16i2o = dnnl_gIOdhw8o16i2o, gOIdhw8o8i = dnnl_gOIdhw8o8i,
        gOIdhw8o4i = dnnl_gOIdhw8o4i, Goidhw16g = dnnl_Goidhw16g,
        Goidhw32g = dnnl_Goidhw32g, gOIdhw2i4o2i = dnnl_gOIdhw2i4o2i,
        gOIdhw4i8o2i = dnnl_gOIdhw4i8o2i, gOIdhw2o4i2o = dnnl_gOIdhw2o4i2o,
        gOIdhw4o8i2o = dnnl_gOIdhw4o8i2o, goIdhw4i = dnnl_goIdhw4i,
        goIdhw32i = dnnl_goIdhw32i, Owi24o = dnnl_Owi24o,
        OwI24o2i = dnnl_OwI24o2i, OwI24o4i = dnnl_OwI24o4i,
        Owi32o = dnnl_Owi32o, OwI32o2i = dnnl_OwI32o2i,
        OwI32o4i = dnnl_OwI32o4i, Owi48o = dnnl_Owi48o,
        OwI48o2i = dnnl_OwI48o2i, OwI48o4i = dnnl_OwI48o4i,
        Owi64o = dnnl_Owi64o, OwI64o2i = dnnl_OwI64o2i,
        OwI64o4i = dnnl_OwI64o4i, Iwo32i = dnnl_Iwo32i,
        IwO32i2o = dnnl_IwO32i2o, IwO32i4o = dnnl_IwO32i4o,
        Iwo48i = dnnl_Iwo48i, IwO48i2o = dnnl_IwO48i2o,
        IwO48i4o = dnnl_IwO48i4o, Iwo64i = dnnl_Iwo64i,
        IwO64i2o = dnnl_IwO64i2o, IwO64i4o = dnnl_IwO64i4o, wIo2i = dnnl_wIo2i,
        wIo4i = dnnl_wIo4i, gOwi24o = dnnl_gOwi24o, gOwI24o2i = dnnl_gOwI24o2i,
        gOwI24o4i = dnnl_gOwI24o4i, gOwi32o = dnnl_gOwi32o,
        gOwI32o2i = dnnl_gOwI32o2i, gOwI32o4i = dnnl_gOwI32o4i,
        gOwi48o = dnnl_gOwi48o, gOwI48o2i = dnnl_gOwI48o2i,
        gOwI48o4i = dnnl_gOwI48o4i, gOwi64o = dnnl_gOwi64o,
        gOwI64o2i = dnnl_gOwI64o2i, gOwI64o4i = dnnl_gOwI64o4i,
        gIwo32i = dnnl_gIwo32i, gIwO32i2o = dnnl_gIwO32i2o,
        gIwO32i4o = dnnl_gIwO32i4o, gIwo48i = dnnl_gIwo48i,
        gIwO48i2o = dnnl_gIwO48i2o, gIwO48i4o = dnnl_gIwO48i4o,
        gIwo64i = dnnl_gIwo64i, gIwO64i2o = dnnl_gIwO64i2o,
        gIwO64i4o = dnnl_gIwO64i4o, gwio = dnnl_gwio, gwIo2i = dnnl_gwIo2i,
        gwIo4i = dnnl_gwIo4i, OhwI24o = dnnl_OhwI24o,
        OhwI24o2i = dnnl_OhwI24o2i, OhwI24o4i = dnnl_OhwI24o4i,
        OhwI32o = dnnl_OhwI32o, OhwI32o2i = dnnl_OhwI32o2i,
        OhwI32o4i = dnnl_OhwI32o4i, Ohwi48o = dnnl_Ohwi48o,
        OhwI48o2i = dnnl_OhwI48o2i, OhwI48o4i = dnnl_OhwI48o4i,
        Ohwi64o = dnnl_Ohwi64o, OhwI64o2i = dnnl_OhwI64o2i,
        OhwI64o4i = dnnl_OhwI64o4i, Ihwo32i = dnnl_Ihwo32i,
        IhwO32i2o = dnnl_IhwO32i2o, IhwO32i4o = dnnl_IhwO32i4o,
        Ihwo48i = dnnl_Ihwo48i, IhwO48i2o = dnnl_IhwO48i2o,
        IhwO48i4o = dnnl_IhwO48i4o, Ihwo64i = dnnl_Ihwo64i,
        IhwO64i2o = dnnl_IhwO64i2o, IhwO64i4o = dnnl_IhwO64i4o,
        hwIo2i = dnnl_hwIo2i, hwIo4i = dnnl_hwIo4i, gOhwI24o = dnnl_gOhwI24o,
        gOhwI32o = dnnl_gOhwI32o, gOhwI32o2i = dnnl_gOhwI32o2i,
        gOhwI32o4i = dnnl_gOhwI32o4i, gOhwi48o = dnnl_gOhwi48o,
        gOhwI48o2i = dnnl_gOhwI48o2i, gOhwI48o4i = dnnl_gOhwI48o4i,
        gOhwi64o = dnnl_gOhwi64o, gOhwI64o2i = dnnl_gOhwI64o2i,
        gOhwI64o4i = dnnl_gOhwI64o4i, gIhwo32i = dnnl_gIhwo32i,
        gIhwO32i2o = dnnl_gIhwO32i2o, gIhwO32i4o = dnnl_gIhwO32i4o,
        gIhwo48i = dnnl_gIhwo48i, gIhwO48i2o = dnnl_gIhwO48i2o,
        gIhwO48i4o = dnnl_gIhwO48i4o, gIhwo64i = dnnl_gIhwo64i,
        gIhwO64i2o = dnnl_gIhwO64i2o, gIhwO64i4o = dnnl_gIhwO64i4o,
        ghwio = dnnl_ghwio, ghwIo2i = dnnl_ghwIo2i, ghwIo4i = dnnl_ghwIo4i,
        Odhwi24o = dnnl_Odhwi24o, OdhwI24o2i = dnnl_OdhwI24o2i,
        OdhwI24o4i = dnnl_OdhwI24o4i, Odhwi32o = dnnl_Odhwi32o,
        OdhwI32o2i = dnnl_OdhwI32o2i, OdhwI32o4i = dnnl_OdhwI32o4i,
        Odhwi48o = dnnl_Odhwi48o, OdhwI48o2i = dnnl_OdhwI48o2i,
        OdhwI48o4i = dnnl_OdhwI48o4i, Odhwi64o = dnnl_Odhwi64o,
        OdhwI64o2i = dnnl_OdhwI64o2i, OdhwI64o4i = dnnl_OdhwI64o4i,
        Idhwo32i = dnnl_Idhwo32i, IdhwO32i2o = dnnl_IdhwO32i2o,
        IdhwO32i4o = dnnl_IdhwO32i4o, Idhwo48i = dnnl_Idhwo48i,
        IdhwO48i2o = dnnl_IdhwO48i2o, IdhwO48i4o = dnnl_IdhwO48i4o,
        Idhwo64i = dnnl_Idhwo64i, IdhwO64i2o = dnnl_IdhwO64i2o,
        IdhwO64i4o = dnnl_IdhwO64i4o, dhwIo2i = dnnl_dhwIo2i,
        dhwIo4i = dnnl_dhwIo4i, gOdhwi24o = dnnl_gOdhwi24o,
        gOdhwI24o2i = dnnl_gOdhwI24o2i, gOdhwI24o4i = dnnl_gOdhwI24o4i,
        gOdhwi32o = dnnl_gOdhwi32o, gOdhwI32o2i = dnnl_gOdhwI32o2i,
        gOdhwI32o4i = dnnl_gOdhwI32o4i, gOdhwi48o = dnnl_gOdhwi48o,
        gOdhwI48o2i = dnnl_gOdhwI48o2i, gOdhwI48o4i = dnnl_gOdhwI48o4i,
        gOdhwi64o = dnnl_gOdhwi64o, gOdhwI64o2i = dnnl_gOdhwI64o2i,
        gOdhwI64o4i = dnnl_gOdhwI64o4i, gIdhwo32i = dnnl_gIdhwo32i,
        gIdhwO32i2o = dnnl_gIdhwO32i2o, gIdhwO32i4o = dnnl_gIdhwO32i4o,
        gIdhwo48i = dnnl_gIdhwo48i, gIdhwO48i2o = dnnl_gIdhwO48i2o,
        gIdhwO48i4o = dnnl_gIdhwO48i4o, gIdhwo64i = dnnl_gIdhwo64i,
        gIdhwO64i2o = dnnl_gIdhwO64i2o, gIdhwO64i4o = dnnl_gIdhwO64i4o,
        gdhwio = dnnl_gdhwio, gdhwIo2i = dnnl_gdhwIo2i,
        gdhwIo4i = dnnl_gdhwIo4i, OI16i32o4i = dnnl_OI16i32o4i,
        OI16i48o4i = dnnl_OI16i48o4i, OI16i64o4i = dnnl_OI16i64o4i,
        OI16i16o2i = dnnl_OI16i16o2i, OI16i32o2i = dnnl_OI16i32o2i,
        OI16i48o2i = dnnl_OI16i48o2i, OI16i64o2i = dnnl_OI16i64o2i,
        OIw16i32o4i = dnnl_OIw16i32o4i, OIw16i48o4i = dnnl_OIw16i48o4i,
        OIw16i64o4i = dnnl_OIw16i64o4i, OIw16i32o2i = dnnl_OIw16i32o2i,
        OIw16i48o2i = dnnl_OIw16i48o2i, OIw16i64o2i = dnnl_OIw16i64o2i,
        OIhw16i32o4i = dnnl_OIhw16i32o4i, OIhw16i48o4i = dnnl_OIhw16i48o4i,
        OIhw16i64o4i = dnnl_OIhw16i64o4i, OIhw16i32o2i = dnnl_OIhw16i32o2i,
        OIhw16i48o2i = dnnl_OIhw16i48o2i, OIhw16i64o2i = dnnl_OIhw16i64o2i,
        OIdhw16i32o4i = dnnl_OIdhw16i32o4i, OIdhw16i48o4i = dnnl_OIdhw16i48o4i,
        OIdhw16i64o4i = dnnl_OIdhw16i64o4i, OIdhw16i32o2i = dnnl_OIdhw16i32o2i,
        OIdhw16i48o2i = dnnl_OIdhw16i48o2i, OIdhw16i64o2i = dnnl_OIdhw16i64o2i,
        OwI16i16o2i = dnnl_OwI16i16o2i, OwI16i16o4i = dnnl_OwI16i16o4i,
        OhwI16i16o2i = dnnl_OhwI16i16o2i, OhwI16i16o4i = dnnl_OhwI16i16o4i,
        OdhwI16i16o2i = dnnl_OdhwI16i16o2i, OdhwI16i16o4i = dnnl_OdhwI16i16o4i,
        IwO16o16i2o = dnnl_IwO16o16i2o, IwO16o16i4o = dnnl_IwO16o16i4o,
        IhwO16o16i2o = dnnl_IhwO16o16i2o, IhwO16o16i4o = dnnl_IhwO16o16i4o,
        IdhwO16o16i2o = dnnl_IdhwO16o16i2o, IdhwO16o16i4o = dnnl_IdhwO16o16i4o,
        gOwI16i16o2i = dnnl_gOwI16i16o2i, gOwI16i16o4i = dnnl_gOwI16i16o4i,
        gOhwI16i16o2i = dnnl_gOhwI16i16o2i, gOhwI16i16o4i = dnnl_gOhwI16i16o4i,
        gOdhwI16i16o2i = dnnl_gOdhwI16i16o2i,
        gOdhwI16i16o4i = dnnl_gOdhwI16i16o4i, gIwO16o16i2o = dnnl_gIwO16o16i2o,
        gIwO16o16i4o = dnnl_gIwO16o16i4o, gIhwO16o16i2o = dnnl_gIhwO16o16i2o,
        gIhwO16o16i4o = dnnl_gIhwO16o16i4o,
        gIdhwO16o16i2o = dnnl_gIdhwO16o16i2o,
        gIdhwO16o16i4o = dnnl_gIdhwO16o16i4o, OwI16i32o2i = dnnl_OwI16i32o2i,
        OwI16i32o4i = dnnl_OwI16i32o4i, OwI16i48o2i = dnnl_OwI16i48o2i,
        OwI16i48o4i = dnnl_OwI16i48o4i, OwI16i64o2i = dnnl_OwI16i64o2i,
        OwI16i64o4i = dnnl_OwI16i64o4i, IwO16o32i2o = dnnl_IwO16o32i2o,
        IwO16o32i4o = dnnl_IwO16o32i4o, IwO16o48i2o = dnnl_IwO16o48i2o,
        IwO16o48i4o = dnnl_IwO16o48i4o, IwO16o64i2o = dnnl_IwO16o64i2o,
        IwO16o64i4o = dnnl_IwO16o64i4o, gOwI16i32o2i = dnnl_gOwI16i32o2i,
        gOwI16i32o4i = dnnl_gOwI16i32o4i, gOwI16i48o2i = dnnl_gOwI16i48o2i,
        gOwI16i48o4i = dnnl_gOwI16i48o4i, gOwI16i64o2i = dnnl_gOwI16i64o2i,
        gOwI16i64o4i = dnnl_gOwI16i64o4i, gIwO16o32i2o = dnnl_gIwO16o32i2o,
        gIwO16o32i4o = dnnl_gIwO16o32i4o, gIwO16o48i2o = dnnl_gIwO16o48i2o,
        gIwO16o48i4o = dnnl_gIwO16o48i4o, gIwO16o64i2o = dnnl_gIwO16o64i2o,
        gIwO16o64i4o = dnnl_gIwO16o64i4o, OhwI16i32o2i = dnnl_OhwI16i32o2i,
        OhwI16i32o4i = dnnl_OhwI16i32o4i, OhwI16i48o2i = dnnl_OhwI16i48o2i,
        OhwI16i48o4i = dnnl_OhwI16i48o4i, OhwI16i64o2i = dnnl_OhwI16i64o2i,
        OhwI16i64o4i = dnnl_OhwI16i64o4i, IhwO16o32i2o = dnnl_IhwO16o32i2o,
        IhwO16o32i4o = dnnl_IhwO16o32i4o, IhwO16o48i2o = dnnl_IhwO16o48i2o,
        IhwO16o48i4o = dnnl_IhwO16o48i4o, IhwO16o64i2o = dnnl_IhwO16o64i2o,
        IhwO16o64i4o = dnnl_IhwO16o64i4o, gOhwI16i32o2i = dnnl_gOhwI16i32o2i,
        gOhwI16i32o4i = dnnl_gOhwI16i32o4i, gOhwI16i48o2i = dnnl_gOhwI16i48o2i,
        gOhwI16i48o4i = dnnl_gOhwI16i48o4i, gOhwI16i64o2i = dnnl_gOhwI16i64o2i,
        gOhwI16i64o4i = dnnl_gOhwI16i64o4i, gIhwO16o32i2o = dnnl_gIhwO16o32i2o,
        gIhwO16o32i4o = dnnl_gIhwO16o32i4o, gIhwO16o48i2o = dnnl_gIhwO16o48i2o,
        gIhwO16o48i4o = dnnl_gIhwO16o48i4o, gIhwO16o64i2o = dnnl_gIhwO16o64i2o,
        gIhwO16o64i4o = dnnl_gIhwO16o64i4o, OdhwI16i32o2i = dnnl_OdhwI16i32o2i,
        OdhwI16i32o4i = dnnl_OdhwI16i32o4i, OdhwI16i48o2i = dnnl_OdhwI16i48o2i,
        OdhwI16i48o4i = dnnl_OdhwI16i48o4i, OdhwI16i64o2i = dnnl_OdhwI16i64o2i,
        OdhwI16i64o4i = dnnl_OdhwI16i64o4i, IdhwO16o32i2o = dnnl_IdhwO16o32i2o,
        IdhwO16o32i4o = dnnl_IdhwO16o32i4o, IdhwO16o48i2o = dnnl_IdhwO16o48i2o,
        IdhwO16o48i4o = dnnl_IdhwO16o48i4o, IdhwO16o64i2o = dnnl_IdhwO16o64i2o,
        IdhwO16o64i4o = dnnl_IdhwO16o64i4o,
        gOdhwI16i32o2i = dnnl_gOdhwI16i32o2i,
        gOdhwI16i32o4i = dnnl_gOdhwI16i32o4i,
        gOdhwI16i48o2i = dnnl_gOdhwI16i48o2i,
        gOdhwI16i48o4i = dnnl_gOdhwI16i48o4i,
        gOdhwI16i64o2i = dnnl_gOdhwI16i64o2i,
        gOdhwI16i64o4i = dnnl_gOdhwI16i64o4i,
        gIdhwO16o32i2o = dnnl_gIdhwO16o32i2o,
        gIdhwO16o32i4o = dnnl_gIdhwO16o32i4o,
        gIdhwO16o48i2o = dnnl_gIdhwO16o48i2o,
        gIdhwO16o48i4o = dnnl_gIdhwO16o48i4o,
        gIdhwO16o64i2o = dnnl_gIdhwO16o64i2o,
        gIdhwO16o64i4o = dnnl_gIdhwO16o64i4o, hwioG16g = dnnl_hwioG16g,
        hwioG8g = dnnl_hwioG8g, hwioG4g = dnnl_hwioG4g,
        dhwioG16g = dnnl_dhwioG16g, dhwioG8g = dnnl_dhwioG8g,
        dhwioG4g = dnnl_dhwioG4g, NCdhw40n16c = dnnl_NCdhw40n16c,
        NCw40n16c = dnnl_NCw40n16c, NChw40n16c = dnnl_NChw40n16c,
        NCw40n32c = dnnl_NCw40n32c, NChw40n32c = dnnl_NChw40n32c,
        NCdhw40n32c = dnnl_NCdhw40n32c, OIdhw4o8i8o2i = dnnl_OIdhw4o8i8o2i,
        OIhw4o8i8o2i = dnnl_OIhw4o8i8o2i, OIw4o8i8o2i = dnnl_OIw4o8i8o2i,
        gOIdhw4o8i8o2i = dnnl_gOIdhw4o8i8o2i,
        gOIhw4o8i8o2i = dnnl_gOIhw4o8i8o2i, gOIw4o8i8o2i = dnnl_gOIw4o8i8o2i,
        IOdhw4i8o8i2o = dnnl_IOdhw4i8o8i2o, IOhw4i8o8i2o = dnnl_IOhw4i8o8i2o,
        IOw4i8o8i2o = dnnl_IOw4i8o8i2o, gIOdhw4i8o8i2o = dnnl_gIOdhw4i8o8i2o,
        gIOhw4i8o8i2o = dnnl_gIOhw4i8o8i2o, gIOw4i8o8i2o = dnnl_gIOw4i8o8i2o,
        NCw2c32n8c = dnnl_NCw2c32n8c, NChw2c32n8c = dnnl_NChw2c32n8c,
        NCdhw2c32n8c = dnnl_NCdhw2c32n8c, OIw2i8o16i4o = dnnl_OIw2i8o16i4o,
        OIhw2i8o16i4o = dnnl_OIhw2i8o16i4o,
        OIdhw2i8o16i4o = dnnl_OIdhw2i8o16i4o, OIw2o8i16o4i = dnnl_OIw2o8i16o4i,
        OIw2o8i16o2i = dnnl_OIw2o8i16o2i, IOw2i8o16i4o = dnnl_IOw2i8o16i4o,
        IOw2i8o16i2o = dnnl_IOw2i8o16i2o, OIhw2o8i16o4i = dnnl_OIhw2o8i16o4i,
        OIhw2o8i16o2i = dnnl_OIhw2o8i16o2i, IOhw2i8o16i4o = dnnl_IOhw2i8o16i4o,
        IOhw2i8o16i2o = dnnl_IOhw2i8o16i2o,
        OIdhw2o8i16o4i = dnnl_OIdhw2o8i16o4i,
        OIdhw2o8i16o2i = dnnl_OIdhw2o8i16o2i,
        IOdhw2i8o16i4o = dnnl_IOdhw2i8o16i4o,
        IOdhw2i8o16i2o = dnnl_IOdhw2i8o16i2o,
        gOIw2o8i16o2i = dnnl_gOIw2o8i16o2i, gIOw2i8o16i2o = dnnl_gIOw2i8o16i2o,
        gIOhw2i8o16i2o = dnnl_gIOhw2i8o16i2o,
        gIOdhw2i8o16i2o = dnnl_gIOdhw2i8o16i2o,
        gOIhw2o8i16o2i = dnnl_gOIhw2o8i16o2i,
        gOIdhw2o8i16o2i = dnnl_gOIdhw2o8i16o2i,
        gOIw2o8i16o4i = dnnl_gOIw2o8i16o4i,
        gOIhw2o8i16o4i = dnnl_gOIhw2o8i16o4i,
    };

    // A memory descriptor: dimensions, data type and layout of data.
    struct desc : public handle<dnnl_memory_desc_t> {
        using handle<dnnl_memory_desc_t>::handle;

        friend struct memory;

        // Zero descriptor (no dimensions).
        desc() {
            dnnl_memory_desc_t md = nullptr;
            error::wrap_c_api(dnnl_memory_desc_create_with_tag(&md, 0, nullptr,
                                      dnnl_data_type_undef,
                                      dnnl_format_tag_undef),
                    "could not create a zero memory descriptor");
            reset(md);
        }

        desc(const dims &adims, data_type adata_type, format_tag aformat_tag,
                bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_create_with_tag(&md,
                    (int)adims.size(), adims.data(), convert_to_c(adata_type),
                    convert_to_c(aformat_tag));
            if (!allow_empty)
                error::wrap_c_api(st,
                        "could not create a memory descriptor from a format "
                        "tag");
            reset(st == dnnl_success ? md : nullptr);
        }

        desc(const dims &adims, data_type adata_type, const dims &strides,
                bool allow_empty = false) {
            validate_dims(adims);
            if (!strides.empty()) validate_dims(strides, (int)adims.size());
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_create_with_strides(&md,
                    (int)adims.size(), adims.data(), convert_to_c(adata_type),
                    strides.empty() ? nullptr : strides.data());
            if (!allow_empty)
                error::wrap_c_api(st,
                        "could not create a memory descriptor from strides");
            reset(st == dnnl_success ? md : nullptr);
        }

        // Sparse descriptors.
        static desc csr(const dims &adims, data_type adata_type, dim nnz,
                data_type index_dt, data_type pointer_dt,
                bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_create_with_csr_encoding(&md,
                    (int)adims.size(), adims.data(), convert_to_c(adata_type),
                    nnz, convert_to_c(index_dt), convert_to_c(pointer_dt));
            if (!allow_empty)
                error::wrap_c_api(
                        st, "could not create a CSR memory descriptor");
            return desc {st == dnnl_success ? md : nullptr};
        }

        static desc coo(const dims &adims, data_type adata_type, dim nnz,
                data_type index_dt, bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_create_with_coo_encoding(&md,
                    (int)adims.size(), adims.data(), convert_to_c(adata_type),
                    nnz, convert_to_c(index_dt));
            if (!allow_empty)
                error::wrap_c_api(
                        st, "could not create a COO memory descriptor");
            return desc {st == dnnl_success ? md : nullptr};
        }

        static desc packed(const dims &adims, data_type adata_type, dim nnz,
                bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_create_with_packed_encoding(
                    &md, (int)adims.size(), adims.data(),
                    convert_to_c(adata_type), nnz);
            if (!allow_empty)
                error::wrap_c_api(
                        st, "could not create a packed memory descriptor");
            return desc {st == dnnl_success ? md : nullptr};
        }

#if DNNL_EXPERIMENTAL_GROUPED_MEMORY
        static desc grouped(const dims &adims, data_type adata_type,
                int variable_dim_idx, dim group_count,
                data_type offsets_dt = data_type::s32,
                bool allow_empty = false) {
            validate_dims(adims);
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_create_with_grouped_encoding(
                    &md, (int)adims.size(), adims.data(),
                    convert_to_c(adata_type), variable_dim_idx, group_count,
                    convert_to_c(offsets_dt));
            if (!allow_empty)
                error::wrap_c_api(
                        st, "could not create a grouped memory descriptor");
            return desc {st == dnnl_success ? md : nullptr};
        }
#endif

        // Descriptor of a single scalar living in host memory.
        static desc host_scalar(data_type adata_type) {
            dnnl_memory_desc_t md = nullptr;
            error::wrap_c_api(dnnl_memory_desc_create_host_scalar(
                                      &md, convert_to_c(adata_type)),
                    "could not create a host scalar memory descriptor");
            return desc {md};
        }

        // Takes ownership of a C memory descriptor.
        desc(dnnl_memory_desc_t md) : handle<dnnl_memory_desc_t>(md) {}

        // Rebuilds a descriptor serialised by get_blob().
        desc(const std::vector<uint8_t> &blob) {
            dnnl_memory_desc_t md = nullptr;
            error::wrap_c_api(
                    dnnl_memory_desc_create_with_blob(&md, blob.data()),
                    "could not create a memory descriptor from a blob");
            reset(md);
        }

        desc submemory_desc(const dims &adims, const dims &offsets,
                bool allow_empty = false) const {
            validate_dims(adims, get_ndims());
            validate_dims(offsets, get_ndims());
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_create_submemory(
                    &md, get(), adims.data(), offsets.data());
            if (!allow_empty)
                error::wrap_c_api(
                        st, "could not create a sub-memory descriptor");
            return desc(st == dnnl_success ? md : nullptr);
        }

        desc reshape(const dims &adims, bool allow_empty = false) const {
            if (get_ndims()) validate_dims(adims, 1);
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_reshape(
                    &md, get(), (int)adims.size(), adims.data());
            if (!allow_empty)
                error::wrap_c_api(st, "could not reshape a memory descriptor");
            return desc(st == dnnl_success ? md : nullptr);
        }

        // permutation[i] is the new position of dimension i.
        desc permute_axes(const std::vector<int> &permutation,
                bool allow_empty = false) const {
            validate_dims(permutation, get_ndims());
            dnnl_memory_desc_t md = nullptr;
            dnnl_status_t st = dnnl_memory_desc_permute_axes(
                    &md, get(), permutation.data());
            if (!allow_empty)
                error::wrap_c_api(st,
                        "could not permute the axes of a memory descriptor");
            return desc(st == dnnl_success ? md : nullptr);
        }

        // Queries; each returns a neutral value when not applicable.
        int get_ndims() const { return query_int(query::ndims_s32); }
        memory::dims get_dims() const { return query_dims(query::dims); }
        memory::dims get_padded_dims() const {
            return query_dims(query::padded_dims);
        }
        memory::dims get_padded_offsets() const {
            return query_dims(query::padded_offsets);
        }
        memory::dim get_submemory_offset() const {
            dnnl_dim_t off = 0;
            return dnnl_memory_desc_query(
                           get(), dnnl_query_submemory_offset_s64, &off)
                            == dnnl_success
                    ? off
                    : 0;
        }
        memory::dims get_strides() const { return query_dims(query::strides); }
        int get_inner_nblks() const {
            return query_int(query::inner_nblks_s32);
        }
        memory::dims get_inner_blks() const {
            return query_dims(query::inner_blks);
        }
        memory::dims get_inner_idxs() const {
            return query_dims(query::inner_idxs);
        }
        int get_num_handles() const {
            int n = 0;
            return dnnl_memory_desc_query_v2(
                           get(), dnnl_query_num_handles_s32, 0, &n)
                            == dnnl_success
                    ? n
                    : 0;
        }
        dim get_nnz() const {
            dnnl_dim_t n = 0;
            return dnnl_memory_desc_query_v2(get(), dnnl_query_nnz_s64, 0, &n)
                            == dnnl_success
                    ? n
                    : 0;
        }
        memory::sparse_encoding get_sparse_encoding() const {
            dnnl_sparse_encoding_t enc;
            return dnnl_memory_desc_query_v2(
                           get(), dnnl_query_sparse_encoding, 0, &enc)
                            == dnnl_success
                    ? static_cast<memory::sparse_encoding>(enc)
                    : memory::sparse_encoding::undef;
        }
        memory::data_type get_data_type(int index = 0) const {
            dnnl_data_type_t dt;
            return dnnl_memory_desc_query_v2(
                           get(), dnnl_query_data_type, index, &dt)
                            == dnnl_success
                    ? static_cast<memory::data_type>(dt)
                    : memory::data_type::undef;
        }
        memory::format_kind get_format_kind() const {
            dnnl_format_kind_t fk;
            return dnnl_memory_desc_query(get(), dnnl_query_format_kind, &fk)
                            == dnnl_success
                    ? static_cast<memory::format_kind>(fk)
                    : memory::format_kind::undef;
        }

        // Bytes needed for the data (of the given handle).
        size_t get_size(int index = 0) const {
            return dnnl_memory_desc_get_size_v2(get(), index);
        }

        // Serialised form of the descriptor.
        std::vector<uint8_t> get_blob() const {
            size_t size = 0;
            error::wrap_c_api(dnnl_memory_desc_get_blob(nullptr, &size, get()),
                    "could not get the blob size of a memory descriptor");
            std::vector<uint8_t> blob(size);
            error::wrap_c_api(
                    dnnl_memory_desc_get_blob(blob.data(), &size, get()),
                    "could not get the blob of a memory descriptor");
            return blob;
        }

        bool is_zero() const { return get_ndims() == 0; }

        bool operator==(const desc &other) const {
            return dnnl_memory_desc_equal(get(), other.get()) != 0;
        }
        bool operator!=(const desc &other) const { return !(*this == other); }

    private:
        int query_int(query what) const {
            int v = 0;
            return dnnl_memory_desc_query(get(), dnnl::convert_to_c(what), &v)
                            == dnnl_success
                    ? v
                    : 0;
        }

        memory::dims query_dims(query what) const {
            dnnl_dims_t *c_dims = nullptr;
            if (dnnl_memory_desc_query(get(), dnnl::convert_to_c(what), &c_dims)
                            != dnnl_success
                    || c_dims == nullptr)
                return memory::dims();
            const bool blocks
                    = what == query::inner_blks || what == query::inner_idxs;
            const int n = blocks ? get_inner_nblks() : get_ndims();
            return memory::dims(*c_dims, *c_dims + n);
        }
    };

    memory() = default;

    // Memory using a user-provided handle (or DNNL_MEMORY_ALLOCATE /
    // DNNL_MEMORY_NONE).
    memory(const desc &md, const engine &aengine, void *ahandle)
        : memory(md, aengine, std::vector<void *> {ahandle}) {}

    memory(const desc &md, const engine &aengine, std::vector<void *> handles) {
        dnnl_memory_t m = nullptr;
        error::wrap_c_api(dnnl_memory_create_v2(&m, md.get(), aengine.get(),
                                  (int)handles.size(), handles.data()),
                "could not create a memory object");
        reset(m);
    }

    // Memory whose buffers the library allocates.
    memory(const desc &md, const engine &aengine)
        : memory(md, aengine,
                std::vector<void *>(
                        (size_t)md.get_num_handles(), DNNL_MEMORY_ALLOCATE)) {}

    // Host-side scalar memory holding value.
    template <typename T>
    memory(const desc &md, const T value) {
        if (sizeof(T) != md.get_size())
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "scalar type size does not match memory descriptor "
                    "data type size");
        dnnl_memory_t m = nullptr;
        error::wrap_c_api(
                dnnl_memory_create_host_scalar(&m, md.get(), (void *)&value),
                "could not create a host scalar memory object");
        reset(m);
    }

    desc get_desc() const {
        const_dnnl_memory_desc_t c_md = nullptr;
        error::wrap_c_api(dnnl_memory_get_memory_desc(get(), &c_md),
                "could not get the descriptor of a memory object");
        dnnl_memory_desc_t copy = nullptr;
        error::wrap_c_api(dnnl_memory_desc_clone(&copy, c_md),
                "could not clone a memory descriptor");
        return desc(copy);
    }

    engine get_engine() const {
        dnnl_engine_t e = nullptr;
        error::wrap_c_api(dnnl_memory_get_engine(get(), &e),
                "could not get the engine of a memory object");
        return engine(e, true);
    }

    void *get_data_handle(int index = 0) const {
        void *h = nullptr;
        error::wrap_c_api(dnnl_memory_get_data_handle_v2(get(), &h, index),
                "could not get the data handle of a memory object");
        return h;
    }

    void set_data_handle(void *ahandle, int index = 0) const {
        error::wrap_c_api(dnnl_memory_set_data_handle_v2(get(), ahandle, index),
                "could not set the data handle of a memory object");
    }

    template <typename T>
    T get_host_scalar_value() const {
        check_scalar_size(sizeof(T));
        T value;
        error::wrap_c_api(dnnl_memory_get_host_scalar_value(get(), &value),
                "could not get the value of a host scalar memory object");
        return value;
    }

    template <typename T>
    void set_host_scalar_value(const T value) const {
        check_scalar_size(sizeof(T));
        error::wrap_c_api(dnnl_memory_set_host_scalar_value(get(), &value),
                "could not set the value of a host scalar memory object");
    }

    // Host-accessible pointer to the data; release with unmap_data().
    template <typename T = void>
    T *map_data(int index = 0) const {
        void *p = nullptr;
        error::wrap_c_api(dnnl_memory_map_data_v2(get(), &p, index),
                "could not map the data of a memory object");
        return static_cast<T *>(p);
    }

    void unmap_data(void *mapped_ptr, int index = 0) const {
        error::wrap_c_api(dnnl_memory_unmap_data_v2(get(), mapped_ptr, index),
                "could not unmap the data of a memory object");
    }

    static dnnl_data_type_t convert_to_c(data_type adata_type) {
        return static_cast<dnnl_data_type_t>(adata_type);
    }
    static dnnl_format_tag_t convert_to_c(format_tag format) {
        return static_cast<dnnl_format_tag_t>(format);
    }

private:
    void check_scalar_size(size_t size) const {
        const_dnnl_memory_desc_t c_md = nullptr;
        error::wrap_c_api(dnnl_memory_get_memory_desc(get(), &c_md),
                "could not get the descriptor of a memory object");
        if (size != dnnl_memory_desc_get_size_v2(c_md, 0))
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "scalar type size does not match memory descriptor "
                    "data type size");
    }
};

// Comparisons between C and C++ data types and format tags.
inline bool operator==(dnnl_data_type_t a, memory::data_type b) {
    return a == memory::convert_to_c(b);
}
inline bool operator!=(dnnl_data_type_t a, memory::data_type b) {
    return !(a == b);
}
inline bool operator==(memory::data_type a, dnnl_data_type_t b) {
    return b == a;
}
inline bool operator!=(memory::data_type a, dnnl_data_type_t b) {
    return !(a == b);
}
inline bool operator==(dnnl_format_tag_t a, memory::format_tag b) {
    return a == memory::convert_to_c(b);
}
inline bool operator!=(dnnl_format_tag_t a, memory::format_tag b) {
    return !(a == b);
}
inline bool operator==(memory::format_tag a, dnnl_format_tag_t b) {
    return b == a;
}
inline bool operator!=(memory::format_tag a, dnnl_format_tag_t b) {
    return !(a == b);
}

namespace detail {
// Clones a C memory descriptor the caller does not own.
inline memory::desc clone_md(const_dnnl_memory_desc_t c_md) {
    dnnl_memory_desc_t copy = nullptr;
    error::wrap_c_api(dnnl_memory_desc_clone(&copy, c_md),
            "could not clone a memory descriptor");
    return memory::desc(copy);
}
} // namespace detail

// Operations fused after a primitive (sum, eltwise, depthwise, binary,
// prelu).
struct post_ops : public handle<dnnl_post_ops_t> {
    using handle<dnnl_post_ops_t>::handle;

    post_ops() {
        dnnl_post_ops_t p = nullptr;
        error::wrap_c_api(dnnl_post_ops_create(&p), "could not create post-ops");
        reset(p);
    }

    // Takes ownership of a C post-ops object.
    post_ops(dnnl_post_ops_t c_post_ops)
        : handle<dnnl_post_ops_t>(c_post_ops) {}

    int len() const { return dnnl_post_ops_len(get()); }

    primitive::kind kind(int index) const {
        error::wrap_c_api(index < len() ? dnnl_success : dnnl_invalid_arguments,
                "post-op index is out of range");
        return static_cast<primitive::kind>(
                dnnl_post_ops_get_kind(get(), index));
    }

    void append_sum(float scale = 1.f, int32_t zero_point = 0,
            memory::data_type data_type = memory::data_type::undef) {
        error::wrap_c_api(dnnl_post_ops_append_sum(get(), scale, zero_point,
                                  memory::convert_to_c(data_type)),
                "could not append a sum post-op");
    }

    void get_params_sum(int index, float &scale) const {
        error::wrap_c_api(dnnl_post_ops_get_params_sum(
                                  get(), index, &scale, nullptr, nullptr),
                "could not get the parameters of a sum post-op");
    }

    void get_params_sum(
            int index, float &scale, memory::data_type &data_type) const {
        int32_t zp = 0;
        get_params_sum(index, scale, zp, data_type);
    }

    void get_params_sum(int index, float &scale, int32_t &zero_point,
            memory::data_type &data_type) const {
        dnnl_data_type_t dt;
        error::wrap_c_api(dnnl_post_ops_get_params_sum(
                                  get(), index, &scale, &zero_point, &dt),
                "could not get the parameters of a sum post-op");
        data_type = static_cast<memory::data_type>(dt);
    }

    void append_eltwise(algorithm aalgorithm, float alpha, float beta) {
        error::wrap_c_api(dnnl_post_ops_append_eltwise(
                                  get(), convert_to_c(aalgorithm), alpha, beta),
                "could not append an eltwise post-op");
    }

    void get_params_eltwise(
            int index, algorithm &aalgorithm, float &alpha, float &beta) const {
        dnnl_alg_kind_t alg;
        error::wrap_c_api(dnnl_post_ops_get_params_eltwise(
                                  get(), index, &alg, &alpha, &beta),
                "could not get the parameters of an eltwise post-op");
        aalgorithm = static_cast<algorithm>(alg);
    }

    void append_dw(memory::data_type weights_data_type,
            memory::data_type bias_data_type, memory::data_type dst_data_type,
            memory::dim kernel_size, memory::dim stride_size,
            memory::dim padding_l_size) {
        error::wrap_c_api(dnnl_post_ops_append_dw(get(),
                                  memory::convert_to_c(weights_data_type),
                                  memory::convert_to_c(bias_data_type),
                                  memory::convert_to_c(dst_data_type),
                                  kernel_size, stride_size, padding_l_size),
                "could not append a depthwise post-op");
    }

    void get_params_dw(int index, memory::data_type &weights_data_type,
            memory::data_type &bias_data_type, memory::data_type &dst_data_type,
            memory::dim &kernel_size, memory::dim &stride_size,
            memory::dim &padding_l_size) const {
        dnnl_data_type_t wdt, bdt, ddt;
        dnnl_dim_t k, s, p;
        error::wrap_c_api(dnnl_post_ops_get_params_dw(
                                  get(), index, &wdt, &bdt, &ddt, &k, &s, &p),
                "could not get the parameters of a depthwise post-op");
        weights_data_type = static_cast<memory::data_type>(wdt);
        bias_data_type = static_cast<memory::data_type>(bdt);
        dst_data_type = static_cast<memory::data_type>(ddt);
        kernel_size = k;
        stride_size = s;
        padding_l_size = p;
    }

    void append_binary(algorithm aalgorithm, const memory::desc &src1_desc) {
        error::wrap_c_api(dnnl_post_ops_append_binary(get(),
                                  convert_to_c(aalgorithm), src1_desc.get()),
                "could not append a binary post-op");
    }

    // Ternary form (e.g. binary_select with a condition in src2).
    void append_binary(algorithm aalgorithm, const memory::desc &src1_desc,
            const memory::desc &src2_desc) {
        error::wrap_c_api(
                dnnl_post_ops_append_binary_v2(get(), convert_to_c(aalgorithm),
                        src1_desc.get(), src2_desc.get()),
                "could not append a binary post-op");
    }

    void get_params_binary(
            int index, algorithm &aalgorithm, memory::desc &src1_desc) const {
        dnnl_alg_kind_t alg;
        const_dnnl_memory_desc_t md1 = nullptr;
        error::wrap_c_api(
                dnnl_post_ops_get_params_binary(get(), index, &alg, &md1),
                "could not get the parameters of a binary post-op");
        aalgorithm = static_cast<algorithm>(alg);
        src1_desc = detail::clone_md(md1);
    }

    void get_params_binary(int index, algorithm &aalgorithm,
            memory::desc &src1_desc, memory::desc &src2_desc) const {
        dnnl_alg_kind_t alg;
        const_dnnl_memory_desc_t md1 = nullptr, md2 = nullptr;
        error::wrap_c_api(dnnl_post_ops_get_params_binary_v2(
                                  get(), index, &alg, &md1, &md2),
                "could not get the parameters of a binary post-op");
        aalgorithm = static_cast<algorithm>(alg);
        src1_desc = detail::clone_md(md1);
        src2_desc = detail::clone_md(md2);
    }

    void append_prelu(int mask) {
        error::wrap_c_api(dnnl_post_ops_append_prelu(get(), mask),
                "could not append a prelu post-op");
    }

    void get_params_prelu(int index, int &mask) const {
        error::wrap_c_api(dnnl_post_ops_get_params_prelu(get(), index, &mask),
                "could not get the parameters of a prelu post-op");
    }
};

// Primitive attributes: modes, quantization parameters, post-ops, dropout.
struct primitive_attr : public handle<dnnl_primitive_attr_t> {
    using handle<dnnl_primitive_attr_t>::handle;

    primitive_attr() {
        dnnl_primitive_attr_t a = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_create(&a),
                "could not create primitive attributes");
        reset(a);
    }

    // Takes ownership of a C attribute object.
    primitive_attr(dnnl_primitive_attr_t attr)
        : handle<dnnl_primitive_attr_t>(attr) {}

    void get_dropout(memory::desc &mask_desc) const {
        const_dnnl_memory_desc_t md = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_get_dropout(get(), &md),
                "could not get the dropout attribute");
        mask_desc = detail::clone_md(md);
    }

    void get_dropout(memory::desc &mask_desc, memory::data_type &seed_dt,
            bool &use_offset, bool &use_host_scalars) const {
        const_dnnl_memory_desc_t md = nullptr;
        dnnl_data_type_t dt;
        int offset = 0, host = 0;
        error::wrap_c_api(dnnl_primitive_attr_get_dropout_v2(
                                  get(), &md, &dt, &offset, &host),
                "could not get the dropout attribute");
        mask_desc = detail::clone_md(md);
        seed_dt = static_cast<memory::data_type>(dt);
        use_offset = offset != 0;
        use_host_scalars = host != 0;
    }

    void set_dropout(const memory::desc &mask_desc) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_dropout(get(), mask_desc.get()),
                "could not set the dropout attribute");
    }

    void set_dropout(const memory::desc &mask_desc, memory::data_type seed_dt,
            bool use_offset, bool use_host_scalars) {
        error::wrap_c_api(dnnl_primitive_attr_set_dropout_v2(get(),
                                  mask_desc.get(), memory::convert_to_c(seed_dt),
                                  use_offset, use_host_scalars),
                "could not set the dropout attribute");
    }

    fpmath_mode get_fpmath_mode() const {
        dnnl_fpmath_mode_t mode;
        error::wrap_c_api(dnnl_primitive_attr_get_fpmath_mode(get(), &mode),
                "could not get the fpmath mode attribute");
        return static_cast<fpmath_mode>(mode);
    }

    void get_fpmath_mode(fpmath_mode &mode, bool &apply_to_int) const {
        dnnl_fpmath_mode_t m;
        int to_int = 0;
        error::wrap_c_api(
                dnnl_primitive_attr_get_fpmath_mode_v2(get(), &m, &to_int),
                "could not get the fpmath mode attribute");
        mode = static_cast<fpmath_mode>(m);
        apply_to_int = to_int != 0;
    }

    void set_fpmath_mode(fpmath_mode mode, bool apply_to_int = false) {
        error::wrap_c_api(dnnl_primitive_attr_set_fpmath_mode_v2(
                                  get(), dnnl::convert_to_c(mode), apply_to_int),
                "could not set the fpmath mode attribute");
    }

    accumulation_mode get_accumulation_mode() const {
        dnnl_accumulation_mode_t mode;
        error::wrap_c_api(
                dnnl_primitive_attr_get_accumulation_mode(get(), &mode),
                "could not get the accumulation mode attribute");
        return static_cast<accumulation_mode>(mode);
    }

    void set_accumulation_mode(accumulation_mode mode) {
        error::wrap_c_api(dnnl_primitive_attr_set_accumulation_mode(
                                  get(), dnnl::convert_to_c(mode)),
                "could not set the accumulation mode attribute");
    }

    bool get_deterministic() const {
        int v = 0;
        error::wrap_c_api(dnnl_primitive_attr_get_deterministic(get(), &v),
                "could not get the deterministic attribute");
        return v != 0;
    }

    void set_deterministic(bool value) {
        error::wrap_c_api(dnnl_primitive_attr_set_deterministic(get(), value),
                "could not set the deterministic attribute");
    }

    rounding_mode get_rounding_mode(int arg) const {
        dnnl_rounding_mode_t mode;
        error::wrap_c_api(dnnl_primitive_attr_get_rounding(get(), arg, &mode),
                "could not get the rounding mode attribute");
        return static_cast<rounding_mode>(mode);
    }

    void set_rounding_mode(int arg, rounding_mode mode) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_rounding(get(), arg, convert_to_c(mode)),
                "could not set the rounding mode attribute");
    }

    scratchpad_mode get_scratchpad_mode() const {
        dnnl_scratchpad_mode_t mode;
        error::wrap_c_api(dnnl_primitive_attr_get_scratchpad_mode(get(), &mode),
                "could not get the scratchpad mode attribute");
        return static_cast<scratchpad_mode>(mode);
    }

    void set_scratchpad_mode(scratchpad_mode mode) {
        error::wrap_c_api(dnnl_primitive_attr_set_scratchpad_mode(
                                  get(), dnnl::convert_to_c(mode)),
                "could not set the scratchpad mode attribute");
    }

    // Scales of an argument (runtime values passed at execution).
    void set_scales_mask(int arg, int mask) {
        error::wrap_c_api(dnnl_primitive_attr_set_scales_mask(get(), arg, mask),
                "could not set the scales attribute");
    }

    void set_scales(int arg, int mask, const memory::dims &groups,
            memory::data_type data_type = memory::data_type::f32,
            bool is_on_host = false,
            quantization_mode qmode = quantization_mode::static_sazp) {
        error::wrap_c_api(dnnl_primitive_attr_set_scales_v3(get(), arg, mask,
                                  (int)groups.size(), groups.data(),
                                  memory::convert_to_c(data_type), is_on_host,
                                  convert_to_c(qmode)),
                "could not set the scales attribute");
    }

    // Single scale passed as a host scalar.
    void set_host_scale(
            int arg, memory::data_type data_type = memory::data_type::f32) {
        error::wrap_c_api(dnnl_primitive_attr_set_scales_v3(get(), arg, 0, 0,
                                  nullptr, memory::convert_to_c(data_type), 1,
                                  dnnl_quantization_mode_static_sazp),
                "could not set the scales attribute");
    }

    void set_zero_points_mask(int arg, int mask) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_zero_points_mask(get(), arg, mask),
                "could not set the zero points attribute");
    }

    void set_zero_points(int arg, int mask, const memory::dims &groups,
            memory::data_type data_type = memory::data_type::s32,
            bool is_on_host = false) {
        error::wrap_c_api(dnnl_primitive_attr_set_zero_points_v2(get(), arg,
                                  mask, (int)groups.size(), groups.data(),
                                  memory::convert_to_c(data_type), is_on_host),
                "could not set the zero points attribute");
    }

    void set_host_zero_point(
            int arg, memory::data_type data_type = memory::data_type::s32) {
        error::wrap_c_api(dnnl_primitive_attr_set_zero_points_v2(get(), arg, 0,
                                  0, nullptr, memory::convert_to_c(data_type),
                                  1),
                "could not set the zero points attribute");
    }

    void set_precomputed_reductions(int arg, int mask,
            const memory::dims &groups,
            memory::data_type data_type = memory::data_type::s32) {
        error::wrap_c_api(dnnl_primitive_attr_set_precomputed_reductions(get(),
                                  arg, mask, (int)groups.size(), groups.data(),
                                  memory::convert_to_c(data_type)),
                "could not set the precomputed reductions attribute");
    }

    // Copy of the attached post-ops.
    post_ops get_post_ops() const {
        const_dnnl_post_ops_t c_ops = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_get_post_ops(get(), &c_ops),
                "could not get the post-ops attribute");
        dnnl_post_ops_t copy = nullptr;
        error::wrap_c_api(dnnl_post_ops_clone(&copy, c_ops),
                "could not clone post-ops");
        return post_ops(copy);
    }

    void set_post_ops(const post_ops &ops) {
        error::wrap_c_api(dnnl_primitive_attr_set_post_ops(get(), ops.get()),
                "could not set the post-ops attribute");
    }

    // Quantization of int8 recurrent primitives.
    void set_rnn_data_qparams(float scale, float shift) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_rnn_data_qparams(get(), scale, shift),
                "could not set the RNN data quantization parameters");
    }

    void get_rnn_data_qparams(float &scale, float &shift) {
        error::wrap_c_api(
                dnnl_primitive_attr_get_rnn_data_qparams(get(), &scale, &shift),
                "could not get the RNN data quantization parameters");
    }

    void set_rnn_weights_qparams(int mask, const std::vector<float> &scales) {
        error::wrap_c_api(dnnl_primitive_attr_set_rnn_weights_qparams(get(),
                                  (dnnl_dim_t)scales.size(), mask,
                                  scales.data()),
                "could not set the RNN weights quantization parameters");
    }

    void get_rnn_weights_qparams(int &mask, std::vector<float> &scales) {
        dnnl_dim_t n = 0;
        const float *vals = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_get_rnn_weights_qparams(
                                  get(), &n, &mask, &vals),
                "could not get the RNN weights quantization parameters");
        scales.assign(vals, vals + n);
    }

    void set_rnn_weights_projection_qparams(
            int mask, const std::vector<float> &scales) {
        error::wrap_c_api(
                dnnl_primitive_attr_set_rnn_weights_projection_qparams(get(),
                        (dnnl_dim_t)scales.size(), mask, scales.data()),
                "could not set the RNN projection quantization parameters");
    }

    void get_rnn_weights_projection_qparams(
            int &mask, std::vector<float> &scales) {
        dnnl_dim_t n = 0;
        const float *vals = nullptr;
        error::wrap_c_api(
                dnnl_primitive_attr_get_rnn_weights_projection_qparams(
                        get(), &n, &mask, &vals),
                "could not get the RNN projection quantization parameters");
        scales.assign(vals, vals + n);
    }
};

// Common part of all primitive descriptors: queries of the operation and
// of its memory descriptors.
struct primitive_desc_base : public handle<dnnl_primitive_desc_t> {
    using handle<dnnl_primitive_desc_t>::handle;

    primitive_desc_base() = default;

    engine get_engine() const { return query_engine(query::engine); }

    // Name of the implementation the descriptor picked.
    const char *impl_info_str() const {
        const char *info = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  get(), dnnl_query_impl_info_str, 0, &info),
                "could not get the implementation info of a primitive "
                "descriptor");
        return info;
    }

    memory::dim query_s64(query what) const {
        memory::dim v = 0;
        return dnnl_primitive_desc_query(
                       get(), dnnl::convert_to_c(what), 0, &v)
                        == dnnl_success
                ? v
                : 0;
    }

    // Operation parameters; neutral values when not applicable.
    memory::dims get_strides() const { return query_dims(query::strides); }
    memory::dims get_dilations() const { return query_dims(query::dilations); }
    memory::dims get_padding_l() const { return query_dims(query::padding_l); }
    memory::dims get_padding_r() const { return query_dims(query::padding_r); }
    memory::dims get_kernel() const { return query_dims(query::kernel); }
    float get_epsilon() const { return query_f32(query::epsilon_f32); }
    float get_alpha() const { return query_f32(query::alpha_f32); }
    float get_beta() const { return query_f32(query::beta_f32); }
    float get_k() const { return query_f32(query::k_f32); }
    float get_p() const { return query_f32(query::p_f32); }

    template <typename T = unsigned>
    T get_flags() const {
        unsigned v = 0;
        if (dnnl_primitive_desc_query(get(), dnnl_query_flags, 0, &v)
                != dnnl_success)
            v = 0;
        return static_cast<T>(v);
    }

    dnnl::algorithm get_algorithm() const { return query_alg(query::alg_kind); }
    dnnl::algorithm get_cell_kind() const {
        return query_alg(query::cell_kind);
    }
    dnnl::algorithm get_activation_kind() const {
        return query_alg(query::activation_kind);
    }

    int get_axis() const {
        int v = -1;
        return dnnl_primitive_desc_query(get(), dnnl_query_axis_s32, 0, &v)
                        == dnnl_success
                ? v
                : -1;
    }

    memory::dim get_local_size() const {
        return query_s64(query::local_size_s64);
    }
    memory::dim get_group_size() const {
        return query_s64(query::group_size_s64);
    }

    // Resampling factors, one per spatial dimension.
    std::vector<float> get_factors() const {
        float *f = nullptr;
        if (dnnl_primitive_desc_query(get(), dnnl_query_factors, 0, &f)
                        != dnnl_success
                || f == nullptr)
            return std::vector<float>();
        const int n = spatial_ndims();
        return std::vector<float>(f, f + (n > 0 ? n : 0));
    }

    dnnl::rnn_direction get_direction() const {
        dnnl_rnn_direction_t d;
        return dnnl_primitive_desc_query(get(), dnnl_query_direction, 0, &d)
                        == dnnl_success
                ? static_cast<dnnl::rnn_direction>(d)
                : dnnl::rnn_direction::undef;
    }

    dnnl::prop_kind get_prop_kind() const {
        dnnl_prop_kind_t pk;
        return dnnl_primitive_desc_query(get(), dnnl_query_prop_kind, 0, &pk)
                        == dnnl_success
                ? static_cast<dnnl::prop_kind>(pk)
                : dnnl::prop_kind::undef;
    }

    // Memory descriptor for a *_md query; a zero descriptor when absent.
    memory::desc query_md(query what, int idx = 0) const {
        switch (what) {
            case query::src_md:
            case query::diff_src_md:
            case query::weights_md:
            case query::diff_weights_md:
            case query::dst_md:
            case query::diff_dst_md:
            case query::workspace_md:
            case query::scratchpad_md:
            case query::exec_arg_md: break;
            default:
                DNNL_THROW_ERROR(dnnl_invalid_arguments,
                        "memory descriptor query is invalid");
        }
        const_dnnl_memory_desc_t c_md = dnnl_primitive_desc_query_md(
                get(), dnnl::convert_to_c(what), idx);
        return c_md ? detail::clone_md(c_md) : memory::desc();
    }

    memory::desc src_desc(int idx) const { return query_md(query::src_md, idx); }
    memory::desc dst_desc(int idx) const { return query_md(query::dst_md, idx); }
    memory::desc weights_desc(int idx) const {
        return query_md(query::weights_md, idx);
    }
    memory::desc diff_src_desc(int idx) const {
        return query_md(query::diff_src_md, idx);
    }
    memory::desc diff_dst_desc(int idx) const {
        return query_md(query::diff_dst_md, idx);
    }
    memory::desc diff_weights_desc(int idx) const {
        return query_md(query::diff_weights_md, idx);
    }

    memory::desc src_desc() const { return src_desc(0); }
    memory::desc dst_desc() const { return dst_desc(0); }
    memory::desc weights_desc() const { return weights_desc(0); }
    memory::desc diff_src_desc() const { return diff_src_desc(0); }
    memory::desc diff_dst_desc() const { return diff_dst_desc(0); }
    memory::desc diff_weights_desc() const { return diff_weights_desc(0); }
    memory::desc workspace_desc() const {
        return query_md(query::workspace_md, 0);
    }
    memory::desc scratchpad_desc() const {
        return query_md(query::scratchpad_md, 0);
    }

    engine scratchpad_engine() const {
        return query_engine(query::scratchpad_engine);
    }

    // Copy of the attributes the descriptor was created with.
    primitive_attr get_primitive_attr() const {
        const_dnnl_primitive_attr_t c_attr = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_get_attr(get(), &c_attr),
                "could not get the attributes of a primitive descriptor");
        dnnl_primitive_attr_t copy = nullptr;
        error::wrap_c_api(dnnl_primitive_attr_clone(&copy, c_attr),
                "could not clone primitive attributes");
        return primitive_attr(copy);
    }

    dnnl::primitive::kind get_kind() const {
        dnnl_primitive_kind_t k;
        error::wrap_c_api(dnnl_primitive_desc_query(get(),
                                  dnnl_query_primitive_kind, 0, (void *)&k),
                "could not get the kind of a primitive descriptor");
        return static_cast<dnnl::primitive::kind>(k);
    }

    // Key identifying the descriptor in the persistent cache.
    std::vector<uint8_t> get_cache_blob_id() const {
        dnnl_dim_t size = 0;
        const uint8_t *id = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_query(get(),
                                  dnnl_query_cache_blob_id_size_s64, 0, &size),
                "could not get the cache blob id size of a primitive "
                "descriptor");
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  get(), dnnl_query_cache_blob_id, 0, &id),
                "could not get the cache blob id of a primitive descriptor");
        return std::vector<uint8_t>(id, id + size);
    }

protected:
    using base = primitive_desc_base;

    float query_f32(query what) const {
        float v = 0.f;
        return dnnl_primitive_desc_query(
                       get(), dnnl::convert_to_c(what), 0, &v)
                        == dnnl_success
                ? v
                : 0.f;
    }

    algorithm query_alg(query what) const {
        dnnl_alg_kind_t alg;
        return dnnl_primitive_desc_query(
                       get(), dnnl::convert_to_c(what), 0, &alg)
                        == dnnl_success
                ? static_cast<algorithm>(alg)
                : algorithm::undef;
    }

    // Spatial rank: dims of the (diff) destination minus batch and channel.
    int spatial_ndims() const {
        const prop_kind pk = get_prop_kind();
        const bool fwd = pk == prop_kind::forward_training
                || pk == prop_kind::forward_inference;
        const_dnnl_memory_desc_t c_md = dnnl_primitive_desc_query_md(
                get(), fwd ? dnnl_query_dst_md : dnnl_query_diff_dst_md, 0);
        if (!c_md) return 0;
        int nd = 0;
        error::wrap_c_api(
                dnnl_memory_desc_query(c_md, dnnl_query_ndims_s32, &nd),
                "could not get the rank of a memory descriptor");
        return nd - 2;
    }

    memory::dims query_dims(query what) const {
        const int n = spatial_ndims();
        dnnl_dims_t *c_dims = nullptr;
        if (dnnl_primitive_desc_query(
                    get(), dnnl::convert_to_c(what), 0, &c_dims)
                        != dnnl_success
                || c_dims == nullptr)
            return memory::dims();
        return memory::dims(*c_dims, *c_dims + (n > 0 ? n : 0));
    }

    engine query_engine(query what) const {
        dnnl_engine_t e = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  get(), dnnl::convert_to_c(what), 0, &e),
                "could not get an engine from a primitive descriptor");
        return engine(e, true);
    }

    // Owns a copy of a C descriptor the caller keeps.
    void reset_with_clone(const_dnnl_primitive_desc_t pd) {
        dnnl_primitive_desc_t copy = nullptr;
        error::wrap_c_api(dnnl_primitive_desc_clone(&copy, pd),
                "could not clone a primitive descriptor");
        reset(copy);
    }

    // Takes the result of a *_primitive_desc_create call; throws on failure
    // unless allow_empty, which leaves the descriptor empty.
    void adopt(dnnl_status_t st, dnnl_primitive_desc_t pd, bool allow_empty,
            const char *what) {
        if (st != dnnl_success && !allow_empty) DNNL_THROW_ERROR(st, what);
        reset(st == dnnl_success ? pd : nullptr);
    }

    // Copies a C descriptor after checking its primitive kind and that its
    // propagation kind is one of the given ones (undef: none expected).
    primitive_desc_base(
            dnnl_primitive_desc_t pd, dnnl::primitive::kind prim_kind)
        : primitive_desc_base(pd, prim_kind, dnnl::prop_kind::undef) {}

    primitive_desc_base(dnnl_primitive_desc_t pd,
            dnnl::primitive::kind prim_kind, dnnl::prop_kind aprop_kind)
        : primitive_desc_base(pd, prim_kind, aprop_kind, aprop_kind) {}

    primitive_desc_base(dnnl_primitive_desc_t pd,
            dnnl::primitive::kind prim_kind, dnnl::prop_kind prop_kind1,
            dnnl::prop_kind prop_kind2) {
        if (pd == nullptr) return;
        dnnl_primitive_kind_t pk;
        error::wrap_c_api(dnnl_primitive_desc_query(
                                  pd, dnnl_query_primitive_kind, 0, (void *)&pk),
                "could not get the kind of a primitive descriptor");
        if (pk != convert_to_c(prim_kind))
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "primitive descriptor kind mismatch");
        dnnl_prop_kind_t prop;
        const dnnl_status_t st = dnnl_primitive_desc_query(
                pd, dnnl_query_prop_kind, 0, (void *)&prop);
        bool ok = false;
        if (st == dnnl_unimplemented)
            ok = prop_kind1 == dnnl::prop_kind::undef;
        else if (st == dnnl_success)
            ok = prop == convert_to_c(prop_kind1)
                    || prop == convert_to_c(prop_kind2);
        else
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "could not get the propagation kind of a primitive "
                    "descriptor");
        if (!ok)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "primitive descriptor propagation kind mismatch");
        reset_with_clone(pd);
    }

    // Attributes used when none are given.
    static const primitive_attr &default_attr() {
        static const primitive_attr attr;
        return attr;
    }

    // Optional arguments map to null C pointers.
    const_dnnl_memory_desc_t optional_arg(const memory::desc *md) {
        return md ? md->get() : nullptr;
    }
    const dnnl_dim_t *optional_arg(const memory::dims *dims) {
        return dims ? dims->data() : nullptr;
    }
    const float *optional_arg(const std::vector<float> *arg) {
        return arg ? arg->data() : nullptr;
    }
};

// Copy between two memory objects/descriptors (layout, data type, engine).
struct reorder : public primitive {
    struct primitive_desc : public primitive_desc_base {
        using primitive_desc_base::primitive_desc_base;

        primitive_desc() = default;

        primitive_desc(const engine &src_engine, const memory::desc &src_md,
                const engine &dst_engine, const memory::desc &dst_md,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_reorder_primitive_desc_create(&pd,
                    src_md.get(), src_engine.get(), dst_md.get(),
                    dst_engine.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a reorder primitive descriptor");
        }

        primitive_desc(const memory &src, const memory &dst,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false)
            : primitive_desc(src.get_engine(), src.get_desc(),
                    dst.get_engine(), dst.get_desc(), attr, allow_empty) {}

        primitive_desc(dnnl_primitive_desc_t pd)
            : primitive_desc_base(pd, dnnl::primitive::kind::reorder) {}

        engine get_src_engine() const {
            return query_engine(dnnl::query::reorder_src_engine);
        }
        engine get_dst_engine() const {
            return query_engine(dnnl::query::reorder_dst_engine);
        }
        memory::desc src_desc() const { return base::src_desc(0); }
        memory::desc dst_desc() const { return base::dst_desc(0); }
    };

    reorder() = default;
    reorder(const primitive_desc &pd) : primitive(pd.get()) {}
    reorder(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd.get(), cache_blob) {}
    reorder(const memory &src, const memory &dst,
            const primitive_attr &attr = primitive_attr())
        : primitive(primitive_desc(src, dst, attr).get()) {}

    using primitive::execute;

    void execute(const stream &astream, memory &src, memory &dst) const {
        primitive::execute(astream, {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}});
    }
};

// C handles of a list of memory descriptors.
inline std::vector<const_dnnl_memory_desc_t> convert_to_c(
        const std::vector<memory::desc> &mds) {
    std::vector<const_dnnl_memory_desc_t> out;
    out.reserve(mds.size());
    for (const auto &md : mds)
        out.push_back(md.get());
    return out;
}

// Concatenation of several sources along one dimension.
struct concat : public primitive {
    struct primitive_desc : public primitive_desc_base {
        using primitive_desc_base::primitive_desc_base;

        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &dst,
                int concat_dimension, const std::vector<memory::desc> &srcs,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, dst.get(), concat_dimension, srcs, attr, allow_empty);
        }

        // The destination layout is chosen by the library.
        primitive_desc(const engine &aengine, int concat_dimension,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, nullptr, concat_dimension, srcs, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : primitive_desc_base(pd, dnnl::primitive::kind::concat) {}

        memory::desc src_desc(int idx = 0) const { return base::src_desc(idx); }
        memory::desc dst_desc() const { return base::dst_desc(0); }

    private:
        void init(const engine &aengine, const_dnnl_memory_desc_t dst,
                int axis, const std::vector<memory::desc> &srcs,
                const primitive_attr &attr, bool allow_empty) {
            std::vector<const_dnnl_memory_desc_t> c_srcs = convert_to_c(srcs);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_concat_primitive_desc_create(&pd,
                    aengine.get(), dst, (int)c_srcs.size(), axis,
                    c_srcs.data(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a concat primitive descriptor");
        }
    };

    concat() = default;
    concat(const primitive_desc &pd) : primitive(pd.get()) {}
    concat(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd.get(), cache_blob) {}
};

// Weighted sum of several sources.
struct sum : public primitive {
    struct primitive_desc : public primitive_desc_base {
        using primitive_desc_base::primitive_desc_base;

        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &dst,
                const std::vector<float> &scales,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, dst.get(), scales, srcs, attr, allow_empty);
        }

        // The destination layout is chosen by the library.
        primitive_desc(const engine &aengine, const std::vector<float> &scales,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, nullptr, scales, srcs, attr, allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : primitive_desc_base(pd, dnnl::primitive::kind::sum) {}

        memory::desc src_desc(int idx = 0) const { return base::src_desc(idx); }
        memory::desc dst_desc() const { return base::dst_desc(0); }

    private:
        void init(const engine &aengine, const_dnnl_memory_desc_t dst,
                const std::vector<float> &scales,
                const std::vector<memory::desc> &srcs,
                const primitive_attr &attr, bool allow_empty) {
            validate_container_size(scales,
                    "counts of scales and sources are not equal",
                    (int)srcs.size(), (int)srcs.size());
            std::vector<const_dnnl_memory_desc_t> c_srcs = convert_to_c(srcs);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_sum_primitive_desc_create(&pd,
                    aengine.get(), dst, (int)c_srcs.size(), scales.data(),
                    c_srcs.data(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a sum primitive descriptor");
        }
    };

    sum() = default;
    sum(const primitive_desc &pd) : primitive(pd.get()) {}
    sum(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
        : primitive(pd.get(), cache_blob) {}
};

// Primitive descriptor of an operation primitive; can iterate over the
// available implementations.
struct primitive_desc : public primitive_desc_base {
    using primitive_desc_base::primitive_desc_base;

    primitive_desc() = default;

    // Moves to the next implementation; false when none is left.
    bool next_impl() {
        dnnl_status_t st = dnnl_primitive_desc_next_impl(get());
        if (st == dnnl_last_impl_reached) return false;
        error::wrap_c_api(st, "could not move to the next implementation");
        return true;
    }
};

// Boilerplate shared by the primitive classes below.
#define DNNL_CPP_PRIMITIVE_CTORS(name) \
    name() = default; \
    name(const primitive_desc &pd) : primitive(pd) {} \
    name(const primitive_desc &pd, const std::vector<uint8_t> &cache_blob) \
        : primitive(pd, cache_blob) {}

#define DNNL_CPP_FWD_PD(pkind) \
    primitive_desc(dnnl_primitive_desc_t pd) \
        : dnnl::primitive_desc(pd, dnnl::primitive::kind::pkind, \
                dnnl::prop_kind::forward_training, \
                dnnl::prop_kind::forward_inference) {}

#define DNNL_CPP_BWD_PD(pkind, prop1, prop2) \
    primitive_desc(dnnl_primitive_desc_t pd) \
        : dnnl::primitive_desc(pd, dnnl::primitive::kind::pkind, \
                dnnl::prop_kind::prop1, dnnl::prop_kind::prop2) {}

// Forward convolution (direct, Winograd or auto).
struct convolution_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    &bias_desc, dst_desc, strides, nullptr, padding_l,
                    padding_r, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const memory::dims &strides, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    nullptr, dst_desc, strides, nullptr, padding_l, padding_r,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    &bias_desc, dst_desc, strides, &dilates, padding_l,
                    padding_r, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const memory::dims &strides, const memory::dims &dilates,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    nullptr, dst_desc, strides, &dilates, padding_l, padding_r,
                    attr, allow_empty);
        }

        DNNL_CPP_FWD_PD(convolution)

        memory::desc bias_desc() const { return base::weights_desc(1); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc *bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &padding_l,
                const memory::dims &padding_r, const primitive_attr &attr,
                bool allow_empty) {
            const int sp = src_desc.get_ndims() - 2;
            memory::validate_dims(strides, sp);
            memory::validate_dims(padding_l, sp);
            memory::validate_dims(padding_r, sp);
            if (dilates) memory::validate_dims(*dilates, sp);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_convolution_forward_primitive_desc_create(
                    &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                    convert_to_c(aalgorithm), src_desc.get(),
                    weights_desc.get(), optional_arg(bias_desc),
                    dst_desc.get(), strides.data(), optional_arg(dilates),
                    padding_l.data(), padding_r.data(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a convolution forward primitive "
                    "descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(convolution_forward)
};

// Convolution gradient with respect to the source.
struct convolution_backward_data : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, weights_desc,
                    diff_dst_desc, strides, nullptr, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, weights_desc,
                    diff_dst_desc, strides, &dilates, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        DNNL_CPP_BWD_PD(convolution, backward_data, backward_data)

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr, bool allow_empty) {
            const int sp = diff_src_desc.get_ndims() - 2;
            memory::validate_dims(strides, sp);
            memory::validate_dims(padding_l, sp);
            memory::validate_dims(padding_r, sp);
            if (dilates) memory::validate_dims(*dilates, sp);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_convolution_backward_data_primitive_desc_create(&pd,
                            aengine.get(), convert_to_c(aalgorithm),
                            diff_src_desc.get(), weights_desc.get(),
                            diff_dst_desc.get(), strides.data(),
                            optional_arg(dilates), padding_l.data(),
                            padding_r.data(), hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a convolution backward data primitive "
                    "descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(convolution_backward_data)
};

// Convolution gradient with respect to the weights (and bias).
struct convolution_backward_weights : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc,
                    &diff_bias_desc, diff_dst_desc, strides, nullptr,
                    padding_l, padding_r, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc, nullptr,
                    diff_dst_desc, strides, nullptr, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc,
                    &diff_bias_desc, diff_dst_desc, strides, &dilates,
                    padding_l, padding_r, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc, nullptr,
                    diff_dst_desc, strides, &dilates, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        DNNL_CPP_BWD_PD(convolution, backward_weights, backward_weights)

        memory::desc diff_bias_desc() const {
            return base::diff_weights_desc(1);
        }

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc *diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const convolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr, bool allow_empty) {
            const int sp = src_desc.get_ndims() - 2;
            memory::validate_dims(strides, sp);
            memory::validate_dims(padding_l, sp);
            memory::validate_dims(padding_r, sp);
            if (dilates) memory::validate_dims(*dilates, sp);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_convolution_backward_weights_primitive_desc_create(
                            &pd, aengine.get(), convert_to_c(aalgorithm),
                            src_desc.get(), diff_weights_desc.get(),
                            optional_arg(diff_bias_desc), diff_dst_desc.get(),
                            strides.data(), optional_arg(dilates),
                            padding_l.data(), padding_r.data(),
                            hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a convolution backward weights "
                    "primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(convolution_backward_weights)
};

// Forward deconvolution (transposed convolution).
struct deconvolution_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    &bias_desc, dst_desc, strides, nullptr, padding_l,
                    padding_r, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const memory::dims &strides, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    nullptr, dst_desc, strides, nullptr, padding_l, padding_r,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    &bias_desc, dst_desc, strides, &dilates, padding_l,
                    padding_r, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const memory::dims &strides, const memory::dims &dilates,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, src_desc, weights_desc,
                    nullptr, dst_desc, strides, &dilates, padding_l, padding_r,
                    attr, allow_empty);
        }

        DNNL_CPP_FWD_PD(deconvolution)

        memory::desc bias_desc() const { return base::weights_desc(1); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc *bias_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &padding_l,
                const memory::dims &padding_r, const primitive_attr &attr,
                bool allow_empty) {
            const int sp = src_desc.get_ndims() - 2;
            memory::validate_dims(strides, sp);
            memory::validate_dims(padding_l, sp);
            memory::validate_dims(padding_r, sp);
            if (dilates) memory::validate_dims(*dilates, sp);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_deconvolution_forward_primitive_desc_create(&pd,
                            aengine.get(), dnnl::convert_to_c(aprop_kind),
                            convert_to_c(aalgorithm), src_desc.get(),
                            weights_desc.get(), optional_arg(bias_desc),
                            dst_desc.get(), strides.data(),
                            optional_arg(dilates), padding_l.data(),
                            padding_r.data(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a deconvolution forward primitive "
                    "descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(deconvolution_forward)
};

// Deconvolution gradient with respect to the source.
struct deconvolution_backward_data : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, weights_desc,
                    diff_dst_desc, strides, nullptr, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, diff_src_desc, weights_desc,
                    diff_dst_desc, strides, &dilates, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        DNNL_CPP_BWD_PD(deconvolution, backward_data, backward_data)

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr, bool allow_empty) {
            const int sp = diff_src_desc.get_ndims() - 2;
            memory::validate_dims(strides, sp);
            memory::validate_dims(padding_l, sp);
            memory::validate_dims(padding_r, sp);
            if (dilates) memory::validate_dims(*dilates, sp);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_deconvolution_backward_data_primitive_desc_create(
                            &pd, aengine.get(), convert_to_c(aalgorithm),
                            diff_src_desc.get(), weights_desc.get(),
                            diff_dst_desc.get(), strides.data(),
                            optional_arg(dilates), padding_l.data(),
                            padding_r.data(), hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a deconvolution backward data "
                    "primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(deconvolution_backward_data)
};

// Deconvolution gradient with respect to the weights (and bias).
struct deconvolution_backward_weights : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc,
                    &diff_bias_desc, diff_dst_desc, strides, nullptr,
                    padding_l, padding_r, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc, nullptr,
                    diff_dst_desc, strides, nullptr, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc,
                    &diff_bias_desc, diff_dst_desc, strides, &dilates,
                    padding_l, padding_r, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, src_desc, diff_weights_desc, nullptr,
                    diff_dst_desc, strides, &dilates, padding_l, padding_r,
                    hint_fwd_pd, attr, allow_empty);
        }

        DNNL_CPP_BWD_PD(deconvolution, backward_weights, backward_weights)

        memory::desc diff_bias_desc() const {
            return base::diff_weights_desc(1);
        }

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc *diff_bias_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims *dilates, const memory::dims &padding_l,
                const memory::dims &padding_r,
                const deconvolution_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr, bool allow_empty) {
            const int sp = src_desc.get_ndims() - 2;
            memory::validate_dims(strides, sp);
            memory::validate_dims(padding_l, sp);
            memory::validate_dims(padding_r, sp);
            if (dilates) memory::validate_dims(*dilates, sp);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_deconvolution_backward_weights_primitive_desc_create(
                            &pd, aengine.get(), convert_to_c(aalgorithm),
                            src_desc.get(), diff_weights_desc.get(),
                            optional_arg(diff_bias_desc), diff_dst_desc.get(),
                            strides.data(), optional_arg(dilates),
                            padding_l.data(), padding_r.data(),
                            hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a deconvolution backward weights "
                    "primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(deconvolution_backward_weights)
};

// Forward local response normalization.
struct lrn_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, memory::dim local_size,
                float alpha, float beta, float k,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_lrn_forward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aprop_kind),
                    convert_to_c(aalgorithm), src_desc.get(), dst_desc.get(),
                    local_size, alpha, beta, k, attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an lrn forward primitive descriptor");
        }

        DNNL_CPP_FWD_PD(lrn)
    };

    DNNL_CPP_PRIMITIVE_CTORS(lrn_forward)
};

// Backward local response normalization.
struct lrn_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                memory::dim local_size, float alpha, float beta, float k,
                const lrn_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_lrn_backward_primitive_desc_create(&pd,
                    aengine.get(), convert_to_c(aalgorithm),
                    diff_src_desc.get(), diff_dst_desc.get(), src_desc.get(),
                    local_size, alpha, beta, k, hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an lrn backward primitive descriptor");
        }

        DNNL_CPP_BWD_PD(lrn, backward_data, backward_data)
    };

    DNNL_CPP_PRIMITIVE_CTORS(lrn_backward)
};

// Forward element-wise operation.
struct eltwise_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false)
            : primitive_desc(aengine, aprop_kind, aalgorithm, src_desc,
                    dst_desc, 0.f, 0.f, attr, allow_empty) {}

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, float alpha,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false)
            : primitive_desc(aengine, aprop_kind, aalgorithm, src_desc,
                    dst_desc, alpha, 0.f, attr, allow_empty) {}

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, float alpha, float beta,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_eltwise_forward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aprop_kind),
                    dnnl::convert_to_c(aalgorithm), src_desc.get(),
                    dst_desc.get(), alpha, beta, attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an eltwise forward primitive "
                    "descriptor");
        }

        DNNL_CPP_FWD_PD(eltwise)
    };

    DNNL_CPP_PRIMITIVE_CTORS(eltwise_forward)
};

// Backward element-wise operation (data_desc is src or dst depending on the
// algorithm).
struct eltwise_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const memory::desc &data_desc,
                const eltwise_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false)
            : primitive_desc(aengine, aalgorithm, diff_src_desc, diff_dst_desc,
                    data_desc, 0.f, 0.f, hint_fwd_pd, attr, allow_empty) {}

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const memory::desc &data_desc, float alpha,
                const eltwise_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false)
            : primitive_desc(aengine, aalgorithm, diff_src_desc, diff_dst_desc,
                    data_desc, alpha, 0.f, hint_fwd_pd, attr, allow_empty) {}

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const memory::desc &data_desc, float alpha, float beta,
                const eltwise_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_eltwise_backward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aalgorithm),
                    diff_src_desc.get(), diff_dst_desc.get(), data_desc.get(),
                    alpha, beta, hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an eltwise backward primitive "
                    "descriptor");
        }

        DNNL_CPP_BWD_PD(eltwise, backward_data, backward_data)
    };

    DNNL_CPP_PRIMITIVE_CTORS(eltwise_backward)
};

// Forward softmax / logsoftmax along one axis.
struct softmax_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, int axis,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_softmax_forward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aprop_kind),
                    dnnl::convert_to_c(aalgorithm), src_desc.get(),
                    dst_desc.get(), axis, attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a softmax forward primitive descriptor");
        }

        DNNL_CPP_FWD_PD(softmax)
    };

    DNNL_CPP_PRIMITIVE_CTORS(softmax_forward)
};

// Backward softmax / logsoftmax.
struct softmax_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &dst_desc,
                int axis, const softmax_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_softmax_backward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aalgorithm),
                    diff_src_desc.get(), diff_dst_desc.get(), dst_desc.get(),
                    axis, hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a softmax backward primitive "
                    "descriptor");
        }

        DNNL_CPP_BWD_PD(softmax, backward_data, backward_data)
    };

    DNNL_CPP_PRIMITIVE_CTORS(softmax_backward)
};

// Mean/variance descriptors and flags of the normalization primitives.
// Forward: statistics are inputs (src slots) with use_global_stats and
// outputs (dst slots) otherwise; backward: always inputs.
#define DNNL_CPP_NORM_STATS(is_fwd) \
    memory::desc mean_desc() const { return stat_md(1); } \
    memory::desc variance_desc() const { return stat_md(2); } \
    normalization_flags get_flags() const { \
        return base::get_flags<normalization_flags>(); \
    } \
\
private: \
    memory::desc stat_md(int idx) const { \
        const bool as_input = !(is_fwd) \
                || (get_flags() & normalization_flags::use_global_stats) \
                        != normalization_flags::none; \
        return query_md(as_input ? query::src_md : query::dst_md, idx); \
    } \
\
public:

// Forward batch normalization.
struct batch_normalization_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                float epsilon, normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_batch_normalization_forward_primitive_desc_create(
                            &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                            src_desc.get(), dst_desc.get(), epsilon,
                            convert_to_c(flags), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a batch normalization forward "
                    "primitive descriptor");
        }

        DNNL_CPP_FWD_PD(batch_normalization)
        DNNL_CPP_NORM_STATS(true)
    };

    DNNL_CPP_PRIMITIVE_CTORS(batch_normalization_forward)
};

// Backward batch normalization.
struct batch_normalization_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                float epsilon, normalization_flags flags,
                const batch_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_batch_normalization_backward_primitive_desc_create(
                            &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                            diff_src_desc.get(), diff_dst_desc.get(),
                            src_desc.get(), epsilon, convert_to_c(flags),
                            hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a batch normalization backward "
                    "primitive descriptor");
        }

        DNNL_CPP_BWD_PD(batch_normalization, backward, backward_data)
        DNNL_CPP_NORM_STATS(false)
    };

    DNNL_CPP_PRIMITIVE_CTORS(batch_normalization_backward)
};

// Forward group normalization.
struct group_normalization_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                memory::dim groups, float epsilon, normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_group_normalization_forward_primitive_desc_create(
                            &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                            src_desc.get(), dst_desc.get(), groups, epsilon,
                            convert_to_c(flags), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a group normalization forward "
                    "primitive descriptor");
        }

        DNNL_CPP_FWD_PD(group_normalization)
        DNNL_CPP_NORM_STATS(true)
    };

    DNNL_CPP_PRIMITIVE_CTORS(group_normalization_forward)
};

// Backward group normalization.
struct group_normalization_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                memory::dim groups, float epsilon, normalization_flags flags,
                const group_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_group_normalization_backward_primitive_desc_create(
                            &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                            diff_src_desc.get(), diff_dst_desc.get(),
                            src_desc.get(), groups, epsilon,
                            convert_to_c(flags), hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a group normalization backward "
                    "primitive descriptor");
        }

        DNNL_CPP_BWD_PD(group_normalization, backward, backward_data)
        DNNL_CPP_NORM_STATS(false)
    };

    DNNL_CPP_PRIMITIVE_CTORS(group_normalization_backward)
};

// Forward layer normalization (statistics over the last dimension).
struct layer_normalization_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                const memory::desc &stat_desc, float epsilon,
                normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, dst_desc, &stat_desc,
                    memory::data_type::f32, epsilon, flags, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                float epsilon, normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, dst_desc, nullptr,
                    memory::data_type::f32, epsilon, flags, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                const memory::desc &stat_desc,
                memory::data_type scale_shift_data_type, float epsilon,
                normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, dst_desc, &stat_desc,
                    scale_shift_data_type, epsilon, flags, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                memory::data_type scale_shift_data_type, float epsilon,
                normalization_flags flags,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, dst_desc, nullptr,
                    scale_shift_data_type, epsilon, flags, attr, allow_empty);
        }

        DNNL_CPP_FWD_PD(layer_normalization)
        DNNL_CPP_NORM_STATS(true)

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                const memory::desc *stat_desc, memory::data_type ss_dt,
                float epsilon, normalization_flags flags,
                const primitive_attr &attr, bool allow_empty) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_layer_normalization_forward_primitive_desc_create_v2(
                            &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                            src_desc.get(), dst_desc.get(),
                            optional_arg(stat_desc),
                            memory::convert_to_c(ss_dt), epsilon,
                            convert_to_c(flags), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a layer normalization forward "
                    "primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(layer_normalization_forward)
};

// Backward layer normalization.
struct layer_normalization_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                const memory::desc &stat_desc, float epsilon,
                normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, diff_src_desc, diff_dst_desc, src_desc,
                    &stat_desc, memory::data_type::f32, memory::data_type::f32,
                    epsilon, flags, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                float epsilon, normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, diff_src_desc, diff_dst_desc, src_desc,
                    nullptr, memory::data_type::f32, memory::data_type::f32,
                    epsilon, flags, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                const memory::desc &stat_desc,
                memory::data_type diff_scale_shift_data_type,
                memory::data_type scale_shift_data_type, float epsilon,
                normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, diff_src_desc, diff_dst_desc, src_desc,
                    &stat_desc, diff_scale_shift_data_type,
                    scale_shift_data_type, epsilon, flags, hint_fwd_pd, attr,
                    allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                memory::data_type diff_scale_shift_data_type,
                memory::data_type scale_shift_data_type, float epsilon,
                normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, diff_src_desc, diff_dst_desc, src_desc,
                    nullptr, diff_scale_shift_data_type, scale_shift_data_type,
                    epsilon, flags, hint_fwd_pd, attr, allow_empty);
        }

        DNNL_CPP_BWD_PD(layer_normalization, backward, backward_data)
        DNNL_CPP_NORM_STATS(false)

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::desc &src_desc,
                const memory::desc *stat_desc, memory::data_type diff_ss_dt,
                memory::data_type ss_dt, float epsilon,
                normalization_flags flags,
                const layer_normalization_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr, bool allow_empty) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_layer_normalization_backward_primitive_desc_create_v2(
                            &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                            diff_src_desc.get(), diff_dst_desc.get(),
                            src_desc.get(), optional_arg(stat_desc),
                            memory::convert_to_c(diff_ss_dt),
                            memory::convert_to_c(ss_dt), epsilon,
                            convert_to_c(flags), hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a layer normalization backward "
                    "primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(layer_normalization_backward)
};

// Forward inner product (fully connected layer).
struct inner_product_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &weights_desc,
                const memory::desc &bias_desc, const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, weights_desc, &bias_desc,
                    dst_desc, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &weights_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, src_desc, weights_desc, nullptr,
                    dst_desc, attr, allow_empty);
        }

        DNNL_CPP_FWD_PD(inner_product)

        memory::desc bias_desc() const { return base::weights_desc(1); }

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &weights_desc,
                const memory::desc *bias_desc, const memory::desc &dst_desc,
                const primitive_attr &attr, bool allow_empty) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_inner_product_forward_primitive_desc_create(&pd,
                            aengine.get(), dnnl::convert_to_c(aprop_kind),
                            src_desc.get(), weights_desc.get(),
                            optional_arg(bias_desc), dst_desc.get(),
                            attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an inner product forward primitive "
                    "descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(inner_product_forward)
};

// Inner product gradient with respect to the source.
struct inner_product_backward_data : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &diff_src_desc,
                const memory::desc &weights_desc,
                const memory::desc &diff_dst_desc,
                const inner_product_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_inner_product_backward_data_primitive_desc_create(
                            &pd, aengine.get(), diff_src_desc.get(),
                            weights_desc.get(), diff_dst_desc.get(),
                            hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an inner product backward data "
                    "primitive descriptor");
        }

        DNNL_CPP_BWD_PD(inner_product, backward_data, backward_data)
    };

    DNNL_CPP_PRIMITIVE_CTORS(inner_product_backward_data)
};

// Inner product gradient with respect to the weights (and bias).
struct inner_product_backward_weights : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_desc,
                const inner_product_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, src_desc, diff_weights_desc, &diff_bias_desc,
                    diff_dst_desc, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc,
                const inner_product_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, src_desc, diff_weights_desc, nullptr, diff_dst_desc,
                    hint_fwd_pd, attr, allow_empty);
        }

        DNNL_CPP_BWD_PD(inner_product, backward_weights, backward_weights)

        memory::desc diff_bias_desc() const {
            return base::diff_weights_desc(1);
        }

    private:
        void init(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc *diff_bias_desc,
                const memory::desc &diff_dst_desc,
                const inner_product_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr, bool allow_empty) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st
                    = dnnl_inner_product_backward_weights_primitive_desc_create(
                            &pd, aengine.get(), src_desc.get(),
                            diff_weights_desc.get(),
                            optional_arg(diff_bias_desc), diff_dst_desc.get(),
                            hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an inner product backward weights "
                    "primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(inner_product_backward_weights)
};

// Common part of the recurrent primitive descriptors: descriptors of every
// RNN argument (zero descriptors for those a cell does not use).
struct rnn_primitive_desc_base : public primitive_desc {
    using primitive_desc::primitive_desc;

    rnn_primitive_desc_base() = default;

    // Copies a C descriptor after checking propagation and cell kinds.
    rnn_primitive_desc_base(dnnl_primitive_desc_t pd,
            dnnl::prop_kind aprop_kind, dnnl::algorithm cell_kind)
        : rnn_primitive_desc_base(pd, aprop_kind, aprop_kind, cell_kind) {}

    memory::desc src_layer_desc() const { return arg_md(DNNL_ARG_SRC_LAYER); }
    memory::desc augru_attention_desc() const {
        return arg_md(DNNL_ARG_AUGRU_ATTENTION);
    }
    memory::desc src_iter_desc() const { return arg_md(DNNL_ARG_SRC_ITER); }
    memory::desc src_iter_c_desc() const {
        return arg_md(DNNL_ARG_SRC_ITER_C);
    }
    memory::desc weights_layer_desc() const {
        return arg_md(DNNL_ARG_WEIGHTS_LAYER);
    }
    memory::desc weights_iter_desc() const {
        return arg_md(DNNL_ARG_WEIGHTS_ITER);
    }
    memory::desc weights_peephole_desc() const {
        return arg_md(DNNL_ARG_WEIGHTS_PEEPHOLE);
    }
    memory::desc weights_projection_desc() const {
        return arg_md(DNNL_ARG_WEIGHTS_PROJECTION);
    }
    memory::desc bias_desc() const { return arg_md(DNNL_ARG_BIAS); }
    memory::desc dst_layer_desc() const { return arg_md(DNNL_ARG_DST_LAYER); }
    memory::desc dst_iter_desc() const { return arg_md(DNNL_ARG_DST_ITER); }
    memory::desc dst_iter_c_desc() const {
        return arg_md(DNNL_ARG_DST_ITER_C);
    }
    memory::desc diff_src_layer_desc() const {
        return arg_md(DNNL_ARG_DIFF_SRC_LAYER);
    }
    memory::desc diff_augru_attention_desc() const {
        return arg_md(DNNL_ARG_DIFF_AUGRU_ATTENTION);
    }
    memory::desc diff_src_iter_desc() const {
        return arg_md(DNNL_ARG_DIFF_SRC_ITER);
    }
    memory::desc diff_src_iter_c_desc() const {
        return arg_md(DNNL_ARG_DIFF_SRC_ITER_C);
    }
    memory::desc diff_weights_layer_desc() const {
        return arg_md(DNNL_ARG_DIFF_WEIGHTS_LAYER);
    }
    memory::desc diff_weights_iter_desc() const {
        return arg_md(DNNL_ARG_DIFF_WEIGHTS_ITER);
    }
    memory::desc diff_weights_peephole_desc() const {
        return arg_md(DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE);
    }
    memory::desc diff_weights_projection_desc() const {
        return arg_md(DNNL_ARG_DIFF_WEIGHTS_PROJECTION);
    }
    memory::desc diff_bias_desc() const { return arg_md(DNNL_ARG_DIFF_BIAS); }
    memory::desc diff_dst_layer_desc() const {
        return arg_md(DNNL_ARG_DIFF_DST_LAYER);
    }
    memory::desc diff_dst_iter_desc() const {
        return arg_md(DNNL_ARG_DIFF_DST_ITER);
    }
    memory::desc diff_dst_iter_c_desc() const {
        return arg_md(DNNL_ARG_DIFF_DST_ITER_C);
    }

protected:
    using rnn_base = rnn_primitive_desc_base;

    rnn_primitive_desc_base(dnnl_primitive_desc_t pd,
            dnnl::prop_kind prop_kind1, dnnl::prop_kind prop_kind2,
            dnnl::algorithm cell_kind) {
        dnnl_primitive_kind_t pk;
        error::wrap_c_api(
                dnnl_primitive_desc_query(pd, dnnl_query_primitive_kind, 0, &pk),
                "could not get the kind of an RNN primitive descriptor");
        dnnl_prop_kind_t prop;
        error::wrap_c_api(
                dnnl_primitive_desc_query(pd, dnnl_query_prop_kind, 0, &prop),
                "could not get the propagation kind of an RNN primitive "
                "descriptor");
        dnnl_alg_kind_t cell;
        error::wrap_c_api(
                dnnl_primitive_desc_query(pd, dnnl_query_cell_kind, 0, &cell),
                "could not get the cell kind of an RNN primitive descriptor");
        const bool ok = pk == dnnl_rnn
                && (prop == convert_to_c(prop_kind1)
                        || prop == convert_to_c(prop_kind2))
                && cell == convert_to_c(cell_kind);
        if (!ok)
            DNNL_THROW_ERROR(dnnl_invalid_arguments,
                    "RNN primitive descriptor does not match the expected "
                    "kinds");
        reset_with_clone(pd);
    }

private:
    memory::desc arg_md(int arg) const {
        return query_md(query::exec_arg_md, arg);
    }
};

#define DNNL_CPP_RNN_FWD_PD(cell) \
    primitive_desc(dnnl_primitive_desc_t pd) \
        : rnn_primitive_desc_base(pd, dnnl::prop_kind::forward_training, \
                dnnl::prop_kind::forward_inference, \
                dnnl::algorithm::cell) {}

#define DNNL_CPP_RNN_BWD_PD(cell) \
    primitive_desc(dnnl_primitive_desc_t pd) \
        : rnn_primitive_desc_base( \
                pd, dnnl::prop_kind::backward, dnnl::algorithm::cell) {}

// Forward vanilla RNN cell.
struct vanilla_rnn_forward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false)
            : primitive_desc(aengine, aprop_kind, activation, direction,
                    src_layer_desc, src_iter_desc, weights_layer_desc,
                    weights_iter_desc, bias_desc, dst_layer_desc,
                    dst_iter_desc, 0.f, attr, allow_empty) {}

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc, float alpha,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_vanilla_rnn_forward_primitive_desc_create(
                    &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                    dnnl::convert_to_c(activation),
                    dnnl::convert_to_c(direction), src_layer_desc.get(),
                    src_iter_desc.get(), weights_layer_desc.get(),
                    weights_iter_desc.get(), bias_desc.get(),
                    dst_layer_desc.get(), dst_iter_desc.get(),
                    dnnl_rnn_flags_undef, alpha, 0.f, attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a vanilla RNN forward primitive "
                    "descriptor");
        }

        DNNL_CPP_RNN_FWD_PD(vanilla_rnn)
    };

    DNNL_CPP_PRIMITIVE_CTORS(vanilla_rnn_forward)
};

// Backward vanilla RNN cell.
struct vanilla_rnn_backward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const vanilla_rnn_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false)
            : primitive_desc(aengine, aprop_kind, activation, direction,
                    src_layer_desc, src_iter_desc, weights_layer_desc,
                    weights_iter_desc, bias_desc, dst_layer_desc,
                    dst_iter_desc, diff_src_layer_desc, diff_src_iter_desc,
                    diff_weights_layer_desc, diff_weights_iter_desc,
                    diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc,
                    0.f, hint_fwd_pd, attr, allow_empty) {}

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm activation, rnn_direction direction,
                const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc, float alpha,
                const vanilla_rnn_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_vanilla_rnn_backward_primitive_desc_create(
                    &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                    dnnl::convert_to_c(activation),
                    dnnl::convert_to_c(direction), src_layer_desc.get(),
                    src_iter_desc.get(), weights_layer_desc.get(),
                    weights_iter_desc.get(), bias_desc.get(),
                    dst_layer_desc.get(), dst_iter_desc.get(),
                    diff_src_layer_desc.get(), diff_src_iter_desc.get(),
                    diff_weights_layer_desc.get(),
                    diff_weights_iter_desc.get(), diff_bias_desc.get(),
                    diff_dst_layer_desc.get(), diff_dst_iter_desc.get(),
                    dnnl_rnn_flags_undef, alpha, 0.f, hint_fwd_pd.get(),
                    attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a vanilla RNN backward primitive "
                    "descriptor");
        }

        DNNL_CPP_RNN_BWD_PD(vanilla_rnn)
    };

    DNNL_CPP_PRIMITIVE_CTORS(vanilla_rnn_backward)
};

// Forward LSTM cell (optionally with peephole and projection).
struct lstm_forward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &weights_peephole_desc,
                const memory::desc &weights_projection_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    &weights_peephole_desc, &weights_projection_desc,
                    bias_desc, dst_layer_desc, dst_iter_desc, dst_iter_c_desc,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &weights_peephole_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    &weights_peephole_desc, nullptr, bias_desc, dst_layer_desc,
                    dst_iter_desc, dst_iter_c_desc, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    nullptr, nullptr, bias_desc, dst_layer_desc, dst_iter_desc,
                    dst_iter_c_desc, attr, allow_empty);
        }

        DNNL_CPP_RNN_FWD_PD(vanilla_lstm)

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc *weights_peephole_desc,
                const memory::desc *weights_projection_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const primitive_attr &attr, bool allow_empty) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_lstm_forward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aprop_kind),
                    dnnl::convert_to_c(direction), src_layer_desc.get(),
                    src_iter_desc.get(), src_iter_c_desc.get(),
                    weights_layer_desc.get(), weights_iter_desc.get(),
                    optional_arg(weights_peephole_desc),
                    optional_arg(weights_projection_desc), bias_desc.get(),
                    dst_layer_desc.get(), dst_iter_desc.get(),
                    dst_iter_c_desc.get(), dnnl_rnn_flags_undef, attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an LSTM forward primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(lstm_forward)
};

// Backward LSTM cell.
struct lstm_backward : public primitive {
    struct primitive_desc : public rnn_primitive_desc_base {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &weights_peephole_desc,
                const memory::desc &weights_projection_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_src_iter_c_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_weights_peephole_desc,
                const memory::desc &diff_weights_projection_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const memory::desc &diff_dst_iter_c_desc,
                const lstm_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    &weights_peephole_desc, &weights_projection_desc,
                    bias_desc, dst_layer_desc, dst_iter_desc, dst_iter_c_desc,
                    diff_src_layer_desc, diff_src_iter_desc,
                    diff_src_iter_c_desc, diff_weights_layer_desc,
                    diff_weights_iter_desc, &diff_weights_peephole_desc,
                    &diff_weights_projection_desc, diff_bias_desc,
                    diff_dst_layer_desc, diff_dst_iter_desc,
                    diff_dst_iter_c_desc, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &weights_peephole_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_src_iter_c_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_weights_peephole_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const memory::desc &diff_dst_iter_c_desc,
                const lstm_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    &weights_peephole_desc, nullptr, bias_desc, dst_layer_desc,
                    dst_iter_desc, dst_iter_c_desc, diff_src_layer_desc,
                    diff_src_iter_desc, diff_src_iter_c_desc,
                    diff_weights_layer_desc, diff_weights_iter_desc,
                    &diff_weights_peephole_desc, nullptr, diff_bias_desc,
                    diff_dst_layer_desc, diff_dst_iter_desc,
                    diff_dst_iter_c_desc, hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_src_iter_c_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const memory::desc &diff_dst_iter_c_desc,
                const lstm_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, direction, src_layer_desc, src_iter_desc,
                    src_iter_c_desc, weights_layer_desc, weights_iter_desc,
                    nullptr, nullptr, bias_desc, dst_layer_desc, dst_iter_desc,
                    dst_iter_c_desc, diff_src_layer_desc, diff_src_iter_desc,
                    diff_src_iter_c_desc, diff_weights_layer_desc,
                    diff_weights_iter_desc, nullptr, nullptr, diff_bias_desc,
                    diff_dst_layer_desc, diff_dst_iter_desc,
                    diff_dst_iter_c_desc, hint_fwd_pd, attr, allow_empty);
        }

        DNNL_CPP_RNN_BWD_PD(vanilla_lstm)

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                rnn_direction direction, const memory::desc &src_layer_desc,
                const memory::desc &src_iter_desc,
                const memory::desc &src_iter_c_desc,
                const memory::desc &weights_layer_desc,
                const memory::desc &weights_iter_desc,
                const memory::desc *weights_peephole_desc,
                const memory::desc *weights_projection_desc,
                const memory::desc &bias_desc,
                const memory::desc &dst_layer_desc,
                const memory::desc &dst_iter_desc,
                const memory::desc &dst_iter_c_desc,
                const memory::desc &diff_src_layer_desc,
                const memory::desc &diff_src_iter_desc,
                const memory::desc &diff_src_iter_c_desc,
                const memory::desc &diff_weights_layer_desc,
                const memory::desc &diff_weights_iter_desc,
                const memory::desc *diff_weights_peephole_desc,
                const memory::desc *diff_weights_projection_desc,
                const memory::desc &diff_bias_desc,
                const memory::desc &diff_dst_layer_desc,
                const memory::desc &diff_dst_iter_desc,
                const memory::desc &diff_dst_iter_c_desc,
                const lstm_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr, bool allow_empty) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_lstm_backward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aprop_kind),
                    dnnl::convert_to_c(direction), src_layer_desc.get(),
                    src_iter_desc.get(), src_iter_c_desc.get(),
                    weights_layer_desc.get(), weights_iter_desc.get(),
                    optional_arg(weights_peephole_desc),
                    optional_arg(weights_projection_desc), bias_desc.get(),
                    dst_layer_desc.get(), dst_iter_desc.get(),
                    dst_iter_c_desc.get(), diff_src_layer_desc.get(),
                    diff_src_iter_desc.get(), diff_src_iter_c_desc.get(),
                    diff_weights_layer_desc.get(),
                    diff_weights_iter_desc.get(),
                    optional_arg(diff_weights_peephole_desc),
                    optional_arg(diff_weights_projection_desc),
                    diff_bias_desc.get(), diff_dst_layer_desc.get(),
                    diff_dst_iter_desc.get(), diff_dst_iter_c_desc.get(),
                    dnnl_rnn_flags_undef, hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create an LSTM backward primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(lstm_backward)
};

// GRU-like cells (GRU, linear-before-reset GRU) share one argument list;
// the macro builds the forward and backward classes for one C creator pair.
#define DNNL_CPP_GRU_CLASSES(fwd_name, bwd_name, cell, c_fwd, c_bwd, what) \
    struct fwd_name : public primitive { \
        struct primitive_desc : public rnn_primitive_desc_base { \
            primitive_desc() = default; \
            primitive_desc(const engine &aengine, prop_kind aprop_kind, \
                    rnn_direction direction, \
                    const memory::desc &src_layer_desc, \
                    const memory::desc &src_iter_desc, \
                    const memory::desc &weights_layer_desc, \
                    const memory::desc &weights_iter_desc, \
                    const memory::desc &bias_desc, \
                    const memory::desc &dst_layer_desc, \
                    const memory::desc &dst_iter_desc, \
                    const primitive_attr &attr = default_attr(), \
                    bool allow_empty = false) { \
                dnnl_primitive_desc_t pd = nullptr; \
                dnnl_status_t st = c_fwd(&pd, aengine.get(), \
                        dnnl::convert_to_c(aprop_kind), \
                        dnnl::convert_to_c(direction), src_layer_desc.get(), \
                        src_iter_desc.get(), weights_layer_desc.get(), \
                        weights_iter_desc.get(), bias_desc.get(), \
                        dst_layer_desc.get(), dst_iter_desc.get(), \
                        dnnl_rnn_flags_undef, attr.get()); \
                adopt(st, pd, allow_empty, \
                        "could not create a " what \
                        " forward primitive descriptor"); \
            } \
            DNNL_CPP_RNN_FWD_PD(cell) \
        }; \
        DNNL_CPP_PRIMITIVE_CTORS(fwd_name) \
    }; \
    struct bwd_name : public primitive { \
        struct primitive_desc : public rnn_primitive_desc_base { \
            primitive_desc() = default; \
            primitive_desc(const engine &aengine, prop_kind aprop_kind, \
                    rnn_direction direction, \
                    const memory::desc &src_layer_desc, \
                    const memory::desc &src_iter_desc, \
                    const memory::desc &weights_layer_desc, \
                    const memory::desc &weights_iter_desc, \
                    const memory::desc &bias_desc, \
                    const memory::desc &dst_layer_desc, \
                    const memory::desc &dst_iter_desc, \
                    const memory::desc &diff_src_layer_desc, \
                    const memory::desc &diff_src_iter_desc, \
                    const memory::desc &diff_weights_layer_desc, \
                    const memory::desc &diff_weights_iter_desc, \
                    const memory::desc &diff_bias_desc, \
                    const memory::desc &diff_dst_layer_desc, \
                    const memory::desc &diff_dst_iter_desc, \
                    const fwd_name::primitive_desc &hint_fwd_pd, \
                    const primitive_attr &attr = default_attr(), \
                    bool allow_empty = false) { \
                dnnl_primitive_desc_t pd = nullptr; \
                dnnl_status_t st = c_bwd(&pd, aengine.get(), \
                        dnnl::convert_to_c(aprop_kind), \
                        dnnl::convert_to_c(direction), src_layer_desc.get(), \
                        src_iter_desc.get(), weights_layer_desc.get(), \
                        weights_iter_desc.get(), bias_desc.get(), \
                        dst_layer_desc.get(), dst_iter_desc.get(), \
                        diff_src_layer_desc.get(), diff_src_iter_desc.get(), \
                        diff_weights_layer_desc.get(), \
                        diff_weights_iter_desc.get(), diff_bias_desc.get(), \
                        diff_dst_layer_desc.get(), diff_dst_iter_desc.get(), \
                        dnnl_rnn_flags_undef, hint_fwd_pd.get(), attr.get()); \
                adopt(st, pd, allow_empty, \
                        "could not create a " what \
                        " backward primitive descriptor"); \
            } \
            DNNL_CPP_RNN_BWD_PD(cell) \
        }; \
        DNNL_CPP_PRIMITIVE_CTORS(bwd_name) \
    };

// GRU cell.
DNNL_CPP_GRU_CLASSES(gru_forward, gru_backward, vanilla_gru,
        dnnl_gru_forward_primitive_desc_create,
        dnnl_gru_backward_primitive_desc_create, "GRU")

// Linear-before-reset GRU cell.
DNNL_CPP_GRU_CLASSES(lbr_gru_forward, lbr_gru_backward, lbr_gru,
        dnnl_lbr_gru_forward_primitive_desc_create,
        dnnl_lbr_gru_backward_primitive_desc_create, "LBR GRU")

// AUGRU-like cells (GRU with attention update gate, plain and
// linear-before-reset).
#define DNNL_CPP_AUGRU_CLASSES(fwd_name, bwd_name, cell, c_fwd, c_bwd, what) \
    struct fwd_name : public primitive { \
        struct primitive_desc : public rnn_primitive_desc_base { \
            primitive_desc() = default; \
            primitive_desc(const engine &aengine, prop_kind aprop_kind, \
                    rnn_direction direction, \
                    const memory::desc &src_layer_desc, \
                    const memory::desc &src_iter_desc, \
                    const memory::desc &attention_desc, \
                    const memory::desc &weights_layer_desc, \
                    const memory::desc &weights_iter_desc, \
                    const memory::desc &bias_desc, \
                    const memory::desc &dst_layer_desc, \
                    const memory::desc &dst_iter_desc, \
                    const primitive_attr &attr = default_attr(), \
                    bool allow_empty = false) { \
                dnnl_primitive_desc_t pd = nullptr; \
                dnnl_status_t st = c_fwd(&pd, aengine.get(), \
                        dnnl::convert_to_c(aprop_kind), \
                        dnnl::convert_to_c(direction), src_layer_desc.get(), \
                        src_iter_desc.get(), attention_desc.get(), \
                        weights_layer_desc.get(), weights_iter_desc.get(), \
                        bias_desc.get(), dst_layer_desc.get(), \
                        dst_iter_desc.get(), dnnl_rnn_flags_undef, \
                        attr.get()); \
                adopt(st, pd, allow_empty, \
                        "could not create an " what \
                        " forward primitive descriptor"); \
            } \
            DNNL_CPP_RNN_FWD_PD(cell) \
            memory::desc attention_desc() const { \
                return rnn_base::augru_attention_desc(); \
            } \
        }; \
        DNNL_CPP_PRIMITIVE_CTORS(fwd_name) \
    }; \
    struct bwd_name : public primitive { \
        struct primitive_desc : public rnn_primitive_desc_base { \
            primitive_desc() = default; \
            primitive_desc(const engine &aengine, prop_kind aprop_kind, \
                    rnn_direction direction, \
                    const memory::desc &src_layer_desc, \
                    const memory::desc &src_iter_desc, \
                    const memory::desc &attention_desc, \
                    const memory::desc &weights_layer_desc, \
                    const memory::desc &weights_iter_desc, \
                    const memory::desc &bias_desc, \
                    const memory::desc &dst_layer_desc, \
                    const memory::desc &dst_iter_desc, \
                    const memory::desc &diff_src_layer_desc, \
                    const memory::desc &diff_src_iter_desc, \
                    const memory::desc &diff_attention_desc, \
                    const memory::desc &diff_weights_layer_desc, \
                    const memory::desc &diff_weights_iter_desc, \
                    const memory::desc &diff_bias_desc, \
                    const memory::desc &diff_dst_layer_desc, \
                    const memory::desc &diff_dst_iter_desc, \
                    const fwd_name::primitive_desc &hint_fwd_pd, \
                    const primitive_attr &attr = default_attr(), \
                    bool allow_empty = false) { \
                dnnl_primitive_desc_t pd = nullptr; \
                dnnl_status_t st = c_bwd(&pd, aengine.get(), \
                        dnnl::convert_to_c(aprop_kind), \
                        dnnl::convert_to_c(direction), src_layer_desc.get(), \
                        src_iter_desc.get(), attention_desc.get(), \
                        weights_layer_desc.get(), weights_iter_desc.get(), \
                        bias_desc.get(), dst_layer_desc.get(), \
                        dst_iter_desc.get(), diff_src_layer_desc.get(), \
                        diff_src_iter_desc.get(), diff_attention_desc.get(), \
                        diff_weights_layer_desc.get(), \
                        diff_weights_iter_desc.get(), diff_bias_desc.get(), \
                        diff_dst_layer_desc.get(), diff_dst_iter_desc.get(), \
                        dnnl_rnn_flags_undef, hint_fwd_pd.get(), attr.get()); \
                adopt(st, pd, allow_empty, \
                        "could not create an " what \
                        " backward primitive descriptor"); \
            } \
            DNNL_CPP_RNN_BWD_PD(cell) \
            memory::desc attention_desc() const { \
                return rnn_base::augru_attention_desc(); \
            } \
            memory::desc diff_attention_desc() const { \
                return rnn_base::diff_augru_attention_desc(); \
            } \
        }; \
        DNNL_CPP_PRIMITIVE_CTORS(bwd_name) \
    };

// AUGRU cell.
DNNL_CPP_AUGRU_CLASSES(augru_forward, augru_backward, vanilla_augru,
        dnnl_augru_forward_primitive_desc_create,
        dnnl_augru_backward_primitive_desc_create, "AUGRU")

// Linear-before-reset AUGRU cell.
DNNL_CPP_AUGRU_CLASSES(lbr_augru_forward, lbr_augru_backward, lbr_augru,
        dnnl_lbr_augru_forward_primitive_desc_create,
        dnnl_lbr_augru_backward_primitive_desc_create, "LBR AUGRU")

// Forward channel shuffle.
struct shuffle_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                int axis, int group_size,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_shuffle_forward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aprop_kind),
                    src_desc.get(), dst_desc.get(), axis, group_size,
                    attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a shuffle forward primitive descriptor");
        }

        DNNL_CPP_FWD_PD(shuffle)
    };

    DNNL_CPP_PRIMITIVE_CTORS(shuffle_forward)
};

// Backward channel shuffle.
struct shuffle_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, int axis, int group_size,
                const shuffle_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_shuffle_backward_primitive_desc_create(&pd,
                    aengine.get(), diff_src_desc.get(), diff_dst_desc.get(),
                    axis, group_size, hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a shuffle backward primitive "
                    "descriptor");
        }

        DNNL_CPP_BWD_PD(shuffle, backward_data, backward_data)
    };

    DNNL_CPP_PRIMITIVE_CTORS(shuffle_backward)
};

// Element-wise binary (and ternary select) operation with broadcasting.
struct binary : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src0, const memory::desc &src1,
                const memory::desc &dst,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_binary_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aalgorithm), src0.get(),
                    src1.get(), dst.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a binary primitive descriptor");
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src0, const memory::desc &src1,
                const memory::desc &src2, const memory::desc &dst,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_binary_primitive_desc_create_v2(&pd,
                    aengine.get(), dnnl::convert_to_c(aalgorithm), src0.get(),
                    src1.get(), src2.get(), dst.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a binary primitive descriptor");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::binary) {}

        memory::desc src_desc(int idx = 0) const { return base::src_desc(idx); }
        memory::desc src0_desc() const { return base::src_desc(0); }
        memory::desc src1_desc() const { return base::src_desc(1); }
        memory::desc src2_desc() const { return base::src_desc(2); }
    };

    DNNL_CPP_PRIMITIVE_CTORS(binary)
};

// Matrix multiplication (batched, with broadcasting), optional bias.
struct matmul : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, src_desc, weights_desc, nullptr, dst_desc, attr,
                    allow_empty);
        }

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc &bias_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, src_desc, weights_desc, &bias_desc, dst_desc, attr,
                    allow_empty);
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::matmul) {}

        memory::desc bias_desc() const { return base::weights_desc(1); }

    private:
        void init(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &weights_desc, const memory::desc *bias_desc,
                const memory::desc &dst_desc, const primitive_attr &attr,
                bool allow_empty) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_matmul_primitive_desc_create(&pd,
                    aengine.get(), src_desc.get(), weights_desc.get(),
                    optional_arg(bias_desc), dst_desc.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a matmul primitive descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(matmul)
};

// Forward resampling (nearest / linear) by factors or to a destination shape.
struct resampling_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, nullptr, src_desc, &dst_desc,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const std::vector<float> &factors,
                const memory::desc &src_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, &factors, src_desc, nullptr,
                    attr, allow_empty);
        }

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const std::vector<float> &factors,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aprop_kind, aalgorithm, &factors, src_desc,
                    &dst_desc, attr, allow_empty);
        }

        DNNL_CPP_FWD_PD(resampling)

    private:
        void init(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const std::vector<float> *factors,
                const memory::desc &src_desc, const memory::desc *dst_desc,
                const primitive_attr &attr, bool allow_empty) {
            if (factors)
                memory::validate_dims(*factors, src_desc.get_ndims() - 2);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_resampling_forward_primitive_desc_create(
                    &pd, aengine.get(), dnnl::convert_to_c(aprop_kind),
                    convert_to_c(aalgorithm), optional_arg(factors),
                    src_desc.get(), optional_arg(dst_desc), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a resampling forward primitive "
                    "descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(resampling_forward)
};

// Backward resampling.
struct resampling_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const resampling_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, nullptr, diff_src_desc, diff_dst_desc,
                    hint_fwd_pd, attr, allow_empty);
        }

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const std::vector<float> &factors,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const resampling_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            init(aengine, aalgorithm, &factors, diff_src_desc, diff_dst_desc,
                    hint_fwd_pd, attr, allow_empty);
        }

        DNNL_CPP_BWD_PD(resampling, backward_data, backward_data)

    private:
        void init(const engine &aengine, algorithm aalgorithm,
                const std::vector<float> *factors,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc,
                const resampling_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr, bool allow_empty) {
            if (factors)
                memory::validate_dims(*factors, diff_src_desc.get_ndims() - 2);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_resampling_backward_primitive_desc_create(
                    &pd, aengine.get(), convert_to_c(aalgorithm),
                    optional_arg(factors), diff_src_desc.get(),
                    diff_dst_desc.get(), hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a resampling backward primitive "
                    "descriptor");
        }
    };

    DNNL_CPP_PRIMITIVE_CTORS(resampling_backward)
};

// Forward pooling (max / average).
struct pooling_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                algorithm aalgorithm, const memory::desc &src_desc,
                const memory::desc &dst_desc, const memory::dims &strides,
                const memory::dims &kernel, const memory::dims &dilation,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            const int sp = src_desc.get_ndims() - 2;
            memory::validate_dims(strides, sp);
            memory::validate_dims(kernel, sp);
            memory::validate_dims(padding_l, sp);
            memory::validate_dims(padding_r, sp);
            memory::validate_dims(dilation, sp);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_pooling_forward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aprop_kind),
                    convert_to_c(aalgorithm), src_desc.get(), dst_desc.get(),
                    strides.data(), kernel.data(), dilation.data(),
                    padding_l.data(), padding_r.data(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a pooling forward primitive descriptor");
        }

        DNNL_CPP_FWD_PD(pooling)
    };

    DNNL_CPP_PRIMITIVE_CTORS(pooling_forward)
};

// Backward pooling.
struct pooling_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_dst_desc, const memory::dims &strides,
                const memory::dims &kernel, const memory::dims &dilation,
                const memory::dims &padding_l, const memory::dims &padding_r,
                const pooling_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            const int sp = diff_src_desc.get_ndims() - 2;
            memory::validate_dims(strides, sp);
            memory::validate_dims(kernel, sp);
            memory::validate_dims(padding_l, sp);
            memory::validate_dims(padding_r, sp);
            memory::validate_dims(dilation, sp);
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_pooling_backward_primitive_desc_create(&pd,
                    aengine.get(), convert_to_c(aalgorithm),
                    diff_src_desc.get(), diff_dst_desc.get(), strides.data(),
                    kernel.data(), dilation.data(), padding_l.data(),
                    padding_r.data(), hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a pooling backward primitive "
                    "descriptor");
        }

        DNNL_CPP_BWD_PD(pooling, backward_data, backward_data)
    };

    DNNL_CPP_PRIMITIVE_CTORS(pooling_backward)
};

// Forward parametric ReLU.
struct prelu_forward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, prop_kind aprop_kind,
                const memory::desc &src_desc, const memory::desc &weight_desc,
                const memory::desc &dst_desc,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_prelu_forward_primitive_desc_create(&pd,
                    aengine.get(), dnnl::convert_to_c(aprop_kind),
                    src_desc.get(), weight_desc.get(), dst_desc.get(),
                    attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a prelu forward primitive descriptor");
        }

        DNNL_CPP_FWD_PD(prelu)
    };

    DNNL_CPP_PRIMITIVE_CTORS(prelu_forward)
};

// Backward parametric ReLU.
struct prelu_backward : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, const memory::desc &src_desc,
                const memory::desc &weight_desc,
                const memory::desc &diff_src_desc,
                const memory::desc &diff_weights_desc,
                const memory::desc &diff_dst_desc,
                const prelu_forward::primitive_desc &hint_fwd_pd,
                const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_prelu_backward_primitive_desc_create(&pd,
                    aengine.get(), src_desc.get(), weight_desc.get(),
                    diff_src_desc.get(), diff_weights_desc.get(),
                    diff_dst_desc.get(), hint_fwd_pd.get(), attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a prelu backward primitive descriptor");
        }

        DNNL_CPP_BWD_PD(prelu, backward, backward)
    };

    DNNL_CPP_PRIMITIVE_CTORS(prelu_backward)
};

// Reduction over the dimensions where dst has size 1.
struct reduction : public primitive {
    struct primitive_desc : public dnnl::primitive_desc {
        primitive_desc() = default;

        primitive_desc(const engine &aengine, algorithm aalgorithm,
                const memory::desc &src_desc, const memory::desc &dst_desc,
                float p, float eps, const primitive_attr &attr = default_attr(),
                bool allow_empty = false) {
            dnnl_primitive_desc_t pd = nullptr;
            dnnl_status_t st = dnnl_reduction_primitive_desc_create(&pd,
                    aengine.get(), convert_to_c(aalgorithm), src_desc.get(),
                    dst_desc.get(), p, eps, attr.get());
            adopt(st, pd, allow_empty,
                    "could not create a reduction primitive descriptor");
        }

        primitive_desc(dnnl_primitive_desc_t pd)
            : dnnl::primitive_desc(pd, dnnl::primitive::kind::reduction) {}
    };

    DNNL_CPP_PRIMITIVE_CTORS(reduction)
};

#undef DNNL_CPP_AUGRU_CLASSES
#undef DNNL_CPP_GRU_CLASSES
#undef DNNL_CPP_RNN_BWD_PD
#undef DNNL_CPP_RNN_FWD_PD
#undef DNNL_CPP_NORM_STATS
#undef DNNL_CPP_BWD_PD
#undef DNNL_CPP_FWD_PD
#undef DNNL_CPP_PRIMITIVE_CTORS

// JIT code dumps and profiler integration.
inline status set_jit_dump(int enable) {
    return static_cast<status>(dnnl_set_jit_dump(enable));
}

inline status set_jit_profiling_flags(unsigned flags) {
    return static_cast<status>(dnnl_set_jit_profiling_flags(flags));
}

inline status set_jit_profiling_jitdumpdir(const std::string &dir) {
    return static_cast<status>(dnnl_set_jit_profiling_jitdumpdir(dir.c_str()));
}

// CPU instruction sets the library may use.
enum class cpu_isa {
    isa_default = dnnl_cpu_isa_default,
    sse41 = dnnl_cpu_isa_sse41,
    avx = dnnl_cpu_isa_avx,
    avx2 = dnnl_cpu_isa_avx2,
    avx2_vnni = dnnl_cpu_isa_avx2_vnni,
    avx2_vnni_2 = dnnl_cpu_isa_avx2_vnni_2,
    avx512_core = dnnl_cpu_isa_avx512_core,
    avx512_core_vnni = dnnl_cpu_isa_avx512_core_vnni,
    avx512_core_bf16 = dnnl_cpu_isa_avx512_core_bf16,
    avx10_1_512 = dnnl_cpu_isa_avx10_1_512,
    avx512_core_fp16 = dnnl_cpu_isa_avx512_core_fp16,
    avx10_1_512_amx = dnnl_cpu_isa_avx10_1_512_amx,
    avx512_core_amx = dnnl_cpu_isa_avx512_core_amx,
    avx10_1_512_amx_fp16 = dnnl_cpu_isa_avx10_1_512_amx_fp16,
    avx512_core_amx_fp16 = dnnl_cpu_isa_avx512_core_amx_fp16,
    avx10_2 = dnnl_cpu_isa_avx10_2,
    avx10_2_512 = dnnl_cpu_isa_avx10_2_512,
    avx10_2_amx_2 = dnnl_cpu_isa_avx10_2_amx_2,
    avx10_2_512_amx_2 = dnnl_cpu_isa_avx10_2_512_amx_2,
};

inline status set_max_cpu_isa(cpu_isa isa) {
    return static_cast<status>(
            dnnl_set_max_cpu_isa(static_cast<dnnl_cpu_isa_t>(isa)));
}

inline cpu_isa get_effective_cpu_isa() {
    return static_cast<cpu_isa>(dnnl_get_effective_cpu_isa());
}

// Hints on how to use the CPU instruction set.
enum class cpu_isa_hints {
    no_hints = dnnl_cpu_isa_no_hints,
    prefer_ymm = dnnl_cpu_isa_prefer_ymm,
};

inline status set_cpu_isa_hints(cpu_isa_hints isa_hints) {
    return static_cast<status>(dnnl_set_cpu_isa_hints(
            static_cast<dnnl_cpu_isa_hints_t>(isa_hints)));
}

inline cpu_isa_hints get_cpu_isa_hints() {
    return static_cast<cpu_isa_hints>(dnnl_get_cpu_isa_hints());
}

#ifdef DNNL_EXPERIMENTAL_PROFILING
// Stream profiling (experimental).
enum class profiling_data_kind {
    undef = dnnl_profiling_data_kind_undef,
    time = dnnl_profiling_data_kind_time,
};

inline void reset_profiling(stream &stream) {
    error::wrap_c_api(dnnl_reset_profiling(stream.get()),
            "could not reset profiling data of a stream");
}

inline std::vector<uint64_t> get_profiling_data(
        stream &stream, profiling_data_kind data_kind) {
    const dnnl_profiling_data_kind_t kind
            = static_cast<dnnl_profiling_data_kind_t>(data_kind);
    int n = 0;
    error::wrap_c_api(
            dnnl_query_profiling_data(stream.get(), kind, &n, nullptr),
            "could not get the number of profiling entries");
    if (n == 0) return std::vector<uint64_t>();
    std::vector<uint64_t> data(n);
    error::wrap_c_api(
            dnnl_query_profiling_data(stream.get(), kind, &n, data.data()),
            "could not get profiling data");
    return data;
}
#endif

// Capacity (in primitives) of the primitive cache.
inline int get_primitive_cache_capacity() {
    int capacity = 0;
    error::wrap_c_api(dnnl_get_primitive_cache_capacity(&capacity),
            "could not get the primitive cache capacity");
    return capacity;
}

inline void set_primitive_cache_capacity(int capacity) {
    error::wrap_c_api(dnnl_set_primitive_cache_capacity(capacity),
            "could not set the primitive cache capacity");
}

// BLAS-like GEMM functions (row-major).
inline status sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
        dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda,
        const float *B, dnnl_dim_t ldb, float beta, float *C, dnnl_dim_t ldc) {
    return static_cast<status>(dnnl_sgemm(
            transa, transb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc));
}

inline status gemm_u8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, float alpha, const uint8_t *A,
        dnnl_dim_t lda, uint8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo,
        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) {
    return static_cast<status>(dnnl_gemm_u8s8s32(transa, transb, offsetc, M, N,
            K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc, co));
}

inline status gemm_s8s8s32(char transa, char transb, char offsetc, dnnl_dim_t M,
        dnnl_dim_t N, dnnl_dim_t K, float alpha, const int8_t *A,
        dnnl_dim_t lda, int8_t ao, const int8_t *B, dnnl_dim_t ldb, int8_t bo,
        float beta, int32_t *C, dnnl_dim_t ldc, const int32_t *co) {
    return static_cast<status>(dnnl_gemm_s8s8s32(transa, transb, offsetc, M, N,
            K, alpha, A, lda, ao, B, ldb, bo, beta, C, ldc, co));
}

// Out-of-line members of primitive (they need primitive_desc and memory).
inline primitive::primitive(const_dnnl_primitive_desc_t c_pd) {
    dnnl_primitive_t p = nullptr;
    error::wrap_c_api(dnnl_primitive_create(&p, c_pd),
            "could not create a primitive");
    reset(p);
}

inline primitive::primitive(const_dnnl_primitive_desc_t c_pd,
        const std::vector<uint8_t> &cache_blob) {
    dnnl_primitive_t p = nullptr;
    error::wrap_c_api(dnnl_primitive_create_from_cache_blob(
                              &p, c_pd, cache_blob.size(), cache_blob.data()),
            "could not create a primitive from a cache blob");
    reset(p);
}

inline primitive::primitive(const primitive_desc &pd) : primitive(pd.get()) {}

inline primitive::primitive(
        const primitive_desc &pd, const std::vector<uint8_t> &cache_blob)
    : primitive(pd.get(), cache_blob) {}

inline void primitive::execute(const stream &astream,
        const std::unordered_map<int, memory> &args) const {
    std::vector<dnnl_exec_arg_t> c_args;
    c_args.reserve(args.size());
    for (const auto &kv : args)
        c_args.push_back({kv.first, kv.second.get(true)});
    error::wrap_c_api(dnnl_primitive_execute(get(), astream.get(),
                              (int)c_args.size(), c_args.data()),
            "could not execute a primitive");
}

} // namespace dnnl

// The API is also reachable as oneapi::dnnl.
namespace oneapi {
namespace dnnl = ::dnnl;
} // namespace oneapi

#endif
