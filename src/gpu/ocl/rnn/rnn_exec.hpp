// One execution of a gpu RNN: where each f32 buffer of the plan lives (a
// device buffer and an offset in floats), the user tensors, block copies
// between them (rnn_copy of rnn.cl), cell launches and the GEMM call.
#pragma once

#include "gpu/ocl/rnn/rnn.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// An f32 buffer of the plan: device buffer and offset in floats.
struct rnn_loc_t {
    cl_mem m = nullptr;
    dim_t off = 0;
    rnn_loc_t at(dim_t floats) const { return {m, off + floats}; }
};

// A user tensor: its buffer and resolved descriptor (m null: absent).
struct rnn_tensor_t {
    cl_mem m = nullptr;
    const memory_desc_t *md = nullptr;
    explicit operator bool() const { return m != nullptr; }
    const dim_t *st() const { return md->format_desc.blocking.strides; }
    // Offset of an element in elements (missing trailing indices 0).
    dim_t off(dim_t a, dim_t b = 0, dim_t c = 0, dim_t d = 0) const;
};

// A GEMM operand: element (r, c) at off + r * rs + c * cs.
struct rnn_mat_t {
    cl_mem m = nullptr;
    dim_t off = 0, rs = 0, cs = 1;
    rnn_mat_t at_col(dim_t c) const { return {m, off + c * cs, rs, cs}; }
};

inline rnn_mat_t dense(const rnn_loc_t &l, dim_t ld) {
    return {l.m, l.off, ld, 1};
}
inline rnn_mat_t dense_t(const rnn_loc_t &l, dim_t ld) {
    return {l.m, l.off, 1, ld};
}

// The vanilla RNN activation as rnn.cl's kernels take it.
inline int32_t act_code(alg_kind_t k) {
    return k == dnnl_eltwise_relu ? 0 : k == dnnl_eltwise_tanh ? 1 : 2;
}

// The user tensors are the members of rnn_tensors_t (src_layer, ...).
struct rnn_exec_t : public rnn_tensors_t<rnn_tensor_t> {
    rnn_exec_t(const ocl_rnn_t *prim, const exec_ctx_t &ctx);

    const ocl_rnn_t *prim;
    const ocl_rnn_t::pd_t *pd;
    const exec_ctx_t &ctx;
    const rnn_plan_t &p;
    const rnn_dims_t &dm;
    cl_mem ws = nullptr, scratch = nullptr;
    // int8: the copies' quantization of u8 / s8 data and the states'
    // grid (rnn_int8.hpp; the grid is all zero for other problems).
    cl_float2 quant;
    cl_float4 qgrid;

    bool r2l(dim_t d) const;
    dim_t init_slot(dim_t d) const { return r2l(d) ? dm.T + 1 : 0; }
    dim_t prev_slot(dim_t d, dim_t t) const { return r2l(d) ? t + 2 : t; }
    dim_t prev_first(dim_t d) const { return r2l(d) ? 2 : 0; }

    // Buffers of the plan.
    rnn_loc_t state(const rnn_buf_t &b, dim_t l, dim_t d) const;
    rnn_loc_t h_slot(dim_t l, dim_t d, dim_t slot) const;
    rnn_loc_t c_slot(dim_t l, dim_t d, dim_t slot) const;
    rnn_loc_t scr(size_t byte_off) const {
        return {scratch, (dim_t)(byte_off / 4)};
    }
    rnn_loc_t bias_f32(dim_t l, dim_t d) const;
    rnn_loc_t peephole_f32(dim_t l, dim_t d) const;
    rnn_loc_t layer_input(dim_t l, dim_t d, dim_t &ld) const;

    // Weights of (l, d) as a GEMM B from column col0 of the gates
    // ([input channels, gates]) or transposed; the projection likewise.
    rnn_mat_t wmat(const rnn_tensor_t &w, dim_t l, dim_t d, dim_t col0,
            bool trans) const;
    rnn_mat_t proj(dim_t l, dim_t d, bool trans) const;

    // C (M x N, ld ldc) = A B (+ C when the role sums) (+ bias per column).
    status_t gemm(rnn_gemm_role_t role, dim_t M, dim_t N, dim_t K,
            const rnn_mat_t &a, const rnn_mat_t &b, const rnn_mat_t &c,
            const rnn_loc_t *bias = nullptr) const;

    // Block copy of up to 4 dims (n[i] sizes, strides per side, elements
    // of each side's type); src_m null writes zeros; accumulate adds to
    // the destination.
    struct side_t {
        cl_mem m;
        data_type_t dt;
        dim_t off;
        dim_t st[4];
    };
    status_t copy(const side_t &src, const side_t &dst, const dim_t n[4],
            bool accumulate = false) const;
    // Rows x cols of a user tensor from element `off` (row stride rs,
    // column stride cs) to / from an f32 block (ld), optionally `outer`
    // times with strides os (user) and ol (f32).
    status_t load(const rnn_tensor_t &t, dim_t off, dim_t rs, dim_t cs,
            dim_t rows, dim_t cols, const rnn_loc_t &to, dim_t ld,
            dim_t outer = 1, dim_t os = 0, dim_t ol = 0) const;
    status_t store(const rnn_tensor_t &t, dim_t off, dim_t rs, dim_t cs,
            dim_t rows, dim_t cols, const rnn_loc_t &from, dim_t ld,
            bool accumulate = false, dim_t outer = 1, dim_t os = 0,
            dim_t ol = 0) const;
    status_t zero(const rnn_loc_t &to, dim_t rows, dim_t cols, dim_t ld) const;

    // A cell kernel over N rows and DHC channels.
    status_t cell(ocl_rnn_t::kernel_t k, const kernel_args_t &args) const;

    // int8: f32 copies of the weights, which the weight tensors then are.
    status_t prepare_int8();
    // int8: rows x cols of f32 states (ld) put on the grid in place.
    status_t qgrid_rows(
            const rnn_loc_t &at, dim_t rows, dim_t cols, dim_t ld) const;

    // Copies: src_layer to x0, biases and peepholes to f32, attention.
    status_t load_inputs() const;
    status_t load_init_state(dim_t l, dim_t d) const;
    status_t store_dst_iter(dim_t l, dim_t d) const;
    status_t store_dst_layer(dim_t d) const;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
