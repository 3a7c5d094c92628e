// The generated BRGEMM microkernels: every tile shape (rows 1..tile,
// columns 1..panel, so every N tail) on every vector level this processor
// supports (whatever the library's ISA limit), batches of several A_i/B_i
// pairs, K with and without an unroll remainder, beta 0 and 1, bias and
// post-op chains (eltwise, sum, binary scalar / per column / full),
// against naive double-precision loops; nothing outside the tile is
// written; equal configurations give equal code; the kernel cache returns
// one kernel for one configuration. The bf16 entry (vdpbf16ps over k
// pairs) runs the same with f32 and bf16 C and bias, odd K included.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ext.h"

#include "cpu/jit/brgemm_kernel.hpp"
#include "reference/eltwise_ref.hpp"

using dnnl::impl::cpu::jit::brgemm_args_t;
using dnnl::impl::cpu::jit::brgemm_batch_t;
using dnnl::impl::cpu::jit::brgemm_bcast_t;
using dnnl::impl::cpu::jit::brgemm_fn;
using dnnl::impl::cpu::jit::brgemm_post_op_t;

const void *dnnl_test_brgemm_kernel(int entry, int m, int n, int b_vecs,
        int k_unroll, int beta, int bias, int c_dt, int bias_dt,
        const brgemm_post_op_t *po, int n_po, int through_cache, unsigned *isa,
        int *in_dt, int *panel, brgemm_fn *fn, const unsigned char **code,
        size_t *code_size);
void dnnl_test_brgemm_release(const void *handle);
bool dnnl_test_cpu_isa_entry_supported(unsigned isa);

namespace {

// C's and the bias's data types of a kernel (A and B: the entry's).
struct dts_t {
    dnnl_data_type_t c = dnnl_f32, bias = dnnl_f32;
};

struct kernel_t {
    const void *handle = nullptr;
    unsigned isa = 0;
    int in_dt = 0;
    int panel = 0;
    dts_t dts;
    brgemm_fn fn = nullptr;
    const unsigned char *code = nullptr;
    size_t size = 0;
    kernel_t(int entry, int m, int n, int k_unroll, int beta, bool bias,
            const std::vector<brgemm_post_op_t> &po = {}, bool cached = false,
            int b_vecs = 0, dts_t dts_ = {})
        : dts(dts_) {
        handle = dnnl_test_brgemm_kernel(entry, m, n, b_vecs, k_unroll, beta,
                bias, dts.c, dts.bias, po.data(), (int)po.size(), cached, &isa,
                &in_dt, &panel, &fn, &code, &size);
    }
    ~kernel_t() {
        if (handle) dnnl_test_brgemm_release(handle);
    }
    std::vector<unsigned char> bytes() const { return {code, code + size}; }
};

struct entry_t {
    int index, tile_m, panel;
    bool bf16; // bf16 inputs
    // C and bias types the entry takes: f32 entries f32 only, the bf16
    // one each of f32 and bf16.
    std::vector<dts_t> dts() const {
        if (!bf16) return {dts_t{}};
        return {{dnnl_f32, dnnl_f32}, {dnnl_bf16, dnnl_bf16},
                {dnnl_bf16, dnnl_f32}, {dnnl_f32, dnnl_bf16}};
    }
};

// Table entries this processor runs (AVX-512 BF16 6x64 with bf16 inputs;
// AVX-512 6x64, AVX2 4x24 with f32 ones).
std::vector<entry_t> runnable_entries() {
    std::vector<entry_t> v;
    for (int e = 0;; ++e) {
        kernel_t k(e, 1, 1, 1, 0, false);
        if (!k.handle) break;
        if (dnnl_test_cpu_isa_entry_supported(k.isa))
            v.push_back({e, k.panel == 64 ? 6 : 4, k.panel,
                    k.in_dt == (int)dnnl_bf16});
    }
    return v;
}

// bf16 <-> f32 (round to nearest even; the tests' values are finite).
uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
float from_bf16(uint16_t h) {
    const uint32_t u = (uint32_t)h << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
float round_bf16(float f) {
    return from_bf16(to_bf16(f));
}

std::vector<float> random_floats(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto &x : v) x = d(g);
    return v;
}

double binary_ref(dnnl_alg_kind_t alg, double x, double y) {
    switch (alg) {
    case dnnl_binary_add:
        return x + y;
    case dnnl_binary_sub:
        return x - y;
    case dnnl_binary_mul:
        return x * y;
    case dnnl_binary_div:
        return x / y;
    case dnnl_binary_max:
        return x > y ? x : y;
    default:
        return x < y ? x : y;
    }
}

// One problem: bs pairs of A (m x k, row stride lda) and B panels (k x
// panel), C of m x n inside a larger buffer with guards.
struct problem_t {
    int m, n, k, bs, panel;
    int beta = 0;
    bool bias = false;
    std::vector<brgemm_post_op_t> po;
};

constexpr float guard = 777.f;
// A bf16 NaN: what lies past A's rows and in B's padding k row must not
// reach C.
constexpr uint16_t bf16_nan = 0x7fc0;

// Runs the kernel on random data in its types and checks C against a
// double-precision product of the same (bf16-rounded) values.
void run_and_check(const kernel_t &ker, const problem_t &p, unsigned seed) {
    const bool bf16 = ker.in_dt == (int)dnnl_bf16;
    const bool c_bf16 = ker.dts.c == dnnl_bf16;
    const int lda = p.k + 3, ldc = p.n + 5, rows = p.m + 2;
    // Values as the kernel sees them (rounded to bf16 where it reads bf16).
    auto values = [&](size_t n, unsigned sd, bool round) {
        auto v = random_floats(n, sd);
        if (round)
            for (auto &x : v) x = round_bf16(x);
        return v;
    };
    std::vector<std::vector<float>> A(p.bs), B(p.bs);
    std::vector<std::vector<float>> Af(p.bs), Bf(p.bs);
    std::vector<std::vector<uint16_t>> Ah(p.bs), Bh(p.bs);
    std::vector<brgemm_batch_t> batch(p.bs);
    const int pairs = (p.k + 1) / 2;
    for (int i = 0; i < p.bs; ++i) {
        A[i] = values((size_t)p.m * lda + 1, seed + 2 * i, bf16);
        B[i] = values((size_t)p.k * p.panel + 1, seed + 2 * i + 1, bf16);
        if (!bf16) {
            batch[i] = {A[i].data(), B[i].data()};
            continue;
        }
        Ah[i].resize(A[i].size());
        for (size_t e = 0; e < A[i].size(); ++e) Ah[i][e] = to_bf16(A[i][e]);
        for (int r = 0; r < p.m; ++r) Ah[i][(size_t)r * lda + p.k] = bf16_nan;
        // k pairs: row q holds B[2q][j], B[2q + 1][j] side by side.
        Bh[i].assign((size_t)pairs * p.panel * 2 + 2, 0);
        for (int kk = 0; kk < 2 * pairs; ++kk)
            for (int j = 0; j < p.panel; ++j)
                Bh[i][((size_t)(kk / 2) * p.panel + j) * 2 + kk % 2] =
                        kk < p.k ? to_bf16(B[i][(size_t)kk * p.panel + j])
                                 : bf16_nan;
        batch[i] = {reinterpret_cast<const float *>(Ah[i].data()),
                reinterpret_cast<const float *>(Bh[i].data())};
    }
    std::vector<float> C = values((size_t)rows * ldc, seed + 99, c_bf16);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < ldc; ++j)
            if (i >= p.m || j >= p.n) C[i * ldc + j] = guard;
    const std::vector<float> C0 = C;
    std::vector<uint16_t> Ch(C.size());
    for (size_t e = 0; e < C.size(); ++e) Ch[e] = to_bf16(C[e]);
    const uint16_t guard_h = to_bf16(guard);
    // beta with a bf16 C adds f32 partial sums (row stride ldc).
    const auto part = random_floats((size_t)p.m * ldc, seed + 98);
    const auto bias = values(p.n, seed + 7, ker.dts.bias == dnnl_bf16);
    std::vector<uint16_t> bias_h(bias.size());
    for (size_t e = 0; e < bias.size(); ++e) bias_h[e] = to_bf16(bias[e]);
    // Binary operands: scalar, per column (n), full (m x ldb).
    const int ldb = p.n + 2;
    std::vector<std::vector<float>> bin;
    brgemm_args_t a{};
    int nb = 0;
    for (const auto &q : p.po) {
        if (q.kind != brgemm_post_op_t::binary) continue;
        auto v = random_floats((size_t)p.m * ldb, seed + 11 + nb);
        for (auto &x : v)
            if (q.alg == dnnl_binary_div) x = 1.5f + x;
        bin.push_back(v);
        a.binary[nb] = bin.back().data();
        a.binary_ld[nb] = ldb * sizeof(float);
        ++nb;
    }
    a.batch = batch.data();
    a.bs = p.bs;
    a.k = p.k;
    a.lda = lda * (bf16 ? 2 : 4);
    a.c = c_bf16 ? reinterpret_cast<float *>(Ch.data()) : C.data();
    a.ldc = ldc * (c_bf16 ? 2 : 4);
    a.acc = part.data();
    a.ld_acc = ldc * sizeof(float);
    a.bias = !p.bias ? nullptr
             : ker.dts.bias == dnnl_bf16
                     ? reinterpret_cast<const float *>(bias_h.data())
                     : bias.data();
    ker.fn(&a);

    int errors = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < ldc; ++j) {
            const size_t e = (size_t)i * ldc + j;
            const float got = c_bf16 ? from_bf16(Ch[e]) : C[e];
            if (i >= p.m || j >= p.n) {
                const bool kept = c_bf16 ? Ch[e] == guard_h : got == guard;
                if (!kept && errors++ < 5)
                    ADD_FAILURE()
                            << "written outside the tile at " << i << "," << j;
                continue;
            }
            double acc = 0, mag = 0;
            for (int b = 0; b < p.bs; ++b)
                for (int kk = 0; kk < p.k; ++kk) {
                    const double t =
                            (double)A[b][i * lda + kk] * B[b][kk * p.panel + j];
                    acc += t;
                    mag += std::fabs(t);
                }
            const double old = C0[e];
            if (p.beta) acc += c_bf16 ? part[e] : old;
            if (p.bias) acc += bias[j];
            int bi = 0;
            for (const auto &q : p.po) {
                if (q.kind == brgemm_post_op_t::eltwise) {
                    acc = q.scale
                          * eltwise_ref::fwd(
                                  q.alg, (float)acc, q.alpha, q.beta);
                } else if (q.kind == brgemm_post_op_t::sum) {
                    acc += q.scale * old;
                } else {
                    const auto &v = bin[bi++];
                    const double y = q.bcast == brgemm_bcast_t::scalar ? v[0]
                                     : q.bcast == brgemm_bcast_t::per_n
                                             ? v[j]
                                             : v[i * ldb + j];
                    acc = binary_ref(q.alg, acc, y);
                }
            }
            // A bf16 C adds the final rounding (half an ulp: 2^-9).
            const double tol = 1e-5 * (mag + 4) + 3e-5 * std::fabs(acc)
                               + (c_bf16 ? std::ldexp(std::fabs(acc), -8) : 0.);
            if (!(std::fabs(got - acc) <= tol) && errors++ < 5)
                ADD_FAILURE()
                        << "isa " << ker.isa << " m " << p.m << " n " << p.n
                        << " k " << p.k << " bs " << p.bs << " at " << i << ","
                        << j << ": got " << got << " expected " << acc;
        }
}

brgemm_post_op_t eltwise(dnnl_alg_kind_t alg, float alpha = 0.f,
        float beta = 0.f, float scale = 1.f) {
    brgemm_post_op_t q;
    q.kind = brgemm_post_op_t::eltwise;
    q.alg = alg;
    q.alpha = alpha;
    q.beta = beta;
    q.scale = scale;
    return q;
}
brgemm_post_op_t sum(float scale) {
    brgemm_post_op_t q;
    q.kind = brgemm_post_op_t::sum;
    q.scale = scale;
    return q;
}
brgemm_post_op_t binary(dnnl_alg_kind_t alg, brgemm_bcast_t bc) {
    brgemm_post_op_t q;
    q.kind = brgemm_post_op_t::binary;
    q.alg = alg;
    q.bcast = bc;
    return q;
}

} // namespace

TEST(JitBrgemm, EveryTileShapeAndTail) {
    const auto entries = runnable_entries();
    if (entries.empty()) GTEST_SKIP() << "no AVX2 or AVX-512 here";
    for (const auto &e : entries)
        for (const dts_t &dt : e.dts())
            for (int m = 1; m <= e.tile_m; ++m)
                for (int n = 1; n <= e.panel; ++n) {
                    kernel_t k(e.index, m, n, 4, 0, false, {}, false, 0, dt);
                    ASSERT_NE(k.handle, nullptr) << "m " << m << " n " << n;
                    problem_t p{m, n, 7, 1, e.panel};
                    run_and_check(k, p, (unsigned)(m * 100 + n));
                }
}

// Tiles taller than the table's (up to 12 rows, every A base register)
// over narrow panels of one or two vectors a row, as the recurrent
// primitives' packed weights are, with beta, bias and a full binary
// operand (its rows are addressed like A's).
TEST(JitBrgemm, TallTilesOnNarrowPanels) {
    const auto entries = runnable_entries();
    if (entries.empty()) GTEST_SKIP() << "no AVX2 or AVX-512 here";
    for (const auto &e : entries) {
        const int lanes = e.panel == 64 ? 16 : 8;
        for (int vecs : {1, 2})
            for (int m = 1; m <= 12; ++m)
                for (int n : {vecs * lanes, vecs * lanes - 3}) {
                    if (n < 1) continue;
                    const std::vector<brgemm_post_op_t> po
                            = {binary(dnnl_binary_add, brgemm_bcast_t::full)};
                    kernel_t k(e.index, m, n, 4, 1, true, po, false, vecs);
                    if (m * vecs + vecs + 1 > (lanes == 16 ? 32 : 16)) {
                        EXPECT_EQ(k.handle, nullptr) << "m " << m;
                        continue;
                    }
                    ASSERT_NE(k.handle, nullptr) << "m " << m << " n " << n;
                    ASSERT_EQ(k.panel, vecs * lanes);
                    problem_t p{m, n, 9, 2, k.panel, 1, true, po};
                    run_and_check(k, p, (unsigned)(m * 31 + n));
                }
    }
}

// K of every remainder of the unroll (for bf16 in k pairs, odd K too).
TEST(JitBrgemm, BatchAndKRemainders) {
    for (const auto &e : runnable_entries())
        for (const dts_t &dt : e.dts())
            for (int unroll : {1, 3, 4, 8})
                for (int kk : {0, 1, 2, 3, 5, 16, 33})
                    for (int bs : {0, 1, 3}) {
                        kernel_t k(e.index, e.tile_m, e.panel - 3, unroll, 0,
                                false, {}, false, 0, dt);
                        ASSERT_NE(k.handle, nullptr);
                        problem_t p{e.tile_m, e.panel - 3, kk, bs, e.panel};
                        run_and_check(k, p, (unsigned)(kk * 10 + bs + unroll));
                    }
}

// beta 1 adds C (a bf16 C: the f32 partial sums beside it).
TEST(JitBrgemm, BetaOneAndBias) {
    for (const auto &e : runnable_entries())
        for (const dts_t &dt : e.dts())
            for (int m : {1, e.tile_m})
                for (int n : {5, e.panel})
                    for (int beta : {0, 1}) {
                        kernel_t k(
                                e.index, m, n, 4, beta, true, {}, false, 0, dt);
                        ASSERT_NE(k.handle, nullptr);
                        problem_t p{m, n, 19, 2, e.panel, beta, true};
                        run_and_check(k, p, (unsigned)(m + n + beta));
                    }
}

// Post-op chains in the epilogue, on full tiles and tails (on AVX2 the
// accumulators of a full tile go through the stack for the injector).
TEST(JitBrgemm, PostOpChains) {
    const std::vector<std::vector<brgemm_post_op_t>> chains = {
            {eltwise(dnnl_eltwise_relu)},
            {eltwise(dnnl_eltwise_gelu_tanh, 0.f, 0.f, 0.5f)},
            {sum(1.f)},
            {sum(0.25f), eltwise(dnnl_eltwise_tanh)},
            {binary(dnnl_binary_add, brgemm_bcast_t::per_n)},
            {binary(dnnl_binary_mul, brgemm_bcast_t::scalar)},
            {binary(dnnl_binary_sub, brgemm_bcast_t::full)},
            {binary(dnnl_binary_div, brgemm_bcast_t::full),
                    binary(dnnl_binary_max, brgemm_bcast_t::per_n),
                    binary(dnnl_binary_min, brgemm_bcast_t::scalar)},
            {sum(2.f), binary(dnnl_binary_add, brgemm_bcast_t::per_n),
                    eltwise(dnnl_eltwise_logistic),
                    binary(dnnl_binary_mul, brgemm_bcast_t::full),
                    eltwise(dnnl_eltwise_linear, 2.f, -1.f)},
    };
    for (const auto &e : runnable_entries())
        for (const dts_t &dt : e.dts())
            for (size_t c = 0; c < chains.size(); ++c)
                for (int m : {1, 3, e.tile_m})
                    for (int n : {1, 17, e.panel - 1, e.panel})
                        for (int bias : {0, 1}) {
                            kernel_t k(e.index, m, n, 4, 0, bias, chains[c],
                                    false, 0, dt);
                            ASSERT_NE(k.handle, nullptr) << "chain " << c;
                            problem_t p{m, n, 13, 2, e.panel, 0, bias != 0,
                                    chains[c]};
                            run_and_check(
                                    k, p, (unsigned)(c * 1000 + m * 70 + n));
                        }
}

TEST(JitBrgemm, UnsupportedConfigurationsAreDeclined) {
    const auto entries = runnable_entries();
    if (entries.empty()) GTEST_SKIP();
    const int e = entries[0].index;
    EXPECT_EQ(kernel_t(e, 13, 16, 4, 0, false).handle, nullptr); // rows
    EXPECT_EQ(kernel_t(e, 1, entries[0].panel + 1, 4, 0, false).handle,
            nullptr); // wider than a panel
    EXPECT_EQ(kernel_t(e, 1, 16, 4, 2, false).handle, nullptr); // beta
    EXPECT_EQ(kernel_t(e, 1, 16, 4, 0, false,
                      {eltwise(dnnl_eltwise_pow, 1.f, 1.5f)})
                      .handle,
            nullptr);
    EXPECT_EQ(kernel_t(e, 1, 16, 4, 0, false,
                      {binary(dnnl_binary_ge, brgemm_bcast_t::scalar)})
                      .handle,
            nullptr);
    // bf16 C or bias only where the inputs are bf16 (the entry that has
    // the conversions); no other types.
    for (const auto &x : entries) {
        const bool ok = x.bf16;
        EXPECT_EQ(kernel_t(x.index, 1, 16, 4, 0, true, {}, false, 0,
                          {dnnl_bf16, dnnl_f32})
                                  .handle
                          != nullptr,
                ok);
        EXPECT_EQ(kernel_t(x.index, 1, 16, 4, 0, true, {}, false, 0,
                          {dnnl_f32, dnnl_bf16})
                                  .handle
                          != nullptr,
                ok);
        EXPECT_EQ(kernel_t(x.index, 1, 16, 4, 0, true, {}, false, 0,
                          {dnnl_f16, dnnl_f32})
                          .handle,
                nullptr);
        EXPECT_EQ(kernel_t(x.index, 1, 16, 4, 0, true, {}, false, 0,
                          {dnnl_f32, dnnl_s32})
                          .handle,
                nullptr);
    }
}

TEST(JitBrgemm, EqualConfigurationsGiveEqualCode) {
    for (const auto &e : runnable_entries()) {
        const std::vector<brgemm_post_op_t> po = {
                eltwise(dnnl_eltwise_gelu_erf), sum(0.5f)};
        const int m = e.tile_m - 1, n = e.panel - 3;
        kernel_t a(e.index, m, n, 4, 0, true, po);
        kernel_t b(e.index, m, n, 4, 0, true, po);
        kernel_t c(e.index, m, n + 1, 4, 0, true, po);
        ASSERT_NE(a.code, b.code);
        EXPECT_EQ(a.bytes(), b.bytes());
        EXPECT_NE(a.bytes(), c.bytes());
        if (!e.bf16) continue;
        // C's and the bias's types are part of the code.
        const dts_t cb{dnnl_bf16, dnnl_f32}, bb{dnnl_f32, dnnl_bf16};
        kernel_t d(e.index, m, n, 4, 0, true, po, false, 0, cb);
        kernel_t f(e.index, m, n, 4, 0, true, po, false, 0, cb);
        kernel_t g(e.index, m, n, 4, 0, true, po, false, 0, bb);
        ASSERT_NE(d.handle, nullptr);
        ASSERT_NE(g.handle, nullptr);
        EXPECT_EQ(d.bytes(), f.bytes());
        EXPECT_NE(d.bytes(), a.bytes());
        EXPECT_NE(g.bytes(), a.bytes());
    }
}

TEST(JitBrgemm, KernelCacheReturnsOneKernelPerConfiguration) {
    for (const auto &e : runnable_entries()) {
        const std::vector<brgemm_post_op_t> po = {
                eltwise(dnnl_eltwise_relu, 0.125f)};
        dnnl_ext_kernel_cache_stats_t s0{}, s1{};
        ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&s0), dnnl_success);
        kernel_t a(e.index, 3, e.panel - 5, 4, 0, true, po, true);
        kernel_t b(e.index, 3, e.panel - 5, 4, 0, true, po, true);
        ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&s1), dnnl_success);
        ASSERT_NE(a.handle, nullptr);
        EXPECT_EQ(a.fn, b.fn);
        EXPECT_EQ(s1.hits, s0.hits + 1);
        EXPECT_EQ(s1.misses, s0.misses + 1);
        if (!e.bf16) continue;
        // Another C type is another kernel; the same one is served again.
        const dts_t cb{dnnl_bf16, dnnl_f32};
        kernel_t c(e.index, 3, e.panel - 5, 4, 0, true, po, true, 0, cb);
        kernel_t d(e.index, 3, e.panel - 5, 4, 0, true, po, true, 0, cb);
        dnnl_ext_kernel_cache_stats_t s2{};
        ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&s2), dnnl_success);
        ASSERT_NE(c.handle, nullptr);
        EXPECT_NE(c.fn, a.fn);
        EXPECT_EQ(c.fn, d.fn);
        EXPECT_EQ(s2.hits, s1.hits + 1);
        EXPECT_EQ(s2.misses, s1.misses + 1);
    }
}
