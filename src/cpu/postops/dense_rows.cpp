// Post-ops over dense row-major f32 tensors, row by row (dense_rows.hpp).
#include "cpu/postops/dense_rows.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace postops {

void apply_dense_row(const postops_t &p, const postops_args_t &a, float *v,
        const memory_desc_t &dst_md, dim_t row) {
    const int nd = dst_md.ndims;
    const dim_t len = dst_md.dims[nd - 1];
    dims_t pos = {};
    for (int d = nd - 2; d >= 0; --d) {
        pos[d] = row % dst_md.dims[d];
        row /= dst_md.dims[d];
    }
    apply(p, a, v, len, 1, len, pos, -1, nd - 1, nullptr, 0, 0);
}

void apply_dense(const postops_t &p, const postops_args_t &a, float *v,
        const memory_desc_t &dst_md) {
    if (p.empty() || dst_md.ndims == 0) return;
    const dim_t len = dst_md.dims[dst_md.ndims - 1];
    dim_t rows = 1;
    for (int d = 0; d < dst_md.ndims - 1; ++d)
        rows *= dst_md.dims[d];
    if (len == 0) return;
    parallel_chunks(rows * len > 16384 ? max_threads() : 1, rows, [&](int, dim_t r0, dim_t r1) {
        for (dim_t r = r0; r < r1; ++r) {
            apply_dense_row(p, a, v + r * len, dst_md, r);
        }
    });
}

} // namespace postops
} // namespace cpu
} // namespace impl
} // namespace dnnl
