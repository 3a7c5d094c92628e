// f32 matmul throughput on the gpu engine, written against the public
// oneDNN v3 API only (so the same source builds against real oneDNN).
// For each shape: the implementation chosen, the median time of one
// execution (batches of back-to-back executions, each batch timed on the
// host up to stream.wait(), divided by its size), TFLOP/s, and the largest
// relative error of 64 sampled elements against a double-precision dot
// product.
//
// Usage: bench_gpu_matmul [MxNxK ...]   (default: the doc/performance.md set)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using clk = std::chrono::steady_clock;

namespace {

struct shape_t {
    memory::dim M, N, K;
};

void fill(memory &m, std::mt19937 &gen) {
    float *p = static_cast<float *>(m.map_data());
    const size_t n = m.get_desc().get_size() / sizeof(float);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (size_t i = 0; i < n; ++i) p[i] = u(gen);
    m.unmap_data(p);
}

void bench(const engine &eng, stream &s, const shape_t &sh) {
    using tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    memory::desc a({sh.M, sh.K}, f32, tag::ab), b({sh.K, sh.N}, f32, tag::ab),
            c({sh.M, sh.N}, f32, tag::ab);
    matmul::primitive_desc pd(eng, a, b, c);
    matmul mm(pd);
    memory am(a, eng), bm(b, eng), cm(c, eng);
    std::mt19937 gen(17);
    fill(am, gen);
    fill(bm, gen);
    const std::unordered_map<int, memory> args = {
            {DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}};
    auto batch_ms = [&](int reps) {
        auto t0 = clk::now();
        for (int i = 0; i < reps; ++i) mm.execute(s, args);
        s.wait();
        return std::chrono::duration<double, std::milli>(clk::now() - t0)
                       .count()
               / reps;
    };
    batch_ms(3); // warm-up: program load, clocks
    const double one = batch_ms(1);
    const int reps =
            std::max(1, std::min(200, (int)(50.0 / std::max(one, 1e-3))));
    std::vector<double> t;
    for (int i = 0; i < 11; ++i) t.push_back(batch_ms(reps));
    std::sort(t.begin(), t.end());
    const double ms = t[t.size() / 2];

    // Sampled check.
    const float *pa = static_cast<const float *>(am.map_data());
    const float *pb = static_cast<const float *>(bm.map_data());
    const float *pc = static_cast<const float *>(cm.map_data());
    double maxerr = 0;
    std::uniform_int_distribution<memory::dim> um(0, sh.M - 1), un(0, sh.N - 1);
    for (int i = 0; i < 64; ++i) {
        const memory::dim m = um(gen), n = un(gen);
        double ref = 0, mag = 0;
        for (memory::dim k = 0; k < sh.K; ++k) {
            ref += (double)pa[m * sh.K + k] * pb[k * sh.N + n];
            mag += std::fabs((double)pa[m * sh.K + k] * pb[k * sh.N + n]);
        }
        maxerr = std::max(maxerr, std::fabs(pc[m * sh.N + n] - ref) / mag);
    }
    am.unmap_data(const_cast<float *>(pa));
    bm.unmap_data(const_cast<float *>(pb));
    cm.unmap_data(const_cast<float *>(pc));
    const double tflops = 2.0 * sh.M * sh.N * sh.K / (ms * 1e-3) / 1e12;
    std::printf(
            "matmul_f32 %ldx%ldx%ld %-28s %9.4f ms %7.2f TFLOP/s err %.1e\n",
            (long)sh.M, (long)sh.N, (long)sh.K, pd.impl_info_str(), ms, tflops,
            maxerr);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
    std::vector<shape_t> shapes;
    for (int i = 1; i < argc; ++i) {
        long m, n, k;
        if (std::sscanf(argv[i], "%ldx%ldx%ld", &m, &n, &k) == 3)
            shapes.push_back({m, n, k});
    }
    if (shapes.empty())
        shapes = {{2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192},
                {384, 3072, 768}, {128, 11008, 4096}};
    if (engine::get_count(engine::kind::gpu) == 0) {
        std::printf("no gpu engine\n");
        return 1;
    }
    engine eng(engine::kind::gpu, 0);
    stream s(eng);
    for (const auto &sh : shapes) bench(eng, s, sh);
    return 0;
}
