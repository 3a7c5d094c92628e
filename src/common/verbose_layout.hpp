// The kind-dependent fields of a primitive's verbose line, in oneDNN's
// formats: the memory descriptors with oneDNN's labels, the auxiliary field
// ("alg:eltwise_relu alpha:0 beta:0") and the problem ("mb2ic8ih5iw5").
// Auxiliary and problem come from the operation descriptor's field list
// (op_desc_t::visit_fields) through one pattern per kind.
#pragma once

#include <string>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {

struct primitive_desc_t;

// The engine field: `engine` ("cpu", "gpu"), or "cpu2gpu"-style for a
// reorder between engines.
std::string verbose_engine_str(
        const primitive_desc_t &pd, const std::string &engine);
std::string verbose_mds_str(const primitive_desc_t &pd);
std::string verbose_aux_str(const primitive_desc_t &pd);
std::string verbose_problem_str(const primitive_desc_t &pd);

// One memory descriptor as oneDNN prints it, `dt:flags:kind:layout:strides:
// extra` (`user_any`: the user left its layout to the implementation).
std::string md_verbose_str(const memory_desc_t &md, bool user_any = false);

} // namespace impl
} // namespace dnnl
