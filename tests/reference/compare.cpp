// ULP-aware comparison of results with references; see compare.hpp.
#include "reference/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace ref {

namespace {

// A binary floating-point format: p significand bits (with the implicit
// one), smallest normal exponent emin, largest finite value.
struct fp_format_t {
    int p;
    int emin;
    double max;
    bool has_inf;
};

bool fp_format(dnnl_data_type_t dt, fp_format_t &f) {
    switch (dt) {
        case dnnl_f64:
            f = {53, -1022, std::numeric_limits<double>::max(), true};
            return true;
        case dnnl_f32:
            f = {24, -126, (double)std::numeric_limits<float>::max(), true};
            return true;
        case dnnl_bf16:
            f = {8, -126, std::ldexp(255.0 / 128.0, 127), true};
            return true;
        case dnnl_f16: f = {11, -14, 65504.0, true}; return true;
        case dnnl_f8_e5m2: f = {3, -14, 57344.0, true}; return true;
        case dnnl_f8_e4m3: f = {4, -6, 448.0, false}; return true;
        case dnnl_f4_e2m1: f = {2, 0, 6.0, false}; return true;
        case dnnl_f4_e3m0: f = {1, -2, 16.0, false}; return true;
        case dnnl_e8m0: f = {1, -127, std::ldexp(1.0, 127), false}; return true;
        default: return false;
    }
}

bool int_range(dnnl_data_type_t dt, double &lo, double &hi) {
    switch (dt) {
        case dnnl_s8: lo = -128; hi = 127; return true;
        case dnnl_u8: lo = 0; hi = 255; return true;
        case dnnl_s32: lo = -2147483648.0; hi = 2147483647.0; return true;
        case dnnl_s4: lo = -8; hi = 7; return true;
        case dnnl_u4: lo = 0; hi = 15; return true;
        case dnnl_boolean: lo = 0; hi = 1; return true;
        case dnnl_s64:
            lo = -9223372036854775808.0;
            hi = 9223372036854775807.0;
            return true;
        default: return false;
    }
}

// Exponent e with 2^e <= |x| < 2^(e+1), clamped below at emin.
int exponent_of(double x, int emin) {
    if (x == 0 || !std::isfinite(x)) return emin;
    int e2;
    std::frexp(x, &e2); // |x| = m * 2^e2, m in [0.5, 1)
    return std::max(e2 - 1, emin);
}

} // namespace

bool is_integral(dnnl_data_type_t dt) {
    double lo, hi;
    return int_range(dt, lo, hi);
}

double max_value(dnnl_data_type_t dt) {
    fp_format_t f;
    if (fp_format(dt, f)) return f.max;
    double lo, hi;
    if (int_range(dt, lo, hi)) return hi;
    return std::numeric_limits<double>::max();
}

double lowest_value(dnnl_data_type_t dt) {
    fp_format_t f;
    if (fp_format(dt, f)) return dt == dnnl_e8m0 ? 0.0 : -f.max;
    double lo, hi;
    if (int_range(dt, lo, hi)) return lo;
    return std::numeric_limits<double>::lowest();
}

double round_to_dt(double x, dnnl_data_type_t dt) {
    double lo, hi;
    if (int_range(dt, lo, hi)) {
        if (std::isnan(x)) return 0;
        double r = std::nearbyint(x);
        return std::min(std::max(r, lo), hi);
    }
    fp_format_t f;
    if (!fp_format(dt, f) || dt == dnnl_f64) return x;
    // oneDNN narrows to f8 through f16: a value just past an f8 midpoint
    // that f16 rounds onto it ties to even.
    if (dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3) x = round_to_dt(x, dnnl_f16);
    // f8_e4m3 has no infinity: what overflows it is NaN.
    const bool overflow_is_nan = dt == dnnl_f8_e4m3;
    if (std::isinf(x) && overflow_is_nan) return std::nan("");
    if (std::isnan(x) || std::isinf(x) || x == 0) return x;
    const double ax = std::fabs(x);
    const double q = std::ldexp(1.0, exponent_of(ax, f.emin) - (f.p - 1));
    double r = std::nearbyint(ax / q) * q; // exact scaling by a power of two
    if (r > f.max) {
        // IEEE formats overflow to infinity once past max + half an ULP
        // (the tie rounds up: max's last bit is odd); f8_e4m3 overflows to
        // NaN past it (its max ends in an even bit, the tie stays); other
        // formats without infinity saturate.
        const double half_ulp = std::ldexp(1.0, exponent_of(f.max, f.emin) - f.p);
        if (f.has_inf && ax >= f.max + half_ulp)
            r = std::numeric_limits<double>::infinity();
        else if (overflow_is_nan && ax > f.max + half_ulp)
            return std::nan("");
        else
            r = f.max;
    }
    return std::copysign(r, x);
}

double ulp(double x, dnnl_data_type_t dt) {
    if (is_integral(dt)) return 1;
    fp_format_t f;
    if (!fp_format(dt, f)) f = {53, -1022, 0, true};
    return std::ldexp(1.0, exponent_of(std::fabs(x), f.emin) - (f.p - 1));
}

tolerance_t exact_tolerance(dnnl_data_type_t dt) {
    tolerance_t t;
    if (!is_integral(dt)) t.ulps = 1;
    return t;
}

namespace {

// Returns true when acceptable; sets the rounded reference and the allowed
// difference for reporting.
bool check_one(double got, double expected, dnnl_data_type_t dt,
        const tolerance_t &tol, bool round_expected, double &exp_r,
        double &allowed) {
    exp_r = round_expected ? round_to_dt(expected, dt) : expected;
    allowed = 0;
    if (std::isnan(exp_r) || std::isnan(got))
        return std::isnan(exp_r) && std::isnan(got);
    if (std::isinf(exp_r) || std::isinf(got)) {
        if (got == exp_r) return true;
        // A finite value at the type's maximum is as good as infinity when
        // the reference only just overflowed.
        allowed = std::max(tol.abs, tol.ulps * ulp(max_value(dt), dt));
        const double m = max_value(dt);
        return std::isinf(exp_r) && std::isfinite(got)
                && std::copysign(1.0, got) == std::copysign(1.0, exp_r)
                && std::fabs(got) >= m - allowed;
    }
    const double diff = std::fabs(got - exp_r);
    allowed = std::max({tol.abs, tol.rel * std::fabs(exp_r),
            tol.ulps * ulp(exp_r, dt)});
    return diff <= allowed;
}

template <typename T>
compare_result_t compare_impl(const float *got, const T *expected, size_t n,
        dnnl_data_type_t dt, const compare_opts_t &opts) {
    compare_result_t r;
    r.total = n;
    for (size_t i = 0; i < n; ++i) {
        double exp_r, allowed;
        const double g = got[i];
        const bool ok = check_one(g, (double)expected[i], dt, opts.tol,
                opts.round_expected, exp_r, allowed);
        if (exp_r != 0) r.nonzero_expected++;
        if (std::isfinite(g) && std::isfinite(exp_r)) {
            const double d = std::fabs(g - exp_r);
            r.max_abs_diff = std::max(r.max_abs_diff, d);
            if (exp_r != 0)
                r.max_rel_diff = std::max(r.max_rel_diff, d / std::fabs(exp_r));
            r.max_ulp_diff = std::max(r.max_ulp_diff, d / ulp(exp_r, dt));
        }
        if (!ok) {
            if (r.first_errors.size() < opts.keep_errors)
                r.first_errors.push_back({i, exp_r, g, allowed});
            r.errors++;
        }
    }
    return r;
}

} // namespace

bool within_tolerance(double got, double expected, dnnl_data_type_t dt,
        const tolerance_t &tol, bool round_expected) {
    double exp_r, allowed;
    return check_one(got, expected, dt, tol, round_expected, exp_r, allowed);
}

compare_result_t compare(const float *got, const float *expected, size_t n,
        dnnl_data_type_t dt, const compare_opts_t &opts) {
    return compare_impl(got, expected, n, dt, opts);
}

compare_result_t compare(const float *got, const double *expected, size_t n,
        dnnl_data_type_t dt, const compare_opts_t &opts) {
    return compare_impl(got, expected, n, dt, opts);
}

compare_result_t compare(const std::vector<float> &got,
        const std::vector<float> &expected, dnnl_data_type_t dt,
        const compare_opts_t &opts) {
    compare_result_t r;
    if (got.size() != expected.size()) {
        r.total = std::max(got.size(), expected.size());
        r.errors = r.total;
        return r;
    }
    return compare(got.data(), expected.data(), got.size(), dt, opts);
}

std::string compare_result_t::summary() const {
    char buf[160];
    std::snprintf(buf, sizeof(buf),
            "errors:%zu/%zu max_abs:%.3g max_rel:%.3g max_ulps:%.3g", errors,
            total, max_abs_diff, max_rel_diff, max_ulp_diff);
    return buf;
}

} // namespace ref
