// Compiled kernels and the caches on the gpu engine: a kernel-cache hit
// for a new shape, no kernel lookup at all on a primitive-cache hit, one
// default context shared by engines made by index, separate programs for
// separate contexts, capacity 0 releasing everything, user contexts /
// queues / buffers end to end, many threads creating at once while both
// capacities change, and the JIT dump of each compiled program.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <CL/cl.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "oneapi/dnnl/dnnl_ocl.hpp"

using namespace dnnl;

namespace {

dnnl_ext_kernel_cache_stats_t kstats() {
    dnnl_ext_kernel_cache_stats_t s;
    EXPECT_EQ(dnnl_ext_kernel_cache_get_stats(&s), dnnl_success);
    return s;
}

dnnl_ext_primitive_cache_stats_t pstats() {
    dnnl_ext_primitive_cache_stats_t s;
    EXPECT_EQ(dnnl_ext_primitive_cache_get_stats(&s), dnnl_success);
    return s;
}

// An eltwise primitive on `eng` over dims `d`.
eltwise_forward make_eltwise(const engine &eng, const memory::dims &d,
        algorithm alg = algorithm::eltwise_square,
        memory::data_type dt = memory::data_type::f32) {
    memory::desc md(d, dt, memory::format_tag::ab);
    return eltwise_forward(eltwise_forward::primitive_desc(
            eng, prop_kind::forward_inference, alg, md, md, 0.f, 0.f));
}

class ocl_kernel_cache : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
        pcap_ = get_primitive_cache_capacity();
        int k = 0;
        ASSERT_EQ(dnnl_get_kernel_cache_capacity(&k), dnnl_success);
        kcap_ = k;
    }
    void TearDown() override {
        if (pcap_ < 0) return;
        set_primitive_cache_capacity(pcap_);
        dnnl_set_kernel_cache_capacity(kcap_);
    }
    int pcap_ = -1, kcap_ = -1;
};

} // namespace

TEST_F(ocl_kernel_cache, new_shape_reuses_the_compiled_program) {
    engine eng(engine::kind::gpu, 0);
    make_eltwise(eng, {3, 5}, algorithm::eltwise_abs);
    const auto before = kstats();
    // Same configuration, new shapes: primitive-cache misses, kernel-cache
    // hits, no program built.
    make_eltwise(eng, {7, 11}, algorithm::eltwise_abs);
    make_eltwise(eng, {1, 1000}, algorithm::eltwise_abs);
    const auto after = kstats();
    EXPECT_EQ(after.misses, before.misses);
    EXPECT_EQ(after.hits, before.hits + 2);
    // Another configuration (algorithm and data type no other test uses)
    // is another program.
    make_eltwise(
            eng, {7, 11}, algorithm::eltwise_hardswish, memory::data_type::f16);
    EXPECT_EQ(kstats().misses, after.misses + 1);
}

TEST_F(ocl_kernel_cache, primitive_cache_hit_touches_no_kernel) {
    engine eng(engine::kind::gpu, 0);
    make_eltwise(eng, {4, 4}, algorithm::eltwise_log);
    const auto k0 = kstats();
    const auto p0 = pstats();
    make_eltwise(eng, {4, 4}, algorithm::eltwise_log);
    const auto k1 = kstats();
    EXPECT_EQ(pstats().hits, p0.hits + 1);
    EXPECT_EQ(k1.hits, k0.hits);
    EXPECT_EQ(k1.misses, k0.misses);
}

TEST_F(ocl_kernel_cache, engines_by_index_share_one_context) {
    engine a(engine::kind::gpu, 0), b(engine::kind::gpu, 0);
    EXPECT_EQ(ocl_interop::get_context(a), ocl_interop::get_context(b));
    make_eltwise(a, {5, 5}, algorithm::eltwise_sqrt);
    const auto p0 = pstats();
    make_eltwise(b, {5, 5}, algorithm::eltwise_sqrt);
    EXPECT_EQ(pstats().hits, p0.hits + 1) << "cached for a, served to b";
}

TEST_F(ocl_kernel_cache, another_context_gets_its_own_program) {
    engine a(engine::kind::gpu, 0);
    cl_device_id dev = ocl_interop::get_device(a);
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    engine b = ocl_interop::make_engine(dev, ctx);
    clReleaseContext(ctx); // the engine keeps its own reference
    make_eltwise(a, {2, 9}, algorithm::eltwise_tanh);
    const auto k0 = kstats();
    const auto p0 = pstats();
    make_eltwise(b, {2, 9}, algorithm::eltwise_tanh);
    EXPECT_EQ(kstats().misses, k0.misses + 1) << "no program shared";
    EXPECT_EQ(pstats().misses, p0.misses + 1) << "no primitive shared";
}

TEST_F(ocl_kernel_cache, capacity_zero_empties_and_disables) {
    engine eng(engine::kind::gpu, 0);
    make_eltwise(eng, {6, 6}, algorithm::eltwise_exp);
    ASSERT_GT(kstats().entries, 0);
    ASSERT_EQ(dnnl_set_kernel_cache_capacity(0), dnnl_success);
    set_primitive_cache_capacity(0);
    EXPECT_EQ(kstats().entries, 0);
    EXPECT_EQ(pstats().entries, 0);
    // Creation still works, compiling every time.
    stream s(eng);
    memory::desc md({6, 6}, memory::data_type::f32, memory::format_tag::ab);
    memory src(md, eng), dst(md, eng);
    make_eltwise(eng, {6, 6}, algorithm::eltwise_exp)
            .execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    s.wait();
    EXPECT_EQ(kstats().entries, 0);
    EXPECT_EQ(dnnl_set_kernel_cache_capacity(-1), dnnl_invalid_arguments);
}

TEST_F(ocl_kernel_cache, user_context_queue_and_buffers) {
    engine any(engine::kind::gpu, 0);
    cl_device_id dev = ocl_interop::get_device(any);
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    const int n = 1000;
    std::vector<float> in(n), out(n, 0.f);
    for (int i = 0; i < n; ++i) in[i] = (float)(i - n / 2) / 8;
    cl_mem src_buf =
            clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    n * sizeof(float), in.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem dst_buf = clCreateBuffer(
            ctx, CL_MEM_READ_WRITE, n * sizeof(float), nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    {
        engine eng = ocl_interop::make_engine(dev, ctx);
        stream s = ocl_interop::make_stream(eng, q);
        memory::desc md({n}, memory::data_type::f32, memory::format_tag::a);
        memory src = ocl_interop::make_memory(
                md, eng, ocl_interop::memory_kind::buffer, src_buf);
        memory dst = ocl_interop::make_memory(
                md, eng, ocl_interop::memory_kind::buffer, dst_buf);
        auto relu = eltwise_forward(eltwise_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::eltwise_relu, md, md,
                0.5f, 0.f));
        cl_event ev = ocl_interop::execute(
                relu, s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        if (ev) {
            EXPECT_EQ(clWaitForEvents(1, &ev), CL_SUCCESS);
            clReleaseEvent(ev);
        }
        ASSERT_EQ(clEnqueueReadBuffer(q, dst_buf, CL_TRUE, 0, n * sizeof(float),
                          out.data(), 0, nullptr, nullptr),
                CL_SUCCESS);
    }
    for (int i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i] > 0 ? in[i] : 0.5f * in[i]) << i;
    clReleaseMemObject(src_buf);
    clReleaseMemObject(dst_buf);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

// Many threads create (and run) primitives that share programs and ones
// that do not, while another thread keeps changing both capacities.
TEST_F(ocl_kernel_cache, concurrent_creation_with_changing_capacities) {
    engine eng(engine::kind::gpu, 0);
    std::atomic<bool> stop{false};
    std::atomic<int> failures{0};
    std::thread resizer([&] {
        int i = 0;
        while (!stop.load()) {
            dnnl_set_kernel_cache_capacity(i % 3 == 0 ? 0 : 4 + i % 5);
            dnnl_set_primitive_cache_capacity(i % 4 == 0 ? 0 : 2 + i % 7);
            dnnl_ext_kernel_cache_stats_t ks;
            dnnl_ext_kernel_cache_get_stats(&ks);
            ++i;
            std::this_thread::yield();
        }
    });
    const algorithm algs[] = {algorithm::eltwise_relu, algorithm::eltwise_abs,
            algorithm::eltwise_square};
    std::vector<std::thread> workers;
    for (int t = 0; t < 6; ++t)
        workers.emplace_back([&, t] {
            stream s(eng);
            for (int it = 0; it < 12; ++it) {
                const memory::dims d = {2, 3 + (t + it) % 4};
                const algorithm alg = algs[(t * 7 + it) % 3];
                try {
                    memory::desc md(
                            d, memory::data_type::f32, memory::format_tag::ab);
                    memory src(md, eng), dst(md, eng);
                    {
                        float *p = src.map_data<float>();
                        for (int i = 0; i < d[0] * d[1]; ++i) p[i] = -1.f - i;
                        src.unmap_data(p);
                    }
                    make_eltwise(eng, d, alg)
                            .execute(s,
                                    {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
                    s.wait();
                    float *p = dst.map_data<float>();
                    for (int i = 0; i < d[0] * d[1]; ++i) {
                        const float v = -1.f - i;
                        const float want = alg == algorithm::eltwise_relu ? 0.f
                                           : alg == algorithm::eltwise_abs
                                                   ? -v
                                                   : v * v;
                        if (p[i] != want) ++failures;
                    }
                    dst.unmap_data(p);
                } catch (const dnnl::error &) {
                    ++failures;
                }
            }
        });
    for (auto &w : workers) w.join();
    stop = true;
    resizer.join();
    EXPECT_EQ(failures.load(), 0);
    // Drained: nothing left in either cache.
    dnnl_set_kernel_cache_capacity(0);
    set_primitive_cache_capacity(0);
    EXPECT_EQ(kstats().entries, 0);
    EXPECT_EQ(pstats().entries, 0);
}

// The dump files of the working directory.
std::set<std::string> dump_files() {
    std::set<std::string> names;
    for (const auto &e : std::filesystem::directory_iterator("."))
        if (e.path().filename().string().rfind("dnnl_dump_ocl_", 0) == 0)
            names.insert(e.path().filename().string());
    return names;
}

std::string file_text(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f),
            std::istreambuf_iterator<char>());
}

// With the JIT dump on, a program compiled from source leaves its source
// (options and build log ahead of it) and its binary under one number;
// with it off, a compile leaves nothing.
TEST_F(ocl_kernel_cache, jit_dump_writes_each_compiled_program) {
    engine eng(engine::kind::gpu, 0);
    ASSERT_EQ(dnnl_set_kernel_cache_capacity(0), dnnl_success);
    const std::set<std::string> before = dump_files();
    ASSERT_EQ(dnnl_set_jit_dump(1), dnnl_success);
    make_eltwise(eng, {3, 5}, algorithm::eltwise_abs);
    ASSERT_EQ(dnnl_set_jit_dump(0), dnnl_success);
    std::vector<std::string> made;
    for (const auto &n : dump_files())
        if (!before.count(n)) made.push_back(n);
    make_eltwise(eng, {3, 5}, algorithm::eltwise_abs);
    EXPECT_EQ(dump_files().size(), before.size() + made.size());
    int sources = 0;
    for (const auto &n : made) {
        const size_t dot = n.rfind('.');
        if (n.substr(dot) != ".cl") continue;
        ++sources;
        const std::string text = file_text(n);
        EXPECT_EQ(text.rfind("/* options: -cl-std=CL1.2", 0), 0u) << n;
        EXPECT_NE(text.find("__kernel"), std::string::npos) << n;
        const std::string bin = n.substr(0, dot) + ".bin";
        EXPECT_FALSE(file_text(bin).empty()) << bin;
    }
    EXPECT_GE(sources, 1);
    for (const auto &n : made) std::remove(n.c_str());
}

#endif
