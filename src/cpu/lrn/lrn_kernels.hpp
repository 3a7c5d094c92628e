// LRN compute kernels on f32 tiles, one table per ISA (baseline, AVX2,
// AVX-512): the same loops (lrn_kernels.cpp) compiled per ISA so that
// the window sums and the power vectorise at the widest width available.
// Tiles come in two orientations:
//   cp: channels as rows, points contiguous  (x[c * ld + p]; nchw-like)
//   pc: points as rows of channel segments   (nhwc, nChw16c; see pc_view_t)
// and "within channel" works on one dense spatial plane (d, h, w) at a time.
#pragma once

#include <type_traits>

#include "common/c_types.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {

// How N^-beta is computed: exact shortcuts for the common betas keep the
// loops free of exp/log.
enum class pow_kind_t { b075, b1, b05, general };

struct params_t {
    dim_t lo = 0, hi = 0;   // window [i - lo, i + hi] per dimension
    float k = 1.f, a = 0.f; // N = k + a * (sum of squares), a = alpha / S
    float beta = 0.f;
    float c2 = 0.f; // backward: -2 * a * beta
    pow_kind_t pw = pow_kind_t::general;
};

// Points as rows, channels in segments of S (the pc kernels' `S`): the
// channels [s * S, s * S + S) of point pt are contiguous at
// p + pt * ld + off[s]. Channels-last rows have off[s] = s * S and
// ld = C; channel-blocked tensors (block B, a multiple of S) are used in
// place with ld = B and off[s] = (s * S / B) * SP * B + s * S % B, so
// nothing is copied into rows and back. The last segment may be short.
template <typename T>
struct pc_view_t {
    T *p = nullptr;
    dim_t ld = 0;
    const dim_t *off = nullptr;
    T *seg(dim_t pt, dim_t s) const { return p + pt * ld + off[s]; }
};
using pc_in_t = pc_view_t<const float>;
using pc_out_t = pc_view_t<float>;

struct kernel_table_t {
    const char *isa_name;
    // Forward: dst = x * N^-beta; ws (may be null) receives N.
    void (*across_fwd_cp)(const params_t &p, const float *x, dim_t ldx,
            float *dst, dim_t ldd, float *ws, dim_t ldw, dim_t C, dim_t P);
    // ws (may be null) as for cp; S: the segment length of the views.
    void (*across_fwd_pc)(const params_t &p, const pc_in_t &x,
            const pc_out_t &dst, const pc_out_t *ws, dim_t C, dim_t S, dim_t P,
            float *scratch);
    // Backward: ds = dd * N^-beta + c2 * x * (mirrored window sum of
    // dd * x * N^(-beta-1)); ws (may be null: recomputed) holds N.
    void (*across_bwd_cp)(const params_t &p, const float *x, dim_t ldx,
            const float *dd, dim_t lddd, const float *ws, dim_t ldw, float *ds,
            dim_t ldds, dim_t C, dim_t P, float *scratch);
    void (*across_bwd_pc)(const params_t &p, const pc_in_t &x,
            const pc_in_t &dd, const pc_in_t *ws, const pc_out_t &ds, dim_t C,
            dim_t S, dim_t P, float *scratch);
    // One dense plane of sp[0] x sp[1] x sp[2] points.
    void (*within_fwd)(const params_t &p, const float *x, float *dst, float *ws,
            const dim_t *sp, float *scratch);
    void (*within_bwd)(const params_t &p, const float *x, const float *dd,
            const float *ws, float *ds, const dim_t *sp, float *scratch);
};

// Scratch floats each kernel needs for a tile of C x P (across) or a plane
// of `sp` (within).
inline dim_t across_cp_bwd_scratch(dim_t C, dim_t P) {
    return 2 * C * P;
}
// Points per pass of the pc kernels (see lrn_kernels.cpp).
constexpr dim_t pc_chunk_fwd = 16, pc_chunk_bwd = 4;
inline dim_t pc_row(const params_t &p, dim_t C) {
    return (C + p.lo + p.hi + 31) / 16 * 16;
}
inline dim_t across_pc_scratch(const params_t &p, dim_t C) {
    const dim_t fwd = 2 * pc_chunk_fwd, bwd = 5 * pc_chunk_bwd;
    return (fwd > bwd ? fwd : bwd) * pc_row(p, C);
}
inline dim_t within_scratch(const params_t &p, const dim_t *sp) {
    const dim_t n = sp[0] * sp[1] * sp[2];
    dim_t row = sp[0];
    if (sp[1] > row) row = sp[1];
    if (sp[2] > row) row = sp[2];
    return 5 * n + row + p.lo + p.hi + 16;
}

// One kernel set per ISA that lrn_kernels.cpp is compiled for, and
// the table of them, best first (cpu/isa_table.hpp), that a primitive
// descriptor picks from once (select_kernels: the first that may run).
const kernel_table_t &kernels_avx512_core();
const kernel_table_t &kernels_avx2();
const kernel_table_t &kernels_base();
const isa_table_t<kernel_table_t> &kernel_table();
const kernel_table_t &select_kernels();

} // namespace lrn
} // namespace cpu
} // namespace impl
} // namespace dnnl
