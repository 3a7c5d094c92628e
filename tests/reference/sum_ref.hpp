// Naive reference of the sum primitive: dst = sum_i scale_i * src_i over
// dense tensors of n elements, in double precision. No library code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sum_ref {

void compute(int64_t n, const std::vector<const float *> &srcs, const std::vector<double> &scales,
        double *dst);

} // namespace sum_ref
