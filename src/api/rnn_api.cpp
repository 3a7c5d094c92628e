// C API: the twelve recurrent primitive descriptor creators (forward and
// backward of vanilla RNN, LSTM, GRU, LBR-GRU, AUGRU, LBR-AUGRU). Each
// gathers its arguments into one rnn_args_t; validation is rnn_desc_init's.
#include "api/c_enum.hpp"
#include "common/engine.hpp"
#include "common/primitive_iface.hpp"
#include "common/rnn_pd.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

status_t check_hint(const_dnnl_primitive_desc_t hint) {
    if (!hint) return dnnl_success;
    const auto &pd = hint->impl();
    prop_kind_t prop = dnnl_prop_kind_undef;
    if (!pd || pd->kind() != dnnl_rnn
            || pd->query(dnnl_query_prop_kind, 0, &prop) != dnnl_success
            || (prop != dnnl_forward_training && prop != dnnl_forward_inference)) {
        verbose_check("rnn", "hint is not an RNN forward descriptor");
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

status_t create(dnnl_primitive_desc_t *out, dnnl_engine_t engine, rnn_args_t a,
        dnnl_prop_kind_t prop_arg, const_dnnl_primitive_desc_t hint,
        const_dnnl_primitive_attr_t attr) {
    if (!out || !engine) return dnnl_invalid_arguments;
    a.prop = checked(prop_arg, dnnl_prop_kind_undef);
    if (!enum_name(a.direction)) a.direction = dnnl_rnn_direction_undef;
    a.activation = checked(a.activation, dnnl_alg_kind_undef);
    // A forward creator takes a forward kind, a backward creator backward.
    if (a.backward != (a.prop == dnnl_backward)) {
        verbose_check("rnn", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    DNNL_CHECK(check_hint(hint));
    rnn_desc_t d;
    DNNL_CHECK(rnn_desc_init(d, a));
    DNNL_CHECK(rnn_attr_check(d, attr));
    return dnnl_primitive_desc::create(out, d, attr, engine, hint);
}

// The tensors every cell's creator takes, forward and backward.
void common_args(rnn_args_t &a, const_dnnl_memory_desc_t src_layer,
        const_dnnl_memory_desc_t src_iter, const_dnnl_memory_desc_t weights_layer,
        const_dnnl_memory_desc_t weights_iter, const_dnnl_memory_desc_t bias,
        const_dnnl_memory_desc_t dst_layer, const_dnnl_memory_desc_t dst_iter) {
    a.src_layer = src_layer;
    a.src_iter = src_iter;
    a.weights_layer = weights_layer;
    a.weights_iter = weights_iter;
    a.bias = bias;
    a.dst_layer = dst_layer;
    a.dst_iter = dst_iter;
}

void common_diff_args(rnn_args_t &a, const_dnnl_memory_desc_t diff_src_layer,
        const_dnnl_memory_desc_t diff_src_iter,
        const_dnnl_memory_desc_t diff_weights_layer,
        const_dnnl_memory_desc_t diff_weights_iter, const_dnnl_memory_desc_t diff_bias,
        const_dnnl_memory_desc_t diff_dst_layer, const_dnnl_memory_desc_t diff_dst_iter) {
    a.backward = true;
    a.diff_src_layer = diff_src_layer;
    a.diff_src_iter = diff_src_iter;
    a.diff_weights_layer = diff_weights_layer;
    a.diff_weights_iter = diff_weights_iter;
    a.diff_bias = diff_bias;
    a.diff_dst_layer = diff_dst_layer;
    a.diff_dst_iter = diff_dst_iter;
}

rnn_args_t cell_args(alg_kind_t cell, dnnl_rnn_direction_t direction, unsigned flags) {
    rnn_args_t a;
    a.cell = cell;
    a.direction = direction;
    a.flags = flags;
    return a;
}

} // namespace

dnnl_status_t dnnl_vanilla_rnn_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, const dnnl_alg_kind_t activation,
        const dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags, float alpha, float beta, const_dnnl_primitive_attr_t attr) {
    rnn_args_t a = cell_args(dnnl_vanilla_rnn, direction, flags);
    common_args(a, src_layer_desc, src_iter_desc, weights_layer_desc,
            weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc);
    a.activation = activation;
    a.alpha = alpha;
    a.beta = beta;
    return create(primitive_desc, engine, a, prop_kind, nullptr, attr);
}

dnnl_status_t dnnl_vanilla_rnn_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, const dnnl_alg_kind_t activation,
        const dnnl_rnn_direction_t direction, const_dnnl_memory_desc_t src_layer_desc,
        const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc, unsigned flags, float alpha,
        float beta, const_dnnl_primitive_desc_t hint_fwd_pd,
        const_dnnl_primitive_attr_t attr) {
    rnn_args_t a = cell_args(dnnl_vanilla_rnn, direction, flags);
    common_args(a, src_layer_desc, src_iter_desc, weights_layer_desc,
            weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc);
    common_diff_args(a, diff_src_layer_desc, diff_src_iter_desc,
            diff_weights_layer_desc, diff_weights_iter_desc, diff_bias_desc,
            diff_dst_layer_desc, diff_dst_iter_desc);
    a.activation = activation;
    a.alpha = alpha;
    a.beta = beta;
    return create(primitive_desc, engine, a, prop_kind, hint_fwd_pd, attr);
}

dnnl_status_t dnnl_lstm_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t src_iter_c_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t weights_peephole_desc,
        const_dnnl_memory_desc_t weights_projection_desc,
        const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t dst_iter_c_desc, unsigned flags,
        const_dnnl_primitive_attr_t attr) {
    rnn_args_t a = cell_args(dnnl_vanilla_lstm, direction, flags);
    common_args(a, src_layer_desc, src_iter_desc, weights_layer_desc,
            weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc);
    a.src_iter_c = src_iter_c_desc;
    a.weights_peephole = weights_peephole_desc;
    a.weights_projection = weights_projection_desc;
    a.dst_iter_c = dst_iter_c_desc;
    return create(primitive_desc, engine, a, prop_kind, nullptr, attr);
}

dnnl_status_t dnnl_lstm_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t src_iter_c_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc,
        const_dnnl_memory_desc_t weights_peephole_desc,
        const_dnnl_memory_desc_t weights_projection_desc,
        const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_layer_desc,
        const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t dst_iter_c_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_src_iter_c_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_weights_peephole_desc,
        const_dnnl_memory_desc_t diff_weights_projection_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc,
        const_dnnl_memory_desc_t diff_dst_iter_c_desc, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    rnn_args_t a = cell_args(dnnl_vanilla_lstm, direction, flags);
    common_args(a, src_layer_desc, src_iter_desc, weights_layer_desc,
            weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc);
    a.src_iter_c = src_iter_c_desc;
    a.weights_peephole = weights_peephole_desc;
    a.weights_projection = weights_projection_desc;
    a.dst_iter_c = dst_iter_c_desc;
    common_diff_args(a, diff_src_layer_desc, diff_src_iter_desc,
            diff_weights_layer_desc, diff_weights_iter_desc, diff_bias_desc,
            diff_dst_layer_desc, diff_dst_iter_desc);
    a.diff_src_iter_c = diff_src_iter_c_desc;
    a.diff_weights_peephole = diff_weights_peephole_desc;
    a.diff_weights_projection = diff_weights_projection_desc;
    a.diff_dst_iter_c = diff_dst_iter_c_desc;
    return create(primitive_desc, engine, a, prop_kind, hint_fwd_pd, attr);
}

namespace {

// GRU and LBR-GRU creators differ only in the cell kind.
status_t gru_fwd(alg_kind_t cell, dnnl_primitive_desc_t *pd, dnnl_engine_t engine,
        dnnl_prop_kind_t prop, dnnl_rnn_direction_t dir, const_dnnl_memory_desc_t sl,
        const_dnnl_memory_desc_t si, const_dnnl_memory_desc_t wl,
        const_dnnl_memory_desc_t wi, const_dnnl_memory_desc_t b,
        const_dnnl_memory_desc_t dl, const_dnnl_memory_desc_t di, unsigned flags,
        const_dnnl_primitive_attr_t attr) {
    rnn_args_t a = cell_args(cell, dir, flags);
    common_args(a, sl, si, wl, wi, b, dl, di);
    return create(pd, engine, a, prop, nullptr, attr);
}

status_t gru_bwd(alg_kind_t cell, dnnl_primitive_desc_t *pd, dnnl_engine_t engine,
        dnnl_prop_kind_t prop, dnnl_rnn_direction_t dir, const_dnnl_memory_desc_t sl,
        const_dnnl_memory_desc_t si, const_dnnl_memory_desc_t wl,
        const_dnnl_memory_desc_t wi, const_dnnl_memory_desc_t b,
        const_dnnl_memory_desc_t dl, const_dnnl_memory_desc_t di,
        const_dnnl_memory_desc_t dsl, const_dnnl_memory_desc_t dsi,
        const_dnnl_memory_desc_t dwl, const_dnnl_memory_desc_t dwi,
        const_dnnl_memory_desc_t db, const_dnnl_memory_desc_t ddl,
        const_dnnl_memory_desc_t ddi, unsigned flags, const_dnnl_primitive_desc_t hint,
        const_dnnl_primitive_attr_t attr) {
    rnn_args_t a = cell_args(cell, dir, flags);
    common_args(a, sl, si, wl, wi, b, dl, di);
    common_diff_args(a, dsl, dsi, dwl, dwi, db, ddl, ddi);
    return create(pd, engine, a, prop, hint, attr);
}

// AUGRU and LBR-AUGRU: GRU arguments plus the attention (and its diff).
status_t augru_fwd(alg_kind_t cell, dnnl_primitive_desc_t *pd, dnnl_engine_t engine,
        dnnl_prop_kind_t prop, dnnl_rnn_direction_t dir, const_dnnl_memory_desc_t sl,
        const_dnnl_memory_desc_t si, const_dnnl_memory_desc_t att,
        const_dnnl_memory_desc_t wl, const_dnnl_memory_desc_t wi,
        const_dnnl_memory_desc_t b, const_dnnl_memory_desc_t dl,
        const_dnnl_memory_desc_t di, unsigned flags, const_dnnl_primitive_attr_t attr) {
    rnn_args_t a = cell_args(cell, dir, flags);
    common_args(a, sl, si, wl, wi, b, dl, di);
    a.attention = att;
    return create(pd, engine, a, prop, nullptr, attr);
}

status_t augru_bwd(alg_kind_t cell, dnnl_primitive_desc_t *pd, dnnl_engine_t engine,
        dnnl_prop_kind_t prop, dnnl_rnn_direction_t dir, const_dnnl_memory_desc_t sl,
        const_dnnl_memory_desc_t si, const_dnnl_memory_desc_t att,
        const_dnnl_memory_desc_t wl, const_dnnl_memory_desc_t wi,
        const_dnnl_memory_desc_t b, const_dnnl_memory_desc_t dl,
        const_dnnl_memory_desc_t di, const_dnnl_memory_desc_t dsl,
        const_dnnl_memory_desc_t dsi, const_dnnl_memory_desc_t datt,
        const_dnnl_memory_desc_t dwl, const_dnnl_memory_desc_t dwi,
        const_dnnl_memory_desc_t db, const_dnnl_memory_desc_t ddl,
        const_dnnl_memory_desc_t ddi, unsigned flags, const_dnnl_primitive_desc_t hint,
        const_dnnl_primitive_attr_t attr) {
    rnn_args_t a = cell_args(cell, dir, flags);
    common_args(a, sl, si, wl, wi, b, dl, di);
    common_diff_args(a, dsl, dsi, dwl, dwi, db, ddl, ddi);
    a.attention = att;
    a.diff_attention = datt;
    return create(pd, engine, a, prop, hint, attr);
}

} // namespace

dnnl_status_t dnnl_gru_forward_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine, dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags, const_dnnl_primitive_attr_t attr) {
    return gru_fwd(dnnl_vanilla_gru, primitive_desc, engine, prop_kind, direction,
            src_layer_desc, src_iter_desc, weights_layer_desc, weights_iter_desc,
            bias_desc, dst_layer_desc, dst_iter_desc, flags, attr);
}

dnnl_status_t dnnl_gru_backward_primitive_desc_create(dnnl_primitive_desc_t *primitive_desc,
        dnnl_engine_t engine, dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return gru_bwd(dnnl_vanilla_gru, primitive_desc, engine, prop_kind, direction,
            src_layer_desc, src_iter_desc, weights_layer_desc, weights_iter_desc,
            bias_desc, dst_layer_desc, dst_iter_desc, diff_src_layer_desc,
            diff_src_iter_desc, diff_weights_layer_desc, diff_weights_iter_desc,
            diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc, flags,
            hint_fwd_pd, attr);
}

dnnl_status_t dnnl_lbr_gru_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags, const_dnnl_primitive_attr_t attr) {
    return gru_fwd(dnnl_lbr_gru, primitive_desc, engine, prop_kind, direction,
            src_layer_desc, src_iter_desc, weights_layer_desc, weights_iter_desc,
            bias_desc, dst_layer_desc, dst_iter_desc, flags, attr);
}

dnnl_status_t dnnl_lbr_gru_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return gru_bwd(dnnl_lbr_gru, primitive_desc, engine, prop_kind, direction,
            src_layer_desc, src_iter_desc, weights_layer_desc, weights_iter_desc,
            bias_desc, dst_layer_desc, dst_iter_desc, diff_src_layer_desc,
            diff_src_iter_desc, diff_weights_layer_desc, diff_weights_iter_desc,
            diff_bias_desc, diff_dst_layer_desc, diff_dst_iter_desc, flags,
            hint_fwd_pd, attr);
}

dnnl_status_t dnnl_augru_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t attention_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags, const_dnnl_primitive_attr_t attr) {
    return augru_fwd(dnnl_vanilla_augru, primitive_desc, engine, prop_kind, direction,
            src_layer_desc, src_iter_desc, attention_desc, weights_layer_desc,
            weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc, flags, attr);
}

dnnl_status_t dnnl_augru_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t attention_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_attention_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return augru_bwd(dnnl_vanilla_augru, primitive_desc, engine, prop_kind, direction,
            src_layer_desc, src_iter_desc, attention_desc, weights_layer_desc,
            weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc,
            diff_src_layer_desc, diff_src_iter_desc, diff_attention_desc,
            diff_weights_layer_desc, diff_weights_iter_desc, diff_bias_desc,
            diff_dst_layer_desc, diff_dst_iter_desc, flags, hint_fwd_pd, attr);
}

dnnl_status_t dnnl_lbr_augru_forward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t attention_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        unsigned flags, const_dnnl_primitive_attr_t attr) {
    return augru_fwd(dnnl_lbr_augru, primitive_desc, engine, prop_kind, direction,
            src_layer_desc, src_iter_desc, attention_desc, weights_layer_desc,
            weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc, flags, attr);
}

dnnl_status_t dnnl_lbr_augru_backward_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_prop_kind_t prop_kind, dnnl_rnn_direction_t direction,
        const_dnnl_memory_desc_t src_layer_desc, const_dnnl_memory_desc_t src_iter_desc,
        const_dnnl_memory_desc_t attention_desc,
        const_dnnl_memory_desc_t weights_layer_desc,
        const_dnnl_memory_desc_t weights_iter_desc, const_dnnl_memory_desc_t bias_desc,
        const_dnnl_memory_desc_t dst_layer_desc, const_dnnl_memory_desc_t dst_iter_desc,
        const_dnnl_memory_desc_t diff_src_layer_desc,
        const_dnnl_memory_desc_t diff_src_iter_desc,
        const_dnnl_memory_desc_t diff_attention_desc,
        const_dnnl_memory_desc_t diff_weights_layer_desc,
        const_dnnl_memory_desc_t diff_weights_iter_desc,
        const_dnnl_memory_desc_t diff_bias_desc,
        const_dnnl_memory_desc_t diff_dst_layer_desc,
        const_dnnl_memory_desc_t diff_dst_iter_desc, unsigned flags,
        const_dnnl_primitive_desc_t hint_fwd_pd, const_dnnl_primitive_attr_t attr) {
    return augru_bwd(dnnl_lbr_augru, primitive_desc, engine, prop_kind, direction,
            src_layer_desc, src_iter_desc, attention_desc, weights_layer_desc,
            weights_iter_desc, bias_desc, dst_layer_desc, dst_iter_desc,
            diff_src_layer_desc, diff_src_iter_desc, diff_attention_desc,
            diff_weights_layer_desc, diff_weights_iter_desc, diff_bias_desc,
            diff_dst_layer_desc, diff_dst_iter_desc, flags, hint_fwd_pd, attr);
}
