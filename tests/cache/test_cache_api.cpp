// The global primitive cache seen through the public API: capacity
// control, LRU eviction, sharing across engines, key completeness,
// descriptors served from the cache, de-duplication and a stress run.
#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.hpp"

// The thread count a program gives the library differs by runtime:
// omp_set_num_threads, a TBB task arena, or none (sequential).
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
#include <omp.h>
#elif DNNL_CPU_RUNTIME == DNNL_RUNTIME_TBB
#include <tbb/task_arena.h>
#endif

// oneDNN's test hooks (C++ linkage, as oneDNN declares them).
dnnl_status_t dnnl_test_get_primitive_cache_size(int *size);
int dnnl_test_is_primitive_in_cache(const_dnnl_primitive_t p);
int dnnl_test_is_pd_in_cache(const_dnnl_primitive_desc_t pd);
size_t dnnl_test_set_primitive_cache_capacity_without_clearing(size_t capacity);

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

int cache_size() {
    int n = -1;
    EXPECT_EQ(dnnl_test_get_primitive_cache_size(&n), dnnl_success);
    return n;
}

eltwise_forward::primitive_desc relu_pd(const engine &eng, memory::dim n,
        float alpha = 0.f, const primitive_attr &attr = primitive_attr()) {
    memory::desc md({n, 3, 5, 7}, dt::f32, tag::nchw);
    return eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, alpha, 0.f, attr);
}

eltwise_forward relu(const engine &eng, memory::dim n, float alpha = 0.f) {
    return eltwise_forward(relu_pd(eng, n, alpha));
}

// Fresh cache state for each test; restores the capacity afterwards.
class PrimitiveCacheApi : public ::testing::Test {
protected:
    void SetUp() override {
        saved_ = get_primitive_cache_capacity();
        set_primitive_cache_capacity(0);
        set_primitive_cache_capacity(1024);
        // ONEDNN_ENABLE_PRIMITIVE_CACHE=OFF: the capacity reads 0.
        if (get_primitive_cache_capacity() == 0)
            GTEST_SKIP() << "primitive cache compiled out";
        ext::reset_primitive_cache_stats();
    }
    void TearDown() override { set_primitive_cache_capacity(saved_); }
    int64_t misses() const { return ext::get_primitive_cache_stats().misses; }
    int64_t hits() const { return ext::get_primitive_cache_stats().hits; }
    engine eng {engine::kind::cpu, 0};

private:
    int saved_ = 1024;
};

} // namespace

TEST_F(PrimitiveCacheApi, CapacitySetGetAndErrors) {
    set_primitive_cache_capacity(17);
    EXPECT_EQ(get_primitive_cache_capacity(), 17);
    int c = -1;
    EXPECT_EQ(dnnl_get_primitive_cache_capacity(&c), dnnl_success);
    EXPECT_EQ(c, 17);
    EXPECT_EQ(dnnl_set_primitive_cache_capacity(-1), dnnl_invalid_arguments);
    EXPECT_EQ(get_primitive_cache_capacity(), 17);
    EXPECT_EQ(dnnl_get_primitive_cache_capacity(nullptr), dnnl_invalid_arguments);
    EXPECT_THROW(set_primitive_cache_capacity(-5), dnnl::error);
    EXPECT_EQ(ext::get_primitive_cache_stats().capacity, 17);
}

TEST_F(PrimitiveCacheApi, ZeroCapacityClearsAndDisables) {
    for (int n = 1; n <= 4; ++n) relu(eng, n);
    EXPECT_EQ(cache_size(), 4);
    set_primitive_cache_capacity(0);
    EXPECT_EQ(cache_size(), 0);
    auto p = relu(eng, 1);
    EXPECT_EQ(cache_size(), 0);
    EXPECT_FALSE(dnnl_test_is_primitive_in_cache(p.get()));
}

TEST_F(PrimitiveCacheApi, LruOrderAbacab) {
    set_primitive_cache_capacity(2);
    ext::reset_primitive_cache_stats();
    const memory::dim sizes[] = {11, 12, 11, 13, 11, 12};
    const bool expect_hit[] = {false, false, true, false, true, false};
    for (int i = 0; i < 6; ++i) {
        int64_t before = hits();
        relu(eng, sizes[i]);
        EXPECT_EQ(hits() - before, expect_hit[i] ? 1 : 0) << "step " << i;
    }
}

TEST_F(PrimitiveCacheApi, ResizeBelowAndAboveSize) {
    std::vector<eltwise_forward> keep;
    for (int n = 1; n <= 10; ++n) keep.push_back(relu(eng, n));
    EXPECT_EQ(cache_size(), 10);
    set_primitive_cache_capacity(20);
    EXPECT_EQ(cache_size(), 10);
    set_primitive_cache_capacity(4);
    EXPECT_EQ(cache_size(), 4);
    for (int n = 1; n <= 10; ++n)
        EXPECT_EQ(dnnl_test_is_primitive_in_cache(keep[n - 1].get()) != 0, n > 6)
                << n;
    // The test hook changes the capacity but evicts nothing.
    EXPECT_EQ(dnnl_test_set_primitive_cache_capacity_without_clearing(2), 4u);
    EXPECT_EQ(cache_size(), 4);
    EXPECT_EQ(get_primitive_cache_capacity(), 2);
}

TEST_F(PrimitiveCacheApi, SeparateCpuEnginesShareEntries) {
    engine e1(engine::kind::cpu, 0), e2(engine::kind::cpu, 0);
    relu(e1, 5);
    int64_t h = hits();
    auto p = relu(e2, 5);
    EXPECT_EQ(hits(), h + 1);
    EXPECT_EQ(cache_size(), 1);
}

TEST_F(PrimitiveCacheApi, CachedPrimitiveOutlivesItsEngine) {
    {
        engine tmp(engine::kind::cpu, 0);
        relu(tmp, 6);
    }
    int64_t h = hits();
    auto p = relu(eng, 6);
    EXPECT_EQ(hits(), h + 1);
    memory::desc md({6, 3, 5, 7}, dt::f32, tag::nchw);
    memory src(md, eng), dst(md, eng);
    float *s = static_cast<float *>(src.get_data_handle());
    for (size_t i = 0; i < md.get_size() / 4; ++i) s[i] = (i % 2) ? 1.f : -1.f;
    stream st(eng);
    p.execute(st, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    st.wait();
    const float *d = static_cast<const float *>(dst.get_data_handle());
    EXPECT_EQ(d[0], 0.f);
    EXPECT_EQ(d[1], 1.f);
}

TEST_F(PrimitiveCacheApi, KeysDifferInEveryResultChangingField) {
    relu(eng, 8);
    const int64_t m0 = misses();
    // One dim.
    relu(eng, 9);
    EXPECT_EQ(misses(), m0 + 1);
    // One post-op / algorithm parameter.
    relu(eng, 8, 0.5f);
    EXPECT_EQ(misses(), m0 + 2);
    // One stride (same dims, different layout).
    {
        memory::desc md({8, 3, 5, 7}, dt::f32, tag::nhwc);
        eltwise_forward(eltwise_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::eltwise_relu, md, md,
                0.f, 0.f));
        EXPECT_EQ(misses(), m0 + 3);
    }
    // One attribute.
    {
        primitive_attr attr;
        attr.set_scratchpad_mode(scratchpad_mode::user);
        eltwise_forward(relu_pd(eng, 8, 0.f, attr));
        EXPECT_EQ(misses(), m0 + 4);
    }
    // The thread count (a sequential build has only one).
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
    {
        const int nthr = omp_get_max_threads();
        omp_set_num_threads(nthr + 1);
        relu(eng, 8);
        omp_set_num_threads(nthr);
        EXPECT_EQ(misses(), m0 + 5);
    }
    const int64_t m1 = m0 + 5;
#elif DNNL_CPU_RUNTIME == DNNL_RUNTIME_TBB
    {
        tbb::task_arena arena(tbb::this_task_arena::max_concurrency() + 1);
        arena.execute([&] { relu(eng, 8); });
        EXPECT_EQ(misses(), m0 + 5);
    }
    const int64_t m1 = m0 + 5;
#else
    const int64_t m1 = m0 + 4;
#endif
    // And the original request is still a hit.
    relu(eng, 8);
    EXPECT_EQ(misses(), m1);
}

#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
// An application's parallel region does not change the key: the thread
// count is the runtime's limit there too (as oneDNN keys it), so what was
// made outside is a hit inside, and what is made inside is one entry,
// whichever thread made it. Primitives made inside run there (on the
// calling thread) and outside (on the team) alike.
TEST_F(PrimitiveCacheApi, ParallelRegionsShareTheEntriesOfTheirCaller) {
    relu(eng, 8);
    const int64_t m0 = misses(), h0 = hits();
    std::atomic<int> failures {0};
    const int nthr = 4;
    // Kept from the region's member 0 (the calling thread; the others'
    // primitives end with their threads' blocks: libomp's joins are not
    // visible to ThreadSanitizer).
    eltwise_forward kept;
#pragma omp parallel num_threads(nthr)
    {
        relu(eng, 8); // made outside: a hit
        // One new key for all threads (made once, the rest hits or
        // de-duplicated waits).
        eltwise_forward made = relu(eng, 16);
        memory::desc md({16, 3, 5, 7}, dt::f32, tag::nchw);
        memory src(md, eng), dst(md, eng);
        float *x = static_cast<float *>(src.get_data_handle());
        for (size_t i = 0; i < md.get_size() / sizeof(float); ++i)
            x[i] = (i % 3 == 0) ? -1.f : (float)i;
        stream s(eng);
        made.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        s.wait();
        const float *y = static_cast<const float *>(dst.get_data_handle());
        for (size_t i = 0; i < md.get_size() / sizeof(float); ++i)
            if (y[i] != (x[i] < 0 ? 0.f : x[i])) ++failures;
        if (omp_get_thread_num() == 0) kept = made;
    }
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(misses(), m0 + 1);
    EXPECT_EQ(hits() - h0, 2 * nthr - 1);
    // Made inside a region, run outside on the whole team.
    memory::desc md({16, 3, 5, 7}, dt::f32, tag::nchw);
    memory src(md, eng), dst(md, eng);
    float *x = static_cast<float *>(src.get_data_handle());
    for (size_t i = 0; i < md.get_size() / sizeof(float); ++i)
        x[i] = -(float)i;
    stream s(eng);
    kept.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    const float *y = static_cast<const float *>(dst.get_data_handle());
    for (size_t i = 0; i < md.get_size() / sizeof(float); ++i)
        ASSERT_EQ(y[i], 0.f) << i;
}
#endif

TEST_F(PrimitiveCacheApi, PrimitiveDescriptorsComeFromTheCache) {
    auto p = relu(eng, 3);
    auto pd = relu_pd(eng, 3);
    EXPECT_TRUE(dnnl_test_is_pd_in_cache(pd.get()));
    EXPECT_TRUE(dnnl_test_is_primitive_in_cache(p.get()));
    // The implementation iterator moves on from a cached descriptor.
    const std::string first = pd.impl_info_str();
    if (pd.next_impl()) {
        EXPECT_NE(pd.impl_info_str(), first);
        EXPECT_FALSE(dnnl_test_is_pd_in_cache(pd.get()));
    }
}

TEST_F(PrimitiveCacheApi, ConcurrentRequestsCreateOnce) {
    const int nthr = 32;
    std::atomic<int> ready {0};
    std::vector<std::thread> threads;
    for (int t = 0; t < nthr; ++t)
        threads.emplace_back([&] {
            ++ready;
            while (ready < nthr) std::this_thread::yield();
            relu(eng, 37);
        });
    for (auto &t : threads) t.join();
    EXPECT_EQ(misses(), 1);
    EXPECT_EQ(hits(), nthr - 1);
}

TEST_F(PrimitiveCacheApi, StressCreateExecuteDestroyWhileResizing) {
    const int nthr = 32, iters = 40;
    std::atomic<bool> stop {false};
    std::atomic<int> failures {0};
    std::thread resizer([&] {
        int caps[] = {0, 1, 3, 8, 1024, 2};
        for (int i = 0; !stop; ++i) {
            set_primitive_cache_capacity(caps[i % 6]);
            std::this_thread::yield();
        }
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < nthr; ++t)
        threads.emplace_back([&, t] {
            stream st(eng);
            for (int i = 0; i < iters; ++i) {
                memory::dim n = 1 + (t + i) % 5;
                auto p = relu(eng, n);
                memory::desc md({n, 3, 5, 7}, dt::f32, tag::nchw);
                memory src(md, eng), dst(md, eng);
                float *s = static_cast<float *>(src.get_data_handle());
                for (size_t k = 0; k < md.get_size() / 4; ++k) s[k] = -1.f;
                p.execute(st, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
                st.wait();
                if (static_cast<float *>(dst.get_data_handle())[0] != 0.f)
                    ++failures;
            }
        });
    for (auto &t : threads) t.join();
    stop = true;
    resizer.join();
    EXPECT_EQ(failures.load(), 0);
}

namespace {
pooling_forward::primitive_desc max_pool_fwd(const engine &eng, tag layout) {
    memory::desc src({2, 16, 8, 8}, dt::f32, layout);
    memory::desc dst({2, 16, 4, 4}, dt::f32, layout);
    return pooling_forward::primitive_desc(eng, prop_kind::forward_training,
            algorithm::pooling_max, src, dst, {2, 2}, {2, 2}, {0, 0}, {0, 0},
            {0, 0});
}
pooling_backward::primitive_desc max_pool_bwd(
        const engine &eng, const pooling_forward::primitive_desc &hint) {
    memory::desc dsrc({2, 16, 8, 8}, dt::f32, tag::any);
    memory::desc ddst({2, 16, 4, 4}, dt::f32, tag::any);
    return pooling_backward::primitive_desc(eng, algorithm::pooling_max,
            dsrc, ddst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}, hint);
}
} // namespace

TEST_F(PrimitiveCacheApi, BackwardHintsArePartOfTheKey) {
    // Same backward operation (all `any`), hints in two layouts: two
    // entries, and each backward descriptor is served from the cache when
    // asked again with its own hint (rfcs/02).
    auto hint_nchw = max_pool_fwd(eng, tag::nchw);
    auto hint_nhwc = max_pool_fwd(eng, tag::nhwc);
    pooling_backward b1(max_pool_bwd(eng, hint_nchw));
    const int64_t m = misses();
    pooling_backward b2(max_pool_bwd(eng, hint_nhwc));
    EXPECT_EQ(misses(), m + 1);
    EXPECT_NE(b1.get_primitive_desc(), b2.get_primitive_desc());
    auto again = max_pool_bwd(eng, hint_nchw);
    EXPECT_TRUE(dnnl_test_is_pd_in_cache(again.get()));
    EXPECT_EQ(again.diff_src_desc(), hint_nchw.src_desc());
    pooling_backward b3(again);
    EXPECT_EQ(misses(), m + 1);

    // Shuffle: the hint's destination layout decides the backward one.
    auto shuffle_fwd = [&](tag layout) {
        memory::desc md({2, 12, 3, 3}, dt::f32, layout);
        return shuffle_forward::primitive_desc(
                eng, prop_kind::forward_training, md, md, 1, 3);
    };
    auto shuffle_bwd = [&](const shuffle_forward::primitive_desc &hint) {
        memory::desc md({2, 12, 3, 3}, dt::f32, tag::any);
        return shuffle_backward::primitive_desc(eng, md, md, 1, 3, hint);
    };
    auto sh1 = shuffle_fwd(tag::nchw), sh2 = shuffle_fwd(tag::nhwc);
    shuffle_backward s1(shuffle_bwd(sh1));
    const int64_t m2 = misses();
    shuffle_backward s2(shuffle_bwd(sh2));
    EXPECT_EQ(misses(), m2 + 1);
    EXPECT_TRUE(dnnl_test_is_pd_in_cache(shuffle_bwd(sh2).get()));
}

TEST_F(PrimitiveCacheApi, ConvolutionAutoReachesTheDirectEntry) {
    memory::desc src({1, 8, 10, 10}, dt::f32, tag::nchw);
    memory::desc wei({16, 8, 3, 3}, dt::f32, tag::oihw);
    memory::desc dst({1, 16, 10, 10}, dt::f32, tag::nchw);
    auto make = [&](algorithm alg) {
        return convolution_forward::primitive_desc(eng,
                prop_kind::forward_inference, alg, src, wei, dst, {1, 1},
                {1, 1}, {1, 1});
    };
    convolution_forward direct(make(algorithm::convolution_direct));
    const int64_t m = misses(), h = hits();
    auto auto_pd = make(algorithm::convolution_auto);
    EXPECT_TRUE(dnnl_test_is_pd_in_cache(auto_pd.get()));
    EXPECT_EQ(auto_pd.get_algorithm(), algorithm::convolution_direct);
    convolution_forward from_auto(auto_pd);
    EXPECT_EQ(misses(), m);
    EXPECT_EQ(hits(), h + 1);
}

TEST_F(PrimitiveCacheApi, ComputePrimitiveKeysDifferInEveryResultChangingField) {
    memory::desc a({4, 8}, dt::f32, tag::ab), b({8, 6}, dt::f32, tag::ab),
            c({4, 6}, dt::f32, tag::ab), bt({8, 6}, dt::f32, tag::ba),
            bias({1, 6}, dt::f32, tag::ab);
    auto mm = [&](const memory::desc &w, const primitive_attr &attr,
                      const memory::desc &bia) {
        return matmul(matmul::primitive_desc(eng, a, w, bia, c, attr));
    };
    primitive_attr none;
    auto with_post_op = [](float alpha) {
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, alpha, 0.f);
        primitive_attr attr;
        attr.set_post_ops(po);
        return attr;
    };
    mm(b, none, memory::desc());
    int64_t m = misses();
    mm(bt, none, memory::desc()); // one stride
    EXPECT_EQ(misses(), ++m);
    mm(b, none, bias); // a bias
    EXPECT_EQ(misses(), ++m);
    mm(b, with_post_op(0.f), memory::desc()); // a post-op
    EXPECT_EQ(misses(), ++m);
    mm(b, with_post_op(0.25f), memory::desc()); // one post-op parameter
    EXPECT_EQ(misses(), ++m);
    mm(b, with_post_op(0.25f), memory::desc()); // and a repeat is a hit
    EXPECT_EQ(misses(), m);

    auto conv = [&](memory::dim stride, memory::dim pad) {
        const memory::dim o = (9 + 2 * pad - 3) / stride + 1;
        memory::desc src({1, 4, 9, 9}, dt::f32, tag::nchw);
        memory::desc wei({8, 4, 3, 3}, dt::f32, tag::oihw);
        memory::desc dst({1, 8, o, o}, dt::f32, tag::nchw);
        return convolution_forward(convolution_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::convolution_direct,
                src, wei, dst, {stride, stride}, {pad, pad}, {pad, pad}));
    };
    conv(1, 1);
    m = misses();
    conv(2, 1); // one stride
    EXPECT_EQ(misses(), ++m);
    conv(1, 0); // one padding
    EXPECT_EQ(misses(), ++m);

    auto reorder_with_scale_mask = [&](int mask) {
        memory::desc s({4, 8}, dt::f32, tag::ab), d({4, 8}, dt::s8, tag::ab);
        primitive_attr attr;
        if (mask >= 0) attr.set_scales_mask(DNNL_ARG_DST, mask);
        return reorder(reorder::primitive_desc(eng, s, eng, d, attr));
    };
    reorder_with_scale_mask(-1);
    m = misses();
    reorder_with_scale_mask(0); // a scale
    EXPECT_EQ(misses(), ++m);
    reorder_with_scale_mask(2); // its mask
    EXPECT_EQ(misses(), ++m);
}

TEST_F(PrimitiveCacheApi, NestedPrimitiveHitsAreReportedAsSuch) {
    // A fused depthwise convolution creates its base convolution as a
    // nested primitive: cached already, it is a nested hit.
    memory::desc src({1, 4, 6, 6}, dt::f32, tag::nchw);
    memory::desc wei({8, 4, 1, 1}, dt::f32, tag::oihw);
    memory::desc dst({1, 8, 6, 6}, dt::f32, tag::nchw);
    auto make = [&](const primitive_attr &attr) {
        return convolution_forward(convolution_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::convolution_direct,
                src, wei, memory::desc(), dst, {1, 1}, {0, 0}, {0, 0}, attr));
    };
    make(primitive_attr());
    post_ops po;
    po.append_dw(dt::f32, dt::undef, dt::f32, 3, 1, 1);
    primitive_attr fused;
    fused.set_post_ops(po);
    set_verbose(2);
    testing::internal::CaptureStdout();
    make(fused);
    const std::string out = testing::internal::GetCapturedStdout();
    set_verbose(0);
    EXPECT_NE(out.find("create:nested_primitive_cache_hit,cpu,convolution"),
            std::string::npos)
            << out;
    EXPECT_NE(out.find("create:cache_miss,cpu,convolution,fused:dw"),
            std::string::npos)
            << out;
}

TEST_F(PrimitiveCacheApi, BytesFollowTheEntriesTheyMeasure) {
    // Each entry reports its own heap footprint: at least its operation
    // descriptor (an eltwise one holds four memory descriptors), and the
    // sum goes back to zero when the cache is emptied.
    EXPECT_EQ(ext::get_primitive_cache_stats().bytes, 0);
    relu(eng, 3);
    const int64_t one = ext::get_primitive_cache_stats().bytes;
    EXPECT_GT(one, 2000);
    relu(eng, 4);
    const int64_t two = ext::get_primitive_cache_stats().bytes;
    EXPECT_GT(two, one);
    EXPECT_LT(two, 3 * one);
    set_primitive_cache_capacity(1);
    EXPECT_EQ(ext::get_primitive_cache_stats().bytes, two - one);
    set_primitive_cache_capacity(0);
    EXPECT_EQ(ext::get_primitive_cache_stats().bytes, 0);
}
