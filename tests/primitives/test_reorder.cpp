// Reorder primitive tests: layouts (plain, channels-last, blocked with
// padding, double-blocked weights, strided sub-memories), every data type
// pair with rounding and saturation, scales, zero points, the sum post-op,
// argument checking, zero-size tensors and engines. Results are compared
// with the naive reference in tests/reference/reorder_ref.*, on every
// implementation the library offers for a problem (next_impl).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "tensor_glue.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

// Random value of a data type's useful range (exactly representable after
// the store rounds it).
double random_value(std::mt19937 &gen, dt d) {
    switch (d) {
    case dt::s8:
        return std::uniform_int_distribution<int>(-128, 127)(gen);
    case dt::u8:
        return std::uniform_int_distribution<int>(0, 255)(gen);
    case dt::s32:
        return std::uniform_int_distribution<int>(-70000, 70000)(gen);
    default: // floats: quarter steps in [-300, 300], ties included
        return std::uniform_int_distribution<int>(-1200, 1200)(gen) / 4.0;
    }
}

// Fills every element slot of a buffer with a recognisable pattern, then
// the logical positions with random values.
std::vector<uint8_t> make_buffer(const memory::desc &md, std::mt19937 &gen,
        uint8_t pattern, bool fill_values) {
    // A sub-memory's size does not count its offset: cover the largest
    // element offset as well.
    const rr::layout_t l = layout_of(md);
    const rr::dtype rd = ref_dt(md.get_data_type());
    int64_t max_off = 0;
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        max_off = std::max(max_off, rr::offset(l, pos));
    });
    const size_t bytes = std::max<size_t>(
            md.get_size(), (size_t)(max_off + 1) * rr::dtype_size(rd));
    std::vector<uint8_t> buf(bytes, pattern);
    if (!fill_values) return buf;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        rr::store(rd, buf.data(), rr::offset(l, pos),
                random_value(gen, md.get_data_type()));
    });
    return buf;
}

// Quantization arguments of one test: values for the reference and the
// attribute + memories for the library.
struct quant_case_t {
    rr::quant_t q;
    bool src_scale = false, dst_scale = false, src_zp = false, dst_zp = false;

    primitive_attr attr() const {
        primitive_attr a;
        if (src_scale) a.set_scales_mask(DNNL_ARG_SRC, q.src_scale_mask);
        if (dst_scale) a.set_scales_mask(DNNL_ARG_DST, q.dst_scale_mask);
        if (src_zp) a.set_zero_points_mask(DNNL_ARG_SRC, q.src_zp_mask);
        if (dst_zp) a.set_zero_points_mask(DNNL_ARG_DST, q.dst_zp_mask);
        if (q.with_sum) {
            post_ops po;
            po.append_sum(q.beta);
            a.set_post_ops(po);
        }
        return a;
    }
};

int64_t masked_count(int mask, const memory::dims &dims) {
    int64_t n = 1;
    for (size_t d = 0; d < dims.size(); ++d)
        if (mask & (1 << d)) n *= dims[d];
    return n;
}

std::vector<float> random_scales(std::mt19937 &gen, int64_t n, bool pow2_only) {
    std::vector<float> v(n);
    for (auto &s : v) {
        if (pow2_only)
            s = std::ldexp(1.f, std::uniform_int_distribution<int>(-2, 2)(gen));
        else
            s = std::uniform_real_distribution<float>(0.1f, 3.f)(gen);
    }
    return v;
}

std::vector<int32_t> random_zps(std::mt19937 &gen, int64_t n, int lo, int hi) {
    std::vector<int32_t> v(n);
    for (auto &z : v) z = std::uniform_int_distribution<int>(lo, hi)(gen);
    return v;
}

// Whether two element values agree: bit-exact, or within what rounding of
// an f32 computation can change when `exact` is false.
bool values_match(rr::dtype d, double got, double exp, bool exact) {
    if (got == exp) return true;
    if (std::isnan(got) && std::isnan(exp)) return true;
    if (exact) return false;
    const double a = std::fabs(exp);
    switch (d) {
    case rr::dtype::f32:
        return std::fabs(got - exp) <= 1e-5 * a + 1e-30;
    case rr::dtype::bf16:
        return std::fabs(got - exp) <= a / 128 + 1e-30;
    case rr::dtype::f16:
        return std::fabs(got - exp) <= a / 1024 + 6e-8;
    default:
        return std::fabs(got - exp) <= 1;
    }
}

struct problem_t {
    memory::desc src, dst;
    quant_case_t quant;
    bool exact = true;
};

// Runs `p` with every implementation the library offers and compares the
// whole destination buffer (padding and untouched elements included) with
// the reference. Returns how many implementations were tried.
int run_and_check(const problem_t &p, unsigned seed = 1) {
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    std::mt19937 gen(seed);
    const rr::layout_t sl = layout_of(p.src), dl = layout_of(p.dst);
    SCOPED_TRACE("src " + describe(p.src) + " dst " + describe(p.dst));
    const rr::dtype sdt = ref_dt(p.src.get_data_type());
    const rr::dtype ddt = ref_dt(p.dst.get_data_type());

    const auto src_buf = make_buffer(p.src, gen, 0x3c, true);
    const auto dst_init = make_buffer(p.dst, gen, 0x5a, p.quant.q.with_sum);
    auto expected = dst_init;
    rr::reorder(sl, sdt, src_buf.data(), dl, ddt, expected.data(), p.quant.q);

    const auto dims = p.src.get_dims();
    const auto &q = p.quant.q;
    std::vector<float> ss = q.src_scales, ds = q.dst_scales;
    std::vector<int32_t> sz = q.src_zps, dz = q.dst_zps;
    auto vec_mem = [&](void *data, int64_t n, dt d) {
        return memory({{n}, d, tag::a}, eng, data);
    };

    primitive_attr attr = p.quant.attr();
    reorder::primitive_desc pd(eng, p.src, eng, p.dst, attr);
    int impls = 0;
    do {
        ++impls;
        std::vector<uint8_t> src_copy = src_buf, dst_got = dst_init;
        memory sm(p.src, eng, src_copy.data()), dm(p.dst, eng, dst_got.data());
        std::unordered_map<int, memory> args = {
                {DNNL_ARG_FROM, sm}, {DNNL_ARG_TO, dm}};
        if (p.quant.src_scale)
            args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] =
                    vec_mem(ss.data(), (int64_t)ss.size(), dt::f32);
        if (p.quant.dst_scale)
            args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] =
                    vec_mem(ds.data(), (int64_t)ds.size(), dt::f32);
        if (p.quant.src_zp)
            args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC] =
                    vec_mem(sz.data(), (int64_t)sz.size(), dt::s32);
        if (p.quant.dst_zp)
            args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST] =
                    vec_mem(dz.data(), (int64_t)dz.size(), dt::s32);
        reorder(pd).execute(strm, args);
        strm.wait();

        EXPECT_EQ(src_copy, src_buf) << "source modified";
        const size_t esz = rr::dtype_size(ddt);
        int errors = 0;
        for (size_t i = 0; i + esz <= dst_got.size() && errors < 5; i += esz) {
            if (std::memcmp(&dst_got[i], &expected[i], esz) == 0) continue;
            const double g = rr::load(ddt, dst_got.data(), (int64_t)(i / esz));
            const double e = rr::load(ddt, expected.data(), (int64_t)(i / esz));
            if (values_match(ddt, g, e, p.exact)) continue;
            ++errors;
            ADD_FAILURE() << "impl " << pd.impl_info_str() << " "
                          << dt_name(p.src.get_data_type()) << "->"
                          << dt_name(p.dst.get_data_type()) << ": element "
                          << i / esz << " got " << g << " expected " << e;
        }
    } while (dnnl_test_primitive_desc_next_impl(pd.get()) == dnnl_success);
    return impls;
}

problem_t plain_problem(
        const memory::dims &dims, dt sdt, tag stag, dt ddt, tag dtag) {
    problem_t p;
    p.src = memory::desc(dims, sdt, stag);
    p.dst = memory::desc(dims, ddt, dtag);
    return p;
}

const dt all_dts[] = {dt::f32, dt::bf16, dt::f16, dt::s32, dt::s8, dt::u8};

} // namespace

// ---- layouts ----

struct tag_case_t {
    memory::dims dims;
    tag stag, dtag;
};

class reorder_tags_t : public ::testing::TestWithParam<tag_case_t> {};

TEST_P(reorder_tags_t, F32MatchesReference) {
    const auto &c = GetParam();
    run_and_check(plain_problem(c.dims, dt::f32, c.stag, dt::f32, c.dtag));
    run_and_check(plain_problem(c.dims, dt::f32, c.dtag, dt::f32, c.stag), 2);
}

TEST_P(reorder_tags_t, ConvertingMatchesReference) {
    const auto &c = GetParam();
    run_and_check(plain_problem(c.dims, dt::f32, c.stag, dt::s8, c.dtag), 3);
    run_and_check(plain_problem(c.dims, dt::bf16, c.stag, dt::f32, c.dtag), 4);
    run_and_check(plain_problem(c.dims, dt::u8, c.dtag, dt::f16, c.stag), 5);
}

INSTANTIATE_TEST_SUITE_P(Layouts, reorder_tags_t,
        ::testing::Values(
                // plain 1D-6D
                tag_case_t{{37}, tag::a, tag::a},
                tag_case_t{{13, 17}, tag::ab, tag::ba},
                tag_case_t{{5, 6, 7}, tag::abc, tag::acb},
                tag_case_t{{5, 6, 7}, tag::abc, tag::bac},
                tag_case_t{{5, 6, 7}, tag::abc, tag::cba},
                tag_case_t{{2, 3, 4, 5}, tag::abcd, tag::cdba},
                tag_case_t{{2, 3, 4, 5, 6}, tag::abcde, tag::decab},
                tag_case_t{{2, 3, 2, 3, 2, 3}, tag::abcdef, tag::acbdef},
                // channels last
                tag_case_t{{2, 19, 5, 7}, tag::nchw, tag::nhwc},
                tag_case_t{{3, 8, 4, 6}, tag::nchw, tag::chwn},
                tag_case_t{{2, 5, 3, 4, 6}, tag::ncdhw, tag::ndhwc},
                tag_case_t{{3, 7, 9}, tag::ncw, tag::nwc},
                // blocked activations, padded channels included
                tag_case_t{{2, 16, 3, 3}, tag::nchw, tag::nChw8c},
                tag_case_t{{2, 32, 5, 3}, tag::nchw, tag::nChw16c},
                tag_case_t{{2, 17, 5, 3}, tag::nchw, tag::nChw16c},
                tag_case_t{{3, 5, 4, 4}, tag::nhwc, tag::nChw8c},
                tag_case_t{{2, 20, 3, 5}, tag::nChw8c, tag::nChw16c},
                tag_case_t{{2, 17, 3, 5}, tag::nChw16c, tag::nChw4c},
                tag_case_t{{2, 33, 3, 2, 2}, tag::ncdhw, tag::nCdhw16c},
                tag_case_t{{3, 17, 5}, tag::abc, tag::aBc16b},
                tag_case_t{{18, 5, 3, 3}, tag::abcd, tag::Abcd16a},
                tag_case_t{{33, 18, 3, 3}, tag::nchw, tag::NChw16n16c},
                // double-blocked weights
                tag_case_t{{32, 48, 3, 3}, tag::oihw, tag::OIhw16i16o},
                tag_case_t{{20, 24, 3, 3}, tag::oihw, tag::OIhw16o16i},
                tag_case_t{{17, 35, 1, 2}, tag::hwio, tag::OIhw16i16o},
                tag_case_t{{32, 32, 2, 2}, tag::oihw, tag::OIhw4i16o4i},
                tag_case_t{{19, 21, 2, 3}, tag::abcd, tag::ABcd4b16a4b},
                // partial blocks planned as boxes of the fast kernels: both
                // dims, inner blocks taken whole (24 = 16 + 2 x 4) or not
                // (22: the generic loop)
                tag_case_t{{20, 21, 3, 3}, tag::oihw, tag::OIhw16i16o},
                tag_case_t{{33, 24, 1, 1}, tag::abcd, tag::ABcd4b16a4b},
                tag_case_t{{33, 22, 1, 1}, tag::abcd, tag::ABcd4b16a4b},
                tag_case_t{{2, 20, 3, 3}, tag::nhwc, tag::nChw16c},
                tag_case_t{{16, 16, 3, 2}, tag::ABcd16a16b, tag::BAcd16a16b},
                tag_case_t{{12, 20, 2, 2}, tag::abcd, tag::ABcd8b8a},
                tag_case_t{{2, 16, 20, 3, 3}, tag::goihw, tag::gOIhw16i16o},
                tag_case_t{{5, 18, 17}, tag::abc, tag::ABc4a4b},
                tag_case_t{{2, 3, 3, 4, 2, 17}, tag::abcdef, tag::aBcdef16b},
                tag_case_t{{20, 33}, tag::ab, tag::AB16b16a}));

// Offsets from explicit formulas of the tags' definitions, independent of
// the descriptor queries the reference uses.
TEST(Reorder, BlockedLayoutFormulas) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    {
        const int N = 2, C = 17, H = 3, W = 2, CB = 2;
        memory src({{N, C, H, W}, dt::f32, tag::nchw}, eng);
        memory dst({{N, C, H, W}, dt::f32, tag::nChw16c}, eng);
        float *sp = static_cast<float *>(src.get_data_handle());
        for (int i = 0; i < N * C * H * W; ++i) sp[i] = (float)(i + 1);
        float *dp = static_cast<float *>(dst.get_data_handle());
        std::fill(dp, dp + N * CB * 16 * H * W, -1.f);
        reorder(src, dst).execute(s, src, dst);
        s.wait();
        for (int n = 0; n < N; ++n)
            for (int c = 0; c < CB * 16; ++c)
                for (int h = 0; h < H; ++h)
                    for (int w = 0; w < W; ++w) {
                        const int off =
                                (((n * CB + c / 16) * H + h) * W + w) * 16
                                + c % 16;
                        const float want =
                                c < C ? (float)(((n * C + c) * H + h) * W + w
                                                + 1)
                                      : 0.f;
                        ASSERT_EQ(dp[off], want)
                                << n << " " << c << " " << h << " " << w;
                    }
    }
    {
        const int O = 32, I = 48, H = 2, W = 3;
        memory src({{O, I, H, W}, dt::f32, tag::oihw}, eng);
        memory dst({{O, I, H, W}, dt::f32, tag::OIhw16i16o}, eng);
        float *sp = static_cast<float *>(src.get_data_handle());
        for (int i = 0; i < O * I * H * W; ++i) sp[i] = (float)i;
        reorder(src, dst).execute(s, src, dst);
        s.wait();
        const float *dp = static_cast<const float *>(dst.get_data_handle());
        for (int o = 0; o < O; ++o)
            for (int i = 0; i < I; ++i)
                for (int h = 0; h < H; ++h)
                    for (int w = 0; w < W; ++w) {
                        const int off =
                                ((((o / 16) * (I / 16) + i / 16) * H + h) * W
                                        + w)
                                        * 256
                                + (i % 16) * 16 + o % 16;
                        ASSERT_EQ(dp[off],
                                (float)(((o * I + i) * H + h) * W + w));
                    }
    }
    {
        const int A = 32, B = 16, C = 2, D = 3;
        memory src({{A, B, C, D}, dt::f32, tag::abcd}, eng);
        memory dst({{A, B, C, D}, dt::f32, tag::ABcd4b16a4b}, eng);
        float *sp = static_cast<float *>(src.get_data_handle());
        for (int i = 0; i < A * B * C * D; ++i) sp[i] = (float)i;
        reorder(src, dst).execute(s, src, dst);
        s.wait();
        const float *dp = static_cast<const float *>(dst.get_data_handle());
        for (int a = 0; a < A; ++a)
            for (int b = 0; b < B; ++b)
                for (int c = 0; c < C; ++c)
                    for (int d = 0; d < D; ++d) {
                        const int off = (((a / 16) * (B / 16) + b / 16) * C * D
                                                + c * D + d)
                                                * 256
                                        + ((b / 4) % 4) * 64 + (a % 16) * 4
                                        + b % 4;
                        ASSERT_EQ(dp[off],
                                (float)(((a * B + b) * C + c) * D + d));
                    }
    }
}

// ---- data types ----

TEST(Reorder, AllDataTypePairs) {
    for (dt s : all_dts)
        for (dt d : all_dts) {
            SCOPED_TRACE(std::string(dt_name(s)) + "->" + dt_name(d));
            run_and_check(
                    plain_problem({2, 19, 5, 7}, s, tag::nchw, d, tag::nchw));
            run_and_check(
                    plain_problem({2, 19, 5, 7}, s, tag::nchw, d, tag::nhwc));
            run_and_check(plain_problem(
                    {2, 19, 5, 7}, s, tag::nhwc, d, tag::nChw16c));
        }
}

namespace {
template <typename D>
std::vector<D> convert_values(dt sdt, const std::vector<float> &vals, dt ddt) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::dim n = (memory::dim)vals.size();
    memory f({{n}, dt::f32, tag::a}, eng);
    std::memcpy(f.get_data_handle(), vals.data(), vals.size() * 4);
    memory src({{n}, sdt, tag::a}, eng), dst({{n}, ddt, tag::a}, eng);
    if (sdt == dt::f32)
        std::memcpy(src.get_data_handle(), vals.data(), vals.size() * 4);
    else
        reorder(f, src).execute(s, f, src);
    reorder(src, dst).execute(s, src, dst);
    s.wait();
    const D *p = static_cast<const D *>(dst.get_data_handle());
    return std::vector<D>(p, p + n);
}
} // namespace

TEST(Reorder, RoundingAndSaturation) {
    EXPECT_EQ(convert_values<int8_t>(dt::f32,
                      {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 126.5f, 127.5f, 300.f,
                              -128.5f, -1e9f, INFINITY, -INFINITY},
                      dt::s8),
            (std::vector<int8_t>{
                    0, 2, 2, 0, -2, 126, 127, 127, -128, -128, 127, -128}));
    EXPECT_EQ(convert_values<uint8_t>(dt::f32,
                      {-1.5f, 0.5f, 1.5f, 2.5f, 254.5f, 255.5f, -0.4f, 1000.f},
                      dt::u8),
            (std::vector<uint8_t>{0, 0, 2, 2, 254, 255, 0, 255}));
    EXPECT_EQ(convert_values<int32_t>(dt::f32,
                      {1e10f, -1e10f, 2.5f, 3.5f, -2.5f, 2147483520.f,
                              16777216.f},
                      dt::s32),
            (std::vector<int32_t>{2147483520, -2147483647 - 1, 2, 4, -2,
                    2147483520, 16777216}));
    EXPECT_EQ(convert_values<int8_t>(dt::s32, {300.f, -300.f, 5.f}, dt::s8),
            (std::vector<int8_t>{127, -128, 5}));
    EXPECT_EQ(convert_values<uint8_t>(dt::s32, {300.f, -300.f, 5.f}, dt::u8),
            (std::vector<uint8_t>{255, 0, 5}));
    EXPECT_EQ(convert_values<uint8_t>(dt::s8, {-5.f, 100.f}, dt::u8),
            (std::vector<uint8_t>{0, 100}));
    EXPECT_EQ(convert_values<int8_t>(dt::u8, {200.f, 100.f}, dt::s8),
            (std::vector<int8_t>{127, 100}));
    EXPECT_EQ(convert_values<int8_t>(dt::bf16, {2.5f, -3.5f, 200.f}, dt::s8),
            (std::vector<int8_t>{2, -4, 127}));
    // f16: ties to even at 11 bits, overflow to infinity, subnormals.
    EXPECT_EQ(convert_values<uint16_t>(dt::f32,
                      {65504.f, 65519.f, 65520.f, 70000.f, -INFINITY, 6e-8f,
                              3e-8f, 1.00146484375f, 1.0f + 1.f / 2048},
                      dt::f16),
            (std::vector<uint16_t>{0x7bff, 0x7bff, 0x7c00, 0x7c00, 0xfc00,
                    0x0001, 0x0001, 0x3c02, 0x3c00}));
    // bf16: ties to even at 8 bits, NaN stays NaN.
    const auto bf = convert_values<uint16_t>(
            dt::f32, {1.00390625f, 1.01171875f, -0.f, NAN, 3.4e38f}, dt::bf16);
    EXPECT_EQ(bf[0], 0x3f80);
    EXPECT_EQ(bf[1], 0x3f82);
    EXPECT_EQ(bf[2], 0x8000);
    EXPECT_TRUE((bf[3] & 0x7f80) == 0x7f80 && (bf[3] & 0x7f) != 0);
    EXPECT_EQ(bf[4], 0x7f80);
    // s32 -> f32 rounds to nearest even.
    EXPECT_EQ(convert_values<float>(dt::s32, {16777217.f, -5.f}, dt::f32)[1],
            -5.f);
}

TEST(Reorder, IntegerCopyIsExact) {
    // s32 -> s32 must not pass through f32.
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory a({{2, 3}, dt::s32, tag::ab}, eng),
            b({{2, 3}, dt::s32, tag::ba}, eng);
    int32_t *p = static_cast<int32_t *>(a.get_data_handle());
    const int32_t vals[6] = {
            16777217, -16777219, 2147483647, -2147483647 - 1, 123456789, 7};
    std::memcpy(p, vals, sizeof(vals));
    reorder(a, b).execute(s, a, b);
    s.wait();
    const int32_t *q = static_cast<const int32_t *>(b.get_data_handle());
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(q[j * 2 + i], vals[i * 3 + j]);
}

// The compat program's data type case.
TEST(Reorder, SourceScaleQuantizesToS8) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::desc f({8}, dt::f32, tag::a), i8({8}, dt::s8, tag::a);
    memory src(f, eng), q(i8, eng);
    const float vals[8] = {1.f, -2.5f, 3.25f, 100.f, -100.f, 0.5f, 7.f, 1e-3f};
    std::memcpy(src.get_data_handle(), vals, sizeof(vals));
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    reorder::primitive_desc pd(eng, f, eng, i8, attr);
    memory scale({{1}, dt::f32, tag::x}, eng);
    *static_cast<float *>(scale.get_data_handle()) = 2.f;
    reorder(pd).execute(
            s, {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, q},
                       {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scale}});
    s.wait();
    const int8_t *qp = static_cast<const int8_t *>(q.get_data_handle());
    EXPECT_EQ(qp[0], 2);
    EXPECT_EQ(qp[1], -5);
    EXPECT_TRUE(qp[2] == 6 || qp[2] == 7);
    EXPECT_EQ(qp[3], 127);
    EXPECT_EQ(qp[4], -128);
    EXPECT_EQ(qp[5], 1);
    EXPECT_EQ(qp[6], 14);
    EXPECT_EQ(qp[7], 0);
}

// ---- scales, zero points, sum ----
TEST(Reorder, ScalesOfOtherDataTypes) {
    // bf16 and f16 scales are read as their f32 values.
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::desc a({2, 3}, dt::f32, tag::ab), b({2, 3}, dt::f32, tag::ba);
    const float vals[6] = {1, -2, 3, -4, 5, -6};
    for (dt sdt : {dt::bf16, dt::f16}) {
        primitive_attr attr;
        attr.set_scales(DNNL_ARG_SRC, 2, {}, sdt);
        reorder::primitive_desc pd(eng, a, eng, b, attr);
        memory ma(a, eng), mb(b, eng);
        std::memcpy(ma.get_data_handle(), vals, sizeof(vals));
        // 0.5, 2, 4 in both formats.
        const uint16_t bits_bf16[3] = {0x3f00, 0x4000, 0x4080};
        const uint16_t bits_f16[3] = {0x3800, 0x4000, 0x4400};
        memory sc({{3}, sdt, tag::a}, eng);
        std::memcpy(sc.get_data_handle(),
                sdt == dt::bf16 ? bits_bf16 : bits_f16, sizeof(bits_bf16));
        reorder(pd).execute(
                s, {{DNNL_ARG_FROM, ma}, {DNNL_ARG_TO, mb},
                           {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, sc}});
        s.wait();
        const float *o = static_cast<const float *>(mb.get_data_handle());
        const float want[6] = {0.5f, -2.f, -4.f, 10.f, 12.f, -24.f};
        for (int i = 0; i < 6; ++i)
            EXPECT_EQ(o[i], want[i]) << dt_name(sdt) << " " << i;
    }
}

namespace {
problem_t quant_problem(std::mt19937 &gen, const memory::dims &dims, dt sdt,
        tag stag, dt ddt, tag dtag, int src_scale_mask, int dst_scale_mask,
        int src_zp_mask, int dst_zp_mask, bool with_sum, float beta,
        bool pow2) {
    problem_t p = plain_problem(dims, sdt, stag, ddt, dtag);
    auto &qc = p.quant;
    if (src_scale_mask >= 0) {
        qc.src_scale = true;
        qc.q.src_scale_mask = src_scale_mask;
        qc.q.src_scales =
                random_scales(gen, masked_count(src_scale_mask, dims), pow2);
    }
    if (dst_scale_mask >= 0) {
        qc.dst_scale = true;
        qc.q.dst_scale_mask = dst_scale_mask;
        qc.q.dst_scales =
                random_scales(gen, masked_count(dst_scale_mask, dims), pow2);
    }
    if (src_zp_mask >= 0) {
        qc.src_zp = true;
        qc.q.src_zp_mask = src_zp_mask;
        qc.q.src_zps =
                random_zps(gen, masked_count(src_zp_mask, dims), -20, 20);
    }
    if (dst_zp_mask >= 0) {
        qc.dst_zp = true;
        qc.q.dst_zp_mask = dst_zp_mask;
        qc.q.dst_zps =
                random_zps(gen, masked_count(dst_zp_mask, dims), -10, 10);
    }
    qc.q.with_sum = with_sum;
    qc.q.beta = beta;
    p.exact = pow2;
    return p;
}
} // namespace

TEST(Reorder, ScalesPerTensorAndPerChannel) {
    std::mt19937 gen(7);
    const memory::dims dims = {2, 17, 5, 6};
    for (bool pow2 : {true, false})
        for (int mask : {0, 2}) {
            SCOPED_TRACE(
                    "mask " + std::to_string(mask) + (pow2 ? " pow2" : ""));
            // src scale only, dst scale only, both.
            run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::s8,
                    tag::nhwc, mask, -1, -1, -1, false, 0, pow2));
            run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::u8,
                    tag::nChw16c, -1, mask, -1, -1, false, 0, pow2));
            run_and_check(quant_problem(gen, dims, dt::s8, tag::nChw16c,
                    dt::f32, tag::nchw, mask, mask, -1, -1, false, 0, pow2));
            run_and_check(quant_problem(gen, dims, dt::bf16, tag::nhwc, dt::f16,
                    tag::nhwc, mask, 0, -1, -1, false, 0, pow2));
            run_and_check(quant_problem(gen, dims, dt::s32, tag::nchw, dt::s32,
                    tag::nChw8c, 0, mask, -1, -1, false, 0, pow2));
        }
    // Different masks on src and dst; weights-style per output channel.
    run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::s8,
            tag::nhwc, 1, 2, -1, -1, false, 0, true));
    run_and_check(quant_problem(gen, {32, 48, 3, 3}, dt::f32, tag::oihw, dt::s8,
            tag::OIhw16i16o, 1, -1, -1, -1, false, 0, false));
    run_and_check(quant_problem(gen, {32, 48, 3, 3}, dt::f32, tag::oihw, dt::s8,
            tag::OIhw4i16o4i, 3, -1, -1, -1, false, 0, true));
}

TEST(Reorder, ZeroPoints) {
    std::mt19937 gen(11);
    const memory::dims dims = {3, 19, 4, 5};
    for (int mask : {0, 2}) {
        SCOPED_TRACE("mask " + std::to_string(mask));
        run_and_check(quant_problem(gen, dims, dt::u8, tag::nchw, dt::f32,
                tag::nhwc, -1, -1, mask, -1, false, 0, true));
        run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::s8,
                tag::nChw16c, -1, -1, -1, mask, false, 0, true));
        run_and_check(quant_problem(gen, dims, dt::s8, tag::nhwc, dt::u8,
                tag::nchw, 0, 0, mask, mask, false, 0, true));
        run_and_check(quant_problem(gen, dims, dt::s32, tag::nChw8c, dt::s8,
                tag::nchw, mask, -1, mask, 0, false, 0, false));
    }
}

TEST(Reorder, SumPostOp) {
    std::mt19937 gen(13);
    const memory::dims dims = {2, 18, 3, 7};
    for (float beta : {1.f, 0.5f, -2.f, 0.f}) {
        SCOPED_TRACE("beta " + std::to_string(beta));
        run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::f32,
                tag::nhwc, -1, -1, -1, -1, true, beta, true));
        run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::s8,
                tag::nChw16c, 0, -1, -1, -1, true, beta, true));
        run_and_check(quant_problem(gen, dims, dt::s8, tag::nhwc, dt::bf16,
                tag::nhwc, 2, 0, -1, -1, true, beta, true));
        run_and_check(quant_problem(gen, dims, dt::u8, tag::nChw8c, dt::u8,
                tag::nchw, -1, 2, 0, 2, true, beta, false));
    }
}

// ---- strided and sub-memory ----

TEST(Reorder, SubmemoryAndStrides) {
    const memory::dims parent = {4, 8, 6, 7};
    const memory::dims sub = {2, 5, 3, 4}, offs = {1, 2, 1, 2};
    memory::desc psrc(parent, dt::f32, tag::nchw);
    memory::desc pnhwc(parent, dt::s8, tag::nhwc);
    problem_t p;
    // strided source -> dense destination
    p.src = psrc.submemory_desc(sub, offs);
    p.dst = memory::desc(sub, dt::f32, tag::nhwc);
    run_and_check(p);
    // dense source -> strided destination (elements around it untouched)
    p.src = memory::desc(sub, dt::f32, tag::nchw);
    p.dst = pnhwc.submemory_desc(sub, offs);
    run_and_check(p);
    // strided -> strided
    p.src = psrc.submemory_desc(sub, offs);
    p.dst = pnhwc.submemory_desc(sub, {0, 3, 2, 0});
    run_and_check(p);
    // blocked sub-memory (channel offset on a block boundary)
    memory::desc pblk({2, 48, 3, 3}, dt::f32, tag::nChw16c);
    p.src = pblk.submemory_desc({2, 16, 3, 3}, {0, 16, 0, 0});
    p.dst = memory::desc({2, 16, 3, 3}, dt::bf16, tag::nchw);
    run_and_check(p);
    p.src = memory::desc({2, 16, 3, 3}, dt::f32, tag::nhwc);
    p.dst = pblk.submemory_desc({2, 16, 3, 3}, {0, 32, 0, 0});
    run_and_check(p);
    // explicit strides with gaps, and a permuted order
    p.src = memory::desc({3, 4, 5}, dt::f32, memory::dims{40, 9, 1});
    p.dst = memory::desc({3, 4, 5}, dt::f32, memory::dims{1, 30, 6});
    run_and_check(p);
    p.src = memory::desc({6, 10}, dt::u8, memory::dims{1, 7});
    p.dst = memory::desc({6, 10}, dt::s32, memory::dims{12, 1});
    run_and_check(p);
}

// ---- random layouts ----

namespace {
// A random plain layout of `dims`: a random dim order, gaps between dims
// and a sub-memory offset.
memory::desc random_strided(std::mt19937 &gen, const memory::dims &dims, dt d) {
    const int nd = (int)dims.size();
    std::vector<int> order(nd);
    for (int i = 0; i < nd; ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), gen);
    memory::dims strides(nd);
    memory::dim s = 1 + std::uniform_int_distribution<int>(0, 1)(gen);
    for (int i = nd - 1; i >= 0; --i) {
        strides[order[i]] = s;
        s *= dims[order[i]] + std::uniform_int_distribution<int>(0, 2)(gen);
    }
    return memory::desc(dims, d, strides);
}

// A random blocked layout of 4D dims from a list of tags.
memory::desc random_tagged(std::mt19937 &gen, const memory::dims &dims, dt d) {
    static const tag tags[] = {tag::abcd, tag::acdb, tag::bacd, tag::cdba,
            tag::aBcd8b, tag::aBcd16b, tag::Abcd16a, tag::ABcd16a16b,
            tag::ABcd16b16a, tag::ABcd4b16a4b, tag::ABcd8b8a, tag::aBcd4b,
            tag::BAcd16a16b, tag::Acdb16a, tag::aBdc16b};
    const tag t = tags[std::uniform_int_distribution<int>(
            0, (int)(sizeof(tags) / sizeof(tags[0])) - 1)(gen)];
    return memory::desc(dims, d, t);
}
} // namespace

TEST(Reorder, RandomLayoutsTypesAndAttributes) {
    std::mt19937 gen(2024);
    for (int iter = 0; iter < 150; ++iter) {
        const bool tagged = iter % 2 == 0;
        const int nd =
                tagged ? 4 : std::uniform_int_distribution<int>(1, 5)(gen);
        memory::dims dims(nd);
        for (auto &x : dims)
            x = std::uniform_int_distribution<int>(1, tagged ? 20 : 7)(gen);
        const dt sdt = all_dts[std::uniform_int_distribution<int>(0, 5)(gen)];
        const dt ddt = all_dts[std::uniform_int_distribution<int>(0, 5)(gen)];
        problem_t p;
        p.src = tagged ? random_tagged(gen, dims, sdt)
                       : random_strided(gen, dims, sdt);
        p.dst = tagged ? random_tagged(gen, dims, ddt)
                       : random_strided(gen, dims, ddt);
        // Quantization: sometimes, with masks over random dims.
        const int what = std::uniform_int_distribution<int>(0, 5)(gen);
        const int mask =
                std::uniform_int_distribution<int>(0, (1 << nd) - 1)(gen);
        auto &qc = p.quant;
        const bool sint = sdt == dt::s8 || sdt == dt::u8 || sdt == dt::s32;
        const bool dint = ddt == dt::s8 || ddt == dt::u8 || ddt == dt::s32;
        if (what == 1 || what == 3) {
            qc.src_scale = true;
            qc.q.src_scale_mask = mask;
            qc.q.src_scales =
                    random_scales(gen, masked_count(mask, dims), true);
        }
        if (what == 2 || what == 3) {
            qc.dst_scale = true;
            qc.q.dst_scale_mask = what == 3 ? 0 : mask;
            qc.q.dst_scales = random_scales(
                    gen, masked_count(qc.q.dst_scale_mask, dims), true);
        }
        if (what == 4 && sint) {
            qc.src_zp = true;
            qc.q.src_zp_mask = mask;
            qc.q.src_zps = random_zps(gen, masked_count(mask, dims), -5, 5);
        }
        if (what == 4 && dint) {
            qc.dst_zp = true;
            qc.q.dst_zp_mask = 0;
            qc.q.dst_zps = random_zps(gen, 1, -5, 5);
        }
        if (what == 5) {
            qc.q.with_sum = true;
            qc.q.beta = 0.5f;
        }
        SCOPED_TRACE("iteration " + std::to_string(iter));
        run_and_check(p, (unsigned)iter);
        if (::testing::Test::HasFailure()) break;
    }
}

// ---- sizes that use several threads and chunking ----

TEST(Reorder, LargerProblems) {
    run_and_check(plain_problem(
            {4, 64, 33, 35}, dt::f32, tag::nchw, dt::f32, tag::nhwc));
    run_and_check(plain_problem(
            {8, 48, 16, 16}, dt::f32, tag::nChw16c, dt::f32, tag::nchw));
    run_and_check(plain_problem(
            {8, 40, 16, 16}, dt::f32, tag::nhwc, dt::u8, tag::nChw16c));
    run_and_check(plain_problem({1 << 20}, dt::f32, tag::a, dt::bf16, tag::a));
    run_and_check(plain_problem({1 << 20}, dt::s8, tag::a, dt::s8, tag::a));
    run_and_check(
            plain_problem({300, 700}, dt::f32, tag::ab, dt::f32, tag::ba));
    std::mt19937 gen(3);
    run_and_check(quant_problem(gen, {4, 64, 33, 35}, dt::f32, tag::nchw,
            dt::s8, tag::nhwc, 2, -1, -1, 0, false, 0, false));
}

// Destinations of 16 MiB and more are streamed (non-temporal stores,
// "_nt" in the name) by the kernels that write whole lines: transposes
// of 4-byte elements, contiguous conversions and copies. The memories are
// the library's (64-byte aligned), so the streamed stores run.
TEST(Reorder, StreamedLargeDestinations) {
    struct case_t {
        memory::dims dims;
        dt sdt;
        tag stag;
        dt ddt;
        tag dtag;
        const char *name;
    } cases[] = {
            {{8, 64, 96, 97}, dt::f32, tag::nchw, dt::f32, tag::nhwc,
                    "simple:f32_transpose_16x16_nt__"},
            {{8, 64, 97, 96}, dt::f32, tag::nhwc, dt::f32, tag::nchw,
                    "simple:f32_transpose_16x16_nt__"},
            {{8, 64, 96, 97}, dt::f32, tag::nchw, dt::f32, tag::nChw16c,
                    "simple:f32_transpose_16x16_nt__"},
            {{4609, 2053}, dt::f32, tag::ab, dt::bf16, tag::ab,
                    "simple:f32_bf16_cvt_nt__"},
            {{16, 64, 96, 97}, dt::f32, tag::nchw, dt::bf16, tag::nhwc,
                    "simple:f32_bf16_transpose_32x32_nt__"},
            {{4208, 1024}, dt::f32, tag::ab, dt::f32, tag::ba,
                    "simple:f32_transpose_16x16_nt__"},
            // Blocked channels: the kernel reads whole pixels (source order),
            // with a tail of channels (40 = 2 x 16 + 8) and a whole one.
            {{16, 40, 96, 97}, dt::f32, tag::nhwc, dt::f32, tag::nChw16c,
                    "simple:f32_strided"},
            {{8, 64, 96, 97}, dt::f32, tag::nhwc, dt::f32, tag::nChw16c,
                    "simple:f32_strided_nt__"},
            {{8, 64, 97, 96}, dt::f32, tag::nChw16c, dt::f32, tag::nhwc,
                    "simple:f32_strided_nt__"},
    };
    engine eng(engine::kind::cpu, 0);
    stream strm(eng);
    for (const auto &c : cases) {
        const memory::desc smd(c.dims, c.sdt, c.stag),
                dmd(c.dims, c.ddt, c.dtag);
        SCOPED_TRACE("src " + describe(smd) + " dst " + describe(dmd));
        reorder::primitive_desc pd(eng, smd, eng, dmd);
        const std::string impl = pd.impl_info_str();
        EXPECT_EQ(impl.rfind(c.name, 0), 0u) << impl;
        memory sm(smd, eng), dm(dmd, eng);
        std::mt19937 gen(5);
        const auto src = make_buffer(smd, gen, 0x3c, true);
        std::memcpy(sm.get_data_handle(), src.data(), smd.get_size());
        std::memset(dm.get_data_handle(), 0x5a, dmd.get_size());
        std::vector<uint8_t> want(dmd.get_size(), 0x5a);
        rr::reorder(layout_of(smd), ref_dt(c.sdt), src.data(), layout_of(dmd),
                ref_dt(c.ddt), want.data(), rr::quant_t{});
        reorder(pd).execute(strm, sm, dm);
        strm.wait();
        EXPECT_EQ(
                std::memcmp(dm.get_data_handle(), want.data(), want.size()), 0);
    }
}

// ---- special cases ----

TEST(Reorder, ZeroSizeTensors) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    for (const memory::dims &dims :
            {memory::dims{0, 3}, memory::dims{2, 0, 3, 3}}) {
        const tag t0 = dims.size() == 2 ? tag::ab : tag::nchw;
        const tag t1 = dims.size() == 2 ? tag::ba : tag::nChw16c;
        memory::desc a(dims, dt::f32, t0), b(dims, dt::s8, t1);
        reorder::primitive_desc pd(eng, a, eng, b);
        memory ma(a, eng), mb(b, eng);
        EXPECT_NO_THROW(reorder(pd).execute(s, ma, mb));
        s.wait();
    }
}

TEST(Reorder, InPlace) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::desc a({4, 5, 6}, dt::f32, tag::abc);
    memory m(a, eng);
    float *p = static_cast<float *>(m.get_data_handle());
    for (int i = 0; i < 120; ++i) p[i] = (float)i - 60.5f;
    reorder(m, m).execute(s, m, m);
    s.wait();
    for (int i = 0; i < 120; ++i) ASSERT_EQ(p[i], (float)i - 60.5f);
    // Same layout, same element size: converted element by element.
    memory::desc b({4, 5, 6}, dt::s32, tag::abc);
    memory mb(b, eng, m.get_data_handle());
    reorder(m, mb).execute(s, m, mb);
    s.wait();
    const int32_t *q = static_cast<const int32_t *>(mb.get_data_handle());
    for (int i = 0; i < 120; ++i)
        ASSERT_EQ(q[i], (int32_t)std::nearbyint((float)i - 60.5f));
}

TEST(Reorder, BadParametersAreRejected) {
    engine eng(engine::kind::cpu, 0);
    memory::desc a({2, 3}, dt::f32, tag::ab), b({3, 3}, dt::f32, tag::ab);
    memory::desc c({2, 3, 1}, dt::f32, tag::abc),
            any({2, 3}, dt::f32, tag::any);
    memory::desc i8({2, 3}, dt::s8, tag::ba);
    dnnl_primitive_desc_t pd = nullptr;
    auto create = [&](const memory::desc &s, const memory::desc &d,
                          const_dnnl_primitive_attr_t attr) {
        pd = nullptr;
        const dnnl_status_t st = dnnl_reorder_primitive_desc_create(
                &pd, s.get(), eng.get(), d.get(), eng.get(), attr);
        if (pd) dnnl_primitive_desc_destroy(pd);
        return st;
    };
    EXPECT_EQ(create(a, b, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(create(a, c, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(create(a, any, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(create(any, a, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(
                      nullptr, a.get(), eng.get(), a.get(), eng.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(
                      &pd, nullptr, eng.get(), a.get(), eng.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(
                      &pd, a.get(), nullptr, a.get(), eng.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(
                      &pd, a.get(), eng.get(), nullptr, eng.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_reorder_primitive_desc_create(
                      &pd, a.get(), eng.get(), a.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    {
        primitive_attr attr; // zero points need integer data
        attr.set_zero_points_mask(DNNL_ARG_SRC, 0);
        EXPECT_EQ(create(a, i8, attr.get()), dnnl_invalid_arguments);
    }
    {
        primitive_attr attr;
        attr.set_scales_mask(DNNL_ARG_WEIGHTS, 0);
        EXPECT_EQ(create(a, i8, attr.get()), dnnl_unimplemented);
    }
    {
        primitive_attr attr;
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(po);
        EXPECT_EQ(create(a, i8, attr.get()), dnnl_unimplemented);
    }
    {
        primitive_attr attr;
        post_ops po;
        po.append_sum(1.f);
        po.append_sum(2.f);
        attr.set_post_ops(po);
        EXPECT_EQ(create(a, i8, attr.get()), dnnl_unimplemented);
    }
    {
        // Runtime dims reorder (test_runtime_reorder.cpp); with
        // quantization they are not implemented.
        memory::desc r({DNNL_RUNTIME_DIM_VAL, 3}, dt::f32, tag::ab);
        memory::desc r2({DNNL_RUNTIME_DIM_VAL, 3}, dt::f32, tag::ba);
        primitive_attr attr;
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        EXPECT_EQ(create(r, r2, attr.get()), dnnl_unimplemented);
    }
    {
        memory::desc f64({2, 3}, dt::f64, tag::ab);
        EXPECT_EQ(create(f64, a, nullptr), dnnl_unimplemented);
    }
    // The C++ API throws.
    EXPECT_THROW(reorder::primitive_desc(eng, a, eng, b), dnnl::error);
}

TEST(Reorder, MissingQuantizationArgumentFailsExecution) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    memory::desc a({2, 3}, dt::f32, tag::ab), b({2, 3}, dt::s8, tag::ba);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 0);
    reorder::primitive_desc pd(eng, a, eng, b, attr);
    memory ma(a, eng), mb(b, eng);
    bool thrown = false;
    try {
        reorder(pd).execute(s, {{DNNL_ARG_FROM, ma}, {DNNL_ARG_TO, mb}});
    } catch (const dnnl::error &e) {
        thrown = true;
        EXPECT_EQ(e.status, dnnl_invalid_arguments);
    }
    EXPECT_TRUE(thrown);
    // Per-channel scales memory smaller than the mask needs.
    primitive_attr attr2;
    attr2.set_scales_mask(DNNL_ARG_SRC, 2);
    reorder::primitive_desc pd2(eng, a, eng, b, attr2);
    memory small({{2}, dt::f32, tag::a}, eng);
    EXPECT_THROW(reorder(pd2).execute(s,
                         {{DNNL_ARG_FROM, ma}, {DNNL_ARG_TO, mb},
                                 {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, small}}),
            dnnl::error);
}

TEST(Reorder, Queries) {
    engine eng(engine::kind::cpu, 0);
    memory::desc a({2, 16, 3, 3}, dt::f32, tag::nchw);
    memory::desc b({2, 16, 3, 3}, dt::bf16, tag::nChw16c);
    reorder::primitive_desc pd(eng, a, eng, b);
    EXPECT_TRUE(pd.get_src_engine() == eng);
    EXPECT_TRUE(pd.get_dst_engine() == eng);
    EXPECT_TRUE(pd.get_engine() == eng);
    EXPECT_TRUE(pd.src_desc() == a);
    EXPECT_TRUE(pd.dst_desc() == b);
    EXPECT_NE(std::string(pd.impl_info_str()), "");
    EXPECT_EQ(dnnl_primitive_desc_query_s32(
                      pd.get(), dnnl_query_num_of_inputs_s32, 0),
            1);
    EXPECT_EQ(dnnl_primitive_desc_query_s32(
                      pd.get(), dnnl_query_num_of_outputs_s32, 0),
            1);
    EXPECT_EQ(pd.get_kind(), primitive::kind::reorder);
    // The primitive's descriptor answers the same.
    reorder r(pd);
    const_dnnl_memory_desc_t dmd = dnnl_primitive_desc_query_md(
            r.get_primitive_desc(), dnnl_query_dst_md, 0);
    ASSERT_NE(dmd, nullptr);
    dnnl_memory_desc_t dmd_copy = nullptr;
    ASSERT_EQ(dnnl_memory_desc_clone(&dmd_copy, dmd), dnnl_success);
    EXPECT_TRUE(memory::desc(dmd_copy) == b);
    // A second, identical creation (cache) works.
    reorder::primitive_desc pd3(eng, a, eng, b);
    EXPECT_EQ(
            std::string(pd3.impl_info_str()), std::string(pd.impl_info_str()));
}

TEST(Reorder, GpuEnginesAreRejectedCleanly) {
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine cpu(engine::kind::cpu, 0), gpu(engine::kind::gpu, 0);
    memory::desc a({2, 16, 3, 3}, dt::f32, tag::nchw);
    memory::desc b({2, 16, 3, 3}, dt::f32, tag::nhwc);
    for (auto pair : {std::make_pair(&gpu, &gpu), std::make_pair(&cpu, &gpu),
                 std::make_pair(&gpu, &cpu)}) {
        dnnl_primitive_desc_t pd = nullptr;
        const dnnl_status_t st = dnnl_reorder_primitive_desc_create(&pd,
                a.get(), pair.first->get(), b.get(), pair.second->get(),
                nullptr);
        // Implemented later, or refused as unimplemented: never another error.
        EXPECT_TRUE(st == dnnl_success || st == dnnl_unimplemented) << st;
        if (pd) dnnl_primitive_desc_destroy(pd);
    }
}

TEST(Reorder, BothImplementationsAreOffered) {
    // The fast implementation and the generic one both accept a plain
    // transpose, so the checks above exercise both.
    EXPECT_GE(run_and_check(plain_problem(
                      {2, 19, 5, 7}, dt::f32, tag::nchw, dt::f32, tag::nhwc)),
            2);
}
