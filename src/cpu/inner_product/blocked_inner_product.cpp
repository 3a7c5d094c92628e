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
    DNNL_CHECK(copies.build(engine, attr_.scratchpad_mode, [&](size_t &nested) {
        for (const auto &s : copies.slots)
            for (const auto &t : tensors)
                if (t.arg == s.arg) t.field = s.plain;
        DNNL_CHECK(create_nested_pd(ip, nd, attr_, engine));
        nested = ip->scratchpad_size();
        return dnnl_success;
    }));
    book_scratchpad(copies.bytes);
    name_ = std::string("blocked:") + ip->name();
    return dnnl_success;
}

status_t blocked_inner_product_pd_t::make_primitive(
        std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<blocked_inner_product_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(blocked_inner_product_t));
    return dnnl_success;
}

status_t blocked_inner_product_t::init(engine_t *engine) {
    DNNL_CHECK(copies_.init(pd_()->copies, engine));
    return pd_()->ip->create_primitive(ip_, engine, nullptr, true);
}

status_t blocked_inner_product_t::create_resource(
        engine_t *engine, resource_mapper_t &mapper) const {
    DNNL_CHECK(copies_.create_resource(engine, mapper));
    return ip_->create_resource(engine, mapper);
}

status_t blocked_inner_product_t::execute(const exec_ctx_t &ctx) const {
    return copies_.execute(pd_()->copies, ctx, *ip_, "inner_product");
}

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
