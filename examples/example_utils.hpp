// What every example shares: the engine kind from the command line, host
// <-> memory copies that work on every engine (map/unmap), a check that
// throws, and main()'s error handling with its exit codes:
//   0 the example's checks held, 1 a check or a library call failed,
//   2 bad usage or no engine of the asked kind,
//   77 the engine lacks what the example needs (CTest reports a skip).
#ifndef EXAMPLES_EXAMPLE_UTILS_HPP
#define EXAMPLES_EXAMPLE_UTILS_HPP

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

namespace example {

constexpr int skip_code = 77;

// Thrown when a check of the example fails; caught in run_example().
struct check_failed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown when the engine lacks a feature the example needs.
struct not_supported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void expect(bool ok, const std::string &what)
{
    if (!ok) throw check_failed("check failed: " + what);
}

// |got - want| within an absolute plus a relative tolerance.
inline bool close(float got, float want, float tol)
{
    return std::fabs(got - want) <= tol * (1.f + std::fabs(want));
}

// Compares two float vectors, reporting the first element out of tolerance.
inline void expect_close(const std::vector<float> &got,
        const std::vector<float> &want, float tol, const std::string &what)
{
    expect(got.size() == want.size(), what + ": sizes differ");
    for (size_t i = 0; i < got.size(); ++i)
        if (!close(got[i], want[i], tol))
            throw check_failed("check failed: " + what + " at "
                    + std::to_string(i) + ": got " + std::to_string(got[i])
                    + ", want " + std::to_string(want[i]));
}

// Host data into a memory object through map/unmap (a plain pointer on the
// CPU engine, a mapped buffer on OpenCL). `T` is the memory's element type.
template <typename T>
void write_to(const dnnl::memory &mem, const std::vector<T> &src)
{
    T *p = mem.map_data<T>();
    std::memcpy(p, src.data(), src.size() * sizeof(T));
    mem.unmap_data(p);
}

template <typename T>
std::vector<T> read_from(const dnnl::memory &mem)
{
    std::vector<T> out(mem.get_desc().get_size() / sizeof(T));
    const T *p = mem.map_data<T>();
    std::memcpy(out.data(), p, out.size() * sizeof(T));
    mem.unmap_data(const_cast<T *>(p));
    return out;
}

inline size_t product(const dnnl::memory::dims &d)
{
    size_t n = 1;
    for (auto v : d)
        n *= static_cast<size_t>(v);
    return n;
}

// Deterministic values in [lo, hi): a small linear congruential sequence,
// so every run (and every engine) sees the same data.
inline std::vector<float> fill(size_t n, float lo, float hi, unsigned seed)
{
    std::vector<float> v(n);
    unsigned s = seed * 2654435761u + 1u;
    for (auto &x : v) {
        s = s * 1664525u + 1013904223u;
        x = lo + (hi - lo) * static_cast<float>(s >> 8) / 16777216.f;
    }
    return v;
}

// A primitive descriptor the engine may not offer: the library's
// "unimplemented" answer becomes a skip, anything else stays an error.
template <typename F>
auto make_or_skip(F make, const char *what) -> decltype(make())
{
    try {
        return make();
    } catch (const dnnl::error &e) {
        if (e.status == dnnl_unimplemented)
            throw not_supported(std::string(what)
                    + " is not implemented on this engine");
        throw;
    }
}

// Parses "[cpu|gpu]" (default cpu), runs `body`, maps the outcome to the
// exit codes above.
inline int run_example(int argc, char **argv,
        const std::function<void(dnnl::engine::kind)> &body)
{
    dnnl::engine::kind kind = dnnl::engine::kind::cpu;
    const char *name = "CPU";
    if (argc > 1) {
        if (std::strcmp(argv[1], "gpu") == 0) {
            kind = dnnl::engine::kind::gpu;
            name = "GPU";
        } else if (std::strcmp(argv[1], "cpu") != 0) {
            std::fprintf(stderr, "usage: %s [cpu|gpu]\n", argv[0]);
            return 2;
        }
    }
    try {
        if (dnnl::engine::get_count(kind) == 0) {
            std::fprintf(stderr, "No %s engine is available here.\n", name);
            return 2;
        }
        body(kind);
    } catch (const not_supported &e) {
        std::printf("Example skipped on %s: %s.\n", name, e.what());
        return skip_code;
    } catch (const dnnl::error &e) {
        std::fprintf(stderr, "oneDNN error (status %d): %s\n",
                static_cast<int>(e.status), e.what());
        return 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    std::printf("Example passed on %s.\n", name);
    return 0;
}

} // namespace example

#endif
