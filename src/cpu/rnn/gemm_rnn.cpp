// GEMM-based RNN: descriptor checks, layouts, the workspace / scratchpad
// plan and the forward pass.
#include "cpu/rnn/gemm_rnn.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/verbose.hpp"
#include "cpu/gemm/gemm.hpp"
#include "cpu/rnn/rnn_cells.hpp"
#include "cpu/rnn/rnn_exec.hpp"
#include "cpu/rnn/rnn_int8.hpp"
#include "cpu/rnn/rnn_parallel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

namespace {

// Diff weights are GEMM outputs: one of the two matrix dims has a unit
// stride (ldigo: channels; ldgoi: inputs).
bool diff_weights_ok(const memory_desc_t &md, int in_dim, int out_dim) {
    if (is_zero_md(md)) return true;
    const dim_t *s = md.format_desc.blocking.strides;
    return s[out_dim] == 1 || s[in_dim] == 1;
}

} // namespace

bool gemm_rnn_t::pd_t::data_types_ok() const {
    // f32, bf16 and f16 (the descriptor check fixed the combinations):
    // inputs are converted to f32 states, weights go to the GEMM as they
    // are, states and gates stay f32 inside. int8 (LSTM and GRU inference,
    // s8 data for LSTM only, as oneDNN's CPU engine) on the f32 path with
    // dequantized inputs (rnn_int8.hpp).
    const data_type_t dt = desc()->src_layer_desc.data_type;
    if (dt == dnnl_u8) return true;
    if (dt == dnnl_s8) return cell_kind() == dnnl_vanilla_lstm;
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

bool gemm_rnn_t::pd_t::is_int8() const {
    const data_type_t dt = desc()->src_layer_desc.data_type;
    return dt == dnnl_u8 || dt == dnnl_s8;
}

// The packed tags of the GEMM core's NR (f32 kernels), undef for none:
// forward B = W (K = inputs, N = gates x outputs) in panels of NR outputs
// per gate; backward B = W^T per gate (K = outputs, N = inputs) in panels
// of NR inputs.
static format_tag_t packed_tag(int nr, bool backward) {
    if (backward) return nr == 32 ? dnnl_ldgIo32i : nr == 16 ? dnnl_ldgIo16i : dnnl_format_tag_undef;
    return nr == 32 ? dnnl_ldgOi32o : nr == 16 ? dnnl_ldgOi16o : dnnl_format_tag_undef;
}

static int f32_nr() {
    return gemm::f32_packed_b_nr(dnnl_f32, dnnl_f32, dnnl_fpmath_mode_strict);
}

status_t gemm_rnn_t::pd_t::init_packed_weights() {
    const int nr = f32_nr();
    const format_tag_t tag = packed_tag(nr, !is_fwd());
    if (tag == dnnl_format_tag_undef || desc()->weights_layer_desc.data_type != dnnl_f32)
        return dnnl_success;
    // Forward panels run along the outputs of every gate, backward ones
    // along the inputs of one weight tensor: whole panels only.
    const bool wl_fits = is_fwd() ? DHC() % nr == 0 : SLC() % nr == 0;
    const bool wi_fits = is_fwd() ? DHC() % nr == 0 : SIC() % nr == 0;
    if (wl_fits && weights_layer_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(md_set_format_by_tag(weights_layer_md_, tag));
    if (wi_fits && weights_iter_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(md_set_format_by_tag(weights_iter_md_, tag));
    wl_packed_ = wl_fits && md_matches_tag(weights_layer_md_, tag);
    wi_packed_ = wi_fits && md_matches_tag(weights_iter_md_, tag);
    return dnnl_success;
}

bool gemm_rnn_t::pd_t::layouts_ok() const {
    if (!rnn_plain_but_weights(*this)) return false;
    if (!wl_packed_ && (!rnn_plain(weights_layer_md_) || !rnn_gates_merge(weights_layer_md_)))
        return false;
    if (!wi_packed_ && (!rnn_plain(weights_iter_md_) || !rnn_gates_merge(weights_iter_md_)))
        return false;
    if (is_fwd()) return true;
    return rnn_gates_merge(diff_weights_layer_md_) && rnn_gates_merge(diff_weights_iter_md_)
            && diff_weights_ok(diff_weights_layer_md_, 2, 4)
            && diff_weights_ok(diff_weights_iter_md_, 2, 4)
            && diff_weights_ok(diff_weights_projection_md_, 2, 3);
}

status_t gemm_rnn_t::pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    if (!data_types_ok()) return dnnl_unimplemented;
    // oneDNN's choices for `any`: ldigo forward, ldgoi for the backward
    // weights (their diffs ldigo).
    for (memory_desc_t *md : {&diff_weights_layer_md_, &diff_weights_iter_md_})
        if (!is_zero_md(*md) && md->format_kind == dnnl_format_kind_any)
            DNNL_CHECK(md_set_format_by_tag(*md, dnnl_ldigo));
    DNNL_CHECK(init_packed_weights());
    DNNL_CHECK(init_formats(is_fwd() ? dnnl_ldigo : dnnl_ldgoi));
    if (!layouts_ok()) return dnnl_unimplemented;

    rnn_dims_t d = rnn_dims_of(*this);
    d.int8 = is_int8();
    // An integral shift is the integer GEMM's zero point; any other runs
    // the int8 problem in f32 on dequantized values.
    const float shift = attr()->rnn_data_qparams.shift;
    d.int8_gemm = d.int8 && std::nearbyint(shift) == shift && std::fabs(shift) < 1e9f;
    if (d.int8) {
        const status_t st = check_rnn_int8_qparams(*attr(), d);
        if (st != dnnl_success) {
            verbose_error("rnn", "int8 quantization parameters do not fit the problem");
            return st;
        }
    }
    // The per-step GEMMs reuse their weights T times: pack them once per
    // layer when the GEMM core has a packed layout for f32 weights (int8
    // weights are dequantized to f32 copies, which pack like f32 ones).
    const data_type_t wdt = desc()->weights_iter_desc.data_type;
    const int nr = (wdt == dnnl_f32 || (d.int8 && !d.int8_gemm)) && T() > 1 ? f32_nr() : 0;
    plan_.init(d, !is_fwd(), nr, T() > 1 ? gemm::s32_packed_b_nr() : 0);
    set_workspace(d.training ? plan_.state_bytes : 0);
    // Packed f32 panels (ours or the user's) go to the BRGEMM kernels; the
    // name then lists their tile before the GEMM core's kernel, which
    // runs the rest (diff weights, GEMMs over plain operands).
    const bool f32_panels = (wdt == dnnl_f32 || (d.int8 && !d.int8_gemm))
            && (nr > 0 || wl_packed_ || wi_packed_);
    if (f32_panels && rnn_brgemm_t::tile_rows(f32_nr()) > 0) {
        brgemm_nr_ = f32_nr();
        // The widest A of a weight GEMM: T x N rows (layer GEMMs, the
        // backward's gate diffs) of the widest K (inputs, states, gates).
        dim_t k = std::max({d.SLC, d.SIC, d.DIC, d.ldg(), 3 * d.DHC});
        brgemm_a_elems_ = (size_t)(d.T * d.N) * (size_t)rnn_brgemm_t::padded_ld(k);
    }
    book_scratchpad(scratch_bytes());
    if (d.int8_gemm)
        name_ = std::string("gemm_rnn:int8:") + gemm::s32_kernel_name();
    else
        name_ = std::string(d.int8 ? "gemm_rnn:int8_on_f32:" : "gemm_rnn:")
                + (brgemm_nr_ ? rnn_brgemm_t::kernel_name(brgemm_nr_) + "+" : "")
                + gemm::f32_kernel_name();
    return dnnl_success;
}

status_t gemm_rnn_t::execute(const exec_ctx_t &ctx) const {
    const auto &p = pd()->plan();
    char *scratch = (char *)ctx.scratchpad();
    char *owned = nullptr;
    const size_t scratch_bytes = pd()->scratch_bytes();
    if (!scratch && scratch_bytes) {
        owned = (char *)std::aligned_alloc(64, (scratch_bytes + 63) / 64 * 64);
        if (!owned) return dnnl_out_of_memory;
        scratch = owned;
    }
    char *ws = p.dims.training ? (char *)ctx.host_ptr(DNNL_ARG_WORKSPACE) : scratch;
    status_t st = dnnl_invalid_arguments;
    if (ws || p.state_bytes == 0)
        st = pd()->is_fwd() ? execute_fwd(ctx, ws, scratch) : execute_bwd(ctx, ws, scratch);
    std::free(owned);
    return st;
}

namespace {

// One forward step of (l, d) at time t: recurrent GEMMs and the cell.
// The per-step weights of (l, d): W_iter (GRU: its u, r columns and its o
// columns apart) and the projection, packed when the plan packs.
struct step_w_t {
    mat_t wi, wi_o, proj;
};

step_w_t step_weights(rnn_exec_t &e, dim_t l, dim_t d) {
    const auto &dm = e.dm;
    const dim_t H = dm.DHC;
    step_w_t w;
    if (dm.gru) {
        w.wi = e.pack(e.wmat(e.w_iter, l, d, 0, false), dm.SIC, 2 * H, true);
        w.wi_o = e.pack(e.wmat(e.w_iter, l, d, 2 * H, false), H, H, false);
    } else {
        w.wi = e.pack(e.wmat(e.w_iter, l, d, 0, false), dm.SIC, dm.ldg(), true);
    }
    if (dm.projection) w.proj = e.pack(e.proj(l, d, false), H, dm.DIC, false);
    return w;
}

void fwd_step(const rnn_exec_t &e, const step_w_t &w, const gemm_rnn_t::pd_t *pd,
        dim_t l, dim_t d, dim_t t, float *gates_t) {
    const auto &dm = e.dm;
    const dim_t N = dm.N, H = dm.DHC, ldg = dm.ldg(), ldh = dm.ldh();
    const float *hp = e.p.h_slot(e.ws, l, d, e.prev_slot(d, t));
    float *h = e.p.h_slot(e.ws, l, d, t + 1);
    cell_fwd_t c;
    c.DHC = H;
    c.gates = gates_t;
    c.ldg = ldg;
    c.hp = hp;
    c.ldh = ldh;
    c.h = h;
    c.ldo = ldh;
    c.act = pd->desc()->activation_kind;
    c.alpha = pd->desc()->alpha;
    if (dm.augru) c.att = e.att_f32() + t * N;
    const cell_kernels_t &k = cells();
    auto run = [&](cell_fwd_f f) {
        parallel_rows_cols(N, H, [&](dim_t n0, dim_t n1, dim_t j0, dim_t j1) {
            f(c, n0, n1, j0, j1);
        });
    };
    if (dm.cell == dnnl_vanilla_rnn || dm.lstm) {
        e.gemm(N, ldg, dm.SIC, dense(hp, ldh), w.wi, gates_t, ldg, 1.f);
        if (dm.cell == dnnl_vanilla_rnn) return run(k.vanilla_fwd);
        c.cp = e.p.c_slot(e.ws, l, d, e.prev_slot(d, t));
        c.c = e.p.c_slot(e.ws, l, d, t + 1);
        if (dm.peephole) c.peephole = e.peephole_f32(l, d);
        float *ht = nullptr;
        if (dm.projection) {
            ht = e.p.at(e.ws, e.p.ht, l, d) + t * N * H;
            c.h = ht;
            c.ldo = H;
        }
        run(k.lstm_fwd);
        if (dm.projection) {
            if (dm.int8) e.quant.apply(ht, N, H, H);
            e.gemm(N, dm.DIC, H, dense(ht, H), w.proj, h, ldh, 0.f);
        }
        if (dm.int8) e.quant.apply(h, N, dm.DIC, ldh);
        return;
    }
    if (dm.gru) {
        c.rec = e.tmp();
        e.gemm(N, 2 * H, dm.SIC, dense(hp, ldh), w.wi, gates_t, ldg, 1.f);
        run(k.gru_fwd_part1);
        if (dm.int8) e.quant.apply(c.rec, N, H, H);
        e.gemm(N, H, H, dense(c.rec, H), w.wi_o, gates_t + 2 * H, ldg, 1.f);
        run(k.gru_fwd_part2);
        if (dm.int8) e.quant.apply(h, N, H, ldh);
        return;
    }
    // Linear-before-reset: U h of all three gates, then the cell.
    c.rec = e.tmp();
    c.bias_extra = e.bias_f32(l, d) + 3 * H;
    c.grid = e.p.at(e.ws, e.p.grid, l, d) + t * N * H;
    e.gemm(N, 3 * H, dm.SIC, dense(hp, ldh), w.wi, c.rec, 3 * H, 0.f);
    run(k.lbr_fwd);
}

} // namespace

status_t gemm_rnn_t::init(engine_t *) {
    // f32 weights in the GEMM core's packed panels (given so, or packed by
    // the execution) run on the BRGEMM kernels where the ISA has them.
    if (pd()->brgemm_nr()) brgemm_.init(pd()->brgemm_nr());
    return dnnl_success;
}

status_t gemm_rnn_t::execute_fwd(const exec_ctx_t &ctx, char *ws, char *scratch) const {
    rnn_exec_t e(pd(), ctx, ws, scratch);
    e.brgemm = &brgemm_;
    const auto &dm = e.dm;
    const dim_t T = dm.T, N = dm.N, ldg = dm.ldg();
    if (dm.int8) prepare_int8(e, *pd()->attr());
    e.load_inputs();
    for (dim_t d = 0; d < dm.D; ++d) {
        for (dim_t l = 0; l < dm.L; ++l) {
            e.load_init_state(l, d);
            // All iterations' input projections and biases in one GEMM.
            dim_t ldx = 0;
            const float *x = e.layer_input(l, d, ldx);
            const dim_t K = l == 0 ? dm.SLC : dm.DIC;
            float *gates = e.p.at(ws, e.p.gates, l, d);
            mat_t wl = e.wmat(e.w_layer, l, d, 0, false);
            // int8 on integers: column sums (and packing) of s8 weights;
            // f32 layer weights are read once, in place.
            if (wl.dt == dnnl_s8) wl = e.prepare_s8(wl, K, ldg, true);
            e.gemm(T * N, ldg, K, dense(x, ldx), wl, gates, ldg,
                    0.f, e.bias_f32(l, d));
            const step_w_t w = step_weights(e, l, d);
            for (dim_t s = 0; s < T; ++s) {
                const dim_t t = e.r2l(d) ? T - 1 - s : s;
                fwd_step(e, w, pd(), l, d, t, gates + t * N * ldg);
            }
            e.store_dst_iter(l, d);
        }
        e.store_dst_layer(d);
    }
    return dnnl_success;
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
