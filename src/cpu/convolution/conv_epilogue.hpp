// The convolution epilogue (post-ops through cpu/postops): what happens to an accumulated output value
// before it is stored, in oneDNN's order:
//   v = acc * src_scale * wei_scale[c] + bias[c]
//   v = post_ops(v)      (eltwise, sum, binary, prelu, in chain order)
//   out = saturate(round(v / dst_scale[c] + dst_zp[c]))
// where round() is the stochastic rounding of the rounding-mode attribute
// on DST when it is set (common/math/stochastic_round.hpp), keyed by each
// element's offset in the user's output.
// It works on blocks of the output in either activation layout: one call
// covers channels [c0, c0 + nc) of spatial points [sp0, sp0 + nsp) of
// image n.
#pragma once

#include <cstdint>
#include <vector>

#include "common/math/stochastic_round.hpp"
#include "common/memory_desc.hpp"
#include "common/primitive_attr.hpp"
#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
struct exec_ctx_t;
namespace cpu {
namespace conv {

struct epilogue_t {
    data_type_t dst_dt = dnnl_f32;
    bool with_bias = false;
    data_type_t bias_dt = dnnl_f32;
    bool src_scale = false, wei_scale = false, wei_scale_per_c = false;
    bool dst_scale = false, dst_scale_per_c = false;
    bool dst_zp = false, dst_zp_per_c = false;
    bool sround = false; // stochastic rounding of the output
    math::sround_params_t sround_p;
    memory_desc_t out_md {}; // the user's output: rounding offsets
    postops::postops_t po; // the shared post-op chain module
    int ndims = 4;
    dim_t od = 1, oh = 1, ow = 1; // output spatial sizes as 3D

    // `out_md` is the user's output (dims (n, c, spatial)).
    status_t init(const primitive_attr_t &attr, const memory_desc_t &out_md,
            bool bias, data_type_t bias_data_type);
    bool has_sum() const { return po.has_sum(); }
    // True when f32 accumulators can be stored as they are.
    bool is_identity() const {
        return dst_dt == dnnl_f32 && !with_bias && !src_scale
                && !wei_scale && !dst_scale && !dst_zp && !sround
                && po.empty();
    }
};

// Runtime pointers of one execution.
struct epilogue_args_t {
    const void *bias = nullptr;
    const float *src_scale = nullptr, *wei_scale = nullptr;
    const float *dst_scale = nullptr;
    const int32_t *dst_zp = nullptr;
    uint32_t sround_seed = 0;
    postops::postops_args_t po;

    // Reads the pointers from the execution arguments. Scales and zero
    // points are those of the convolution's DNNL_ARG_{SRC,WEIGHTS,DST}.
    // dnnl_invalid_arguments when an argument the epilogue needs is absent.
    status_t init(const epilogue_t &e, const exec_ctx_t &ctx, int bias_arg);
};

// acc: s32 when acc_s32, else f32, with element strides (acc_sp, acc_c); out:
// e.dst_dt with strides (out_sp, out_c). When out_c == 1 channels are the
// inner loop, else spatial points are. `out` may alias `acc` (f32 only).
// A sum post-op reads the old value from `out`.
void epilogue_apply(const epilogue_t &e, const epilogue_args_t &a,
        bool acc_s32, const void *acc, dim_t acc_sp, dim_t acc_c, void *out, dim_t out_sp,
        dim_t out_c, dim_t n, dim_t c0, dim_t nc, dim_t sp0, dim_t nsp);

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
