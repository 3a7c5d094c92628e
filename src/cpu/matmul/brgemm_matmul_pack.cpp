// Weights for the BRGEMM matmul (brgemm_matmul_pack.hpp): the panel
// layouts and the packers of plain weights.
#include "cpu/matmul/brgemm_matmul_pack.hpp"

#include <algorithm>
#include <cstring>

#include "common/float_convert.hpp"
#include "cpu/isa_table.hpp"
#include "cpu/matmul/gemm_matmul.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

const isa_table_t<pack_kernels_t> &pack_kernel_table() {
    static const isa_table_t<pack_kernels_t> table {
            {avx512_core, &pack_kernels_avx512_core()},
            {avx2, &pack_kernels_avx2()}};
    return table;
}

memory_desc_t brgemm_weights_md(const memory_desc_t &wei, dim_t panel) {
    const dim_t ks = 4 / (dim_t)data_type_size(wei.data_type);
    if (ks == 1) return panel_weights_md(wei, panel);
    memory_desc_t r = wei;
    const dim_t K = r.dims[0], N = r.dims[1];
    auto &bk = r.format_desc.blocking;
    r.padded_dims[0] = (K + ks - 1) / ks * ks;
    r.padded_dims[1] = (N + panel - 1) / panel * panel;
    bk.strides[0] = ks * panel;
    bk.strides[1] = r.padded_dims[0] * panel;
    bk.inner_nblks = 2;
    bk.inner_blks[0] = panel;
    bk.inner_idxs[0] = 1;
    bk.inner_blks[1] = ks;
    bk.inner_idxs[1] = 0;
    return r;
}

namespace {

// Prefetches the row `ahead` rows on: the rows of plain weights are a
// page or more apart, and the hardware prefetchers do not follow them.
void prefetch_row(const void *row, dim_t bytes) {
    const char *c = static_cast<const char *>(row);
    for (dim_t b = 0; b < bytes; b += 64) __builtin_prefetch(c + b);
}
constexpr dim_t ahead = 16;

uint16_t bf16_bits(uint16_t x) {
    return x;
}
uint16_t bf16_bits(float x) {
    return f32_to_bf16(x);
}

// bf16: a row per pair of k, each column's two values adjacent (the
// second zero past an odd kn). T: bf16 weights (uint16_t), or f32 ones
// rounded to bf16 (fpmath_mode bf16).
template <typename T>
void pack_pairs(uint16_t *o, const T *w, const pack_src_t &s, dim_t kn) {
    const auto h = [](T x) -> uint32_t { return bf16_bits(x); };
    const dim_t wk = s.wk, wn = s.wn;
    for (dim_t k = 0; k < kn; k += 2) {
        const T *r0 = w + k * wk;
        if (wn == 1 && k + ahead + 1 < kn) {
            prefetch_row(r0 + ahead * wk, s.n * (dim_t)sizeof(T));
            prefetch_row(r0 + (ahead + 1) * wk, s.n * (dim_t)sizeof(T));
        }
        for (dim_t j0 = 0; j0 < s.n; j0 += s.panel) {
            uint32_t *row = reinterpret_cast<uint32_t *>(o)
                            + (j0 / s.panel) * (s.pstride / 2)
                            + (k / 2) * s.panel;
            const T *r = r0 + j0 * wn;
            const dim_t n = std::min(s.panel, s.n - j0);
            if (k + 1 == kn)
                for (dim_t j = 0; j < n; ++j) row[j] = h(r[j * wn]);
            else if (wn == 1)
                for (dim_t j = 0; j < n; ++j)
                    row[j] = h(r[j]) | h(r[j + wk]) << 16;
            else
                for (dim_t j = 0; j < n; ++j)
                    row[j] = h(r[j * wn]) | h(r[j * wn + wk]) << 16;
            for (dim_t j = n; j < s.panel; ++j) row[j] = 0;
        }
    }
}

} // namespace

namespace {

// The in-register kernels where an entry may run, else null. Picked once
// (the ISA limit is fixed by the first primitive).
const pack_kernels_t *simd_packers() {
    static const pack_kernels_t *k = isa_select(pack_kernel_table());
    return k;
}

} // namespace

void transpose_f32(const float *src, dim_t lds, dim_t rows, dim_t cols,
        float *dst, dim_t ldd) {
    if (const pack_kernels_t *k = simd_packers())
        return k->transpose_f32(src, lds, rows, cols, dst, ldd);
    for (dim_t i = 0; i < rows; ++i)
        for (dim_t j = 0; j < cols; ++j)
            dst[j * ldd + i] = src[i * lds + j];
}

// Rows [0, kn) of the weights at w as panel rows in `o`, columns past n
// zero. f32: a row per k.
void pack_f32(float *o, const float *w, const pack_src_t &s, dim_t kn) {
    if (s.wk == 1 && s.wn != 1) {
        const pack_kernels_t *k = simd_packers();
        if (k && k->pack_f32_k_contiguous(o, w, s, kn)) return;
    }
    for (dim_t k = 0; k < kn; ++k) {
        const float *r = w + k * s.wk;
        if (s.wn == 1 && k + ahead < kn)
            prefetch_row(r + ahead * s.wk, s.n * (dim_t)sizeof(float));
        for (dim_t j0 = 0; j0 < s.n; j0 += s.panel) {
            float *row = o + (j0 / s.panel) * s.pstride + k * s.panel;
            const dim_t n = std::min(s.panel, s.n - j0);
            if (s.wn == 1)
                std::memcpy(row, r + j0, n * sizeof(float));
            else
                for (dim_t j = 0; j < n; ++j) row[j] = r[(j0 + j) * s.wn];
            for (dim_t j = n; j < s.panel; ++j) row[j] = 0.f;
        }
    }
}

void pack_bf16(uint16_t *o, const uint16_t *w, const pack_src_t &s, dim_t kn) {
    pack_pairs(o, w, s, kn);
}

void pack_bf16(uint16_t *o, const float *w, const pack_src_t &s, dim_t kn) {
    pack_pairs(o, w, s, kn);
}

// s8: a row per quad of k, each column's four values adjacent (zeros
// past kn).
void pack_s8(int8_t *o, const int8_t *w, const pack_src_t &s, dim_t kn) {
    const dim_t wk = s.wk, wn = s.wn;
    for (dim_t k = 0; k < kn; k += 4) {
        const int8_t *r0 = w + k * wk;
        if (wn == 1 && k + ahead + 3 < kn)
            for (int t = 0; t < 4; ++t)
                prefetch_row(r0 + (ahead + t) * wk, s.n);
        const dim_t kq = std::min<dim_t>(4, kn - k);
        for (dim_t j0 = 0; j0 < s.n; j0 += s.panel) {
            int8_t *row = o + (j0 / s.panel) * s.pstride + k * s.panel;
            const int8_t *r = r0 + j0 * wn;
            const dim_t n = std::min(s.panel, s.n - j0);
            if (kq == 4 && wn == 1)
                for (dim_t j = 0; j < n; ++j)
                    for (int t = 0; t < 4; ++t) row[j * 4 + t] = r[j + t * wk];
            else
                for (dim_t j = 0; j < n; ++j)
                    for (int t = 0; t < 4; ++t)
                        row[j * 4 + t] = t < kq ? r[j * wn + t * wk] : 0;
            std::memset(row + n * 4, 0, (size_t)(s.panel - n) * 4);
        }
    }
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
