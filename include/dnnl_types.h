/* Legacy include path: forwards to oneapi/dnnl/dnnl_types.h. */
#ifndef DNNL_TYPES_H
#define DNNL_TYPES_H
#include "oneapi/dnnl/dnnl_types.h"
#endif
