// Helpers shared by CPU implementations: a pd base that stores the
// implementation name and makes primitives of a given type, and the
// implementation-list entry for a pd type.
#pragma once

#include <new>

#include "common/post_op_select.hpp"
#include "common/primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

// pd_t of an implementation derives from cpu_pd_t<base_pd, primitive_type>
// and provides `status_t init(engine_t *)` and `static const char *impl_name()`.
template <typename base_pd_t, typename primitive_type>
struct cpu_pd_t : public base_pd_t {
    using base_pd_t::base_pd_t;
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override {
        auto self = this->shared_self();
        p = std::make_shared<primitive_type>(
                std::static_pointer_cast<const primitive_desc_t>(self));
        p->set_object_size(sizeof(primitive_type));
        return dnnl_success;
    }
};

// Generic creator for implementation lists: constructs pd_type from the
// operation and attributes, then lets it decide whether it applies.
template <typename pd_type, typename op_type>
status_t create_pd(primitive_desc_t **out, const op_desc_t &op,
        const primitive_attr_t &attr, engine_t *engine,
        const primitive_desc_t *hint_fwd) {
    if (op.primitive_kind != op_type().primitive_kind) return dnnl_invalid_arguments;
    pd_type *pd = nullptr;
    const status_t st = create_with_post_op_checks(pd,
            [&] {
                return new (std::nothrow)
                        pd_type(static_cast<const op_type &>(op), attr, hint_fwd);
            },
            attr, engine);
    if (st != dnnl_success) return st;
    pd->set_object_size(sizeof(pd_type));
    *out = pd;
    return dnnl_success;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
