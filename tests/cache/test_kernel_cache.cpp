// The kernel cache: its key semantics and get_or_create on the core's
// global instance (this binary compiles kernel_cache.cpp in, so these use
// their own copy), and its public API (C and C++, capacity, errors,
// statistics) through the library, including kernels really shared by two
// OpenCL primitives when a gpu engine is present.
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.hpp"

#include "common/kernel_cache.hpp"

namespace kc = dnnl::impl::kernel_cache;

namespace {

struct name_key_t : public kc::key_impl_t {
    explicit name_key_t(std::string n) : name(std::move(n)) {}
    bool equal(const kc::key_impl_t &o) const override {
        return name == static_cast<const name_key_t &>(o).name;
    }
    size_t hash() const override { return std::hash<std::string>()(name); }
    std::string name;
};

// Another key type whose hash collides with name_key_t's on purpose.
struct other_key_t : public kc::key_impl_t {
    explicit other_key_t(std::string n) : name(std::move(n)) {}
    bool equal(const kc::key_impl_t &o) const override {
        return name == static_cast<const other_key_t &>(o).name;
    }
    size_t hash() const override { return std::hash<std::string>()(name); }
    std::string name;
};

struct blob_t : public kc::value_impl_t {
    explicit blob_t(std::string n) : name(std::move(n)) {}
    size_t footprint() const override { return 1000; }
    std::string name;
};

struct build_ctx_t {
    std::string name;
    std::atomic<int> *builds = nullptr;
    dnnl_status_t status = dnnl_success;
};

kc::result_t build(void *p) {
    auto *c = static_cast<build_ctx_t *>(p);
    if (c->builds) ++*c->builds;
    kc::result_t r;
    r.status = c->status;
    if (r.status == dnnl_success) r.value = std::make_shared<blob_t>(c->name);
    return r;
}

kc::key_t name_key(const std::string &n) {
    return kc::key_t(std::make_shared<name_key_t>(n));
}

// The internal global instance, emptied, restored afterwards.
class KernelCacheCore : public ::testing::Test {
protected:
    void SetUp() override {
        saved_ = kc::get_capacity();
        kc::set_capacity(0);
        kc::set_capacity(64);
        kc::reset_stats();
    }
    void TearDown() override { kc::set_capacity(saved_); }

private:
    int saved_ = 0;
};

} // namespace

TEST_F(KernelCacheCore, KeysCompareByTypeThenContent) {
    kc::key_t a = name_key("k"), b = name_key("k"), c = name_key("j");
    kc::key_t d(std::make_shared<other_key_t>("k"));
    EXPECT_TRUE(a == b);
    EXPECT_FALSE(a == c);
    EXPECT_EQ(a.hash, d.hash);
    EXPECT_FALSE(a == d); // same hash and content, another type
    EXPECT_TRUE(kc::key_t() == kc::key_t());
    EXPECT_FALSE(a == kc::key_t());
}

TEST_F(KernelCacheCore, GetOrCreateKeepsOneValuePerKey) {
    std::atomic<int> builds {0};
    build_ctx_t ctx {"prog", &builds};
    bool hit = true;
    kc::result_t r1 = kc::get_or_create(name_key("prog"), build, &ctx, hit);
    EXPECT_FALSE(hit);
    kc::result_t r2 = kc::get_or_create(name_key("prog"), build, &ctx, hit);
    EXPECT_TRUE(hit);
    EXPECT_EQ(r1.value.get(), r2.value.get());
    // Same content under another key type: a separate entry.
    kc::get_or_create(kc::key_t(std::make_shared<other_key_t>("prog")), build,
            &ctx, hit);
    EXPECT_FALSE(hit);
    EXPECT_EQ(builds.load(), 2);
    const kc::stats_t s = kc::get_stats();
    EXPECT_EQ(s.entries, 2);
    EXPECT_EQ(s.hits, 1);
    EXPECT_EQ(s.misses, 2);
    EXPECT_EQ(s.bytes, 2000);
}

TEST_F(KernelCacheCore, FailedBuildsAreNotKept) {
    build_ctx_t bad {"bad"};
    bad.status = dnnl_runtime_error;
    bool hit = true;
    EXPECT_EQ(kc::get_or_create(name_key("bad"), build, &bad, hit).status,
            dnnl_runtime_error);
    EXPECT_EQ(kc::get_stats().entries, 0);
    build_ctx_t good {"bad"};
    EXPECT_EQ(kc::get_or_create(name_key("bad"), build, &good, hit).status,
            dnnl_success);
    EXPECT_FALSE(hit);
    EXPECT_EQ(kc::get_stats().entries, 1);
}

TEST_F(KernelCacheCore, CapacityEvictsLeastRecentlyUsed) {
    build_ctx_t ctx {"x"};
    bool hit = false;
    for (const char *n : {"a", "b", "c", "d"})
        kc::get_or_create(name_key(n), build, &ctx, hit);
    kc::get_or_create(name_key("a"), build, &ctx, hit); // a most recent
    EXPECT_EQ(kc::set_capacity(2), dnnl_success);
    EXPECT_EQ(kc::get_stats().entries, 2);
    EXPECT_EQ(kc::get_stats().evictions, 2);
    kc::get_or_create(name_key("a"), build, &ctx, hit);
    EXPECT_TRUE(hit);
    kc::get_or_create(name_key("b"), build, &ctx, hit);
    EXPECT_FALSE(hit);
    EXPECT_EQ(kc::set_capacity(-1), dnnl_invalid_arguments);
    EXPECT_EQ(kc::get_capacity(), 2);
    EXPECT_EQ(kc::set_capacity(0), dnnl_success);
    kc::get_or_create(name_key("a"), build, &ctx, hit);
    EXPECT_FALSE(hit);
    EXPECT_EQ(kc::get_stats().entries, 0);
}

TEST_F(KernelCacheCore, ConcurrentBuildersOfOneKeyBuildOnce) {
    std::atomic<int> builds {0}, ready {0};
    const int nthr = 12;
    std::vector<std::thread> threads;
    for (int t = 0; t < nthr; ++t)
        threads.emplace_back([&] {
            build_ctx_t ctx {"shared", &builds};
            ++ready;
            while (ready.load() < nthr) std::this_thread::yield();
            bool hit = false;
            kc::result_t r = kc::get_or_create(name_key("shared"), build, &ctx, hit);
            EXPECT_EQ(r.status, dnnl_success);
            EXPECT_EQ(static_cast<blob_t *>(r.value.get())->name, "shared");
        });
    for (auto &t : threads) t.join();
    EXPECT_EQ(builds.load(), 1);
    EXPECT_EQ(kc::get_stats().hits, nthr - 1);
}

// ---- the public API, through the library ----

namespace {
class KernelCacheApi : public ::testing::Test {
protected:
    void SetUp() override {
        saved_ = dnnl::get_kernel_cache_capacity();
        dnnl::set_kernel_cache_capacity(0);
        dnnl::set_kernel_cache_capacity(1024);
        // ONEDNN_ENABLE_KERNEL_CACHE=OFF: the capacity reads 0.
        if (dnnl::get_kernel_cache_capacity() == 0)
            GTEST_SKIP() << "kernel cache compiled out";
        dnnl::ext::reset_kernel_cache_stats();
    }
    void TearDown() override { dnnl::set_kernel_cache_capacity(saved_); }

private:
    int saved_ = 1024;
};
} // namespace

TEST_F(KernelCacheApi, CapacityThroughC) {
    int c = -1;
    EXPECT_EQ(dnnl_set_kernel_cache_capacity(33), dnnl_success);
    EXPECT_EQ(dnnl_get_kernel_cache_capacity(&c), dnnl_success);
    EXPECT_EQ(c, 33);
    EXPECT_EQ(dnnl_set_kernel_cache_capacity(-1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_get_kernel_cache_capacity(&c), dnnl_success);
    EXPECT_EQ(c, 33);
    EXPECT_EQ(dnnl_get_kernel_cache_capacity(nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_set_kernel_cache_capacity(0), dnnl_success);
    EXPECT_EQ(dnnl_get_kernel_cache_capacity(&c), dnnl_success);
    EXPECT_EQ(c, 0);

    dnnl_ext_kernel_cache_stats_t s;
    EXPECT_EQ(dnnl_ext_kernel_cache_get_stats(&s), dnnl_success);
    EXPECT_EQ(s.capacity, 0);
    EXPECT_EQ(s.entries, 0);
    EXPECT_EQ(dnnl_ext_kernel_cache_get_stats(nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ext_kernel_cache_reset_stats(), dnnl_success);
}

TEST_F(KernelCacheApi, CapacityThroughCpp) {
    dnnl::set_kernel_cache_capacity(12);
    EXPECT_EQ(dnnl::get_kernel_cache_capacity(), 12);
    EXPECT_EQ(dnnl::ext::get_kernel_cache_stats().capacity, 12);
    EXPECT_THROW(dnnl::set_kernel_cache_capacity(-3), dnnl::error);
    EXPECT_EQ(dnnl::get_kernel_cache_capacity(), 12);
    dnnl::ext::reset_kernel_cache_stats();
    const auto s = dnnl::ext::get_kernel_cache_stats();
    EXPECT_EQ(s.hits, 0);
    EXPECT_EQ(s.misses, 0);
    EXPECT_EQ(s.evictions, 0);
}

TEST_F(KernelCacheApi, IndependentOfThePrimitiveCacheCapacity) {
    const int p = dnnl::get_primitive_cache_capacity();
    dnnl::set_kernel_cache_capacity(7);
    dnnl::set_primitive_cache_capacity(p == 0 ? 0 : 3);
    EXPECT_EQ(dnnl::get_kernel_cache_capacity(), 7);
    dnnl::set_primitive_cache_capacity(p);
    EXPECT_EQ(dnnl::get_kernel_cache_capacity(), 7);
}

TEST_F(KernelCacheApi, GpuPrimitivesShareCompiledKernels) {
    using namespace dnnl;
    if (engine::get_count(engine::kind::gpu) == 0)
        GTEST_SKIP() << "no gpu engine";
    engine eng(engine::kind::gpu, 0);
    const int saved_prim = get_primitive_cache_capacity();
    // With the primitive cache off, every creation builds its kernels
    // again, except that the kernel cache serves the compiled code.
    set_primitive_cache_capacity(0);
    memory::desc md({2, 3, 4, 5}, memory::data_type::f32,
            memory::format_tag::nchw);
    auto make = [&] {
        return eltwise_forward(eltwise_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::eltwise_relu, md, md,
                0.f, 0.f));
    };
    try {
        make();
    } catch (const error &e) {
        set_primitive_cache_capacity(saved_prim);
        if (e.status == dnnl_unimplemented) GTEST_SKIP() << "no gpu eltwise";
        throw;
    }
    const auto after_first = ext::get_kernel_cache_stats();
    EXPECT_GE(after_first.misses, 1);
    EXPECT_GE(after_first.entries, 1);
    EXPECT_GT(after_first.bytes, 0);
    make();
    const auto after_second = ext::get_kernel_cache_stats();
    EXPECT_EQ(after_second.misses, after_first.misses);
    EXPECT_GT(after_second.hits, after_first.hits);

    // Emptied and disabled: the next creation builds again.
    set_kernel_cache_capacity(0);
    EXPECT_EQ(ext::get_kernel_cache_stats().entries, 0);
    make();
    EXPECT_GT(ext::get_kernel_cache_stats().misses, after_second.misses);
    EXPECT_EQ(ext::get_kernel_cache_stats().entries, 0);
    set_primitive_cache_capacity(saved_prim);
}
