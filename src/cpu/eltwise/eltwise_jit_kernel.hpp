// The generated forward eltwise kernel: f32 in, f32 out, any length, one
// algorithm with its alpha/beta baked in. Its code depends only on the
// kernel configuration (ISA, algorithm, alpha, beta), never on the shape,
// so it lives in the global kernel cache and every primitive with the
// same configuration shares it.
#pragma once

#include <memory>
#include <string>

#include "common/c_types.hpp"
#include "common/kernel_cache.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/jit/jit_kernel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

// A vector level the generator emits for; the JIT table in
// eltwise_kernel_table.cpp lists them best first.
struct jit_target_t {
    cpu_isa_t isa;
    const char *isa_name;
    bool zmm;
};

// src / dst in memory: f32, or bf16 / f16 converted in registers (on
// zmm targets only: jit_converts()).
struct jit_kernel_config_t {
    const jit_target_t *target;
    alg_kind_t alg;
    float alpha, beta;
    data_type_t sdt = dnnl_f32, ddt = dnnl_f32;
};

// Whether the kernel for `target` loads src of type sdt and stores dst of
// type ddt itself.
bool jit_converts(const jit_target_t &target, data_type_t sdt, data_type_t ddt);

// dst[i] = f(src[i]) for i < n, src of type sdt and dst of type ddt; src
// and dst may be the same array.
using jit_fwd_fn = void (*)(const void *src, void *dst, size_t n);

using jit_kernel_t = jit::generated_kernel_t<jit_fwd_fn>;

// The kernel's name (eltwise_kernel_name.hpp):
// <types>_eltwise_<alg>_u<n>__<isa>, n elements per iteration of the
// unrolled main loop.
std::string jit_kernel_name(const jit_kernel_config_t &cfg);

// Generates the kernel (no cache); null with a status on failure.
status_t generate_jit_kernel(
        const jit_kernel_config_t &cfg, std::shared_ptr<jit_kernel_t> &out);

// The kernel for `cfg` through the kernel cache; `hit` tells whether it
// was reused. Prints create:kernel_cache_hit/miss under verbose.
status_t get_jit_kernel(const jit_kernel_config_t &cfg,
        std::shared_ptr<const jit_kernel_t> &out, bool &hit);

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
