// The generated f32 BRGEMM microkernels: every tile shape (rows 1..tile,
// columns 1..panel, so every N tail) on every vector level this processor
// supports (whatever the library's ISA limit), batches of several A_i/B_i
// pairs, K with and without an unroll remainder, beta 0 and 1, bias and
// post-op chains (eltwise, sum, binary scalar / per column / full),
// against naive double-precision loops; nothing outside the tile is
// written; equal configurations give equal code; the kernel cache returns
// one kernel for one configuration.
#include <cmath>
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
        int k_unroll, int beta, int bias, const brgemm_post_op_t *po, int n_po,
        int through_cache, unsigned *isa, int *panel, brgemm_fn *fn,
        const unsigned char **code, size_t *code_size);
void dnnl_test_brgemm_release(const void *handle);
bool dnnl_test_cpu_isa_entry_supported(unsigned isa);

namespace {

struct kernel_t {
    const void *handle = nullptr;
    unsigned isa = 0;
    int panel = 0;
    brgemm_fn fn = nullptr;
    const unsigned char *code = nullptr;
    size_t size = 0;
    kernel_t(int entry, int m, int n, int k_unroll, int beta, bool bias,
            const std::vector<brgemm_post_op_t> &po = {}, bool cached = false,
            int b_vecs = 0) {
        handle = dnnl_test_brgemm_kernel(entry, m, n, b_vecs, k_unroll, beta,
                bias, po.data(), (int)po.size(), cached, &isa, &panel, &fn,
                &code, &size);
    }
    ~kernel_t() {
        if (handle) dnnl_test_brgemm_release(handle);
    }
    std::vector<unsigned char> bytes() const { return {code, code + size}; }
};

struct entry_t {
    int index, tile_m, panel;
};

// Table entries this processor runs (0: AVX-512 6x64, 1: AVX2 4x24).
std::vector<entry_t> runnable_entries() {
    std::vector<entry_t> v;
    for (int e = 0;; ++e) {
        kernel_t k(e, 1, 1, 1, 0, false);
        if (!k.handle) break;
        if (dnnl_test_cpu_isa_entry_supported(k.isa))
            v.push_back({e, k.panel == 64 ? 6 : 4, k.panel});
    }
    return v;
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

void run_and_check(const kernel_t &ker, const problem_t &p, unsigned seed) {
    const int lda = p.k + 3, ldc = p.n + 5, rows = p.m + 2;
    std::vector<std::vector<float>> A(p.bs), B(p.bs);
    std::vector<brgemm_batch_t> batch(p.bs);
    for (int i = 0; i < p.bs; ++i) {
        A[i] = random_floats((size_t)p.m * lda + 1, seed + 2 * i);
        B[i] = random_floats((size_t)p.k * p.panel + 1, seed + 2 * i + 1);
        batch[i] = {A[i].data(), B[i].data()};
    }
    std::vector<float> C = random_floats((size_t)rows * ldc, seed + 99);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < ldc; ++j)
            if (i >= p.m || j >= p.n) C[i * ldc + j] = guard;
    const std::vector<float> C0 = C;
    const auto bias = random_floats(p.n, seed + 7);
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
    a.lda = lda * sizeof(float);
    a.c = C.data();
    a.ldc = ldc * sizeof(float);
    a.bias = p.bias ? bias.data() : nullptr;
    ker.fn(&a);

    int errors = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < ldc; ++j) {
            const float got = C[i * ldc + j];
            if (i >= p.m || j >= p.n) {
                if (got != guard && errors++ < 5)
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
            const double old = C0[i * ldc + j];
            if (p.beta) acc += old;
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
            const double tol = 1e-5 * (mag + 4) + 3e-5 * std::fabs(acc);
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
        for (int m = 1; m <= e.tile_m; ++m)
            for (int n = 1; n <= e.panel; ++n) {
                kernel_t k(e.index, m, n, 4, 0, false);
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

TEST(JitBrgemm, BatchAndKRemainders) {
    for (const auto &e : runnable_entries())
        for (int unroll : {1, 3, 4, 8})
            for (int kk : {0, 1, 2, 5, 16, 33})
                for (int bs : {0, 1, 3}) {
                    kernel_t k(
                            e.index, e.tile_m, e.panel - 3, unroll, 0, false);
                    ASSERT_NE(k.handle, nullptr);
                    problem_t p{e.tile_m, e.panel - 3, kk, bs, e.panel};
                    run_and_check(k, p, (unsigned)(kk * 10 + bs + unroll));
                }
}

TEST(JitBrgemm, BetaOneAndBias) {
    for (const auto &e : runnable_entries())
        for (int m : {1, e.tile_m})
            for (int n : {5, e.panel})
                for (int beta : {0, 1}) {
                    kernel_t k(e.index, m, n, 4, beta, true);
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
        for (size_t c = 0; c < chains.size(); ++c)
            for (int m : {1, 3, e.tile_m})
                for (int n : {1, 17, e.panel - 1, e.panel})
                    for (int bias : {0, 1}) {
                        kernel_t k(e.index, m, n, 4, 0, bias, chains[c]);
                        ASSERT_NE(k.handle, nullptr) << "chain " << c;
                        problem_t p{
                                m, n, 13, 2, e.panel, 0, bias != 0, chains[c]};
                        run_and_check(k, p, (unsigned)(c * 1000 + m * 70 + n));
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
    }
}
