// Matmul over blocked layouts through dense copies (see blocked_matmul.hpp).
#include "cpu/matmul/blocked_matmul.hpp"

#include "common/utils.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

status_t blocked_matmul_pd_t::init(engine_t *engine) {
    memory_desc_t *user[] = {&src_md_, &weights_md_, &bias_md_, &dst_md_};
    for (const memory_desc_t *md : user) {
        if (md == &bias_md_ && !with_bias()) continue;
        const int fk = md->format_kind;
        if (fk != dnnl_blocked && fk != dnnl_format_kind_any)
            return dnnl_unimplemented; // sparse, grouped, host scalars
    }
    if (has_runtime_dims_or_strides()) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    bool with_sum = false;
    for (const auto &e : attr_.post_ops.entries)
        with_sum = with_sum || e.kind == post_op_kind_t::sum;
    copies.slots.clear();
    copies.add(DNNL_ARG_SRC, src_md_, true, false);
    copies.add(DNNL_ARG_WEIGHTS, weights_md_, true, false);
    if (with_bias()) copies.add(DNNL_ARG_BIAS, bias_md_, true, false);
    // dst is read first only for a sum post-op.
    copies.add(DNNL_ARG_DST, dst_md_, with_sum, true);
    if (!copies.any_converted()) return dnnl_unimplemented; // plain: others
    for (const auto &s : copies.slots)
        if (s.converted && sub_byte_bits(s.user.data_type)) {
            verbose_check("matmul", "blocked: 4-bit data in blocked layouts");
            return dnnl_unimplemented;
        }
    // The plain matmul with every attribute.
    DNNL_CHECK(copies.build(engine, attr_.scratchpad_mode, [&](size_t &bytes) {
        matmul_desc_t nd = *desc();
        for (const auto &s : copies.slots) {
            memory_desc_t &md = s.arg == DNNL_ARG_SRC ? nd.src_desc
                    : s.arg == DNNL_ARG_WEIGHTS       ? nd.weights_desc
                    : s.arg == DNNL_ARG_BIAS          ? nd.bias_desc
                                                      : nd.dst_desc;
            md = s.plain;
        }
        DNNL_CHECK(create_nested_pd(this->nested, nd, attr_, engine));
        bytes = this->nested->scratchpad_size();
        return dnnl_success;
    }));
    book_scratchpad(copies.bytes);
    name_ = std::string("blocked:") + nested->name();
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
