// The library-owned scratchpad of gpu executions, kept per stream between
// executions (src/common/device_scratch.*): a gpu LSTM (its inference
// keeps the states in the scratchpad) run on interleaved streams, on new
// streams beyond the kept number, and from several threads on one stream
// at once, every result against the same problem on the CPU engine.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

constexpr memory::dim T = 4, N = 3, C = 16, G = 4;

struct lstm_t {
    explicit lstm_t(const engine &eng) {
        const memory::desc l({T, N, C}, dt::f32, tag::tnc), s({1, 1, N, C}, dt::f32, tag::ldnc),
                w({1, 1, C, G, C}, dt::f32, tag::ldigo), b({1, 1, G, C}, dt::f32, tag::ldgo);
        pd = lstm_forward::primitive_desc(eng, prop_kind::forward_inference,
                rnn_direction::unidirectional_left2right, l, s, s, w, w, b, l, memory::desc(),
                memory::desc());
        prim = lstm_forward(pd);
    }
    lstm_forward::primitive_desc pd;
    primitive prim;
};

void write(memory &m, const std::vector<float> &v) {
    void *p = m.map_data();
    std::memcpy(p, v.data(), v.size() * sizeof(float));
    m.unmap_data(p);
}

std::vector<float> read(const memory &m) {
    const size_t n = m.get_desc().get_size() / sizeof(float);
    std::vector<float> v(n);
    void *p = m.map_data();
    std::memcpy(v.data(), p, n * sizeof(float));
    m.unmap_data(p);
    return v;
}

std::vector<float> rnd(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto &x : v) x = d(g);
    return v;
}

// One execution's arguments on `eng`; inputs from `seed` (weights shared).
struct args_t {
    args_t(const lstm_t &l, const engine &eng, unsigned seed) {
        auto add = [&](int arg, const std::vector<float> &v) {
            memory m(l.pd.query_md(query::exec_arg_md, arg), eng);
            write(m, v);
            map[arg] = m;
        };
        add(DNNL_ARG_SRC_LAYER, rnd((size_t)(T * N * C), seed));
        add(DNNL_ARG_SRC_ITER, rnd((size_t)(N * C), seed + 1));
        add(DNNL_ARG_SRC_ITER_C, rnd((size_t)(N * C), seed + 2));
        add(DNNL_ARG_WEIGHTS_LAYER, rnd((size_t)(C * G * C), 100));
        add(DNNL_ARG_WEIGHTS_ITER, rnd((size_t)(C * G * C), 101));
        add(DNNL_ARG_BIAS, rnd((size_t)(G * C), 102));
        map[DNNL_ARG_DST_LAYER] = memory(l.pd.dst_layer_desc(), eng);
        map[DNNL_ARG_DST_ITER] = memory(l.pd.dst_iter_desc(), eng);
    }
    std::vector<float> dst() const { return read(map.at(DNNL_ARG_DST_LAYER)); }
    std::unordered_map<int, memory> map;
};

class OclScratchpad : public ::testing::Test {
protected:
    void SetUp() override {
        if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no OpenCL device";
        gpu = engine(engine::kind::gpu, 0);
        cpu = engine(engine::kind::cpu, 0);
        lstm.reset(new lstm_t(gpu));
        ASSERT_GT(lstm->pd.scratchpad_desc().get_size(), 0u) << "the problem needs a scratchpad";
        ref.reset(new lstm_t(cpu));
    }
    // The CPU engine's result for inputs from `seed`.
    std::vector<float> expected(unsigned seed) {
        args_t a(*ref, cpu, seed);
        stream s(cpu);
        ref->prim.execute(s, a.map);
        s.wait();
        return a.dst();
    }
    void expect_near(const std::vector<float> &got, const std::vector<float> &want) {
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-4f) << i;
    }
    engine gpu, cpu;
    std::unique_ptr<lstm_t> lstm, ref;
};

TEST_F(OclScratchpad, InterleavedStreamsKeepTheirOwnStates) {
    stream s1(gpu), s2(gpu);
    args_t a(*lstm, gpu, 1), b(*lstm, gpu, 2), c(*lstm, gpu, 3);
    // No waits between: the two queues may run at once, each reusing its
    // own buffer for its second execution.
    for (int rep = 0; rep < 3; ++rep) {
        lstm->prim.execute(s1, a.map);
        lstm->prim.execute(s2, b.map);
        lstm->prim.execute(s1, c.map);
    }
    s1.wait();
    s2.wait();
    expect_near(a.dst(), expected(1));
    expect_near(b.dst(), expected(2));
    expect_near(c.dst(), expected(3));
}

TEST_F(OclScratchpad, MoreStreamsThanKeptAndStreamsMadeAnew) {
    std::vector<std::unique_ptr<args_t>> args;
    std::vector<stream> live;
    for (unsigned i = 0; i < 7; ++i) {
        args.emplace_back(new args_t(*lstm, gpu, 10 + i));
        live.emplace_back(gpu);
        lstm->prim.execute(live.back(), args.back()->map);
    }
    for (auto &s : live) s.wait();
    for (unsigned i = 0; i < 7; ++i) expect_near(args[i]->dst(), expected(10 + i));
    // Streams destroyed and made again (possibly at the same addresses).
    for (unsigned i = 0; i < 4; ++i) {
        stream s(gpu);
        lstm->prim.execute(s, args[i]->map);
        lstm->prim.execute(s, args[6 - i]->map);
        s.wait();
    }
    for (unsigned i = 0; i < 7; ++i) expect_near(args[i]->dst(), expected(10 + i));
}

// Several threads enqueueing one primitive on one stream: an execution
// that finds the stream's buffer lent gets its own. Whether two threads'
// kernels really interleave depends on the runtime's timing, so this
// checks the results without being sure to provoke the case (under
// ThreadSanitizer it also checks the cache's locking).
TEST_F(OclScratchpad, ThreadsExecutingOnOneStream) {
    stream s(gpu);
    constexpr unsigned nthr = 4, reps = 5;
    std::vector<std::unique_ptr<args_t>> args;
    for (unsigned i = 0; i < nthr; ++i) args.emplace_back(new args_t(*lstm, gpu, 20 + i));
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < nthr; ++i)
        threads.emplace_back([&, i] {
            for (unsigned r = 0; r < reps; ++r) lstm->prim.execute(s, args[i]->map);
        });
    for (auto &t : threads) t.join();
    s.wait();
    for (unsigned i = 0; i < nthr; ++i) expect_near(args[i]->dst(), expected(20 + i));
}

} // namespace

#endif
