// The propagation kind as oneDNN answers it: kinds without one (matmul,
// reorder, sum, concat, binary, reduction) leave the prop_kind query
// unimplemented, so the C++ wrappers read `undef` and accept a descriptor
// of their kind made elsewhere (from a C handle or a primitive). Also
// next_impl on reorder, sum and concat (C API), and inner product
// attributes oneDNN refuses.
#include <string>

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

dnnl_status_t prop_query(const_dnnl_primitive_desc_t pd) {
    dnnl_prop_kind_t pk = dnnl_prop_kind_undef;
    return dnnl_primitive_desc_query(pd, dnnl_query_prop_kind, 0, &pk);
}

TEST(PropKindQuery, MatmulWrapperTakesEveryMatmulDescriptor) {
    memory::desc a({2, 3}, dt::f32, tag::ab), b({3, 4}, dt::f32, tag::ab),
            c({2, 4}, dt::f32, tag::ab);
    matmul::primitive_desc pd(eng(), a, b, c);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::undef);
    EXPECT_EQ(prop_query(pd.get()), dnnl_unimplemented);
    // From the C handle, and from the primitive's own descriptor.
    matmul::primitive_desc again(pd.get());
    matmul p(again);
    matmul::primitive_desc from_prim(
            const_cast<dnnl_primitive_desc_t>(p.get_primitive_desc()));
    EXPECT_EQ(from_prim.get_prop_kind(), prop_kind::undef);
    memory ma(a, eng()), mb(b, eng()), mc(c, eng());
    stream s(eng());
    p.execute(s, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_WEIGHTS, mb}, {DNNL_ARG_DST, mc}});
    s.wait();
}

TEST(PropKindQuery, UndefForKindsWithoutOne) {
    memory::desc a({2, 8}, dt::f32, tag::ab), t({2, 8}, dt::f32, tag::ba);
    reorder::primitive_desc r(eng(), a, eng(), t);
    sum::primitive_desc s(eng(), {1.f, 2.f}, {a, a});
    concat::primitive_desc c(eng(), 0, {a, a});
    binary::primitive_desc b(eng(), algorithm::binary_add, a, a, a);
    reduction::primitive_desc red(eng(), algorithm::reduction_sum, a,
            memory::desc({2, 1}, dt::f32, tag::ab), 0.f, 0.f);
    for (const_dnnl_primitive_desc_t pd :
            {r.get(), s.get(), c.get(), b.get(), red.get()})
        EXPECT_EQ(prop_query(pd), dnnl_unimplemented);
    EXPECT_EQ(b.get_prop_kind(), prop_kind::undef);
    // Kinds with one still answer it.
    eltwise_forward::primitive_desc e(eng(), prop_kind::forward_inference,
            algorithm::eltwise_relu, a, a, 0.f);
    EXPECT_EQ(e.get_prop_kind(), prop_kind::forward_inference);
}

// next_impl does not walk reorder, sum or concat implementations: oneDNN
// makes those descriptors without an iterator, so it ends at once.
TEST(PropKindQuery, NextImplEndsAtOnceForReorderSumConcat) {
    memory::desc a({4, 32}, dt::f32, tag::ab), t({4, 32}, dt::f32, tag::ba);
    reorder::primitive_desc r(eng(), a, eng(), t);
    const std::string first = r.impl_info_str();
    EXPECT_EQ(dnnl_primitive_desc_next_impl(r.get()), dnnl_last_impl_reached);
    EXPECT_EQ(r.impl_info_str(), first);
    stream st(eng());
    memory ma(a, eng()), mt(t, eng());
    reorder(r).execute(st, ma, mt);
    sum::primitive_desc s(eng(), {1.f, 1.f}, {a, a});
    EXPECT_EQ(dnnl_primitive_desc_next_impl(s.get()), dnnl_last_impl_reached);
    concat::primitive_desc c(eng(), 1, {a, a});
    EXPECT_EQ(dnnl_primitive_desc_next_impl(c.get()), dnnl_last_impl_reached);
    st.wait();
}

// oneDNN takes inner product scales only with an int8 source on CPU.
TEST(PropKindQuery, InnerProductScalesNeedInt8Source) {
    memory::desc src({2, 8}, dt::f32, tag::ab), wei({4, 8}, dt::f32, tag::ab),
            dst({2, 4}, dt::f32, tag::ab);
    primitive_attr attr;
    attr.set_scales_mask(DNNL_ARG_WEIGHTS, 0);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(&pd, eng().get(),
                      dnnl_forward_inference, src.get(), wei.get(), nullptr,
                      dst.get(), attr.get()),
            dnnl_unimplemented);
    memory::desc s8({2, 8}, dt::u8, tag::ab), w8({4, 8}, dt::s8, tag::ab);
    EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(&pd, eng().get(),
                      dnnl_forward_inference, s8.get(), w8.get(), nullptr,
                      dst.get(), attr.get()),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    // Rounding modes are not inner product attributes.
    primitive_attr rm;
    rm.set_rounding_mode(DNNL_ARG_DST, rounding_mode::stochastic);
    EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(&pd, eng().get(),
                      dnnl_forward_inference, src.get(), wei.get(), nullptr,
                      dst.get(), rm.get()),
            dnnl_unimplemented);
}

} // namespace
