// Data types as kernel defines.
#include "gpu/ocl/ocl_types.hpp"

#include "common/math/stochastic_round.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

#include <string>

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

bool kernel_supports(data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_f16:
        case dnnl_bf16:
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_s32: return true;
        default: return false;
    }
}

bool kernel_converts(data_type_t dt) {
    return kernel_supports(dt) || dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
}

bool any_f64(std::initializer_list<const memory_desc_t *> mds) {
    for (const memory_desc_t *md : mds)
        if (md && md->data_type == dnnl_f64) return true;
    return false;
}

bool f64_supported(engine_t *engine, const char *prim,
        std::initializer_list<const memory_desc_t *> mds) {
    if (!any_f64(mds) || device_info_of(engine).has_fp64) return true;
    verbose_check(prim, "gpu: f64 data on a device without cl_khr_fp64");
    return false;
}

void define_data_type(kernel_options_t &opts, const char *name, data_type_t dt) {
    int code = 1;
    const char *type = "float";
    switch (dt) {
        case dnnl_f16: code = 2, type = "half"; break;
        case dnnl_bf16: code = 3, type = "ushort"; break;
        case dnnl_s8: code = 4, type = "char"; break;
        case dnnl_u8: code = 5, type = "uchar"; break;
        case dnnl_s32: code = 6, type = "int"; break;
        case dnnl_f8_e5m2: code = 7, type = "uchar"; break;
        case dnnl_f8_e4m3: code = 8, type = "uchar"; break;
        case dnnl_f64: code = 9, type = "double"; break;
        default: break;
    }
    std::string n(name);
    if (dt == dnnl_f64 && opts.str().find("-DWITH_F64=") == std::string::npos)
        opts.define("WITH_F64", 1);
    opts.define((n + "_DT").c_str(), code);
    opts.define((n + "_T").c_str(), std::string(type));
}

void define_int_type(kernel_options_t &opts, const char *name, data_type_t dt) {
    if (sub_byte_bits(dt)) {
        opts.define((std::string(name) + "_T").c_str(), std::string("uchar"));
        opts.define((std::string(name) + "_INT4").c_str(), dt == dnnl_s4 ? 1 : 0);
    } else {
        define_data_type(opts, name, dt);
    }
}

bool define_stochastic_rounding(kernel_options_t &opts, data_type_t dt) {
    math::sround_params_t p;
    if (!math::sround_params(dt, p)) return false;
    opts.define("WITH_SROUND");
    opts.define("SROUND_DIGITS", p.digits);
    opts.define("SROUND_TWO_BYTE", p.two_byte ? 1 : 0);
    opts.define_float("SROUND_LOWEST", p.lowest);
    opts.define_float("SROUND_MAX", p.max);
    opts.define_float("SROUND_FLUSH", p.flush_below);
    return true;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
