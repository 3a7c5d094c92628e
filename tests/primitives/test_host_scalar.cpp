// Host-scalar memory: creation from a value (copied), reading and writing
// it, and scales passed as host scalars to matmul and layer normalization
// on CPU; a host scalar where the attributes declare none is refused.
#include <cmath>
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

// A host scalar is made only by dnnl_memory_create_host_scalar and has
// no data handle (oneDNN's answers: dnnl_invalid_arguments).
TEST(HostScalar, NoEngineMemoryAndNoDataHandle) {
    memory::desc md = memory::desc::host_scalar(dt::f32);
    float v = 1.f;
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_memory_create(&m, md.get(), eng().get(), &v),
            dnnl_invalid_arguments);
    void *handles[1] = {&v};
    EXPECT_EQ(dnnl_memory_create_v2(&m, md.get(), eng().get(), 1, handles),
            dnnl_invalid_arguments);
    memory s(md, v);
    void *h = nullptr;
    EXPECT_EQ(dnnl_memory_get_data_handle(s.get(), &h), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_set_data_handle(s.get(), &v), dnnl_invalid_arguments);
    EXPECT_THROW(s.get_data_handle(), dnnl::error);
    EXPECT_EQ(s.get_host_scalar_value<float>(), 1.f);
    try {
        memory wrong(memory::desc::host_scalar(dt::f16), 1.f);
        ADD_FAILURE() << "a float for an f16 scalar was taken";
    } catch (const dnnl::error &e) {
        EXPECT_EQ(e.status, dnnl_invalid_arguments);
        EXPECT_STREQ(e.message,
                "scalar type size does not match memory descriptor data type "
                "size");
    }
}

TEST(HostScalar, MemoryHoldsACopyOfTheValue) {
    memory::desc md = memory::desc::host_scalar(dt::f32);
    EXPECT_EQ(md.get_size(), sizeof(float));
    float v = 2.5f;
    memory m(md, v);
    v = 7.f; // the memory keeps its own copy
    EXPECT_EQ(m.get_host_scalar_value<float>(), 2.5f);
    m.set_host_scalar_value(-1.f);
    EXPECT_EQ(m.get_host_scalar_value<float>(), -1.f);

    dnnl_memory_t c = nullptr;
    memory::desc plain({1}, dt::f32, tag::a);
    EXPECT_EQ(dnnl_memory_create_host_scalar(&c, plain.get(), &v),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_create_host_scalar(&c, md.get(), nullptr),
            dnnl_invalid_arguments);
    float out = 0;
    EXPECT_EQ(dnnl_memory_get_host_scalar_value(nullptr, &out),
            dnnl_invalid_arguments);
}

TEST(HostScalar, MatmulSourceScale) {
    const memory::dim M = 3, K = 4, N = 5;
    memory::desc a({M, K}, dt::f32, tag::ab), b({K, N}, dt::f32, tag::ab),
            c({M, N}, dt::f32, tag::ab);
    primitive_attr attr;
    attr.set_host_scale(DNNL_ARG_SRC);
    matmul::primitive_desc pd(eng(), a, b, c, attr);
    memory ma(a, eng()), mb(b, eng()), mc(c, eng());
    float *pa = static_cast<float *>(ma.get_data_handle());
    float *pb = static_cast<float *>(mb.get_data_handle());
    for (int i = 0; i < M * K; ++i)
        pa[i] = (float)(i % 5 - 2);
    for (int i = 0; i < K * N; ++i)
        pb[i] = (float)(i % 3 - 1);
    memory scale(memory::desc::host_scalar(dt::f32), 3.f);
    stream s(eng());
    matmul(pd).execute(s, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb},
                                  {DNNL_ARG_DST, mc},
                                  {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scale}});
    s.wait();
    const float *pc = static_cast<const float *>(mc.get_data_handle());
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float want = 0;
            for (int k = 0; k < K; ++k)
                want += pa[i * K + k] * pb[k * N + j];
            EXPECT_EQ(pc[i * N + j], 3.f * want);
        }

    // Without a host-side declaration the scalar is refused.
    matmul::primitive_desc plain_pd(eng(), a, b, c);
    EXPECT_THROW(matmul(plain_pd).execute(s,
                         {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb},
                                 {DNNL_ARG_DST, mc},
                                 {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, scale}}),
            dnnl::error);
}

TEST(HostScalar, LayerNormDestinationScale) {
    memory::desc src({2, 8}, dt::f32, tag::ab), dst({2, 8}, dt::s8, tag::ab);
    primitive_attr attr;
    attr.set_host_scale(DNNL_ARG_DST);
    layer_normalization_forward::primitive_desc pd(eng(),
            prop_kind::forward_inference, src, dst, 1e-5f,
            normalization_flags::none, attr);
    memory ms(src, eng()), md(dst, eng());
    float *x = static_cast<float *>(ms.get_data_handle());
    for (int i = 0; i < 16; ++i)
        x[i] = (float)(i % 8);
    memory scale(memory::desc::host_scalar(dt::f32), 0.05f);
    stream s(eng());
    layer_normalization_forward(pd).execute(s, {{DNNL_ARG_SRC, ms},
            {DNNL_ARG_DST, md}, {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, scale}});
    s.wait();
    const int8_t *y = static_cast<const int8_t *>(md.get_data_handle());
    // Row 0..7: mean 3.5, variance 5.25.
    for (int i = 0; i < 8; ++i) {
        const float n = (float)((i - 3.5) / std::sqrt(5.25 + 1e-5));
        const float want = std::fmin(127.f, std::nearbyint(n / 0.05f));
        EXPECT_NEAR((float)y[i], want, 1.f) << i;
    }
}

} // namespace
