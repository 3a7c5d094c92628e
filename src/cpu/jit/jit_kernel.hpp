// A generated kernel as the kernel cache keeps it, and fetching it through
// the kernel cache (verbose create:kernel_cache_hit / miss); running a
// generator into one is generate_kernel in jit_generator.hpp. A JIT
// kernel family supplies only its configuration, its cache key, its
// generator and its entry-point type.
#pragma once

#include <memory>
#include <string>

#include "common/kernel_cache.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

template <typename Fn>
struct generated_kernel_t : public kernel_cache::value_impl_t {
    Fn fn = nullptr;
    std::string name;
    size_t code_size = 0;
    size_t footprint() const override { return code_size; }
    std::shared_ptr<void> code_owner; // the generator, owner of the code
};

// The kernel of `cfg` from the kernel cache under Key(cfg), made by
// `generate` on a miss; `hit` tells whether it was reused.
template <typename Key, typename Fn, typename Cfg>
status_t get_cached_kernel(const Cfg &cfg,
        status_t (*generate)(
                const Cfg &, std::shared_ptr<generated_kernel_t<Fn>> &),
        std::shared_ptr<const generated_kernel_t<Fn>> &out, bool &hit) {
    struct request_t {
        const Cfg *cfg;
        decltype(generate) gen;
    } request {&cfg, generate};
    auto create = [](void *p) {
        const auto &rq = *static_cast<const request_t *>(p);
        std::shared_ptr<generated_kernel_t<Fn>> k;
        kernel_cache::result_t r;
        r.status = rq.gen(*rq.cfg, k);
        r.value = k;
        return r;
    };
    const double t0 = verbose_now_ms();
    kernel_cache::key_t key(std::make_shared<Key>(cfg));
    auto r = kernel_cache::get_or_create(key, create, &request, hit);
    if (r.status != dnnl_success) return r.status;
    out = std::static_pointer_cast<const generated_kernel_t<Fn>>(r.value);
    verbose_print_kernel_create(hit, "jit:" + out->name, verbose_now_ms() - t0);
    return dnnl_success;
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
