// Row kernels shared by the batch, layer and group normalization CPU
// implementations: sums with float partial sums in 32 lanes over blocks of
// at most 1024 elements and double across blocks (about 5 ULP on a 4K
// element row instead of the ~sqrt(n) growth of one running float sum),
// per-channel accumulators, and the affine maps that produce dst and
// diff_src. One table per ISA (norm_kernels.cpp, compiled once per ISA).
#pragma once

#include "common/c_types.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace norm {

struct kernels_t {
    const char *isa;
    // sum x[i]
    double (*sum)(const float *x, dim_t n);
    // sum (x[i] - m)^2
    double (*sum_sq_dev)(const float *x, dim_t n, float m);
    // For `rows` rows of n floats ld apart: m[r] = the row's mean (0 when
    // rms), v[r] = its mean squared deviation from m[r]; the values of
    // sum() and sum_sq_dev() times inv_n, in one call for a block of rows
    // (short rows spent a third of their time calling and waiting for the
    // two kernels row by row).
    void (*row_stats)(const float *x, dim_t ld, dim_t n, int rows, bool rms,
            double inv_n, float *m, float *v);
    // s1 = sum g[i] * sc[i], s2 = sum g[i] * sc[i] * (x[i] - m); sc may be
    // null (all ones).
    void (*dot_dev)(const float *g, const float *sc, const float *x, dim_t n,
            float m, double *s1, double *s2);
    // y[i] = a * (x[i] - m) + b; y may be x.
    void (*affine)(
            const float *x, float *y, dim_t n, float m, float a, float b);
    // y[i] = a[i] * (x[i] - m[i]) + b[i]; y may be x.
    void (*affine_v)(const float *x, float *y, dim_t n, const float *m,
            const float *a, const float *b);
    // y[i] = (sc ? sc[i] : 1) * (x[i] - m) * inv + (sh ? sh[i] : 0); y may be
    // x.
    void (*norm_row)(const float *x, float *y, dim_t n, float m, float inv,
            const float *sc, const float *sh);
    // y[i] = a * (sc ? sc[i] : 1) * g[i] + b * (x[i] - m) + c; y may be g
    // or x. (x - m) rather than x keeps the result exact where x ~ m.
    void (*lin2)(const float *g, const float *x, float *y, dim_t n,
            const float *sc, float a, float m, float b, float c);
    // y[i] = a[i] * g[i] + b[i] * (x[i] - m[i]) + c[i]; y may be g or x.
    void (*lin2_v)(const float *g, const float *x, float *y, dim_t n,
            const float *a, const float *m, const float *b, const float *c);
    // acc[i] += x[i]
    void (*acc_add)(float *acc, const float *x, dim_t n);
    // acc[i] += (x[i] - m[i])^2
    void (*acc_sq_dev)(float *acc, const float *x, const float *m, dim_t n);
    // a1[i] += g[i], a2[i] += g[i] * (x[i] - m[i])
    void (*acc_dot_dev)(float *a1, float *a2, const float *g, const float *x,
            const float *m, dim_t n);
    // a1[i] += g[i] * (x[i] - m) * inv, a2[i] += g[i]
    void (*acc_dot_dev_s)(float *a1, float *a2, const float *g, const float *x,
            float m, float inv, dim_t n);
    // d[i] += f[i], f[i] = 0: moves float partial sums into double ones.
    void (*flush)(double *d, float *f, dim_t n);
};

// One kernel set per ISA that norm_kernels.cpp is compiled for, and
// the table of them, best first (cpu/isa_table.hpp), that a primitive
// descriptor picks from once (select_kernels: the first that may run).
const kernels_t &kernels_avx512_core();
const kernels_t &kernels_avx2();
const kernels_t &kernels_base();
const isa_table_t<kernels_t> &kernel_table();
const kernels_t &select_kernels();


// Float accumulators are flushed into double after this many rows.
constexpr int flush_rows = 32;

} // namespace norm
} // namespace cpu
} // namespace impl
} // namespace dnnl
