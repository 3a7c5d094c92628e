// Every entry of the CPU kernel tables (cpu/isa_table.hpp), on every ISA
// this processor supports, whatever the library would pick: the table
// shape (best first, the pick is the first entry that may run), and
// direct runs of the eltwise, softmax, normalization, resampling and f32
// GEMM kernels against naive loops. The other families have files of
// their own (test_kernel_tables_<family>.cpp: conv, gemm, lrn, pooling,
// reorder, rnn, rows); all entries also run through the primitive suite
// under each ONEDNN_MAX_CPU_ISA level (CTest cpu_isa_*), which makes the
// library pick each of them in turn.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

#include "cpu/eltwise/eltwise_kernels.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"
#include "cpu/norm_kernels/norm_kernels.hpp"
#include "cpu/resampling/resampling_kernels.hpp"
#include "cpu/softmax/softmax_kernels.hpp"

const void *dnnl_test_cpu_kernel_table_entry(
        const char *family, int i, unsigned *isa, int *selected);
bool dnnl_test_cpu_isa_entry_supported(unsigned isa);

namespace {

using dnnl::impl::dim_t;
namespace cpu = dnnl::impl::cpu;

const char *const families[] = {"eltwise", "softmax", "lrn", "resampling",
        "norm", "rows", "pooling", "reorder", "conv", "gemm_f32", "gemm_gemv",
        "gemm_s32", "gemm_bf16", "gemm_s32c4", "gemm_s32_small_m", "rnn_cells"};

struct entry_t {
    const void *k;
    unsigned isa;
};

std::vector<entry_t> entries(const char *family, int *selected = nullptr) {
    std::vector<entry_t> v;
    for (int i = 0;; ++i) {
        entry_t e {};
        e.k = dnnl_test_cpu_kernel_table_entry(
                family, i, &e.isa, i == 0 ? selected : nullptr);
        if (!e.k) break;
        v.push_back(e);
    }
    return v;
}

// The entries this processor can run, as (table index, kernels).
template <typename K>
std::vector<std::pair<unsigned, const K *>> runnable(const char *family) {
    std::vector<std::pair<unsigned, const K *>> v;
    for (const auto &e : entries(family))
        if (dnnl_test_cpu_isa_entry_supported(e.isa))
            v.emplace_back(e.isa, static_cast<const K *>(e.k));
    return v;
}

std::vector<float> random_floats(size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v)
        x = d(g);
    return v;
}

void expect_close(float got, double want, double rel, const std::string &what) {
    const double tol = rel * std::max(1.0, std::fabs(want));
    EXPECT_LE(std::fabs((double)got - want), tol) << what;
}

} // namespace

TEST(KernelTables, BestFirstAndThePickIsTheFirstThatMayRun) {
    const unsigned eff = (unsigned)dnnl_get_effective_cpu_isa();
    for (const char *f : families) {
        int sel = -2;
        const auto v = entries(f, &sel);
        ASSERT_FALSE(v.empty()) << f;
        // No entry needs what a later one needs and more: a later entry
        // never includes an earlier one's ISA.
        for (size_t i = 0; i < v.size(); ++i)
            for (size_t j = i + 1; j < v.size(); ++j)
                EXPECT_NE(v[j].isa & v[i].isa, v[i].isa)
                        << f << ": entry " << j << " after " << i;
        // The pick is the first entry within the effective ISA that the
        // processor runs.
        int want = -1;
        for (size_t i = 0; i < v.size() && want < 0; ++i)
            if ((v[i].isa & eff) == v[i].isa
                    && dnnl_test_cpu_isa_entry_supported(v[i].isa))
                want = (int)i;
        EXPECT_EQ(sel, want) << f;
    }
}

TEST(KernelTables, EveryFamilyHasAnEntryThisMachineRuns) {
    for (const char *f : families) {
        if (std::string(f) == "gemm_bf16" || std::string(f) == "gemm_s32c4")
            continue; // optional: only where the ISA has the dot products
        EXPECT_FALSE(runnable<void>(f).empty()) << f;
    }
}

TEST(KernelTables, EltwiseForwardOnEveryIsa) {
    const auto x = random_floats(1003, -4.f, 4.f, 1);
    const auto v = runnable<cpu::eltwise::kernel_table_t>("eltwise");
    ASSERT_FALSE(v.empty());
    struct alg_t {
        dnnl_alg_kind_t alg;
        double (*ref)(double);
        bool nonneg;
    } algs[] = {
            {dnnl_eltwise_relu, [](double a) { return a > 0 ? a : 0.0; },
                    false},
            {dnnl_eltwise_exp, [](double a) { return std::exp(a); }, false},
            {dnnl_eltwise_tanh, [](double a) { return std::tanh(a); }, false},
            {dnnl_eltwise_sqrt, [](double a) { return std::sqrt(a); }, true},
    };
    for (const auto &e : v)
        for (const auto &a : algs) {
            std::vector<float> in(x), out(x.size());
            if (a.nonneg)
                for (auto &t : in)
                    t = std::fabs(t);
            e.second->fwd(a.alg, 0.f, 0.f, in.data(), out.data(),
                    (dim_t)in.size());
            for (size_t i = 0; i < in.size(); ++i)
                expect_close(out[i], a.ref(in[i]), 1e-5,
                        std::string(e.second->isa_name) + " alg "
                                + std::to_string(a.alg) + " at "
                                + std::to_string(i));
        }
}

TEST(KernelTables, SoftmaxRowOnEveryIsa) {
    for (dim_t n : {1, 7, 16, 517}) {
        const auto x = random_floats((size_t)n, -10.f, 10.f, 2);
        double mx = -INFINITY, sum = 0;
        for (float t : x)
            mx = std::max(mx, (double)t);
        for (float t : x)
            sum += std::exp(t - mx);
        for (const auto &e : runnable<cpu::softmax::kernels_t>("softmax")) {
            std::vector<float> y((size_t)n);
            e.second->fwd_row(x.data(), y.data(), n, false, 1.f);
            for (dim_t i = 0; i < n; ++i)
                expect_close(y[(size_t)i], std::exp(x[(size_t)i] - mx) / sum,
                        1e-5, std::string(e.second->isa) + " n "
                                + std::to_string(n));
        }
    }
}

TEST(KernelTables, NormalizationRowsOnEveryIsa) {
    const dim_t n = 301;
    const auto x = random_floats((size_t)n, -3.f, 5.f, 3);
    const auto sc = random_floats((size_t)n, 0.5f, 2.f, 4);
    const auto sh = random_floats((size_t)n, -1.f, 1.f, 5);
    double s = 0;
    for (float t : x)
        s += t;
    const float m = (float)(s / n);
    double sq = 0;
    for (float t : x)
        sq += ((double)t - m) * ((double)t - m);
    for (const auto &e : runnable<cpu::norm::kernels_t>("norm")) {
        const std::string isa(e.second->isa);
        EXPECT_NEAR(e.second->sum(x.data(), n), s, 1e-3 * n) << isa;
        EXPECT_NEAR(e.second->sum_sq_dev(x.data(), n, m), sq, 1e-3 * n) << isa;
        std::vector<float> y((size_t)n);
        e.second->norm_row(x.data(), y.data(), n, m, 0.5f, sc.data(), sh.data());
        for (dim_t i = 0; i < n; ++i)
            expect_close(y[(size_t)i],
                    (double)sc[(size_t)i] * ((double)x[(size_t)i] - m) * 0.5
                            + sh[(size_t)i],
                    1e-5, isa);
    }
}

TEST(KernelTables, ResamplingRowsOnEveryIsa) {
    const dim_t n = 77, ow = 40;
    const auto s = random_floats((size_t)n, -1.f, 1.f, 6);
    std::vector<dim_t> i0((size_t)ow);
    for (dim_t k = 0; k < ow; ++k)
        i0[(size_t)k] = (k * 7) % n;
    for (const auto &e :
            runnable<cpu::resampling::kernel_table_t>("resampling")) {
        const std::string isa(e.second->isa_name);
        std::vector<float> t((size_t)n, 0.f);
        e.second->axpy(t.data(), s.data(), 0.25f, n, true);
        e.second->axpy(t.data(), s.data(), 0.5f, n, false);
        for (dim_t i = 0; i < n; ++i)
            expect_close(t[(size_t)i], 0.75 * s[(size_t)i], 1e-6, isa);
        std::vector<float> y((size_t)ow);
        e.second->copy_row(y.data(), s.data(), i0.data(), ow);
        for (dim_t k = 0; k < ow; ++k)
            EXPECT_EQ(y[(size_t)k], s[(size_t)i0[(size_t)k]]) << isa;
    }
}

// The f32 microkernels: A panel a[p * mr + i], B panel b[p * nr + j],
// c = alpha * A B + beta * c on a full and a partial tile.
TEST(KernelTables, GemmF32MicrokernelsOnEveryIsa) {
    for (const auto &e : runnable<cpu::gemm::f32_ukernel_desc_t>("gemm_f32")) {
        const auto &d = *e.second;
        const dim_t k = 37, ldc = d.nr + 5;
        const auto a = random_floats((size_t)(k * d.mr), -1.f, 1.f, 7);
        const auto b = random_floats((size_t)(k * d.nr), -1.f, 1.f, 8);
        // Full and partial tiles, with row counts that take each row
        // tail (thirds of MR) and with and without a next panel.
        const dim_t ms[] = {d.mr, d.mr - 1, 2 * d.mr / 3, d.mr / 3, 1};
        for (int tile = 0; tile < 5; ++tile) {
            const dim_t m = ms[tile];
            const dim_t n = tile % 2 ? d.nr - 3 : d.nr;
            auto c = random_floats((size_t)(d.mr * ldc), -1.f, 1.f, 9);
            const auto c0 = c;
            d.fn(k, a.data(), b.data(), c.data(), ldc, m, n, 1.5f, 0.5f,
                    tile % 2 ? b.data() : nullptr);
            for (dim_t i = 0; i < d.mr; ++i)
                for (dim_t j = 0; j < ldc; ++j) {
                    const size_t o = (size_t)(i * ldc + j);
                    if (i >= m || j >= n) {
                        EXPECT_EQ(c[o], c0[o]) << d.name << " wrote outside";
                        continue;
                    }
                    double s = 0;
                    for (dim_t p = 0; p < k; ++p)
                        s += (double)a[(size_t)(p * d.mr + i)]
                                * b[(size_t)(p * d.nr + j)];
                    expect_close(c[o], 1.5 * s + 0.5 * c0[o], 1e-5, d.name);
                }
        }
    }
}
