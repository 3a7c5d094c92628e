// C API: CPU ISA limit and hints (dnnl_set_max_cpu_isa and friends).
#include "oneapi/dnnl/dnnl.h"

#include "api/c_enum.hpp"
#include "cpu/cpu_isa.hpp"

using namespace dnnl::impl;

dnnl_status_t DNNL_API dnnl_set_max_cpu_isa(dnnl_cpu_isa_t isa) {
    if (!known(isa)) return dnnl_invalid_arguments;
    return cpu::set_max_cpu_isa((dnnl_cpu_isa_t)raw_value(isa));
}

dnnl_cpu_isa_t DNNL_API dnnl_get_effective_cpu_isa(void) {
    return (dnnl_cpu_isa_t)cpu::get_max_cpu_isa();
}

dnnl_status_t DNNL_API dnnl_set_cpu_isa_hints(dnnl_cpu_isa_hints_t isa_hints) {
    if (!known(isa_hints)) return dnnl_invalid_arguments;
    return cpu::set_cpu_isa_hints((dnnl_cpu_isa_hints_t)raw_value(isa_hints));
}

dnnl_cpu_isa_hints_t DNNL_API dnnl_get_cpu_isa_hints(void) {
    return cpu::get_cpu_isa_hints();
}
