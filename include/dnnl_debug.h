/* Legacy include path: forwards to oneapi/dnnl/dnnl_debug.h. */
#ifndef DNNL_DEBUG_H
#define DNNL_DEBUG_H
#include "oneapi/dnnl/dnnl_debug.h"
#endif
