/* Legacy include path: forwards to oneapi/dnnl/dnnl_version.h. */
#ifndef DNNL_VERSION_H
#define DNNL_VERSION_H
#include "oneapi/dnnl/dnnl_version.h"
#endif
