// Short internal names for the C API's types, shared by the whole library.
#pragma once

#include <cstddef>
#include <cstdint>

#include "oneapi/dnnl/dnnl.h"

namespace dnnl {
namespace impl {

using status_t = dnnl_status_t;
using dim_t = dnnl_dim_t;
using dims_t = dnnl_dims_t;
using data_type_t = dnnl_data_type_t;
using format_kind_t = dnnl_format_kind_t;
using format_tag_t = dnnl_format_tag_t;
using prop_kind_t = dnnl_prop_kind_t;
using primitive_kind_t = dnnl_primitive_kind_t;
using alg_kind_t = dnnl_alg_kind_t;
using engine_kind_t = dnnl_engine_kind_t;
using query_t = dnnl_query_t;
using scratchpad_mode_t = dnnl_scratchpad_mode_t;
using fpmath_mode_t = dnnl_fpmath_mode_t;
using rounding_mode_t = dnnl_rounding_mode_t;

constexpr int max_ndims = DNNL_MAX_NDIMS;

// Internal names of the objects behind the C handles.
using engine_t = dnnl_engine;
using stream_t = dnnl_stream;
using memory_t = dnnl_memory;
using memory_desc_t = dnnl_memory_desc;
using primitive_attr_t = dnnl_primitive_attr;
using post_ops_t = dnnl_post_ops;
using primitive_desc_iface_t = dnnl_primitive_desc;
using primitive_iface_t = dnnl_primitive;

// Runtime (backend) an engine and its objects belong to.
enum class runtime_kind_t { none = 0, omp = 1, ocl = 2 };

// Returns from the enclosing function when `expr` is not dnnl_success.
#define DNNL_CHECK(expr) \
    do { \
        dnnl_status_t status_ = (expr); \
        if (status_ != dnnl_success) return status_; \
    } while (0)

} // namespace impl
} // namespace dnnl
