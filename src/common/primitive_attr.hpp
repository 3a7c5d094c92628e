// primitive_attr_t and post_ops_t (behind dnnl_primitive_attr_t and
// dnnl_post_ops_t): everything beyond the operation itself that changes a
// primitive's result. Each part lists its fields once in `visit`, from which
// the cache key's hash and equality are derived.
#pragma once

#include <map>
#include <vector>

#include "common/memory_desc.hpp"
#include "common/utils.hpp"

namespace dnnl {
namespace impl {

// Scales or zero points of one argument: which dimensions they vary over
// (mask), optional groups, and their data type.
struct quant_entry_t {
    int mask = 0;
    int group_ndims = 0;
    dims_t group_dims = {};
    data_type_t data_type = dnnl_f32;
    int is_on_host = 0;
    int qmode = 0;

    template <typename V>
    void visit(V &v) const {
        v("mask", mask);
        v("group_ndims", group_ndims);
        v("group_dims", group_dims);
        v("data_type", data_type);
        v("is_on_host", is_on_host);
        v("qmode", qmode);
    }
};

// Per-argument quantization entries, kept sorted by argument index.
struct quant_map_t {
    struct item_t {
        int arg = 0;
        quant_entry_t e;
        template <typename V>
        void visit(V &v) const {
            v("arg", arg);
            v("entry", e);
        }
    };
    std::vector<item_t> items;

    const quant_entry_t *get(int arg) const;
    void set(int arg, const quant_entry_t &e);
    bool has(int arg) const { return get(arg) != nullptr; }
    bool empty() const { return items.empty(); }

    template <typename V>
    void visit(V &v) const {
        v("items", items);
    }
};

struct rounding_item_t {
    int arg = 0;
    int mode = 0;
    template <typename V>
    void visit(V &v) const {
        v("arg", arg);
        v("mode", mode);
    }
};

// Dropout applied to a primitive's output before its post-ops (oneDNN's
// dropout attribute): off while seed_dt is undef. mask_md is the user's
// mask descriptor (a zero md: no mask is written).
struct dropout_t {
    memory_desc_t mask_md {};
    data_type_t seed_dt = dnnl_data_type_undef;
    int use_offset = 0;
    int use_host_scalars = 0;
    bool on() const { return seed_dt != dnnl_data_type_undef; }
    template <typename V>
    void visit(V &v) const {
        v("mask_md", mask_md);
        v("seed_dt", seed_dt);
        v("use_offset", use_offset);
        v("use_host_scalars", use_host_scalars);
    }
};

// Quantization of int8 RNN data (source and destination layer and iter
// tensors alike): q = saturate(round(f * scale + shift)).
struct rnn_data_qparams_t {
    float scale = 1.f, shift = 0.f;
    template <typename V>
    void visit(V &v) const {
        v("scale", scale);
        v("shift", shift);
    }
};

// Scales of int8 RNN weights (layer and iteration weights, or the
// projection's): w_s8 = round(w_f32 * scale). `mask` says over which
// weight dims the scales vary; no scales means one scale of 1.
struct rnn_weights_qparams_t {
    int mask = 0;
    std::vector<float> scales;
    template <typename V>
    void visit(V &v) const {
        v("mask", mask);
        v("scales", scales);
    }
};

enum class post_op_kind_t { eltwise = 0, sum, binary, dw_conv, prelu };

struct post_op_t {
    post_op_kind_t kind = post_op_kind_t::eltwise;
    alg_kind_t alg = dnnl_alg_kind_undef; // eltwise and binary algorithm
    float alpha = 0, beta = 0; // eltwise parameters
    float scale = 1.f; // eltwise and sum scale
    int32_t zero_point = 0; // sum
    data_type_t sum_dt = dnnl_data_type_undef; // sum
    memory_desc_t src1_md {}; // binary second source
    memory_desc_t src2_md {}; // binary select's condition (zero otherwise)
    int prelu_mask = 0; // prelu
    // depthwise convolution post-op
    dim_t dw_kernel = 0, dw_stride = 0, dw_padding = 0;
    data_type_t dw_wei_dt = dnnl_data_type_undef, dw_bias_dt = dnnl_data_type_undef,
                dw_dst_dt = dnnl_data_type_undef;

    template <typename V>
    void visit(V &v) const {
        v("kind", kind);
        v("alg", alg);
        v("alpha", alpha);
        v("beta", beta);
        v("scale", scale);
        v("zero_point", zero_point);
        v("sum_dt", sum_dt);
        v("src1_md", src1_md);
        v("src2_md", src2_md);
        v("prelu_mask", prelu_mask);
        v("dw_kernel", dw_kernel);
        v("dw_stride", dw_stride);
        v("dw_padding", dw_padding);
        v("dw_wei_dt", dw_wei_dt);
        v("dw_bias_dt", dw_bias_dt);
        v("dw_dst_dt", dw_dst_dt);
    }
};

} // namespace impl
} // namespace dnnl

struct dnnl_post_ops {
    std::vector<dnnl::impl::post_op_t> entries;
    template <typename V>
    void visit(V &v) const {
        v("entries", entries);
    }
    int find(dnnl::impl::post_op_kind_t kind) const {
        for (size_t i = 0; i < entries.size(); ++i)
            if (entries[i].kind == kind) return (int)i;
        return -1;
    }
};

struct dnnl_primitive_attr {
    dnnl::impl::scratchpad_mode_t scratchpad_mode = dnnl_scratchpad_mode_library;
    dnnl::impl::fpmath_mode_t fpmath_mode = dnnl_fpmath_mode_strict;
    int fpmath_apply_to_int = 0;
    dnnl_accumulation_mode_t acc_mode = dnnl_accumulation_mode_strict;
    int deterministic = 0;
    dnnl::impl::quant_map_t scales;
    dnnl::impl::quant_map_t zero_points;
    // Source or weights reductions the user computed (s32); kept and
    // compared, consumed by no implementation.
    dnnl::impl::quant_map_t precomputed_reductions;
    std::vector<dnnl::impl::rounding_item_t> rounding_modes; // sorted by arg
    dnnl_post_ops post_ops;
    dnnl::impl::dropout_t dropout;
    // int8 recurrent primitives only.
    dnnl::impl::rnn_data_qparams_t rnn_data_qparams;
    dnnl::impl::rnn_weights_qparams_t rnn_weights_qparams;
    dnnl::impl::rnn_weights_qparams_t rnn_weights_projection_qparams;

    dnnl_primitive_attr();

    template <typename V>
    void visit(V &v) const {
        v("scratchpad_mode", scratchpad_mode);
        v("fpmath_mode", fpmath_mode);
        v("fpmath_apply_to_int", fpmath_apply_to_int);
        v("acc_mode", acc_mode);
        v("deterministic", deterministic);
        v("scales", scales);
        v("zero_points", zero_points);
        v("precomputed_reductions", precomputed_reductions);
        v("rounding_modes", rounding_modes);
        v("post_ops", post_ops);
        v("dropout", dropout);
        v("rnn_data_qparams", rnn_data_qparams);
        v("rnn_weights_qparams", rnn_weights_qparams);
        v("rnn_weights_projection_qparams", rnn_weights_projection_qparams);
    }
    // Every field at its default, the scratchpad mode included (the
    // primitive cache shares one attribute object for such requests).
    bool has_default_values() const;
    // Whether the attributes leave the computation as without them: every
    // field at its default but the scratchpad mode, which every
    // implementation honours. Implementations that take no attributes
    // test this, never has_default_values (a user scratchpad is no reason
    // to refuse a request).
    bool computes_as_default() const;
    // Whether any RNN quantization parameter differs from its default.
    bool has_rnn_qparams() const;
    void set_rounding(int arg, int mode);
    int get_rounding(int arg) const;
};

namespace dnnl {
namespace impl {

// The library-wide default fpmath mode (dnnl_set_default_fpmath_mode),
// applied to every new attribute.
fpmath_mode_t default_fpmath_mode();
void set_default_fpmath_mode(fpmath_mode_t mode);
} // namespace impl
} // namespace dnnl
