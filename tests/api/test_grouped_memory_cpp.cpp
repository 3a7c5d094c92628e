// The C++ wrappers of the grouped encoding, compiled as a build with
// ONEDNN_EXPERIMENTAL_GROUPED_MEMORY=ON declares them (memory::desc::grouped,
// memory::sparse_encoding::grouped), against oneDNN 3.13's own test cases.
#include "oneapi/dnnl/dnnl_config.h"
#undef DNNL_EXPERIMENTAL_GROUPED_MEMORY
#define DNNL_EXPERIMENTAL_GROUPED_MEMORY 1

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;

TEST(GroupedMemoryCpp, WrapperCreatesAndQueries) {
    const memory::dims dims = {9, 256};
    memory::desc md;
    ASSERT_NO_THROW(md = memory::desc::grouped(dims, dt::f32, 0, 3));
    EXPECT_EQ(md.get_dims(), dims);
    EXPECT_EQ(md.get_format_kind(), memory::format_kind::sparse);
    EXPECT_EQ(md.get_sparse_encoding(), memory::sparse_encoding::grouped);
    EXPECT_EQ(md.get_data_type(1), dt::s32);
    EXPECT_EQ(md.get_nnz(), 9 * 256);
    EXPECT_TRUE(md.get_strides().empty());
    EXPECT_EQ(md.get_size(1), 3 * sizeof(int32_t));
    EXPECT_EQ(md, memory::desc::grouped(dims, dt::f32, 0, 3));
    EXPECT_NE(md, memory::desc::grouped(dims, dt::f32, 0, 2));
    EXPECT_THROW(memory::desc::grouped({4, 256, 10}, dt::f32, 0, 2), error);
    EXPECT_THROW(memory::desc::grouped({4, 256}, dt::f32, 0, 0), error);
    EXPECT_THROW(
            memory::desc::grouped({4, 256}, dt::f32, 0, 2, dt::f32), error);
}

TEST(GroupedMemoryCpp, MatmulThroughTheWrapper) {
    engine eng(engine::kind::cpu, 0);
    const memory::dim G = 2, M = 4, K = 8, N = 6;
    const auto src = memory::desc::grouped({M, K}, dt::f32, 0, G);
    const auto dst = memory::desc::grouped({M, N}, dt::f32, 0, G);
    const memory::desc wei({G, K, N}, dt::f32, memory::format_tag::abc);
    EXPECT_NO_THROW(matmul::primitive_desc(eng, src, wei, dst));
    EXPECT_THROW(matmul::primitive_desc(eng, src,
                         memory::desc({K, N}, dt::f32, memory::format_tag::ab),
                         dst),
            error);
}

} // namespace
