// C API: matmul primitive descriptor creation. Validates the shapes and
// attributes as oneDNN does (inconsistent requests: invalid_arguments;
// valid but unsupported ones: unimplemented), then walks the engine's
// implementation list.
#include "common/engine.hpp"
#include "common/matmul_pd.hpp"
#include "common/primitive_attr.hpp"
#include "common/primitive_iface.hpp"

using namespace dnnl::impl;

dnnl_status_t dnnl_matmul_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        const_dnnl_memory_desc_t src_desc, const_dnnl_memory_desc_t weights_desc,
        const_dnnl_memory_desc_t bias_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_primitive_attr_t attr) {
    if (!primitive_desc || !engine) return dnnl_invalid_arguments;
    // On the heap from the start: the handle keeps it without a copy.
    auto md = std::make_shared<matmul_desc_t>();
    DNNL_CHECK(matmul_desc_init(*md, src_desc, weights_desc, bias_desc, dst_desc));
    DNNL_CHECK(matmul_attr_check(*md, attr));
    return dnnl_primitive_desc::create(
            primitive_desc, std::move(md), attr, engine, nullptr);
}
