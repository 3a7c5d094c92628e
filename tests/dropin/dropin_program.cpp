// Binary drop-in check. This program is compiled against the REAL oneDNN
// headers (and linked against the real libdnnl.so.3, without an rpath); it
// is then run with LD_LIBRARY_PATH pointing at our build, so every call it
// makes lands in our library. It checks a few basic behaviours and that the
// libdnnl.so.3 actually loaded is the one in OUR_LIB_DIR.
//
// Usage: dropin_program OUR_LIB_DIR [REFERENCE_PREFIX]
// Prints one line per check and "N passed, M failed"; exit 0 iff M == 0.

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

int passed = 0, failed = 0;

void check(const char *name, const std::function<bool(std::string &)> &body)
{
    std::string why;
    bool ok = false;
    try {
        ok = body(why);
    } catch (const dnnl::error &e) {
        why = std::string("dnnl::error status ") + std::to_string(e.status)
              + ": " + e.what();
    } catch (const std::exception &e) {
        why = std::string("exception: ") + e.what();
    }
    if (ok) {
        ++passed;
        std::printf("ok   %s\n", name);
    } else {
        ++failed;
        std::printf(
                "FAIL %s%s%s\n", name, why.empty() ? "" : ": ", why.c_str());
    }
}

std::string real_path(const std::string &p)
{
    char buf[PATH_MAX];
    return realpath(p.c_str(), buf) ? std::string(buf) : p;
}

std::string dir_of(const std::string &p)
{
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
}

using dims_t = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(
                stderr, "usage: %s OUR_LIB_DIR [REFERENCE_PREFIX]\n", argv[0]);
        return 2;
    }
    // Line-buffered, so that a crash still shows which check ran last.
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const std::string our_dir = real_path(argv[1]);
    const std::string ref_prefix = argc > 2 ? real_path(argv[2]) : "";

    // Which file does the process take dnnl_* from?
    check("libdnnl.so.3 loaded from our build", [&](std::string &why) {
        void *sym = dlsym(RTLD_DEFAULT, "dnnl_engine_create");
        Dl_info info{};
        if (!sym || !dladdr(sym, &info) || !info.dli_fname) {
            why = "dnnl_engine_create not found in the process";
            return false;
        }
        const std::string file = real_path(info.dli_fname);
        why = "loaded " + file + ", expected a file in " + our_dir;
        return dir_of(file) == our_dir;
    });
    if (!ref_prefix.empty()) {
        check("reference libdnnl not mapped", [&](std::string &why) {
            std::ifstream maps("/proc/self/maps");
            std::string line;
            while (std::getline(maps, line)) {
                const auto at = line.find('/');
                if (at == std::string::npos) continue;
                const std::string file = line.substr(at);
                if (file.find("libdnnl") != std::string::npos
                        && file.compare(
                                   0, ref_prefix.size() + 1, ref_prefix + "/")
                                   == 0) {
                    why = "mapped: " + file;
                    return false;
                }
            }
            return true;
        });
    }

    check("dnnl_version() is 3.x", [](std::string &why) {
        const dnnl_version_t *v = dnnl_version();
        if (!v) return false;
        why = "got " + std::to_string(v->major) + "."
              + std::to_string(v->minor);
        std::printf("     version %d.%d.%d\n", v->major, v->minor, v->patch);
        return v->major == 3;
    });

    check("cpu engine and stream", [](std::string &why) {
        if (dnnl::engine::get_count(dnnl::engine::kind::cpu) < 1) {
            why = "no cpu engine";
            return false;
        }
        dnnl::engine eng(dnnl::engine::kind::cpu, 0);
        dnnl::stream s(eng);
        s.wait();
        return eng.get_kind() == dnnl::engine::kind::cpu
               && s.get_engine().get_kind() == dnnl::engine::kind::cpu;
    });

    // Everything below needs a cpu engine; without one, report and stop.
    dnnl::engine eng;
    dnnl::stream strm;
    try {
        eng = dnnl::engine(dnnl::engine::kind::cpu, 0);
        strm = dnnl::stream(eng);
    } catch (const std::exception &e) {
        std::printf("FAIL cannot create a cpu engine: %s\n", e.what());
        std::printf("%d passed, %d failed\n", passed, failed + 1);
        return 1;
    }
    const dims_t shape = {2, 11, 3, 5}; // C=11: two 8-blocks, padded to 16
    const size_t count = 2 * 11 * 3 * 5;

    check("memory descriptors", [&](std::string &why) {
        dnnl::memory::desc plain(shape, dt::f32, tag::nchw);
        dnnl::memory::desc blocked(shape, dt::f32, tag::nChw8c);
        dnnl::memory::desc same(shape, dt::f32, tag::nchw);
        why = "sizes " + std::to_string(plain.get_size()) + ", "
              + std::to_string(blocked.get_size());
        return plain.get_size() == count * 4
               && blocked.get_size() == 2 * 16 * 3 * 5 * 4
               && plain.get_ndims() == 4 && plain.get_dims() == shape
               && plain.get_data_type() == dt::f32 && plain == same
               && !(plain == blocked);
    });

    check("reorder nchw -> nChw8c -> nchw", [&](std::string &why) {
        dnnl::memory::desc plain(shape, dt::f32, tag::nchw);
        dnnl::memory::desc blocked(shape, dt::f32, tag::nChw8c);
        dnnl::memory a(plain, eng), b(blocked, eng), c(plain, eng);
        float *pa = static_cast<float *>(a.get_data_handle());
        for (size_t i = 0; i < count; ++i)
            pa[i] = static_cast<float>(i) * 0.5f - 7.f;
        dnnl::reorder(a, b).execute(strm, a, b);
        dnnl::reorder(b, c).execute(strm, b, c);
        strm.wait();
        // Spot-check the blocked layout by hand.
        const float *pb = static_cast<const float *>(b.get_data_handle());
        const int C = 11, H = 3, W = 5, CB = 2;
        for (int n = 0; n < 2; ++n)
            for (int ch = 0; ch < C; ++ch)
                for (int h = 0; h < H; ++h)
                    for (int w = 0; w < W; ++w) {
                        const size_t src = ((n * C + ch) * H + h) * W + w;
                        const size_t dst =
                                (((n * CB + ch / 8) * H + h) * W + w) * 8
                                + ch % 8;
                        if (pb[dst] != pa[src]) {
                            why = "blocked element " + std::to_string(src);
                            return false;
                        }
                    }
        const float *pc = static_cast<const float *>(c.get_data_handle());
        if (std::memcmp(pa, pc, count * sizeof(float)) != 0) {
            why = "round trip differs";
            return false;
        }
        return true;
    });

    check("eltwise relu forward", [&](std::string &why) {
        dnnl::memory::desc md(shape, dt::f32, tag::nchw);
        dnnl::memory src(md, eng), dst(md, eng);
        float *ps = static_cast<float *>(src.get_data_handle());
        for (size_t i = 0; i < count; ++i)
            ps[i] = (i % 3 == 0 ? -1.f : 1.f) * static_cast<float>(i);
        dnnl::eltwise_forward::primitive_desc pd(eng,
                dnnl::prop_kind::forward_inference,
                dnnl::algorithm::eltwise_relu, md, md);
        dnnl::eltwise_forward(pd).execute(
                strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
        strm.wait();
        const float *pd_ = static_cast<const float *>(dst.get_data_handle());
        for (size_t i = 0; i < count; ++i) {
            const float want = ps[i] > 0.f ? ps[i] : 0.f;
            if (pd_[i] != want) {
                why = "element " + std::to_string(i);
                return false;
            }
        }
        return true;
    });

    check("bad descriptor throws dnnl::error", [&](std::string &why) {
        try {
            dnnl::memory::desc bad({2, -3, 4, 4}, dt::f32, tag::nchw);
        } catch (const dnnl::error &e) {
            why = "status " + std::to_string(e.status);
            return e.status == dnnl_invalid_arguments;
        }
        why = "no exception";
        return false;
    });

    check("mismatched reorder throws dnnl::error", [&](std::string &why) {
        dnnl::memory a({{2, 3, 4, 4}, dt::f32, tag::nchw}, eng);
        dnnl::memory b({{2, 3, 4, 5}, dt::f32, tag::nchw}, eng);
        try {
            dnnl::reorder r(a, b);
        } catch (const dnnl::error &e) {
            return e.status != dnnl_success;
        }
        why = "no exception";
        return false;
    });

    check("C API rejects null arguments", [](std::string &) {
        return dnnl_engine_create(nullptr, dnnl_cpu, 0)
               == dnnl_invalid_arguments;
    });

    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
