// Test hook of the generated eltwise kernels (exported as dnnl_test_*,
// like the kernel tables' hook): tests/cpu/test_jit_eltwise.cpp runs the
// kernel of every JIT table entry the processor supports, generated
// afresh or taken from the kernel cache, and reads its bytes.
#include <memory>

#include "cpu/eltwise/eltwise_jit_kernel.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"
#include "cpu/jit/eltwise_injector.hpp"

using namespace dnnl::impl::cpu;
using namespace dnnl::impl::cpu::eltwise;

// The kernel of JIT table entry `entry` for (alg, alpha, beta): a handle
// for dnnl_test_jit_eltwise_release, with the entry's ISA, the function
// and its code (pool included). Null past the table's end or for an
// algorithm the generator does not emit.
DNNL_API const void *dnnl_test_jit_eltwise_kernel(int entry, int alg,
        float alpha, float beta, int through_cache, unsigned *isa,
        void (**fn)(const float *, float *, size_t), const unsigned char **code,
        size_t *code_size);
DNNL_API void dnnl_test_jit_eltwise_release(const void *handle);

const void *dnnl_test_jit_eltwise_kernel(int entry, int alg, float alpha,
        float beta, int through_cache, unsigned *isa,
        void (**fn)(const float *, float *, size_t), const unsigned char **code,
        size_t *code_size) {
    const auto &table = jit_table();
    if (entry < 0 || (size_t)entry >= table.size()) return nullptr;
    const auto a = (dnnl_alg_kind_t)alg;
    if (!jit::eltwise_injector_t::supports(a, alpha, beta)) return nullptr;
    const jit_kernel_config_t cfg{table[(size_t)entry].kernels, a, alpha, beta};
    std::shared_ptr<const jit_kernel_t> k;
    if (through_cache) {
        bool hit = false;
        if (get_jit_kernel(cfg, k, hit) != dnnl_success) return nullptr;
    } else {
        std::shared_ptr<jit_kernel_t> fresh;
        if (generate_jit_kernel(cfg, fresh) != dnnl_success) return nullptr;
        k = fresh;
    }
    if (isa) *isa = table[(size_t)entry].isa;
    // An f32 kernel (the hook's configurations keep f32 data): its
    // pointers are the float arrays the hook's signature names.
    if (fn)
        *fn = reinterpret_cast<void (*)(const float *, float *, size_t)>(k->fn);
    if (code) *code = reinterpret_cast<const unsigned char *>(k->fn);
    if (code_size) *code_size = k->code_size;
    return new std::shared_ptr<const jit_kernel_t>(std::move(k));
}

void dnnl_test_jit_eltwise_release(const void *handle) {
    delete static_cast<const std::shared_ptr<const jit_kernel_t> *>(handle);
}
