// Binary primitive reference; see binary_ref.hpp.
#include "reference/binary_ref.hpp"

#include <algorithm>

#include "reference/eltwise_ref.hpp"

namespace binary_ref {

std::vector<int64_t> broadcast_dims(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
    std::vector<int64_t> d(a.size());
    for (size_t i = 0; i < a.size(); ++i)
        d[i] = std::max(a[i], b[i]);
    return d;
}

int64_t src_offset(const std::vector<int64_t> &dims, const int64_t *pos) {
    int64_t off = 0;
    for (size_t d = 0; d < dims.size(); ++d)
        off = off * dims[d] + (dims[d] == 1 ? 0 : pos[d]);
    return off;
}

namespace {
template <typename F>
void for_each(const std::vector<int64_t> &dims, F f) {
    int64_t n = 1;
    for (auto v : dims)
        n *= v;
    std::vector<int64_t> pos(dims.size(), 0);
    for (int64_t i = 0; i < n; ++i) {
        f(i, pos.data());
        for (int d = (int)dims.size() - 1; d >= 0; --d) {
            if (++pos[d] < dims[d]) break;
            pos[d] = 0;
        }
    }
}
} // namespace

void compute(dnnl_alg_kind_t alg, const std::vector<int64_t> &src0_dims, const float *src0,
        const std::vector<int64_t> &src1_dims, const float *src1,
        const std::vector<int64_t> &dst_dims, double *dst, double scale0, double scale1) {
    for_each(dst_dims, [&](int64_t i, const int64_t *pos) {
        const double a = scale0 * src0[src_offset(src0_dims, pos)];
        const double b = scale1 * src1[src_offset(src1_dims, pos)];
        dst[i] = eltwise_ref::binary(alg, a, b);
    });
}

void select(const std::vector<int64_t> &src0_dims, const float *src0,
        const std::vector<int64_t> &src1_dims, const float *src1,
        const std::vector<int64_t> &cond_dims, const float *cond,
        const std::vector<int64_t> &dst_dims, double *dst) {
    for_each(dst_dims, [&](int64_t i, const int64_t *pos) {
        dst[i] = cond[src_offset(cond_dims, pos)] != 0 ? src0[src_offset(src0_dims, pos)]
                                                        : src1[src_offset(src1_dims, pos)];
    });
}

} // namespace binary_ref
