// Inner product over blocked tensors through dense copies (see
// blocked_inner_product.hpp).
#include "cpu/inner_product/blocked_inner_product.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace inner_product {

status_t blocked_inner_product_pd_t::init(engine_t *engine) {
    DNNL_CHECK(init_formats(/* allow_blocked = */ true));
    const bool fwd = is_fwd(), bwd_d = is_bwd_d(), bwd_w = is_bwd_w();
    bool with_sum = false;
    for (const auto &e : attr_.post_ops.entries)
        with_sum = with_sum || e.kind == post_op_kind_t::sum;
    // The arguments and descriptor fields of the four tensors in this
    // propagation kind, and which of them it reads and writes.
    inner_product_desc_t nd = *desc();
    struct tensor_t {
        int arg;
        const memory_desc_t &md;
        memory_desc_t &field;
        bool read, written;
    };
    const tensor_t tensors[] = {
            {bwd_d ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC, src_md_,
                    bwd_d ? nd.diff_src_desc : nd.src_desc, !bwd_d, bwd_d},
            {bwd_w ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS, weights_md_,
                    bwd_w ? nd.diff_weights_desc : nd.weights_desc, !bwd_w,
                    bwd_w},
            {bwd_w ? DNNL_ARG_DIFF_BIAS : DNNL_ARG_BIAS, bias_md_,
                    bwd_w ? nd.diff_bias_desc : nd.bias_desc, !bwd_w, bwd_w},
            {fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST, dst_md_,
                    fwd ? nd.dst_desc : nd.diff_dst_desc, !fwd || with_sum,
                    fwd},
    };
    copies.slots.clear();
    for (const auto &t : tensors)
        if (&t.md != &bias_md_ || with_bias())
            copies.add(t.arg, t.md, t.read, t.written,
                    /* every_layout = */ true);
    if (!copies.any_converted()) return dnnl_unimplemented; // plain: others
    DNNL_CHECK(copies.build(engine, attr_.scratchpad_mode, [&](size_t &bytes) {
        for (const auto &s : copies.slots)
            for (const auto &t : tensors)
                if (t.arg == s.arg) t.field = s.plain;
        DNNL_CHECK(create_nested_pd(this->nested, nd, attr_, engine));
        bytes = this->nested->scratchpad_size();
        return dnnl_success;
    }));
    book_scratchpad(copies.bytes);
    name_ = std::string("blocked:") + nested->name();
    return dnnl_success;
}

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
