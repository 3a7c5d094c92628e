// The GEMM core's tables beyond the f32 microkernels (those are in
// test_kernel_tables.cpp), every entry this processor supports against
// naive loops (src/cpu/gemm/gemm_ukernels.hpp):
//   gemm_gemv   the small-M kernels, M = 1..4, B by rows (n) and by
//               columns (t), strided A, beta 0 and not; the n form over
//               bf16 inputs where an entry has it;
//   gemm_s32    int16 pairs into s32, full and partial tiles, overwrite and
//               accumulate, the extreme values;
//   gemm_bf16   bf16 pairs into f32 with alpha / beta;
//   gemm_s32c4  u8 x s8 quads into s32, one function per row count;
//   gemm_s32_small_m  up to four rows of 8-bit integers by B in n and t
//               form, unpacked, with the column sums of B;
//   gemm_pack_pairs  8-bit rows into the integer kernels' 16-bit pairs
//               of k, minus the zero point;
//   matmul_pack the BRGEMM matmul's in-register packer of K-contiguous
//               f32 weights into panels, and its transpose.
// Tiles are cut short in both directions, and nothing outside the m x n
// tile may change.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"
#include "cpu/matmul/brgemm_matmul_pack.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace gemm = dnnl::impl::cpu::gemm;
using kernel_table_glue::random_floats;
using kernel_table_glue::runnable_entries;

std::vector<int> random_ints(size_t n, int lo, int hi, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_int_distribution<int> d(lo, hi);
    std::vector<int> v(n);
    for (auto &x : v)
        x = d(g);
    return v;
}

uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fff + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

float from_bf16(uint16_t b) {
    const uint32_t u = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// (m, n) tiles of an MR x NR kernel: full, one short, a third, one.
std::vector<std::pair<dim_t, dim_t>> tiles(int mr, int nr) {
    return {{mr, nr}, {mr - 1, nr - 1}, {mr / 3 > 0 ? mr / 3 : 1, nr / 2 + 1},
            {1, nr}, {mr, 1}, {1, 1}};
}

} // namespace

// c(i, j) = alpha * sum_p a(i, p) b(p, j) + beta * c(i, j) for M = 1..4
// rows; n past every vector width and the 2048- and 4096-column chunks;
// k past the unroll by four.
TEST(KernelTables, GemmGemvOnEveryIsa) {
    const auto v = runnable_entries<gemm::f32_gemv_desc_t>("gemm_gemv");
    ASSERT_FALSE(v.empty());
    int idx = 0;
    for (const auto *e : v) {
        const std::string isa = "entry " + std::to_string(idx++);
        for (int M = 1; M <= 4; ++M)
            for (dim_t n : {1, 7, 33, 1029, 4100})
                for (dim_t k : {1, 6, 37})
                    for (float beta : {0.f, 0.5f}) {
                        const dim_t ldc = n + 3, ldb_n = n + 2, ldb_t = k + 1;
                        // A strided both ways for the n kernels (rows of
                        // stride a_rs, columns of stride 2); rows of lda for t.
                        const dim_t a_rs = 2 * k + 1, a_cs = 2, lda = k + 5;
                        const auto a = random_floats(
                                (size_t)(M * (a_rs + lda) + 2 * k), -1.f, 1.f,
                                31);
                        const auto bn = random_floats(
                                (size_t)(k * ldb_n), -1.f, 1.f, 32);
                        const auto bt = random_floats(
                                (size_t)(n * ldb_t), -1.f, 1.f, 33);
                        const auto c0 = random_floats(
                                (size_t)(M * ldc), -1.f, 1.f, 34);
                        auto cn = c0, ct = c0;
                        e->n[M - 1](n, k, 1.5f, a.data(), a_rs, a_cs,
                                bn.data(), ldb_n, beta, cn.data(), ldc);
                        e->t[M - 1](n, k, 1.5f, a.data(), lda, bt.data(),
                                ldb_t, beta, ct.data(), ldc);
                        const std::string what = isa + " M "
                                + std::to_string(M) + " n " + std::to_string(n)
                                + " k " + std::to_string(k) + " beta "
                                + std::to_string(beta);
                        for (int i = 0; i < M; ++i)
                            for (dim_t j = 0; j < ldc; ++j) {
                                const size_t o = (size_t)(i * ldc + j);
                                if (j >= n) {
                                    ASSERT_EQ(cn[o], c0[o]) << what;
                                    ASSERT_EQ(ct[o], c0[o]) << what;
                                    continue;
                                }
                                double sn = 0, st = 0;
                                for (dim_t p = 0; p < k; ++p) {
                                    sn += (double)a[(size_t)(i * a_rs
                                                  + p * a_cs)]
                                            * bn[(size_t)(p * ldb_n + j)];
                                    st += (double)a[(size_t)(i * lda + p)]
                                            * bt[(size_t)(j * ldb_t + p)];
                                }
                                const double tol = 1e-5 * (double)(k + 1);
                                ASSERT_NEAR(cn[o], 1.5 * sn + beta * c0[o],
                                        tol)
                                        << what << " (n) at " << i << "," << j;
                                ASSERT_NEAR(ct[o], 1.5 * st + beta * c0[o],
                                        tol)
                                        << what << " (t) at " << i << "," << j;
                            }
                        if (!e->bf16_n[M - 1]) continue;
                        // bf16 inputs: exact products of the rounded values.
                        std::vector<uint16_t> ah(a.size()), bh(bn.size());
                        for (size_t x = 0; x < a.size(); ++x)
                            ah[x] = to_bf16(a[x]);
                        for (size_t x = 0; x < bn.size(); ++x)
                            bh[x] = to_bf16(bn[x]);
                        auto ch = c0;
                        e->bf16_n[M - 1](n, k, 1.5f, ah.data(), a_rs, a_cs,
                                bh.data(), ldb_n, beta, ch.data(), ldc);
                        for (int i = 0; i < M; ++i)
                            for (dim_t j = 0; j < ldc; ++j) {
                                const size_t o = (size_t)(i * ldc + j);
                                if (j >= n) {
                                    ASSERT_EQ(ch[o], c0[o]) << what;
                                    continue;
                                }
                                double sh = 0;
                                for (dim_t p = 0; p < k; ++p)
                                    sh += (double)from_bf16(ah[(
                                                  size_t)(i * a_rs + p * a_cs)])
                                          * from_bf16(
                                                  bh[(size_t)(p * ldb_n + j)]);
                                ASSERT_NEAR(ch[o], 1.5 * sh + beta * c0[o],
                                        1e-5 * (double)(k + 1))
                                        << what << " (bf16) at " << i << ","
                                        << j;
                            }
                    }
    }
}

// int16 pairs: A panel a[(p * MR + i) * 2 + t], B panel b[(p * NR + j) * 2
// + t] for k index 2p + t. Random values and the extremes (-32768 squared
// twice is the one pair sum past int32: kept out, as the GEMM's callers
// keep it out).
TEST(KernelTables, GemmS32PairsOnEveryIsa) {
    const auto v = runnable_entries<gemm::s32_ukernel_desc_t>("gemm_s32");
    ASSERT_FALSE(v.empty());
    for (const auto *e : v) {
        const auto &d = *e;
        const dim_t kp = 19, ldc = d.nr + 3;
        for (int range = 0; range < 2; ++range) {
            const int lo = range ? -32767 : -300, hi = range ? 32767 : 300;
            const auto a = random_ints((size_t)(kp * d.mr * 2), lo, hi, 41);
            const auto b = random_ints((size_t)(kp * d.nr * 2), lo, hi, 42);
            std::vector<int16_t> a16(a.begin(), a.end()), b16(b.begin(), b.end());
            for (const auto &t : tiles(d.mr, d.nr))
                for (bool acc : {false, true}) {
                    const auto c0i = random_ints(
                            (size_t)(d.mr * ldc), -1000, 1000, 43);
                    std::vector<int32_t> c(c0i.begin(), c0i.end());
                    const auto c0 = c;
                    d.fn(kp, a16.data(), b16.data(), c.data(), ldc, t.first,
                            t.second, acc);
                    const std::string what = std::string(d.name) + " m "
                            + std::to_string(t.first) + " n "
                            + std::to_string(t.second) + " acc "
                            + std::to_string(acc) + " range "
                            + std::to_string(range);
                    for (dim_t i = 0; i < d.mr; ++i)
                        for (dim_t j = 0; j < ldc; ++j) {
                            const size_t o = (size_t)(i * ldc + j);
                            if (i >= t.first || j >= t.second) {
                                ASSERT_EQ(c[o], c0[o]) << what << " outside";
                                continue;
                            }
                            // Wrapping modulo 2^32, like the hardware.
                            uint32_t s = acc ? (uint32_t)c0[o] : 0u;
                            for (dim_t p = 0; p < kp; ++p)
                                for (int q = 0; q < 2; ++q)
                                    s += (uint32_t)(a16[(size_t)((p * d.mr + i)
                                                                   * 2
                                                           + q)]
                                            * b16[(size_t)((p * d.nr + j) * 2
                                                    + q)]);
                            ASSERT_EQ(c[o], (int32_t)s)
                                    << what << " at " << i << "," << j;
                        }
                }
        }
    }
}

// bf16 pairs into f32: c = alpha * A B + beta * c; with beta 0, c is not
// read (NaN there must not show).
TEST(KernelTables, GemmBf16PairsOnEveryIsa) {
    const auto v = runnable_entries<gemm::bf16_ukernel_desc_t>("gemm_bf16");
    if (v.empty()) GTEST_SKIP() << "no bf16 dot products here";
    for (const auto *e : v) {
        const auto &d = *e;
        const dim_t kp = 23, ldc = d.nr + 5;
        const auto af = random_floats((size_t)(kp * d.mr * 2), -1.f, 1.f, 44);
        const auto bf = random_floats((size_t)(kp * d.nr * 2), -1.f, 1.f, 45);
        std::vector<int16_t> a(af.size()), b(bf.size());
        for (size_t i = 0; i < a.size(); ++i)
            a[i] = (int16_t)to_bf16(af[i]);
        for (size_t i = 0; i < b.size(); ++i)
            b[i] = (int16_t)to_bf16(bf[i]);
        for (const auto &t : tiles(d.mr, d.nr))
            for (float beta : {0.f, 0.5f}) {
                auto c = random_floats((size_t)(d.mr * ldc), -1.f, 1.f, 46);
                if (beta == 0.f)
                    for (dim_t i = 0; i < t.first; ++i)
                        for (dim_t j = 0; j < t.second; ++j)
                            c[(size_t)(i * ldc + j)] = NAN;
                const auto c0 = c;
                d.fn(kp, a.data(), b.data(), c.data(), ldc, t.first, t.second,
                        1.5f, beta);
                const std::string what = std::string(d.name) + " m "
                        + std::to_string(t.first) + " n "
                        + std::to_string(t.second) + " beta "
                        + std::to_string(beta);
                for (dim_t i = 0; i < d.mr; ++i)
                    for (dim_t j = 0; j < ldc; ++j) {
                        const size_t o = (size_t)(i * ldc + j);
                        if (i >= t.first || j >= t.second) {
                            ASSERT_EQ(std::memcmp(&c[o], &c0[o], 4), 0)
                                    << what << " outside";
                            continue;
                        }
                        double s = 0;
                        for (dim_t p = 0; p < kp; ++p)
                            for (int q = 0; q < 2; ++q)
                                s += (double)from_bf16((uint16_t)a[(size_t)(
                                             (p * d.mr + i) * 2 + q)])
                                        * from_bf16((uint16_t)b[(size_t)(
                                                (p * d.nr + j) * 2 + q)]);
                        const double want
                                = 1.5 * s + (beta == 0.f ? 0.0 : beta * c0[o]);
                        ASSERT_NEAR(c[o], want, 1e-4)
                                << what << " at " << i << "," << j;
                    }
            }
    }
}

// u8 x s8 quads: A panel (u8) a[(q * MR + i) * 4 + t], B panel (s8)
// b[(q * NR + j) * 4 + t]; fn[m - 1] computes m rows of a full A panel.
TEST(KernelTables, GemmS32QuadsOnEveryIsa) {
    const auto v = runnable_entries<gemm::s32c4_ukernel_desc_t>("gemm_s32c4");
    if (v.empty()) GTEST_SKIP() << "no u8 x s8 dot products here";
    for (const auto *e : v) {
        const auto &d = *e;
        const dim_t kq = 29, ldc = d.nr + 3;
        const auto ai = random_ints((size_t)(kq * d.mr * 4), 0, 255, 47);
        const auto bi = random_ints((size_t)(kq * d.nr * 4), -128, 127, 48);
        std::vector<uint8_t> a(ai.begin(), ai.end());
        std::vector<int8_t> b(bi.begin(), bi.end());
        for (int m = 1; m <= d.mr; ++m)
            for (dim_t n : {(dim_t)d.nr, (dim_t)d.nr - 1, (dim_t)d.nr / 2 + 1,
                         (dim_t)1})
                for (bool acc : {false, true}) {
                    const auto c0i
                            = random_ints((size_t)(d.mr * ldc), -1000, 1000, 49);
                    std::vector<int32_t> c(c0i.begin(), c0i.end());
                    const auto c0 = c;
                    d.fn[m - 1](kq, a.data(), b.data(), c.data(), ldc, n, acc);
                    const std::string what = std::string(d.name) + " m "
                            + std::to_string(m) + " n " + std::to_string(n)
                            + " acc " + std::to_string(acc);
                    for (dim_t i = 0; i < d.mr; ++i)
                        for (dim_t j = 0; j < ldc; ++j) {
                            const size_t o = (size_t)(i * ldc + j);
                            if (i >= m || j >= n) {
                                ASSERT_EQ(c[o], c0[o]) << what << " outside";
                                continue;
                            }
                            int64_t s = acc ? c0[o] : 0;
                            for (dim_t q = 0; q < kq; ++q)
                                for (int t = 0; t < 4; ++t)
                                    s += (int64_t)a[(size_t)((q * d.mr + i) * 4
                                                 + t)]
                                            * b[(size_t)((q * d.nr + j) * 4
                                                    + t)];
                            ASSERT_EQ(c[o], (int32_t)s)
                                    << what << " at " << i << "," << j;
                        }
                }
    }
}

// Every (form, A type, B type) of the small-M integer kernels: exact
// int64 sums for M = 1..4, n past the vector widths and the n form's
// 64-column runs, k past the vector loops and across the int32 block
// (32768) with extreme values.
TEST(KernelTables, GemmS32SmallMOnEveryIsa) {
    const auto v = runnable_entries<gemm::s32_small_m_desc_t>("gemm_s32_small_m");
    ASSERT_FALSE(v.empty());
    int idx = 0;
    for (const auto *e : v) {
        const std::string isa = "entry " + std::to_string(idx++);
        for (int t_form = 0; t_form < 2; ++t_form)
            for (int as = 0; as < 2; ++as)
                for (int bs = 0; bs < 2; ++bs)
                    for (int M = 1; M <= 4; ++M)
                        for (const auto nk : std::vector<std::pair<dim_t, dim_t>> {
                                     {1, 1}, {7, 33}, {70, 100}, {130, 65},
                                     {3, 32770}}) {
                            const dim_t n = nk.first, k = nk.second;
                            const bool extreme = k > 32768;
                            const dim_t lda = k + 3, ldb = t_form ? k + 5 : n + 2;
                            const auto ra = random_ints((size_t)(M * lda),
                                    as ? -128 : 0, as ? 127 : 255, 41);
                            const auto rb = random_ints(
                                    (size_t)((t_form ? n : k) * ldb),
                                    bs ? -128 : 0, bs ? 127 : 255, 42);
                            std::vector<int8_t> a(ra.size()), b(rb.size());
                            for (size_t i = 0; i < a.size(); ++i)
                                a[i] = (int8_t)(extreme ? (as ? -128 : 255) : ra[i]);
                            for (size_t i = 0; i < b.size(); ++i)
                                b[i] = (int8_t)(extreme ? (bs ? -128 : 255) : rb[i]);
                            std::vector<int64_t> ab((size_t)(M * n), -1),
                                    bsum((size_t)n, -1);
                            e->fn[t_form][as][bs](M, n, k, a.data(), lda,
                                    b.data(), ldb, ab.data(), bsum.data());
                            auto av = [&](size_t i) {
                                return as ? (int64_t)a[i] : (int64_t)(uint8_t)a[i];
                            };
                            auto bv = [&](size_t i) {
                                return bs ? (int64_t)b[i] : (int64_t)(uint8_t)b[i];
                            };
                            const std::string what = isa + " form "
                                    + (t_form ? "t" : "n") + " a "
                                    + (as ? "s8" : "u8") + " b "
                                    + (bs ? "s8" : "u8") + " M "
                                    + std::to_string(M) + " n "
                                    + std::to_string(n) + " k "
                                    + std::to_string(k);
                            for (dim_t j = 0; j < n; ++j) {
                                int64_t sb = 0;
                                for (dim_t p = 0; p < k; ++p)
                                    sb += bv((size_t)(t_form ? j * ldb + p
                                                             : p * ldb + j));
                                ASSERT_EQ(bsum[(size_t)j], sb) << what;
                                for (int i = 0; i < M; ++i) {
                                    int64_t s = 0;
                                    for (dim_t p = 0; p < k; ++p)
                                        s += av((size_t)(i * lda + p))
                                                * bv((size_t)(t_form
                                                                ? j * ldb + p
                                                                : p * ldb + j));
                                    ASSERT_EQ(ab[(size_t)(i * n + j)], s)
                                            << what << " at " << i << "," << j;
                                }
                            }
                        }
    }
}

// The packer of weights stored N x K (K runs contiguous, rows wn apart)
// into panels of every width a BRGEMM kernel uses, with K and N tails:
// each panel row k < kn holds columns j < n and zeros up to the last
// panel's width; rows past kn and anything past the panels stay as they
// were. Panels that are not a whole number of the entry's blocks are
// refused without a write.
TEST(KernelTables, MatmulPackF32KContiguous) {
    namespace mm = dnnl::impl::cpu::matmul;
    const auto es = runnable_entries<mm::pack_kernels_t>("matmul_pack");
    if (es.empty()) GTEST_SKIP() << "no in-register packer on this processor";
    const dim_t panels[] = {8, 16, 24, 32, 48, 64};
    const dim_t shapes[][2] = {{1, 1}, {8, 8}, {16, 16}, {17, 5}, {40, 33},
            {7, 64}, {64, 100}, {3, 130}};
    for (const auto *e : es) {
        const dim_t block = std::string(e->isa).find("avx512") == 0 ? 16 : 8;
        for (const dim_t panel : panels)
            for (const auto &sh : shapes) {
                const dim_t kn = sh[0], n = sh[1], wn = kn + 3;
                const dim_t n_cols = (n + panel - 1) / panel * panel;
                const dim_t rows = kn + 2, pstride = rows * panel;
                const auto w = random_floats((size_t)(n * wn), -1.f, 1.f,
                        (unsigned)(kn * 131 + n));
                std::vector<float> o(
                        (size_t)(n_cols / panel * pstride + 7), 42.f);
                const mm::pack_src_t src {1, wn, n, panel, pstride};
                const bool done = e->pack_f32_k_contiguous(
                        o.data(), w.data(), src, kn);
                const std::string what = std::string(e->isa) + " panel "
                        + std::to_string(panel) + " " + std::to_string(kn)
                        + "x" + std::to_string(n);
                ASSERT_EQ(done, panel % block == 0) << what;
                for (size_t i = 0; i < o.size(); ++i) {
                    const dim_t p = (dim_t)i / pstride, r = (dim_t)i % pstride;
                    const dim_t k = r / panel, j = p * panel + r % panel;
                    float want = 42.f;
                    if (done && p < n_cols / panel && k < kn)
                        want = j < n ? w[(size_t)(j * wn + k)] : 0.f;
                    ASSERT_EQ(o[i], want) << what << " at " << i;
                }
            }
    }
}

// The transpose of each entry: blocks and both remainders, row strides
// past the extents; nothing outside the destination's extent written.
TEST(KernelTables, MatmulTransposeF32) {
    namespace mm = dnnl::impl::cpu::matmul;
    const auto es = runnable_entries<mm::pack_kernels_t>("matmul_pack");
    if (es.empty()) GTEST_SKIP() << "no in-register transpose on this processor";
    const dim_t shapes[][2] = {{1, 1}, {8, 8}, {16, 16}, {13, 70}, {3, 9},
            {37, 5}, {17, 33}};
    for (const auto *e : es)
        for (const auto &sh : shapes) {
            const dim_t rows = sh[0], cols = sh[1];
            const dim_t lds = cols + 3, ldd = rows + 5;
            const auto src = random_floats(
                    (size_t)(rows * lds), -1.f, 1.f, (unsigned)(rows * cols));
            std::vector<float> dst((size_t)(cols * ldd), 42.f);
            e->transpose_f32(src.data(), lds, rows, cols, dst.data(), ldd);
            for (dim_t c = 0; c < cols; ++c)
                for (dim_t r = 0; r < ldd; ++r)
                    ASSERT_EQ(dst[(size_t)(c * ldd + r)],
                            r < rows ? src[(size_t)(r * lds + c)] : 42.f)
                            << e->isa << " " << rows << "x" << cols;
        }
}

// Rows of u8 / s8 values into panels of 16-bit pairs of k minus the zero
// point: every panel width of the integer kernels (A: 4, 6, 12 rows; B:
// 8, 16, 32 columns), row and k tails (an odd kc's partner is 0, rows
// past nrows are 0), k shorter than one vector; nothing written past the
// panels.
TEST(KernelTables, GemmPackPairsOnEveryIsa) {
    const auto es = runnable_entries<gemm::pack_pairs_kernels_t>(
            "gemm_pack_pairs");
    if (es.empty()) GTEST_SKIP() << "no vectorised pair packer here";
    const int widths[] = {4, 6, 8, 12, 16, 32};
    const dim_t shapes[][2] = {{1, 1}, {6, 16}, {7, 33}, {13, 144},
            {40, 7}, {3, 64}, {17, 31}};
    for (const auto *e : es)
        for (bool is_signed : {false, true})
            for (int width : widths)
                for (const auto &sh : shapes) {
                    const dim_t nrows = sh[0], kc = sh[1], ld = kc + 5;
                    const int32_t zp = is_signed ? -3 : 128;
                    const auto v = random_ints((size_t)(nrows * ld),
                            is_signed ? -128 : 0, is_signed ? 127 : 255,
                            (unsigned)(nrows * 7 + kc));
                    std::vector<uint8_t> src(v.size());
                    for (size_t i = 0; i < v.size(); ++i)
                        src[i] = (uint8_t)v[i];
                    const dim_t kp = (kc + 1) / 2;
                    const dim_t npanels = (nrows + width - 1) / width;
                    const size_t size = (size_t)(npanels * width * kp * 2);
                    std::vector<int16_t> out(size + 9, 77);
                    e->rows(src.data(), is_signed, ld, nrows, kc, zp, width,
                            out.data());
                    const std::string what = std::string(e->isa)
                            + (is_signed ? " s8" : " u8") + " width "
                            + std::to_string(width) + " "
                            + std::to_string(nrows) + "x"
                            + std::to_string(kc);
                    for (size_t o = 0; o < out.size(); ++o) {
                        int want = 77;
                        if (o < size) {
                            const dim_t q = (dim_t)o / (width * kp * 2);
                            const dim_t in = (dim_t)o % (width * kp * 2);
                            const dim_t p = in / (width * 2);
                            const dim_t r = q * width + in / 2 % width;
                            const dim_t k = 2 * p + in % 2;
                            want = r < nrows && k < kc
                                    ? v[(size_t)(r * ld + k)] - zp
                                    : 0;
                        }
                        ASSERT_EQ(out[o], want) << what << " at " << o;
                    }
                }
}
