// The seed argument of stochastic rounding (DNNL_ARG_ATTR_ROUNDING_SEED):
// one s32 value, read the same way by every implementation that rounds.
#pragma once

#include <cstdint>
#include <cstring>

#include "common/exec_ctx.hpp"
#include "common/memory.hpp"

namespace dnnl {
namespace impl {

// dnnl_invalid_arguments when the argument is absent or holds less than
// one 32-bit value.
inline status_t read_rounding_seed(const exec_ctx_t &ctx, uint32_t &seed) {
    const memory_t *m = ctx.memory(DNNL_ARG_ATTR_ROUNDING_SEED);
    const void *p = m ? m->host_ptr(0) : nullptr;
    if (!p || md_size(m->md()) < sizeof(uint32_t)) return dnnl_invalid_arguments;
    std::memcpy(&seed, p, sizeof(seed));
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
