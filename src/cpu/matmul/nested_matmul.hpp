// The primitive half shared by matmul implementations that wrap one nested
// matmul (dropout, weight decompression): the nested primitive is created
// with the wrapper and its resources go into the wrapper's mapper; the
// wrapper only writes execute(). `pd_type` holds the nested descriptor in
// a `nested_pd` member.
#pragma once

#include <memory>

#include "common/primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

template <typename pd_type>
struct nested_matmul_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override {
        return pd_()->nested_pd->create_primitive(nested_, engine, nullptr, true);
    }
    status_t create_resource(engine_t *engine, resource_mapper_t &mapper) const override {
        return nested_->create_resource(engine, mapper);
    }

protected:
    const pd_type *pd_() const { return static_cast<const pd_type *>(pd()); }
    std::shared_ptr<primitive_t> nested_;
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
