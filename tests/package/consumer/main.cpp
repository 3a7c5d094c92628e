// Uses the installed library through its public C++ API: version, a cpu
// engine, a ReLU on a small tensor. With an argument, also checks that the
// libdnnl.so.3 in use lives in that directory.
// Usage: consumer [EXPECTED_LIB_DIR]
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdio>
#include <string>

#include "oneapi/dnnl/dnnl.hpp"

static std::string real_dir(const char *path)
{
    char buf[PATH_MAX];
    std::string p = realpath(path, buf) ? buf : path;
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? p : p.substr(0, slash);
}

int main(int argc, char **argv)
{
    const dnnl::version_t *v = dnnl::version();
    std::printf("dnnl %d.%d.%d\n", v->major, v->minor, v->patch);
    if (v->major != 3) return 1;

    if (argc > 1) {
        Dl_info info{};
        void *sym = dlsym(RTLD_DEFAULT, "dnnl_version");
        if (!sym || !dladdr(sym, &info) || !info.dli_fname) return 1;
        char want[PATH_MAX];
        if (!realpath(argv[1], want)) return 1;
        const std::string got = real_dir(info.dli_fname);
        std::printf("library from %s\n", got.c_str());
        if (got != want) {
            std::fprintf(stderr, "expected the library in %s\n", want);
            return 1;
        }
    }

    try {
        dnnl::engine eng(dnnl::engine::kind::cpu, 0);
        dnnl::stream strm(eng);
        dnnl::memory::desc md({1, 2, 2, 2}, dnnl::memory::data_type::f32,
                dnnl::memory::format_tag::nchw);
        dnnl::memory src(md, eng), dst(md, eng);
        float *s = static_cast<float *>(src.get_data_handle());
        for (int i = 0; i < 8; ++i) s[i] = static_cast<float>(i) - 4.f;
        dnnl::eltwise_forward::primitive_desc pd(eng,
                dnnl::prop_kind::forward_inference,
                dnnl::algorithm::eltwise_relu, md, md);
        dnnl::eltwise_forward(pd).execute(
                strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        strm.wait();
        const float *d = static_cast<const float *>(dst.get_data_handle());
        for (int i = 0; i < 8; ++i)
            if (d[i] != (s[i] > 0.f ? s[i] : 0.f)) {
                std::fprintf(stderr, "wrong relu result at %d\n", i);
                return 1;
            }
    } catch (const dnnl::error &e) {
        std::fprintf(stderr, "dnnl::error %d: %s\n", static_cast<int>(e.status),
                e.what());
        return 1;
    }
    std::printf("consumer OK\n");
    return 0;
}
