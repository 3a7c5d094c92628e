// The user-facing handles. dnnl_primitive_desc pairs a shared, engine-free
// primitive_desc_t with the user's engine and the state of the
// implementation iterator; dnnl_primitive pairs a shared primitive_t with
// its descriptor handle (which holds the engine) and per-handle resources.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/device_scratch.hpp"
#include "common/engine.hpp"
#include "common/primitive.hpp"

struct dnnl_primitive_desc {
    using status_t = dnnl::impl::status_t;

    // Walks the engine's implementation list from the start; fails with the
    // first error (or unimplemented) when no implementation applies.
    static status_t create(dnnl_primitive_desc **out,
            const dnnl::impl::op_desc_t &op, const dnnl::impl::primitive_attr_t *attr,
            dnnl::impl::engine_t *engine, const dnnl_primitive_desc *hint_fwd);
    // The same, taking over a heap descriptor (saves copying a large one).
    static status_t create(dnnl_primitive_desc **out,
            std::shared_ptr<const dnnl::impl::op_desc_t> op,
            const dnnl::impl::primitive_attr_t *attr,
            dnnl::impl::engine_t *engine, const dnnl_primitive_desc *hint_fwd);
    // A copy sharing the request and iterator state (cheap: shared parts;
    // dnnl_primitive_desc_clone and a primitive's descriptor handle).
    dnnl_primitive_desc(const dnnl_primitive_desc &) = default;

    // Moves to the next valid implementation; dnnl_last_impl_reached at
    // the end (the handle then keeps its current implementation).
    // Reorder, sum and concat descriptors end at once, as oneDNN's, unless
    // `every_kind` (our tests walk their lists through a test hook).
    status_t next_impl(bool every_kind = false);

    dnnl::impl::engine_t *engine() const { return engine_.get(); }
    const std::shared_ptr<dnnl::impl::primitive_desc_t> &impl() const {
        return pd_;
    }
    status_t query(dnnl::impl::query_t what, int index, void *result) const;
    status_t create_primitive(dnnl_primitive **out) const;

    // Reorders: the engines of the source and destination memories (the
    // descriptor's own engine is one of them); both default to engine().
    void set_reorder_engines(dnnl::impl::engine_t *src, dnnl::impl::engine_t *dst) {
        reorder_src_engine_ = dnnl::impl::engine_ref_t(src);
        reorder_dst_engine_ = dnnl::impl::engine_ref_t(dst);
    }

private:
    friend struct dnnl_primitive;
    dnnl_primitive_desc() = default;
    status_t find_from(size_t pos, int impl_id);

    dnnl::impl::engine_ref_t engine_;
    std::shared_ptr<dnnl::impl::primitive_desc_t> pd_;
    // Iterator state: what was asked, and where in the list we stand.
    std::shared_ptr<const dnnl::impl::op_desc_t> op_;
    std::shared_ptr<const dnnl::impl::primitive_attr_t> attr_;
    std::shared_ptr<const dnnl::impl::primitive_desc_t> hint_fwd_;
    std::vector<dnnl::impl::memory_desc_t> hint_mds_; // hint_mds_for(op_, hint)
    const dnnl::impl::impl_list_item_t *list_ = nullptr;
    dnnl::impl::engine_ref_t reorder_src_engine_;
    dnnl::impl::engine_ref_t reorder_dst_engine_;
    // The cache blob id (dnnl_query_cache_blob_id), made on first query;
    // the query hands out a pointer into it, so it lives with the handle.
    mutable std::shared_ptr<const std::string> blob_id_;
    const std::string &blob_id() const;
};

struct dnnl_primitive {
    using status_t = dnnl::impl::status_t;
    // A primitive made from `pd`: its descriptor handle is a copy of `pd`.
    dnnl_primitive(std::shared_ptr<dnnl::impl::primitive_t> p,
            const dnnl_primitive_desc &pd);
    ~dnnl_primitive();
    status_t init(); // per-handle resources

    const dnnl::impl::primitive_t *impl() const { return primitive_.get(); }
    const std::shared_ptr<dnnl::impl::primitive_t> &shared_impl() const {
        return primitive_;
    }
    const dnnl_primitive_desc *pd() const { return pd_.get(); }
    dnnl::impl::engine_t *engine() const { return pd_->engine(); }
    status_t execute(dnnl::impl::stream_t *stream, int nargs,
            const dnnl_exec_arg_t *args) const;

private:
    std::shared_ptr<dnnl::impl::primitive_t> primitive_;
    // Its engine reference is the primitive's (one reference to update,
    // the engine's count being shared by every thread using it).
    std::unique_ptr<dnnl_primitive_desc> pd_;
    dnnl::impl::resource_mapper_t resources_;
    // Library-owned scratchpads of executions on non-CPU engines, one per
    // stream, kept between executions.
    mutable dnnl::impl::device_scratch_cache_t device_scratch_;
};
