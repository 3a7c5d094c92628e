// dnnl-isa: base avx2 avx512_core
// Normalization row kernels, compiled once per ISA listed above
// (cmake/isa_sources.cmake); the table is norm_kernel_table.cpp. The
// partial sums are sixteen-lane values of simd_v16.hpp (two of them for
// 32 lanes), which stay in registers on every ISA (2 zmm, 4 ymm or 8
// xmm); each lane adds the same values in the same order on every ISA.

#include "cpu/norm_kernels/norm_kernels.hpp"
#include "cpu/isa_unit.hpp"
#include "cpu/simd_v16.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace norm {
namespace {

constexpr dim_t block = 1024; // elements per float partial sum

__attribute__((always_inline)) inline double sum(const float *x, dim_t n) {
    double t = 0;
    for (dim_t b = 0; b < n; b += block) {
        const dim_t e = b + block < n ? b + block : n;
        v16_t a0 {}, a1 {}; // lanes 0-15 and 16-31 of 32 partial sums
        dim_t i = b;
        for (; i + 32 <= e; i += 32) {
            a0 += load16(x + i);
            a1 += load16(x + i + 16);
        }
        float r = 0;
        for (; i < e; ++i)
            r += x[i];
        t += (double)hsum16(a0 + a1) + r;
    }
    return t;
}

__attribute__((always_inline)) inline double sum_sq_dev(
        const float *x, dim_t n, float m) {
    double t = 0;
    for (dim_t b = 0; b < n; b += block) {
        const dim_t e = b + block < n ? b + block : n;
        v16_t a0 {}, a1 {};
        dim_t i = b;
        for (; i + 32 <= e; i += 32) {
            const v16_t d0 = load16(x + i) - m, d1 = load16(x + i + 16) - m;
            a0 += d0 * d0;
            a1 += d1 * d1;
        }
        float r = 0;
        for (; i < e; ++i)
            r += (x[i] - m) * (x[i] - m);
        t += (double)hsum16(a0 + a1) + r;
    }
    return t;
}

void row_stats(const float *x, dim_t ld, dim_t n, int rows, bool rms,
        double inv_n, float *m, float *v) {
    for (int r = 0; r < rows; ++r)
        m[r] = rms ? 0.f : (float)(sum(x + r * ld, n) * inv_n);
    for (int r = 0; r < rows; ++r)
        v[r] = (float)(sum_sq_dev(x + r * ld, n, m[r]) * inv_n);
}

void dot_dev(const float *g, const float *sc, const float *x, dim_t n, float m, double *s1,
        double *s2) {
    double t1 = 0, t2 = 0;
    for (dim_t b = 0; b < n; b += block) {
        const dim_t e = b + block < n ? b + block : n;
        v16_t a {}, c {};
        dim_t i = b;
        for (; i + 16 <= e; i += 16) {
            const v16_t gv = sc ? load16(g + i) * load16(sc + i) : load16(g + i);
            a += gv;
            c += gv * (load16(x + i) - m);
        }
        float r1 = 0, r2 = 0;
        for (; i < e; ++i) {
            const float gv = sc ? g[i] * sc[i] : g[i];
            r1 += gv;
            r2 += gv * (x[i] - m);
        }
        t1 += (double)hsum16(a) + r1;
        t2 += (double)hsum16(c) + r2;
    }
    *s1 = t1;
    *s2 = t2;
}

void affine(const float *x, float *y, dim_t n, float m, float a, float b) {
    for (dim_t i = 0; i < n; ++i)
        y[i] = a * (x[i] - m) + b;
}

void affine_v(const float *x, float *y, dim_t n, const float *m, const float *a,
        const float *b) {
    for (dim_t i = 0; i < n; ++i)
        y[i] = a[i] * (x[i] - m[i]) + b[i];
}

void norm_row(const float *x, float *y, dim_t n, float m, float inv, const float *sc,
        const float *sh) {
    if (sc && sh) {
        for (dim_t i = 0; i < n; ++i)
            y[i] = sc[i] * ((x[i] - m) * inv) + sh[i];
    } else if (sc) {
        for (dim_t i = 0; i < n; ++i)
            y[i] = sc[i] * ((x[i] - m) * inv);
    } else if (sh) {
        for (dim_t i = 0; i < n; ++i)
            y[i] = (x[i] - m) * inv + sh[i];
    } else {
        for (dim_t i = 0; i < n; ++i)
            y[i] = (x[i] - m) * inv;
    }
}

void lin2(const float *g, const float *x, float *y, dim_t n, const float *sc, float a,
        float m, float b, float c) {
    if (sc) {
        for (dim_t i = 0; i < n; ++i)
            y[i] = a * sc[i] * g[i] + b * (x[i] - m) + c;
    } else {
        for (dim_t i = 0; i < n; ++i)
            y[i] = a * g[i] + b * (x[i] - m) + c;
    }
}

void lin2_v(const float *g, const float *x, float *y, dim_t n, const float *a,
        const float *m, const float *b, const float *c) {
    for (dim_t i = 0; i < n; ++i)
        y[i] = a[i] * g[i] + b[i] * (x[i] - m[i]) + c[i];
}

void acc_add(float *acc, const float *x, dim_t n) {
    for (dim_t i = 0; i < n; ++i)
        acc[i] += x[i];
}

void acc_sq_dev(float *acc, const float *x, const float *m, dim_t n) {
    for (dim_t i = 0; i < n; ++i)
        acc[i] += (x[i] - m[i]) * (x[i] - m[i]);
}

void acc_dot_dev(
        float *a1, float *a2, const float *g, const float *x, const float *m, dim_t n) {
    for (dim_t i = 0; i < n; ++i) {
        a1[i] += g[i];
        a2[i] += g[i] * (x[i] - m[i]);
    }
}

void acc_dot_dev_s(float *a1, float *a2, const float *g, const float *x, float m,
        float inv, dim_t n) {
    for (dim_t i = 0; i < n; ++i) {
        a1[i] += g[i] * ((x[i] - m) * inv);
        a2[i] += g[i];
    }
}

void flush(double *d, float *f, dim_t n) {
    for (dim_t i = 0; i < n; ++i) {
        d[i] += f[i];
        f[i] = 0;
    }
}

constexpr kernels_t make_table(const char *isa) {
    return kernels_t{isa, sum, sum_sq_dev, row_stats, dot_dev, affine, affine_v,
            norm_row, lin2, lin2_v, acc_add, acc_sq_dev, acc_dot_dev,
            acc_dot_dev_s, flush};
}

} // namespace

const kernels_t &DNNL_ISA_NAME(kernels)() {
    static const kernels_t table = make_table(isa_unit::this_isa_name);
    return table;
}

} // namespace norm
} // namespace cpu
} // namespace impl
} // namespace dnnl
