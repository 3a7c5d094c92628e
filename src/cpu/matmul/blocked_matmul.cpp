// Matmul over blocked layouts through dense copies (see blocked_matmul.hpp).
#include "cpu/matmul/blocked_matmul.hpp"

#include <algorithm>
#include <vector>

#include "common/exec_ctx.hpp"
#include "common/memory.hpp"
#include "common/op_desc.hpp"
#include "common/stream.hpp"
#include "common/utils.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

int blocked_matmul_pd_t::arg_of(int t) {
    static const int args[count]
            = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_DST};
    return args[t];
}

status_t blocked_matmul_pd_t::add_reorder(std::shared_ptr<primitive_desc_t> &out,
        const memory_desc_t &from, const memory_desc_t &to, engine_t *engine) {
    reorder_desc_t rd;
    rd.src_md = from;
    rd.dst_md = to;
    rd.src_engine_kind = rd.dst_engine_kind = engine->kind();
    primitive_attr_t a;
    a.scratchpad_mode = attr_.scratchpad_mode;
    return create_nested_pd(out, rd, a, engine);
}

status_t blocked_matmul_pd_t::build(engine_t *engine, size_t base,
        size_t &nested_bytes) {
    const memory_desc_t *user[count] = {&src_md_, &weights_md_, &bias_md_, &dst_md_};
    // The dense copies, one after another (64-byte aligned) from `base`;
    // offset0 places each.
    size_t off = base;
    for (int t = 0; t < count; ++t) {
        plain_md[t] = *user[t];
        to_plain[t].reset();
        if (!converted[t]) continue;
        const memory_desc_t &u = *user[t];
        DNNL_CHECK(md_init_by_strides(
                plain_md[t], u.ndims, u.dims, u.data_type, nullptr));
        plain_md[t].offset0 = (dim_t)(off / data_type_size(u.data_type));
        off += align64(md_size(plain_md[t]));
    }
    scratch_bytes = off;

    // The plain matmul with every attribute.
    matmul_desc_t nd = *desc();
    nd.src_desc = plain_md[src];
    nd.weights_desc = plain_md[wei];
    if (with_bias()) nd.bias_desc = plain_md[bias];
    nd.dst_desc = plain_md[dst];
    DNNL_CHECK(create_nested_pd(matmul, nd, attr_, engine));
    bool with_sum = false;
    for (const auto &e : attr_.post_ops.entries)
        with_sum = with_sum || e.kind == post_op_kind_t::sum;
    for (int t = 0; t < count; ++t) {
        if (!converted[t]) continue;
        // dst is read first only for a sum post-op.
        if (t != dst || with_sum)
            DNNL_CHECK(add_reorder(to_plain[t], *user[t], plain_md[t], engine));
    }
    dst_back.reset();
    if (converted[dst])
        DNNL_CHECK(add_reorder(dst_back, plain_md[dst], dst_md_, engine));
    nested_bytes = matmul->scratchpad_size();
    for (const auto *p : {to_plain[src].get(), to_plain[wei].get(),
                 to_plain[bias].get(), to_plain[dst].get(), dst_back.get()})
        if (p) nested_bytes = std::max(nested_bytes, p->scratchpad_size());
    return dnnl_success;
}

status_t blocked_matmul_pd_t::init(engine_t *engine) {
    memory_desc_t *user[count] = {&src_md_, &weights_md_, &bias_md_, &dst_md_};
    for (int t = 0; t < count; ++t) {
        if (t == bias && !with_bias()) continue;
        const int fk = user[t]->format_kind;
        if (fk != dnnl_blocked && fk != dnnl_format_kind_any)
            return dnnl_unimplemented; // sparse, grouped, host scalars
    }
    if (has_runtime_dims_or_strides()) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    bool any = false;
    for (int t = 0; t < count; ++t) {
        if (t == bias && !with_bias()) continue;
        converted[t] = user[t]->format_desc.blocking.inner_nblks > 0;
        any = any || converted[t];
    }
    if (!any) return dnnl_unimplemented; // plain: the other implementations
    for (int t = 0; t < count; ++t)
        if (converted[t] && sub_byte_bits(user[t]->data_type)) {
            verbose_check("matmul", "blocked: 4-bit data in blocked layouts");
            return dnnl_unimplemented;
        }
    // The nested primitives run one after another, so their scratchpads
    // share the start of this one and the copies follow: a device buffer
    // cannot be offset, but offset0 can place the copies. Their sizes do
    // not depend on where the copies lie; the second build checks it.
    size_t nested = 0;
    DNNL_CHECK(build(engine, 0, nested));
    const size_t base = align64(nested);
    if (base != 0) {
        DNNL_CHECK(build(engine, base, nested));
        if (nested > base) return dnnl_unimplemented;
    }
    book_scratchpad(scratch_bytes);
    name_ = std::string("blocked:") + matmul->name();
    return dnnl_success;
}

status_t blocked_matmul_pd_t::make_primitive(
        std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<blocked_matmul_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(blocked_matmul_t));
    return dnnl_success;
}

status_t blocked_matmul_t::init(engine_t *engine) {
    const blocked_matmul_pd_t *pd = pd_();
    for (int t = 0; t < blocked_matmul_pd_t::count; ++t)
        if (pd->to_plain[t])
            DNNL_CHECK(pd->to_plain[t]->create_primitive(
                    to_plain_[t], engine, nullptr, true));
    DNNL_CHECK(pd->matmul->create_primitive(matmul_, engine, nullptr, true));
    if (pd->dst_back)
        DNNL_CHECK(pd->dst_back->create_primitive(
                dst_back_, engine, nullptr, true));
    return dnnl_success;
}

status_t blocked_matmul_t::create_resource(
        engine_t *engine, resource_mapper_t &mapper) const {
    for (const auto &p : to_plain_)
        if (p) DNNL_CHECK(p->create_resource(engine, mapper));
    DNNL_CHECK(matmul_->create_resource(engine, mapper));
    return dst_back_ ? dst_back_->create_resource(engine, mapper)
                     : dnnl_success;
}

status_t blocked_matmul_t::execute(const exec_ctx_t &ctx) const {
    using pd_t = blocked_matmul_pd_t;
    const pd_t *pd = pd_();
    void *scratch = ctx.scratchpad();
    if (pd->scratch_bytes != 0 && !scratch) {
        verbose_error("matmul", "blocked: the scratchpad is missing");
        return dnnl_invalid_arguments;
    }
    engine_t *engine = ctx.stream()->engine();
    // The copies: memories over the whole scratchpad, placed by offset0.
    std::unique_ptr<memory_t> copy[pd_t::count];
    memory_t *mem[pd_t::count];
    for (int t = 0; t < pd_t::count; ++t) {
        mem[t] = ctx.memory(pd_t::arg_of(t));
        if (!pd->converted[t]) continue;
        if (!mem[t]) {
            verbose_error("matmul", "blocked: argument %d is missing",
                    pd_t::arg_of(t));
            return dnnl_invalid_arguments;
        }
        std::unique_ptr<memory_storage_t> storage;
        DNNL_CHECK(engine->create_memory_storage(
                storage, scratch, pd->scratch_bytes));
        copy[t].reset(new memory_t(engine, pd->plain_md[t], std::move(storage)));
    }
    // Each nested primitive gets the scratchpad's start (build()).
    auto run = [&](const primitive_t &p, std::vector<exec_arg_t> args) {
        exec_ctx_t nctx(ctx.stream(), std::move(args));
        nctx.set_resources(ctx.resources());
        nctx.set_scratchpad(scratch);
        return p.execute(nctx);
    };
    for (int t = 0; t < pd_t::count; ++t)
        if (to_plain_[t])
            DNNL_CHECK(run(*to_plain_[t],
                    {{DNNL_ARG_FROM, mem[t]}, {DNNL_ARG_TO, copy[t].get()}}));

    std::vector<exec_arg_t> args;
    for (int t = 0; t < pd_t::count; ++t)
        if (pd->converted[t]) args.push_back({pd_t::arg_of(t), copy[t].get()});
    for (const exec_arg_t &a : ctx.args()) {
        bool replaced = a.arg == DNNL_ARG_SCRATCHPAD;
        for (int t = 0; t < pd_t::count; ++t)
            replaced = replaced
                    || (pd->converted[t] && a.arg == pd_t::arg_of(t));
        if (!replaced) args.push_back(a);
    }
    DNNL_CHECK(run(*matmul_, std::move(args)));
    if (!dst_back_) return dnnl_success;
    return run(*dst_back_,
            {{DNNL_ARG_FROM, copy[pd_t::dst].get()},
                    {DNNL_ARG_TO, mem[pd_t::dst]}});
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
