// The convolution's inner loops compiled once per ISA (conv_kernels.cpp)
// and their table, best first (cpu/isa_table.hpp); a primitive descriptor
// picks one set when its plan is finalised (conv_plan_t::ker).
#pragma once

#include <vector>

#include "cpu/convolution/conv_igemm_pack.hpp"
#include "cpu/convolution/conv_plan.hpp"
#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/isa_table.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

// A run of output points of one output row: points [j, j + len) of the
// chunk are (od, oh, ow0 + t); id0 / ih0 are their first input row indices.
// Point j sits in B panel j / NR at lane j % NR (jp, jl: kept so that the
// packers divide by NR once a run, not once a row of K).
struct run_t {
    dim_t j, len, id0, ih0, ow0;
    dim_t jp, jl;
};

struct conv_kernels_t {
    const char *isa;
    // Output (backward data: input) points the channels-last depthwise
    // rows take at a time per 16 channels (the kernel's tile, named in
    // the implementation name).
    int dw_points;
    // Depthwise, one output row, channels last, channels [c0, c0 + nc):
    // rows[r] is the input row of kernel row taps[r] (a (kd, kh) index); w
    // is [kd][kh][kw][G]; out is [OW][ldo].
    void (*dw_row_nspc)(const conv_conf_t &c, const float *const *rows,
            const dim_t *taps, int nrows, const float *w, float *out,
            dim_t ldo, dim_t c0, dim_t nc);
    // Depthwise, one output row of one channel plane: acc[ow] = sum over
    // taps.
    void (*dw_row_ncsp)(const conv_conf_t &c, const float *in,
            const float *wg, dim_t od, dim_t oh, float *acc);
    // Depthwise backward data, one diff_src row, channels last: rows[r]
    // is the diff_dst row of kernel row taps[r]; out is [IW][ldo].
    void (*dw_bwd_d_row_nspc)(const conv_conf_t &c, const float *const *rows,
            const dim_t *taps, int nrows, const float *w, float *out,
            dim_t ldo);
    // Depthwise backward weights: adds one diff_dst row's (dd, [OW][G])
    // products with the source rows rows[r] of kernel rows taps[r] to
    // acc, [kd][kh][kw][G], and its column sums to bias (when not null).
    void (*dw_bwd_w_row_nspc)(const conv_conf_t &c, const float *const *rows,
            const dim_t *taps, int nrows, const float *dd, float *acc,
            float *bias);
    // Implicit GEMM: B panels of K rows [pc, pc + kc) for chunk points
    // [sp0, sp0 + nsp) of one (image, group) source, per source type.
    void (*pack_b_f32)(const conv_conf_t &c, bool ncsp, const float *src,
            const std::vector<run_t> &runs, dim_t pc, dim_t kc, dim_t sp0,
            dim_t nsp, int NR, float *bp);
    void (*pack_b_bf16)(const conv_conf_t &c, bool ncsp,
            const gemm::bf16_tag_t *src, const std::vector<run_t> &runs,
            dim_t pc, dim_t kc, dim_t sp0, dim_t nsp, int NR, float *bp);
    void (*pack_b_f16)(const conv_conf_t &c, bool ncsp,
            const gemm::f16_tag_t *src, const std::vector<run_t> &runs,
            dim_t pc, dim_t kc, dim_t sp0, dim_t nsp, int NR, float *bp);
    // Implicit GEMM, f32 channels-first sources: the same panels from a
    // gathering plan of masked vector loads (conv_igemm_pack.hpp), for
    // geometries igemm_gather_fits() accepts. Null where the ISA has no
    // such loads (all but AVX-512).
    void (*pack_b_f32_gather)(const conv_conf_t &c, const float *src,
            const igemm_gather_t &g, dim_t pc, dim_t kc, int NR, float *bp);
};

const conv_kernels_t &conv_kernels_avx512_core();
const conv_kernels_t &conv_kernels_avx2();
const conv_kernels_t &conv_kernels_base();
const isa_table_t<conv_kernels_t> &conv_kernel_table();
const conv_kernels_t &select_conv_kernels();

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
