// The driver's uses of oneDNN API newer than 3.2, each in one helper that
// builds against every API from 3.2 on (BD_DNNL_AT_LEAST, api_version.hpp).
// A helper asked for something the API it is built against lacks returns
// false with the reason, and the driver skips the problem with it: a problem
// never runs differently from what it asks for.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api_version.hpp"
#include "oneapi/dnnl/dnnl.hpp"

namespace bd {

// "" when the API is oneDNN major.minor or newer; else why a problem that
// needs `what` is skipped: "WHAT needs oneDNN >= 3.4 (built against 3.2)".
std::string needs_api(const std::string &what, int major, int minor);

// Attributes (oneDNN 3.4): the fpmath mode that also applies to integral
// primitives, accumulation modes by benchdnn's name (strict, relaxed, any,
// f32, s32, f16), determinism. Older APIs take only a plain fpmath mode.
bool set_fpmath_mode(dnnl::primitive_attr &attr, dnnl::fpmath_mode mode,
        bool apply_to_int, std::string &why);
bool set_accumulation_mode(
        dnnl::primitive_attr &attr, const std::string &mode, std::string &why);
bool set_deterministic(dnnl::primitive_attr &attr, bool on, std::string &why);
// Scales and zero points with groups (over the last two dims) and a data
// type (oneDNN 3.4).
bool set_scales_full(dnnl::primitive_attr &attr, int arg, int mask,
        const std::vector<int64_t> &groups, dnnl::memory::data_type dt, std::string &why);
bool set_zero_points_full(dnnl::primitive_attr &attr, int arg, int mask,
        const std::vector<int64_t> &groups, dnnl::memory::data_type dt, std::string &why);

// normalization_flags::rms_norm (oneDNN 3.9).
bool rms_norm_flag(dnnl::normalization_flags &flag, std::string &why);

// Whether layer normalization backward with use_shift counts the shift as an
// input (oneDNN before 3.8 does, and fails an execution without it).
bool lnorm_bwd_takes_shift();

// Group normalization (oneDNN 3.3). The primitive descriptors exist only
// where has_group_normalization() holds; elsewhere they throw.
bool has_group_normalization(std::string &why);
dnnl::primitive_desc_base gnorm_fwd_pd(const dnnl::engine &eng,
        dnnl::prop_kind prop, const dnnl::memory::desc &src,
        const dnnl::memory::desc &dst, int64_t groups, float eps,
        dnnl::normalization_flags flags, const dnnl::primitive_attr &attr);
// The backward descriptor, with its forward hint made from `fwd_prop` and
// `fwd_attr`.
dnnl::primitive_desc_base gnorm_bwd_pd(const dnnl::engine &eng,
        dnnl::prop_kind prop, const dnnl::memory::desc &diff_src,
        const dnnl::memory::desc &diff_dst, const dnnl::memory::desc &src,
        int64_t groups, float eps, dnnl::normalization_flags flags,
        dnnl::prop_kind fwd_prop, const dnnl::primitive_attr &fwd_attr,
        const dnnl::primitive_attr &attr);

} // namespace bd
