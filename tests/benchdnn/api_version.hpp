// The version of the oneDNN API the driver is built against (this project's
// library or a real oneDNN from 3.2 on), and the C names of the data types
// that API may lack.
//
// BD_DNNL_AT_LEAST(M, N) is the one test of the version: code that uses API
// newer than oneDNN 3.2 sits in a small helper guarded by it (api_compat.cpp,
// norm.cpp), and the problems that need such API are skipped with a reason.
//
// The data type names: tests/reference knows every type of the newest API
// by its C name. Against an older API those names are given here with the
// newest API's values, which the older library never produces, so the code
// that handles them is simply never reached. A standalone build includes
// this header first in every reference source (CMakeLists.txt).
#pragma once

#include "oneapi/dnnl/dnnl_types.h"
#include "oneapi/dnnl/dnnl_version.h"

#define BD_DNNL_AT_LEAST(major, minor)                                         \
    (DNNL_VERSION_MAJOR > (major)                                              \
            || (DNNL_VERSION_MAJOR == (major)                                  \
                    && DNNL_VERSION_MINOR >= (minor)))

#if !BD_DNNL_AT_LEAST(3, 4)
constexpr dnnl_data_type_t dnnl_f8_e5m2 = (dnnl_data_type_t)9;
constexpr dnnl_data_type_t dnnl_f8_e4m3 = (dnnl_data_type_t)10;
#endif
#if !BD_DNNL_AT_LEAST(3, 5)
constexpr dnnl_data_type_t dnnl_s4 = (dnnl_data_type_t)11;
constexpr dnnl_data_type_t dnnl_u4 = (dnnl_data_type_t)12;
#endif
#if !BD_DNNL_AT_LEAST(3, 6)
constexpr dnnl_data_type_t dnnl_e8m0 = (dnnl_data_type_t)13;
#endif
#if !BD_DNNL_AT_LEAST(3, 7)
constexpr dnnl_data_type_t dnnl_f4_e2m1 = (dnnl_data_type_t)14;
constexpr dnnl_data_type_t dnnl_f4_e3m0 = (dnnl_data_type_t)15;
#endif
#if !BD_DNNL_AT_LEAST(3, 11)
constexpr dnnl_data_type_t dnnl_s64 = (dnnl_data_type_t)16;
#endif
