// The fast reorder's kernel table (src/cpu/reorder/simple_exec.hpp): each
// entry this processor supports runs hand-made plans of both kernel kinds
// against naive loops: linear (contiguous conversion; same-type copies;
// strided loops two and three deep with base offsets; common, indexed
// and summed quantization) and tiled transposes (4-byte and 1-byte
// elements, plain and with per-row scales), with sizes that leave
// partial tiles and chunks. Destination elements outside the plan must
// stay untouched.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/reorder/simple_exec.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace reorder = dnnl::impl::cpu::reorder;
using reorder::node_t;
using kernel_table_glue::random_floats;

const auto entries = [] {
    return kernel_table_glue::runnable_entries<reorder::exec_kernel_t>(
            "reorder");
};

// Quantization values for plans without them (the kernels always read
// the arrays).
struct quant_t {
    std::vector<float> ss {1.f}, ds {1.f};
    std::vector<int32_t> sz {0}, dz {0};
    dim_t mss = 0, mds = 0, msz = 0, mdz = 0;
    float beta = 0.f;
    reorder::kq_t kq() const {
        return {ss.data(), ds.data(), sz.data(), dz.data(), mss, mds, msz, mdz,
                beta};
    }
};

uint16_t bf16_round(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

int8_t s8_round(float f) {
    const float c = f < -128.f ? -128.f : f > 127.f ? 127.f : f;
    return (int8_t)std::nearbyint(c);
}

// Source and destination offsets of every element of a linear plan, in
// the plan's order: k3, k2, k1 around each outer position.
template <typename F>
void for_linear(const reorder::simple_plan_t &p, F f) {
    dim_t w = 1;
    for (const auto &n : p.outer)
        w *= n.n;
    for (dim_t o = 0; o < w; ++o) {
        dim_t so = p.s0, dof = p.d0, qo = 0, r = o;
        for (int k = (int)p.outer.size() - 1; k >= 0; --k) {
            const dim_t i = r % p.outer[(size_t)k].n;
            r /= p.outer[(size_t)k].n;
            so += i * p.outer[(size_t)k].is;
            dof += i * p.outer[(size_t)k].os;
            qo += i * p.outer[(size_t)k].qs;
        }
        for (dim_t l = 0; l < p.k3.n; ++l)
            for (dim_t j = 0; j < p.k2.n; ++j)
                for (dim_t i = 0; i < p.k1.n; ++i)
                    f(so + l * p.k3.is + j * p.k2.is + i * p.k1.is,
                            dof + l * p.k3.os + j * p.k2.os + i * p.k1.os,
                            qo + l * p.k3.qs + j * p.k2.qs + i * p.k1.qs);
    }
}

} // namespace

// f32 -> bf16, one contiguous run cut into chunks with a short last one.
TEST(KernelTables, ReorderLinearConvertOnEveryIsa) {
    ASSERT_FALSE(entries().empty());
    const dim_t n = 1029;
    const auto src = random_floats((size_t)n, -100.f, 100.f, 41);
    for (const auto *e : entries()) {
        reorder::simple_plan_t p;
        p.kind = reorder::kernel_kind_t::linear;
        p.k1 = {n, 1, 1, 0};
        p.chunk = 256;
        p.elems = n;
        p.sdt = dnnl_f32;
        p.ddt = dnnl_bf16;
        std::vector<uint16_t> dst((size_t)n + 3, 0xdead);
        const quant_t q;
        e->run(p, src.data(), dst.data(), q.kq());
        for (dim_t i = 0; i < n; ++i)
            ASSERT_EQ(dst[(size_t)i], bf16_round(src[(size_t)i]))
                    << e->isa << " at " << i;
        for (dim_t i = n; i < n + 3; ++i)
            EXPECT_EQ(dst[(size_t)i], 0xdead) << e->isa << " wrote past the end";
    }
}

// f32 -> s8 with a common source zero point and scales (powers of two, so
// the arithmetic is exact whatever the compiler fuses), through strided
// k1, k2 and k3 loops and base offsets; chunks of k3.
TEST(KernelTables, ReorderLinearStridedQuantizedOnEveryIsa) {
    for (const auto *e : entries()) {
        reorder::simple_plan_t p;
        p.kind = reorder::kernel_kind_t::linear;
        p.outer = {{2, 1000, 400, 0}};
        p.k1 = {13, 3, 1, 0};
        p.k2 = {7, 40, 13, 0};
        p.k3 = {3, 300, 91, 0};
        p.chunk = 2;
        p.s0 = 5;
        p.d0 = 3;
        p.elems = 2 * 13 * 7 * 3;
        p.qmode = reorder::qmode_t::scalar;
        p.sdt = dnnl_f32;
        p.ddt = dnnl_s8;
        const auto src = random_floats(2000, -300.f, 300.f, 42);
        std::vector<int8_t> dst(800, 77);
        quant_t q;
        q.ss = {0.5f};
        q.sz = {3};
        q.ds = {0.25f};
        q.dz = {-5};
        e->run(p, src.data(), dst.data(), q.kq());
        std::vector<int8_t> want(800, 77);
        for_linear(p, [&](dim_t so, dim_t dof, dim_t) {
            const float f = 0.5f * (src[(size_t)so] - 3.f) / 0.25f - 5.f;
            want[(size_t)dof] = s8_round(f);
        });
        for (size_t i = 0; i < want.size(); ++i)
            ASSERT_EQ(dst[i], want[i]) << e->isa << " at " << i;
    }
}

// f32 -> f32 with per-element (indexed) source scales along k1 and a sum
// into the old destination.
TEST(KernelTables, ReorderLinearIndexedWithSumOnEveryIsa) {
    for (const auto *e : entries()) {
        reorder::simple_plan_t p;
        p.kind = reorder::kernel_kind_t::linear;
        p.outer = {{5, 70, 70, 0}};
        p.k1 = {67, 1, 1, 1};
        p.chunk = 67;
        p.elems = 5 * 67;
        p.qmode = reorder::qmode_t::indexed;
        p.qidx[0] = true;
        p.sdt = p.ddt = dnnl_f32;
        const auto src = random_floats(350, -4.f, 4.f, 43);
        auto dst = random_floats(350, -4.f, 4.f, 44);
        const auto old = dst;
        quant_t q;
        q.ss = random_floats(67, 0.5f, 2.f, 45);
        q.mss = 1;
        q.beta = 0.5f;
        e->run(p, src.data(), dst.data(), q.kq());
        for (dim_t o = 0; o < 5; ++o)
            for (dim_t i = 0; i < 70; ++i) {
                const size_t x = (size_t)(o * 70 + i);
                const double want = i < 67
                        ? (double)q.ss[(size_t)i] * src[x] + 0.5 * old[x]
                        : (double)old[x];
                EXPECT_NEAR(dst[x], want, 1e-5 * (1 + std::fabs(want)))
                        << e->isa << " at " << x;
            }
    }
}

// s8 -> f32 with per-element source scales and zero points and
// per-element destination scales along a run longer than the kernels'
// f32 rows (several rows per run, a short last one), destination strided.
// Powers of two: every result exact.
TEST(KernelTables, ReorderLinearIndexedLongRunsOnEveryIsa) {
    const dim_t n = 600;
    for (const auto *e : entries()) {
        reorder::simple_plan_t p;
        p.kind = reorder::kernel_kind_t::linear;
        p.outer = {{2, n, 2 * n, n}};
        p.k1 = {n, 1, 2, 1};
        p.chunk = n;
        p.elems = 2 * n;
        p.qmode = reorder::qmode_t::indexed;
        p.qidx[0] = true;
        p.sdt = dnnl_s8;
        p.ddt = dnnl_f32;
        std::vector<int8_t> src((size_t)(2 * n));
        for (size_t i = 0; i < src.size(); ++i)
            src[i] = (int8_t)((int)(i * 13) % 251 - 125);
        std::vector<float> dst((size_t)(4 * n), -1.f);
        quant_t q;
        q.ss.resize((size_t)(2 * n));
        q.sz.resize((size_t)(2 * n));
        q.ds.resize((size_t)(2 * n));
        for (size_t i = 0; i < q.ss.size(); ++i) {
            q.ss[i] = std::ldexp(1.f, (int)(i % 5) - 2);
            q.sz[i] = (int32_t)(i % 7) - 3;
            q.ds[i] = std::ldexp(1.f, (int)(i % 3) - 1);
        }
        q.mss = q.msz = q.mds = 1;
        e->run(p, src.data(), dst.data(), q.kq());
        for (dim_t o = 0; o < 2; ++o)
            for (dim_t i = 0; i < 2 * n; ++i) {
                const size_t x = (size_t)(o * 2 * n + i);
                float want = -1.f;
                if (i % 2 == 0) {
                    const size_t k = (size_t)(o * n + i / 2);
                    want = q.ss[k] * (float)(src[k] - q.sz[k]) / q.ds[k];
                }
                ASSERT_EQ(dst[x], want) << e->isa << " at " << x;
            }
    }
}

// Same-type copies (the move paths: 32 and 64 bytes, 64 elements and
// more, short runs element by element) of 4-, 2- and 1-byte elements,
// contiguous and strided, in chunks with a short last one.
TEST(KernelTables, ReorderLinearSameTypeCopyOnEveryIsa) {
    struct dt_case_t {
        dnnl_data_type_t dt;
        size_t size;
    } dts[] = {{dnnl_f32, 4}, {dnnl_bf16, 2}, {dnnl_s8, 1}};
    for (const auto *e : entries())
        for (const auto &c : dts)
            for (dim_t n : {1, 5, 8, 16, 17, 32, 63, 64, 100, 333})
                for (dim_t stride : {1, 3}) {
                    reorder::simple_plan_t p;
                    p.kind = reorder::kernel_kind_t::linear;
                    p.outer = {{3, n * stride + 2, n * stride + 1, 0}};
                    p.k1 = {n, stride, stride, 0};
                    p.chunk = n > 40 ? 40 : n;
                    p.s0 = 2;
                    p.d0 = 1;
                    p.elems = 3 * n;
                    p.sdt = p.ddt = c.dt;
                    const size_t ns = (size_t)(3 * (n * stride + 2) + 2);
                    const size_t nd = (size_t)(3 * (n * stride + 1) + 5);
                    std::vector<uint8_t> src(ns * c.size), dst(nd * c.size, 0xa5);
                    // Bytes below 0x7f: no element is a NaN, whose bits
                    // a conversion through f32 might change.
                    for (size_t i = 0; i < src.size(); ++i)
                        src[i] = (uint8_t)((i * 37 + 11) % 0x7f);
                    auto want = dst;
                    for_linear(p, [&](dim_t so, dim_t dof, dim_t) {
                        std::memcpy(&want[(size_t)dof * c.size],
                                &src[(size_t)so * c.size], c.size);
                    });
                    const quant_t q;
                    e->run(p, src.data(), dst.data(), q.kq());
                    for (size_t i = 0; i < dst.size(); ++i)
                        ASSERT_EQ(dst[i], want[i])
                                << e->isa << " dt " << c.dt << " n " << n
                                << " stride " << stride << " byte " << i;
                }
}

// f32 -> s8 with common scales, zero points and a sum into the old
// destination (powers of two: exact whatever the compiler fuses),
// contiguous and strided.
TEST(KernelTables, ReorderLinearScalarSumOnEveryIsa) {
    for (const auto *e : entries())
        for (dim_t stride : {1, 2}) {
            const dim_t n = 203;
            reorder::simple_plan_t p;
            p.kind = reorder::kernel_kind_t::linear;
            p.k1 = {n, stride, stride, 0};
            p.chunk = 64;
            p.elems = n;
            p.qmode = reorder::qmode_t::scalar_sum;
            p.sdt = dnnl_f32;
            p.ddt = dnnl_s8;
            const auto src = random_floats((size_t)(n * stride), -60.f, 60.f, 47);
            std::vector<int8_t> dst((size_t)(n * stride) + 4);
            for (size_t i = 0; i < dst.size(); ++i)
                dst[i] = (int8_t)((int)(i * 7) % 31 - 15);
            const auto old = dst;
            quant_t q;
            q.ss = {0.5f};
            q.sz = {3};
            q.ds = {0.25f};
            q.dz = {-5};
            q.beta = 2.f;
            e->run(p, src.data(), dst.data(), q.kq());
            auto want = old;
            for (dim_t i = 0; i < n; ++i) {
                const size_t x = (size_t)(i * stride);
                const float f = 0.5f * (src[x] - 3.f) + 2.f * (float)old[x];
                want[x] = s8_round(f / 0.25f - 5.f);
            }
            for (size_t i = 0; i < dst.size(); ++i)
                ASSERT_EQ(dst[i], want[i])
                        << e->isa << " stride " << stride << " at " << i;
        }
}

namespace {

// A tiled transpose of A x B elements (source rows of B, ld lda; the
// destination's rows of A, ld ldb) twice (an outer loop), with tile
// sides `t` that leave partial tiles.
reorder::simple_plan_t tile_plan(dim_t A, dim_t B, dim_t lda, dim_t ldb,
        dim_t t, dnnl_data_type_t sdt, dnnl_data_type_t ddt) {
    reorder::simple_plan_t p;
    p.kind = reorder::kernel_kind_t::tile;
    p.outer = {{2, A * lda, B * ldb, A}};
    p.ka = {A, lda, 1, 1};
    p.kb = {B, 1, ldb, 0};
    p.tile_a = t;
    p.tile_b = t;
    p.elems = 2 * A * B;
    p.sdt = sdt;
    p.ddt = ddt;
    return p;
}

} // namespace

TEST(KernelTables, ReorderTileTransposeOnEveryIsa) {
    const dim_t A = 37, B = 29, lda = 31, ldb = 40;
    const auto src = random_floats((size_t)(2 * A * lda), -1.f, 1.f, 46);
    std::vector<int8_t> src8(src.size());
    for (size_t i = 0; i < src.size(); ++i)
        src8[i] = (int8_t)(i * 37 % 251);
    for (const auto *e : entries()) {
        // 4-byte elements, 16 x 16 tiles.
        auto p = tile_plan(A, B, lda, ldb, 16, dnnl_f32, dnnl_f32);
        std::vector<float> dst((size_t)(2 * B * ldb), -9.f);
        const quant_t q;
        e->run(p, src.data(), dst.data(), q.kq());
        // 1-byte elements, 32 x 32 tiles.
        auto p8 = tile_plan(A, B, lda, ldb, 32, dnnl_s8, dnnl_s8);
        std::vector<int8_t> dst8((size_t)(2 * B * ldb), -9);
        e->run(p8, src8.data(), dst8.data(), q.kq());
        for (dim_t o = 0; o < 2; ++o)
            for (dim_t b = 0; b < B; ++b)
                for (dim_t a = 0; a < ldb; ++a) {
                    const size_t d = (size_t)(o * B * ldb + b * ldb + a);
                    const size_t s = (size_t)(o * A * lda + a * lda + b);
                    if (a >= A) {
                        EXPECT_EQ(dst[d], -9.f) << e->isa << " wrote past A";
                        EXPECT_EQ(dst8[d], -9) << e->isa << " wrote past A";
                        continue;
                    }
                    ASSERT_EQ(dst[d], src[s]) << e->isa << " f32 at " << d;
                    ASSERT_EQ(dst8[d], src8[s]) << e->isa << " s8 at " << d;
                }
    }
}

// s8 -> f32 through the tile with a scale per source row (along a):
// per-element quantization on the transposing path.
TEST(KernelTables, ReorderTileIndexedScalesOnEveryIsa) {
    const dim_t A = 21, B = 35, lda = 35, ldb = 24;
    std::vector<int8_t> src((size_t)(2 * A * lda));
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = (int8_t)((int)(i * 53 % 255) - 127);
    for (const auto *e : entries()) {
        auto p = tile_plan(A, B, lda, ldb, 16, dnnl_s8, dnnl_f32);
        p.qmode = reorder::qmode_t::indexed;
        p.qidx[0] = true;
        quant_t q;
        q.ss = random_floats((size_t)(2 * A), 0.5f, 2.f, 47);
        q.mss = 1;
        std::vector<float> dst((size_t)(2 * B * ldb), -9.f);
        e->run(p, src.data(), dst.data(), q.kq());
        for (dim_t o = 0; o < 2; ++o)
            for (dim_t b = 0; b < B; ++b)
                for (dim_t a = 0; a < ldb; ++a) {
                    const size_t d = (size_t)(o * B * ldb + b * ldb + a);
                    if (a >= A) {
                        EXPECT_EQ(dst[d], -9.f) << e->isa << " wrote past A";
                        continue;
                    }
                    const size_t s = (size_t)(o * A * lda + a * lda + b);
                    const float want
                            = q.ss[(size_t)(o * A + a)] * (float)src[s];
                    ASSERT_EQ(dst[d], want) << e->isa << " at " << d;
                }
    }
}

namespace {

// n elements of T filled with `fill`, at0() on a 64-byte boundary.
template <typename T>
struct aligned_buf_t {
    aligned_buf_t(size_t n, T fill) : raw(n + 64 / sizeof(T), fill) {
        const uintptr_t p = (uintptr_t)raw.data();
        base = raw.data() + ((64 - p % 64) % 64) / sizeof(T);
    }
    T *at0() { return base; }
    std::vector<T> raw;
    T *base = nullptr;
};

} // namespace

// Streamed destinations (stream_dst): 4-byte tiles through the 16 x 16
// transposes (non-temporal rows where a destination row is an aligned
// line: the destination's row stride a multiple of 16 and its base
// aligned, or not, so both store kinds run), the edges past the whole
// blocks, and f32 -> bf16 tiles through the row buffer.
TEST(KernelTables, ReorderStreamedTileOnEveryIsa) {
    const dim_t A = 45, B = 40, lda = 47, ldb = 64;
    const auto src = random_floats((size_t)(2 * A * lda), -1.f, 1.f, 48);
    for (const auto *e : entries())
        for (dim_t d0 : {0, 16, 3}) {
            auto p = tile_plan(A, B, lda, ldb, 16, dnnl_f32, dnnl_f32);
            p.stream_dst = true;
            p.d0 = d0;
            const size_t nd = (size_t)(2 * B * ldb + d0 + 8);
            aligned_buf_t<float> dst(nd, -9.f);
            const quant_t q;
            e->run(p, src.data(), dst.at0(), q.kq());
            auto p16 = tile_plan(A, B, lda, ldb, 32, dnnl_f32, dnnl_bf16);
            p16.stream_dst = true;
            p16.d0 = d0;
            aligned_buf_t<uint16_t> dst16(nd, 0xdead);
            e->run(p16, src.data(), dst16.at0(), q.kq());
            for (size_t i = 0; i < nd; ++i) {
                const dim_t x = (dim_t)i - d0;
                const dim_t o = x / (B * ldb), b = x % (B * ldb) / ldb,
                            a = x % ldb;
                const bool in = x >= 0 && o < 2 && a < A;
                const size_t s = (size_t)(o * A * lda + a * lda + b);
                const std::string what = std::string(e->isa) + " d0 "
                                         + std::to_string(d0) + " at "
                                         + std::to_string(i);
                if (!in) {
                    ASSERT_EQ(dst.at0()[i], -9.f) << what << " written";
                    ASSERT_EQ(dst16.at0()[i], 0xdead) << what << " written";
                    continue;
                }
                ASSERT_EQ(dst.at0()[i], src[s]) << what;
                ASSERT_EQ(dst16.at0()[i], bf16_round(src[s]))
                        << what << " bf16";
            }
        }
}

// Streamed contiguous runs: same-type copies (lines streamed between an
// unaligned head and tail) and conversions through the buffer (f32 ->
// bf16, f32 -> s8 with common scales and zero points), in chunks longer
// than the buffer, with the destination at several alignments.
TEST(KernelTables, ReorderStreamedLinearOnEveryIsa) {
    const dim_t n = 3001;
    const auto src = random_floats((size_t)n + 8, -300.f, 300.f, 49);
    for (const auto *e : entries())
        for (dim_t d0 : {0, 1, 5, 16}) {
            reorder::simple_plan_t p;
            p.kind = reorder::kernel_kind_t::linear;
            p.k1 = {n, 1, 1, 0};
            p.chunk = 1100;
            p.elems = n;
            p.s0 = 3;
            p.d0 = d0;
            p.stream_dst = true;
            const size_t nd = (size_t)(n + d0 + 20);
            const quant_t q0;
            aligned_buf_t<float> dst(nd, -9.f);
            e->run(p, src.data(), dst.at0(), q0.kq());
            p.ddt = dnnl_bf16;
            aligned_buf_t<uint16_t> dst16(nd, 0xdead);
            e->run(p, src.data(), dst16.at0(), q0.kq());
            p.ddt = dnnl_s8;
            p.qmode = reorder::qmode_t::scalar;
            quant_t q;
            q.ss = {0.5f};
            q.sz = {3};
            q.ds = {0.25f};
            q.dz = {-5};
            aligned_buf_t<int8_t> dst8(nd, 77);
            e->run(p, src.data(), dst8.at0(), q.kq());
            for (size_t i = 0; i < nd; ++i) {
                const dim_t x = (dim_t)i - d0;
                const std::string what = std::string(e->isa) + " d0 "
                                         + std::to_string(d0) + " at "
                                         + std::to_string(i);
                if (x < 0 || x >= n) {
                    ASSERT_EQ(dst.at0()[i], -9.f) << what << " written";
                    ASSERT_EQ(dst16.at0()[i], 0xdead) << what << " written";
                    ASSERT_EQ(dst8.at0()[i], 77) << what << " written";
                    continue;
                }
                const float s = src[(size_t)(x + 3)];
                ASSERT_EQ(dst.at0()[i], s) << what;
                ASSERT_EQ(dst16.at0()[i], bf16_round(s)) << what << " bf16";
                ASSERT_EQ(
                        dst8.at0()[i], s8_round(0.5f * (s - 3.f) / 0.25f - 5.f))
                        << what << " s8";
            }
        }
}
