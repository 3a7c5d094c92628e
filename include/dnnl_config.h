/* Legacy include path: forwards to oneapi/dnnl/dnnl_config.h. */
#ifndef DNNL_CONFIG_H
#define DNNL_CONFIG_H
#include "oneapi/dnnl/dnnl_config.h"
#endif
