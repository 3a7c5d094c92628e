// How many elements an eltwise thread should get at least: cheap
// algorithms only pay for threads on larger arrays. Shared by the
// compiled and the generated forward kernels' drivers.
#pragma once

#include "common/c_types.hpp"
#include "common/math/eltwise_math.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

// A few instructions per element.
inline bool is_cheap(alg_kind_t alg) {
    switch (math::eltwise_base_alg(alg)) {
    case dnnl_eltwise_relu:
    case dnnl_eltwise_square:
    case dnnl_eltwise_abs:
    case dnnl_eltwise_linear:
    case dnnl_eltwise_hardsigmoid:
    case dnnl_eltwise_hardswish:
    case dnnl_eltwise_clip:
    case dnnl_eltwise_clip_v2:
    case dnnl_eltwise_round:
        return true;
    default:
        return false;
    }
}

inline dim_t min_per_thread(alg_kind_t alg) {
    return is_cheap(alg) ? 32 * 1024 : 4 * 1024;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
