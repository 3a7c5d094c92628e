// The helpers of api_compat.hpp: each uses the newer API where the API the
// driver is built against has it, and says what is missing where not.
#include "api_compat.hpp"

#include <utility>

namespace bd {

std::string needs_api(const std::string &what, int major, int minor) {
    if (BD_DNNL_AT_LEAST(major, minor)) return "";
    return what + " needs oneDNN >= " + std::to_string(major) + "."
           + std::to_string(minor) + " (built against "
           + std::to_string(DNNL_VERSION_MAJOR) + "."
           + std::to_string(DNNL_VERSION_MINOR) + ")";
}

bool set_fpmath_mode(dnnl::primitive_attr &attr, dnnl::fpmath_mode mode,
        bool apply_to_int, std::string &why) {
#if BD_DNNL_AT_LEAST(3, 4)
    attr.set_fpmath_mode(mode, apply_to_int);
#else
    if (apply_to_int)
        return why = needs_api("--attr-fpmath=MODE:true", 3, 4), false;
    attr.set_fpmath_mode(mode);
#endif
    return true;
}

bool set_accumulation_mode(
        dnnl::primitive_attr &attr, const std::string &mode, std::string &why) {
#if BD_DNNL_AT_LEAST(3, 4)
    using am = dnnl::accumulation_mode;
    static const std::pair<const char *, am> modes[] = {{"strict", am::strict},
            {"relaxed", am::relaxed}, {"any", am::any}, {"f32", am::f32},
            {"s32", am::s32}, {"f16", am::f16}};
    for (const auto &m : modes)
        if (mode == m.first) return attr.set_accumulation_mode(m.second), true;
    return why = "bad --attr-acc-mode", false;
#else
    (void)attr, (void)mode;
    return why = needs_api("--attr-acc-mode", 3, 4), false;
#endif
}

bool set_deterministic(dnnl::primitive_attr &attr, bool on, std::string &why) {
#if BD_DNNL_AT_LEAST(3, 4)
    attr.set_deterministic(on);
    return true;
#else
    // Not deterministic is what an older library does anyway.
    (void)attr;
    if (on) return why = needs_api("--attr-deterministic=true", 3, 4), false;
    return true;
#endif
}

bool set_scales_full(dnnl::primitive_attr &attr, int arg, int mask,
        const std::vector<int64_t> &groups, dnnl::memory::data_type dt, std::string &why) {
#if BD_DNNL_AT_LEAST(3, 4)
    attr.set_scales(arg, mask, dnnl::memory::dims(groups.begin(), groups.end()), dt);
    return true;
#else
    (void)attr, (void)arg, (void)mask, (void)groups, (void)dt;
    return why = needs_api("scales with groups or a data type", 3, 4), false;
#endif
}

bool set_zero_points_full(dnnl::primitive_attr &attr, int arg, int mask,
        const std::vector<int64_t> &groups, dnnl::memory::data_type dt, std::string &why) {
#if BD_DNNL_AT_LEAST(3, 4)
    attr.set_zero_points(arg, mask, dnnl::memory::dims(groups.begin(), groups.end()), dt);
    return true;
#else
    (void)attr, (void)arg, (void)mask, (void)groups, (void)dt;
    return why = needs_api("zero points with groups or a data type", 3, 4), false;
#endif
}

bool rms_norm_flag(dnnl::normalization_flags &flag, std::string &why) {
#if BD_DNNL_AT_LEAST(3, 9)
    flag = dnnl::normalization_flags::rms_norm;
    return true;
#else
    (void)flag;
    return why = needs_api("RMS normalization (--flags=M)", 3, 9), false;
#endif
}

bool lnorm_bwd_takes_shift() {
    return !BD_DNNL_AT_LEAST(3, 8);
}

bool has_group_normalization(std::string &why) {
    why = needs_api("group normalization", 3, 3);
    return why.empty();
}

#if BD_DNNL_AT_LEAST(3, 3)

dnnl::primitive_desc_base gnorm_fwd_pd(const dnnl::engine &eng,
        dnnl::prop_kind prop, const dnnl::memory::desc &src,
        const dnnl::memory::desc &dst, int64_t groups, float eps,
        dnnl::normalization_flags flags, const dnnl::primitive_attr &attr) {
    return dnnl::group_normalization_forward::primitive_desc(
            eng, prop, src, dst, groups, eps, flags, attr);
}

dnnl::primitive_desc_base gnorm_bwd_pd(const dnnl::engine &eng,
        dnnl::prop_kind prop, const dnnl::memory::desc &diff_src,
        const dnnl::memory::desc &diff_dst, const dnnl::memory::desc &src,
        int64_t groups, float eps, dnnl::normalization_flags flags,
        dnnl::prop_kind fwd_prop, const dnnl::primitive_attr &fwd_attr,
        const dnnl::primitive_attr &attr) {
    dnnl::group_normalization_forward::primitive_desc hint(
            eng, fwd_prop, src, diff_dst, groups, eps, flags, fwd_attr);
    return dnnl::group_normalization_backward::primitive_desc(
            eng, prop, diff_src, diff_dst, src, groups, eps, flags, hint, attr);
}

#else

dnnl::primitive_desc_base gnorm_fwd_pd(const dnnl::engine &, dnnl::prop_kind,
        const dnnl::memory::desc &, const dnnl::memory::desc &, int64_t, float,
        dnnl::normalization_flags, const dnnl::primitive_attr &) {
    throw dnnl::error(dnnl_unimplemented, "group normalization");
}

dnnl::primitive_desc_base gnorm_bwd_pd(const dnnl::engine &, dnnl::prop_kind,
        const dnnl::memory::desc &, const dnnl::memory::desc &,
        const dnnl::memory::desc &, int64_t, float, dnnl::normalization_flags,
        dnnl::prop_kind, const dnnl::primitive_attr &,
        const dnnl::primitive_attr &) {
    throw dnnl::error(dnnl_unimplemented, "group normalization");
}

#endif

} // namespace bd
