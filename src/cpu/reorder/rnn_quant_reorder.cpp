// The int8 RNN quantizing reorders: checks at creation, one pass over the
// elements at execution.
#include "cpu/reorder/rnn_quant_reorder.hpp"

#include <cmath>

#include "common/float_convert.hpp"
#include "common/memory_desc.hpp"
#include "common/verbose.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

namespace {

bool plain_fixed(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked || md.format_desc.blocking.inner_nblks != 0)
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

status_t rnn_quant_reorder_t::pd_t::init(engine_t *) {
    const primitive_attr_t &a = *attr();
    // Only requests that carry RNN quantization parameters come here; the
    // other reorders refuse them.
    if (!a.has_rnn_qparams()) return dnnl_unimplemented;
    primitive_attr_t rest = a;
    rest.rnn_data_qparams = rnn_data_qparams_t();
    rest.rnn_weights_qparams = rnn_weights_qparams_t();
    rest.rnn_weights_projection_qparams = rnn_weights_qparams_t();
    if (!rest.has_default_values())
        return refuse("RNN quantization parameters combine with no other "
                      "attribute");

    const memory_desc_t &s = *src_md(), &d = *dst_md();
    if (!plain_fixed(s) || !plain_fixed(d))
        return refuse("plain layouts of fixed shape only");
    const int nd = s.ndims;
    const bool proj_set = !a.rnn_weights_projection_qparams.scales.empty();
    const bool src_ok_w = s.data_type == dnnl_f32 || s.data_type == dnnl_bf16;
    if (nd == 5 || (nd == 4 && d.data_type == dnnl_s8 && proj_set)) {
        if (!src_ok_w || d.data_type != dnnl_s8)
            return refuse("weights quantize from f32 or bf16 to s8");
        const rnn_weights_qparams_t &q = nd == 5
                ? a.rnn_weights_qparams
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
        weights = true;
        scales = q.scales;
        return dnnl_success;
    }
    if (nd != 3 && nd != 4)
        return refuse("data tensors are 3-D (tnc) or 4-D (ldnc)");
    if (s.data_type != dnnl_f32
            || (d.data_type != dnnl_u8 && d.data_type != dnnl_s8))
        return refuse("data quantizes from f32 to u8 or s8");
    data_scale = a.rnn_data_qparams.scale;
    data_shift = a.rnn_data_qparams.shift;
    return dnnl_success;
}

status_t rnn_quant_reorder_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const memory_desc_t &s = *pd->src_md(), &d = *pd->dst_md();
    const dim_t n = md_nelems(s);
    if (n == 0) return dnnl_success;
    const void *src = ctx.host_ptr(DNNL_ARG_FROM);
    void *dst = ctx.host_ptr(DNNL_ARG_TO);
    if (!src || !dst) return dnnl_invalid_arguments;

    // Rows along the last dim; the offsets of a row's start come from the
    // strides of the others.
    const int nd = s.ndims;
    const dim_t inner = s.dims[nd - 1];
    const dim_t rows = n / inner;
    const dim_t s_in = s.format_desc.blocking.strides[nd - 1];
    const dim_t d_in = d.format_desc.blocking.strides[nd - 1];
    // Weights scales per (gate, channel): the last two dims of 5-D weights
    // (rows carry the gate), the last dim of projection weights.
    const dim_t gates = nd == 5 ? s.dims[3] : 1;
    const bool per_channel = pd->weights && pd->scales.size() > 1;
    parallel_nd(rows,
            [&](dim_t r) {
                const dim_t so = md_off_l(s, r * inner);
                const dim_t dof = md_off_l(d, r * inner);
                if (pd->weights) {
                    const float *sc = pd->scales.empty() ? nullptr
                            : pd->scales.data()
                                    + (per_channel ? (r % gates) * inner : 0);
                    for (dim_t i = 0; i < inner; ++i) {
                        const float scale
                                = !sc ? 1.f : per_channel ? sc[i] : sc[0];
                        store_f32(dnnl_s8,
                                load_f32(s.data_type, src, so + i * s_in) * scale,
                                dst, dof + i * d_in);
                    }
                } else {
                    for (dim_t i = 0; i < inner; ++i)
                        store_f32(d.data_type,
                                load_f32(s.data_type, src, so + i * s_in)
                                                * pd->data_scale
                                        + pd->data_shift,
                                dst, dof + i * d_in);
                }
            },
            256);
    return dnnl_success;
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
