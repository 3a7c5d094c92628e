// Resampling row kernels on f32, one table per ISA (baseline, AVX2,
// AVX-512): the same loops (resampling_kernels.cpp) compiled per ISA
// so that the blends run at the widest vector width available. The
// drivers (resampling_fwd.cpp, resampling_bwd.cpp) walk the tensors and
// call one kernel per row (or per plane of short rows), never per
// element.
#pragma once

#include "common/c_types.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {

struct kernel_table_t {
    const char *isa_name;
    // t = w * s (first) or t += w * s over n floats: the blend of source
    // rows along d and h, and the backward accumulation.
    void (*axpy)(float *t, const float *s, float w, dim_t n, bool first);
    // Rows of OW points of V contiguous channels (nhwc: V = C, blocked:
    // V = block), linear: y[k] = sum over the nr (1, 2 or 4) source rows
    // of wr[r] * (w0[k] * row_r[i0[k]] + w1[k] * row_r[i1[k]]) per
    // V-vector. Fused, with no intermediate row, so that wide channels-last
    // rows need not pass through a buffer larger than L1.
    void (*linear_vec)(float *y, const float *const *rows, const float *wr,
            int nr, const dim_t *i0, const dim_t *i1, const float *w0,
            const float *w1, dim_t OW, dim_t V);
    // Nearest: y[k] = s[i0[k]] per V-vector.
    void (*copy_vec)(
            float *y, const float *s, const dim_t *i0, dim_t OW, dim_t V);
    // Plain rows (V = 1): the same on single values.
    void (*blend_row)(float *y, const float *t, const dim_t *i0,
            const dim_t *i1, const float *w0, const float *w1, dim_t OW);
    void (*copy_row)(float *y, const float *s, const dim_t *i0, dim_t OW);
    // blend_row for linear 2x along w (taps_t::halves): y[2i] = 0.25 *
    // t[i - 1] + 0.75 * t[i], y[2i + 1] = 0.75 * t[i] + 0.25 * t[i + 1],
    // indices clamped to [0, IW); shifted loads and unpacks instead of
    // the tables' gathers.
    void (*blend2_row)(float *y, const float *t, dim_t IW);
    // A plane of OH rows of OW points at once (short rows, where a call
    // per row cost more than the row), y dense, the source plane s with
    // rows IW apart: nearest y[h][k] = s[hi0[h] * IW + i0[k]] (a row
    // whose source row is the previous one's copied from it; `doubles`:
    // i0[k] = k / 2, taken by unpacks as dup2_row); linear the row
    // kernels' arithmetic per point (the hcnt[h] taps along h, as axpy,
    // then the blend along w, as blend_row; `halves`: taps_t::halves
    // along w, as blend2_row).
    void (*copy_plane)(float *y, const float *s, dim_t IW, const dim_t *hi0,
            dim_t OH, const dim_t *i0, dim_t OW, bool doubles);
    void (*linear_plane)(float *y, const float *s, dim_t IW, const dim_t *hi0,
            const dim_t *hi1, const float *hw0, const float *hw1,
            const int *hcnt, dim_t OH, const dim_t *i0, const dim_t *i1,
            const float *w0, const float *w1, dim_t OW, bool halves);
    // Nearest 2x along w (i0[k] = k / 2): y[2i] = y[2i + 1] = s[i], i < IW;
    // unpacks instead of the index table's gathers.
    void (*dup2_row)(float *y, const float *s, dim_t IW);
    // Backward along w, inverse taps (taps_t::start/o/w): y[i] = sum of
    // w[e] * t[o[e]] for e in [start[i], start[i + 1]), per V-vector or
    // single value; 0 where no output read source i.
    void (*inv_vec)(float *y, const float *t, const dim_t *start,
            const dim_t *o, const float *w, dim_t IW, dim_t V);
    void (*inv_row)(float *y, const float *t, const dim_t *start,
            const dim_t *o, const float *w, dim_t IW);
};

// One kernel set per ISA that resampling_kernels.cpp is compiled for, and
// the table of them, best first (cpu/isa_table.hpp), that a primitive
// descriptor picks from once (select_kernels: the first that may run).
const kernel_table_t &kernels_avx512_core();
const kernel_table_t &kernels_avx2();
const kernel_table_t &kernels_base();
const isa_table_t<kernel_table_t> &kernel_table();
const kernel_table_t &select_kernels();

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl
