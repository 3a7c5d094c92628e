// The output stage of GEMM-based primitives (matmul, inner product), in
// oneDNN v3 order:
//   v = acc * src_scale * wei_scale[col] + bias
//   v = post_ops(v)                  (eltwise, sum, binary, prelu)
//   dst = saturate(round(v / dst_scale[col] + dst_zp[col]))
// where round() is the stochastic rounding of the rounding-mode attribute
// on DST when it is set (common/math/stochastic_round.hpp; seed
// DNNL_ARG_ATTR_ROUNDING_SEED, over each element's offset in dst).
// applied to a block of accumulators (f32 or s32) and written to dst of any
// data type with any element strides. Shared with other GEMM users: fill a
// gemm_epilogue_t at pd init, a gemm_epilogue_args_t per execution, then
// call apply() on each finished block (e.g. from the GEMM post hook).
#pragma once

#include "common/math/stochastic_round.hpp"
#include "common/memory_desc.hpp"
#include "common/primitive_attr.hpp"
#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
struct exec_ctx_t;
namespace cpu {
namespace postops {

struct gemm_epilogue_t {
    bool acc_s32 = false;
    data_type_t dst_dt = dnnl_f32;
    bool with_bias = false;
    bcast_tensor_t bias; // strides over dst dims
    bool src_scale = false, wei_scale = false, wei_scale_per_col = false;
    bool dst_scale = false, dst_scale_per_col = false;
    bool dst_zp = false, dst_zp_per_col = false;
    int bias_arg = DNNL_ARG_BIAS;
    bool sround = false; // stochastic rounding of dst
    math::sround_params_t sround_p;
    postops_t po;

    // `bias_md` may be null or a zero md. `col_dim`: the dst dim that the
    // columns of blocks walk (per-column scales and zero points vary along
    // it); `wei_col_mask`: the weights scale mask meaning "per column".
    // Scale masks other than 0 / wei_col_mask, dst scale masks other than
    // 0 / (1 << col_dim), dst zero-point masks other than 0 /
    // (1 << col_dim), non-f32 scales,
    // non-s32 zero points and src/wei zero points (handled by the caller)
    // are not checked here: the caller validates its attributes first.
    // Stochastic rounding on DST into a type it does not define:
    // dnnl_unimplemented.
    status_t init(const primitive_attr_t &attr, const memory_desc_t &dst_md,
            const memory_desc_t *bias_md, bool acc_is_s32, int col_dim,
            int wei_col_mask);
    // Nothing to do for accumulators stored in place into a dst of their
    // own type (f32 into f32, s32 into s32).
    bool is_identity() const {
        const bool same_type = acc_s32 ? dst_dt == dnnl_s32 : dst_dt == dnnl_f32;
        return same_type && !with_bias && !src_scale && !wei_scale && !dst_scale
                && !dst_zp && !sround && po.empty();
    }
};

struct gemm_epilogue_args_t {
    const void *bias = nullptr;
    const float *src_scale = nullptr, *wei_scale = nullptr;
    const float *dst_scale = nullptr;
    const int32_t *dst_zp = nullptr;
    uint32_t sround_seed = 0;
    const char *dst_base = nullptr; // the DST handle: offsets count from it
    postops_args_t po;
    // dnnl_invalid_arguments when an argument the epilogue needs is absent.
    status_t init(const gemm_epilogue_t &e, const exec_ctx_t &ctx);
};

// acc: m x n block (f32 or s32 per e.acc_s32), row stride ldacc, unit
// column stride. dst: element (i, j) at dst[i * dst_rs + j * dst_cs] (in
// elements of e.dst_dt). pos: logical dst coordinate of (0, 0); rows walk
// row_dim (-1: none), columns walk col_dim. `dst` may alias `acc` (f32
// both, same strides, dst_cs == 1) unless the chain has a sum. With
// stochastic rounding `dst` must point into the DST argument's memory.
void apply(const gemm_epilogue_t &e, const gemm_epilogue_args_t &a,
        const void *acc, dim_t ldacc, void *dst, dim_t dst_rs, dim_t dst_cs,
        dim_t m, dim_t n, const dim_t *pos, int row_dim, int col_dim);

} // namespace postops
} // namespace cpu
} // namespace impl
} // namespace dnnl
