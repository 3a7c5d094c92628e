// Test hook of the code-generator base (exported as dnnl_test_*):
// tests/cpu/test_jit_eltwise.cpp calls a generated function that
// overwrites every callee-saved register it declared, from a harness
// that checks they come back.
#include <memory>

#include "common/c_types.hpp"
#include "cpu/jit/jit_generator.hpp"

using namespace dnnl::impl::cpu::jit;

// A function void(void) that zeroes rbx, rbp and r12-r15 between the
// base's prologue and epilogue; released with the returned handle.
DNNL_API const void *dnnl_test_jit_abi_probe(void (**fn)(void));
DNNL_API void dnnl_test_jit_abi_probe_release(const void *handle);

const void *dnnl_test_jit_abi_probe(void (**fn)(void)) {
    using namespace Xbyak::util;
    auto g = new jit_generator_t("abi_probe", false, 4096);
    const std::vector<Xbyak::Reg64> regs = {rbx, rbp, r12, r13, r14, r15};
    g->preamble(regs);
    for (const auto &r : regs) g->xor_(r, r);
    g->vxorps(g->vreg(0), g->vreg(0), g->vreg(0));
    g->postamble();
    *fn = reinterpret_cast<void (*)(void)>(const_cast<void *>(g->finalize()));
    return g;
}

void dnnl_test_jit_abi_probe_release(const void *handle) {
    delete static_cast<const jit_generator_t *>(handle);
}
