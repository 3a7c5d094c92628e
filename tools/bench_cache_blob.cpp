// Cache blobs and the disk cache on the gpu engine, in milliseconds:
//   * first creation of one primitive: cold (compiled), from its primitive
//     blob, from the disk cache (a process whose cache directory holds it);
//   * engine creation cold and from an engine blob (which loads the
//     programs it carries), each followed by the first primitive creation;
//   * whole second process start (process launch to exit) of a program
//     creating a dozen primitives, without and with the disk cache.
// Every measurement runs in a fresh process (this program started again
// with a mode argument). Set POCL_KERNEL_CACHE=0 to measure PoCL without
// its own on-disk compiler cache. Builds like the other tools:
//   g++ -O2 -Iinclude -Ibuild/include tools/bench_cache_blob.cpp
//       -Lbuild/src -ldnnl -lOpenCL
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

using namespace dnnl;
using clk = std::chrono::steady_clock;

namespace {

double ms_since(clk::time_point t0) {
    return std::chrono::duration<double, std::milli>(clk::now() - t0).count();
}

// The measured primitive: a convolution with a fused ReLU.
convolution_forward::primitive_desc conv_pd(const engine &eng) {
    using tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    memory::desc src({2, 32, 28, 28}, f32, tag::nhwc);
    memory::desc wei({64, 32, 3, 3}, f32, tag::any);
    memory::desc dst({2, 64, 26, 26}, f32, tag::nhwc);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    return convolution_forward::primitive_desc(eng,
            prop_kind::forward_inference, algorithm::convolution_direct, src,
            wei, dst, {1, 1}, {0, 0}, {0, 0}, attr);
}

// A dozen primitives of several families.
void create_dozen(const engine &eng) {
    const auto f32 = memory::data_type::f32;
    memory::desc md({64, 256}, f32, memory::format_tag::ab);
    for (algorithm alg : {algorithm::eltwise_relu, algorithm::eltwise_tanh,
                 algorithm::eltwise_gelu_erf, algorithm::eltwise_swish})
        eltwise_forward(eltwise_forward::primitive_desc(
                eng, prop_kind::forward_inference, alg, md, md, 0.f, 0.f));
    for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log})
        softmax_forward(softmax_forward::primitive_desc(
                eng, prop_kind::forward_inference, alg, md, md, 1));
    memory::desc w({256, 128}, f32, memory::format_tag::ab);
    memory::desc o({64, 128}, f32, memory::format_tag::ab);
    matmul(matmul::primitive_desc(eng, md, w, o));
    binary(binary::primitive_desc(eng, algorithm::binary_mul, md, md, md));
    layer_normalization_forward(layer_normalization_forward::primitive_desc(eng,
            prop_kind::forward_inference, md, md, 1e-5f,
            normalization_flags::none));
    memory::desc a({2, 16, 8, 8}, f32, memory::format_tag::nchw);
    memory::desc b({2, 16, 8, 8}, f32, memory::format_tag::nhwc);
    reorder(reorder::primitive_desc(eng, a, eng, b));
    convolution_forward(conv_pd(eng));
    memory::desc pd({2, 16, 4, 4}, f32, memory::format_tag::nchw);
    pooling_forward(pooling_forward::primitive_desc(eng,
            prop_kind::forward_inference, algorithm::pooling_max, a, pd,
            {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}));
}

void write_file(const std::string &path, const std::vector<uint8_t> &b) {
    std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char *>(b.data()), b.size());
}
std::vector<uint8_t> read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), {});
}

// ---- modes, each in its own process; each prints "<name> <ms>" ----

int mode(const std::string &m, const std::string &dir) {
    engine eng(engine::kind::gpu, 0);
    if (m == "cold") { // also saves both blobs for the next modes
        auto t0 = clk::now();
        convolution_forward p(conv_pd(eng));
        std::printf("primitive_cold %.2f\n", ms_since(t0));
        write_file(dir + "/conv.blob", p.get_cache_blob());
        write_file(dir + "/engine.blob", ocl_interop::get_engine_cache_blob(eng));
    } else if (m == "from_blob") {
        const auto blob = read_file(dir + "/conv.blob");
        auto t0 = clk::now();
        convolution_forward p(conv_pd(eng), blob);
        std::printf("primitive_from_blob %.2f\n", ms_since(t0));
    } else if (m == "disk") { // the directory holds the entry already
        auto t0 = clk::now();
        convolution_forward p(conv_pd(eng));
        std::printf("primitive_from_disk %.2f\n", ms_since(t0));
    } else if (m == "dozen") {
        create_dozen(eng);
    }
    return 0;
}

int engine_mode(const std::string &m, const std::string &dir) {
    // Not through engine(kind, 0) first: the first engine of the process.
    auto t0 = clk::now();
    engine eng;
    if (m == "engine_cold") {
        eng = engine(engine::kind::gpu, 0);
    } else {
        const auto blob = read_file(dir + "/engine.blob");
        // The device and a context of our own, as an interop user has.
        cl_platform_id plat;
        clGetPlatformIDs(1, &plat, nullptr);
        engine probe(engine::kind::gpu, 0);
        cl_device_id dev = ocl_interop::get_device(probe);
        cl_int err;
        cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
        t0 = clk::now();
        eng = ocl_interop::make_engine(dev, ctx, blob);
        clReleaseContext(ctx);
    }
    const double e_ms = ms_since(t0);
    t0 = clk::now();
    convolution_forward p(conv_pd(eng));
    std::printf("%s %.2f\n%s_then_primitive %.2f\n", m.c_str(), e_ms,
            m.c_str(), ms_since(t0));
    return 0;
}

std::string self;

double run_child(const std::string &env, const std::string &args) {
    auto t0 = clk::now();
    const std::string cmd = env + " " + self + " " + args;
    if (std::system(cmd.c_str()) != 0) std::printf("failed: %s\n", cmd.c_str());
    return ms_since(t0);
}

} // namespace

int main(int argc, char **argv) {
    if (engine::get_count(engine::kind::gpu) == 0) {
        std::printf("no gpu engine\n");
        return 0;
    }
    if (argc > 2) {
        const std::string m = argv[1];
        if (m.rfind("engine_", 0) == 0) return engine_mode(m, argv[2]);
        return mode(m, argv[2]);
    }
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n <= 0) return 1;
    self.assign(buf, (size_t)n);
    char tmpl[] = "/tmp/bench_cache_blob_XXXXXX";
    if (!mkdtemp(tmpl)) return 1;
    const std::string dir = tmpl, cache = "ONEDNN_DISK_CACHE_DIR=" + dir + "/disk";

    run_child("", "cold " + dir);
    run_child("", "from_blob " + dir);
    run_child(cache, "dozen " + dir); // fills the disk cache
    run_child(cache, "disk " + dir);
    run_child("", "engine_cold " + dir);
    run_child("", "engine_from_blob " + dir);
    const int reps = 3;
    double plain = 0, disk = 0, empty = 0, empty_disk = 0;
    for (int i = 0; i < reps; ++i) {
        plain += run_child("", "dozen " + dir) / reps;
        disk += run_child(cache, "dozen " + dir) / reps;
    }
    // Process start and exit alone (no primitive), for reference; with the
    // disk cache the engine reads its device's engine entry.
    for (int i = 0; i < reps; ++i) {
        empty += run_child("", "none " + dir) / reps;
        empty_disk += run_child(cache, "none " + dir) / reps;
    }
    std::printf("process_dozen_without_disk_cache %.1f\n"
                "process_dozen_with_disk_cache %.1f\n"
                "process_engine_only %.1f\n"
                "process_engine_only_with_disk_cache %.1f\n",
            plain, disk, empty, empty_disk);
    std::system(("rm -rf " + dir).c_str());
    return 0;
}
