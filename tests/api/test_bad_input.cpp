// Regression tests of the bad-input findings of issue 18 (fuzzing with
// AddressSanitizer and UndefinedBehaviorSanitizer), each named after the
// finding it pins: descriptors whose reported size must cover every element
// their strides reach, blobs that must pass the check every creator ends
// with, overflow-free argument checks, and enum arguments that C callers
// may fill with any integer. Public API only.

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "api/c_enum_calls.h"
#include "common/memory_desc.hpp"
#include "oneapi/dnnl/dnnl.h"
#include "reference/md_reach.hpp"

namespace {

// Owns a descriptor handle; `out()` hands a marker-filled slot to a creator
// so that a refusal can be seen to leave it alone.
struct md_t {
    dnnl_memory_desc_t p = nullptr;
    md_t() = default;
    md_t(const md_t &) = delete;
    ~md_t() {
        if (p != marker()) dnnl_memory_desc_destroy(p);
    }
    static dnnl_memory_desc_t marker() {
        return reinterpret_cast<dnnl_memory_desc_t>(uintptr_t(0x10));
    }
    dnnl_memory_desc_t *out() {
        if (p != marker()) dnnl_memory_desc_destroy(p);
        p = marker();
        return &p;
    }
    bool untouched() const { return p == marker(); }
};

std::vector<uint8_t> blob_of(const_dnnl_memory_desc_t md) {
    size_t n = 0;
    EXPECT_EQ(dnnl_memory_desc_get_blob(nullptr, &n, md), dnnl_success);
    std::vector<uint8_t> b(n);
    EXPECT_EQ(dnnl_memory_desc_get_blob(b.data(), &n, md), dnnl_success);
    return b;
}

// Byte offset of a queried dims array inside the descriptor (and so in its
// blob, which is the descriptor's bytes).
size_t field_offset(const_dnnl_memory_desc_t md, dnnl_query_t what) {
    const dnnl_dims_t *p = nullptr;
    EXPECT_EQ(dnnl_memory_desc_query(md, what, &p), dnnl_success);
    return (size_t)((const uint8_t *)&(*p)[0] - (const uint8_t *)md);
}

void patch(std::vector<uint8_t> &b, size_t off, int64_t v) {
    std::memcpy(b.data() + off, &v, sizeof(v));
}

// Reorders `src` into a dense f32 `dst` of the same dims on buffers of
// exactly the reported sizes (AddressSanitizer sees any overrun).
void run_copy(const_dnnl_memory_desc_t src, const_dnnl_memory_desc_t dst) {
    dnnl_engine_t eng;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    dnnl_stream_t s;
    ASSERT_EQ(dnnl_stream_create(&s, eng, dnnl_stream_default_flags),
            dnnl_success);
    dnnl_primitive_desc_t pd;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, src, eng, dst, eng,
                      nullptr),
            dnnl_success);
    std::vector<uint8_t> sb(dnnl_memory_desc_get_size(src), 0);
    std::vector<uint8_t> db(dnnl_memory_desc_get_size(dst), 0);
    dnnl_memory_t ms, md;
    ASSERT_EQ(dnnl_memory_create(&ms, src, eng, sb.data()), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&md, dst, eng, db.data()), dnnl_success);
    dnnl_primitive_t p;
    ASSERT_EQ(dnnl_primitive_create(&p, pd), dnnl_success);
    dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, ms}, {DNNL_ARG_TO, md}};
    EXPECT_EQ(dnnl_primitive_execute(p, s, 2, args), dnnl_success);
    EXPECT_EQ(dnnl_stream_wait(s), dnnl_success);
    dnnl_primitive_destroy(p);
    dnnl_memory_destroy(ms);
    dnnl_memory_destroy(md);
    dnnl_primitive_desc_destroy(pd);
    dnnl_stream_destroy(s);
    dnnl_engine_destroy(eng);
}

// Finding repro_zero_stride_size: all-zero strides report one element.
TEST(BadInputFindings, ZeroStrideSizeCoversTheElement) {
    const dnnl_dims_t d = {8}, zero = {0};
    md_t src, dst;
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(
                      src.out(), 1, d, dnnl_f32, zero),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(src.p), sizeof(float));
    EXPECT_TRUE(md_reach::md_reach_ok(src.p));
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(dst.out(), 1, d, dnnl_f32,
                      dnnl_a),
            dnnl_success);
    run_copy(src.p, dst.p);

    // Broadcast in one dim of two: the other dim's extent still counts.
    const dnnl_dims_t d2 = {3, 5}, s2 = {0, 1};
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(
                      src.out(), 2, d2, dnnl_f32, s2),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(src.p), 5 * sizeof(float));
}

// Finding repro_blob_oob: a blob must describe a consistent descriptor.
TEST(BadInputFindings, BlobWithInconsistentFieldsIsRefused) {
    const dnnl_dims_t d = {4, 4};
    md_t good, bad;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(good.out(), 2, d, dnnl_f32,
                      dnnl_ab),
            dnnl_success);
    const size_t dims_off = field_offset(good.p, dnnl_query_dims);
    const size_t pdims_off = field_offset(good.p, dnnl_query_padded_dims);
    const size_t poffs_off = field_offset(good.p, dnnl_query_padded_offsets);
    const size_t strides_off = field_offset(good.p, dnnl_query_strides);
    struct patch_t {
        size_t off;
        int64_t v;
    } patches[] = {
            {pdims_off, 1}, // padded dims below dims
            {dims_off, -4}, // negative dim
            {strides_off, 1}, // rows overlap
            {strides_off + 8, -1}, // negative stride on a non-unit dim
            {poffs_off, 1}, // padded offset past the padding
            {strides_off, INT64_MAX / 2}, // span does not fit
    };
    for (const auto &p : patches) {
        auto blob = blob_of(good.p);
        patch(blob, p.off, p.v);
        EXPECT_EQ(dnnl_memory_desc_create_with_blob(bad.out(), blob.data()),
                dnnl_invalid_arguments)
                << "patch at " << p.off << " = " << p.v;
        EXPECT_TRUE(bad.untouched());
    }
    // The unpatched blob round-trips.
    auto blob = blob_of(good.p);
    ASSERT_EQ(dnnl_memory_desc_create_with_blob(bad.out(), blob.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(good.p, bad.p), 1);
}

// Finding repro_blob_inner_blks_overflow: blocks must fit their dims.
TEST(BadInputFindings, BlobWithHugeInnerBlockIsRefused) {
    const dnnl_dims_t d = {32, 32};
    md_t good, bad;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(good.out(), 2, d, dnnl_f32,
                      dnnl_AB16b16a),
            dnnl_success);
    const size_t blks_off = field_offset(good.p, dnnl_query_inner_blks);
    for (int64_t v : {INT64_MAX, (int64_t)1 << 40, (int64_t)3, (int64_t)0}) {
        for (int i = 0; i < 2; ++i) {
            auto blob = blob_of(good.p);
            patch(blob, blks_off + 8 * i, v);
            EXPECT_EQ(dnnl_memory_desc_create_with_blob(
                              bad.out(), blob.data()),
                    dnnl_invalid_arguments)
                    << "inner_blks[" << i << "] = " << v;
            EXPECT_TRUE(bad.untouched());
        }
    }
}

// Finding repro_submemory_size: a piece of a block (accepted, as oneDNN
// accepts it) reports a size that covers the block it lies in.
TEST(BadInputFindings, SubmemoryInsideABlockCoversTheBlock) {
    const dnnl_dims_t d = {32, 32}, sub = {2, 2}, off = {0, 0};
    md_t parent, child;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(parent.out(), 2, d, dnnl_f32,
                      dnnl_AB16b16a),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_submemory(child.out(), parent.p, sub,
                      off),
            dnnl_success);
    EXPECT_GE(dnnl_memory_desc_get_size(child.p), 16 * 16 * sizeof(float));
    EXPECT_TRUE(md_reach::md_reach_ok(child.p));
    // The same piece one block further in.
    const dnnl_dims_t off2 = {16, 0};
    ASSERT_EQ(dnnl_memory_desc_create_submemory(child.out(), parent.p, sub,
                      off2),
            dnnl_success);
    EXPECT_TRUE(md_reach::md_reach_ok(child.p));
}

// Finding repro_reshape_overflow: requested dims whose product overflows.
TEST(BadInputFindings, ReshapeWithOverflowingVolumeIsRefused) {
    const dnnl_dims_t d = {4};
    md_t md, out;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(md.out(), 1, d, dnnl_f32,
                      dnnl_a),
            dnnl_success);
    const dnnl_dims_t nd = {(int64_t)1 << 62, (int64_t)1 << 62};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), md.p, 2, nd),
            dnnl_invalid_arguments);
    EXPECT_TRUE(out.untouched());
    // Wrap-around to the right volume (2^62 * 2^62 * 4 == 0 mod 2^64) too.
    const dnnl_dims_t nd3 = {(int64_t)1 << 62, (int64_t)1 << 62, 4};
    EXPECT_EQ(dnnl_memory_desc_reshape(out.out(), md.p, 3, nd3),
            dnnl_invalid_arguments);
    EXPECT_TRUE(out.untouched());
}

// Finding repro_pooling_overflow: window arithmetic is overflow-checked
// (the same helper serves convolution and deconvolution).
TEST(BadInputFindings, WindowArgumentsThatOverflowAreRefused) {
    dnnl_engine_t eng;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    const dnnl_dims_t d = {1, 1, 4};
    md_t src, dst, wei;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(src.out(), 3, d, dnnl_f32,
                      dnnl_abc),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(dst.out(), 3, d, dnnl_f32,
                      dnnl_abc),
            dnnl_success);
    const dnnl_dims_t wd = {1, 1, 2};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(wei.out(), 3, wd, dnnl_f32,
                      dnnl_abc),
            dnnl_success);
    const dnnl_dims_t one = {1}, ker = {2}, zero = {0}, huge = {INT64_MAX},
                      big = {INT64_MAX - 1};
    const dnnl_dim_t *cases[][4] = {// strides, dilation, pad_l, pad_r
            {one, huge, zero, zero}, {one, zero, huge, zero},
            {one, zero, zero, huge}, {one, zero, big, big},
            {huge, huge, huge, huge}};
    for (auto &c : cases) {
        dnnl_primitive_desc_t pd = nullptr;
        EXPECT_EQ(dnnl_pooling_forward_primitive_desc_create(&pd, eng,
                          dnnl_forward_inference, dnnl_pooling_max, src.p,
                          dst.p, c[0], ker, c[1], c[2], c[3], nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(pd, nullptr);
        EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng,
                          dnnl_forward_inference, dnnl_convolution_direct,
                          src.p, wei.p, nullptr, dst.p, c[0], c[1], c[2],
                          c[3], nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(pd, nullptr);
        EXPECT_EQ(dnnl_deconvolution_forward_primitive_desc_create(&pd, eng,
                          dnnl_forward_inference, dnnl_deconvolution_direct,
                          src.p, wei.p, nullptr, dst.p, c[0], c[1], c[2],
                          c[3], nullptr),
                dnnl_invalid_arguments);
        EXPECT_EQ(pd, nullptr);
    }
    dnnl_engine_destroy(eng);
}

// Finding repro_enum_ub: integers outside an enum's values are refused at
// every entry point that takes one (run under UBSan in CI: no report).
TEST(BadInputFindings, OutOfRangeEnumIntegersAreRefused) {
    const int values[] = {INT_MIN, -1, 1000, 0x7ffe, 0x8000, INT_MAX};
    for (int which = 0; which < c_enum_call_count(); ++which) {
        for (int v : values) {
            dnnl_status_t st = dnnl_success;
            int touched = 0;
            ASSERT_EQ(c_enum_call(which, v, &st, &touched), 1);
            EXPECT_NE(st, dnnl_success)
                    << c_enum_call_name(which) << " with " << v;
            EXPECT_EQ(touched, 0) << c_enum_call_name(which) << " with " << v;
        }
    }
}

// Finding repro_equal_runtime_stride: equal descriptors have equal sizes.
TEST(BadInputFindings, RuntimeStrideOnUnitDimIsNotEqualToDense) {
    const dnnl_dims_t d = {1, 4}, s = {DNNL_RUNTIME_DIM_VAL, 1};
    md_t a, b;
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(a.out(), 2, d, dnnl_f32, s),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(b.out(), 2, d, dnnl_f32,
                      dnnl_ab),
            dnnl_success);
    EXPECT_NE(dnnl_memory_desc_get_size(a.p), dnnl_memory_desc_get_size(b.p));
    EXPECT_EQ(dnnl_memory_desc_equal(a.p, b.p), 0);
    auto blob = blob_of(a.p);
    md_t c;
    ASSERT_EQ(dnnl_memory_desc_create_with_blob(c.out(), blob.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(c.p, b.p), 0);
    EXPECT_EQ(dnnl_memory_desc_equal(c.p, a.p), 1);
}

// Finding of fuzz_reorder (seed reorder/zero_elems_runtime_stride): a
// reorder of zero elements whose source has a stride left to run time.
// As in oneDNN 3.13, a descriptor of zero elements backs a memory of null
// handle, but not when a dim or stride is left to run time: then
// dnnl_memory_create refuses it (size 0 or not), and the reorder's
// primitive still exists.
TEST(BadInputFindings, ZeroElementMemoryAndRuntimeStride) {
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    const dnnl_dims_t d = {2, 0, 6};
    const dnnl_dims_t s_rt = {6, 6, DNNL_RUNTIME_DIM_VAL};
    md_t empty, empty_rt;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(empty.out(), 3, d, dnnl_s8,
                      dnnl_abc),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(empty_rt.out(), 3, d,
                      dnnl_s8, s_rt),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(empty.p), 0u);
    EXPECT_EQ(dnnl_memory_desc_get_size(empty_rt.p), 0u);

    for (void *h : {(void *)nullptr, DNNL_MEMORY_ALLOCATE}) {
        dnnl_memory_t m = nullptr;
        ASSERT_EQ(dnnl_memory_create(&m, empty.p, eng, h), dnnl_success);
        void *got = reinterpret_cast<void *>(uintptr_t(0x10));
        EXPECT_EQ(dnnl_memory_get_data_handle(m, &got), dnnl_success);
        EXPECT_EQ(got, nullptr);
        dnnl_memory_destroy(m);
    }
    dnnl_memory_t m = reinterpret_cast<dnnl_memory_t>(uintptr_t(0x10));
    EXPECT_EQ(dnnl_memory_create(&m, empty_rt.p, eng, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(m, reinterpret_cast<dnnl_memory_t>(uintptr_t(0x10)));

    dnnl_primitive_desc_t pd = nullptr;
    ASSERT_EQ(dnnl_reorder_primitive_desc_create(&pd, empty_rt.p, eng,
                      empty.p, eng, nullptr),
            dnnl_success);
    dnnl_primitive_t prim = nullptr;
    EXPECT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
    dnnl_primitive_destroy(prim);
    dnnl_primitive_desc_destroy(pd);
    dnnl_engine_destroy(eng);
}

} // namespace

// Findings of the long fuzz_primitive_desc run (seeds
// primitive_desc/sum_empty_huge_strides, prelu_walk_empty_huge_strides,
// prelu_nest_empty_huge_strides): an empty tensor reaches no element, so
// its strides are free and may be huge; sum and PReLU built offset
// tables and loop nests from them at creation with signed overflows.
// Every implementation of each is created (the iterator walked to its
// end) and the first one executes as a no-op.
TEST(BadInputFindings, EmptyTensorsWithHugeStrides) {
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    dnnl_stream_t strm = nullptr;
    ASSERT_EQ(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags),
            dnnl_success);
    const dnnl_dims_t d = {3, 0, 2}, w = {1, 0, 2};
    // Large enough that a position times a stride, or a stride times the
    // next part's extent, leaves dim_t.
    const dnnl_dim_t big = (dnnl_dim_t)1 << 62;
    const dnnl_dims_t huge = {big + 2, big + 3, big + 1};
    md_t e, ew;
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(e.out(), 3, d, dnnl_f32,
                      huge),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(ew.out(), 3, w, dnnl_f32,
                      huge),
            dnnl_success);
    dnnl_memory_t me = nullptr, mw = nullptr;
    ASSERT_EQ(dnnl_memory_create(&me, e.p, eng, nullptr), dnnl_success);
    ASSERT_EQ(dnnl_memory_create(&mw, ew.p, eng, nullptr), dnnl_success);

    // Creates a primitive descriptor with `create`, walks its
    // implementations, and runs the first with `args`.
    auto check = [&](const std::function<dnnl_status_t(
                             dnnl_primitive_desc_t *)> &create,
                         std::vector<dnnl_exec_arg_t> args) {
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(create(&pd), dnnl_success);
        dnnl_primitive_t prim = nullptr;
        ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        EXPECT_EQ(dnnl_primitive_execute(
                          prim, strm, (int)args.size(), args.data()),
                dnnl_success);
        EXPECT_EQ(dnnl_stream_wait(strm), dnnl_success);
        dnnl_primitive_destroy(prim);
        while (dnnl_primitive_desc_next_impl(pd) == dnnl_success) {}
        dnnl_primitive_desc_destroy(pd);
    };
    const float scales[2] = {1.f, 2.f};
    const_dnnl_memory_desc_t srcs[2] = {e.p, e.p};
    check([&](dnnl_primitive_desc_t *pd) {
        return dnnl_sum_primitive_desc_create(
                pd, eng, e.p, 2, scales, srcs, nullptr);
    },
            {{DNNL_ARG_MULTIPLE_SRC, me}, {DNNL_ARG_MULTIPLE_SRC + 1, me},
                    {DNNL_ARG_DST, me}});
    check([&](dnnl_primitive_desc_t *pd) {
        return dnnl_prelu_forward_primitive_desc_create(pd, eng,
                dnnl_forward_training, e.p, ew.p, e.p, nullptr);
    },
            {{DNNL_ARG_SRC, me}, {DNNL_ARG_WEIGHTS, mw}, {DNNL_ARG_DST, me}});
    check([&](dnnl_primitive_desc_t *pd) {
        return dnnl_prelu_backward_primitive_desc_create(
                pd, eng, e.p, ew.p, e.p, ew.p, e.p, nullptr, nullptr);
    },
            {{DNNL_ARG_SRC, me}, {DNNL_ARG_WEIGHTS, mw},
                    {DNNL_ARG_DIFF_DST, me}, {DNNL_ARG_DIFF_SRC, me},
                    {DNNL_ARG_DIFF_WEIGHTS, mw}});
    dnnl_memory_destroy(me);
    dnnl_memory_destroy(mw);
    dnnl_stream_destroy(strm);
    dnnl_engine_destroy(eng);
}

// Findings of the second long fuzz_primitive_desc run (seeds
// primitive_desc/conv_bias_zero_stride, deconv_bias_zero_stride): the
// convolution epilogue read bias[c] from the handle, past the end of a
// bias of zero stride (reported size: one element) and ignoring a bias's
// offset. Such biases are now declined at creation.
TEST(BadInputFindings, ConvolutionBiasMustBeContiguous) {
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    const dnnl_dims_t sd = {2, 4, 6, 6}, wd = {5, 4, 3, 3}, dd = {2, 5, 4, 4};
    const dnnl_dims_t bd = {5}, zero_stride = {0}, unit = {1, 1};
    const dnnl_dims_t none = {0, 0};
    md_t s, w, d, dense_bias, strided_bias, shifted_bias;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(s.out(), 4, sd, dnnl_f32,
                      dnnl_nchw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(w.out(), 4, wd, dnnl_f32,
                      dnnl_oihw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(d.out(), 4, dd, dnnl_f32,
                      dnnl_nchw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(dense_bias.out(), 1, bd,
                      dnnl_f32, dnnl_a),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(strided_bias.out(), 1, bd,
                      dnnl_f32, zero_stride),
            dnnl_success);
    // A sub-memory of a longer vector: the bias starts at offset 3.
    md_t longer;
    const dnnl_dims_t ld = {8}, off = {3};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(longer.out(), 1, ld, dnnl_f32,
                      dnnl_a),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_submemory(shifted_bias.out(), longer.p,
                      bd, off),
            dnnl_success);
    auto conv = [&](const_dnnl_memory_desc_t b) {
        dnnl_primitive_desc_t pd = nullptr;
        const dnnl_status_t st = dnnl_convolution_forward_primitive_desc_create(
                &pd, eng, dnnl_forward_inference, dnnl_convolution_direct,
                s.p, w.p, b, d.p, unit, none, none, none, nullptr);
        dnnl_primitive_desc_destroy(pd);
        return st;
    };
    auto deconv = [&](const_dnnl_memory_desc_t b) {
        dnnl_primitive_desc_t pd = nullptr;
        // The transposed problem: dst 2x5x4x4 back to 2x4x6x6.
        md_t dw;
        const dnnl_dims_t dwd = {4, 5, 3, 3}, db = {4};
        dnnl_memory_desc_create_with_tag(dw.out(), 4, dwd, dnnl_f32, dnnl_oihw);
        md_t bias4;
        if (b == dense_bias.p)
            dnnl_memory_desc_create_with_tag(bias4.out(), 1, db, dnnl_f32,
                    dnnl_a);
        else
            dnnl_memory_desc_create_with_strides(bias4.out(), 1, db, dnnl_f32,
                    zero_stride);
        const dnnl_status_t st
                = dnnl_deconvolution_forward_primitive_desc_create(&pd, eng,
                        dnnl_forward_inference, dnnl_deconvolution_direct,
                        d.p, dw.p, bias4.p, s.p, unit, none, none, none,
                        nullptr);
        dnnl_primitive_desc_destroy(pd);
        return st;
    };
    EXPECT_EQ(conv(dense_bias.p), dnnl_success);
    EXPECT_EQ(conv(strided_bias.p), dnnl_unimplemented);
    EXPECT_EQ(conv(shifted_bias.p), dnnl_unimplemented);
    EXPECT_EQ(deconv(dense_bias.p), dnnl_success);
    EXPECT_EQ(deconv(strided_bias.p), dnnl_unimplemented);
    dnnl_engine_destroy(eng);
}

// Paddings near dim_t's limit whose output size still checks out
// (fuzz_primitive_desc under UBSan): the CPU convolution declines them
// instead of overflowing its window arithmetic; ordinary paddings work.
TEST(BadInputFindings, ConvolutionHugePaddingsDeclined) {
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    // Width: (4 + 2^40 - 1) / 2^40 + 1 = 2 outputs with a stride of 2^40.
    const dnnl_dims_t sd = {1, 2, 4, 4}, wd = {3, 2, 1, 1}, dd = {1, 3, 4, 2};
    md_t s, w, d;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(s.out(), 4, sd, dnnl_f32, dnnl_nchw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(w.out(), 4, wd, dnnl_f32, dnnl_oihw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(d.out(), 4, dd, dnnl_f32, dnnl_nchw),
            dnnl_success);
    const dnnl_dim_t big = (dnnl_dim_t)1 << 40;
    const dnnl_dims_t strides = {1, big}, huge_l = {0, big}, zero = {0, 0};
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng,
                      dnnl_forward_inference, dnnl_convolution_direct, s.p, w.p,
                      nullptr, d.p, strides, nullptr, huge_l, zero, nullptr),
            dnnl_unimplemented);
    // An ordinary stride of 2 with the same shapes works.
    const dnnl_dims_t two = {1, 2};
    ASSERT_EQ(dnnl_convolution_forward_primitive_desc_create(&pd, eng,
                      dnnl_forward_inference, dnnl_convolution_direct, s.p, w.p,
                      nullptr, d.p, two, nullptr, zero, zero, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_engine_destroy(eng);
}

// Found by fuzz_primitive_desc (2026-11-27, ~3.0 M executions): a batched
// matmul with K = 0 whose empty source had strides near INT64_MIN (free
// for a tensor without elements) made the GEMM matmul multiply a batch
// coordinate by them (signed overflow). Empty operands now keep offset 0;
// the result is the bias, as for any K = 0 product.
TEST(BadInputFindings, MatmulEmptyKWithHugeStridesRunsClean) {
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    dnnl_stream_t strm = nullptr;
    ASSERT_EQ(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags), dnnl_success);
    // M = 2 runs on the GEMM matmul, M = 8 on brg_matmul where the
    // processor has it.
    for (const dnnl_dim_t M : {2, 8}) {
        const dnnl_dims_t sd = {1, 3, M, 0}, wd = {1, 3, 0, 4}, dd = {1, 3, M, 4},
                          bd = {1, 3, 1, 4};
        const dnnl_dim_t huge = INT64_MIN / 3;
        const dnnl_dims_t s_strides = {huge, huge, huge, 1};
        md_t s, w, b, d;
        ASSERT_EQ(dnnl_memory_desc_create_with_strides(s.out(), 4, sd, dnnl_f32, s_strides),
                dnnl_success);
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(w.out(), 4, wd, dnnl_f32, dnnl_abcd),
                dnnl_success);
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(b.out(), 4, bd, dnnl_f32, dnnl_abcd),
                dnnl_success);
        ASSERT_EQ(dnnl_memory_desc_create_with_tag(d.out(), 4, dd, dnnl_f32, dnnl_abcd),
                dnnl_success);
        dnnl_primitive_desc_t pd = nullptr;
        ASSERT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng, s.p, w.p, b.p, d.p, nullptr),
                dnnl_success);
        dnnl_primitive_t prim = nullptr;
        ASSERT_EQ(dnnl_primitive_create(&prim, pd), dnnl_success);
        std::vector<float> bias(12), dst((size_t)(3 * M * 4), -1.f);
        for (int i = 0; i < 12; ++i) bias[i] = (float)i;
        dnnl_memory_t ms, mw, mb, mdst;
        float dummy = 0;
        ASSERT_EQ(dnnl_memory_create(&ms, s.p, eng, &dummy), dnnl_success);
        ASSERT_EQ(dnnl_memory_create(&mw, w.p, eng, &dummy), dnnl_success);
        ASSERT_EQ(dnnl_memory_create(&mb, b.p, eng, bias.data()), dnnl_success);
        ASSERT_EQ(dnnl_memory_create(&mdst, d.p, eng, dst.data()), dnnl_success);
        const dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mw},
                {DNNL_ARG_BIAS, mb}, {DNNL_ARG_DST, mdst}};
        EXPECT_EQ(dnnl_primitive_execute(prim, strm, 4, args), dnnl_success);
        EXPECT_EQ(dnnl_stream_wait(strm), dnnl_success);
        for (int bt = 0; bt < 3; ++bt)
            for (int m = 0; m < M; ++m)
                for (int n = 0; n < 4; ++n)
                    EXPECT_EQ(dst[(size_t)((bt * M + m) * 4 + n)], bias[bt * 4 + n])
                            << "M " << M << " batch " << bt << " m " << m << " n " << n;
        for (auto m : {ms, mw, mb, mdst}) dnnl_memory_destroy(m);
        dnnl_primitive_destroy(prim);
        dnnl_primitive_desc_destroy(pd);
    }
    dnnl_stream_destroy(strm);
    dnnl_engine_destroy(eng);
}

// Found by fuzz_primitive_desc (2026-11-27, after the K = 0 fix): a
// deconvolution whose stride is near INT64_MAX (valid: a source width of
// one makes the output size independent of it) overflowed col2im's
// window arithmetic. Deconvolution now declines what convolution
// declines: strides, dilations, paddings or spatial sizes beyond 2^31 - 1.
TEST(BadInputFindings, DeconvolutionHugeStrideDeclined) {
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    const dnnl_dims_t sd = {2, 1, 1, 1}, wd = {1, 1, 1, 1}, dd = {2, 1, 1, 1};
    md_t s, w, d;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(s.out(), 4, sd, dnnl_f32, dnnl_nchw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(w.out(), 4, wd, dnnl_f32, dnnl_oihw),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(d.out(), 4, dd, dnnl_f32, dnnl_nchw),
            dnnl_success);
    const dnnl_dims_t huge = {1, INT64_MAX}, zero = {0, 0};
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_deconvolution_forward_primitive_desc_create(&pd, eng,
                      dnnl_forward_inference, dnnl_deconvolution_direct, s.p, w.p,
                      nullptr, d.p, huge, nullptr, zero, zero, nullptr),
            dnnl_unimplemented);
    EXPECT_EQ(pd, nullptr);
    // An ordinary stride with the same shapes works.
    const dnnl_dims_t two = {1, 2};
    ASSERT_EQ(dnnl_deconvolution_forward_primitive_desc_create(&pd, eng,
                      dnnl_forward_inference, dnnl_deconvolution_direct, s.p, w.p,
                      nullptr, d.p, two, nullptr, zero, zero, nullptr),
            dnnl_success);
    dnnl_primitive_desc_destroy(pd);
    dnnl_engine_destroy(eng);
}

// Found by fuzz_primitive_desc (2026-11-27, after the deconvolution fix):
// pooling over a single channel whose (free) stride was 2^60 made the
// channel-vector walk multiply it by 16 (signed overflow) while choosing
// its view. Such a view is declined; another implementation pools.
TEST(BadInputFindings, PoolingSingleChannelHugeStride) {
    dnnl_engine_t eng = nullptr;
    ASSERT_EQ(dnnl_engine_create(&eng, dnnl_cpu, 0), dnnl_success);
    const dnnl_dims_t sd = {1, 1, 4, 4}, dd = {1, 1, 2, 2};
    const dnnl_dims_t s_strides = {16, (dnnl_dim_t)1 << 60, 4, 1};
    md_t s, d;
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(s.out(), 4, sd, dnnl_f32, s_strides),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(d.out(), 4, dd, dnnl_f32, dnnl_nchw),
            dnnl_success);
    const dnnl_dims_t k = {2, 2}, st = {2, 2}, zero = {0, 0};
    dnnl_primitive_desc_t pd = nullptr;
    const dnnl_status_t status = dnnl_pooling_forward_primitive_desc_create(&pd, eng,
            dnnl_forward_inference, dnnl_pooling_max, s.p, d.p, st, k, zero,
            zero, zero, nullptr);
    EXPECT_TRUE(status == dnnl_success || status == dnnl_unimplemented);
    if (pd) dnnl_primitive_desc_destroy(pd);
    dnnl_engine_destroy(eng);
}

// Found by CI's fuzz stage (stop 22): a shuffle of s4 data was accepted and
// copied a byte per element, reading past the half-size buffer. Shuffle
// declines the packed 4-bit types on every engine.
TEST(BadInputFindings, ShuffleSubByteDeclined) {
    for (dnnl_engine_kind_t kind : {dnnl_cpu, dnnl_gpu}) {
        if (dnnl_engine_get_count(kind) == 0) continue;
        dnnl_engine_t eng = nullptr;
        ASSERT_EQ(dnnl_engine_create(&eng, kind, 0), dnnl_success);
        const dnnl_dims_t dims = {2, 2};
        for (dnnl_data_type_t dt : {dnnl_s4, dnnl_u4, dnnl_f4_e2m1}) {
            md_t m;
            ASSERT_EQ(dnnl_memory_desc_create_with_tag(m.out(), 2, dims, dt, dnnl_ab),
                    dnnl_success);
            dnnl_primitive_desc_t pd = nullptr;
            EXPECT_EQ(dnnl_shuffle_forward_primitive_desc_create(&pd, eng,
                              dnnl_forward_inference, m.p, m.p, 1, 1, nullptr),
                    dnnl_unimplemented)
                    << "engine " << kind << " data type " << dt;
            EXPECT_EQ(pd, nullptr);
        }
        dnnl_engine_destroy(eng);
    }
}

// Found by the CI-length fuzz_primitive_desc run (seed 1) after the
// shuffle fix: a blob gave a plain 4x4 descriptor a padded dim near 2^60
// (zero stride, so the size stayed small), and the reference eltwise,
// which visits every padded position, sized a table by it. Padding is now
// exactly what a dim's blocks need: none for an unblocked dim, the next
// multiple of the block for a blocked one (or none for a submemory's
// piece of one block).
TEST(BadInputFindings, BlobWithPaddingTheBlocksDoNotNeedIsRefused) {
    const dnnl_dims_t d = {4, 20};
    md_t plain, blocked, bad;
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(plain.out(), 2, d, dnnl_f32, dnnl_ab),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(blocked.out(), 2, d, dnnl_f32,
                      dnnl_AB16a16b),
            dnnl_success);
    const size_t pd_off = field_offset(plain.p, dnnl_query_padded_dims);
    struct case_t {
        const md_t *md;
        int dim;
        int64_t padded;
    } cases[] = {
            {&plain, 0, 5}, {&plain, 1, (int64_t)1 << 59}, {&blocked, 1, 24},
            {&blocked, 0, 32}, {&blocked, 0, 20}, {&blocked, 0, (int64_t)1 << 56},
    };
    for (const auto &c : cases) {
        auto blob = blob_of(c.md->p);
        patch(blob, pd_off + 8 * c.dim, c.padded);
        EXPECT_EQ(dnnl_memory_desc_create_with_blob(bad.out(), blob.data()),
                dnnl_invalid_arguments)
                << "padded_dims[" << c.dim << "] = " << c.padded;
        EXPECT_TRUE(bad.untouched());
    }
    // The unpatched blobs round-trip (AB16a16b pads 4 to 16 and 20 to 32).
    for (const md_t *m : {&plain, &blocked}) {
        auto blob = blob_of(m->p);
        md_t back;
        ASSERT_EQ(dnnl_memory_desc_create_with_blob(back.out(), blob.data()),
                dnnl_success);
        EXPECT_EQ(dnnl_memory_desc_equal(m->p, back.p), 1);
    }
}

// Found by fuzz_memory_desc on the padding rule above: a dim of INT64_MAX
// (by strides) made the rule's round-up overflow (UBSan in CI's sanitizer
// stage). The rule no longer rounds up; the answer is a status either way.
TEST(BadInputFindings, HugeDimPaddingRuleHasNoOverflow) {
    const dnnl_dims_t dims = {INT64_MAX}, zero = {0}, one = {1};
    for (const dnnl_dim_t *strides : {zero, one}) {
        md_t m;
        const dnnl_status_t st = dnnl_memory_desc_create_with_strides(
                m.out(), 1, dims, dnnl_u8, strides);
        EXPECT_TRUE(st == dnnl_success || st == dnnl_invalid_arguments) << st;
    }
}

// Found by fuzz_memory_desc and fuzz_reorder (CI): with byte-sized types
// the span limit is INT64_MAX elements, and a span that overflowed a dim_t
// was saturated to exactly that limit, so a stride of 2^61 on an outer dim
// of 7 passed and the descriptor reported INT64_MAX bytes for a reach it
// could not count. An overflowing span is now refused; a true span of
// INT64_MAX bytes stays valid.
TEST(BadInputFindings, ByteTypeSpanPastDimTIsRefused) {
    const dnnl_dims_t dims = {7, 8, 5};
    const dnnl_dims_t strides = {40, (dnnl_dim_t)1 << 61, 1};
    for (dnnl_data_type_t dt : {dnnl_u8, dnnl_e8m0, dnnl_f32}) {
        md_t m;
        EXPECT_EQ(dnnl_memory_desc_create_with_strides(
                          m.out(), 3, dims, dt, strides),
                dnnl_invalid_arguments)
                << dt;
    }
    const dnnl_dims_t huge = {INT64_MAX}, one = {1};
    md_t m;
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(
                      m.out(), 1, huge, dnnl_u8, one),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(m.p), (size_t)INT64_MAX);
    // Found next: 4-bit spans of more than 2^62 elements counted their
    // bits in a size_t that wrapped (a size a quarter of the truth).
    for (dnnl_data_type_t dt : {dnnl_f4_e2m1, dnnl_u4}) {
        const dnnl_dims_t odd = {INT64_MAX - 2};
        md_t h;
        ASSERT_EQ(dnnl_memory_desc_create_with_strides(
                          h.out(), 1, odd, dt, one),
                dnnl_success);
        EXPECT_EQ(dnnl_memory_desc_get_size(h.p),
                (size_t)(INT64_MAX - 2) / 2 + 1);
    }
}

// Found by fuzz_memory_desc (final run): a sparse descriptor's blob whose
// metadata type held an integer naming no data type was loaded as the
// enum by the consistency check (undefined behaviour; UBSan). The blob
// reader now checks those fields as integers first, as it does the
// descriptor's own data type. (Without UBSan the answer was already a
// refusal; the sanitizer stage is where this test matters.)
TEST(BadInputFindings, SparseBlobWithUnknownMetadataTypeIsRefused) {
    const dnnl_dims_t d = {4, 5};
    md_t csr, bad;
    ASSERT_EQ(dnnl_memory_desc_create_with_csr_encoding(
                      csr.out(), 2, d, dnnl_f32, 6, dnnl_s32, dnnl_s32),
            dnnl_success);
    const size_t meta_off = offsetof(dnnl_memory_desc, format_desc)
            + offsetof(dnnl::impl::sparse_desc_t, metadata_types);
    for (int64_t v : {(int64_t)0x7fffffff, (int64_t)0xc9ffff11,
                 ((int64_t)0x12345 << 32) | dnnl_s32}) {
        auto blob = blob_of(csr.p);
        patch(blob, meta_off, v);
        EXPECT_EQ(dnnl_memory_desc_create_with_blob(bad.out(), blob.data()),
                dnnl_invalid_arguments)
                << std::hex << v;
        EXPECT_TRUE(bad.untouched());
    }
    // The unpatched blob reads back.
    auto blob = blob_of(csr.p);
    md_t back;
    ASSERT_EQ(dnnl_memory_desc_create_with_blob(back.out(), blob.data()),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_equal(csr.p, back.p), 1);
}
