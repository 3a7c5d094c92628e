// The implicit-GEMM convolution kernels on the host side, shared by the
// convolution and deconvolution primitives: conv_gemm_conf_t decides, at
// primitive-descriptor time, everything about a pass in convolution roles
// (conv_problem.hpp): tile shape, gather directions, K slicing, tensor
// forms, the epilogue and the scratchpad; conv_gemm_t, kept by a
// primitive, builds the kernels once and launches them.
//
// Kernels (conv_gemm.cl, conv_dw.cl, conv_reduce.cl, conv_zero_pad.cl) are
// specialised by data types, tensor forms, tile shape and the epilogue;
// shapes travel as arguments, so problems differing only in sizes share
// programs.
#pragma once

#include <cstddef>
#include <mutex>

#include "common/exec_ctx.hpp"
#include "common/primitive_attr.hpp"
#include "gpu/ocl/convolution/conv_problem.hpp"
#include "gpu/ocl/gemm/gemm_kernel.hpp"
#include "gpu/ocl/ocl_kernel.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct conv_gemm_conf_t {
    conv_problem_t prb;
    // Forward depthwise (one channel per group in and out): the direct
    // kernel of conv_dw.cl instead of the GEMM.
    bool dw_direct = false;
    // Tile: LX x LY work-items, each TM x TN results (conv_gemm.cl).
    int lx = 16, ly = 16, tm = 4, tn = 4;
    bool a_mfast = true, b_nfast = true; // (c_mfast, ic_inner: in geom)
    bool src_generic = false, wei_generic = false, dst_generic = false;
    bool acc_int = false; // int8 data, s32 accumulation
    // Epilogue (fwd and bwd_d roles).
    int a_zp = 0; // zero point of the gathered activation: 0, 1, 2 per c
    int dst_zp = 0;
    bool b_zp = false; // the weights' common zero point (forward)
    bool src_scale = false, wei_scale = false, wei_scale_per_c = false;
    bool dst_scale = false, dst_scale_per_c = false;
    bool sround = false; // stochastic rounding of dst (forward)
    post_ops_conf_t post_ops;
    // Outputs whose padding (blocked layouts) needs zeroing.
    bool zero_pad_out = false;
    // bwd_w K-slice partial sums: in the scratchpad in user scratchpad
    // mode, else a buffer the primitive keeps per queue (one made and freed
    // per execution costs NVIDIA's runtime a device synchronisation).
    size_t ws_bytes = 0;
    bool ws_in_scratchpad = false;

    // dnnl_unimplemented (with a create:check line naming `who`) when the
    // kernels cannot run the problem; `attr` supplies the epilogue.
    status_t init(const conv_problem_t &p, const primitive_attr_t &attr,
            engine_t *engine, const char *who);

    int bm() const { return ly * tm; }
    int bn() const { return lx * tn; }
    int nt() const { return lx * ly; }
    // The tensor the fwd / bwd_d epilogue writes.
    const memory_desc_t &out_md() const {
        return prb.role == conv_role_t::fwd ? prb.dst : prb.src;
    }
};

// The buffers of one pass in convolution roles (see conv_problem_t).
struct conv_mems_t {
    cl_mem src = nullptr, wei = nullptr, dst = nullptr, bias = nullptr;
};

class conv_gemm_t {
public:
    status_t init(engine_t *engine, const conv_gemm_conf_t &conf);
    // Scales, zero points and post-op sources come from `ctx` under the
    // primitive's own argument names (those of the user's operation).
    status_t execute(const exec_ctx_t &ctx, const conv_gemm_conf_t &conf,
            const conv_mems_t &mems) const;

private:
    // The bwd_w workspace of an execution: the user's scratchpad, the
    // pool's buffer for the stream's queue (held through `lock` until every
    // launch using it is enqueued), or one of its own (`owned`, released by
    // the caller once enqueued: OpenCL keeps it until the kernels finish).
    status_t workspace(const exec_ctx_t &ctx, const conv_gemm_conf_t &conf,
            cl_mem &ws, cl_mem &owned,
            std::unique_lock<std::mutex> &lock) const;

    ocl_kernel_t gemm_, wei_reduce_, bias_reduce_, zero_pad_;
    // The gemm family's per-queue workspaces.
    mutable gemm_workspace_pool_t pool_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
