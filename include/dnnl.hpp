/* Legacy include path: forwards to oneapi/dnnl/dnnl.hpp. */
#ifndef DNNL_HPP
#define DNNL_HPP
#include "oneapi/dnnl/dnnl.hpp"
#endif
