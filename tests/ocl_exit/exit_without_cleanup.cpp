// A program that creates gpu primitives and exits without releasing any of
// them: engines, streams, memory and primitives live in static objects and
// leaked handles, and both caches stay full. The process must still exit
// cleanly (status 0, no crash) whatever order the C++ runtime, the library,
// the OpenCL ICD loader and the driver are unloaded in. Exits 0 at once
// when there is no OpenCL device.
#include <cstdio>
#include <cstdlib>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;

static engine *g_engine = nullptr; // leaked on purpose
static engine g_static_engine; // destroyed by static destruction

int main() {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        std::printf("no OpenCL device: nothing to check\n");
        return 0;
    }
    g_engine = new engine(engine::kind::gpu, 0);
    g_static_engine = engine(engine::kind::gpu, 0);
    auto *s = new stream(*g_engine);
    memory::desc md({64, 64}, memory::data_type::f32, memory::format_tag::ab);
    auto *src = new memory(md, *g_engine);
    auto *dst = new memory(md, g_static_engine);
    const algorithm algs[]
            = {algorithm::eltwise_relu, algorithm::eltwise_tanh};
    for (algorithm alg : algs) {
        auto *p = new eltwise_forward(eltwise_forward::primitive_desc(
                *g_engine, prop_kind::forward_inference, alg, md, md, 0.f, 0.f));
        p->execute(*s, {{DNNL_ARG_SRC, *src}, {DNNL_ARG_DST, *dst}});
    }
    // Work still queued at exit on purpose for the second run mode.
    if (std::getenv("EXIT_WITHOUT_WAIT") == nullptr) s->wait();
    std::printf("exiting with gpu objects alive\n");
    return 0;
}
