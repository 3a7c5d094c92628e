// Naive reference of the eltwise primitive (forward and backward, every
// algorithm) and of the binary operations, in double precision from the
// textbook formulas with oneDNN's alpha/beta meaning. Written without any
// library code; algorithms are the public dnnl_alg_kind_t values.
#pragma once

#include "oneapi/dnnl/dnnl_types.h"

namespace eltwise_ref {

// True for the *_use_dst_for_bwd algorithms (backward reads dst).
bool use_dst(dnnl_alg_kind_t alg);

// dst for source value s.
double fwd(dnnl_alg_kind_t alg, double s, double alpha, double beta);

// diff_src for diff_dst dd; v is the source value, or the destination value
// for the *_use_dst_for_bwd algorithms.
double bwd(dnnl_alg_kind_t alg, double dd, double v, double alpha, double beta);

// src0 (op) src1; comparisons give 1 or 0.
double binary(dnnl_alg_kind_t alg, double a, double b);

} // namespace eltwise_ref
