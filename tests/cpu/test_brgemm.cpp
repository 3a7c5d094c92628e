// The generated BRGEMM microkernels: every tile shape (rows 1..tile,
// columns 1..panel, so every N tail) on every vector level this processor
// supports (whatever the library's ISA limit), batches of several A_i/B_i
// pairs, K with and without an unroll remainder, beta 0 and 1, bias and
// post-op chains (eltwise, sum, binary scalar / per column / full),
// against naive double-precision loops; nothing outside the tile is
// written; equal configurations give equal code; the kernel cache returns
// one kernel for one configuration. The bf16 entry (vdpbf16ps over k
// pairs) runs the same with f32 and bf16 C and bias, odd K included; the
// u8 x s8 one (vpdpbusd over k quads) with f32 / s8 / u8 C, scales and
// every K % 4, and its unscaled s32 sums of K blocks; partial last steps
// read nothing past A.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bf16_glue.hpp"

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl_ext.h"

#include "cpu/jit/brgemm_test_hook.hpp"
#include "reference/eltwise_ref.hpp"

using dnnl::impl::cpu::jit::brgemm_args_t;
using dnnl::impl::cpu::jit::brgemm_batch_t;
using dnnl::impl::cpu::jit::brgemm_bcast_t;
using dnnl::impl::cpu::jit::brgemm_fn;
using dnnl::impl::cpu::jit::brgemm_post_op_t;


namespace {

// C's and the bias's data types of a kernel (A and B: the entry's), and
// for u8 x s8 how the sums are scaled (0 not, 1 common, 2 per column).
struct dts_t {
    dnnl_data_type_t c = dnnl_f32, bias = dnnl_f32;
    int scale = 0;
};

struct kernel_t {
    const void *handle = nullptr;
    unsigned isa = 0;
    int in_dt = 0;
    int panel = 0;
    int tile_m = 0;
    dts_t dts;
    bool a_kmajor = false; // A by columns (f32)
    brgemm_fn fn = nullptr;
    const unsigned char *code = nullptr;
    size_t size = 0;
    kernel_t(int entry, int m, int n, int k_unroll, int beta, bool bias,
            const std::vector<brgemm_post_op_t> &po = {}, bool cached = false,
            int b_vecs = 0, dts_t dts_ = {}, bool a_kmajor_ = false)
        : dts(dts_), a_kmajor(a_kmajor_) {
        handle = dnnl_test_brgemm_kernel(entry, m, n, b_vecs, k_unroll, beta,
                bias, dts.c, dts.bias, dts.scale, a_kmajor, po.data(),
                (int)po.size(),
                cached, &isa, &in_dt, &panel, &tile_m, &fn, &code, &size);
    }
    ~kernel_t() {
        if (handle) dnnl_test_brgemm_release(handle);
    }
    std::vector<unsigned char> bytes() const { return {code, code + size}; }
};

struct entry_t {
    int index, tile_m, panel;
    int lanes; // floats a vector: 16 on AVX-512, 8 on AVX2
    dnnl_data_type_t in; // inputs: f32, bf16, or u8 (u8 x s8)
    bool bf16 = false;
    bool amx = false; // tiles of up to 32 x 32 on AMX
    // C and bias types the entry takes: f32 entries f32 only, the bf16
    // one each of f32 and bf16, u8 x s8 C f32 / s8 / u8 with scales.
    std::vector<dts_t> dts() const {
        if (in == dnnl_bf16)
            return {{dnnl_f32, dnnl_f32}, {dnnl_bf16, dnnl_bf16},
                    {dnnl_bf16, dnnl_f32}, {dnnl_f32, dnnl_bf16}};
        if (in == dnnl_u8)
            return {{dnnl_f32, dnnl_f32, 0}, {dnnl_f32, dnnl_f32, 2},
                    {dnnl_s8, dnnl_f32, 1}, {dnnl_u8, dnnl_f32, 2}};
        return {dts_t{}};
    }
};

// Table entries this processor runs (AMX 32x32 with bf16 and with u8 x
// s8 inputs, AVX-512 BF16 6x64 with bf16, AVX-512 VNNI 6x64 with u8 x
// s8; AVX-512 6x64, AVX2 6x16 with f32).
std::vector<entry_t> runnable_entries() {
    std::vector<entry_t> v;
    for (int e = 0;; ++e) {
        kernel_t k(e, 1, 1, 1, 0, false);
        if (!k.handle) break;
        if (dnnl_test_cpu_isa_entry_supported(k.isa)) {
            const auto in = (dnnl_data_type_t)k.in_dt;
            const unsigned amx_isa = dnnl_cpu_isa_avx512_core_amx;
            const unsigned zmm_isa = dnnl_cpu_isa_avx512_core;
            v.push_back({e, k.tile_m, k.panel,
                    (k.isa & zmm_isa) == zmm_isa ? 16 : 8, in,
                    in == dnnl_bf16, (k.isa & amx_isa) == amx_isa});
        }
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
// A bf16 NaN: what lies past A's rows and in B's padding k row must not
// reach C (u8 x s8: 0x7f bytes in B's padding rows, which meet A's bytes
// past K if the kernel reads them).
constexpr uint16_t bf16_nan = 0x7fc0;

size_t dt_size(dnnl_data_type_t t) {
    return t == dnnl_bf16 ? 2 : (t == dnnl_s8 || t == dnnl_u8) ? 1 : 4;
}
// An element of a buffer of type t, as a double, and back (rounded as
// the type stores it: bf16 to nearest even, integers as they are).
double get(dnnl_data_type_t t, const std::vector<char> &b, size_t i) {
    const char *p = b.data() + i * dt_size(t);
    switch (t) {
    case dnnl_bf16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return from_bf16(h);
    }
    case dnnl_s8:
        return (double)*(const int8_t *)p;
    case dnnl_u8:
        return (double)*(const uint8_t *)p;
    case dnnl_s32: {
        int32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    default: {
        float v;
        std::memcpy(&v, p, 4);
        return v;
    }
    }
}
void put(dnnl_data_type_t t, std::vector<char> &b, size_t i, double v) {
    char *p = b.data() + i * dt_size(t);
    if (t == dnnl_bf16) {
        const uint16_t h = to_bf16((float)v);
        std::memcpy(p, &h, 2);
    } else if (t == dnnl_s8) {
        *(int8_t *)p = (int8_t)v;
    } else if (t == dnnl_u8) {
        *(uint8_t *)p = (uint8_t)v;
    } else if (t == dnnl_s32) {
        const int32_t x = (int32_t)v;
        std::memcpy(p, &x, 4);
    } else {
        const float x = (float)v;
        std::memcpy(p, &x, 4);
    }
}
// n random values a buffer of type t holds: floats in [-1, 1) (rounded
// for bf16), integers over the type's range (s32: [-1000, 1000]).
std::vector<char> random_of(dnnl_data_type_t t, size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> d(-1., 1.);
    std::vector<char> b(n * dt_size(t));
    for (size_t i = 0; i < n; ++i) {
        const double x = d(g);
        const double v = t == dnnl_s8    ? std::floor(x * 128)
                         : t == dnnl_u8  ? std::floor((x + 1) * 128)
                         : t == dnnl_s32 ? std::floor(x * 1000)
                                         : x;
        put(t, b, i, v);
    }
    return b;
}

// Runs the kernel on random data in its types and checks C against a
// double-precision product of the same values. B's rows go into the
// kernel's layout (pairs for bf16, quads for u8 x s8), their padding
// filled with values that must not reach C.
void run_and_check(const kernel_t &ker, const problem_t &p, unsigned seed) {
    const auto in = (dnnl_data_type_t)ker.in_dt;
    const auto adt = in, bdt = in == dnnl_u8 ? dnnl_s8 : in;
    const auto cdt = ker.dts.c;
    const bool int8 = in == dnnl_u8;
    const int kstep = int8 ? 4 : in == dnnl_bf16 ? 2 : 1;
    // A row-major (m rows of lda) or by columns (k columns of lda).
    const int lda = ker.a_kmajor ? p.m + 3 : p.k + 3;
    const int ldc = p.n + 5, rows = p.m + 2;
    auto a_at = [&](int i, int kk) {
        return ker.a_kmajor ? (size_t)kk * lda + i : (size_t)i * lda + kk;
    };
    std::vector<std::vector<char>> A(p.bs), B(p.bs), Bk(p.bs);
    std::vector<brgemm_batch_t> batch(p.bs);
    const int steps = (p.k + kstep - 1) / kstep;
    for (int i = 0; i < p.bs; ++i) {
        A[i] = random_of(adt,
                (size_t)(ker.a_kmajor ? p.k : p.m) * lda + 1, seed + 2 * i);
        if (in == dnnl_bf16)
            for (int r = 0; r < p.m; ++r)
                std::memcpy(&A[i][((size_t)r * lda + p.k) * 2], &bf16_nan, 2);
        B[i] = random_of(bdt, (size_t)p.k * p.panel + 1, seed + 2 * i + 1);
        // Row q of the kernel's panel: for each column, k = q * kstep + t.
        const size_t es = dt_size(bdt);
        Bk[i].assign(((size_t)steps * p.panel * kstep + 4) * es, 0);
        for (int kk = 0; kk < steps * kstep; ++kk)
            for (int j = 0; j < p.panel; ++j) {
                char *o = &Bk[i][(((size_t)(kk / kstep) * p.panel + j) * kstep
                                         + kk % kstep)
                                 * es];
                if (kk < p.k)
                    std::memcpy(o, &B[i][((size_t)kk * p.panel + j) * es], es);
                else if (in == dnnl_bf16)
                    std::memcpy(o, &bf16_nan, 2);
                else
                    *o = 0x7f;
            }
        batch[i] = {reinterpret_cast<const float *>(A[i].data()),
                reinterpret_cast<const float *>(Bk[i].data())};
    }
    std::vector<char> C = random_of(cdt, (size_t)rows * ldc, seed + 99);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < ldc; ++j)
            if (i >= p.m || j >= p.n)
                put(cdt, C, (size_t)i * ldc + j,
                        cdt == dnnl_f32 || cdt == dnnl_bf16 ? guard : 77);
    const std::vector<char> C0 = C;
    // beta where C does not hold the partial sums: f32 ones (s32 for
    // u8 x s8) beside it, row stride ldc.
    const auto pdt = int8 ? dnnl_s32 : dnnl_f32;
    const auto part = random_of(pdt, (size_t)p.m * ldc, seed + 98);
    const bool beta_part = cdt != dnnl_f32 && cdt != dnnl_s32;
    const bool beta_part8 = int8 && cdt != dnnl_s32;
    const auto bias = random_of(ker.dts.bias, p.n, seed + 7);
    // Scales in [0.01, 0.03): u8 x s8 sums reach s8 / u8 saturation.
    auto scales = random_floats(p.n, seed + 5);
    for (auto &x : scales) x = 0.02f + 0.01f * x;
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
    a.lda = lda * dt_size(adt);
    a.c = reinterpret_cast<float *>(C.data());
    a.ldc = ldc * dt_size(cdt);
    a.acc = reinterpret_cast<const float *>(part.data());
    a.ld_acc = ldc * 4;
    a.bias = p.bias ? reinterpret_cast<const float *>(bias.data()) : nullptr;
    a.scales = scales.data();
    ker.fn(&a);

    int errors = 0;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < ldc; ++j) {
            const size_t e = (size_t)i * ldc + j;
            const double got = get(cdt, C, e);
            if (i >= p.m || j >= p.n) {
                if (std::memcmp(&C[e * dt_size(cdt)], &C0[e * dt_size(cdt)],
                            dt_size(cdt))
                        && errors++ < 5)
                    ADD_FAILURE()
                            << "written outside the tile at " << i << "," << j;
                continue;
            }
            double acc = 0, mag = 0;
            for (int b = 0; b < p.bs; ++b)
                for (int kk = 0; kk < p.k; ++kk) {
                    const double t = get(adt, A[b], a_at(i, kk))
                                     * get(bdt, B[b], (size_t)kk * p.panel + j);
                    acc += t;
                    mag += std::fabs(t);
                }
            const double old = get(cdt, C0, e);
            if (p.beta)
                acc += beta_part || beta_part8 ? get(pdt, part, e) : old;
            if (ker.dts.scale) {
                const double sc = scales[ker.dts.scale == 1 ? 0 : j];
                acc *= sc;
                mag *= sc;
            }
            if (p.bias) acc += get(ker.dts.bias, bias, j);
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
            // The stored type's rounding on top: half a bf16 ulp (2^-9,
            // allowed twice), one unit for s8 / u8 (the f32 value may sit
            // on the other side of a half), saturated first.
            double want = acc;
            if (cdt == dnnl_s8) want = std::min(127., std::max(-128., acc));
            if (cdt == dnnl_u8) want = std::min(255., std::max(0., acc));
            double tol = 1e-5 * (mag + 4) + 3e-5 * std::fabs(acc);
            if (cdt == dnnl_bf16) tol += std::ldexp(std::fabs(acc), -8);
            if (cdt == dnnl_s8 || cdt == dnnl_u8) tol += 1;
            if (cdt == dnnl_s32) tol = 0; // exact integer sums
            if (!(std::fabs(got - want) <= tol) && errors++ < 5)
                ADD_FAILURE()
                        << "isa " << ker.isa << " m " << p.m << " n " << p.n
                        << " k " << p.k << " bs " << p.bs << " at " << i << ","
                        << j << ": got " << got << " expected " << want;
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
        const int lanes = e.lanes;
        for (int vecs : {1, 2})
            for (int m = 1; m <= 12; ++m)
                for (int n : {vecs * lanes, vecs * lanes - 3}) {
                    if (n < 1) continue;
                    const std::vector<brgemm_post_op_t> po
                            = {binary(dnnl_binary_add, brgemm_bcast_t::full)};
                    kernel_t k(e.index, m, n, 4, 1, true, po, false, vecs);
                    if (!e.amx && m * vecs + vecs + 1 > (lanes == 16 ? 32 : 16)) {
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

// K of every remainder of the unroll (for bf16 in k pairs, odd K too;
// on AMX, whole steps of 64 bytes of A and partial ones).
TEST(JitBrgemm, BatchAndKRemainders) {
    for (const auto &e : runnable_entries())
        for (const dts_t &dt : e.dts())
            for (int unroll : {1, 3, 4, 8})
                for (int kk : {0, 1, 2, 3, 5, 16, 33, 70, 131})
                    for (int bs : {0, 1, 3}) {
                        kernel_t k(e.index, e.tile_m, e.panel - 3, unroll, 0,
                                false, {}, false, 0, dt);
                        ASSERT_NE(k.handle, nullptr);
                        problem_t p{e.tile_m, e.panel - 3, kk, bs, e.panel};
                        run_and_check(k, p, (unsigned)(kk * 10 + bs + unroll));
                    }
}

// A by columns (f32 entries): every tile height, column tails, K and
// batch remainders, unrolls, beta 1 with the bias; bf16, u8 x s8 and AMX
// entries decline it.
TEST(JitBrgemm, ColumnMajorA) {
    for (const auto &e : runnable_entries()) {
        if (e.in != dnnl_f32 || e.amx) {
            kernel_t k(e.index, e.tile_m, e.panel, 4, 0, false, {}, false, 0,
                    e.dts()[0], true);
            EXPECT_EQ(k.handle, nullptr) << "entry " << e.index;
            continue;
        }
        for (int m = 1; m <= e.tile_m; ++m)
            for (int n : {e.panel, e.panel - 5, 3})
                for (int unroll : {1, 4})
                    for (int kk : {0, 1, 3, 5, 16, 33})
                        for (int bs : {0, 1, 3}) {
                            const int beta = kk % 2;
                            kernel_t k(e.index, m, n, unroll, beta, beta == 1,
                                    {}, false, 0, dts_t {}, true);
                            ASSERT_NE(k.handle, nullptr);
                            problem_t p {m, n, kk, bs, e.panel};
                            p.beta = beta;
                            p.bias = beta == 1;
                            run_and_check(k, p,
                                    (unsigned)(m * 1000 + n * 10 + kk + bs));
                        }
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
                    for (int n : {1, std::min(17, e.panel), e.panel - 1,
                                 e.panel})
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
    EXPECT_EQ(kernel_t(e, entries[0].amx ? 33 : 13, 16, 4, 0, false).handle,
            nullptr); // rows
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
    // bf16 C or bias only where the inputs are bf16 or the entry is AMX
    // (the entries whose ISA has the conversions); no other types.
    for (const auto &x : entries) {
        const bool ok = x.bf16 || x.amx;
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

// u8 x s8 K blocks before the last store their s32 sums unscaled, and
// add the ones before them (beta), exactly, for every K remainder of a
// quad; such kernels take no bias, scale or post-op.
TEST(JitBrgemm, Int8RawSums) {
    for (const auto &e : runnable_entries()) {
        if (e.in != dnnl_u8) continue;
        const dts_t raw{dnnl_s32, dnnl_f32, 0};
        for (int beta : {0, 1})
            for (int kk : {1, 2, 3, 4, 7, 66})
                for (int n : {e.panel, e.panel - 13}) {
                    kernel_t k(e.index, e.tile_m, n, 4, beta, false, {}, false,
                            0, raw);
                    ASSERT_NE(k.handle, nullptr);
                    problem_t p{e.tile_m, n, kk, 2, e.panel, beta};
                    run_and_check(k, p, (unsigned)(kk * 3 + beta + n));
                }
        EXPECT_EQ(
                kernel_t(e.index, 2, 16, 4, 0, true, {}, false, 0, raw).handle,
                nullptr);
        EXPECT_EQ(kernel_t(e.index, 2, 16, 4, 0, false, {}, false, 0,
                          {dnnl_s32, dnnl_f32, 1})
                          .handle,
                nullptr);
    }
    // Integer C and scales belong to u8 x s8 only.
    for (const auto &e : runnable_entries()) {
        if (e.in == dnnl_u8) continue;
        EXPECT_EQ(kernel_t(e.index, 2, 16, 4, 0, false, {}, false, 0,
                          {dnnl_s8, dnnl_f32, 0})
                          .handle,
                nullptr);
        EXPECT_EQ(kernel_t(e.index, 2, 16, 4, 0, false, {}, false, 0,
                          {dnnl_f32, dnnl_f32, 1})
                          .handle,
                nullptr);
    }
}

// A partial last step (odd K for bf16, K % 4 for u8 x s8) reads only the
// elements of A that are there: A's last row ends at the last byte
// before an inaccessible page.
TEST(JitBrgemm, PartialStepReadsNothingPastA) {
    const long page = sysconf(_SC_PAGESIZE);
    for (const auto &e : runnable_entries()) {
        if (e.in == dnnl_f32) continue;
        const int es = e.in == dnnl_bf16 ? 2 : 1;
        const int kstep = e.in == dnnl_bf16 ? 2 : 4;
        for (int kk = 1; kk < 2 * kstep; ++kk) {
            if (kk % kstep == 0) continue;
            const int m = 3;
            char *mem = (char *)mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            ASSERT_NE(mem, MAP_FAILED);
            ASSERT_EQ(mprotect(mem + page, page, PROT_NONE), 0);
            // m rows of kk elements, packed, ending at the page's end.
            char *a = mem + page - (size_t)m * kk * es;
            std::memset(a, 0, (size_t)m * kk * es);
            std::vector<char> b((size_t)2 * e.panel * 4, 0);
            std::vector<float> c((size_t)m * e.panel, 0.f);
            kernel_t k(e.index, m, e.panel, 4, 0, false);
            ASSERT_NE(k.handle, nullptr);
            brgemm_batch_t be{reinterpret_cast<const float *>(a),
                    reinterpret_cast<const float *>(b.data())};
            brgemm_args_t args{};
            args.batch = &be;
            args.bs = 1;
            args.k = kk;
            args.lda = (size_t)kk * es;
            args.c = c.data();
            args.ldc = (size_t)e.panel * 4;
            k.fn(&args); // faults if it reads past the last row
            EXPECT_EQ(*std::max_element(c.begin(), c.end()), 0.f);
            munmap(mem, 2 * page);
        }
    }
}
