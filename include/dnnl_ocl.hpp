/* Legacy include path: forwards to oneapi/dnnl/dnnl_ocl.hpp. */
#ifndef DNNL_OCL_HPP
#define DNNL_OCL_HPP
#include "oneapi/dnnl/dnnl_ocl.hpp"
#endif
