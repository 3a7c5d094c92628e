// Comparison of a primitive's output with a reference result, with
// tolerances per data type that are aware of units in the last place (ULP).
//
// The reference value is exact (computed in double); the library's value was
// rounded to the destination data type. compare() rounds the reference to
// that data type the way a correct implementation would, then accepts an
// element when
//     |got - round(expected)| <= max(tol.abs, tol.rel * |round(expected)|,
//                                    tol.ulps * ulp(round(expected)))
// where ulp(x) is the distance between adjacent values of the data type at x.
// NaN matches NaN and infinities match infinities of the same sign.
//
// Shared by the unit tests and tests/benchdnn; uses only the public data type
// enumeration of the API, no library code.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl_types.h"

namespace ref {

// True for s8, u8, s32, s4, u4 (and boolean-like integer types).
bool is_integral(dnnl_data_type_t dt);

// x rounded to the nearest value of `dt`: round-half-to-even for floating
// point types (with overflow to infinity and gradual underflow), and
// round-half-to-even with saturation for integer types.
double round_to_dt(double x, dnnl_data_type_t dt);

// Distance between two adjacent values of `dt` around x: 2^(e - p + 1) for
// a floating type with p significand bits and x in [2^e, 2^(e+1)) (the
// subnormal spacing below the normal range), 1 for integer types.
double ulp(double x, dnnl_data_type_t dt);

// Largest finite value of `dt` (saturation bound for integer types).
double max_value(dnnl_data_type_t dt);
double lowest_value(dnnl_data_type_t dt);

struct tolerance_t {
    double abs = 0; // absolute difference always accepted
    double rel = 0; // relative to |round(expected)|
    double ulps = 0; // in units of ulp(round(expected), dt)
};

// The tolerance for a result produced by one correctly rounded operation per
// element (conversion, exact integer arithmetic): zero for integer types,
// one ULP for floating types.
tolerance_t exact_tolerance(dnnl_data_type_t dt);

// True when `got` is acceptable for the exact value `expected`.
bool within_tolerance(double got, double expected, dnnl_data_type_t dt,
        const tolerance_t &tol, bool round_expected = true);

struct mismatch_t {
    size_t index;
    double expected; // after rounding to the data type
    double got;
    double allowed; // the largest accepted difference at this element
};

struct compare_result_t {
    size_t total = 0;
    size_t errors = 0;
    size_t nonzero_expected = 0; // how many reference values are not zero
    double max_abs_diff = 0;
    double max_rel_diff = 0;
    double max_ulp_diff = 0;
    std::vector<mismatch_t> first_errors; // the first few, in index order

    bool ok() const { return errors == 0; }
    // "errors:3/1024 max_abs:1e-3 max_rel:2e-6 max_ulps:17"
    std::string summary() const;
};

struct compare_opts_t {
    tolerance_t tol;
    bool round_expected = true; // round the reference to dt before comparing
    size_t keep_errors = 8; // how many mismatches to keep in first_errors
};

compare_result_t compare(const float *got, const float *expected, size_t n,
        dnnl_data_type_t dt, const compare_opts_t &opts);
compare_result_t compare(const float *got, const double *expected, size_t n,
        dnnl_data_type_t dt, const compare_opts_t &opts);
compare_result_t compare(const std::vector<float> &got,
        const std::vector<float> &expected, dnnl_data_type_t dt,
        const compare_opts_t &opts);

} // namespace ref
