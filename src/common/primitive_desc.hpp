// primitive_desc_t: one implementation's answer to "can you compute this
// operation with these attributes?" Immutable once created and shared
// between user handles and the primitive it creates (which the cache keeps),
// so it holds no engine.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "common/memory_desc.hpp"
#include "common/op_desc.hpp"
#include "common/primitive_attr.hpp"

namespace dnnl {
namespace impl {

struct primitive_t;

enum class arg_usage_t { unused, input, output };

struct primitive_desc_t {
    // `hint_fwd` (backward descriptors) contributes hint_mds().
    primitive_desc_t(const op_desc_t &op, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd = nullptr);
    virtual ~primitive_desc_t() = default;

    primitive_kind_t kind() const { return op_desc_->primitive_kind; }
    const op_desc_t *op_desc() const { return op_desc_.get(); }
    const primitive_attr_t *attr() const { return &attr_; }

    // Implementation name reported by impl_info_str and verbose.
    virtual const char *name() const = 0;
    // Position among the implementations valid for this operation (rfcs/02).
    int impl_id() const { return impl_id_; }
    void set_impl_id(int id) { impl_id_ = id; }

    // Descriptor of an execution argument (DNNL_ARG_*); null when unused.
    virtual const memory_desc_t *arg_md(int arg) const;
    virtual arg_usage_t arg_usage(int arg) const;
    // Whether this implementation applies the dropout attribute; the
    // implementation iterator skips those that do not when it is set.
    virtual bool handles_dropout() const { return false; }
    // Whether this implementation takes precomputed reductions (the
    // iterator skips the others when the attributes hold them).
    virtual bool handles_precomputed_reductions() const { return false; }
    // Whether this implementation applies binary select post-ops (a third
    // input per entry); the creators of implementation lists refuse the
    // others when the attributes hold one (see post_op_select.hpp).
    virtual bool handles_select_post_op() const { return false; }
    // Gives binary post-op tensors of layout `any` (src1, select's
    // condition) a layout once dst's is known, as oneDNN does: plain when
    // src1 has one non-unit dim, dst's layout otherwise. Called by the
    // creators of implementation lists before `init` (post_op_select.hpp),
    // with `dst_layout` standing for a dst still `any`; the request's
    // attributes stay the cache key (key_attr()).
    void resolve_post_op_layouts(const memory_desc_t *dst_layout = nullptr);
    // Whether some post-op tensor is `any` while dst is `any` too; then
    // `plain_dst` is dst's plain (row-major) layout, the creators' first
    // guess.
    bool post_op_layouts_wait_for_dst(memory_desc_t &plain_dst) const;
    // Whether the post-op tensors hold the layouts `dst` asks for.
    bool post_op_layouts_follow(const memory_desc_t &dst) const;
    // The attributes the request named (the cache key's).
    const primitive_attr_t &key_attr() const {
        return request_attr_ ? *request_attr_ : attr_;
    }
    // Answers dnnl_primitive_desc_query; the default handles common queries.
    virtual status_t query(query_t what, int index, void *result) const;

    // Memory descriptors that are not part of the operation but are part
    // of the cache key (backward hints, rfcs/02); see hint_mds_for().
    const std::vector<memory_desc_t> &hint_mds() const { return hint_mds_; }

    // Hash of what the cache key takes from this descriptor (kind, op,
    // attributes, hints); computed once, the descriptor being immutable.
    size_t key_content_hash() const;

    size_t scratchpad_size() const { return scratchpad_size_; }
    const memory_desc_t &scratchpad_md() const { return scratchpad_md_; }

    // Creates the primitive this descriptor describes, through the
    // primitive cache when it is enabled.
    // `nested`: asked for by another primitive's init (verbose only).
    status_t create_primitive(std::shared_ptr<primitive_t> &primitive,
            engine_t *engine, bool *cache_hit = nullptr,
            bool nested = false) const;
    // Makes a new (uninitialised) primitive object of this implementation.
    virtual status_t make_primitive(std::shared_ptr<primitive_t> &primitive) const
            = 0;

    std::shared_ptr<primitive_desc_t> shared_self() const {
        return self_.lock();
    }
    void set_self(const std::shared_ptr<primitive_desc_t> &self) { self_ = self; }

    // The verbose attribute field ("attr-scales:src0:0:f32"); the other
    // fields of the line come from the operation descriptor
    // (verbose_layout.hpp).
    std::string attr_str() const;

    // Bytes of the most derived object, set by the creator that knows its
    // type (for the cache's footprint statistics).
    size_t object_size() const { return object_size_; }
    void set_object_size(size_t bytes) { object_size_ = bytes; }

    // Index in the engine's implementation list (for next_impl).
    size_t impl_list_pos() const { return impl_list_pos_; }
    void set_impl_list_pos(size_t pos) { impl_list_pos_ = pos; }

protected:
    // Called by implementations once their scratchpad need is known.
    void book_scratchpad(size_t bytes);

    std::unique_ptr<op_desc_t> op_desc_;
    primitive_attr_t attr_;
    // The request's attributes when resolve_post_op_layouts changed attr_.
    std::shared_ptr<const primitive_attr_t> request_attr_;
    std::vector<memory_desc_t> hint_mds_;

private:
    int impl_id_ = 0;
    size_t impl_list_pos_ = 0;
    size_t object_size_ = sizeof(primitive_desc_t);
    size_t scratchpad_size_ = 0;
    memory_desc_t scratchpad_md_ = zero_md();
    std::weak_ptr<primitive_desc_t> self_;
    mutable std::atomic<size_t> key_content_hash_ {0}; // 0: not computed yet
};

// A descriptor for an operation another primitive runs inside itself
// (rfcs/01 "Nested Primitives"): the first implementation of the engine's
// list that accepts it, served from the cache when its primitive is cached
// (rfcs/02), exactly as for a user request.
status_t create_nested_pd(std::shared_ptr<primitive_desc_t> &pd,
        const op_desc_t &op, const primitive_attr_t &attr, engine_t *engine);

// The hint memory descriptors a backward descriptor of `op` takes from its
// forward hint: the one list both the descriptor and the cache lookup made
// before any implementation is tried use (rfcs/02). Pooling: the hint's
// src, dst and workspace; LRN: src and workspace; resampling: src and
// dst; shuffle: dst. Empty for other kinds and without a hint of the same
// kind.
std::vector<memory_desc_t> hint_mds_for(
        const op_desc_t &op, const primitive_desc_t *hint_fwd);

// One entry of an implementation list: tries to create a descriptor of its
// implementation; returns dnnl_unimplemented when it does not apply.
using pd_create_f = status_t (*)(primitive_desc_t **pd, const op_desc_t &op,
        const primitive_attr_t &attr, engine_t *engine,
        const primitive_desc_t *hint_fwd);

struct impl_list_item_t {
    pd_create_f create;
};

} // namespace impl
} // namespace dnnl
