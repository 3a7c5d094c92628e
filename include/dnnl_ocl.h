/* Legacy include path: forwards to oneapi/dnnl/dnnl_ocl.h. */
#ifndef DNNL_OCL_H
#define DNNL_OCL_H
#include "oneapi/dnnl/dnnl_ocl.h"
#endif
