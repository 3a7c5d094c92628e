// The int8 RNN quantizing reorders on the CPU: one pass over the
// elements (the checks are common/rnn_quant_conf.cpp).
#include "cpu/reorder/rnn_quant_reorder.hpp"

#include "common/float_convert.hpp"
#include "common/memory_desc.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

status_t rnn_quant_reorder_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const rnn_quant_conf_t &c = pd->conf;
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
    const bool per_channel = c.per_channel();
    parallel_nd(rows,
            [&](dim_t r) {
                const dim_t so = md_off_l(s, r * inner);
                const dim_t dof = md_off_l(d, r * inner);
                if (c.weights) {
                    const float *sc = c.scales.empty() ? nullptr
                            : c.scales.data()
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
                                                * c.data_scale
                                        + c.data_shift,
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
