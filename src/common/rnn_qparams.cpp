// int8 recurrent quantization parameters (see rnn_qparams.hpp).
#include "common/rnn_qparams.hpp"

#include <cmath>

#include "common/utils.hpp"

namespace dnnl {
namespace impl {

namespace {

constexpr int gates_and_channels = (1 << 3) | (1 << 4);
constexpr int projection_channels = 1 << 3;

bool scales_ok(
        const rnn_weights_qparams_t &q, int per_channel_mask, dim_t channels) {
    if (q.scales.empty()) return true;
    for (float s : q.scales)
        if (!std::isfinite(s) || s == 0.f) return false;
    if (q.mask == 0) return q.scales.size() == 1;
    return q.mask == per_channel_mask && (dim_t)q.scales.size() == channels;
}

// A scale given only at execution, which no recurrent implementation
// takes.
bool any_runtime(const rnn_weights_qparams_t &q) {
    for (float s : q.scales)
        if (is_runtime_f32(s)) return true;
    return false;
}

} // namespace

status_t check_rnn_int8_qparams(
        const primitive_attr_t &attr, const rnn_dims_t &d) {
    const float s = attr.rnn_data_qparams.scale,
                sh = attr.rnn_data_qparams.shift;
    // As oneDNN: runtime quantization parameters are not implemented.
    if (is_runtime_f32(s) || is_runtime_f32(sh)
            || any_runtime(attr.rnn_weights_qparams)
            || any_runtime(attr.rnn_weights_projection_qparams))
        return dnnl_unimplemented;
    if (!std::isfinite(s) || s == 0.f || !std::isfinite(sh))
        return dnnl_invalid_arguments;
    if (!scales_ok(attr.rnn_weights_qparams, gates_and_channels, d.G * d.DHC))
        return dnnl_invalid_arguments;
    if (d.projection
            && !scales_ok(attr.rnn_weights_projection_qparams,
                    projection_channels, d.DIC))
        return dnnl_invalid_arguments;
    return dnnl_success;
}

float rnn_weights_scale(const rnn_weights_qparams_t &q, dim_t channel) {
    if (q.scales.empty()) return 1.f;
    return q.mask == 0 ? q.scales[0] : q.scales[(size_t)channel];
}

rnn_state_grid_t rnn_state_grid(const primitive_attr_t &attr, data_type_t dt) {
    rnn_state_grid_t g;
    g.scale = attr.rnn_data_qparams.scale;
    g.shift = attr.rnn_data_qparams.shift;
    g.lo = dt == dnnl_s8 ? -128.f : 0.f;
    g.hi = dt == dnnl_s8 ? 127.f : 255.f;
    return g;
}

} // namespace impl
} // namespace dnnl
