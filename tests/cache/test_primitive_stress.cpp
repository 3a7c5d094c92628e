// Stress of the whole creation path through the public API: worker threads
// create, execute and destroy primitives of random kinds and shapes (eltwise,
// binary, reorder; on the cpu engine and, when an OpenCL device is present,
// on the gpu engine) and check every result against a reference computed
// here, while one thread keeps changing the primitive and kernel cache
// capacities and another reads the statistics. At the end both caches are
// drained to zero and must be empty. Runs for a bounded time
// (ONEDNN_STRESS_SECONDS, default 4) and under ThreadSanitizer in CI.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"

namespace {

using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

double stress_seconds() {
    const char *v = std::getenv("ONEDNN_STRESS_SECONDS");
    const double s = v ? std::atof(v) : 0.0;
    return s > 0 ? s : 4.0;
}

std::vector<float> read(const dnnl::memory &m) {
    const size_t n = m.get_desc().get_size() / sizeof(float);
    std::vector<float> out(n);
    auto *p = static_cast<float *>(m.map_data());
    std::copy(p, p + n, out.begin());
    m.unmap_data(p);
    return out;
}

void write(dnnl::memory &m, const std::vector<float> &v) {
    auto *p = static_cast<float *>(m.map_data());
    std::copy(v.begin(), v.end(), p);
    m.unmap_data(p);
}

// One random primitive: built, run once, checked, destroyed. Returns an
// empty string or what went wrong.
std::string one_round(const dnnl::engine &eng, std::mt19937 &rng) {
    dnnl::stream s(eng);
    std::uniform_int_distribution<int> small(1, 5);
    const dnnl::memory::dims dims = {small(rng), small(rng), small(rng)};
    const int64_t n = dims[0] * dims[1] * dims[2];
    std::vector<float> a(n), b(n);
    std::uniform_real_distribution<float> val(-4.f, 4.f);
    for (auto &x : a) x = std::round(val(rng) * 4) / 4;
    for (auto &x : b) x = std::round(val(rng) * 4) / 4;
    const dnnl::memory::desc plain(dims, dt::f32, tag::abc);
    dnnl::memory ma(plain, eng), mb(plain, eng), md(plain, eng);
    write(ma, a);
    write(mb, b);
    std::vector<float> want(n);
    switch (rng() % 3) {
        case 0: {
            const float alpha = (float)(rng() % 3), beta = 0.5f;
            const bool relu = rng() % 2;
            const auto alg = relu ? dnnl::algorithm::eltwise_relu
                                  : dnnl::algorithm::eltwise_linear;
            dnnl::eltwise_forward::primitive_desc pd(eng,
                    dnnl::prop_kind::forward_inference, alg, plain, plain,
                    alpha, beta);
            dnnl::eltwise_forward(pd).execute(
                    s, {{DNNL_ARG_SRC, ma}, {DNNL_ARG_DST, md}});
            for (int64_t i = 0; i < n; ++i)
                want[i] = relu ? (a[i] > 0 ? a[i] : alpha * a[i])
                               : alpha * a[i] + beta;
            break;
        }
        case 1: {
            const bool add = rng() % 2;
            dnnl::binary::primitive_desc pd(eng,
                    add ? dnnl::algorithm::binary_add
                        : dnnl::algorithm::binary_max,
                    plain, plain, plain);
            dnnl::binary(pd).execute(s,
                    {{DNNL_ARG_SRC_0, ma}, {DNNL_ARG_SRC_1, mb},
                            {DNNL_ARG_DST, md}});
            for (int64_t i = 0; i < n; ++i)
                want[i] = add ? a[i] + b[i] : std::max(a[i], b[i]);
            break;
        }
        default: {
            // Reorder into the transposed layout, read back logically.
            const dnnl::memory::desc t(dims, dt::f32, tag::cba);
            dnnl::memory mt(t, eng);
            dnnl::reorder(ma, mt).execute(s, ma, mt);
            dnnl::reorder(mt, md).execute(s, mt, md);
            want = a;
            break;
        }
    }
    s.wait();
    const auto got = read(md);
    for (int64_t i = 0; i < n; ++i)
        if (got[i] != want[i])
            return "element " + std::to_string(i) + ": "
                    + std::to_string(got[i]) + " != " + std::to_string(want[i]);
    return "";
}

TEST(PrimitiveStress, CreateExecuteDestroyWhileCachesResize) {
    std::vector<dnnl::engine> engines {dnnl::engine(dnnl::engine::kind::cpu, 0)};
    if (dnnl::engine::get_count(dnnl::engine::kind::gpu) > 0)
        engines.emplace_back(dnnl::engine::kind::gpu, 0);
    int pcap0 = 0, kcap0 = 0;
    ASSERT_EQ(dnnl_get_primitive_cache_capacity(&pcap0), dnnl_success);
    ASSERT_EQ(dnnl_get_kernel_cache_capacity(&kcap0), dnnl_success);

    const auto until = std::chrono::steady_clock::now()
            + std::chrono::duration<double>(stress_seconds());
    std::atomic<bool> done {false};
    std::atomic<int> failures {0}, rounds {0};
    std::vector<std::string> errors(4);

    std::thread resizer([&] {
        const int caps[] = {0, 1, 2, 7, 1024};
        for (int i = 0; !done.load(); ++i) {
            EXPECT_EQ(dnnl_set_primitive_cache_capacity(caps[i % 5]), dnnl_success);
            EXPECT_EQ(dnnl_set_kernel_cache_capacity(caps[(i / 3) % 5]),
                    dnnl_success);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    });
    std::thread observer([&] {
        while (!done.load()) {
            dnnl_ext_primitive_cache_stats_t p;
            dnnl_ext_kernel_cache_stats_t k;
            EXPECT_EQ(dnnl_ext_primitive_cache_get_stats(&p), dnnl_success);
            EXPECT_EQ(dnnl_ext_kernel_cache_get_stats(&k), dnnl_success);
            EXPECT_GE(p.entries, 0);
            EXPECT_GE(p.bytes, 0);
            EXPECT_GE(k.entries, 0);
            int cap = -1;
            EXPECT_EQ(dnnl_get_primitive_cache_capacity(&cap), dnnl_success);
            EXPECT_GE(cap, 0);
            std::this_thread::yield();
        }
    });
    std::vector<std::thread> workers;
    for (int t = 0; t < 4; ++t)
        workers.emplace_back([&, t] {
            std::mt19937 rng(1234 + t);
            while (std::chrono::steady_clock::now() < until) {
                // The gpu engine (PoCL compiles slowly) on a few rounds.
                const auto &eng = engines[engines.size() > 1 && rng() % 8 == 0];
                try {
                    const std::string e = one_round(eng, rng);
                    if (!e.empty()) {
                        failures++;
                        errors[t] = e;
                    }
                } catch (const dnnl::error &e) {
                    failures++;
                    errors[t] = e.what();
                }
                rounds++;
            }
        });
    for (auto &w : workers) w.join();
    done = true;
    resizer.join();
    observer.join();
    EXPECT_EQ(failures.load(), 0)
            << errors[0] << errors[1] << errors[2] << errors[3];
    EXPECT_GT(rounds.load(), 0);

    // Drained to zero: nothing may stay behind.
    ASSERT_EQ(dnnl_set_primitive_cache_capacity(0), dnnl_success);
    ASSERT_EQ(dnnl_set_kernel_cache_capacity(0), dnnl_success);
    dnnl_ext_primitive_cache_stats_t p;
    dnnl_ext_kernel_cache_stats_t k;
    ASSERT_EQ(dnnl_ext_primitive_cache_get_stats(&p), dnnl_success);
    ASSERT_EQ(dnnl_ext_kernel_cache_get_stats(&k), dnnl_success);
    EXPECT_EQ(p.entries, 0);
    EXPECT_EQ(p.bytes, 0);
    EXPECT_EQ(k.entries, 0);
    EXPECT_EQ(k.bytes, 0);
    dnnl_set_primitive_cache_capacity(pcap0);
    dnnl_set_kernel_cache_capacity(kcap0);
}

// One recurrent primitive executed by several threads at once, each with
// its own tensors and stream, right after creation: the weight GEMMs'
// tile kernels for row tails are fetched on first use, so the threads
// race to fetch them (the primitive keeps them under a lock). Every
// thread must get the result of a later single-threaded execution,
// bit for bit.
TEST(PrimitiveStress, OneRnnPrimitiveFromManyThreads) {
    using md = dnnl::memory::desc;
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    // T 3, batch 13, 40 channels: 39 and 13 rows (tails of 3 and 1 after
    // the 12-row tiles); the weights are packed by the execution (T > 1).
    const md src({3, 13, 40}, dt::f32, tag::tnc);
    const md wl({1, 1, 40, 4, 40}, dt::f32, tag::ldigo);
    const md bias({1, 1, 4, 40}, dt::f32, tag::ldgo);
    dnnl::lstm_forward::primitive_desc pd(eng,
            dnnl::prop_kind::forward_inference,
            dnnl::rnn_direction::unidirectional_left2right, src, md(), md(),
            wl, wl, bias, src, md(), md());
    dnnl::lstm_forward prim(pd);
    auto inputs = [&](unsigned seed) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> val(-0.5f, 0.5f);
        std::vector<std::vector<float>> v;
        for (const md &d : {src, wl, wl, bias}) {
            std::vector<float> x(d.get_size() / sizeof(float));
            for (auto &e : x) e = val(rng);
            v.push_back(x);
        }
        return v;
    };
    const auto in = inputs(7);
    auto run = [&]() {
        dnnl::stream s(eng);
        dnnl::memory x(src, eng), w1(wl, eng), w2(wl, eng), b(bias, eng),
                y(src, eng);
        write(x, in[0]);
        write(w1, in[1]);
        write(w2, in[2]);
        write(b, in[3]);
        prim.execute(s,
                {{DNNL_ARG_SRC_LAYER, x}, {DNNL_ARG_WEIGHTS_LAYER, w1},
                        {DNNL_ARG_WEIGHTS_ITER, w2}, {DNNL_ARG_BIAS, b},
                        {DNNL_ARG_DST_LAYER, y}});
        s.wait();
        return read(y);
    };
    constexpr int n = 4;
    std::vector<std::vector<float>> got(n);
    std::vector<std::thread> threads;
    for (int t = 0; t < n; ++t)
        threads.emplace_back([&, t] { got[t] = run(); });
    for (auto &t : threads)
        t.join();
    const auto want = run();
    for (int t = 0; t < n; ++t)
        EXPECT_EQ(got[t], want) << "thread " << t;
}

} // namespace
