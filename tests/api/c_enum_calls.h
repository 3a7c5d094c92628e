/* Calls of the C API with plain integers where it declares enums, as a C
 * caller may make them (tests/api/c_enum_calls.c). Written in C: in C++
 * an int outside an enum's range cannot even be formed as the enum. */
#pragma once

#include "oneapi/dnnl/dnnl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs call `which` (0 <= which < c_enum_call_count()) with `value` in its
 * enum argument; engine, descriptors and handles are made inside. The
 * status of the call goes to *status, `*touched` says whether an output
 * handle or value was written. Returns 0 when `which` is out of range. */
int c_enum_call(int which, int value, dnnl_status_t *status, int *touched);
int c_enum_call_count(void);
const char *c_enum_call_name(int which);

#ifdef __cplusplus
}
#endif
