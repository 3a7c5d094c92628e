// Engine creation on the gpu engine kind, in milliseconds: the first
// engine (its device's default context is created), then more engines of
// the same index while the first is alive (they share that context). Builds against any oneDNN v3 headers:
//   g++ -O2 -Iinclude -Ibuild/include tools/bench_gpu_engine.cpp -Lbuild/src -ldnnl -lOpenCL
#include <chrono>
#include <cstdio>

#include "oneapi/dnnl/dnnl.hpp"

static double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(
            std::chrono::steady_clock::now() - t0)
            .count();
}

int main() {
    if (dnnl::engine::get_count(dnnl::engine::kind::gpu) == 0) {
        std::printf("no gpu engine\n");
        return 0;
    }
    auto t0 = std::chrono::steady_clock::now();
    dnnl::engine first(dnnl::engine::kind::gpu, 0);
    const double first_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    const int n = 100;
    for (int i = 0; i < n; ++i) {
        dnnl::engine again(dnnl::engine::kind::gpu, 0);
    }
    const double again_ms = ms_since(t0) / n;
    std::printf("engine_create_first_ms %.3f\nengine_create_again_ms %.4f\n",
            first_ms, again_ms);
    return 0;
}
