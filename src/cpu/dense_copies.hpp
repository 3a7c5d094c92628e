// Dense row-major copies of a primitive's blocked tensors, for wrappers
// that run a nested primitive of the same kind on plain layouts (blocked
// matmul, inner product over padded blocked tensors): each converted
// argument gets a copy in the wrapper's scratchpad (placed by offset0, so
// one device buffer serves), read ones are reordered in before the nested
// primitive runs, written ones back after. The nested primitives run one
// after another, so their scratchpads share the start of the wrapper's and
// the copies follow. Every step is a primitive of the engine's own lists:
// the same code serves the cpu and the gpu engine.
#pragma once

#include <memory>
#include <vector>

#include "common/primitive.hpp"
#include "common/primitive_desc.hpp"
#include "common/utils.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

struct dense_copies_pd_t {
    struct slot_t {
        int arg = 0; // the execution argument
        memory_desc_t user {}; // the user's descriptor
        memory_desc_t plain {}; // the copy's (offset0 places it)
        bool converted = false; // false: the user's memory is used
        bool read = false, written = false;
        std::shared_ptr<primitive_desc_t> in, out; // reorders to / from it
    };
    std::vector<slot_t> slots;
    size_t bytes = 0; // the whole scratchpad: nested area, then copies

    // Adds a slot, converted when `md` has inner blocks (or, with
    // `every_layout`, whenever it is not dense row-major).
    void add(int arg, const memory_desc_t &md, bool read, bool written,
            bool every_layout = false);
    bool any_converted() const;

    // Places the copies and makes the reorders: `build_nested(nested)`
    // creates the nested primitive's descriptor over the slots' `plain`
    // descriptors and returns its scratchpad size. Called twice (the copies'
    // place changes their descriptors, not the sizes; the second call
    // checks it).
    template <typename F>
    status_t build(engine_t *engine, dnnl_scratchpad_mode_t mode,
            F build_nested) {
        size_t nested = 0;
        DNNL_CHECK(place(0));
        DNNL_CHECK(build_nested(nested));
        DNNL_CHECK(make_reorders(engine, mode, nested));
        const size_t base = align64(nested);
        if (base == 0) return dnnl_success;
        DNNL_CHECK(place(base));
        DNNL_CHECK(build_nested(nested));
        DNNL_CHECK(make_reorders(engine, mode, nested));
        return nested > base ? dnnl_unimplemented : dnnl_success;
    }

private:
    status_t place(size_t base);
    // Adds the reorders' scratchpads to `nested` (the largest counts).
    status_t make_reorders(
            engine_t *engine, dnnl_scratchpad_mode_t mode, size_t &nested);
};

struct dense_copies_t {
    status_t init(const dense_copies_pd_t &pd, engine_t *engine);
    status_t create_resource(engine_t *engine, resource_mapper_t &mapper) const;
    // The reorders in, `nested` with the copies in place of the users'
    // arguments, the reorders back. `who` names the primitive in errors.
    status_t execute(const dense_copies_pd_t &pd, const exec_ctx_t &ctx,
            const primitive_t &nested, const char *who) const;

private:
    std::vector<std::shared_ptr<primitive_t>> in_, out_;
};

// The primitive of a wrapper whose descriptor `pd_type` holds `copies`,
// the nested descriptor `nested` and the kind's name `kind_name` (for
// errors): the reorders and the nested primitive are made with it.
template <typename pd_type>
struct dense_copies_primitive_t : public primitive_t {
    using primitive_t::primitive_t;
    static status_t make(const pd_type &pd, std::shared_ptr<primitive_t> &p) {
        p = std::make_shared<dense_copies_primitive_t>(
                std::static_pointer_cast<const primitive_desc_t>(
                        pd.shared_self()));
        p->set_object_size(sizeof(dense_copies_primitive_t));
        return dnnl_success;
    }
    status_t init(engine_t *engine) override {
        DNNL_CHECK(copies_.init(pd_()->copies, engine));
        return pd_()->nested->create_primitive(nested_, engine, nullptr, true);
    }
    status_t create_resource(
            engine_t *engine, resource_mapper_t &mapper) const override {
        DNNL_CHECK(copies_.create_resource(engine, mapper));
        return nested_->create_resource(engine, mapper);
    }
    status_t execute(const exec_ctx_t &ctx) const override {
        return copies_.execute(pd_()->copies, ctx, *nested_, pd_type::kind_name);
    }

private:
    const pd_type *pd_() const { return static_cast<const pd_type *>(pd()); }
    dense_copies_t copies_;
    std::shared_ptr<primitive_t> nested_;
};

} // namespace cpu
} // namespace impl
} // namespace dnnl
