// Recurrent primitives on the gpu engine (vanilla RNN, LSTM with peephole
// and projection, GRU, LBR-GRU, AUGRU, LBR-AUGRU), f32 / bf16 / f16, and
// int8 LSTM / GRU inference on f32 GEMMs (rnn_int8.hpp), with
// the CPU implementation's structure: per layer and direction one GEMM for
// every iteration's input projection (and the biases), per iteration the
// recurrent GEMM and one cell kernel (rnn.cl); states f32 in the buffers
// of rnn_plan_t (src/common/rnn_plan.hpp), at the same offsets of the
// workspace and scratchpad device buffers. GEMMs run on the GEMM kernels
// of gemm/ (one configuration per role below, planned in the pd and built
// by the primitive).
#pragma once

#include <string>

#include "common/rnn_plan.hpp"
#include "gpu/ocl/gemm/gemm_kernel.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/rnn/rnn_int8.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// What each GEMM of the family computes (C f32 unless said otherwise):
enum rnn_gemm_role_t {
    rg_layer,    // gates = x W_layer + bias (all iterations)
    rg_iter,     // gates += h' W_iter (LBR: U h' = h' W_iter, no sum)
    rg_proj,     // h = ht W_projection
    rg_iter_t,   // dh' (+)= dg W_iter^T (backward)
    rg_proj_t,   // dht = dh W_projection^T
    rg_layer_t,  // dx (+)= dg W_layer^T
    rg_dw_layer, // diff_weights_layer (+)= x^T dg
    rg_dw_iter,  // diff_weights_iter (+)= h'^T dg
    rg_dw_proj,  // diff_weights_projection (+)= ht^T dh
    rg_count
};

struct rnn_gemm_t {
    bool used = false;
    gemm_conf_t conf;
    gemm_plan_t plan;
};

struct ocl_rnn_t : public primitive_t {
    struct pd_t : public ocl_pd_t<rnn_pd_t, ocl_rnn_t> {
        pd_t(const rnn_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : ocl_pd_t(d, attr) {}
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        const rnn_plan_t &plan() const { return plan_; }
        const rnn_gemm_t &gemm(rnn_gemm_role_t r) const { return gemms_[r]; }
        // int8: the f32 weight copies the GEMMs read (layer, iteration,
        // projection; rnn_int8_weights_mds).
        const memory_desc_t *int8_weights_mds() const { return wdeq_; }

    private:
        status_t check_problem() const;
        status_t init_int8();
        void plan_gemms(const device_info_t &dev);
        rnn_plan_t plan_;
        memory_desc_t wdeq_[3] = {};
        rnn_gemm_t gemms_[rg_count];
        std::string name_;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    const gemm_kernels_t &gemm(rnn_gemm_role_t r) const { return gemms_[r]; }
    // The kernels of rnn.cl, by name.
    enum kernel_t {
        k_copy,
        k_vanilla_fwd,
        k_lstm_fwd,
        k_gru_fwd1,
        k_gru_fwd2,
        k_lbr_fwd,
        k_vanilla_bwd,
        k_lstm_bwd,
        k_gru_bwd1,
        k_gru_bwd2,
        k_lbr_bwd,
        k_augru_att_bwd,
        k_col_sums,
        k_peephole_bwd,
        k_mul_rows,
        k_qgrid_rows,
        k_dequant_w,
        k_count
    };
    const ocl_kernel_t &kernel(kernel_t k) const { return kernels_[k]; }
    const rnn_int8_scales_t &int8_scales() const { return int8_scales_; }

private:
    status_t execute_fwd(const exec_ctx_t &ctx) const;
    status_t execute_bwd(const exec_ctx_t &ctx) const;
    gemm_kernels_t gemms_[rg_count];
    ocl_kernel_t kernels_[k_count];
    rnn_int8_scales_t int8_scales_; // int8 problems only
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
