// Reorder on the gpu engine against the naive reference
// (tests/reference/reorder_ref.*): plain, channels-last, blocked (padding
// zero-filled) and double-blocked layouts, strided sub-memories, every data
// type pair with rounding and saturation, scales, zero points, the sum
// post-op, cpu -> gpu and gpu -> cpu reorders (same bytes and converting),
// round trips, and bad requests answered with a status. The whole
// destination buffer is compared, so writes outside the tensor show up.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"

using namespace dnnl;
using namespace tensor_glue;

namespace {

bool have_gpu() {
    return dnnl_engine_get_count(dnnl_gpu) > 0;
}

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

engine &cpu() {
    static engine eng(engine::kind::cpu, 0);
    return eng;
}

#define SKIP_WITHOUT_GPU() \
    if (!have_gpu()) GTEST_SKIP() << "no gpu engine"

// Where the source and destination live.
enum class sides_t { gpu_gpu, cpu_gpu, gpu_cpu };

const char *sides_name(sides_t s) {
    return s == sides_t::gpu_gpu ? "gpu->gpu"
            : s == sides_t::cpu_gpu ? "cpu->gpu"
                                    : "gpu->cpu";
}

// Random value of a data type's useful range, exactly representable.
double random_value(std::mt19937 &gen, dt d) {
    switch (d) {
        case dt::s8: return std::uniform_int_distribution<int>(-128, 127)(gen);
        case dt::u8: return std::uniform_int_distribution<int>(0, 255)(gen);
        case dt::s32:
            return std::uniform_int_distribution<int>(-70000, 70000)(gen);
        default: // quarter steps, ties included
            return std::uniform_int_distribution<int>(-1200, 1200)(gen) / 4.0;
    }
}

// Bytes covering every element slot of `md` (a sub-memory's offset
// included): `pattern` everywhere, random values at logical positions.
std::vector<uint8_t> make_buffer(const memory::desc &md, std::mt19937 &gen,
        uint8_t pattern, bool fill_values) {
    const rr::layout_t l = layout_of(md);
    const rr::dtype rd = ref_dt(md.get_data_type());
    int64_t max_off = 0;
    rr::for_each_pos(l.ndims, l.padded, [&](const int64_t *pos) {
        max_off = std::max(max_off, rr::offset(l, pos));
    });
    const size_t bytes = std::max<size_t>(std::max<size_t>(md.get_size(), 1),
            (size_t)(max_off + 1) * rr::dtype_size(rd));
    std::vector<uint8_t> buf(bytes, pattern);
    if (!fill_values) return buf;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        rr::store(rd, buf.data(), rr::offset(l, pos),
                random_value(gen, md.get_data_type()));
    });
    return buf;
}

// A gpu memory of `md` over a buffer holding `bytes` (its size may exceed
// the descriptor's, for sub-memories), and the whole buffer's contents.
struct gpu_buffer_t {
    memory raw, view;
    gpu_buffer_t(const memory::desc &md, const std::vector<uint8_t> &bytes) {
        raw = memory({{(memory::dim)bytes.size()}, dt::u8, tag::a}, gpu());
        {
            mapped_t map(raw);
            std::memcpy(map.ptr, bytes.data(), bytes.size());
        }
        view = memory(md, gpu(), raw.get_data_handle());
    }
    std::vector<uint8_t> contents() const {
        const size_t n = raw.get_desc().get_size();
        mapped_t map(raw);
        return std::vector<uint8_t>(map.ptr, map.ptr + n);
    }
};

// A 1D gpu array of `n` values of type `d` copied from `data`.
memory gpu_array(const void *data, int64_t n, dt d) {
    memory m({{n}, d, tag::a}, gpu());
    mapped_t map(m);
    std::memcpy(map.ptr, data, (size_t)n * rr::dtype_size(ref_dt(d)));
    return m;
}

// Whether two values agree: bit-exact, or within what the rounding of an
// f32 computation can change when `exact` is false.
bool values_match(rr::dtype d, double got, double exp, bool exact) {
    if (got == exp) return true;
    if (std::isnan(got) && std::isnan(exp)) return true;
    if (exact) return false;
    const double a = std::fabs(exp);
    switch (d) {
        case rr::dtype::f32: return std::fabs(got - exp) <= 1e-5 * a + 1e-30;
        case rr::dtype::bf16: return std::fabs(got - exp) <= a / 128 + 1e-30;
        case rr::dtype::f16: return std::fabs(got - exp) <= a / 1024 + 6e-8;
        default: return std::fabs(got - exp) <= 1;
    }
}

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

struct problem_t {
    memory::desc src, dst;
    quant_case_t quant;
    bool exact = true;
    sides_t sides = sides_t::gpu_gpu;
};

problem_t plain_problem(const memory::dims &dims, dt sdt, tag stag, dt ddt,
        tag dtag, sides_t sides = sides_t::gpu_gpu) {
    problem_t p;
    p.src = memory::desc(dims, sdt, stag);
    p.dst = memory::desc(dims, ddt, dtag);
    p.sides = sides;
    return p;
}

int64_t masked_count(int mask, const memory::dims &dims) {
    int64_t n = 1;
    for (size_t d = 0; d < dims.size(); ++d)
        if (mask & (1 << d)) n *= dims[d];
    return n;
}

// Runs `p` and compares the destination's whole buffer with the
// reference's. Returns the implementation's name.
std::string run_and_check(const problem_t &p, unsigned seed = 1) {
    std::mt19937 gen(seed);
    SCOPED_TRACE(std::string(sides_name(p.sides)) + " src " + describe(p.src)
            + " dst " + describe(p.dst));
    const rr::dtype ddt = ref_dt(p.dst.get_data_type());
    const auto src_buf = make_buffer(p.src, gen, 0x3c, true);
    const auto dst_init = make_buffer(p.dst, gen, 0x5a, p.quant.q.with_sum);
    auto expected = dst_init;
    rr::reorder(layout_of(p.src), ref_dt(p.src.get_data_type()),
            src_buf.data(), layout_of(p.dst), ddt, expected.data(), p.quant.q);

    const bool src_cpu = p.sides == sides_t::cpu_gpu;
    const bool dst_cpu = p.sides == sides_t::gpu_cpu;
    engine &se = src_cpu ? cpu() : gpu(), &de = dst_cpu ? cpu() : gpu();
    reorder::primitive_desc pd(se, p.src, de, p.dst, p.quant.attr());
    EXPECT_TRUE(pd.get_engine() == gpu());

    // Sources and destinations on their engines.
    std::vector<uint8_t> src_host = src_buf, dst_host = dst_init;
    std::unique_ptr<gpu_buffer_t> sg, dg;
    memory sm, dm;
    if (src_cpu) {
        sm = memory(p.src, cpu(), src_host.data());
    } else {
        sg.reset(new gpu_buffer_t(p.src, src_buf));
        sm = sg->view;
    }
    if (dst_cpu) {
        dm = memory(p.dst, cpu(), dst_host.data());
    } else {
        dg.reset(new gpu_buffer_t(p.dst, dst_init));
        dm = dg->view;
    }
    std::unordered_map<int, memory> args
            = {{DNNL_ARG_FROM, sm}, {DNNL_ARG_TO, dm}};
    const auto &q = p.quant.q;
    if (p.quant.src_scale)
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC] = gpu_array(
                q.src_scales.data(), (int64_t)q.src_scales.size(), dt::f32);
    if (p.quant.dst_scale)
        args[DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST] = gpu_array(
                q.dst_scales.data(), (int64_t)q.dst_scales.size(), dt::f32);
    if (p.quant.src_zp)
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC] = gpu_array(
                q.src_zps.data(), (int64_t)q.src_zps.size(), dt::s32);
    if (p.quant.dst_zp)
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST] = gpu_array(
                q.dst_zps.data(), (int64_t)q.dst_zps.size(), dt::s32);
    stream s(gpu());
    reorder(pd).execute(s, args);
    s.wait();

    const std::vector<uint8_t> got = dst_cpu ? dst_host : dg->contents();
    const std::vector<uint8_t> src_after = src_cpu ? src_host : sg->contents();
    EXPECT_TRUE(src_after == src_buf) << "source modified";
    const size_t esz = rr::dtype_size(ddt);
    EXPECT_GE(got.size(), expected.size());
    int errors = 0;
    for (size_t i = 0; i + esz <= expected.size() && errors < 5; i += esz) {
        if (std::memcmp(&got[i], &expected[i], esz) == 0) continue;
        const double g = rr::load(ddt, got.data(), (int64_t)(i / esz));
        const double e = rr::load(ddt, expected.data(), (int64_t)(i / esz));
        if (values_match(ddt, g, e, p.exact)) continue;
        ++errors;
        ADD_FAILURE() << pd.impl_info_str() << " "
                      << dt_name(p.src.get_data_type()) << "->"
                      << dt_name(p.dst.get_data_type()) << ": element "
                      << i / esz << " got " << g << " expected " << e;
    }
    return pd.impl_info_str();
}

const dt all_dts[] = {dt::f32, dt::bf16, dt::f16, dt::s32, dt::s8, dt::u8};

std::vector<float> random_scales(std::mt19937 &gen, int64_t n, bool pow2) {
    std::vector<float> v((size_t)n);
    for (auto &s : v)
        s = pow2 ? std::ldexp(1.f, std::uniform_int_distribution<int>(-2, 2)(gen))
                 : std::uniform_real_distribution<float>(0.1f, 3.f)(gen);
    return v;
}

std::vector<int32_t> random_zps(std::mt19937 &gen, int64_t n, int lo, int hi) {
    std::vector<int32_t> v((size_t)n);
    for (auto &z : v)
        z = std::uniform_int_distribution<int>(lo, hi)(gen);
    return v;
}

// Masks < 0 leave an array out.
problem_t quant_problem(std::mt19937 &gen, const memory::dims &dims, dt sdt,
        tag stag, dt ddt, tag dtag, int ss_mask, int ds_mask, int sz_mask,
        int dz_mask, bool with_sum, float beta, bool pow2,
        sides_t sides = sides_t::gpu_gpu) {
    problem_t p = plain_problem(dims, sdt, stag, ddt, dtag, sides);
    auto &qc = p.quant;
    if (ss_mask >= 0) {
        qc.src_scale = true;
        qc.q.src_scale_mask = ss_mask;
        qc.q.src_scales = random_scales(gen, masked_count(ss_mask, dims), pow2);
    }
    if (ds_mask >= 0) {
        qc.dst_scale = true;
        qc.q.dst_scale_mask = ds_mask;
        qc.q.dst_scales = random_scales(gen, masked_count(ds_mask, dims), pow2);
    }
    if (sz_mask >= 0) {
        qc.src_zp = true;
        qc.q.src_zp_mask = sz_mask;
        qc.q.src_zps = random_zps(gen, masked_count(sz_mask, dims), -20, 20);
    }
    if (dz_mask >= 0) {
        qc.dst_zp = true;
        qc.q.dst_zp_mask = dz_mask;
        qc.q.dst_zps = random_zps(gen, masked_count(dz_mask, dims), -10, 10);
    }
    qc.q.with_sum = with_sum;
    qc.q.beta = beta;
    p.exact = pow2;
    return p;
}

} // namespace

// ---- layouts ----

struct tag_case_t {
    memory::dims dims;
    tag stag, dtag;
};

class ocl_reorder_tags_t : public ::testing::TestWithParam<tag_case_t> {};

TEST_P(ocl_reorder_tags_t, MatchesReference) {
    SKIP_WITHOUT_GPU();
    const auto &c = GetParam();
    run_and_check(plain_problem(c.dims, dt::f32, c.stag, dt::f32, c.dtag));
    run_and_check(plain_problem(c.dims, dt::f32, c.dtag, dt::f32, c.stag), 2);
    run_and_check(plain_problem(c.dims, dt::f32, c.stag, dt::s8, c.dtag), 3);
    run_and_check(plain_problem(c.dims, dt::bf16, c.stag, dt::f32, c.dtag), 4);
    run_and_check(plain_problem(c.dims, dt::u8, c.dtag, dt::f16, c.stag), 5);
}

INSTANTIATE_TEST_SUITE_P(Layouts, ocl_reorder_tags_t,
        ::testing::Values(tag_case_t {{37}, tag::a, tag::a},
                tag_case_t {{13, 17}, tag::ab, tag::ba},
                tag_case_t {{5, 6, 7}, tag::abc, tag::acb},
                tag_case_t {{5, 6, 7}, tag::abc, tag::cba},
                tag_case_t {{2, 3, 4, 5}, tag::abcd, tag::cdba},
                tag_case_t {{2, 3, 4, 5, 6}, tag::abcde, tag::decab},
                tag_case_t {{2, 3, 2, 3, 2, 3}, tag::abcdef, tag::acbdef},
                tag_case_t {{2, 19, 5, 7}, tag::nchw, tag::nhwc},
                tag_case_t {{3, 8, 4, 6}, tag::nchw, tag::chwn},
                tag_case_t {{2, 5, 3, 4, 6}, tag::ncdhw, tag::ndhwc},
                tag_case_t {{2, 32, 5, 3}, tag::nchw, tag::nChw16c},
                tag_case_t {{2, 17, 5, 3}, tag::nchw, tag::nChw16c},
                tag_case_t {{3, 5, 4, 4}, tag::nhwc, tag::nChw8c},
                tag_case_t {{2, 20, 3, 5}, tag::nChw8c, tag::nChw16c},
                tag_case_t {{2, 17, 3, 5}, tag::nChw16c, tag::nChw4c},
                tag_case_t {{2, 33, 3, 2, 2}, tag::ncdhw, tag::nCdhw16c},
                tag_case_t {{18, 5, 3, 3}, tag::abcd, tag::Abcd16a},
                tag_case_t {{33, 18, 3, 3}, tag::nchw, tag::NChw16n16c},
                tag_case_t {{32, 48, 3, 3}, tag::oihw, tag::OIhw16i16o},
                tag_case_t {{17, 35, 1, 2}, tag::hwio, tag::OIhw16i16o},
                tag_case_t {{32, 32, 2, 2}, tag::oihw, tag::OIhw4i16o4i},
                tag_case_t {{19, 21, 2, 3}, tag::abcd, tag::ABcd4b16a4b},
                tag_case_t {{16, 16, 3, 2}, tag::ABcd16a16b, tag::BAcd16a16b},
                tag_case_t {{2, 16, 20, 3, 3}, tag::goihw, tag::gOIhw16i16o},
                tag_case_t {{5, 18, 17}, tag::abc, tag::ABc4a4b},
                tag_case_t {{20, 33}, tag::ab, tag::AB16b16a}));

// Blocks that do not nest (24 against 16 on one dim): the source offset
// comes from its layout description.
TEST(OclReorder, BlocksThatDoNotNest) {
    SKIP_WITHOUT_GPU();
    for (sides_t sides : {sides_t::gpu_gpu, sides_t::gpu_cpu}) {
        EXPECT_EQ(run_and_check(plain_problem({40, 20}, dt::f32, tag::AB8b24a,
                          dt::f32, tag::AB16a16b, sides)),
                sides == sides_t::gpu_gpu ? "ocl:reorder:by_layout"
                                          : "ocl:cross_engine:by_layout");
        run_and_check(plain_problem(
                {40, 20}, dt::s8, tag::AB16a16b, dt::f32, tag::AB8b24a, sides));
    }
}

// ---- data types ----

// Every pair once (each pair is one program to build) through the generic
// kernel, the cheapest to compile (the conversions are shared by all
// kernels; the others convert several pairs in the tests above), into a
// padded blocked layout.
TEST(OclReorder, AllDataTypePairs) {
    SKIP_WITHOUT_GPU();
    for (dt s : all_dts)
        for (dt d : all_dts) {
            SCOPED_TRACE(std::string(dt_name(s)) + "->" + dt_name(d));
            EXPECT_EQ(run_and_check(plain_problem(
                              {3, 19, 2, 2}, s, tag::nchw, d, tag::nChw16c)),
                    "ocl:reorder:generic");
        }
}

namespace {
// Converts `vals` (f32, first converted to `sdt` on the gpu) to `ddt`.
template <typename D>
std::vector<D> convert_values(dt sdt, const std::vector<float> &vals, dt ddt) {
    stream s(gpu());
    const memory::dim n = (memory::dim)vals.size();
    memory f = gpu_array(vals.data(), n, dt::f32);
    memory src({{n}, sdt, tag::a}, gpu()), dst({{n}, ddt, tag::a}, gpu());
    reorder(f, src).execute(s, f, src);
    reorder(src, dst).execute(s, src, dst);
    s.wait();
    mapped_t map(dst);
    const D *p = reinterpret_cast<const D *>(map.ptr);
    return std::vector<D>(p, p + n);
}
} // namespace

TEST(OclReorder, RoundingAndSaturation) {
    SKIP_WITHOUT_GPU();
    EXPECT_EQ(convert_values<int8_t>(dt::f32,
                      {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 126.5f, 127.5f, 300.f,
                              -128.5f, -1e9f, INFINITY, -INFINITY, NAN},
                      dt::s8),
            (std::vector<int8_t> {
                    0, 2, 2, 0, -2, 126, 127, 127, -128, -128, 127, -128, -128}));
    EXPECT_EQ(convert_values<uint8_t>(dt::f32,
                      {-1.5f, 0.5f, 1.5f, 2.5f, 254.5f, 255.5f, -0.4f, 1000.f,
                              NAN},
                      dt::u8),
            (std::vector<uint8_t> {0, 0, 2, 2, 254, 255, 0, 255, 255}));
    EXPECT_EQ(convert_values<int32_t>(dt::f32,
                      {1e10f, -1e10f, 2.5f, 3.5f, -2.5f, 2147483520.f,
                              16777216.f},
                      dt::s32),
            (std::vector<int32_t> {2147483520, -2147483647 - 1, 2, 4, -2,
                    2147483520, 16777216}));
    EXPECT_EQ(convert_values<int8_t>(dt::s32, {300.f, -300.f, 5.f}, dt::s8),
            (std::vector<int8_t> {127, -128, 5}));
    EXPECT_EQ(convert_values<uint8_t>(dt::s32, {300.f, -300.f, 5.f}, dt::u8),
            (std::vector<uint8_t> {255, 0, 5}));
    EXPECT_EQ(convert_values<uint8_t>(dt::s8, {-5.f, 100.f}, dt::u8),
            (std::vector<uint8_t> {0, 100}));
    EXPECT_EQ(convert_values<int8_t>(dt::u8, {200.f, 100.f}, dt::s8),
            (std::vector<int8_t> {127, 100}));
    EXPECT_EQ(convert_values<int8_t>(dt::bf16, {2.5f, -3.5f, 200.f}, dt::s8),
            (std::vector<int8_t> {2, -4, 127}));
    // f16: ties to even at 11 bits, overflow to infinity, subnormals.
    EXPECT_EQ(convert_values<uint16_t>(dt::f32,
                      {65504.f, 65519.f, 65520.f, 70000.f, -INFINITY, 6e-8f,
                              3e-8f, 1.00146484375f, 1.0f + 1.f / 2048},
                      dt::f16),
            (std::vector<uint16_t> {0x7bff, 0x7bff, 0x7c00, 0x7c00, 0xfc00,
                    0x0001, 0x0001, 0x3c02, 0x3c00}));
    // f16 back to f32: subnormals and infinities exactly.
    EXPECT_EQ(convert_values<float>(dt::f16, {6e-8f, -65504.f, INFINITY}, dt::f32),
            (std::vector<float> {std::ldexp(1.f, -24), -65504.f, INFINITY}));
    const auto bf = convert_values<uint16_t>(
            dt::f32, {1.00390625f, 1.01171875f, -0.f, NAN, 3.4e38f}, dt::bf16);
    EXPECT_EQ(bf[0], 0x3f80);
    EXPECT_EQ(bf[1], 0x3f82);
    EXPECT_EQ(bf[2], 0x8000);
    EXPECT_TRUE((bf[3] & 0x7f80) == 0x7f80 && (bf[3] & 0x7f) != 0);
    EXPECT_EQ(bf[4], 0x7f80);
}

TEST(OclReorder, IntegerCopyIsExact) {
    SKIP_WITHOUT_GPU();
    // s32 -> s32 must not pass through f32.
    const int32_t vals[6]
            = {16777217, -16777219, 2147483647, -2147483647 - 1, 123456789, 7};
    memory a = gpu_array(vals, 6, dt::s32);
    memory a2(memory::desc({2, 3}, dt::s32, tag::ab), gpu(),
            a.get_data_handle());
    memory b({{2, 3}, dt::s32, tag::ba}, gpu());
    stream s(gpu());
    reorder(a2, b).execute(s, a2, b);
    s.wait();
    mapped_t map(b);
    const int32_t *q = reinterpret_cast<const int32_t *>(map.ptr);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            EXPECT_EQ(q[j * 2 + i], vals[i * 3 + j]);
}

// ---- scales, zero points, sum ----

TEST(OclReorder, ScalesPerTensorAndPerChannel) {
    SKIP_WITHOUT_GPU();
    std::mt19937 gen(7);
    const memory::dims dims = {2, 17, 5, 6};
    for (bool pow2 : {true, false})
        for (int mask : {0, 2}) {
            SCOPED_TRACE("mask " + std::to_string(mask) + (pow2 ? " pow2" : ""));
            run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::s8,
                    tag::nhwc, mask, -1, -1, -1, false, 0, pow2));
            run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::u8,
                    tag::nChw16c, -1, mask, -1, -1, false, 0, pow2));
            run_and_check(quant_problem(gen, dims, dt::s8, tag::nChw16c,
                    dt::f32, tag::nchw, mask, mask, -1, -1, false, 0, pow2));
            run_and_check(quant_problem(gen, dims, dt::bf16, tag::nhwc,
                    dt::f16, tag::nhwc, mask, 0, -1, -1, false, 0, pow2));
        }
    run_and_check(quant_problem(gen, dims, dt::f32, tag::nchw, dt::s8,
            tag::nhwc, 1, 2, -1, -1, false, 0, true));
    run_and_check(quant_problem(gen, {32, 48, 3, 3}, dt::f32, tag::oihw, dt::s8,
            tag::OIhw16i16o, 1, -1, -1, -1, false, 0, false));
    run_and_check(quant_problem(gen, {32, 48, 3, 3}, dt::f32, tag::oihw, dt::s8,
            tag::OIhw4i16o4i, 3, -1, -1, -1, false, 0, true));
}

TEST(OclReorder, ScalesOfOtherDataTypes) {
    SKIP_WITHOUT_GPU();
    memory::desc a({2, 3}, dt::f32, tag::ab), b({2, 3}, dt::f32, tag::ba);
    const float vals[6] = {1, -2, 3, -4, 5, -6};
    for (dt sdt : {dt::bf16, dt::f16}) {
        primitive_attr attr;
        attr.set_scales(DNNL_ARG_SRC, 2, {}, sdt);
        reorder::primitive_desc pd(gpu(), a, gpu(), b, attr);
        memory ma = gpu_array(vals, 6, dt::f32);
        memory ma2(a, gpu(), ma.get_data_handle()), mb(b, gpu());
        const uint16_t bits_bf16[3] = {0x3f00, 0x4000, 0x4080}; // 0.5 2 4
        const uint16_t bits_f16[3] = {0x3800, 0x4000, 0x4400};
        memory sc = gpu_array(
                sdt == dt::bf16 ? bits_bf16 : bits_f16, 3, sdt);
        stream s(gpu());
        reorder(pd).execute(s,
                {{DNNL_ARG_FROM, ma2}, {DNNL_ARG_TO, mb},
                        {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, sc}});
        s.wait();
        const auto o = raw_f32(mb, 6);
        const float want[6] = {0.5f, -2.f, -4.f, 10.f, 12.f, -24.f};
        for (int i = 0; i < 6; ++i)
            EXPECT_EQ(o[i], want[i]) << dt_name(sdt) << " " << i;
    }
}

TEST(OclReorder, ZeroPoints) {
    SKIP_WITHOUT_GPU();
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

TEST(OclReorder, SumPostOp) {
    SKIP_WITHOUT_GPU();
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

TEST(OclReorder, SubmemoryAndStrides) {
    SKIP_WITHOUT_GPU();
    const memory::dims parent = {4, 8, 6, 7};
    const memory::dims sub = {2, 5, 3, 4}, offs = {1, 2, 1, 2};
    memory::desc psrc(parent, dt::f32, tag::nchw);
    memory::desc pnhwc(parent, dt::s8, tag::nhwc);
    for (sides_t sides :
            {sides_t::gpu_gpu, sides_t::cpu_gpu, sides_t::gpu_cpu}) {
        problem_t p;
        p.sides = sides;
        p.src = psrc.submemory_desc(sub, offs);
        p.dst = memory::desc(sub, dt::f32, tag::nhwc);
        run_and_check(p);
        p.src = memory::desc(sub, dt::f32, tag::nchw);
        p.dst = pnhwc.submemory_desc(sub, offs);
        run_and_check(p);
        p.src = psrc.submemory_desc(sub, offs);
        p.dst = pnhwc.submemory_desc(sub, {0, 3, 2, 0});
        run_and_check(p);
        memory::desc pblk({2, 48, 3, 3}, dt::f32, tag::nChw16c);
        p.src = pblk.submemory_desc({2, 16, 3, 3}, {0, 16, 0, 0});
        p.dst = memory::desc({2, 16, 3, 3}, dt::bf16, tag::nchw);
        run_and_check(p);
        p.src = memory::desc({2, 16, 3, 3}, dt::f32, tag::nhwc);
        p.dst = pblk.submemory_desc({2, 16, 3, 3}, {0, 32, 0, 0});
        run_and_check(p);
        // same layout, both sub-memories: a copy of separate rows
        p.src = psrc.submemory_desc(sub, offs);
        p.dst = psrc.submemory_desc(sub, {0, 0, 0, 0});
        run_and_check(p);
        p.src = memory::desc({3, 4, 5}, dt::f32, memory::dims {40, 9, 1});
        p.dst = memory::desc({3, 4, 5}, dt::f32, memory::dims {1, 30, 6});
        run_and_check(p);
        p.src = memory::desc({6, 10}, dt::u8, memory::dims {1, 7});
        p.dst = memory::desc({6, 10}, dt::s32, memory::dims {12, 1});
        run_and_check(p);
    }
}

// ---- random layouts ----

namespace {
memory::desc random_strided(std::mt19937 &gen, const memory::dims &dims, dt d) {
    const int nd = (int)dims.size();
    std::vector<int> order(nd);
    for (int i = 0; i < nd; ++i)
        order[i] = i;
    std::shuffle(order.begin(), order.end(), gen);
    memory::dims strides(nd);
    memory::dim s = 1 + std::uniform_int_distribution<int>(0, 1)(gen);
    for (int i = nd - 1; i >= 0; --i) {
        strides[order[i]] = s;
        s *= dims[order[i]] + std::uniform_int_distribution<int>(0, 2)(gen);
    }
    return memory::desc(dims, d, strides);
}

memory::desc random_tagged(std::mt19937 &gen, const memory::dims &dims, dt d) {
    static const tag tags[] = {tag::abcd, tag::acdb, tag::bacd, tag::cdba,
            tag::aBcd8b, tag::aBcd16b, tag::Abcd16a, tag::ABcd16a16b,
            tag::ABcd16b16a, tag::ABcd4b16a4b, tag::ABcd8b8a, tag::aBcd4b,
            tag::BAcd16a16b, tag::Acdb16a, tag::aBdc16b};
    return memory::desc(dims, d,
            tags[std::uniform_int_distribution<int>(
                    0, (int)(sizeof(tags) / sizeof(tags[0])) - 1)(gen)]);
}
} // namespace

TEST(OclReorder, RandomLayoutsAndAttributes) {
    SKIP_WITHOUT_GPU();
    std::mt19937 gen(2024);
    // Few data types, so that few programs are built.
    const dt dts[] = {dt::f32, dt::s8};
    for (int iter = 0; iter < 60; ++iter) {
        const bool tagged = iter % 2 == 0;
        const int nd = tagged ? 4 : std::uniform_int_distribution<int>(1, 5)(gen);
        memory::dims dims(nd);
        for (auto &x : dims)
            x = std::uniform_int_distribution<int>(1, tagged ? 20 : 7)(gen);
        const dt sdt = dts[std::uniform_int_distribution<int>(0, 1)(gen)];
        const dt ddt = dts[std::uniform_int_distribution<int>(0, 1)(gen)];
        problem_t p;
        p.src = tagged ? random_tagged(gen, dims, sdt)
                       : random_strided(gen, dims, sdt);
        p.dst = tagged ? random_tagged(gen, dims, ddt)
                       : random_strided(gen, dims, ddt);
        const int what = std::uniform_int_distribution<int>(0, 3)(gen);
        const int mask = std::uniform_int_distribution<int>(0, (1 << nd) - 1)(gen);
        if (what == 1) {
            p.quant.src_scale = true;
            p.quant.q.src_scale_mask = mask;
            p.quant.q.src_scales = random_scales(gen, masked_count(mask, dims), true);
        }
        if (what == 2) {
            p.quant.q.with_sum = true;
            p.quant.q.beta = 0.5f;
        }
        p.sides = iter % 3 == 0 ? sides_t::gpu_gpu
                : iter % 3 == 1 ? sides_t::cpu_gpu
                                : sides_t::gpu_cpu;
        SCOPED_TRACE("iteration " + std::to_string(iter));
        run_and_check(p, (unsigned)iter);
        if (::testing::Test::HasFailure()) break;
    }
}

// Up to twelve dims: only padded or quantized dims are tracked (at most
// six), the others merge.
TEST(OclReorder, HighRank) {
    SKIP_WITHOUT_GPU();
    std::mt19937 gen(17);
    const memory::dims d8 = {2, 3, 2, 3, 2, 3, 2, 2};
    for (sides_t sides : {sides_t::gpu_gpu, sides_t::cpu_gpu}) {
        problem_t p;
        p.sides = sides;
        p.src = random_strided(gen, d8, dt::f32);
        p.dst = random_strided(gen, d8, dt::s8);
        run_and_check(p);
        // A per-channel scale over two of the eight dims.
        p.quant.src_scale = true;
        p.quant.q.src_scale_mask = (1 << 1) | (1 << 6);
        p.quant.q.src_scales = random_scales(gen, 6, true);
        run_and_check(p, 2);
    }
    const memory::dims d12 = {2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 3};
    problem_t p;
    p.src = random_strided(gen, d12, dt::f32);
    p.dst = random_strided(gen, d12, dt::f32);
    run_and_check(p);
}

// ---- the fast paths are taken, and handle tails ----

TEST(OclReorder, FastPathsAndTails) {
    SKIP_WITHOUT_GPU();
    auto name = [](const problem_t &p) { return run_and_check(p); };
    EXPECT_EQ(name(plain_problem({3, 1001}, dt::f32, tag::ab, dt::f32, tag::ab)),
            "ocl:reorder:copy");
    EXPECT_EQ(name(plain_problem({1001, 3}, dt::f32, tag::ab, dt::bf16, tag::ab)),
            "ocl:reorder:linear");
    EXPECT_EQ(name(plain_problem({(1 << 18) + 7}, dt::s8, tag::a, dt::f32, tag::a)),
            "ocl:reorder:linear");
    EXPECT_EQ(name(plain_problem({300, 700}, dt::f32, tag::ab, dt::f32, tag::ba)),
            "ocl:reorder:tiled");
    EXPECT_EQ(name(plain_problem({4, 64, 33, 35}, dt::f32, tag::nchw, dt::f32,
                      tag::nhwc)),
            "ocl:reorder:tiled");
    EXPECT_EQ(name(plain_problem({2, 3, 33, 35}, dt::u8, tag::nhwc, dt::f32,
                      tag::nchw)),
            "ocl:reorder:tiled");
    EXPECT_EQ(name(plain_problem({8, 40, 16, 16}, dt::f32, tag::nchw, dt::f32,
                      tag::nChw16c)),
            "ocl:reorder:tiled");
    // A sub-memory source: not aligned for vectors.
    problem_t p;
    p.src = memory::desc({1003}, dt::f32, tag::a).submemory_desc({1001}, {1});
    p.dst = memory::desc({1001}, dt::s8, tag::a);
    EXPECT_EQ(name(p), "ocl:reorder:linear");
    std::mt19937 gen(3);
    run_and_check(quant_problem(gen, {4, 64, 33, 35}, dt::f32, tag::nchw,
            dt::s8, tag::nhwc, 2, -1, -1, 0, false, 0, false));
}

// One program per data types and attributes: new shapes and layouts (and
// so other kernels of the program) build nothing.
TEST(OclReorder, NewShapesAndLayoutsReuseTheProgram) {
    SKIP_WITHOUT_GPU();
    auto misses = [] {
        dnnl_ext_kernel_cache_stats_t st;
        EXPECT_EQ(dnnl_ext_kernel_cache_get_stats(&st), dnnl_success);
        return st.misses;
    };
    // f16 -> s32 with a destination zero point: no other test's program.
    primitive_attr attr;
    attr.set_zero_points_mask(DNNL_ARG_DST, 0);
    auto make = [&](const memory::dims &d, tag s, tag t) {
        reorder::primitive_desc pd(gpu(), memory::desc(d, dt::f16, s), gpu(),
                memory::desc(d, dt::s32, t), attr);
        reorder r(pd);
        return std::string(pd.impl_info_str());
    };
    make({2, 3, 4, 5}, tag::nchw, tag::nhwc);
    const auto before = misses();
    EXPECT_EQ(make({5, 7, 9, 11}, tag::nchw, tag::nhwc), "ocl:reorder:tiled");
    EXPECT_EQ(make({3, 20, 6, 6}, tag::nchw, tag::nChw8c), "ocl:reorder:tiled");
    EXPECT_EQ(make({3, 20, 2, 2}, tag::nchw, tag::nchw), "ocl:reorder:linear");
    EXPECT_EQ(make({3, 20, 2, 2}, tag::nChw16c, tag::nChw8c),
            "ocl:reorder:generic");
    EXPECT_EQ(misses(), before);
}

// ---- cpu <-> gpu ----

TEST(OclReorder, CrossEngine) {
    SKIP_WITHOUT_GPU();
    for (sides_t sides : {sides_t::cpu_gpu, sides_t::gpu_cpu}) {
        SCOPED_TRACE(sides_name(sides));
        // Same bytes: copied directly.
        EXPECT_EQ(run_and_check(plain_problem(
                          {2, 16, 5, 7}, dt::f32, tag::nchw, dt::f32, tag::nchw, sides)),
                "ocl:cross_engine:copy");
        // Layout and type conversions through the scratchpad.
        run_and_check(plain_problem(
                {2, 19, 5, 7}, dt::f32, tag::nchw, dt::bf16, tag::nChw16c, sides));
        run_and_check(plain_problem(
                {2, 19, 5, 7}, dt::s8, tag::nChw16c, dt::f32, tag::nhwc, sides));
        run_and_check(plain_problem(
                {300, 70}, dt::f32, tag::ab, dt::f32, tag::ba, sides));
        std::mt19937 gen(5);
        run_and_check(quant_problem(gen, {2, 19, 5, 7}, dt::f32, tag::nchw,
                dt::s8, tag::nhwc, 2, -1, -1, 0, true, 0.5f, true, sides));
        run_and_check(quant_problem(gen, {2, 19, 5, 7}, dt::f32, tag::nchw,
                dt::f32, tag::nchw, -1, -1, -1, -1, true, 1.f, true, sides));
    }
}

TEST(OclReorder, CrossEngineRoundTrip) {
    SKIP_WITHOUT_GPU();
    const memory::dims dims = {3, 21, 4, 6};
    memory::desc plain(dims, dt::f32, tag::nchw);
    memory::desc blocked(dims, dt::f32, tag::nChw16c);
    std::vector<float> v = random_f32((size_t)count(dims_of(plain)), 9);
    memory a(plain, cpu()), b(plain, cpu());
    std::memcpy(a.get_data_handle(), v.data(), v.size() * 4);
    std::memset(b.get_data_handle(), 0x7f, v.size() * 4);
    memory g(blocked, gpu());
    stream s(gpu());
    reorder(a, g).execute(s, a, g);
    reorder(g, b).execute(s, g, b);
    s.wait();
    EXPECT_EQ(std::memcmp(a.get_data_handle(), b.get_data_handle(), v.size() * 4), 0);
    EXPECT_TRUE(padding_is_zero(g));
    // The C++ API's primitive descriptor reports the engines.
    reorder::primitive_desc pd(cpu(), plain, gpu(), blocked);
    EXPECT_TRUE(pd.get_src_engine() == cpu());
    EXPECT_TRUE(pd.get_dst_engine() == gpu());
    EXPECT_TRUE(pd.get_engine() == gpu());
}

// gpu -> cpu -> gpu on one stream without waiting in between: the host
// memory the first reorder writes is what the second one reads (both the
// direct copies and the converting paths). A race: 8 MB so that the
// copy to the host takes long enough to show it (test_ocl_f64.cpp's
// round trip caught it on an H200 before gpu -> cpu copies blocked).
TEST(OclReorder, CrossEngineChainWithoutWait) {
    SKIP_WITHOUT_GPU();
    const memory::dims dims = {8, 64, 64, 64};
    const memory::desc plain(dims, dt::f32, tag::nchw),
            cl(dims, dt::f32, tag::nhwc);
    const std::vector<float> v = random_f32((size_t)count(dims_of(plain)), 11);
    memory g0(plain, gpu());
    {
        mapped_t map(g0);
        std::memcpy(map.ptr, v.data(), v.size() * 4);
    }
    stream s(gpu());
    for (bool convert : {false, true}) {
        SCOPED_TRACE(convert ? "converting" : "direct");
        memory h1(convert ? cl : plain, cpu()), g2(cl, gpu()), h3(plain, cpu());
        std::memset(h1.get_data_handle(), 0, v.size() * 4);
        reorder(g0, h1).execute(s, g0, h1);
        reorder(h1, g2).execute(s, h1, g2);
        reorder(g2, h3).execute(s, g2, h3);
        s.wait();
        EXPECT_EQ(std::memcmp(h3.get_data_handle(), v.data(), v.size() * 4), 0);
    }
}

// ---- special cases and bad input ----

TEST(OclReorder, ZeroSizeAndInPlace) {
    SKIP_WITHOUT_GPU();
    stream s(gpu());
    for (const memory::dims &dims : {memory::dims {0, 3}, memory::dims {2, 0, 3, 3}}) {
        const tag t0 = dims.size() == 2 ? tag::ab : tag::nchw;
        const tag t1 = dims.size() == 2 ? tag::ba : tag::nChw16c;
        memory::desc a(dims, dt::f32, t0), b(dims, dt::s8, t1);
        memory ma(a, gpu()), mb(b, gpu());
        EXPECT_NO_THROW(reorder(ma, mb).execute(s, ma, mb));
        memory mc(a, cpu());
        EXPECT_NO_THROW(reorder(mc, mb).execute(s, mc, mb));
    }
    std::vector<float> v(120);
    for (int i = 0; i < 120; ++i)
        v[i] = (float)i - 60.5f;
    memory m = gpu_array(v.data(), 120, dt::f32);
    memory m3(memory::desc({4, 5, 6}, dt::f32, tag::abc), gpu(), m.get_data_handle());
    reorder(m3, m3).execute(s, m3, m3);
    memory mi(memory::desc({4, 5, 6}, dt::s32, tag::abc), gpu(), m.get_data_handle());
    reorder(m3, mi).execute(s, m3, mi);
    s.wait();
    mapped_t map(m);
    const int32_t *q = reinterpret_cast<const int32_t *>(map.ptr);
    for (int i = 0; i < 120; ++i)
        ASSERT_EQ(q[i], (int32_t)std::nearbyint((float)i - 60.5f));
}

TEST(OclReorder, BadRequestsGiveAStatus) {
    SKIP_WITHOUT_GPU();
    memory::desc a({2, 3}, dt::f32, tag::ab), i8({2, 3}, dt::s8, tag::ba);
    auto create = [&](const memory::desc &s, engine &se, const memory::desc &d,
                          engine &de, const_dnnl_primitive_attr_t attr) {
        dnnl_primitive_desc_t pd = nullptr;
        const dnnl_status_t st = dnnl_reorder_primitive_desc_create(
                &pd, s.get(), se.get(), d.get(), de.get(), attr);
        if (pd) dnnl_primitive_desc_destroy(pd);
        return st;
    };
    // 4-bit data (f64 converts: test_ocl_f64.cpp).
    memory::desc s4({2, 4}, dt::s4, tag::ab), a4({2, 4}, dt::f32, tag::ab);
    EXPECT_EQ(create(s4, gpu(), a4, gpu(), nullptr), dnnl_unimplemented);
    EXPECT_EQ(create(s4, cpu(), a4, gpu(), nullptr), dnnl_unimplemented);
    {
        primitive_attr attr;
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(po);
        EXPECT_EQ(create(a, gpu(), i8, gpu(), attr.get()), dnnl_unimplemented);
    }
    {
        primitive_attr attr;
        attr.set_scales(DNNL_ARG_SRC, 3, {1, 3}, dt::f32);
        EXPECT_EQ(create(a, gpu(), i8, gpu(), attr.get()), dnnl_unimplemented);
    }
    {
        memory::desc r({DNNL_RUNTIME_DIM_VAL, 3}, dt::f32, tag::ab);
        EXPECT_EQ(create(r, gpu(), r, gpu(), nullptr), dnnl_unimplemented);
    }
    EXPECT_EQ(create(a, gpu(), memory::desc({3, 3}, dt::f32, tag::ab), cpu(),
                      nullptr),
            dnnl_invalid_arguments);

    stream s(gpu());
    // A missing scale, a scale on the cpu, a too small one.
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_SRC, 2);
    reorder::primitive_desc pd(gpu(), a, gpu(), i8, attr);
    memory ma(a, gpu()), mb(i8, gpu());
    auto status = [&](const std::unordered_map<int, memory> &args) {
        return status_of([&] { reorder(pd).execute(s, args); });
    };
    EXPECT_EQ(status({{DNNL_ARG_FROM, ma}, {DNNL_ARG_TO, mb}}),
            dnnl_invalid_arguments);
    memory host_scale({{3}, dt::f32, tag::a}, cpu());
    EXPECT_EQ(status({{DNNL_ARG_FROM, ma}, {DNNL_ARG_TO, mb},
                      {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, host_scale}}),
            dnnl_invalid_arguments);
    memory small({{2}, dt::f32, tag::a}, gpu());
    EXPECT_EQ(status({{DNNL_ARG_FROM, ma}, {DNNL_ARG_TO, mb},
                      {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, small}}),
            dnnl_invalid_arguments);
    // cpu memory for a gpu -> gpu reorder, gpu memory for a cpu side.
    reorder::primitive_desc pd2(gpu(), a, gpu(), a);
    memory hc(a, cpu()), gg(a, gpu());
    EXPECT_EQ(status_of([&] { reorder(pd2).execute(s, hc, gg); }),
            dnnl_invalid_arguments);
    reorder::primitive_desc pd3(cpu(), a, gpu(), a);
    EXPECT_EQ(status_of([&] { reorder(pd3).execute(s, gg, gg); }),
            dnnl_invalid_arguments);
    // A user buffer of the descriptor's size, which a sub-memory's offset
    // takes the tensor past.
    {
        const memory::desc sub = memory::desc({10, 100}, dt::f32, tag::ab)
                                         .submemory_desc({5, 100}, {5, 0});
        memory raw({{(memory::dim)sub.get_size()}, dt::u8, tag::a}, gpu());
        memory view(sub, gpu(), raw.get_data_handle());
        memory out({{5, 100}, dt::f32, tag::ab}, gpu());
        EXPECT_EQ(status_of([&] { reorder(view, out).execute(s, view, out); }),
                dnnl_invalid_arguments);
        EXPECT_EQ(status_of([&] { reorder(out, view).execute(s, out, view); }),
                dnnl_invalid_arguments);
    }
    // A cpu stream for a reorder on the gpu engine.
    stream cs(cpu());
    EXPECT_EQ(status_of([&] { reorder(pd3).execute(cs, hc, gg); }),
            dnnl_invalid_arguments);
    s.wait();
}

#endif
