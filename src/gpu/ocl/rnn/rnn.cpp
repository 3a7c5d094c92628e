// Gpu RNN: descriptor checks, the plan of buffers and GEMM roles, kernel
// builds and the implementation list.
#include "gpu/ocl/rnn/rnn.hpp"

#include <algorithm>

#include "common/verbose.hpp"
#include "common/rnn_qparams.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

const dim_t *strides(const memory_desc_t &md) {
    return md.format_desc.blocking.strides;
}

// A GEMM configuration with f32 A and C: B of `b_dt` read with access
// `b`, C n-contiguous or not, C += A B when `sum`.
gemm_conf_t conf_of(gemm_access_t a, data_type_t b_dt, gemm_access_t b,
        bool c_ncontig, bool bias, bool sum) {
    gemm_conf_t c;
    c.a_dt = dnnl_f32;
    c.b_dt = b_dt;
    c.c_dt = dnnl_f32;
    c.a = a;
    c.b = b;
    c.c_ncontig = c_ncontig;
    c.with_bias = bias;
    if (sum) {
        dnnl_post_ops po;
        post_op_t s;
        s.kind = post_op_kind_t::sum;
        po.entries.push_back(s);
        memory_desc_t md = zero_md();
        md.ndims = 2;
        md.data_type = dnnl_f32;
        c.post_ops.init(po, md, "rnn");
    }
    return c;
}

// Access of a weights tensor read as [in, out] (trans: [out, in]) with
// strides s_in, s_out over dims d_in, d_out.
gemm_access_t w_access(
        dim_t s_in, dim_t s_out, dim_t d_in, dim_t d_out, bool trans) {
    return trans ? gemm_access_of(s_out, s_in, d_out, d_in)
                 : gemm_access_of(s_in, s_out, d_in, d_out);
}

} // namespace

status_t ocl_rnn_t::pd_t::check_problem() const {
    // int8 (LSTM and GRU inference, the descriptor checks fixed the
    // rest): s8 data for LSTM only, as on the CPU.
    const data_type_t dt = desc()->src_layer_desc.data_type;
    if (dt == dnnl_s8 && cell_kind() != dnnl_vanilla_lstm) {
        verbose_check("rnn", "gpu: s8 data for int8 LSTM only");
        return dnnl_unimplemented;
    }
    if (dt != dnnl_f32 && dt != dnnl_bf16 && dt != dnnl_f16 && dt != dnnl_u8
            && dt != dnnl_s8) {
        verbose_check("rnn", "gpu: data type not supported");
        return dnnl_unimplemented;
    }
    const memory_desc_t *w[] = {&weights_layer_md_, &weights_iter_md_,
            &diff_weights_layer_md_, &diff_weights_iter_md_};
    bool ok = rnn_plain_but_weights(*this);
    for (const memory_desc_t *md : w)
        ok = ok && rnn_plain(*md) && rnn_gates_merge(*md);
    if (!ok) {
        verbose_check("rnn", "gpu: plain layouts only, weights with gate and "
                             "channel dims that merge (ldigo, ldgoi)");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

void ocl_rnn_t::pd_t::plan_gemms(const device_info_t &dev) {
    const rnn_dims_t &d = plan_.dims;
    const dim_t TN = d.T * d.N, H = d.DHC, ldg = d.ldg();
    const dim_t K0 = std::max(d.SLC, d.DIC);
    const auto rm = gemm_access_t::row_major, cm = gemm_access_t::col_major;
    auto set = [&](rnn_gemm_role_t r, const gemm_conf_t &c, dim_t M, dim_t N,
                       dim_t K) {
        gemm_shape_t s;
        s.M = M, s.N = N, s.K = K;
        gemms_[r].used = true;
        gemms_[r].conf = c;
        gemms_[r].plan = plan_gemm(dev, c, &s);
    };
    // int8: the GEMMs read the f32 copies of the weights.
    const bool q = d.int8;
    const memory_desc_t &wl = q ? wdeq_[0] : weights_layer_md_,
                        &wi = q ? wdeq_[1] : weights_iter_md_,
                        &wp = q ? wdeq_[2] : weights_projection_md_;
    auto wacc = [&](const memory_desc_t &w, bool trans) {
        const dim_t *s = strides(w);
        return w_access(s[2], s[4], w.dims[2], w.dims[3] * w.dims[4], trans);
    };
    auto pacc = [&](bool trans) {
        const dim_t *s = strides(wp);
        return w_access(s[2], s[3], wp.dims[2], wp.dims[3], trans);
    };
    if (is_fwd()) {
        set(rg_layer,
                conf_of(rm, wl.data_type, wacc(wl, false), true, true, false),
                TN, ldg, K0);
        set(rg_iter,
                conf_of(rm, wi.data_type, wacc(wi, false), true, false, !d.lbr),
                d.N, ldg, std::max(d.SIC, H));
        if (d.projection)
            set(rg_proj,
                    conf_of(rm, wp.data_type, pacc(false), true, false, false),
                    d.N, d.DIC, H);
        return;
    }
    // GRU-like cells add the recurrent diff to the cell's part of dh'.
    const bool gru_like = d.gru || d.lbr;
    set(rg_iter_t,
            conf_of(rm, wi.data_type, wacc(wi, true), true, false, gru_like),
            d.N, d.SIC, ldg);
    if (d.projection)
        set(rg_proj_t,
                conf_of(rm, wp.data_type, pacc(true), true, false, false), d.N,
                H, d.DIC);
    set(rg_layer_t,
            conf_of(rm, wl.data_type, wacc(wl, true), true, false, true), TN,
            K0, ldg);
    // Diff weights: C is the user's tensor, n-contiguous (ldigo) or not.
    const bool sum = !diff_weights_overwrite();
    auto dw = [&](rnn_gemm_role_t r, const memory_desc_t &w, int out_dim,
                      dim_t M, dim_t N) {
        const bool nc = strides(w)[out_dim] == 1;
        set(r, conf_of(cm, dnnl_f32, rm, nc, false, sum), M, N, TN);
    };
    dw(rg_dw_layer, diff_weights_layer_md_, 4, K0, ldg);
    dw(rg_dw_iter, diff_weights_iter_md_, 4, d.SIC, ldg);
    if (d.projection) dw(rg_dw_proj, diff_weights_projection_md_, 3, H, d.DIC);
}

// The int8 facts of the plan: the CPU's checks of the quantization
// parameters (the same statuses) and the f32 copies of the weights.
status_t ocl_rnn_t::pd_t::init_int8() {
    const status_t st = check_rnn_int8_qparams(*attr(), plan_.dims);
    if (st != dnnl_success) {
        verbose_error(
                "rnn", "int8 quantization parameters do not fit the problem");
        return st;
    }
    return rnn_int8_weights_mds(plan_, wdeq_);
}

status_t ocl_rnn_t::pd_t::init(engine_t *engine) {
    // oneDNN's choices for `any`: ldigo forward, ldgoi for the backward
    // weights, their diffs ldigo.
    for (memory_desc_t *md : {&diff_weights_layer_md_, &diff_weights_iter_md_})
        if (!is_zero_md(*md) && md->format_kind == dnnl_format_kind_any)
            DNNL_CHECK(md_set_format_by_tag(*md, dnnl_ldigo));
    DNNL_CHECK(init_formats(is_fwd() ? dnnl_ldigo : dnnl_ldgoi));
    DNNL_CHECK(check_problem());
    rnn_dims_t d = rnn_dims_of(*this);
    const data_type_t dt = desc()->src_layer_desc.data_type;
    // int8 runs on f32 GEMMs (int8_gemm stays false): the plan places
    // the dequantized weights.
    d.int8 = dt == dnnl_u8 || dt == dnnl_s8;
    plan_.init(d, !is_fwd(), 0);
    if (d.int8) DNNL_CHECK(init_int8());
    set_workspace(plan_.dims.training ? plan_.state_bytes : 0);
    book_scratchpad(plan_.scratch_bytes);
    plan_gemms(device_info_of(engine));
    // ocl:rnn: (int8: ocl:rnn:int8_on_f32:, as the CPU's
    // gemm_rnn:int8_on_f32:) and the layer GEMM's kernel
    // (gemm_f32_128x128, ...).
    std::string g = gemms_[is_fwd() ? rg_layer : rg_layer_t].plan.name;
    if (g.compare(0, 4, "ocl:") == 0) g = g.substr(4);
    name_ = std::string(d.int8 ? "ocl:rnn:int8_on_f32:" : "ocl:rnn:") + g;
    return dnnl_success;
}

status_t ocl_rnn_t::init(engine_t *engine) {
    const pd_t &pd = *pd_();
    for (int r = 0; r < rg_count; ++r) {
        const rnn_gemm_t &g = pd.gemm((rnn_gemm_role_t)r);
        if (g.used) DNNL_CHECK(gemms_[r].init(engine, g.conf, g.plan));
    }
    // Every kernel of rnn.cl in one program, in kernel_t's order.
    static const std::vector<const char *> names = {"rnn_copy",
            "rnn_vanilla_fwd", "rnn_lstm_fwd", "rnn_gru_fwd1", "rnn_gru_fwd2",
            "rnn_lbr_fwd", "rnn_vanilla_bwd", "rnn_lstm_bwd", "rnn_gru_bwd1",
            "rnn_gru_bwd2", "rnn_lbr_bwd", "rnn_augru_att_bwd", "rnn_col_sums",
            "rnn_peephole_bwd", "rnn_mul_rows", "rnn_qgrid_rows",
            "rnn_dequant_w"};
    std::vector<ocl_kernel_t> ks;
    DNNL_CHECK(create_kernels(
            engine, "rnn/rnn.cl", kernel_options_t(), names, ks));
    for (int k = 0; k < k_count; ++k) kernels_[k] = ks[k];
    if (pd.plan().dims.int8)
        DNNL_CHECK(int8_scales_.create(engine, *pd.attr(), pd.plan().dims));
    return dnnl_success;
}

status_t ocl_rnn_t::execute(const exec_ctx_t &ctx) const {
    const rnn_plan_t &p = pd_()->plan();
    if (p.scratch_bytes && !scratchpad_of(ctx)) {
        verbose_error("rnn", "gpu: no scratchpad buffer");
        return dnnl_invalid_arguments;
    }
    if (p.dims.training && p.state_bytes && !mem_of(ctx, DNNL_ARG_WORKSPACE)) {
        verbose_error("rnn", "gpu: no workspace buffer");
        return dnnl_invalid_arguments;
    }
    return pd_()->is_fwd() ? execute_fwd(ctx) : execute_bwd(ctx);
}

const impl_list_item_t *rnn_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_rnn_t::pd_t, rnn_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
