// dnnl-isa: base avx2 avx512_core
// Resampling row kernels, compiled once per ISA listed above
// (cmake/isa_sources.cmake); the table is resampling_kernel_table.cpp.

#include "cpu/resampling/resampling_kernels.hpp"
#include "cpu/isa_unit.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {
namespace {

void axpy(float *__restrict t, const float *__restrict s, float w, dim_t n,
        bool first) {
    if (first) {
        for (dim_t e = 0; e < n; ++e) t[e] = w * s[e];
    } else {
        for (dim_t e = 0; e < n; ++e) t[e] += w * s[e];
    }
}

// V as a compile-time constant for the channel blocks (16: one AVX-512
// vector per point, 8: one AVX2 vector), so no loop runs around a vector;
// NR source rows, unrolled.
template <int NR, dim_t VC>
void linear_vec_k(float *__restrict y, const float *const *rows,
        const float *wr, const dim_t *i0, const dim_t *i1, const float *w0,
        const float *w1, dim_t OW, dim_t Vr) {
    const dim_t V = VC ? VC : Vr;
    const float *__restrict r[NR];
    float c[NR];
    for (int q = 0; q < NR; ++q) r[q] = rows[q], c[q] = wr[q];
    for (dim_t k = 0; k < OW; ++k) {
        const dim_t o0 = i0[k] * V, o1 = i1[k] * V;
        const float a = w0[k], b = w1[k];
        float *__restrict o = y + k * V;
        for (dim_t v = 0; v < V; ++v) {
            float sum = c[0] * (a * r[0][o0 + v] + b * r[0][o1 + v]);
            for (int q = 1; q < NR; ++q)
                sum += c[q] * (a * r[q][o0 + v] + b * r[q][o1 + v]);
            o[v] = sum;
        }
    }
}

template <int NR>
void linear_vec_v(float *y, const float *const *rows, const float *wr,
        const dim_t *i0, const dim_t *i1, const float *w0, const float *w1,
        dim_t OW, dim_t V) {
    if (V == 16)
        return linear_vec_k<NR, 16>(y, rows, wr, i0, i1, w0, w1, OW, V);
    if (V == 8) return linear_vec_k<NR, 8>(y, rows, wr, i0, i1, w0, w1, OW, V);
    linear_vec_k<NR, 0>(y, rows, wr, i0, i1, w0, w1, OW, V);
}

void linear_vec(float *y, const float *const *rows, const float *wr, int nr,
        const dim_t *i0, const dim_t *i1, const float *w0, const float *w1,
        dim_t OW, dim_t V) {
    if (nr == 1) return linear_vec_v<1>(y, rows, wr, i0, i1, w0, w1, OW, V);
    if (nr == 2) return linear_vec_v<2>(y, rows, wr, i0, i1, w0, w1, OW, V);
    linear_vec_v<4>(y, rows, wr, i0, i1, w0, w1, OW, V);
}

template <dim_t VC>
void copy_vec_k(float *__restrict y, const float *__restrict s, const dim_t *i0,
        dim_t OW, dim_t Vr) {
    const dim_t V = VC ? VC : Vr;
    for (dim_t k = 0; k < OW; ++k) {
        const float *__restrict x = s + i0[k] * V;
        float *__restrict o = y + k * V;
        for (dim_t v = 0; v < V; ++v) o[v] = x[v];
    }
}

void copy_vec(float *y, const float *s, const dim_t *i0, dim_t OW, dim_t V) {
    if (V == 16) return copy_vec_k<16>(y, s, i0, OW, V);
    if (V == 8) return copy_vec_k<8>(y, s, i0, OW, V);
    copy_vec_k<0>(y, s, i0, OW, V);
}

void blend_row(float *__restrict y, const float *__restrict t, const dim_t *i0,
        const dim_t *i1, const float *w0, const float *w1, dim_t OW) {
    for (dim_t k = 0; k < OW; ++k) y[k] = w0[k] * t[i0[k]] + w1[k] * t[i1[k]];
}

void blend2_row(float *__restrict y, const float *__restrict t, dim_t IW) {
    const float a = 0.25f, b = 0.75f;
    y[0] = a * t[0] + b * t[0];
    for (dim_t i = 1; i < IW; ++i) {
        y[2 * i - 1] = b * t[i - 1] + a * t[i];
        y[2 * i] = a * t[i - 1] + b * t[i];
    }
    y[2 * IW - 1] = b * t[IW - 1] + a * t[IW - 1];
}

void copy_row(float *__restrict y, const float *__restrict s, const dim_t *i0,
        dim_t OW) {
    for (dim_t k = 0; k < OW; ++k) y[k] = s[i0[k]];
}

void dup2_row(float *__restrict y, const float *__restrict s, dim_t IW) {
    for (dim_t i = 0; i < IW; ++i) {
        y[2 * i] = s[i];
        y[2 * i + 1] = s[i];
    }
}

void copy_plane(float *__restrict y, const float *__restrict s, dim_t IW,
        const dim_t *hi0, dim_t OH, const dim_t *i0, dim_t OW, bool doubles) {
    for (dim_t h = 0; h < OH; ++h) {
        float *__restrict o = y + h * OW;
        if (h > 0 && hi0[h] == hi0[h - 1]) {
            // Upsampling along h: the row above again.
            for (dim_t k = 0; k < OW; ++k) o[k] = o[k - OW];
            continue;
        }
        const float *__restrict r = s + hi0[h] * IW;
        if (doubles)
            dup2_row(o, r, IW);
        else
            for (dim_t k = 0; k < OW; ++k) o[k] = r[i0[k]];
    }
}

void linear_plane(float *__restrict y, const float *__restrict s, dim_t IW,
        const dim_t *hi0, const dim_t *hi1, const float *hw0, const float *hw1,
        const int *hcnt, dim_t OH, const dim_t *i0, const dim_t *i1,
        const float *w0, const float *w1, dim_t OW, bool halves) {
    for (dim_t h = 0; h < OH; ++h) {
        const float *__restrict r0 = s + hi0[h] * IW;
        const float *__restrict r1 = s + hi1[h] * IW;
        const float a = hw0[h], b = hw1[h];
        const bool two = hcnt[h] == 2;
        if (halves && IW <= 32) {
            // The row's blend along h first (as axpy), then blend2_row.
            float t[32];
            for (dim_t i = 0; i < IW; ++i) {
                t[i] = a * r0[i];
                if (two) t[i] += b * r1[i];
            }
            blend2_row(y + h * OW, t, IW);
            continue;
        }
        for (dim_t k = 0; k < OW; ++k) {
            float t0 = a * r0[i0[k]], t1 = a * r0[i1[k]];
            if (two) {
                t0 += b * r1[i0[k]];
                t1 += b * r1[i1[k]];
            }
            y[h * OW + k] = w0[k] * t0 + w1[k] * t1;
        }
    }
}

template <dim_t VC>
void inv_vec_k(float *__restrict y, const float *__restrict t,
        const dim_t *start, const dim_t *o, const float *w, dim_t IW,
        dim_t Vr) {
    const dim_t V = VC ? VC : Vr;
    for (dim_t i = 0; i < IW; ++i) {
        float *__restrict out = y + i * V;
        const dim_t e0 = start[i], e1 = start[i + 1];
        if (e0 == e1) {
            for (dim_t v = 0; v < V; ++v) out[v] = 0.f;
            continue;
        }
        const float *__restrict x = t + o[e0] * V;
        const float a = w[e0];
        for (dim_t v = 0; v < V; ++v) out[v] = a * x[v];
        for (dim_t e = e0 + 1; e < e1; ++e) {
            const float *__restrict xe = t + o[e] * V;
            const float b = w[e];
            for (dim_t v = 0; v < V; ++v) out[v] += b * xe[v];
        }
    }
}

void inv_vec(float *y, const float *t, const dim_t *start, const dim_t *o,
        const float *w, dim_t IW, dim_t V) {
    if (V == 16) return inv_vec_k<16>(y, t, start, o, w, IW, V);
    if (V == 8) return inv_vec_k<8>(y, t, start, o, w, IW, V);
    inv_vec_k<0>(y, t, start, o, w, IW, V);
}

void inv_row(float *__restrict y, const float *__restrict t, const dim_t *start,
        const dim_t *o, const float *w, dim_t IW) {
    for (dim_t i = 0; i < IW; ++i) {
        float v = 0.f;
        for (dim_t e = start[i]; e < start[i + 1]; ++e) v += w[e] * t[o[e]];
        y[i] = v;
    }
}

} // namespace

const kernel_table_t &DNNL_ISA_NAME(kernels)() {
    static const kernel_table_t table{isa_unit::this_isa_name, axpy, linear_vec,
            copy_vec, blend_row, copy_row, blend2_row, copy_plane, linear_plane,
            dup2_row, inv_vec, inv_row};
    return table;
}

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl
