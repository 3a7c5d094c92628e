// Data type combinations of the gpu convolution passes.
#include "gpu/ocl/convolution/conv_problem.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {
bool is_fp(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}
bool is_int8(data_type_t dt) {
    return dt == dnnl_u8 || dt == dnnl_s8;
}
bool is_out_dt(data_type_t dt) {
    return is_fp(dt) || is_int8(dt) || dt == dnnl_s32;
}
} // namespace

bool conv_types_supported(bool fwd, bool bwd_d, data_type_t sdt,
        data_type_t wdt, data_type_t ddt, data_type_t bdt) {
    // f64: every tensor f64 but an f64 or f32 bias (absent: f32).
    if (sdt == dnnl_f64 || wdt == dnnl_f64 || ddt == dnnl_f64
            || bdt == dnnl_f64)
        return sdt == dnnl_f64 && wdt == dnnl_f64 && ddt == dnnl_f64
               && (bdt == dnnl_f64 || bdt == dnnl_f32);
    if (fwd) {
        if (is_fp(sdt))
            return wdt == sdt && (ddt == dnnl_f32 || ddt == sdt)
                   && (bdt == dnnl_f32 || bdt == sdt);
        return is_int8(sdt) && wdt == dnnl_s8 && is_out_dt(ddt)
               && is_out_dt(bdt);
    }
    if (bwd_d)
        return is_fp(ddt) && wdt == ddt && (sdt == dnnl_f32 || sdt == ddt);
    return is_fp(sdt) && ddt == sdt && (wdt == dnnl_f32 || wdt == sdt)
           && (bdt == dnnl_f32 || bdt == sdt);
}
} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
