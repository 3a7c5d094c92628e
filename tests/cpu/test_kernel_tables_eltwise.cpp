// The compiled eltwise kernel table (src/cpu/eltwise/eltwise_kernels.hpp):
// every function of every entry this processor supports against naive
// loops: the forward and backward of every algorithm, the conversions
// between the stored data types and f32, and the binary operations with
// an array and with a scalar second operand. Lengths leave tails past
// every vector width, and results are written in place once.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/eltwise/eltwise_kernels.hpp"
#include "kernel_table_glue.hpp"
#include "reference/compare.hpp"
#include "reference/eltwise_ref.hpp"

namespace {

using dnnl::impl::dim_t;
namespace eltwise = dnnl::impl::cpu::eltwise;
using kernel_table_glue::random_floats;

std::vector<const eltwise::kernel_table_t *> entries() {
    return kernel_table_glue::runnable_entries<eltwise::kernel_table_t>(
            "eltwise");
}

// Lengths: below, at and past the 4-, 8- and 16-lane vectors, and a long
// run with a tail.
const dim_t lengths[] = {1, 3, 8, 15, 17, 33, 1003};

struct alg_case_t {
    dnnl_alg_kind_t alg;
    float alpha, beta;
    float lo, hi; // source range
    bool bwd;     // has a backward
};

const alg_case_t alg_cases[] = {
        {dnnl_eltwise_relu, 0.f, 0.f, -5, 5, true},
        {dnnl_eltwise_relu, 0.25f, 0.f, -5, 5, true},
        {dnnl_eltwise_tanh, 0.f, 0.f, -6, 6, true},
        {dnnl_eltwise_elu, 0.5f, 0.f, -6, 4, true},
        {dnnl_eltwise_square, 0.f, 0.f, -10, 10, true},
        {dnnl_eltwise_abs, 0.f, 0.f, -5, 5, true},
        {dnnl_eltwise_sqrt, 0.f, 0.f, 0.01f, 50, true},
        {dnnl_eltwise_linear, 1.5f, -0.5f, -5, 5, true},
        {dnnl_eltwise_soft_relu, 0.5f, 0.f, -20, 20, true},
        {dnnl_eltwise_hardsigmoid, 0.2f, 0.5f, -5, 5, true},
        {dnnl_eltwise_logistic, 0.f, 0.f, -10, 10, true},
        {dnnl_eltwise_exp, 0.f, 0.f, -10, 10, true},
        {dnnl_eltwise_gelu_tanh, 0.f, 0.f, -6, 6, true},
        {dnnl_eltwise_swish, 0.5f, 0.f, -10, 10, true},
        {dnnl_eltwise_log, 0.f, 0.f, 0.01f, 100, true},
        {dnnl_eltwise_clip, -1.f, 2.5f, -4, 4, true},
        {dnnl_eltwise_clip_v2, -1.f, 2.5f, -4, 4, true},
        {dnnl_eltwise_pow, 1.5f, 3.f, -3, 3, true},
        {dnnl_eltwise_pow, 2.f, 0.5f, 0.1f, 5, true},
        {dnnl_eltwise_pow, 1.f, -1.f, 0.1f, 5, true},
        {dnnl_eltwise_pow, 3.f, 0.f, -3, 3, true},
        {dnnl_eltwise_gelu_erf, 0.f, 0.f, -6, 6, true},
        {dnnl_eltwise_round, 0.f, 0.f, -10, 10, false},
        {dnnl_eltwise_mish, 0.f, 0.f, -10, 10, true},
        {dnnl_eltwise_hardswish, 1.f / 6, 0.5f, -6, 6, true},
        {dnnl_eltwise_relu_use_dst_for_bwd, 0.1f, 0.f, -5, 5, true},
        {dnnl_eltwise_tanh_use_dst_for_bwd, 0.f, 0.f, -6, 6, true},
        {dnnl_eltwise_elu_use_dst_for_bwd, 1.f, 0.f, -6, 4, true},
        {dnnl_eltwise_sqrt_use_dst_for_bwd, 0.f, 0.f, 0.01f, 50, true},
        {dnnl_eltwise_logistic_use_dst_for_bwd, 0.f, 0.f, -10, 10, true},
        {dnnl_eltwise_exp_use_dst_for_bwd, 0.f, 0.f, -10, 10, true},
        {dnnl_eltwise_clip_v2_use_dst_for_bwd, -1.f, 2.5f, -4, 4, true},
};

// The f32 primitives' tolerance (tests/primitives/test_eltwise.cpp):
// tens of ulps for the transcendental algorithms.
bool close(float got, double want) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    return std::fabs((double)got - want) <= 2e-6 + 3e-5 * std::fabs(want);
}

std::string what(const eltwise::kernel_table_t *e, const alg_case_t &c, dim_t n,
        size_t i) {
    return std::string(e->isa_name) + " alg " + std::to_string(c.alg)
           + " alpha " + std::to_string(c.alpha) + " beta "
           + std::to_string(c.beta) + " n " + std::to_string(n) + " at "
           + std::to_string(i);
}

} // namespace

TEST(KernelTables, EltwiseEveryAlgorithmForwardOnEveryIsa) {
    const auto v = entries();
    ASSERT_FALSE(v.empty());
    for (const auto *e : v)
        for (const auto &c : alg_cases)
            for (dim_t n : lengths) {
                const auto x = random_floats(
                        (size_t)n, c.lo, c.hi, (unsigned)(c.alg + n));
                std::vector<float> y((size_t)n, 42.f), z(x);
                e->fwd(c.alg, c.alpha, c.beta, x.data(), y.data(), n);
                e->fwd(c.alg, c.alpha, c.beta, z.data(), z.data(), n);
                int bad = 0;
                for (size_t i = 0; i < x.size() && bad < 3; ++i) {
                    const double want =
                            eltwise_ref::fwd(c.alg, x[i], c.alpha, c.beta);
                    if (!close(y[i], want))
                        ++bad, ADD_FAILURE() << what(e, c, n, i) << ": got "
                                             << y[i] << " want " << want;
                    if (z[i] != y[i] && !(std::isnan(z[i]) && std::isnan(y[i])))
                        ++bad, ADD_FAILURE() << what(e, c, n, i)
                                             << ": in place differs";
                }
            }
}

// diff_src from diff_dst and the source, or the destination for the
// *_use_dst_for_bwd algorithms.
TEST(KernelTables, EltwiseEveryAlgorithmBackwardOnEveryIsa) {
    for (const auto *e : entries())
        for (const auto &c : alg_cases) {
            if (!c.bwd) continue;
            for (dim_t n : lengths) {
                const auto x = random_floats(
                        (size_t)n, c.lo, c.hi, (unsigned)(3 * c.alg + n));
                const auto dd = random_floats((size_t)n, -2.f, 2.f, 7);
                std::vector<float> data(x);
                if (eltwise_ref::use_dst(c.alg))
                    for (auto &t : data)
                        t = (float)eltwise_ref::fwd(c.alg, t, c.alpha, c.beta);
                std::vector<float> ds((size_t)n, 42.f), inplace(dd);
                e->bwd(c.alg, c.alpha, c.beta, dd.data(), data.data(),
                        ds.data(), n);
                e->bwd(c.alg, c.alpha, c.beta, inplace.data(), data.data(),
                        inplace.data(), n);
                int bad = 0;
                for (size_t i = 0; i < x.size() && bad < 3; ++i) {
                    const double want = eltwise_ref::bwd(
                            c.alg, dd[i], data[i], c.alpha, c.beta);
                    if (!close(ds[i], want))
                        ++bad, ADD_FAILURE() << what(e, c, n, i) << ": got "
                                             << ds[i] << " want " << want;
                    if (inplace[i] != ds[i])
                        ++bad, ADD_FAILURE() << what(e, c, n, i)
                                             << ": in place differs";
                }
            }
        }
}

namespace {

// A stored value of `dt` from its bits, naively: sign, biased exponent and
// fraction fields (subnormals below the smallest exponent), integers as
// themselves.
double decode(dnnl_data_type_t dt, const void *p) {
    auto fp = [](uint32_t bits, int ebits, int mbits, int bias, bool inf) {
        const uint32_t m = bits & ((1u << mbits) - 1);
        const uint32_t e = (bits >> mbits) & ((1u << ebits) - 1);
        const double s = (bits >> (ebits + mbits)) & 1 ? -1.0 : 1.0;
        const uint32_t emax = (1u << ebits) - 1;
        if (inf && e == emax) return m ? NAN : s * INFINITY;
        if (!inf && e == emax && m == (1u << mbits) - 1) return (double)NAN;
        if (e == 0) return s * std::ldexp((double)m, 1 - bias - mbits);
        return s
               * std::ldexp((double)(m | (1u << mbits)), (int)e - bias - mbits);
    };
    uint32_t u = 0;
    switch (dt) {
    case dnnl_f32: {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    case dnnl_bf16:
        std::memcpy(&u, p, 2);
        return fp(u, 8, 7, 127, true);
    case dnnl_f16:
        std::memcpy(&u, p, 2);
        return fp(u, 5, 10, 15, true);
    case dnnl_f8_e5m2:
        std::memcpy(&u, p, 1);
        return fp(u, 5, 2, 15, true);
    case dnnl_f8_e4m3:
        std::memcpy(&u, p, 1);
        return fp(u, 4, 3, 7, false);
    case dnnl_s8:
        return *static_cast<const int8_t *>(p);
    case dnnl_u8:
        return *static_cast<const uint8_t *>(p);
    case dnnl_s32:
        return *static_cast<const int32_t *>(p);
    default:
        return NAN;
    }
}

struct dt_case_t {
    dnnl_data_type_t dt;
    size_t size;
    float range; // source values in [-range, range]
};

const dt_case_t dt_cases[] = {{dnnl_f32, 4, 1e3f}, {dnnl_bf16, 2, 1e3f},
        {dnnl_f16, 2, 6e4f}, {dnnl_f8_e5m2, 1, 5e4f}, {dnnl_f8_e4m3, 1, 440},
        {dnnl_s8, 1, 300}, {dnnl_u8, 1, 300}, {dnnl_s32, 4, 1e6f}};

} // namespace

// from_f32 rounds to the nearest value of the type (half to even, integers
// saturated); to_f32 gives back exactly the stored value.
TEST(KernelTables, EltwiseConversionsOnEveryIsa) {
    for (const auto *e : entries())
        for (const auto &c : dt_cases)
            for (dim_t n : lengths) {
                // Values across the range, then small ones (subnormals of
                // the narrow types).
                auto x = random_floats(
                        (size_t)n, -c.range, c.range, (unsigned)(c.dt + n));
                for (size_t i = 0; i < x.size(); i += 3) x[i] *= 1e-6f;
                std::vector<uint8_t> st((size_t)n * c.size + 8, 0x5a);
                e->from_f32(c.dt, x.data(), st.data(), n);
                std::vector<float> back((size_t)n, 42.f);
                e->to_f32(c.dt, st.data(), back.data(), n);
                const std::string w = std::string(e->isa_name) + " dt "
                                      + std::to_string(c.dt) + " n "
                                      + std::to_string(n);
                for (size_t i = 0; i < x.size(); ++i) {
                    const double got = decode(c.dt, &st[i * c.size]);
                    const double want = ref::round_to_dt(x[i], c.dt);
                    ASSERT_EQ(got, want) << w << " from_f32 of " << x[i];
                    ASSERT_EQ((double)back[i], got) << w << " to_f32";
                }
                for (size_t i = (size_t)n * c.size; i < st.size(); ++i)
                    ASSERT_EQ(st[i], 0x5a) << w << " wrote past the end";
            }
}

// Every binary algorithm but select, with an array and with a scalar
// second operand; some elements equal for the comparisons.
TEST(KernelTables, EltwiseBinaryOnEveryIsa) {
    const dnnl_alg_kind_t algs[] = {dnnl_binary_add, dnnl_binary_mul,
            dnnl_binary_max, dnnl_binary_min, dnnl_binary_div, dnnl_binary_sub,
            dnnl_binary_ge, dnnl_binary_gt, dnnl_binary_le, dnnl_binary_lt,
            dnnl_binary_eq, dnnl_binary_ne};
    for (const auto *e : entries())
        for (auto alg : algs)
            for (dim_t n : lengths) {
                const auto a = random_floats((size_t)n, -4.f, 4.f, 11);
                auto b = random_floats((size_t)n, 0.5f, 3.f, 12);
                for (size_t i = 0; i < b.size(); ++i)
                    if (i % 2) b[i] = -b[i];
                for (size_t i = 0; i < b.size(); i += 5) b[i] = a[i];
                const float s = a[(size_t)n / 2];
                std::vector<float> d((size_t)n, 42.f), ds((size_t)n, 42.f),
                        inplace(a);
                e->binary(alg, a.data(), b.data(), d.data(), n);
                e->binary_scalar(alg, a.data(), s, ds.data(), n);
                e->binary(alg, inplace.data(), b.data(), inplace.data(), n);
                const std::string w = std::string(e->isa_name) + " alg "
                                      + std::to_string(alg) + " n "
                                      + std::to_string(n);
                for (size_t i = 0; i < a.size(); ++i) {
                    const double want = eltwise_ref::binary(alg, a[i], b[i]);
                    const double want_s = eltwise_ref::binary(alg, a[i], s);
                    ASSERT_TRUE(close(d[i], want)) << w << " at " << i << ": "
                                                   << d[i] << " vs " << want;
                    ASSERT_TRUE(close(ds[i], want_s))
                            << w << " scalar at " << i << ": " << ds[i]
                            << " vs " << want_s;
                    ASSERT_EQ(inplace[i], d[i]) << w << " in place at " << i;
                }
            }
}
