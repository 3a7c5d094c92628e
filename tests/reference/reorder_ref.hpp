// Naive reference of the reorder primitive: walks every logical position
// of a tensor, finds its element in the source and destination from a
// plain description of the layouts (outer strides plus inner blocks, the
// way oneDNN's blocked format is defined), and computes
//   dst = saturate(round((src_scale * (src - src_zp) + beta * dst_old)
//                        / dst_scale + dst_zp))
// in double precision. Written without any library code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace reorder_ref {

enum class dtype { f32, bf16, f16, s32, s8, u8, f8_e5m2, f8_e4m3, f64 };

size_t dtype_size(dtype dt);
bool is_int(dtype dt);

constexpr int max_dims = 12;

// A blocked layout: the element at logical position p (p[d] < padded[d])
// lives at offset0 + sum_d (q[d] * strides[d]) + inner offset, where q[d]
// is p[d] + padded_offsets[d] divided by the product of d's inner blocks
// and the inner offset is the row-major position inside the blocks.
struct layout_t {
    int ndims = 0;
    int64_t dims[max_dims] = {};
    int64_t padded[max_dims] = {};
    int64_t padded_offsets[max_dims] = {};
    int64_t offset0 = 0;
    int64_t strides[max_dims] = {};
    int nblks = 0;
    int64_t blks[max_dims] = {};
    int idxs[max_dims] = {};
};

// Element offset of a logical position (padding positions allowed).
int64_t offset(const layout_t &l, const int64_t *pos);

// Reads an element as a double.
double load(dtype dt, const void *base, int64_t off);
// The value a store of `v` produces (rounded to nearest even, integers
// saturated), as a double.
double round_to(dtype dt, double v);
// Writes round_to(dt, v).
void store(dtype dt, void *base, int64_t off, double v);

struct quant_t {
    std::vector<float> src_scales, dst_scales; // empty: 1
    int src_scale_mask = 0, dst_scale_mask = 0;
    std::vector<int32_t> src_zps, dst_zps; // empty: 0
    int src_zp_mask = 0, dst_zp_mask = 0;
    bool with_sum = false;
    float beta = 0.f;
};

// Index into a per-dimension quantization array of `mask` at `pos`
// (row-major over the dims in the mask).
int64_t quant_index(
        int mask, int ndims, const int64_t *dims, const int64_t *pos);

// Exact (double) result for one position, before the store's rounding.
// `old` is the destination's previous value (used with a sum).
double compute(const quant_t &q, int ndims, const int64_t *dims,
        const int64_t *pos, double src, double old);

// Full reorder into `dst` (padding positions of dst set to zero).
void reorder(const layout_t &sl, dtype sdt, const void *src, const layout_t &dl,
        dtype ddt, void *dst, const quant_t &q);

// Calls f(pos) for every logical position of dims (row-major order).
template <typename F>
void for_each_pos(int ndims, const int64_t *dims, F f) {
    int64_t total = 1;
    for (int d = 0; d < ndims; ++d) total *= dims[d];
    int64_t pos[max_dims] = {};
    for (int64_t i = 0; i < total; ++i) {
        f(pos);
        for (int d = ndims - 1; d >= 0; --d) {
            if (++pos[d] < dims[d]) break;
            pos[d] = 0;
        }
    }
}

} // namespace reorder_ref
