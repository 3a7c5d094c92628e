// Shuffle on the gpu engine against the naive reference: every axis,
// group sizes, forward and backward, plain / channels-last / blocked
// (shuffling the blocked, padded axis) / doubly blocked layouts and
// 6D tensors, 1-, 2- and 4-byte types, kernel-cache reuse across shapes
// and rejected configurations.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../primitives/tensor_glue.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "reference/shuffle_ref.hpp"

using namespace dnnl;
using namespace tensor_glue;

namespace {

engine &gpu() {
    static engine eng(engine::kind::gpu, 0);
    return eng;
}

// Forward then backward (with the forward as hint); exact results.
std::string run_case(const memory::dims &dims, int axis, int group, tag t, dt d,
        unsigned seed, tag dst_tag = tag::any) {
    stream strm(gpu());
    const memory::desc md(dims, d, t), dmd(dims, d, dst_tag);
    shuffle_forward::primitive_desc fpd(
            gpu(), prop_kind::forward_training, md, dmd, axis, group);
    if (dst_tag == tag::any) EXPECT_EQ(fpd.dst_desc(), md);
    std::mt19937 gen(seed);
    const std::vector<int64_t> dv(dims.begin(), dims.end());
    const int64_t n = count(dv);
    const auto sv = random_values(n, d, gen, -100, 100);
    memory src = to_memory(gpu(), md, sv, 0x7f);
    memory dst = to_memory(gpu(), fpd.dst_desc(), std::vector<double>(n, 5));
    fill_padding(dst, 3.0);
    shuffle_forward(fpd).execute(
            strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();
    const std::string what = std::string(fpd.impl_info_str()) + " "
                             + describe(md) + " axis " + std::to_string(axis)
                             + " group " + std::to_string(group);
    // The reference sees the stored (rounded) values.
    EXPECT_EQ(from_memory(dst),
            shuffle_ref::compute(from_memory(src), dv, axis, group))
            << "fwd " << what;
    EXPECT_TRUE(padding_is_zero(dst)) << "dst padding " << what;

    const memory::desc any(dims, d, tag::any);
    shuffle_backward::primitive_desc bpd(gpu(), any, any, axis, group, fpd);
    EXPECT_EQ(bpd.diff_src_desc(), fpd.dst_desc());
    const auto ddv = random_values(n, d, gen, -100, 100);
    memory ddst = to_memory(gpu(), bpd.diff_dst_desc(), ddv, 0x7f);
    memory dsrc =
            to_memory(gpu(), bpd.diff_src_desc(), std::vector<double>(n, 5));
    shuffle_backward(bpd).execute(
            strm, {{DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc}});
    strm.wait();
    EXPECT_EQ(from_memory(dsrc), shuffle_ref::compute(from_memory(ddst), dv,
                                         axis, dims[axis] / group))
            << "bwd " << what;
    return fpd.impl_info_str();
}

class ocl_shuffle : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
    }
};

} // namespace

TEST_F(ocl_shuffle, axes_and_groups) {
    const memory::dims d = {4, 12, 6, 5};
    unsigned seed = 1;
    run_case(d, 1, 3, tag::nchw, dt::f32, seed++);
    run_case(d, 1, 4, tag::nchw, dt::f32, seed++);
    run_case(d, 0, 2, tag::nchw, dt::f32, seed++);
    run_case(d, 2, 3, tag::nchw, dt::f32, seed++);
    run_case(d, 3, 5, tag::nchw, dt::f32, seed++); // group = whole axis
    run_case(d, 1, 1, tag::nchw, dt::f32, seed++); // identity
    run_case({3, 10}, 1, 5, tag::ab, dt::f32, seed++);
    run_case({2, 3, 2, 4, 2, 6}, 5, 2, tag::abcdef, dt::f32, seed++);
    // More dims than layout_t holds: those around the axis merge.
    run_case({2, 3, 2, 4, 2, 3, 2}, 3, 2, tag::abcdefg, dt::f32, seed++);
    run_case({2, 3, 2, 2, 2, 3, 2, 6}, 7, 3, tag::abcdefgh, dt::f32, seed++);
}

TEST_F(ocl_shuffle, layouts_and_data_types) {
    unsigned seed = 11;
    const memory::dims d = {2, 24, 3, 5};
    run_case(d, 1, 6, tag::nhwc, dt::f32, seed++);
    run_case(d, 3, 5, tag::nhwc, dt::f32, seed++);
    // The blocked axis itself (24 channels padded to 32), and another axis.
    run_case(d, 1, 4, tag::nChw16c, dt::f32, seed++);
    run_case(d, 2, 3, tag::nChw8c, dt::f32, seed++);
    EXPECT_EQ(run_case(d, 1, 3, tag::ABcd8b16a2b, dt::f32, seed++),
            "ocl:shuffle:any");
    run_case(d, 1, 3, tag::nchw, dt::bf16, seed++);
    run_case(d, 3, 5, tag::nhwc, dt::s8, seed++);
    run_case(d, 1, 8, tag::nhwc, dt::u8, seed++);
}

TEST_F(ocl_shuffle, new_shape_builds_no_program) {
    run_case({2, 6, 4, 4}, 1, 3, tag::nchw, dt::f32, 21);
    dnnl_ext_kernel_cache_stats_t before{}, after{};
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&before), dnnl_success);
    run_case({3, 10, 2, 8}, 1, 2, tag::nchw, dt::f32, 22);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&after), dnnl_success);
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_GT(after.hits, before.hits);
}

TEST_F(ocl_shuffle, rejects_unsupported_and_bad_arguments) {
    const memory::desc md({2, 6, 4, 4}, dt::f32, tag::nchw);
    auto fwd = [&](const memory::desc &s, const memory::desc &d, int axis,
                       int group) {
        return status_of([&] {
            shuffle_forward::primitive_desc(
                    gpu(), prop_kind::forward_training, s, d, axis, group);
        });
    };
    EXPECT_EQ(fwd(md, md, 1, 4), dnnl_invalid_arguments); // 4 does not divide 6
    EXPECT_EQ(fwd(md, md, 4, 2), dnnl_invalid_arguments); // no such axis
    const memory::desc bf({2, 6, 4, 4}, dt::bf16, tag::nchw);
    EXPECT_EQ(fwd(md, bf, 1, 3), dnnl_unimplemented); // type conversion
    const memory::desc nhwc({2, 6, 4, 4}, dt::f32, tag::nhwc);
    EXPECT_EQ(fwd(md, nhwc, 1, 3), dnnl_unimplemented); // another layout
    // Seven dims that do not merge: dst's order reversed.
    const memory::desc seven({2, 2, 2, 2, 2, 2, 4}, dt::f32, tag::abcdefg),
            seven_r({2, 2, 2, 2, 2, 2, 4}, dt::f32,
                    memory::dims {1, 2, 4, 8, 16, 32, 64});
    EXPECT_EQ(fwd(seven, seven_r, 6, 2), dnnl_unimplemented);
    primitive_attr a;
    a.set_scales_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(status_of([&] {
        shuffle_forward::primitive_desc(
                gpu(), prop_kind::forward_training, md, md, 1, 3, a);
    }),
            dnnl_unimplemented);
}

#endif
