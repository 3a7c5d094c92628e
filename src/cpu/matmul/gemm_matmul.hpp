// Matmul on the GEMM core: every data type (f32, bf16, f16 converted while
// packing; u8/s8 through the exact integer GEMM), batched with broadcast,
// any strides, runtime dims, and the shared GEMM epilogue (scales, bias,
// post-ops, dst zero point) run on each finished block of C.
#pragma once

#include <string>

#include "common/matmul_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/postops/gemm_epilogue.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

// 2D K x N weights as [N / panel][K][panel] column panels, the layout
// 'any' weights take when a kernel reads them in place (the GEMM's packed
// B, the BRGEMM's B).
memory_desc_t panel_weights_md(const memory_desc_t &wei, dim_t panel);

// Whether the rows of the batch dims and M of a plain tensor (element
// strides `strides`) are evenly strided by the stride of M, so that the
// batches can be folded into M (one GEMM of batch x M rows).
bool rows_fold(const memory_desc_t &md, const dim_t *strides, int nd);

// Everything about the shapes and layouts of one execution (from the pd,
// or from the memories when the pd has runtime dims or strides).
struct mm_shape_t {
    int nd = 0;
    memory_desc_t src, wei, dst, bias;
    dims_t ss = {}, ws = {}, ds = {}; // element strides
    dim_t M = 0, N = 0, K = 0;
    dim_t nbatch = 1; // product of dst batch dims
    // Batch folded into M: weights shared by all batches and the rows of
    // src and dst evenly strided across batches.
    bool collapse = false;
};

// How one execution runs: folded or batched GEMMs, in parallel over
// batches or with a parallel GEMM each, straight into dst or through an
// accumulator buffer of `chunk` rows.
struct mm_plan_t {
    bool batch_par = false;
    bool acc_direct = false;
    dim_t gemm_M = 0; // rows per GEMM problem
    dim_t nprob = 1; // GEMM problems
    dim_t chunk = 0; // rows per GEMM call
    int nthr = 1;
    size_t acc_bytes = 0; // per accumulator buffer
    size_t ws_bytes = 0; // per GEMM workspace
    size_t nbuf = 1; // buffers (threads in batch_par mode)
    size_t total() const;
};

struct gemm_matmul_t : public primitive_t {
    struct pd_t : public cpu_pd_t<matmul_pd_t, gemm_matmul_t> {
        pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : cpu_pd_t(d, attr) {}
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);
        bool handles_select_post_op() const override { return true; }

        bool is_int8() const { return is_int8_; }
        // Weights in the f32 kernel's pre-packed B panel layout (what
        // `any` resolves to for 2D f32 weights, see init_packed_weights).
        bool wei_packed() const { return wei_packed_; }
        const postops::gemm_epilogue_t &epilogue() const { return epi_; }
        // Shapes and plan from the pd descriptors (no runtime dims).
        status_t make_shape(mm_shape_t &s, const memory_desc_t &src,
                const memory_desc_t &wei, const memory_desc_t &dst,
                const memory_desc_t &bias) const;
        mm_plan_t make_plan(const mm_shape_t &s, int nthr) const;

    private:
        bool attr_ok() const;
        void init_packed_weights(bool wei_any);
        bool is_int8_ = false;
        bool wei_packed_ = false;
        postops::gemm_epilogue_t epi_;
        std::string name_;
    };

    using primitive_t::primitive_t;
    const pd_t *pd() const {
        return static_cast<const pd_t *>(primitive_t::pd());
    }
    status_t execute(const exec_ctx_t &ctx) const override;
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
