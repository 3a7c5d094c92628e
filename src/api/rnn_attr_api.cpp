// C API: quantization parameters of int8 recurrent primitives (data scale
// and shift; weights and projection weights scales with their mask). The
// setters validate only what they can see; the scale count against the
// weights' dims is checked when a primitive descriptor is created.
#include "common/primitive_attr.hpp"

using namespace dnnl::impl;

namespace {

dnnl_status_t set_weights(rnn_weights_qparams_t &q, dnnl_dim_t count, int mask,
        const float *scales) {
    if (!scales || count <= 0 || mask < 0) return dnnl_invalid_arguments;
    q.mask = mask;
    q.scales.assign(scales, scales + count);
    return dnnl_success;
}

// Unset parameters read as one scale of 1 with mask 0, as oneDNN's do.
dnnl_status_t get_weights(const rnn_weights_qparams_t &q, dnnl_dim_t *count,
        int *mask, const float **scales) {
    static const float one = 1.f;
    if (count) *count = q.scales.empty() ? 1 : (dnnl_dim_t)q.scales.size();
    if (mask) *mask = q.mask;
    if (scales) *scales = q.scales.empty() ? &one : q.scales.data();
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_primitive_attr_set_rnn_data_qparams(
        dnnl_primitive_attr_t attr, const float scale, const float shift) {
    if (!attr) return dnnl_invalid_arguments;
    attr->rnn_data_qparams.scale = scale;
    attr->rnn_data_qparams.shift = shift;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_get_rnn_data_qparams(
        const_dnnl_primitive_attr_t attr, float *scale, float *shift) {
    if (!attr) return dnnl_invalid_arguments;
    if (scale) *scale = attr->rnn_data_qparams.scale;
    if (shift) *shift = attr->rnn_data_qparams.shift;
    return dnnl_success;
}

dnnl_status_t dnnl_primitive_attr_set_rnn_weights_qparams(dnnl_primitive_attr_t attr,
        dnnl_dim_t count, int mask, const float *scales) {
    if (!attr) return dnnl_invalid_arguments;
    return set_weights(attr->rnn_weights_qparams, count, mask, scales);
}

dnnl_status_t dnnl_primitive_attr_get_rnn_weights_qparams(const_dnnl_primitive_attr_t attr,
        dnnl_dim_t *count, int *mask, const float **scales) {
    if (!attr) return dnnl_invalid_arguments;
    return get_weights(attr->rnn_weights_qparams, count, mask, scales);
}

dnnl_status_t dnnl_primitive_attr_set_rnn_weights_projection_qparams(
        dnnl_primitive_attr_t attr, dnnl_dim_t count, int mask, const float *scales) {
    if (!attr) return dnnl_invalid_arguments;
    return set_weights(attr->rnn_weights_projection_qparams, count, mask, scales);
}

dnnl_status_t dnnl_primitive_attr_get_rnn_weights_projection_qparams(
        const_dnnl_primitive_attr_t attr, dnnl_dim_t *count, int *mask,
        const float **scales) {
    if (!attr) return dnnl_invalid_arguments;
    return get_weights(attr->rnn_weights_projection_qparams, count, mask, scales);
}
