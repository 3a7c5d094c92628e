// Operation descriptors: what a primitive computes, independent of how.
// Every kind lists its fields once (`visit`); hash, equality, the bytes of
// cache blob ids and the verbose line (through field_sink_t) derive from
// that list through op_desc_impl_t.
#pragma once

#include <memory>
#include <string>

#include "common/field_sink.hpp"
#include "common/memory_desc.hpp"
#include "common/utils.hpp"

namespace dnnl {
namespace impl {

struct op_desc_t {
    explicit op_desc_t(primitive_kind_t kind) : primitive_kind(kind) {}
    virtual ~op_desc_t() = default;
    primitive_kind_t primitive_kind;

    virtual size_t hash() const = 0;
    virtual bool equal(const op_desc_t &other) const = 0;
    virtual std::unique_ptr<op_desc_t> clone() const = 0;
    // Appends the kind and every field's bytes (cache blob ids).
    virtual void append_bytes(std::string &out) const = 0;
    // Bytes of the object (for the cache's footprint statistics).
    virtual size_t size() const = 0;
    // The memory descriptor field named `name` in the field list ("src",
    // "diff_dst", "weights", ...) as the user gave it; null when none
    // (verbose marks descriptors the user left `any`).
    virtual const memory_desc_t *field_md(const char *name) const = 0;
    // Hands every field of the list to `sink`, in list order.
    virtual void visit_fields(field_sink_t &sink) const = 0;
};

// CRTP helper: a descriptor type D with a `visit` list gets hash, equality
// and clone for free.
template <typename D>
struct op_desc_impl_t : public op_desc_t {
    explicit op_desc_impl_t(primitive_kind_t kind) : op_desc_t(kind) {}
    size_t hash() const override {
        return hash_combine((size_t)primitive_kind,
                hash_fields(static_cast<const D &>(*this)));
    }
    bool equal(const op_desc_t &other) const override {
        return other.primitive_kind == primitive_kind
                && equal_fields(static_cast<const D &>(*this),
                        static_cast<const D &>(other));
    }
    std::unique_ptr<op_desc_t> clone() const override {
        return std::unique_ptr<op_desc_t>(
                new D(static_cast<const D &>(*this)));
    }
    size_t size() const override { return sizeof(D); }
    void append_bytes(std::string &out) const override {
        field_bytes_t b {out};
        b.put(primitive_kind);
        static_cast<const D &>(*this).visit(b);
    }
    const memory_desc_t *field_md(const char *name) const override {
        md_field_finder_t f {name};
        static_cast<const D &>(*this).visit(f);
        return f.found;
    }
    void visit_fields(field_sink_t &sink) const override {
        field_sink_visitor_t v {sink};
        static_cast<const D &>(*this).visit(v);
    }
};

// Reorder (also used internally by other primitives).
struct reorder_desc_t : public op_desc_impl_t<reorder_desc_t> {
    reorder_desc_t() : op_desc_impl_t(dnnl_reorder) {}
    memory_desc_t src_md {};
    memory_desc_t dst_md {};
    engine_kind_t src_engine_kind = dnnl_cpu;
    engine_kind_t dst_engine_kind = dnnl_cpu;

    template <typename V>
    void visit(V &v) const {
        v("src", src_md);
        v("dst", dst_md);
        v("src_engine_kind", src_engine_kind);
        v("dst_engine_kind", dst_engine_kind);
    }
};

// Eltwise forward and backward.
struct eltwise_desc_t : public op_desc_impl_t<eltwise_desc_t> {
    eltwise_desc_t() : op_desc_impl_t(dnnl_eltwise) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    alg_kind_t alg_kind = dnnl_alg_kind_undef;
    memory_desc_t src_desc {};
    memory_desc_t dst_desc {};
    memory_desc_t diff_src_desc {};
    memory_desc_t diff_dst_desc {};
    float alpha = 0, beta = 0;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("alg_kind", alg_kind);
        v("src", src_desc);
        v("dst", dst_desc);
        v("diff_src", diff_src_desc);
        v("diff_dst", diff_dst_desc);
        v("alpha", alpha);
        v("beta", beta);
    }
};

} // namespace impl
} // namespace dnnl
