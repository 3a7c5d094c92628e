// Dense copies of blocked tensors around a nested primitive (see
// dense_copies.hpp).
#include "cpu/dense_copies.hpp"

#include <algorithm>

#include "common/exec_ctx.hpp"
#include "common/memory.hpp"
#include "common/op_desc.hpp"
#include "common/stream.hpp"
#include "common/verbose.hpp"
#include "cpu/pooling/dense_io.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

void dense_copies_pd_t::add(int arg, const memory_desc_t &md, bool read,
        bool written, bool every_layout) {
    slot_t s;
    s.arg = arg;
    s.user = s.plain = md;
    s.converted = md.format_kind == dnnl_blocked
            && (md.format_desc.blocking.inner_nblks > 0
                    || (every_layout && !io::is_rowmajor_dense(md)));
    s.read = read;
    s.written = written;
    slots.push_back(s);
}

bool dense_copies_pd_t::any_converted() const {
    for (const auto &s : slots)
        if (s.converted) return true;
    return false;
}

status_t dense_copies_pd_t::place(size_t base) {
    size_t off = base;
    for (auto &s : slots) {
        if (!s.converted) continue;
        const memory_desc_t &u = s.user;
        DNNL_CHECK(md_init_by_strides(
                s.plain, u.ndims, u.dims, u.data_type, nullptr));
        s.plain.offset0 = (dim_t)(off / data_type_size(u.data_type));
        off += align64(md_size(s.plain));
    }
    bytes = off;
    return dnnl_success;
}

status_t dense_copies_pd_t::make_reorders(
        engine_t *engine, dnnl_scratchpad_mode_t mode, size_t &nested) {
    auto reorder = [&](std::shared_ptr<primitive_desc_t> &out,
                           const memory_desc_t &from, const memory_desc_t &to) {
        reorder_desc_t rd;
        rd.src_md = from;
        rd.dst_md = to;
        rd.src_engine_kind = rd.dst_engine_kind = engine->kind();
        primitive_attr_t a;
        a.scratchpad_mode = mode;
        DNNL_CHECK(create_nested_pd(out, rd, a, engine));
        nested = std::max(nested, out->scratchpad_size());
        return dnnl_success;
    };
    for (auto &s : slots) {
        s.in.reset();
        s.out.reset();
        if (!s.converted) continue;
        if (s.read) DNNL_CHECK(reorder(s.in, s.user, s.plain));
        if (s.written) DNNL_CHECK(reorder(s.out, s.plain, s.user));
    }
    return dnnl_success;
}

status_t dense_copies_t::init(const dense_copies_pd_t &pd, engine_t *engine) {
    in_.assign(pd.slots.size(), nullptr);
    out_.assign(pd.slots.size(), nullptr);
    for (size_t i = 0; i < pd.slots.size(); ++i) {
        const auto &s = pd.slots[i];
        if (s.in) DNNL_CHECK(s.in->create_primitive(in_[i], engine, nullptr, true));
        if (s.out)
            DNNL_CHECK(s.out->create_primitive(out_[i], engine, nullptr, true));
    }
    return dnnl_success;
}

status_t dense_copies_t::create_resource(
        engine_t *engine, resource_mapper_t &mapper) const {
    for (const auto *v : {&in_, &out_})
        for (const auto &p : *v)
            if (p) DNNL_CHECK(p->create_resource(engine, mapper));
    return dnnl_success;
}

status_t dense_copies_t::execute(const dense_copies_pd_t &pd,
        const exec_ctx_t &ctx, const primitive_t &nested,
        const char *who) const {
    void *scratch = ctx.scratchpad();
    if (pd.bytes != 0 && !scratch) {
        verbose_error(who, "blocked: the scratchpad is missing");
        return dnnl_invalid_arguments;
    }
    engine_t *engine = ctx.stream()->engine();
    // The copies: memories over the whole scratchpad, placed by offset0.
    const size_t n = pd.slots.size();
    std::vector<std::unique_ptr<memory_t>> copy(n);
    std::vector<memory_t *> user(n, nullptr);
    for (size_t i = 0; i < n; ++i) {
        const auto &s = pd.slots[i];
        if (!s.converted) continue;
        user[i] = ctx.memory(s.arg);
        if (!user[i]) {
            verbose_error(who, "blocked: argument %d is missing", s.arg);
            return dnnl_invalid_arguments;
        }
        std::unique_ptr<memory_storage_t> storage;
        DNNL_CHECK(engine->create_memory_storage(storage, scratch, pd.bytes));
        copy[i].reset(new memory_t(engine, s.plain, std::move(storage)));
    }
    // Each nested primitive gets the scratchpad's start.
    auto run = [&](const primitive_t &p, std::vector<exec_arg_t> args) {
        exec_ctx_t nctx(ctx.stream(), std::move(args));
        nctx.set_resources(ctx.resources());
        nctx.set_scratchpad(scratch);
        return p.execute(nctx);
    };
    for (size_t i = 0; i < n; ++i)
        if (in_[i])
            DNNL_CHECK(run(*in_[i],
                    {{DNNL_ARG_FROM, user[i]}, {DNNL_ARG_TO, copy[i].get()}}));
    std::vector<exec_arg_t> args;
    for (size_t i = 0; i < n; ++i)
        if (copy[i]) args.push_back({pd.slots[i].arg, copy[i].get()});
    for (const exec_arg_t &a : ctx.args()) {
        bool replaced = a.arg == DNNL_ARG_SCRATCHPAD;
        for (size_t i = 0; i < n; ++i)
            replaced = replaced || (copy[i] && a.arg == pd.slots[i].arg);
        if (!replaced) args.push_back(a);
    }
    DNNL_CHECK(run(nested, std::move(args)));
    for (size_t i = 0; i < n; ++i)
        if (out_[i])
            DNNL_CHECK(run(*out_[i],
                    {{DNNL_ARG_FROM, copy[i].get()}, {DNNL_ARG_TO, user[i]}}));
    return dnnl_success;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
