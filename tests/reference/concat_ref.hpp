// Naive reference of the concat primitive: the sources (dense row-major,
// equal dims except along `axis`) placed one after another along `axis`,
// each multiplied by its scale (empty: 1). No library code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace concat_ref {

void compute(const std::vector<std::vector<int64_t>> &src_dims,
        const std::vector<const float *> &srcs, int axis, double *dst,
        const std::vector<double> &scales = {});

} // namespace concat_ref
