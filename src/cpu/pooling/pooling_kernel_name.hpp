// The implementation name of the f32 pooling walks (pooling_fast.hpp) in
// kernel-name form (cpu/kernel_name.hpp): f32_pool_rows__<isa> for the
// ncsp row walk, f32_pool_cvec<width>__<isa> for the channel-vector walk
// on groups of 64, 16 or 8 contiguous lanes, f32_pool_ncsp16__<isa> for
// its ncsp form (16 channel rows transposed at a time).
#pragma once

#include <string>

#include "cpu/kernel_name.hpp"
#include "cpu/pooling/pooling_fast.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

inline std::string cv_kernel_name(const cv_plan_t &p, const char *isa) {
    const std::string op = p.kind == cv_kind_t::ncsp
            ? "pool_ncsp16"
            : "pool_cvec" + std::to_string(p.gw);
    return kernel_name("f32", op, isa);
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
