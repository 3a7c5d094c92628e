// Recurrent primitives on the GEMM core, every cell kind and direction,
// forward (inference and training) and backward:
//   per layer and direction, one GEMM gives all iterations' input
//   projections (x W_layer + bias); each iteration then adds the
//   recurrent GEMM (h' W_iter; GRU: two, the second on r * h') and runs the
//   cell's element-wise part, parallel over batch rows and channel blocks;
//   LSTM projection is one more GEMM per iteration.
// Backward walks the same grid in reverse, one GEMM per iteration for the
// recurrent diff and, per layer, one GEMM each for the input diff and the
// weight diffs over all iterations.
// States are f32 inside (rnn_plan.hpp); weights are read in place through
// their strides, so any plain layout whose gate and channel dims merge
// works (ldigo, ldgoi); f32 weights given as `any` become the GEMM core's
// packed panels when the channels allow: forward ldgOi32o / ldgOi16o (W),
// backward ldgIo32i / ldgIo16i (W^T, one GEMM per gate).
#pragma once

#include <string>

#include "common/rnn_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "common/rnn_plan.hpp"
#include "cpu/rnn/rnn_brgemm.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

struct gemm_rnn_t : public primitive_t {
    struct pd_t : public cpu_pd_t<rnn_pd_t, gemm_rnn_t> {
        pd_t(const rnn_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : cpu_pd_t(d, attr) {}
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);
        const rnn_plan_t &plan() const { return plan_; }
        // Weights in the GEMM core's pre-packed B layout, read as packed
        // panels and never repacked: forward ldgOi<NR>o (what `any`
        // resolves to when DHC is a multiple of the kernel's NR), backward
        // ldgIo<NR>i, W^T per gate (when the weights' input channels are).
        bool wl_packed() const { return wl_packed_; }
        bool wi_packed() const { return wi_packed_; }
        // Columns of the packed f32 weight panels the BRGEMM kernels
        // multiply (0: every GEMM on the GEMM core): weights packed by
        // the user or by the execution, and a BRGEMM tile for them.
        int brgemm_nr() const { return brgemm_nr_; }
        // The scratchpad: the plan's buffers, then (BRGEMM) room for a
        // copy of a GEMM's A with rows that do not alias in L1.
        size_t brgemm_a_offset() const { return (plan_.scratch_bytes + 63) / 64 * 64; }
        size_t brgemm_a_elems() const { return brgemm_a_elems_; }
        size_t scratch_bytes() const {
            return brgemm_a_elems_ ? brgemm_a_offset() + brgemm_a_elems_ * sizeof(float)
                                   : plan_.scratch_bytes;
        }

    private:
        bool data_types_ok() const;
        bool is_int8() const;
        bool layouts_ok() const;
        status_t init_packed_weights();
        rnn_plan_t plan_;
        bool wl_packed_ = false, wi_packed_ = false;
        int brgemm_nr_ = 0;
        size_t brgemm_a_elems_ = 0;
        std::string name_;
    };

    using primitive_t::primitive_t;
    const pd_t *pd() const { return static_cast<const pd_t *>(primitive_t::pd()); }
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    // The weight GEMMs over packed f32 panels (rnn_brgemm.hpp).
    rnn_brgemm_t brgemm_;
    status_t execute_fwd(const exec_ctx_t &ctx, char *ws, char *scratch) const;
    status_t execute_bwd(const exec_ctx_t &ctx, char *ws, char *scratch) const;
};

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
