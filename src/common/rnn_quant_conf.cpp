// The int8 RNN quantizing reorders' checks (see rnn_quant_conf.hpp).
#include "common/rnn_quant_conf.hpp"

#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {

bool plain_fixed(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked
            || md.format_desc.blocking.inner_nblks != 0)
        return false;
    if (md_has_runtime_dims_or_strides(md)) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d]) return false;
    return true;
}

status_t refuse(const char *why) {
    verbose_check("reorder", "rnn_quant: %s", why);
    return dnnl_unimplemented;
}

} // namespace

status_t init_rnn_quant_conf(const primitive_attr_t &a, const memory_desc_t &s,
        const memory_desc_t &d, rnn_quant_conf_t &conf) {
    conf = rnn_quant_conf_t();
    // Only requests that carry RNN quantization parameters come here; the
    // other reorders refuse them.
    if (!a.has_rnn_qparams()) return dnnl_unimplemented;
    primitive_attr_t rest = a;
    rest.rnn_data_qparams = rnn_data_qparams_t();
    rest.rnn_weights_qparams = rnn_weights_qparams_t();
    rest.rnn_weights_projection_qparams = rnn_weights_qparams_t();
    if (!rest.computes_as_default())
        return refuse("RNN quantization parameters combine with no other "
                      "attribute");

    if (!plain_fixed(s) || !plain_fixed(d))
        return refuse("plain layouts of fixed shape only");
    const int nd = s.ndims;
    const bool proj_set = !a.rnn_weights_projection_qparams.scales.empty();
    const bool src_ok_w = s.data_type == dnnl_f32 || s.data_type == dnnl_bf16;
    if (nd == 5 || (nd == 4 && d.data_type == dnnl_s8 && proj_set)) {
        if (!src_ok_w || d.data_type != dnnl_s8)
            return refuse("weights quantize from f32 or bf16 to s8");
        const rnn_weights_qparams_t &q =
                nd == 5 ? a.rnn_weights_qparams
                        : a.rnn_weights_projection_qparams;
        // The scales vary over (gate, channel) for layer and iteration
        // weights, over the output channel for the projection's.
        const int per_channel_mask = nd == 5 ? (1 << 3) | (1 << 4) : 1 << 3;
        const dim_t per_channel = nd == 5 ? s.dims[3] * s.dims[4] : s.dims[3];
        if (q.mask != 0 && q.mask != per_channel_mask)
            return refuse("weights scales common or per gate and channel "
                          "only");
        const dim_t want = q.mask == 0 ? 1 : per_channel;
        if (!q.scales.empty() && (dim_t)q.scales.size() != want) {
            verbose_check("reorder",
                    "rnn_quant: %zu weights scales for %lld values",
                    q.scales.size(), (long long)want);
            return dnnl_invalid_arguments;
        }
        conf.weights = true;
        conf.scales = q.scales;
        return dnnl_success;
    }
    if (nd != 3 && nd != 4)
        return refuse("data tensors are 3-D (tnc) or 4-D (ldnc)");
    if (s.data_type != dnnl_f32
            || (d.data_type != dnnl_u8 && d.data_type != dnnl_s8))
        return refuse("data quantizes from f32 to u8 or s8");
    conf.data_scale = a.rnn_data_qparams.scale;
    conf.data_shift = a.rnn_data_qparams.shift;
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
