/* Legacy include path: forwards to oneapi/dnnl/dnnl.h. */
#ifndef DNNL_H
#define DNNL_H
#include "oneapi/dnnl/dnnl.h"
#endif
