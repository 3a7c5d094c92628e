// Execution behaviours oneDNN 3.13 programs rely on: concat and sum with
// zero-sized dims are valid no-ops; reorders with runtime dims take their
// shapes from the memories at execution; an allocation that cannot succeed
// is dnnl_out_of_memory. Expected values are computed here.
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

TEST(ConformanceExec, ConcatAndSumWithZeroDims) {
    stream s(eng());
    // Every source empty: the destination is empty too.
    memory::desc z({0, 4}, dt::f32, tag::ab);
    concat::primitive_desc cpd(eng(), 0, {z, z});
    EXPECT_EQ(cpd.dst_desc().get_dims(), memory::dims({0, 4}));
    memory mz(z, eng()), dz(cpd.dst_desc(), eng());
    concat(cpd).execute(s, {{DNNL_ARG_MULTIPLE_SRC, mz},
                                   {DNNL_ARG_MULTIPLE_SRC + 1, mz}, {DNNL_ARG_DST, dz}});
    sum::primitive_desc spd(eng(), {1.f, 2.f}, {z, z});
    memory sd(spd.dst_desc(), eng());
    sum(spd).execute(s, {{DNNL_ARG_MULTIPLE_SRC, mz},
                                {DNNL_ARG_MULTIPLE_SRC + 1, mz}, {DNNL_ARG_DST, sd}});
    // One empty source among others takes no room.
    memory::desc e({2, 0}, dt::f32, tag::ab), a({2, 3}, dt::f32, tag::ab);
    concat::primitive_desc c2(eng(), 1, {e, a});
    memory me(e, eng()), ma(a, eng()), d2(c2.dst_desc(), eng());
    float *pa = static_cast<float *>(ma.get_data_handle());
    for (int i = 0; i < 6; ++i)
        pa[i] = (float)i;
    concat(c2).execute(s, {{DNNL_ARG_MULTIPLE_SRC, me},
                                  {DNNL_ARG_MULTIPLE_SRC + 1, ma}, {DNNL_ARG_DST, d2}});
    s.wait();
    const float *pd = static_cast<const float *>(d2.get_data_handle());
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(pd[i], (float)i);
}

TEST(ConformanceExec, ReorderWithRuntimeDims) {
    const memory::dim R = DNNL_RUNTIME_DIM_VAL;
    reorder::primitive_desc pd(eng(), memory::desc({R, R}, dt::f32, tag::ab),
            eng(), memory::desc({R, R}, dt::f32, tag::ba));
    reorder r(pd);
    stream s(eng());
    for (memory::dim rows : {3, 7}) {
        const memory::dim cols = 5;
        memory src(memory::desc({rows, cols}, dt::f32, tag::ab), eng());
        memory dst(memory::desc({rows, cols}, dt::f32, tag::ba), eng());
        float *ps = static_cast<float *>(src.get_data_handle());
        for (memory::dim i = 0; i < rows * cols; ++i)
            ps[i] = (float)i;
        r.execute(s, {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}});
        s.wait();
        const float *pt = static_cast<const float *>(dst.get_data_handle());
        for (memory::dim i = 0; i < rows; ++i)
            for (memory::dim j = 0; j < cols; ++j)
                EXPECT_EQ(pt[j * rows + i], (float)(i * cols + j));
    }
    // A memory whose shape contradicts the known dims is refused.
    reorder::primitive_desc half(eng(), memory::desc({R, 4}, dt::f32, tag::ab),
            eng(), memory::desc({R, 4}, dt::f32, tag::ba));
    memory bad_src(memory::desc({2, 5}, dt::f32, tag::ab), eng());
    memory bad_dst(memory::desc({2, 5}, dt::f32, tag::ba), eng());
    EXPECT_THROW(reorder(half).execute(
                         s, {{DNNL_ARG_FROM, bad_src}, {DNNL_ARG_TO, bad_dst}}),
            dnnl::error);
}

TEST(ConformanceExec, ImpossibleAllocationIsOutOfMemory) {
    // 2^40 x 1024 f32: a valid descriptor of 4 PiB.
    memory::desc huge({(memory::dim)1 << 40, 1024}, dt::f32, tag::ab);
    dnnl_memory_t m = nullptr;
    EXPECT_EQ(dnnl_memory_create(&m, huge.get(), eng().get(), DNNL_MEMORY_ALLOCATE),
            dnnl_out_of_memory);
    EXPECT_EQ(m, nullptr);
    try {
        memory mm(huge, eng());
        ADD_FAILURE() << "no error";
    } catch (const dnnl::error &e) { EXPECT_EQ(e.status, dnnl_out_of_memory); }
}

} // namespace
