// Glue between the post-op chains of tests/reference/binary_ref.hpp
// (po_ref::entry_t, which the references apply) and the library's post-ops:
// the eltwise algorithm of a chain entry, and the execution arguments of the
// binary entries. Used by the tests of primitives that take post-ops.
#pragma once

#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/binary_ref.hpp"
#include "tensor_glue.hpp"

namespace tensor_glue {

inline dnnl::algorithm elt_alg(po_ref::elt_t e) {
    using dnnl::algorithm;
    switch (e) {
    case po_ref::elt_t::relu:
        return algorithm::eltwise_relu;
    case po_ref::elt_t::linear:
        return algorithm::eltwise_linear;
    case po_ref::elt_t::tanh:
        return algorithm::eltwise_tanh;
    case po_ref::elt_t::logistic:
        return algorithm::eltwise_logistic;
    case po_ref::elt_t::square:
        return algorithm::eltwise_square;
    case po_ref::elt_t::abs:
        return algorithm::eltwise_abs;
    case po_ref::elt_t::clip:
        return algorithm::eltwise_clip;
    case po_ref::elt_t::exp:
        return algorithm::eltwise_exp;
    }
    return algorithm::eltwise_exp;
}

// Adds the source of every binary entry of `chain` (its values `src`, in
// the plain_f32 layout the attribute was given) to `args`, under the index
// of the entry in the chain.
inline void add_binary_post_op_args(std::unordered_map<int, dnnl::memory> &args,
        const std::vector<po_ref::entry_t> &chain, const dnnl::engine &eng) {
    for (size_t k = 0; k < chain.size(); ++k)
        if (chain[k].kind == po_ref::kind_t::binary)
            args[DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)k) | DNNL_ARG_SRC_1] =
                    to_memory(eng, plain_f32(chain[k].dims), chain[k].src);
}

} // namespace tensor_glue
