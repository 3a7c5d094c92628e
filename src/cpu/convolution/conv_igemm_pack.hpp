// Fast B-panel gathering for the implicit-GEMM forward convolution on
// channels-first f32 sources (see conv_fwd_igemm.cpp): the output points
// of a work item are cut into 16-lane vectors and, once per item, every
// (kernel tap, vector) gets its masked loads (igemm_gather_plan); then
// every K row is built vector by vector with those loads, the masks doing
// both the output-row boundaries and the zero padding: no branch, no
// scalar element loop, no separate zero fill.
// Unit and 2x width strides (the ResNet shapes); others keep the generic
// packing. The pack loop is AVX-512 code (masked loads): the AVX-512 entry
// of the convolution kernel table carries it (conv_kernels.hpp), the
// others have none.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/convolution/conv_plan.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

// One masked load of a 16-lane vector of a K row: lanes `m` (stride 1) or
// the even elements `m2` of two 16-element loads (stride 2) from the
// channel plane at `off`; m == 0 loads nothing.
struct igemm_load_t {
    dim_t off;
    uint32_t m2;
    uint16_t m;
};

// The gathering plan of one work item: for every kernel tap and 16-lane
// vector of the chunk, `per_vec` loads (the most output rows a vector
// spans), built once per item and reused for every input channel.
struct igemm_gather_t {
    dim_t nvec = 0;
    int per_vec = 0;
    std::vector<igemm_load_t> loads; // [tap][vector][per_vec]
};

// Whether the gathering serves this geometry and panel width (the
// kernel set must have the pack loop too).
bool igemm_gather_fits(const conv_conf_t &c, int NR);

// The plan for chunk points [sp0, sp0 + nsp) (NR-lane panels).
void igemm_gather_plan(const conv_conf_t &c, dim_t sp0, dim_t nsp, int NR,
        igemm_gather_t &g);

// B panels of K rows [pc, pc + kc): bp[panel][p][lane] with NR-lane
// panels, zeros outside the source and past the chunk. `src` is the
// item's (image, group) channels-first source. Compiled for AVX-512 only
// (conv_igemm_pack_avx512.cpp).
void igemm_pack_f32_ncsp_avx512_core(const conv_conf_t &c, const float *src,
        const igemm_gather_t &g, dim_t pc, dim_t kc, int NR, float *bp);

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
