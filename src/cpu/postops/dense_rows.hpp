// The post-op chain over a dense row-major f32 tensor that has dst's dims
// (the f32 views of pooling and the normalizations, cpu/pooling/dense_io):
// one call of postops::apply per innermost row, the row's logical
// coordinates recovered from its index.
#pragma once

#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace postops {

// Row `row` (row-major index over every dim but the last) of `dst_md`'s
// dims; `v` holds its dims[ndims - 1] values. No sum: there is no old dst.
void apply_dense_row(const postops_t &p, const postops_args_t &a, float *v,
        const memory_desc_t &dst_md, dim_t row);

// Every row of the tensor `v`, rows spread over threads.
void apply_dense(const postops_t &p, const postops_args_t &a, float *v,
        const memory_desc_t &dst_md);

} // namespace postops
} // namespace cpu
} // namespace impl
} // namespace dnnl
