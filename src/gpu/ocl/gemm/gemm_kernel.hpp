// Host side of the OpenCL GEMM kernel family (gemm_tiled.cl, gemm_direct.cl,
// gemm_reduce.cl) that matmul and inner product run on:
//   C[b](m, n) = epilogue(sum_k A[b](m, k) * B[b](k, n))
// with any element strides, up to four batch dims with broadcast, and the
// epilogue of gemm_epilogue.clh (scales, bias, post-ops, zero points,
// conversion).
//
// Three steps: a primitive descriptor describes its GEMM (gemm_conf_t) and
// plans it for the device (plan_gemm: kernel, tile, split-K, workspace,
// name) without building anything; the primitive builds the plan's
// kernels once (gemm_kernels_t::init, through the kernel cache); each
// execution passes buffers, shapes and strides (gemm_exec_t). Shapes are
// kernel arguments, so every shape with one configuration shares programs.
#pragma once

#include <CL/cl.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/c_types.hpp"
#include "common/exec_ctx.hpp"
#include "common/memory_desc.hpp"
#include "gpu/ocl/ocl_device_info.hpp"
#include "gpu/ocl/ocl_kernel.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Which index of an operand has unit stride: the second (row_major: A
// k-contiguous, B n-contiguous), the first (col_major), or neither.
enum class gemm_access_t { row_major, col_major, strided };

// The access of a matrix with strides (s_outer, s_inner) over dims
// (d_outer, d_inner): a dim of size 1 may have any stride.
gemm_access_t gemm_access_of(
        dim_t s_outer, dim_t s_inner, dim_t d_outer, dim_t d_inner);
// Sets the unit stride of access `acc` to exactly 1 (a dim of size 1 may
// carry another); false when the matrix does not have that access.
bool gemm_fit_access(gemm_access_t acc, dim_t d_outer, dim_t d_inner,
        dim_t &s_outer, dim_t &s_inner);

// What a GEMM is built for: everything that becomes a kernel define.
struct gemm_conf_t {
    data_type_t a_dt = dnnl_f32, b_dt = dnnl_f32, c_dt = dnnl_f32;
    gemm_access_t a = gemm_access_t::row_major, b = gemm_access_t::row_major;
    bool c_ncontig = true;           // C has unit stride along n
    bool a_zp = false, b_zp = false; // int8 zero points (one value each)
    bool with_bias = false;
    data_type_t bias_dt = dnnl_f32;
    bool src_scale = false, wei_scale = false, dst_scale = false;
    // Scales held in host-scalar memory: passed to the kernels by value.
    bool src_scale_host = false, wei_scale_host = false, dst_scale_host = false;
    bool dst_zp = false;
    int dst_ndims = 2; // positions the post-ops see
    post_ops_conf_t post_ops;
    // Matmul's dropout attribute (between the bias and the post-ops):
    // probability, seed (s64 or s32) and offset in device buffers, or
    // host scalars passed by value; the mask written when asked. C must be
    // dense row-major (the random numbers follow its element offsets).
    bool dropout = false, dropout_on_host = false, dropout_seed_s64 = false,
         dropout_offset = false, dropout_mask = false;
    // Stochastic rounding of C (the rounding mode on DST), the seed in a
    // device buffer.
    bool sround = false;
    // Weight decompression (GEMV kernel only): B of s8 / u8 / s4 / u4,
    // B(k, n) = (q - zp) * scale with scales (bq_scale_dt) and zero points
    // (bq_zp_dt) over groups of K and N (gemm_exec_t::bq_*).
    bool b_decompress = false, bq_scale = false, bq_zp = false;
    data_type_t bq_scale_dt = dnnl_f32, bq_zp_dt = dnnl_s32;

    bool acc_int() const;
};

// The shape a plan is made for (unknown with runtime dims).
struct gemm_shape_t {
    dim_t M = 0, N = 0, K = 0, batch = 1;
};

struct gemm_plan_t {
    enum class kind_t { tiled, direct, gemv } kind = kind_t::direct;
    int wg_m = 0, wg_n = 0, tm = 4, tn = 4, kb = 16; // tile (tiled)
    int lx = 16, ly = 16;                            // work-group (direct, gemv)
    int vec = 4; // gemv: columns a work-item (tm: rows of A held)
    int nsplit = 1;       // K slices (split-K through a workspace)
    size_t workspace = 0; // bytes of scratchpad the split needs
    std::string name;     // implementation name, e.g. ocl:gemm_f32_128x128
};

// Chooses the kernel for the device: the tiled kernel on GPUs (a
// 128 x 128 block of 8 x 8 register tiles, 64 x 64 for narrow shapes,
// split-K when the blocks cannot fill the device), the GEMV kernel on GPUs
// for at most gemm_gemv_max_m rows of floating-point A against B with a
// unit stride (along n or k; split-K to fill the device), the direct kernel on CPU
// devices and for operands with no unit stride. `shape` null: runtime
// shapes (no split, no GEMV). For tests of every path on any device, the
// environment may force the choice: ONEDNN_OCL_GEMM_KERNEL=tiled|direct|
// gemv (tiled on a CPU device takes 32 x 32 blocks; gemv where it applies)
// and ONEDNN_OCL_GEMM_SPLITK=n (n K slices where K has room for them).
gemm_plan_t plan_gemm(const device_info_t &dev, const gemm_conf_t &conf,
        const gemm_shape_t *shape);

constexpr int gemm_max_batch_dims = 4;
constexpr int gemm_gemv_max_m = 8;

// One execution: buffers, offsets and strides in elements.
struct gemm_exec_t {
    dim_t M = 0, N = 0, K = 0;
    cl_mem a = nullptr, b = nullptr, c = nullptr;
    dim_t a_off = 0, a_sm = 0, a_sk = 0;
    dim_t b_off = 0, b_sk = 0, b_sn = 0;
    dim_t c_off = 0, c_sm = 0, c_sn = 0;
    // Batch dims, outermost first; unused ones have size 1.
    dim_t bdims[gemm_max_batch_dims] = {1, 1, 1, 1};
    dim_t a_bs[gemm_max_batch_dims] = {}, b_bs[gemm_max_batch_dims] = {},
          c_bs[gemm_max_batch_dims] = {}, bias_bs[gemm_max_batch_dims] = {};
    cl_mem bias = nullptr;
    dim_t bias_off = 0, bias_sm = 0, bias_sn = 0;
    cl_mem src_scale = nullptr, wei_scale = nullptr, dst_scale = nullptr;
    // The values of scales on the host (gemm_conf_t::*_scale_host).
    float src_scale_value = 1.f, wei_scale_value = 1.f, dst_scale_value = 1.f;
    dim_t wei_scale_sn = 0, dst_scale_sn = 0;
    cl_mem dst_zp = nullptr;
    dim_t dst_zp_sn = 0;
    cl_mem a_zp = nullptr, b_zp = nullptr;
    // Dropout: buffers, or values (gemm_conf_t::dropout_on_host); the mask
    // element of C element i is i + drop_mask_shift.
    cl_mem drop_p = nullptr, drop_seed = nullptr, drop_offset = nullptr,
           drop_mask = nullptr;
    float drop_p_value = 0.f;
    int64_t drop_seed_value = 0, drop_offset_value = 0;
    dim_t drop_mask_shift = 0;
    cl_mem sround_seed = nullptr;
    // Weight decompression: the buffers, the groups along K and N of the
    // scale, then of the zero point, and their element strides per group
    // likewise (a dim without a group: group 1, stride 0).
    cl_mem bq_scale = nullptr, bq_zp = nullptr;
    dim_t bq_groups[4] = {1, 1, 1, 1}, bq_strides[4] = {0, 0, 0, 0};
    // nsplit > 1: the scratchpad (user scratchpad mode), else null and the
    // kernels keep their own.
    cl_mem workspace = nullptr;
    dim_t batch() const;
};

// dnnl_invalid_arguments (with a verbose line naming `what`) unless `m` is
// a buffer holding every element of `md` (its offset and strides
// included); success for tensors without elements.
status_t check_buffer(cl_mem m, const memory_desc_t &md, const char *what);
// The same for `count` dense elements of `dt` (s4 / u4 two to a byte).
status_t check_buffer(cl_mem m, dim_t count, data_type_t dt, const char *what);

// Split-K workspaces kept for the life of a primitive, one per in-order
// command queue it runs on: executions on one queue run one after the
// other, so they can share it (a workspace made and freed per execution
// costs NVIDIA's runtime a device synchronisation each time: 384 x 3072 x
// 768 took 0.17 ms through the library against 0.08 ms of kernels). The
// caller holds `lock` until every launch using the workspace is enqueued,
// so that two threads' launch pairs do not interleave on the queue.
class gemm_workspace_pool_t {
public:
    gemm_workspace_pool_t() = default;
    gemm_workspace_pool_t(const gemm_workspace_pool_t &) = delete;
    gemm_workspace_pool_t &operator=(const gemm_workspace_pool_t &) = delete;
    ~gemm_workspace_pool_t();
    // Null when `queue` runs out of order or allocation fails.
    cl_mem acquire(cl_command_queue queue, size_t bytes,
            std::unique_lock<std::mutex> &lock);

private:
    struct entry_t {
        cl_command_queue queue; // retained
        cl_mem mem = nullptr;
        size_t size = 0;
        std::mutex mutex;
    };
    std::mutex mutex_;
    std::vector<std::unique_ptr<entry_t>> entries_;
};

// The built kernels of a plan.
class gemm_kernels_t {
public:
    status_t init(
            engine_t *engine, const gemm_conf_t &conf, const gemm_plan_t &plan);
    // Enqueues the GEMM on the execution's stream; post-op buffers come
    // from `ctx`. dnnl_invalid_arguments for a missing buffer or shapes
    // the kernels cannot index (32-bit M, N, K).
    status_t execute(const exec_ctx_t &ctx, const gemm_exec_t &e) const;

private:
    bool aligned(const gemm_exec_t &e, bool raw) const;
    void set_epilogue_args(kernel_args_t &args, const exec_ctx_t &ctx,
            const gemm_exec_t &e) const;
    gemm_conf_t conf_;
    gemm_plan_t plan_;
    // [0]: any alignment, [1]: 16-byte aligned vectors (tiled only).
    ocl_kernel_t main_[2], raw_[2], reduce_;
    mutable gemm_workspace_pool_t pool_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
