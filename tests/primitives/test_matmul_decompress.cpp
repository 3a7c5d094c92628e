// Matmul with weight decompression (oneDNN's weight-only quantization):
// f32 activations, s8 / u4 / s4 weights with per-N or grouped scales and
// zero points, fpmath_mode(..., apply_to_int = true); without
// apply_to_int the request is unimplemented, as in oneDNN. Expected values
// are computed here from the logical weights.
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

// Dense row-major storage of integer values of type `t` (4-bit values two
// to a byte, the lower index in the low nibble).
void store_int(dt t, void *base, size_t i, int v) {
    if (t == dt::s8) static_cast<int8_t *>(base)[i] = (int8_t)v;
    else if (t == dt::u8) static_cast<uint8_t *>(base)[i] = (uint8_t)v;
    else {
        uint8_t &b = static_cast<uint8_t *>(base)[i / 2];
        const uint8_t nib = (uint8_t)(v & 0xf);
        b = (i % 2) ? (uint8_t)((b & 0x0f) | (nib << 4))
                    : (uint8_t)((b & 0xf0) | nib);
    }
}

struct cfg_t {
    dt wdt;
    int lo, hi; // weight value range
    bool grouped; // scales (and zero points) per group of G rows of K
    bool with_zp;
    dt zdt;
};

void run(const cfg_t &c) {
    SCOPED_TRACE(testing::Message() << "wdt " << (int)c.wdt << " grouped "
                                    << c.grouped << " zp " << c.with_zp);
    // N even: rows of 4-bit weights end on a byte boundary.
    const memory::dim M = 3, K = 8, N = 6, G = c.grouped ? 4 : K;
    memory::desc a({M, K}, dt::f32, tag::ab), b({K, N}, c.wdt, tag::ab),
            d({M, N}, dt::f32, tag::ab);
    primitive_attr attr;
    attr.set_fpmath_mode(fpmath_mode::strict, true);
    const int mask = c.grouped ? 3 : 2;
    const memory::dims groups = c.grouped ? memory::dims {G, 1} : memory::dims {};
    attr.set_scales(DNNL_ARG_WEIGHTS, mask, groups, dt::f32);
    if (c.with_zp) attr.set_zero_points(DNNL_ARG_WEIGHTS, mask, groups, c.zdt);
    matmul::primitive_desc pd(eng(), a, b, d, attr);

    std::vector<float> x(M * K);
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = (float)((int)(i % 7) - 3) * 0.5f;
    std::vector<int> q(K * N);
    for (size_t i = 0; i < q.size(); ++i)
        q[i] = c.lo + (int)((i * 5) % (size_t)(c.hi - c.lo + 1));
    const memory::dim ngroups = c.grouped ? K / G : 1;
    std::vector<float> sc(ngroups * N);
    for (size_t i = 0; i < sc.size(); ++i)
        sc[i] = 0.25f * (float)(1 + i % 3);
    std::vector<int> zpv(ngroups * N);
    for (size_t i = 0; i < zpv.size(); ++i)
        zpv[i] = c.with_zp ? (int)(i % 3) : 0;

    memory ma(a, eng()), mb(b, eng()), md(d, eng());
    std::copy(x.begin(), x.end(), static_cast<float *>(ma.get_data_handle()));
    for (size_t i = 0; i < q.size(); ++i)
        store_int(c.wdt, mb.get_data_handle(), i, q[i]);
    memory::desc scd({ngroups, N}, dt::f32, tag::ab);
    memory ms(scd, eng());
    std::copy(sc.begin(), sc.end(), static_cast<float *>(ms.get_data_handle()));
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, ma},
            {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, md},
            {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, ms}};
    memory mz;
    if (c.with_zp) {
        mz = memory(memory::desc({ngroups, N}, c.zdt, tag::ab), eng());
        for (size_t i = 0; i < zpv.size(); ++i)
            store_int(c.zdt, mz.get_data_handle(), i, zpv[i]);
        args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS] = mz;
    }
    stream s(eng());
    matmul(pd).execute(s, args);
    s.wait();
    const float *y = static_cast<const float *>(md.get_data_handle());
    for (memory::dim i = 0; i < M; ++i)
        for (memory::dim j = 0; j < N; ++j) {
            double want = 0;
            for (memory::dim k = 0; k < K; ++k) {
                const size_t g = (size_t)((k / G) * N + j);
                want += x[i * K + k] * (q[k * N + j] - zpv[g]) * sc[g];
            }
            EXPECT_NEAR(y[i * N + j], want, 1e-4) << i << "," << j;
        }
}

TEST(MatmulDecompress, IntegerWeights) {
    run({dt::s8, -100, 100, false, false, dt::s8});
    run({dt::s8, -100, 100, true, true, dt::s8});
    run({dt::u8, 0, 200, false, true, dt::u8});
    run({dt::s4, -8, 7, true, false, dt::s8});
    run({dt::u4, 0, 15, true, true, dt::u4});
}

TEST(MatmulDecompress, NeedsApplyToInt) {
    memory::desc a({2, 4}, dt::f32, tag::ab), b({4, 3}, dt::s8, tag::ab),
            d({2, 3}, dt::f32, tag::ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(
                      &pd, eng().get(), a.get(), b.get(), nullptr, d.get(), nullptr),
            dnnl_unimplemented);
}

} // namespace
