// Recurrent primitives (vanilla RNN, LSTM, GRU, LBR-GRU, AUGRU, LBR-AUGRU):
// the operation descriptor, its validating constructor used by the C API,
// and the primitive descriptor base of every RNN implementation.
//
// Shapes (oneDNN's): L layers, D directions, T iterations, N batch, G gates,
//   src_layer [T, N, SLC]          dst_layer [T, N, DLC]
//   src_iter  [L, D, N, SIC]       dst_iter  [L, D, N, DIC]
//   src_iter_c / dst_iter_c [L, D, N, DHC] (LSTM)
//   weights_layer [L, D, SLC, G, DHC], weights_iter [L, D, SIC, G, DHC]
//   weights_peephole [L, D, 3, DHC], weights_projection [L, D, DHC, DIC]
//   bias [L, D, G (+1 for linear-before-reset cells), DHC]
//   AUGRU attention [T, N, 1] (kept in the peephole slot, as oneDNN does).
// DLC is DIC, or 2 DIC for bidirectional concat; each direction is its own
// stack of layers, combined only in dst_layer.
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct rnn_desc_t : public op_desc_impl_t<rnn_desc_t> {
    rnn_desc_t() : op_desc_impl_t(dnnl_rnn) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    alg_kind_t cell_kind = dnnl_alg_kind_undef;
    dnnl_rnn_direction_t direction = dnnl_rnn_direction_undef;
    memory_desc_t src_layer_desc {};
    memory_desc_t src_iter_desc {};
    memory_desc_t src_iter_c_desc {};
    memory_desc_t weights_layer_desc {};
    memory_desc_t weights_iter_desc {};
    memory_desc_t weights_peephole_desc {}; // AUGRU: the attention
    memory_desc_t weights_projection_desc {};
    memory_desc_t bias_desc {};
    memory_desc_t dst_layer_desc {};
    memory_desc_t dst_iter_desc {};
    memory_desc_t dst_iter_c_desc {};
    memory_desc_t diff_src_layer_desc {};
    memory_desc_t diff_src_iter_desc {};
    memory_desc_t diff_src_iter_c_desc {};
    memory_desc_t diff_weights_layer_desc {};
    memory_desc_t diff_weights_iter_desc {};
    memory_desc_t diff_weights_peephole_desc {}; // AUGRU: diff attention
    memory_desc_t diff_weights_projection_desc {};
    memory_desc_t diff_bias_desc {};
    memory_desc_t diff_dst_layer_desc {};
    memory_desc_t diff_dst_iter_desc {};
    memory_desc_t diff_dst_iter_c_desc {};
    unsigned flags = 0;
    alg_kind_t activation_kind = dnnl_alg_kind_undef;
    float alpha = 0, beta = 0;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("cell_kind", cell_kind);
        v("direction", direction);
        v("src_layer", src_layer_desc);
        v("src_iter", src_iter_desc);
        v("src_iter_c", src_iter_c_desc);
        v("weights_layer", weights_layer_desc);
        v("weights_iter", weights_iter_desc);
        v("weights_peephole", weights_peephole_desc);
        v("weights_projection", weights_projection_desc);
        v("bias", bias_desc);
        v("dst_layer", dst_layer_desc);
        v("dst_iter", dst_iter_desc);
        v("dst_iter_c", dst_iter_c_desc);
        v("diff_src_layer", diff_src_layer_desc);
        v("diff_src_iter", diff_src_iter_desc);
        v("diff_src_iter_c", diff_src_iter_c_desc);
        v("diff_weights_layer", diff_weights_layer_desc);
        v("diff_weights_iter", diff_weights_iter_desc);
        v("diff_weights_peephole", diff_weights_peephole_desc);
        v("diff_weights_projection", diff_weights_projection_desc);
        v("diff_bias", diff_bias_desc);
        v("diff_dst_layer", diff_dst_layer_desc);
        v("diff_dst_iter", diff_dst_iter_desc);
        v("diff_dst_iter_c", diff_dst_iter_c_desc);
        v("flags", flags);
        v("activation_kind", activation_kind);
        v("alpha", alpha);
        v("beta", beta);
    }
};

// The C API's arguments of any RNN creator, forward or backward (null
// pointers for what a creator does not take).
struct rnn_args_t {
    bool backward = false; // from a backward creator
    prop_kind_t prop = dnnl_prop_kind_undef;
    alg_kind_t cell = dnnl_alg_kind_undef;
    dnnl_rnn_direction_t direction = dnnl_rnn_direction_undef;
    const memory_desc_t *src_layer = nullptr, *src_iter = nullptr,
                        *src_iter_c = nullptr, *attention = nullptr,
                        *weights_layer = nullptr, *weights_iter = nullptr,
                        *weights_peephole = nullptr,
                        *weights_projection = nullptr, *bias = nullptr,
                        *dst_layer = nullptr, *dst_iter = nullptr,
                        *dst_iter_c = nullptr;
    const memory_desc_t *diff_src_layer = nullptr, *diff_src_iter = nullptr,
                        *diff_src_iter_c = nullptr, *diff_attention = nullptr,
                        *diff_weights_layer = nullptr,
                        *diff_weights_iter = nullptr,
                        *diff_weights_peephole = nullptr,
                        *diff_weights_projection = nullptr,
                        *diff_bias = nullptr, *diff_dst_layer = nullptr,
                        *diff_dst_iter = nullptr, *diff_dst_iter_c = nullptr;
    unsigned flags = 0;
    alg_kind_t activation = dnnl_alg_kind_undef;
    float alpha = 0, beta = 0;
};

// Fills `d` from the C API arguments with oneDNN's checks:
// dnnl_invalid_arguments for bad kinds, missing or inconsistent
// descriptors; dnnl_unimplemented for runtime dims and data type
// combinations oneDNN does not define.
status_t rnn_desc_init(rnn_desc_t &d, const rnn_args_t &a);

// Attributes an RNN takes: fpmath mode, scratchpad mode, and for int8
// LSTM/GRU inference the RNN quantisation parameters; anything else is
// dnnl_unimplemented.
status_t rnn_attr_check(const rnn_desc_t &d, const primitive_attr_t *attr);

// Number of gates of a cell kind (LSTM 4, GRU-like 3, vanilla 1).
int rnn_gates_count(alg_kind_t cell);

struct rnn_pd_t : public primitive_desc_t {
    rnn_pd_t(const rnn_desc_t &d, const primitive_attr_t &attr);

    const rnn_desc_t *desc() const {
        return static_cast<const rnn_desc_t *>(op_desc());
    }
    prop_kind_t prop() const { return desc()->prop_kind; }
    bool is_fwd() const { return prop() != dnnl_backward; }
    bool is_training() const { return prop() != dnnl_forward_inference; }
    alg_kind_t cell_kind() const { return desc()->cell_kind; }
    dnnl_rnn_direction_t direction() const { return desc()->direction; }

    bool is_lstm() const { return cell_kind() == dnnl_vanilla_lstm; }
    bool is_augru() const {
        return cell_kind() == dnnl_vanilla_augru || cell_kind() == dnnl_lbr_augru;
    }
    bool is_lbr() const {
        return cell_kind() == dnnl_lbr_gru || cell_kind() == dnnl_lbr_augru;
    }
    bool is_gru_like() const {
        return cell_kind() != dnnl_vanilla_rnn && !is_lstm();
    }
    bool with_peephole() const {
        return is_lstm() && !is_zero_md(desc()->weights_peephole_desc);
    }
    bool with_projection() const {
        return is_lstm() && !is_zero_md(desc()->weights_projection_desc);
    }
    bool with_bias() const { return !is_zero_md(desc()->bias_desc); }
    bool with_src_iter() const { return !is_zero_md(desc()->src_iter_desc); }
    bool with_src_iter_c() const { return is_lstm() && with_src_iter(); }
    bool with_dst_iter() const { return !is_zero_md(desc()->dst_iter_desc); }
    bool with_dst_iter_c() const { return is_lstm() && with_dst_iter(); }
    bool diff_weights_overwrite() const {
        return desc()->flags & dnnl_rnn_flags_diff_weights_overwrite;
    }

    dim_t L() const { return desc()->weights_layer_desc.dims[0]; }
    dim_t D() const { return desc()->weights_layer_desc.dims[1]; }
    dim_t T() const { return desc()->src_layer_desc.dims[0]; }
    dim_t N() const { return desc()->src_layer_desc.dims[1]; }
    dim_t SLC() const { return desc()->weights_layer_desc.dims[2]; }
    dim_t SIC() const { return desc()->weights_iter_desc.dims[2]; }
    dim_t G() const { return desc()->weights_layer_desc.dims[3]; }
    dim_t DHC() const { return desc()->weights_layer_desc.dims[4]; }
    dim_t DIC() const {
        return with_projection() ? desc()->weights_projection_desc.dims[3] : DHC();
    }
    dim_t DLC() const { return desc()->dst_layer_desc.dims[2]; }

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Replaces format `any`: tnc for layer tensors, ldnc for iteration
    // states, `wei_tag` for the layer and iteration weights (and their
    // diffs), ldgo for bias and peephole, ldio for the projection.
    status_t init_formats(format_tag_t wei_tag);
    // The workspace of forward training and backward: `bytes` of u8.
    void set_workspace(size_t bytes);

    // Resolved descriptors, indexed by execution argument.
    memory_desc_t *md_slot(int arg);
    const memory_desc_t *md_slot(int arg) const;

    memory_desc_t src_layer_md_, src_iter_md_, src_iter_c_md_, attention_md_,
            weights_layer_md_, weights_iter_md_, weights_peephole_md_,
            weights_projection_md_, bias_md_, dst_layer_md_, dst_iter_md_,
            dst_iter_c_md_;
    memory_desc_t diff_src_layer_md_, diff_src_iter_md_, diff_src_iter_c_md_,
            diff_attention_md_, diff_weights_layer_md_, diff_weights_iter_md_,
            diff_weights_peephole_md_, diff_weights_projection_md_,
            diff_bias_md_, diff_dst_layer_md_, diff_dst_iter_md_,
            diff_dst_iter_c_md_;
    memory_desc_t ws_md_;
};

} // namespace impl
} // namespace dnnl
