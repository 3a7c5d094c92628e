// The tensor-wide row kernels (src/cpu/tensor_walk/rows.hpp) of every
// table entry this processor supports, against naive loops: loads and
// stores of each stored type (contiguous, strided, indexed, broadcast),
// scaling, the binary operations (with broadcast operands and select),
// blocks of short rows, bf16/f16 binary in registers, reductions, gathers,
// PReLU and eltwise on rows. Lengths have tails past every vector width
// (1, 7, 17, 37, 133). The post-op chain (apply) runs through the
// primitive suites.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/tensor_walk/rows.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace rows = dnnl::impl::cpu::rows;
using kernel_table_glue::random_floats;

const dim_t lengths[] = {1, 7, 17, 37, 133};

std::vector<const rows::kernels_t *> entries() {
    return kernel_table_glue::runnable_entries<rows::kernels_t>("rows");
}

// Naive conversions (no library code): bf16 and f16 round to nearest
// even on the way in, integers round to nearest even and saturate.
uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if (std::isnan(f)) return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fff + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

float from_bf16(uint16_t b) {
    const uint32_t u = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

float from_f16(uint16_t h) {
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const float s = (h & 0x8000) ? -1.f : 1.f;
    if (e == 0) return s * std::ldexp((float)m, -24);
    if (e == 31) return m ? NAN : s * INFINITY;
    return s * std::ldexp((float)(m | 0x400), e - 25);
}

double saturate(double x, double lo, double hi) {
    x = std::nearbyint(x);
    return x < lo ? lo : x > hi ? hi : x;
}

// The stored value of f in type dt, as f32 (f16 checked by tolerance).
double stored(dnnl_data_type_t dt, float f) {
    switch (dt) {
        case dnnl_bf16: return from_bf16(to_bf16(f));
        case dnnl_s8: return saturate(f, -128, 127);
        case dnnl_u8: return saturate(f, 0, 255);
        case dnnl_s32: return saturate(f, -2147483648.0, 2147483520.0);
        default: return f;
    }
}

size_t dt_size(dnnl_data_type_t dt) {
    switch (dt) {
        case dnnl_bf16:
        case dnnl_f16: return 2;
        case dnnl_s8:
        case dnnl_u8: return 1;
        default: return 4;
    }
}

// Element i of a buffer of type dt, as f32.
float element(dnnl_data_type_t dt, const std::vector<char> &buf, dim_t i) {
    const char *p = buf.data() + i * dt_size(dt);
    switch (dt) {
        case dnnl_bf16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return from_bf16(v);
        }
        case dnnl_f16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return from_f16(v);
        }
        case dnnl_s8: return (float)*(const int8_t *)p;
        case dnnl_u8: return (float)*(const uint8_t *)p;
        case dnnl_s32: {
            int32_t v;
            std::memcpy(&v, p, 4);
            return (float)v;
        }
        default: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
    }
}

const dnnl_data_type_t types[]
        = {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32};

// The ways a row may lie in a tensor: contiguous, strided, indexed.
enum class shape_t { dense, strided, indexed };

// Offset of row element i in the tensor (row offset 3).
dim_t offset_of(shape_t s, dim_t i, const std::vector<dim_t> &idx) {
    switch (s) {
        case shape_t::dense: return 3 + i;
        case shape_t::strided: return 3 + 3 * i;
        default: return 3 + idx[(size_t)i];
    }
}

rows::row_t row_of(shape_t s, const void *base, dnnl_data_type_t dt,
        const std::vector<dim_t> &idx) {
    rows::row_t r;
    r.base = base;
    r.dt = dt;
    r.off = 3;
    r.st = s == shape_t::strided ? 3 : 1;
    r.idx = s == shape_t::indexed ? idx.data() : nullptr;
    return r;
}

// n distinct offsets into 3 * n elements, in falling order.
std::vector<dim_t> index_table(dim_t n) {
    std::vector<dim_t> idx((size_t)n);
    for (dim_t i = 0; i < n; ++i)
        idx[(size_t)i] = 3 * (n - 1 - i) + i % 3;
    return idx;
}

} // namespace

TEST(KernelTables, RowsLoadOnEveryIsa) {
    ASSERT_FALSE(entries().empty());
    for (const auto *k : entries())
        for (auto dt : types)
            for (dim_t n : lengths)
                for (auto s : {shape_t::dense, shape_t::strided,
                             shape_t::indexed}) {
                    const dim_t size = 3 + 3 * n;
                    const auto v = random_floats((size_t)size, -300.f, 300.f,
                            (unsigned)(n + dt));
                    // The tensor holds the values as stored in dt.
                    std::vector<char> t((size_t)size * dt_size(dt));
                    for (dim_t i = 0; i < size; ++i) {
                        const double x = stored(dt, v[(size_t)i]);
                        char *p = t.data() + i * dt_size(dt);
                        if (dt == dnnl_bf16) {
                            const uint16_t b = to_bf16((float)x);
                            std::memcpy(p, &b, 2);
                        } else if (dt == dnnl_f16) {
                            // 1.0 plus a multiple of 2^-10: exact in f16.
                            const uint16_t h = (uint16_t)(0x3c00 + (i % 1000));
                            std::memcpy(p, &h, 2);
                        } else if (dt == dnnl_s8) {
                            *(int8_t *)p = (int8_t)x;
                        } else if (dt == dnnl_u8) {
                            *(uint8_t *)p = (uint8_t)x;
                        } else if (dt == dnnl_s32) {
                            const int32_t y = (int32_t)x;
                            std::memcpy(p, &y, 4);
                        } else {
                            const float y = (float)x;
                            std::memcpy(p, &y, 4);
                        }
                    }
                    const auto idx = index_table(n);
                    std::vector<float> buf((size_t)n);
                    const float *got = k->load(
                            row_of(s, t.data(), dt, idx), n, buf.data());
                    const std::string what = std::string(k->isa) + " dt "
                            + std::to_string(dt) + " n " + std::to_string(n)
                            + " shape " + std::to_string((int)s);
                    for (dim_t i = 0; i < n; ++i)
                        ASSERT_EQ(got[i], element(dt, t, offset_of(s, i, idx)))
                                << what << " at " << i;
                    // A broadcast row yields its one value.
                    rows::row_t b = row_of(shape_t::dense, t.data(), dt, idx);
                    b.st = 0;
                    EXPECT_EQ(k->load(b, n, buf.data())[0], element(dt, t, 3))
                            << what << " broadcast";
                }
}

TEST(KernelTables, RowsStoreOnEveryIsa) {
    for (const auto *k : entries())
        for (auto dt : types)
            for (dim_t n : lengths)
                for (auto s : {shape_t::dense, shape_t::strided,
                             shape_t::indexed}) {
                    const dim_t size = 3 + 3 * n;
                    // Halves included, to see the rounding to even.
                    auto v = random_floats((size_t)n, -300.f, 300.f,
                            (unsigned)(7 * n + dt));
                    for (dim_t i = 0; i < n; i += 3)
                        v[(size_t)i] = std::floor(v[(size_t)i]) + 0.5f;
                    std::vector<char> t((size_t)size * dt_size(dt), 0x5a);
                    const auto before = t;
                    const auto idx = index_table(n);
                    k->store(row_of(s, t.data(), dt, idx), v.data(), n);
                    const std::string what = std::string(k->isa) + " dt "
                            + std::to_string(dt) + " n " + std::to_string(n)
                            + " shape " + std::to_string((int)s);
                    std::vector<bool> written((size_t)size, false);
                    for (dim_t i = 0; i < n; ++i) {
                        const dim_t o = offset_of(s, i, idx);
                        written[(size_t)o] = true;
                        const float got = element(dt, t, o);
                        if (dt == dnnl_f16)
                            ASSERT_NEAR(got, v[(size_t)i],
                                    std::fabs(v[(size_t)i]) / 1024.f)
                                    << what << " at " << i;
                        else
                            ASSERT_EQ(got, (float)stored(dt, v[(size_t)i]))
                                    << what << " at " << i;
                    }
                    const size_t es = dt_size(dt);
                    for (dim_t o = 0; o < size; ++o)
                        if (!written[(size_t)o])
                            ASSERT_EQ(std::memcmp(t.data() + o * es,
                                              before.data() + o * es, es),
                                    0)
                                    << what << " wrote at " << o;
                }
}

TEST(KernelTables, RowsBinaryOnEveryIsa) {
    struct op_t {
        dnnl_alg_kind_t alg;
        double (*f)(double, double);
    } ops[] = {
            {dnnl_binary_add, [](double a, double b) { return a + b; }},
            {dnnl_binary_mul, [](double a, double b) { return a * b; }},
            {dnnl_binary_max, [](double a, double b) { return a > b ? a : b; }},
            {dnnl_binary_min, [](double a, double b) { return a < b ? a : b; }},
            {dnnl_binary_div, [](double a, double b) { return a / b; }},
            {dnnl_binary_sub, [](double a, double b) { return a - b; }},
            {dnnl_binary_ge, [](double a, double b) { return a >= b ? 1. : 0.; }},
            {dnnl_binary_gt, [](double a, double b) { return a > b ? 1. : 0.; }},
            {dnnl_binary_le, [](double a, double b) { return a <= b ? 1. : 0.; }},
            {dnnl_binary_lt, [](double a, double b) { return a < b ? 1. : 0.; }},
            {dnnl_binary_eq, [](double a, double b) { return a == b ? 1. : 0.; }},
            {dnnl_binary_ne, [](double a, double b) { return a != b ? 1. : 0.; }},
    };
    for (const auto *k : entries())
        for (dim_t n : lengths) {
            auto a = random_floats((size_t)n, -4.f, 4.f, 11);
            auto b = random_floats((size_t)n, 0.5f, 4.f, 12);
            const auto c = random_floats((size_t)n, -1.f, 1.f, 13);
            // Some equal pairs for the comparisons.
            for (dim_t i = 0; i < n; i += 4)
                b[(size_t)i] = a[(size_t)i];
            const std::string what
                    = std::string(k->isa) + " n " + std::to_string(n);
            for (const auto &op : ops)
                for (int sc = 0; sc < 4; ++sc) {
                    const bool as = sc & 1, bs = sc & 2;
                    std::vector<float> d((size_t)n + 1, 42.f);
                    k->binary(op.alg, a.data(), as, b.data(), bs, nullptr,
                            false, d.data(), n);
                    for (dim_t i = 0; i < n; ++i) {
                        const double want = (float)op.f(a[as ? 0 : (size_t)i],
                                b[bs ? 0 : (size_t)i]);
                        ASSERT_NEAR(d[(size_t)i], want,
                                1e-6 * std::fabs(want))
                                << what << " alg " << op.alg << " scalars "
                                << sc << " at " << i;
                    }
                    EXPECT_EQ(d[(size_t)n], 42.f) << what << " wrote past n";
                }
            // select: c != 0 ? a : b.
            for (int sc = 0; sc < 8; ++sc) {
                const bool as = sc & 1, bs = sc & 2, cs = sc & 4;
                std::vector<float> d((size_t)n);
                k->binary(dnnl_binary_select, a.data(), as, b.data(), bs,
                        c.data(), cs, d.data(), n);
                for (dim_t i = 0; i < n; ++i) {
                    const size_t j = (size_t)i;
                    const float want
                            = c[cs ? 0 : j] != 0.f ? a[as ? 0 : j] : b[bs ? 0 : j];
                    ASSERT_EQ(d[j], want) << what << " select " << sc;
                }
            }
        }
}

TEST(KernelTables, RowsBlocksOnEveryIsa) {
    const dim_t M = 5;
    for (const auto *k : entries())
        for (dim_t L : lengths) {
            const auto a = random_floats((size_t)(M * L), -3.f, 3.f, 14);
            const auto b = random_floats((size_t)(M * L), -3.f, 3.f, 15);
            const std::string what
                    = std::string(k->isa) + " L " + std::to_string(L);
            // Each operand a block of rows (stride L), one row repeated
            // (stride 0) or one value a row (binary only: stride 1).
            for (int sc = 0; sc < 9; ++sc) {
                const int ka = sc % 3, kb = sc / 3;
                const dim_t strides[3] = {L, 0, 1};
                const dim_t sa = strides[ka], sb = strides[kb];
                const bool as = ka == 2, bs = kb == 2;
                std::vector<float> d((size_t)(M * L) + 1, 42.f);
                k->binary_block(dnnl_binary_mul, a.data(), sa, as, b.data(),
                        sb, bs, d.data(), M, L);
                std::vector<float> y((size_t)(M * L) + 1, 42.f);
                if (!as && !bs)
                    k->prelu_block(
                            a.data(), sa, b.data(), sb, y.data(), M, L);
                for (dim_t m = 0; m < M; ++m)
                    for (dim_t l = 0; l < L; ++l) {
                        const float x = a[(size_t)(m * sa + (as ? 0 : l))],
                                    w = b[(size_t)(m * sb + (bs ? 0 : l))];
                        ASSERT_EQ(d[(size_t)(m * L + l)], x * w)
                                << what << " kinds " << ka << kb;
                        if (!as && !bs)
                            ASSERT_EQ(y[(size_t)(m * L + l)],
                                    x > 0 ? x : w * x)
                                    << what << " prelu";
                    }
                EXPECT_EQ(d[(size_t)(M * L)], 42.f) << what;
                EXPECT_EQ(y[(size_t)(M * L)], 42.f) << what;
            }
        }
}

TEST(KernelTables, RowsHalfBinaryOnEveryIsa) {
    for (const auto *k : entries())
        for (auto dt : {dnnl_bf16, dnnl_f16})
            for (dim_t n : lengths) {
                const auto a = random_floats((size_t)n, -4.f, 4.f, 16);
                const auto b = random_floats((size_t)n, -4.f, 4.f, 17);
                std::vector<uint16_t> ha((size_t)n), hb((size_t)n);
                for (dim_t i = 0; i < n; ++i) {
                    // f16: multiples of 2^-8, exact in both types.
                    const size_t j = (size_t)i;
                    ha[j] = dt == dnnl_bf16 ? to_bf16(a[j])
                                            : (uint16_t)(0x3c00 + (i * 37) % 1000);
                    hb[j] = dt == dnnl_bf16 ? to_bf16(b[j])
                                            : (uint16_t)(0xbc00 + (i * 11) % 1000);
                }
                auto val = [&](uint16_t h) {
                    return dt == dnnl_bf16 ? from_bf16(h) : from_f16(h);
                };
                const std::string what = std::string(k->isa) + " dt "
                        + std::to_string(dt) + " n " + std::to_string(n);
                for (int sc = 0; sc < 4; ++sc) {
                    const bool as = sc & 1, bs = sc & 2;
                    std::vector<uint16_t> d((size_t)n + 1, 0x1234);
                    ASSERT_TRUE(k->binary_half(dnnl_binary_add, dt, ha.data(),
                            as, hb.data(), bs, d.data(), n))
                            << what;
                    for (dim_t i = 0; i < n; ++i) {
                        const float want = val(ha[as ? 0 : (size_t)i])
                                + val(hb[bs ? 0 : (size_t)i]);
                        const float got = val(d[(size_t)i]);
                        if (dt == dnnl_bf16)
                            ASSERT_EQ(d[(size_t)i], to_bf16(want))
                                    << what << " at " << i;
                        else
                            ASSERT_NEAR(got, want, std::fabs(want) / 1024.f)
                                    << what << " at " << i;
                    }
                    EXPECT_EQ(d[(size_t)n], 0x1234) << what << " wrote past n";
                }
                // Not for other types, nor select.
                EXPECT_FALSE(k->binary_half(dnnl_binary_add, dnnl_f32,
                        ha.data(), false, hb.data(), false, ha.data(), n));
                EXPECT_FALSE(k->binary_half(dnnl_binary_select, dt, ha.data(),
                        false, hb.data(), false, ha.data(), n));
            }
}

TEST(KernelTables, RowsReductionsOnEveryIsa) {
    const float p = 1.5f;
    for (const auto *k : entries())
        for (dim_t n : lengths) {
            const auto x = random_floats((size_t)n, -2.f, 2.f, 18);
            // Products of values near 1 stay finite.
            const auto y = random_floats((size_t)n, 0.9f, 1.1f, 19);
            const std::string what
                    = std::string(k->isa) + " n " + std::to_string(n);
            double s[4] = {}, mx = -1e30, mn = 1e30, prod = 1;
            for (dim_t i = 0; i < n; ++i) {
                const double v = x[(size_t)i];
                s[0] += v;
                s[1] += std::fabs(v);
                s[2] += v * v;
                s[3] += std::pow(std::fabs(v), (double)p);
                mx = std::max(mx, v);
                mn = std::min(mn, v);
                prod *= y[(size_t)i];
            }
            const double tol = 1e-5 * (double)n;
            for (int tr = 0; tr < 4; ++tr)
                EXPECT_NEAR(k->reduce_run(0, tr, x.data(), n, p, 0.25f),
                        0.25 + s[tr], tol)
                        << what << " sum tr " << tr;
            EXPECT_EQ(k->reduce_run(1, 0, x.data(), n, p, -1e30f), (float)mx)
                    << what;
            EXPECT_EQ(k->reduce_run(1, 0, x.data(), n, p, 5.f), 5.f) << what;
            EXPECT_EQ(k->reduce_run(2, 0, x.data(), n, p, 1e30f), (float)mn)
                    << what;
            EXPECT_NEAR(k->reduce_run(3, 0, y.data(), n, p, 2.f), 2 * prod,
                    1e-5 * n * prod)
                    << what;
            // Lanes: acc[i] combined with x[i].
            const auto acc0 = random_floats((size_t)n, -1.f, 1.f, 20);
            for (int comb = 0; comb < 4; ++comb)
                for (int tr = 0; tr < (comb ? 1 : 4); ++tr) {
                    auto acc = acc0;
                    k->reduce_lanes(comb, tr, x.data(), n, p, acc.data());
                    for (dim_t i = 0; i < n; ++i) {
                        const double a = acc0[(size_t)i], v = x[(size_t)i];
                        const double t[4] = {v, std::fabs(v), v * v,
                                std::pow(std::fabs(v), (double)p)};
                        const double want = comb == 1 ? std::max(a, v)
                                : comb == 2           ? std::min(a, v)
                                : comb == 3           ? a * v
                                                      : a + t[tr];
                        ASSERT_NEAR(acc[(size_t)i], want, 1e-5)
                                << what << " lanes " << comb << "/" << tr;
                    }
                }
        }
}

TEST(KernelTables, RowsGatherPreluEltwiseOnEveryIsa) {
    for (const auto *k : entries())
        for (dim_t n : lengths) {
            const std::string what
                    = std::string(k->isa) + " n " + std::to_string(n);
            std::vector<uint32_t> in((size_t)(2 * n));
            for (size_t i = 0; i < in.size(); ++i)
                in[i] = 0x9e3779b9u * (uint32_t)(i + 1);
            std::vector<int32_t> idx((size_t)n);
            for (dim_t i = 0; i < n; ++i)
                idx[(size_t)i] = (int32_t)((i * 5 + 3) % (2 * n));
            std::vector<uint32_t> out((size_t)n + 1, 7u);
            k->gather32(in.data(), idx.data(), out.data(), n);
            for (dim_t i = 0; i < n; ++i)
                ASSERT_EQ(out[(size_t)i], in[(size_t)idx[(size_t)i]]) << what;
            EXPECT_EQ(out[(size_t)n], 7u) << what << " wrote past n";

            const auto x = random_floats((size_t)n, -2.f, 2.f, 21);
            const auto w = random_floats((size_t)n, -1.f, 1.f, 22);
            const auto dd = random_floats((size_t)n, -1.f, 1.f, 23);
            for (bool ws : {false, true}) {
                std::vector<float> y((size_t)n), ds((size_t)n), c((size_t)n);
                k->prelu_fwd(x.data(), w.data(), ws, y.data(), n);
                k->prelu_bwd(x.data(), w.data(), ws, dd.data(), ds.data(),
                        c.data(), n);
                for (dim_t i = 0; i < n; ++i) {
                    const size_t j = (size_t)i;
                    const float wi = w[ws ? 0 : j];
                    ASSERT_EQ(y[j], x[j] > 0 ? x[j] : x[j] * wi) << what;
                    ASSERT_EQ(ds[j], x[j] > 0 ? dd[j] : wi * dd[j]) << what;
                    ASSERT_EQ(c[j], x[j] > 0 ? 0.f : x[j] * dd[j]) << what;
                }
            }

            struct alg_t {
                dnnl_alg_kind_t alg;
                float alpha, beta;
                double (*f)(double, double, double);
            } algs[] = {
                    {dnnl_eltwise_relu, 0.f, 0.f,
                            [](double v, double, double) {
                                return v > 0 ? v : 0.;
                            }},
                    {dnnl_eltwise_relu, 0.25f, 0.f,
                            [](double v, double a, double) {
                                return v > 0 ? v : a * v;
                            }},
                    {dnnl_eltwise_linear, 1.5f, -0.5f,
                            [](double v, double a, double b) {
                                return a * v + b;
                            }},
                    {dnnl_eltwise_tanh, 0.f, 0.f,
                            [](double v, double, double) {
                                return std::tanh(v);
                            }},
                    {dnnl_eltwise_exp, 0.f, 0.f,
                            [](double v, double, double) {
                                return std::exp(v);
                            }},
                    {dnnl_eltwise_gelu_erf, 0.f, 0.f,
                            [](double v, double, double) {
                                return 0.5 * v * (1 + std::erf(v / std::sqrt(2.)));
                            }},
            };
            for (const auto &e : algs) {
                auto v = x;
                k->eltwise(e.alg, e.alpha, e.beta, 0.5f, v.data(), n);
                for (dim_t i = 0; i < n; ++i) {
                    const double want
                            = 0.5 * e.f(x[(size_t)i], e.alpha, e.beta);
                    ASSERT_NEAR(v[(size_t)i], want,
                            1e-5 * std::max(1.0, std::fabs(want)))
                            << what << " alg " << e.alg;
                }
            }
            std::vector<float> sb((size_t)n);
            const float *sc = k->scale(x.data(), n, false, 3.f, sb.data());
            for (dim_t i = 0; i < n; ++i)
                ASSERT_EQ(sc[i], x[(size_t)i] * 3.f) << what << " scale";
            EXPECT_EQ(k->scale(x.data(), n, true, 3.f, sb.data())[0],
                    x[0] * 3.f)
                    << what;
        }
}

namespace {

// One entry of a post-op chain as rows::apply reads it.
rows::po_chain_t::entry_t po_entry(dnnl::impl::post_op_kind_t kind,
        dnnl_alg_kind_t alg, int tensor = -1, int cond = -1) {
    rows::po_chain_t::entry_t e {};
    e.kind = kind;
    e.alg = alg;
    e.scale = 1.f;
    e.sum_dt = dnnl_f32;
    e.tensor = tensor;
    e.cond = cond;
    return e;
}

} // namespace

// The whole chain on one row, per table entry: eltwise with a scale, a
// binary source of another type with a stride, sum of an s8 destination
// with scale and zero point, PReLU with a broadcast weight, select on an
// s8 condition, and a broadcast binary operand; against the formulas in
// double.
TEST(KernelTables, RowsApplyOnEveryIsa) {
    using kind = dnnl::impl::post_op_kind_t;
    rows::po_chain_t c;
    auto elt = po_entry(kind::eltwise, dnnl_eltwise_linear);
    elt.alpha = 2.f;
    elt.beta = 1.f;
    elt.scale = 0.5f;
    auto sum = po_entry(kind::sum, dnnl_alg_kind_undef);
    sum.scale = 0.5f;
    sum.zero_point = 1.f;
    sum.sum_dt = dnnl_s8;
    c.entries = {elt, po_entry(kind::binary, dnnl_binary_add, 0), sum,
            po_entry(kind::prelu, dnnl_alg_kind_undef, 1),
            po_entry(kind::binary, dnnl_binary_select, 2, 3),
            po_entry(kind::binary, dnnl_binary_max, 4)};
    for (const auto *k : entries())
        for (dim_t n : lengths) {
            const std::string what = std::string(k->isa) + " n " + std::to_string(n);
            const auto x = random_floats((size_t)n, -2.f, 2.f, 31);
            const auto src1 = random_floats((size_t)(3 * n + 3), -1.f, 1.f, 32);
            std::vector<uint16_t> src1_bf((size_t)(3 * n + 3));
            for (size_t i = 0; i < src1.size(); ++i) src1_bf[i] = to_bf16(src1[i]);
            std::vector<int8_t> old((size_t)n), cond((size_t)n);
            for (dim_t i = 0; i < n; ++i) {
                old[(size_t)i] = (int8_t)((i * 37) % 201 - 100);
                cond[(size_t)i] = (int8_t)(i % 3 - 1);
            }
            const float prelu_w = 0.25f, sel_other = -0.75f, max_with = -1.5f;
            rows::row_t t[5];
            t[0] = row_of(shape_t::strided, src1_bf.data(), dnnl_bf16, {});
            t[1].base = &prelu_w;
            t[1].st = 0;
            t[2].base = &sel_other;
            t[2].st = 0;
            t[3].base = cond.data();
            t[3].dt = dnnl_s8;
            t[4].base = &max_with;
            t[4].st = 0;
            rows::row_t o;
            o.base = old.data();
            o.dt = dnnl_s8;
            std::vector<float> v = x, buf((size_t)rows::chunk);
            k->apply(c, v.data(), n, t, o, buf.data());
            for (dim_t i = 0; i < n; ++i) {
                const size_t j = (size_t)i;
                double w = 0.5 * (2.0 * x[j] + 1.0);
                w += from_bf16(src1_bf[3 + 3 * j]);
                w += 0.5 * (old[j] - 1.0);
                w = w > 0 ? w : 0.25 * w;
                w = cond[j] > 0 ? w : sel_other;
                w = std::max(w, (double)max_with);
                ASSERT_NEAR(v[j], w, 1e-5 * std::max(1.0, std::fabs(w)))
                        << what << " at " << i;
            }
        }
}
