// Pre-packed inner product weight layouts (see ip_packed_weights.hpp).
#include "cpu/inner_product/ip_packed_weights.hpp"

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace inner_product {

namespace {
dim_t rnd_up(dim_t a, dim_t b) { return (a + b - 1) / b * b; }
} // namespace

status_t packed_f32_weights_md(
        memory_desc_t &md, const memory_desc_t &plain, int nr) {
    if (plain.format_kind != dnnl_blocked
            || plain.format_desc.blocking.inner_nblks != 0 || nr <= 0)
        return dnnl_unimplemented;
    memory_desc_t r = plain;
    auto &bk = r.format_desc.blocking;
    dim_t K = 1;
    for (int d = 1; d < r.ndims; ++d) {
        K *= r.dims[d];
        bk.strides[d] = plain.format_desc.blocking.strides[d] * nr;
    }
    bk.strides[0] = K * nr;
    bk.inner_nblks = 1;
    bk.inner_blks[0] = nr;
    bk.inner_idxs[0] = 0;
    r.padded_dims[0] = rnd_up(r.dims[0], nr);
    md = r;
    return dnnl_success;
}

status_t packed_s8_weights_md(
        memory_desc_t &md, const memory_desc_t &plain, int nr, dim_t &kpad) {
    if (plain.format_kind != dnnl_blocked || plain.ndims != 2
            || plain.format_desc.blocking.inner_nblks != 0 || nr <= 0)
        return dnnl_unimplemented;
    constexpr dim_t kblk = 64; // 16 quads
    memory_desc_t r = plain;
    auto &bk = r.format_desc.blocking;
    r.padded_dims[0] = rnd_up(r.dims[0], nr);
    r.padded_dims[1] = rnd_up(r.dims[1], kblk);
    bk.strides[0] = r.padded_dims[1] * nr;
    bk.strides[1] = kblk * nr;
    bk.inner_nblks = 3;
    bk.inner_blks[0] = kblk / 4;
    bk.inner_idxs[0] = 1;
    bk.inner_blks[1] = nr;
    bk.inner_idxs[1] = 0;
    bk.inner_blks[2] = 4;
    bk.inner_idxs[2] = 1;
    kpad = r.padded_dims[1];
    md = r;
    return dnnl_success;
}

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
