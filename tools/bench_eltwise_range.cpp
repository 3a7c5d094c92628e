// Eltwise forward time against the range of the input values, written
// against the public oneDNN v3 API only, so the same source built against
// the real oneDNN headers runs on oneDNN's library and on ours. Inputs
// spread uniformly over [-R, R]: where an algorithm's exponential
// underflows (|x| beyond about 87, gelu beyond 13), a kernel that forms
// subnormal numbers pays a microcode assist per operation, and its time
// grows with R. Prints "alg R median_ms" lines (median of 50 runs).
//
// Build: g++ -O2 -std=c++11 -Iinclude -I<build>/include
//            tools/bench_eltwise_range.cpp -L<lib dir> -ldnnl
// Usage: bench_eltwise_range [alg ...]   (default: the exponential family)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;

namespace {

struct alg_name_t {
    const char *name;
    algorithm alg;
};

const alg_name_t algs[] = {{"exp", algorithm::eltwise_exp},
        {"logistic", algorithm::eltwise_logistic},
        {"swish", algorithm::eltwise_swish},
        {"gelu_erf", algorithm::eltwise_gelu_erf},
        {"gelu_tanh", algorithm::eltwise_gelu_tanh},
        {"mish", algorithm::eltwise_mish}, {"tanh", algorithm::eltwise_tanh},
        {"elu", algorithm::eltwise_elu},
        {"soft_relu", algorithm::eltwise_soft_relu}};

double median_ms(
        const eltwise_forward &p, stream &s, memory &src, memory &dst) {
    std::vector<double> t;
    for (int r = 0; r < 50; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        p.execute(s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        s.wait();
        t.push_back(std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - t0)
                            .count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
    engine eng(engine::kind::cpu, 0);
    stream s(eng);
    const memory::dim n = 384 * 3072;
    const memory::desc md({n}, memory::data_type::f32, memory::format_tag::a);
    std::vector<float> x((size_t)n), y((size_t)n);
    memory src(md, eng, x.data()), dst(md, eng, y.data());
    for (const alg_name_t &a : algs) {
        bool wanted = argc < 2;
        for (int i = 1; i < argc; ++i)
            wanted = wanted || std::strcmp(argv[i], a.name) == 0;
        if (!wanted) continue;
        const eltwise_forward::primitive_desc pd(
                eng, prop_kind::forward_inference, a.alg, md, md, 1.f, 0.f);
        const eltwise_forward p(pd);
        for (float range : {3.f, 20.f, 100.f, 1000.f}) {
            std::mt19937 gen(1);
            std::uniform_real_distribution<float> d(-range, range);
            for (float &v : x) v = d(gen);
            std::printf(
                    "%s %g %.4f\n", a.name, range, median_ms(p, s, src, dst));
        }
    }
    return 0;
}
