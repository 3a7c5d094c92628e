// Creation benchmark, written against the public oneDNN v3 API only, so the
// same binary (built against the real oneDNN headers) runs on oneDNN's
// library and on ours. Prints one "name value unit" line per figure; each
// figure is the median of several timed batches.
//
// Usage: bench_creation [quick]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;
using clk = std::chrono::steady_clock;

namespace {

engine::kind g_kind = engine::kind::cpu;

eltwise_forward::primitive_desc relu_pd(const engine &eng, memory::dim n) {
    memory::desc md({n, 3, 5, 7}, dt::f32, tag::nchw);
    return eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
}

template <typename F>
double median_us(int batches, int reps, F f) {
    std::vector<double> t;
    for (int b = 0; b < batches; ++b) {
        auto t0 = clk::now();
        for (int i = 0; i < reps; ++i) f(b * reps + i);
        t.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count()
                / reps);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

void report(const char *name, double v, const char *unit) {
    std::printf("%-28s %12.3f %s\n", name, v, unit);
    std::fflush(stdout);
}

// Resident memory of the process, bytes.
double rss_bytes() {
    long pages = 0, resident = 0;
    if (FILE *f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return (double)resident * 4096.0;
}

// Cost of one insert into a cache already holding `capacity` entries:
// every creation is a miss that evicts the least recently used entry.
// `bytes_per_entry` receives the resident memory the filled cache added.
double full_cache_insert_us(const engine &eng, int capacity, int batches,
        double *bytes_per_entry = nullptr) {
    set_primitive_cache_capacity(0);
    set_primitive_cache_capacity(capacity);
    const double rss0 = rss_bytes();
    for (int i = 0; i < capacity; ++i) eltwise_forward(relu_pd(eng, 1 + i));
    if (bytes_per_entry) *bytes_per_entry = (rss_bytes() - rss0) / capacity;
    memory::dim next = capacity + 1;
    return median_us(batches, 200, [&](int) { eltwise_forward(relu_pd(eng, next++)); });
}

double hits_per_second(const engine &eng, int nthr, int per_thread) {
    set_primitive_cache_capacity(1024);
    eltwise_forward(relu_pd(eng, 8));
    std::atomic<int> ready {0};
    std::vector<std::thread> th;
    clk::time_point t0;
    std::atomic<bool> go {false};
    for (int t = 0; t < nthr; ++t)
        th.emplace_back([&] {
            ++ready;
            while (!go.load()) std::this_thread::yield();
            for (int k = 0; k < per_thread; ++k) eltwise_forward(relu_pd(eng, 8));
        });
    while (ready.load() < nthr) std::this_thread::yield();
    t0 = clk::now();
    go = true;
    for (auto &t : th) t.join();
    double secs = std::chrono::duration<double>(clk::now() - t0).count();
    return nthr * (double)per_thread / secs;
}

} // namespace

int main(int argc, char **argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "quick") == 0;
    const int batches = quick ? 3 : 9;
    engine eng(g_kind, 0);

    // Each kind: pd + primitive on a hit, pd alone on a hit, and pd +
    // primitive with the cache disabled (every creation a miss).
    memory::desc a({64, 1024}, dt::f32, tag::ab), b({1024, 256}, dt::f32, tag::ab),
            c({64, 256}, dt::f32, tag::ab);
    memory::desc src({1, 64, 28, 28}, dt::f32, tag::any),
            wei({64, 64, 3, 3}, dt::f32, tag::any),
            dst({1, 64, 28, 28}, dt::f32, tag::any);
    auto measure = [&](const char *kind, auto make_pd, auto make_prim) {
        char name[64];
        try {
            set_primitive_cache_capacity(1024);
            make_prim(make_pd());
            std::snprintf(name, sizeof(name), "hit_%s_us", kind);
            report(name, median_us(batches, 1000, [&](int) { make_prim(make_pd()); }), "us");
            std::snprintf(name, sizeof(name), "hit_pd_%s_us", kind);
            report(name, median_us(batches, 1000, [&](int) { make_pd(); }), "us");
            set_primitive_cache_capacity(0);
            std::snprintf(name, sizeof(name), "miss_%s_us", kind);
            report(name, median_us(batches, 50, [&](int) { make_prim(make_pd()); }), "us");
        } catch (const error &) { std::printf("%s skipped\n", kind); }
    };
    measure("eltwise", [&] { return relu_pd(eng, 8); },
            [](const eltwise_forward::primitive_desc &pd) { return eltwise_forward(pd); });
    measure("matmul", [&] { return matmul::primitive_desc(eng, a, b, c); },
            [](const matmul::primitive_desc &pd) { return matmul(pd); });
    measure("conv",
            [&] {
                return convolution_forward::primitive_desc(eng,
                        prop_kind::forward_inference,
                        algorithm::convolution_direct, src, wei, dst, {1, 1},
                        {1, 1}, {1, 1});
            },
            [](const convolution_forward::primitive_desc &pd) {
                return convolution_forward(pd);
            });

    report("insert_full_1k_us", full_cache_insert_us(eng, 1024, batches), "us");
    double bytes = 0;
    report("insert_full_64k_us",
            full_cache_insert_us(eng, quick ? 8192 : 65536, batches, &bytes),
            "us");
    report("rss_per_entry", bytes, "bytes");

    for (int nthr : {1, 2, 8, 16, 32}) {
        char name[64];
        std::snprintf(name, sizeof(name), "hits_per_s_%dthr", nthr);
        std::vector<double> r;
        for (int b = 0; b < (quick ? 1 : 3); ++b)
            r.push_back(hits_per_second(eng, nthr, (quick ? 20000 : 80000) / nthr));
        std::sort(r.begin(), r.end());
        report(name, r[r.size() / 2], "1/s");
    }
    set_primitive_cache_capacity(1024);
    return 0;
}
