// Loop nests of the tensor-wide OpenCL kernels (binary, sum, concat).
//
// A master descriptor gives the iteration space: its padded dims, a dim
// with one inner block split in two parts (C -> C/16 outer, 16 inner),
// the parts ordered by the master's strides, outermost first. Each tensor
// of the operation must address its elements linearly in that space,
// off = base + sum_p i_p * stride[p]: each of its dims either broadcasts
// (size 1, stride 0), is unblocked where the master has no padding, or is
// blocked exactly like the master. Parts contiguous for every tensor are
// merged, so tensors of one dense layout become a single part and a
// kernel finds every offset with one division per remaining part.
//
// Kernels get the nest by value (nest_args_t, twin of nest_t in
// ocl_nest.clh), so new shapes reuse the compiled program.
#pragma once

#include <cstdint>
#include <vector>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Parts a kernel takes (more stay with the offset-table path).
constexpr int nest_max_parts = 6;

struct nest_t {
    static constexpr int max_raw = 2 * max_ndims;
    int nparts = 0;
    dim_t extent[max_raw] = {}; // outermost first
    std::vector<dim_t> base;    // per tensor
    std::vector<dim_t> strides; // [t * max_raw + p]

    int ntensors() const { return (int)base.size(); }
    dim_t stride(int t, int p) const { return strides[t * max_raw + p]; }
    dim_t volume() const;
    // Stride of the innermost part (the elements a work-item runs over).
    dim_t inner_stride(int t) const { return stride(t, nparts - 1); }
    // Appends a tensor dense in the nest's own order, starting at 0 (an
    // accumulator that follows the iteration).
    void add_dense_tensor();
};

// Builds the nest of `master` for `tensors` (which may include the
// master); false when some tensor is not linear in it (other ndims,
// several blocks of one dim, padded offsets, other blocking or padding).
bool build_nest(nest_t &n, const memory_desc_t &master,
        const std::vector<const memory_desc_t *> &tensors);

// Largest vector width w in {max_w, max_w / 2, ..., 2} such that every
// tensor's innermost stride is 0 or 1 and, for stride 1, its base and
// every other stride are multiples of w (so w-element vectors stay
// aligned), and the innermost extent is a multiple of w; else 1.
int nest_vector_width(const nest_t &n, int max_w);

// True when every offset and index of the nest fits 31 bits (kernels
// then index with 32-bit arithmetic).
bool nest_fits_int32(const nest_t &n);

// Division of 31-bit numerators by `d` (1 <= d < 2^31) without a divide
// instruction: n / d == (mul_hi(n, magic) + n) >> shift in 32-bit
// unsigned arithmetic.
void int32_divider(int64_t d, int64_t &magic, int64_t &shift);

// Kernel argument twin of nest_t in ocl_nest.clh for `T` tensor slots.
template <int T>
struct nest_args_t {
    int64_t volume;
    int64_t nparts;
    int64_t extent[nest_max_parts];
    int64_t magic[nest_max_parts]; // int32_divider of each extent
    int64_t shift[nest_max_parts];
    int64_t base[T];
    int64_t stride[T][nest_max_parts];
};

// The arguments for tensors `which` of `n` (slot k gets tensor which[k];
// slots past which.size() stay zero). `n` has at most nest_max_parts.
template <int T>
nest_args_t<T> make_nest_args(const nest_t &n, const std::vector<int> &which) {
    nest_args_t<T> a = {};
    a.volume = n.volume();
    a.nparts = n.nparts;
    for (int p = 0; p < n.nparts; ++p) {
        a.extent[p] = n.extent[p];
        if (n.extent[p] >= 1 && n.extent[p] < ((int64_t)1 << 31))
            int32_divider(n.extent[p], a.magic[p], a.shift[p]);
    }
    for (size_t k = 0; k < which.size() && k < (size_t)T; ++k) {
        a.base[k] = n.base[which[k]];
        for (int p = 0; p < n.nparts; ++p)
            a.stride[k][p] = n.stride(which[k], p);
    }
    return a;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
