// Performance profiling: three ways to run convolution + ReLU, timed with
// a wall clock (median of repeated executions), then one of them under
// the library's verbose mode, which prints for every primitive its
// creation (cache miss or hit) and execution with the implementation
// chosen, the memory layouts and the time in milliseconds:
//   naive:   plain nchw layouts, ReLU as its own primitive;
//   blocked: layouts chosen by the convolution (format `any`), reorders at
//            the edges, ReLU separate;
//   fused:   as blocked, ReLU fused as a post-op (one pass over the data).
// The verbose lines are captured here (stdout redirected into a file) to
// show how a program can read them; usually one just sets
// ONEDNN_VERBOSE=1 (executions) or 2 (creations too) in the environment.
// Checks: the three variants agree, and the verbose output has a creation
// and an execution line for the fused convolution with a time.
//
// Usage: performance_profiling [cpu|gpu]

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <unistd.h>

#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

const memory::dims src_dims = {2, 32, 28, 28};
const memory::dims wei_dims = {64, 32, 3, 3};
const memory::dims dst_dims = {2, 64, 28, 28};

// Median wall time of `reps` runs of `run` in milliseconds (stream waited).
template <typename F>
double median_ms(stream &strm, int reps, F run)
{
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        run();
        strm.wait();
        t.push_back(std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - t0)
                            .count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct variant {
    const char *name;
    bool any_layouts, fused;
};

// Builds and times one variant; returns its nchw output. With `log`,
// creates and runs it once more with verbose level 2 and appends what the
// library printed to `*log`.
std::vector<float> run_variant(const engine &eng, stream &strm,
        const variant &v, const memory &user_src, const memory &user_wei,
        std::string *log)
{
    const tag a = v.any_layouts ? tag::any : tag::nchw;
    primitive_attr attr;
    if (v.fused) {
        post_ops po;
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        attr.set_post_ops(po);
    }
    convolution_forward::primitive_desc pd(eng, prop_kind::forward_inference,
            algorithm::convolution_direct, {src_dims, dt::f32, a},
            {wei_dims, dt::f32, v.any_layouts ? tag::any : tag::oihw},
            {dst_dims, dt::f32, a}, {1, 1}, {1, 1}, {1, 1}, attr);
    eltwise_forward::primitive_desc relu_pd(eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, pd.dst_desc(), pd.dst_desc(), 0.f, 0.f);

    memory src = user_src, wei = user_wei;
    if (pd.src_desc() != user_src.get_desc()) {
        src = memory(pd.src_desc(), eng);
        reorder(user_src, src).execute(
                strm, {{DNNL_ARG_FROM, user_src}, {DNNL_ARG_TO, src}});
    }
    if (pd.weights_desc() != user_wei.get_desc()) {
        wei = memory(pd.weights_desc(), eng);
        reorder(user_wei, wei).execute(
                strm, {{DNNL_ARG_FROM, user_wei}, {DNNL_ARG_TO, wei}});
    }
    memory dst(pd.dst_desc(), eng);
    convolution_forward conv(pd);
    eltwise_forward relu(relu_pd);
    auto run = [&] {
        conv.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                                   {DNNL_ARG_DST, dst}});
        if (!v.fused)
            relu.execute(strm, {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}});
    };
    run(); // warm-up: first-touch of memory, kernels loaded
    std::printf("%-8s %8.3f ms  (%s)\n", v.name, median_ms(strm, 10, run),
            pd.impl_info_str());

    if (log) {
        // The primitive is created again under verbose, stdout captured in
        // a temporary file. The first creation filled the primitive cache;
        // emptying it makes this one a miss, so both lines appear.
        std::fflush(stdout);
        const int saved = dup(1);
        std::FILE *tmp = std::tmpfile();
        example::expect(saved >= 0 && tmp, "stdout redirection");
        dup2(fileno(tmp), 1);
        set_verbose(2);
        set_primitive_cache_capacity(0); // empty: this creation is a miss
        set_primitive_cache_capacity(1024);
        convolution_forward again(pd);
        again.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                                    {DNNL_ARG_DST, dst}});
        strm.wait();
        set_verbose(0);
        std::fflush(stdout);
        dup2(saved, 1);
        close(saved);
        std::rewind(tmp);
        char buf[4096];
        size_t got;
        while ((got = std::fread(buf, 1, sizeof(buf), tmp)) > 0)
            log->append(buf, got);
        std::fclose(tmp);
    }

    memory out({dst_dims, dt::f32, tag::nchw}, eng);
    reorder(dst, out).execute(strm, {{DNNL_ARG_FROM, dst}, {DNNL_ARG_TO, out}});
    strm.wait();
    return example::read_from<float>(out);
}

// The last comma-separated field of a line, as a number.
double last_field(const std::string &line)
{
    return std::atof(line.substr(line.rfind(',') + 1).c_str());
}

void profile(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);
    memory user_src({src_dims, dt::f32, tag::nchw}, eng);
    memory user_wei({wei_dims, dt::f32, tag::oihw}, eng);
    example::write_to(user_src, example::fill(example::product(src_dims), -1, 1, 61));
    example::write_to(user_wei, example::fill(example::product(wei_dims), -0.1, 0.1, 62));

    const variant variants[] = {{"naive", false, false},
            {"blocked", true, false}, {"fused", true, true}};
    std::string log;
    std::vector<std::vector<float>> out;
    for (const auto &v : variants)
        out.push_back(run_variant(eng, strm, v, user_src, user_wei,
                v.fused ? &log : nullptr));
    example::expect_close(out[1], out[0], 1e-4f, "blocked equals naive");
    example::expect_close(out[2], out[0], 1e-4f, "fused equals naive");

    // What verbose said about the fused convolution.
    bool created = false, executed = false;
    size_t pos = 0;
    while (pos < log.size()) {
        const size_t end = std::min(log.find('\n', pos), log.size());
        const std::string line = log.substr(pos, end - pos);
        pos = end + 1;
        if (line.find(",convolution,") == std::string::npos) continue;
        std::printf("verbose: %s\n", line.c_str());
        if (line.find(",create:cache_miss,") != std::string::npos)
            created = true;
        if (line.find(",exec,") != std::string::npos && last_field(line) > 0
                && line.find("eltwise_relu") != std::string::npos)
            executed = true;
    }
    example::expect(created, "verbose creation line of the convolution");
    example::expect(executed,
            "verbose execution line with the fused ReLU and a time");
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, profile);
}
