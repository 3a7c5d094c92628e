// RNN descriptor validation (oneDNN's rules: kinds, presence, data types,
// dims) and the primitive descriptor base: argument mapping, queries
// and `any` resolution.
#include "common/rnn_pd.hpp"

#include <initializer_list>

#include "oneapi/dnnl/dnnl_debug.h"
#include "common/host_scalar.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {

const char *const who = "rnn";

status_t fail(status_t st, const char *msg) {
    verbose_check(who, "%s", msg);
    return st;
}

bool zero(const memory_desc_t &md) { return is_zero_md(md); }

// A descriptor argument: a null pointer reads as the zero descriptor.
memory_desc_t opt(const memory_desc_t *md) { return md ? *md : zero_md(); }

// oneDNN's check: an optional descriptor, when given, has exactly `dims`.
bool dims_are(const memory_desc_t &md, int nd, const dim_t *dims, bool allow_zero) {
    if (zero(md)) return allow_zero;
    if (md.ndims != nd) return false;
    for (int i = 0; i < nd; ++i)
        if (md.dims[i] != dims[i]) return false;
    return true;
}

bool dt_is(const memory_desc_t &md, std::initializer_list<data_type_t> l) {
    if (zero(md)) return true;
    for (auto dt : l)
        if (md.data_type == dt) return true;
    return false;
}

// Forward data type configurations (oneDNN 3.13): all f32; bf16 or f16
// with f32 or same-type bias (f32 peephole); int8 LSTM/GRU inference
// with u8 or s8 data, s8 weights and f32 bias and cell states.
bool fwd_data_types_ok(const rnn_desc_t &r) {
    const data_type_t sl = r.src_layer_desc.data_type,
                      dl = r.dst_layer_desc.data_type,
                      wl = r.weights_layer_desc.data_type,
                      wi = r.weights_iter_desc.data_type,
                      wp = r.weights_projection_desc.data_type;
    const bool augru = r.cell_kind == dnnl_vanilla_augru || r.cell_kind == dnnl_lbr_augru;
    if (!dt_is(r.src_iter_c_desc, {dnnl_f32, dnnl_bf16, dnnl_f16})
            || !dt_is(r.dst_iter_c_desc, {dnnl_f32, dnnl_bf16, dnnl_f16}))
        return false;
    const bool f32 = sl == dnnl_f32 && dl == dnnl_f32 && wl == dnnl_f32
            && wi == dnnl_f32 && dt_is(r.src_iter_desc, {dnnl_f32})
            && dt_is(r.weights_peephole_desc, {dnnl_f32})
            && dt_is(r.weights_projection_desc, {dnnl_f32})
            && dt_is(r.dst_iter_desc, {dnnl_f32}) && dt_is(r.bias_desc, {dnnl_f32});
    if (f32) return true;
    for (data_type_t x : {dnnl_bf16, dnnl_f16}) {
        const bool ok = sl == x && dl == x && wl == x && wi == x
                && dt_is(r.src_iter_desc, {x})
                && dt_is(r.weights_peephole_desc, {augru ? x : dnnl_f32})
                && (wp == x || wp == dnnl_data_type_undef)
                && dt_is(r.dst_iter_desc, {x})
                && (r.bias_desc.data_type == x || r.bias_desc.data_type == dnnl_f32);
        if (ok) return true;
    }
    const bool int8_cell = r.cell_kind == dnnl_vanilla_lstm || r.cell_kind == dnnl_vanilla_gru;
    if (r.prop_kind != dnnl_forward_inference || !int8_cell) return false;
    if (wl != dnnl_s8 || wi != dnnl_s8
            || r.weights_peephole_desc.data_type != dnnl_data_type_undef
            || !(wp == dnnl_s8 || wp == dnnl_data_type_undef)
            || !dt_is(r.bias_desc, {dnnl_f32}))
        return false;
    for (data_type_t x : {dnnl_u8, dnnl_s8}) {
        if (sl != x || !(dl == x || dl == dnnl_f32)) continue;
        // States of the source's type with f32 cell states, or all f32.
        if (dt_is(r.src_iter_desc, {x}) && dt_is(r.dst_iter_desc, {x})
                && dt_is(r.src_iter_c_desc, {dnnl_f32})
                && dt_is(r.dst_iter_c_desc, {dnnl_f32}))
            return true;
        if (dt_is(r.src_iter_desc, {dnnl_f32}) && dt_is(r.dst_iter_desc, {dnnl_f32}))
            return true;
    }
    return false;
}

// Backward: every diff in f32, whatever the forward data types.
bool bwd_data_types_ok(const rnn_desc_t &r) {
    for (const memory_desc_t *md : {&r.diff_src_layer_desc, &r.diff_dst_layer_desc,
                 &r.diff_weights_layer_desc, &r.diff_weights_iter_desc,
                 &r.diff_src_iter_desc, &r.diff_dst_iter_desc,
                 &r.diff_weights_peephole_desc, &r.diff_weights_projection_desc,
                 &r.diff_bias_desc, &r.diff_src_iter_c_desc, &r.diff_dst_iter_c_desc})
        if (!dt_is(*md, {dnnl_f32})) return false;
    return true;
}

status_t check_dims(const rnn_desc_t &r) {
    const bool proj = r.cell_kind == dnnl_vanilla_lstm && !zero(r.weights_projection_desc);
    const bool augru = r.cell_kind == dnnl_vanilla_augru || r.cell_kind == dnnl_lbr_augru;
    const bool lbr = r.cell_kind == dnnl_lbr_gru || r.cell_kind == dnnl_lbr_augru;
    const bool gru_like = r.cell_kind != dnnl_vanilla_rnn && r.cell_kind != dnnl_vanilla_lstm;
    // The dims everything else is checked against.
    if (r.src_layer_desc.ndims != 3 || r.weights_layer_desc.ndims != 5
            || r.weights_iter_desc.ndims != 5 || r.dst_layer_desc.ndims != 3
            || (proj && r.weights_projection_desc.ndims != 4))
        return fail(dnnl_invalid_arguments, "bad ndims of a layer tensor or weights");
    const dim_t L = r.weights_layer_desc.dims[0];
    const dim_t T = r.src_layer_desc.dims[0], N = r.src_layer_desc.dims[1];
    const dim_t D = (r.direction == dnnl_unidirectional_left2right
                            || r.direction == dnnl_unidirectional_right2left)
            ? 1
            : 2;
    const dim_t G = rnn_gates_count(r.cell_kind);
    const dim_t SLC = r.src_layer_desc.dims[2], SIC = r.weights_iter_desc.dims[2];
    const dim_t DLC = r.dst_layer_desc.dims[2], DHC = r.weights_layer_desc.dims[4];
    const dim_t DIC = proj ? r.weights_projection_desc.dims[3] : DHC;
    const dim_t mult = r.direction == dnnl_bidirectional_concat ? 2 : 1;
    for (dim_t v : {L, T, N, SLC, SIC, DLC, DHC, DIC})
        if (v <= 0) return fail(dnnl_invalid_arguments, "non-positive dimension");
    if (gru_like && SIC != DHC)
        return fail(dnnl_invalid_arguments, "inconsistent dims: weights_iter:2 and weights_layer:4");
    if (mult * DIC != DLC)
        return fail(dnnl_invalid_arguments, "inconsistent dims: dst_layer:2");
    if (L > 1 && mult * SLC != DLC)
        return fail(dnnl_invalid_arguments, "inconsistent dims: src_layer:2 and dst_layer:2");
    if (T > 1 && SIC != DIC)
        return fail(dnnl_invalid_arguments, "inconsistent dims: weights_iter:2 and the output channels");
    // Expected dims of every forward tensor (held by value: the table
    // outlives no temporary).
    struct row_t {
        const memory_desc_t &md;
        int nd;
        dim_t dims[5];
        bool allow_zero;
        const char *name;
    };
    const dim_t nbias = G + (lbr ? 1 : 0);
    const row_t rows[] = {
            {r.src_layer_desc, 3, {T, N, SLC}, false, "src_layer"},
            {r.src_iter_desc, 4, {L, D, N, SIC}, true, "src_iter"},
            {r.src_iter_c_desc, 4, {L, D, N, DHC}, true, "src_iter_c"},
            {r.weights_layer_desc, 5, {L, D, SLC, G, DHC}, false, "weights_layer"},
            {r.weights_iter_desc, 5, {L, D, SIC, G, DHC}, false, "weights_iter"},
            augru ? row_t {r.weights_peephole_desc, 3, {T, N, 1}, true, "attention"}
                  : row_t {r.weights_peephole_desc, 4, {L, D, 3, DHC}, true,
                          "weights_peephole"},
            {r.weights_projection_desc, 4, {L, D, DHC, DIC}, true, "weights_projection"},
            {r.bias_desc, 4, {L, D, nbias, DHC}, true, "bias"},
            {r.dst_layer_desc, 3, {T, N, DLC}, false, "dst_layer"},
            {r.dst_iter_desc, 4, {L, D, N, DIC}, true, "dst_iter"},
            {r.dst_iter_c_desc, 4, {L, D, N, DHC}, true, "dst_iter_c"},
    };
    for (const auto &row : rows)
        if (!dims_are(row.md, row.nd, row.dims, row.allow_zero)) {
            verbose_check(who, "bad dims of %s", row.name);
            return dnnl_invalid_arguments;
        }
    if (r.prop_kind != dnnl_backward) return dnnl_success;
    // Each diff has its forward tensor's dims.
    const struct {
        const memory_desc_t &diff, &fwd;
        const char *name;
    } diffs[] = {
            {r.diff_src_layer_desc, r.src_layer_desc, "diff_src_layer"},
            {r.diff_src_iter_desc, r.src_iter_desc, "diff_src_iter"},
            {r.diff_src_iter_c_desc, r.src_iter_c_desc, "diff_src_iter_c"},
            {r.diff_weights_layer_desc, r.weights_layer_desc, "diff_weights_layer"},
            {r.diff_weights_iter_desc, r.weights_iter_desc, "diff_weights_iter"},
            {r.diff_weights_peephole_desc, r.weights_peephole_desc, "diff_weights_peephole"},
            {r.diff_weights_projection_desc, r.weights_projection_desc,
                    "diff_weights_projection"},
            {r.diff_bias_desc, r.bias_desc, "diff_bias"},
            {r.diff_dst_layer_desc, r.dst_layer_desc, "diff_dst_layer"},
            {r.diff_dst_iter_desc, r.dst_iter_desc, "diff_dst_iter"},
            {r.diff_dst_iter_c_desc, r.dst_iter_c_desc, "diff_dst_iter_c"},
    };
    for (const auto &row : diffs) {
        bool ok = zero(row.diff) == zero(row.fwd) && row.diff.ndims == row.fwd.ndims;
        for (int i = 0; ok && i < row.fwd.ndims; ++i)
            ok = row.diff.dims[i] == row.fwd.dims[i];
        if (!ok) {
            verbose_check(who, "bad dims of %s", row.name);
            return dnnl_invalid_arguments;
        }
    }
    return dnnl_success;
}

} // namespace

int rnn_gates_count(alg_kind_t cell) {
    switch (cell) {
        case dnnl_vanilla_rnn: return 1;
        case dnnl_vanilla_lstm: return 4;
        case dnnl_vanilla_gru:
        case dnnl_lbr_gru:
        case dnnl_vanilla_augru:
        case dnnl_lbr_augru: return 3;
        default: return 0;
    }
}

status_t rnn_desc_init(rnn_desc_t &out, const rnn_args_t &a) {
    const bool bwd = a.prop == dnnl_backward;
    if (a.prop != dnnl_forward_training && a.prop != dnnl_forward_inference && !bwd)
        return fail(dnnl_invalid_arguments, "bad propagation kind");
    if (rnn_gates_count(a.cell) == 0) return fail(dnnl_invalid_arguments, "bad cell kind");
    if (a.direction != dnnl_unidirectional_left2right
            && a.direction != dnnl_unidirectional_right2left
            && a.direction != dnnl_bidirectional_concat
            && a.direction != dnnl_bidirectional_sum)
        return fail(dnnl_invalid_arguments, "bad direction");
    if (!a.src_layer || !a.weights_layer || !a.weights_iter || !a.dst_layer
            || (bwd
                    && (!a.diff_src_layer || !a.diff_weights_layer
                            || !a.diff_weights_iter || !a.diff_dst_layer)))
        return fail(dnnl_invalid_arguments, "null memory descriptor");
    const memory_desc_t *all[] = {a.src_layer, a.src_iter, a.src_iter_c, a.attention,
            a.weights_layer, a.weights_iter, a.weights_peephole,
            a.weights_projection, a.bias, a.dst_layer, a.dst_iter, a.dst_iter_c,
            a.diff_src_layer, a.diff_src_iter, a.diff_src_iter_c, a.diff_attention,
            a.diff_weights_layer, a.diff_weights_iter, a.diff_weights_peephole,
            a.diff_weights_projection, a.diff_bias, a.diff_dst_layer,
            a.diff_dst_iter, a.diff_dst_iter_c};
    for (const memory_desc_t *md : all) {
        if (md && is_host_scalar(*md))
            return fail(dnnl_invalid_arguments, "host-scalar memory descriptor");
        if (md && !is_zero_md(*md) && md->format_kind != dnnl_blocked
                && md->format_kind != dnnl_format_kind_any)
            return fail(dnnl_invalid_arguments, "unsupported format kind");
    }
    if (a.cell == dnnl_vanilla_rnn
            && a.activation != dnnl_eltwise_relu && a.activation != dnnl_eltwise_tanh
            && a.activation != dnnl_eltwise_logistic)
        return fail(dnnl_invalid_arguments, "bad activation kind");
    rnn_desc_t r;
    r.prop_kind = a.prop;
    r.cell_kind = a.cell;
    r.direction = a.direction;
    r.src_layer_desc = *a.src_layer;
    r.src_iter_desc = opt(a.src_iter);
    r.src_iter_c_desc = opt(a.src_iter_c);
    r.weights_layer_desc = *a.weights_layer;
    r.weights_iter_desc = *a.weights_iter;
    const bool augru = a.cell == dnnl_vanilla_augru || a.cell == dnnl_lbr_augru;
    r.weights_peephole_desc = opt(augru ? a.attention : a.weights_peephole);
    r.weights_projection_desc = opt(a.weights_projection);
    r.bias_desc = opt(a.bias);
    r.dst_layer_desc = *a.dst_layer;
    r.dst_iter_desc = opt(a.dst_iter);
    r.dst_iter_c_desc = opt(a.dst_iter_c);
    if (bwd) {
        r.diff_src_layer_desc = *a.diff_src_layer;
        r.diff_src_iter_desc = opt(a.diff_src_iter);
        r.diff_src_iter_c_desc = opt(a.diff_src_iter_c);
        r.diff_weights_layer_desc = *a.diff_weights_layer;
        r.diff_weights_iter_desc = *a.diff_weights_iter;
        r.diff_weights_peephole_desc
                = opt(augru ? a.diff_attention : a.diff_weights_peephole);
        r.diff_weights_projection_desc = opt(a.diff_weights_projection);
        r.diff_bias_desc = opt(a.diff_bias);
        r.diff_dst_layer_desc = *a.diff_dst_layer;
        r.diff_dst_iter_desc = opt(a.diff_dst_iter);
        r.diff_dst_iter_c_desc = opt(a.diff_dst_iter_c);
    }
    r.flags = a.flags;
    r.activation_kind = a.activation;
    r.alpha = a.alpha;
    r.beta = a.beta;

    if (a.flags & ~(unsigned)dnnl_rnn_flags_diff_weights_overwrite)
        return fail(dnnl_invalid_arguments, "unknown flags");
    if (a.cell == dnnl_vanilla_lstm
            && (zero(r.src_iter_desc) != zero(r.src_iter_c_desc)
                    || zero(r.dst_iter_desc) != zero(r.dst_iter_c_desc)))
        return fail(dnnl_invalid_arguments, "LSTM needs iter and iter_c together");
    if (a.cell != dnnl_vanilla_lstm
            && (!zero(r.src_iter_c_desc) || !zero(r.dst_iter_c_desc)
                    || !zero(r.weights_projection_desc)
                    || (!augru && !zero(r.weights_peephole_desc))))
        return fail(dnnl_invalid_arguments, "cell state, peephole or projection for a non-LSTM cell");
    if (augru) {
        if (a.direction != dnnl_unidirectional_left2right)
            return fail(dnnl_invalid_arguments, "AUGRU direction is not left2right");
        if (r.weights_layer_desc.ndims >= 1 && r.weights_layer_desc.dims[0] != 1)
            return fail(dnnl_invalid_arguments, "AUGRU with more than one layer");
        if (zero(r.weights_peephole_desc) || (bwd && zero(r.diff_weights_peephole_desc)))
            return fail(dnnl_invalid_arguments, "AUGRU without attention");
    }
    if (bwd) {
        const struct {
            const memory_desc_t &a, &b;
        } pairs[] = {{r.bias_desc, r.diff_bias_desc},
                {r.weights_peephole_desc, r.diff_weights_peephole_desc},
                {r.weights_projection_desc, r.diff_weights_projection_desc},
                {r.src_iter_desc, r.diff_src_iter_desc},
                {r.src_iter_c_desc, r.diff_src_iter_c_desc},
                {r.dst_iter_desc, r.diff_dst_iter_desc},
                {r.dst_iter_c_desc, r.diff_dst_iter_c_desc}};
        for (const auto &p : pairs)
            if (zero(p.a) != zero(p.b))
                return fail(dnnl_invalid_arguments, "an optional tensor without its diff or the reverse");
    }
    for (const memory_desc_t *md : all)
        if (md && md_has_runtime_dims_or_strides(*md))
            return fail(dnnl_unimplemented, "runtime dimensions are not supported");
    if (!fwd_data_types_ok(r) || (bwd && !bwd_data_types_ok(r)))
        return fail(dnnl_unimplemented, "unsupported data type configuration");
    DNNL_CHECK(check_dims(r));
    out = r;
    return dnnl_success;
}

status_t rnn_attr_check(const rnn_desc_t &, const primitive_attr_t *attr) {
    if (!attr) return dnnl_success;
    if (!attr->scales.empty() || !attr->zero_points.empty()
            || !attr->post_ops.entries.empty() || !attr->rounding_modes.empty())
        return fail(dnnl_unimplemented, "unsupported attribute");
    return dnnl_success;
}

rnn_pd_t::rnn_pd_t(const rnn_desc_t &d, const primitive_attr_t &attr)
    : primitive_desc_t(d, attr) {
    const bool augru = d.cell_kind == dnnl_vanilla_augru || d.cell_kind == dnnl_lbr_augru;
    src_layer_md_ = d.src_layer_desc;
    src_iter_md_ = d.src_iter_desc;
    src_iter_c_md_ = d.src_iter_c_desc;
    attention_md_ = augru ? d.weights_peephole_desc : zero_md();
    weights_layer_md_ = d.weights_layer_desc;
    weights_iter_md_ = d.weights_iter_desc;
    weights_peephole_md_ = augru ? zero_md() : d.weights_peephole_desc;
    weights_projection_md_ = d.weights_projection_desc;
    bias_md_ = d.bias_desc;
    dst_layer_md_ = d.dst_layer_desc;
    dst_iter_md_ = d.dst_iter_desc;
    dst_iter_c_md_ = d.dst_iter_c_desc;
    diff_src_layer_md_ = d.diff_src_layer_desc;
    diff_src_iter_md_ = d.diff_src_iter_desc;
    diff_src_iter_c_md_ = d.diff_src_iter_c_desc;
    diff_attention_md_ = augru ? d.diff_weights_peephole_desc : zero_md();
    diff_weights_layer_md_ = d.diff_weights_layer_desc;
    diff_weights_iter_md_ = d.diff_weights_iter_desc;
    diff_weights_peephole_md_ = augru ? zero_md() : d.diff_weights_peephole_desc;
    diff_weights_projection_md_ = d.diff_weights_projection_desc;
    diff_bias_md_ = d.diff_bias_desc;
    diff_dst_layer_md_ = d.diff_dst_layer_desc;
    diff_dst_iter_md_ = d.diff_dst_iter_desc;
    diff_dst_iter_c_md_ = d.diff_dst_iter_c_desc;
    ws_md_ = zero_md();
}

const memory_desc_t *rnn_pd_t::md_slot(int arg) const {
    return const_cast<rnn_pd_t *>(this)->md_slot(arg);
}

memory_desc_t *rnn_pd_t::md_slot(int arg) {
    switch (arg) {
        case DNNL_ARG_SRC_LAYER: return &src_layer_md_;
        case DNNL_ARG_SRC_ITER: return &src_iter_md_;
        case DNNL_ARG_SRC_ITER_C: return &src_iter_c_md_;
        case DNNL_ARG_AUGRU_ATTENTION: return &attention_md_;
        case DNNL_ARG_WEIGHTS_LAYER: return &weights_layer_md_;
        case DNNL_ARG_WEIGHTS_ITER: return &weights_iter_md_;
        case DNNL_ARG_WEIGHTS_PEEPHOLE: return &weights_peephole_md_;
        case DNNL_ARG_WEIGHTS_PROJECTION: return &weights_projection_md_;
        case DNNL_ARG_BIAS: return &bias_md_;
        case DNNL_ARG_DST_LAYER: return &dst_layer_md_;
        case DNNL_ARG_DST_ITER: return &dst_iter_md_;
        case DNNL_ARG_DST_ITER_C: return &dst_iter_c_md_;
        case DNNL_ARG_DIFF_SRC_LAYER: return &diff_src_layer_md_;
        case DNNL_ARG_DIFF_SRC_ITER: return &diff_src_iter_md_;
        case DNNL_ARG_DIFF_SRC_ITER_C: return &diff_src_iter_c_md_;
        case DNNL_ARG_DIFF_AUGRU_ATTENTION: return &diff_attention_md_;
        case DNNL_ARG_DIFF_WEIGHTS_LAYER: return &diff_weights_layer_md_;
        case DNNL_ARG_DIFF_WEIGHTS_ITER: return &diff_weights_iter_md_;
        case DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE: return &diff_weights_peephole_md_;
        case DNNL_ARG_DIFF_WEIGHTS_PROJECTION: return &diff_weights_projection_md_;
        case DNNL_ARG_DIFF_BIAS: return &diff_bias_md_;
        case DNNL_ARG_DIFF_DST_LAYER: return &diff_dst_layer_md_;
        case DNNL_ARG_DIFF_DST_ITER: return &diff_dst_iter_md_;
        case DNNL_ARG_DIFF_DST_ITER_C: return &diff_dst_iter_c_md_;
        case DNNL_ARG_WORKSPACE: return &ws_md_;
        default: return nullptr;
    }
}

const memory_desc_t *rnn_pd_t::arg_md(int arg) const {
    if (arg_usage(arg) != arg_usage_t::unused || arg == DNNL_ARG_WORKSPACE)
        if (const memory_desc_t *md = md_slot(arg)) return md;
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t rnn_pd_t::arg_usage(int arg) const {
    using u = arg_usage_t;
    const bool fwd = is_fwd();
    // Forward tensors: inputs, outputs of the forward pass; in backward,
    // every forward tensor present is an input.
    auto fwd_out = [&](bool present) {
        return !present ? u::unused : fwd ? u::output : u::input;
    };
    auto in = [](bool present) { return present ? u::input : u::unused; };
    auto diff_out = [&](bool present) { return present && !fwd ? u::output : u::unused; };
    auto diff_in = [&](bool present) { return present && !fwd ? u::input : u::unused; };
    switch (arg) {
        case DNNL_ARG_SRC_LAYER: return u::input;
        case DNNL_ARG_SRC_ITER: return in(with_src_iter());
        case DNNL_ARG_SRC_ITER_C: return in(with_src_iter_c());
        case DNNL_ARG_AUGRU_ATTENTION: return in(is_augru());
        case DNNL_ARG_WEIGHTS_LAYER:
        case DNNL_ARG_WEIGHTS_ITER: return u::input;
        case DNNL_ARG_WEIGHTS_PEEPHOLE: return in(with_peephole());
        case DNNL_ARG_WEIGHTS_PROJECTION: return in(with_projection());
        case DNNL_ARG_BIAS: return in(with_bias());
        case DNNL_ARG_DST_LAYER: return fwd_out(true);
        case DNNL_ARG_DST_ITER: return fwd_out(with_dst_iter());
        case DNNL_ARG_DST_ITER_C: return fwd_out(with_dst_iter_c());
        case DNNL_ARG_WORKSPACE:
            return !is_training() ? u::unused : fwd ? u::output : u::input;
        case DNNL_ARG_DIFF_SRC_LAYER: return diff_out(true);
        case DNNL_ARG_DIFF_SRC_ITER: return diff_out(with_src_iter());
        case DNNL_ARG_DIFF_SRC_ITER_C: return diff_out(with_src_iter_c());
        case DNNL_ARG_DIFF_AUGRU_ATTENTION: return diff_out(is_augru());
        case DNNL_ARG_DIFF_WEIGHTS_LAYER:
        case DNNL_ARG_DIFF_WEIGHTS_ITER: return diff_out(true);
        case DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE: return diff_out(with_peephole());
        case DNNL_ARG_DIFF_WEIGHTS_PROJECTION: return diff_out(with_projection());
        case DNNL_ARG_DIFF_BIAS: return diff_out(with_bias());
        case DNNL_ARG_DIFF_DST_LAYER: return diff_in(true);
        case DNNL_ARG_DIFF_DST_ITER: return diff_in(with_dst_iter());
        case DNNL_ARG_DIFF_DST_ITER_C: return diff_in(with_dst_iter_c());
        default: return primitive_desc_t::arg_usage(arg);
    }
}

status_t rnn_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
        case dnnl_query_prop_kind: *(prop_kind_t *)result = prop(); return dnnl_success;
        case dnnl_query_cell_kind: *(alg_kind_t *)result = cell_kind(); return dnnl_success;
        case dnnl_query_direction:
            *(dnnl_rnn_direction_t *)result = direction();
            return dnnl_success;
        case dnnl_query_activation_kind:
            *(alg_kind_t *)result = desc()->activation_kind;
            return dnnl_success;
        case dnnl_query_alpha_f32: *(float *)result = desc()->alpha; return dnnl_success;
        case dnnl_query_beta_f32: *(float *)result = desc()->beta; return dnnl_success;
        case dnnl_query_weights_md:
        case dnnl_query_diff_weights_md: {
            // oneDNN's order: layer, iter, then peephole, projection and
            // bias, each only when present.
            const bool diff = what == dnnl_query_diff_weights_md;
            int arg = -1;
            if (index == 0) arg = DNNL_ARG_WEIGHTS_LAYER;
            if (index == 1) arg = DNNL_ARG_WEIGHTS_ITER;
            int next = 2;
            if (with_peephole() && index == next++) arg = DNNL_ARG_WEIGHTS_PEEPHOLE;
            if (with_projection() && index == next++) arg = DNNL_ARG_WEIGHTS_PROJECTION;
            if (with_bias() && index == next++) arg = DNNL_ARG_BIAS;
            static const memory_desc_t none = zero_md();
            const memory_desc_t *md = &none;
            if (arg >= 0 && (!diff || !is_fwd())) {
                // DNNL_ARG_DIFF_X is DNNL_ARG_X with the diff bit.
                const int a = diff ? (arg == DNNL_ARG_BIAS ? DNNL_ARG_DIFF_BIAS
                                                           : arg + DNNL_ARG_DIFF_WEIGHTS_0
                                                 - DNNL_ARG_WEIGHTS_0)
                                   : arg;
                md = md_slot(a);
            }
            *(const memory_desc_t **)result = md;
            return dnnl_success;
        }
        default: return primitive_desc_t::query(what, index, result);
    }
}

status_t rnn_pd_t::init_formats(format_tag_t wei_tag) {
    auto resolve = [](memory_desc_t &md, format_tag_t tag) -> status_t {
        if (is_zero_md(md) || md.format_kind != dnnl_format_kind_any) return dnnl_success;
        return md_set_format_by_tag(md, tag);
    };
    for (memory_desc_t *md : {&src_layer_md_, &dst_layer_md_, &attention_md_,
                 &diff_src_layer_md_, &diff_dst_layer_md_, &diff_attention_md_})
        DNNL_CHECK(resolve(*md, dnnl_tnc));
    for (memory_desc_t *md : {&src_iter_md_, &src_iter_c_md_, &dst_iter_md_,
                 &dst_iter_c_md_, &diff_src_iter_md_, &diff_src_iter_c_md_,
                 &diff_dst_iter_md_, &diff_dst_iter_c_md_})
        DNNL_CHECK(resolve(*md, dnnl_ldnc));
    for (memory_desc_t *md : {&weights_layer_md_, &weights_iter_md_,
                 &diff_weights_layer_md_, &diff_weights_iter_md_})
        DNNL_CHECK(resolve(*md, wei_tag));
    for (memory_desc_t *md : {&weights_peephole_md_, &bias_md_,
                 &diff_weights_peephole_md_, &diff_bias_md_})
        DNNL_CHECK(resolve(*md, dnnl_ldgo));
    for (memory_desc_t *md : {&weights_projection_md_, &diff_weights_projection_md_})
        DNNL_CHECK(resolve(*md, dnnl_ldio));
    return dnnl_success;
}

void rnn_pd_t::set_workspace(size_t bytes) {
    if (!is_training() || bytes == 0) {
        ws_md_ = zero_md();
        return;
    }
    dims_t dims = {(dim_t)bytes};
    md_init_by_tag(ws_md_, 1, dims, dnnl_u8, dnnl_a);
}

} // namespace impl
} // namespace dnnl
