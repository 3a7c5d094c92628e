// BRGEMM-based f32 / bf16 matmul: descriptor checks (which data types,
// post-ops and layouts the kernel takes), the four kernels of a shape
// (full tile, M tail, N tail, both) from the kernel cache, weight packing
// (f32 rows, or bf16 k pairs) and the threaded walk over output tiles.
#include "cpu/matmul/brgemm_matmul.hpp"
#include "cpu/matmul/gemm_matmul.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/layout_helpers.hpp"
#include "cpu/jit/brgemm_scales.hpp"
#include "cpu/matmul/brgemm_matmul_pack.hpp"
#include "cpu/matmul/gemm_matmul.hpp"
#include "cpu/postops/postops.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

// Whether every dim but the last is 1.
bool only_last(const memory_desc_t &md) {
    for (int d = 0; d + 1 < md.ndims; ++d)
        if (md.dims[d] != 1) return false;
    return true;
}

bool all_ones(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] != 1) return false;
    return true;
}

// Element offset of batch `b` (dst batch index) in a tensor of the same
// rank whose batch dims are either dst's or 1 (broadcast).
dim_t batch_off(const memory_desc_t &dst, const memory_desc_t &md,
        const dim_t *strides, dim_t b) {
    dim_t off = 0;
    for (int d = dst.ndims - 3; d >= 0; --d) {
        const dim_t sz = dst.dims[d];
        const dim_t c = b % sz;
        b /= sz;
        if (md.dims[d] != 1) off += c * strides[d];
    }
    return off;
}

bool is_bf16_or_f32(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16;
}

// Column sums of K x N s8 weights: in the kernel's quads of k (panels of
// `panel` columns, k_rows rows each, zero past K) or plain (element
// (k, n) at k * wk + n * wn).
// `nthr`: the team of the execution's main loop (a team of another size
// between two regions costs OpenMP a regrouping of its threads).
void column_sums_s8(const int8_t *w, dim_t K, dim_t N, bool packed,
        dim_t panel, dim_t k_rows, dim_t wk, dim_t wn, int32_t *out,
        int nthr) {
    const dim_t nb = (N + panel - 1) / panel;
    parallel_chunks(nb * K * panel < (1 << 16) ? 1 : nthr, nb,
            [&](int, dim_t b0, dim_t b1) {
                for (dim_t b = b0; b < b1; ++b) {
                    const dim_t n0 = b * panel;
                    const dim_t n = std::min(panel, N - n0);
                    int32_t *o = out + n0;
                    for (dim_t j = 0; j < n; ++j) o[j] = 0;
                    if (packed) {
                        const int8_t *pb = w + b * k_rows * panel;
                        for (dim_t r = 0; r < k_rows / 4; ++r) {
                            const int8_t *row = pb + r * panel * 4;
                            for (dim_t j = 0; j < n; ++j)
                                o[j] += row[j * 4] + row[j * 4 + 1]
                                        + row[j * 4 + 2] + row[j * 4 + 3];
                        }
                    } else {
                        for (dim_t k = 0; k < K; ++k) {
                            const int8_t *row = w + k * wk + n0 * wn;
                            for (dim_t j = 0; j < n; ++j) o[j] += row[j * wn];
                        }
                    }
                }
            });
}

} // namespace

bool brgemm_matmul_t::pd_t::post_ops_ok() {
    const auto &entries = attr_.post_ops.entries;
    for (size_t e = 0; e < entries.size(); ++e) {
        const post_op_t &p = entries[e];
        jit::brgemm_post_op_t q;
        if (p.kind == post_op_kind_t::sum) {
            // The sum reads dst in dst's type (the kernel converts bf16).
            const data_type_t sdt = p.sum_dt == dnnl_data_type_undef
                                            ? dst_md_.data_type
                                            : p.sum_dt;
            if (sdt != dst_md_.data_type) return false;
            post_op_t f32_sum = p;
            f32_sum.sum_dt = dnnl_data_type_undef;
            if (!jit::brgemm_post_op_of(f32_sum, q)) return false;
        } else if (p.kind != post_op_kind_t::binary) {
            if (!jit::brgemm_post_op_of(p, q)) return false;
        } else {
            const memory_desc_t &s1 = p.src1_md;
            if (s1.data_type != dnnl_f32 || s1.ndims != ndims()) return false;
            binary_arg_t b{(int)e, jit::brgemm_bcast_t::scalar, {}};
            if (all_ones(s1)) {
                b.bcast = jit::brgemm_bcast_t::scalar;
            } else if (only_last(s1) && s1.dims[ndims() - 1] == N()) {
                if (!postops::plain_strides(s1, b.strides)
                        || b.strides[ndims() - 1] != 1)
                    return false;
                b.bcast = jit::brgemm_bcast_t::per_n;
            } else {
                for (int d = 0; d < ndims(); ++d)
                    if (s1.dims[d] != dst_md_.dims[d]
                            && (d >= ndims() - 2 || s1.dims[d] != 1))
                        return false;
                if (!postops::plain_strides(s1, b.strides)
                        || b.strides[ndims() - 1] != 1)
                    return false;
                b.bcast = jit::brgemm_bcast_t::full;
            }
            q.kind = jit::brgemm_post_op_t::binary;
            q.alg = p.alg;
            q.bcast = b.bcast;
            binaries.push_back(b);
        }
        cfg.post_ops.push_back(q);
    }
    return true;
}

status_t brgemm_matmul_t::pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    // f32 x f32 -> f32, bf16 x bf16 -> f32 / bf16 (bias f32 or bf16), or
    // u8 x s8 -> f32 / s8 / u8 (bias f32; scales).
    const data_type_t sdt = src_md_.data_type, ddt = dst_md_.data_type;
    const bool bf16_src = sdt == dnnl_bf16;
    const bool int8 = (sdt == dnnl_u8 || sdt == dnnl_s8)
                      && weights_md_.data_type == dnnl_s8;
    if (int8) {
        if (ddt != dnnl_f32 && ddt != dnnl_s8 && ddt != dnnl_u8
                && ddt != dnnl_s32)
            return dnnl_unimplemented;
        // An s32 dst takes the sums as they are: the kernel stores them
        // raw (K blocks add to dst in place), so nothing may follow.
        if (ddt == dnnl_s32
                && (with_bias() || !attr_.post_ops.entries.empty()
                        || !attr_.scales.empty() || !attr_.zero_points.empty()
                        || sdt == dnnl_s8))
            return dnnl_unimplemented;
    } else if (!is_bf16_or_f32(sdt) || weights_md_.data_type != sdt
               || !(ddt == dnnl_f32 || (bf16_src && ddt == dnnl_bf16))) {
        return dnnl_unimplemented;
    }
    if (with_bias()
            && !(bias_md_.data_type == dnnl_f32
                    || (bf16_src && bias_md_.data_type == dnnl_bf16)))
        return dnnl_unimplemented;
    if (has_runtime_dims_or_strides()) return dnnl_unimplemented;
    // int8: an s8 source and a source zero point become a per-column
    // correction of the sums (jit/brgemm_scales.hpp), made per
    // execution for one weights matrix (no weights batch).
    if (!int8 && (!attr_.scales.empty() || !attr_.zero_points.empty()))
        return dnnl_unimplemented;
    if (int8
            && !quant.init(attr_, 1 << (ndims() - 1),
                    with_bias() || !attr_.post_ops.entries.empty(),
                    sdt == dnnl_s8))
        return dnnl_unimplemented;
    if (quant.comp())
        for (int d = 0; d < ndims() - 2; ++d)
            if (weights_md_.dims[d] != 1) return dnnl_unimplemented;
    // The fpmath mode relaxes f32 inputs only; bf16 ones run exactly.
    // fpmath_mode bf16 (oneDNN's contract: inputs rounded to bf16, f32
    // accumulation) runs the bf16 kernels: src rounded into the
    // scratchpad once per execution, weights while they are packed.
    cvt_src = sdt == dnnl_f32 && attr_.fpmath_mode == dnnl_fpmath_mode_bf16
              && jit::select_brgemm_target(dnnl_bf16);
    if (!bf16_src && !cvt_src && attr_.fpmath_mode != dnnl_fpmath_mode_strict)
        return dnnl_unimplemented;
    for (const auto &r : attr_.rounding_modes)
        if (r.mode != (int)dnnl_rounding_mode_environment)
            return dnnl_unimplemented;
    const bool bf16 = bf16_src || cvt_src; // the kernel's inputs
    target = jit::select_brgemm_target(int8   ? dnnl_u8
                                       : bf16 ? dnnl_bf16
                                              : dnnl_f32);
    if (!target) return dnnl_unimplemented;

    const bool wei_any = weights_md_.format_kind == dnnl_format_kind_any;
    DNNL_CHECK(init_formats());
    if (!layout::is_plain(src_md_) || !layout::is_plain(weights_md_)
            || !layout::is_plain(dst_md_)
            || (with_bias() && !layout::is_plain(bias_md_)))
        return dnnl_unimplemented;
    const int nd = ndims();
    dims_t ss, ds;
    if (!postops::plain_strides(src_md_, ss) || ss[nd - 1] != 1
            || !postops::plain_strides(dst_md_, ds) || ds[nd - 1] != 1)
        return dnnl_unimplemented;
    // Bias per column only (a scalar or per-row bias goes to the GEMM).
    if (with_bias() && (!only_last(bias_md_) || bias_md_.dims[nd - 1] != N()))
        return dnnl_unimplemented;

    cfg = jit::brgemm_config(
            *target, target->tile_m, target->tile_nv * target->lanes());
    cfg.c_dt = ddt;
    quant.exact_s8 = jit::brgemm_is_amx(target->isa);
    quant.configure(cfg);
    cfg.bias = with_bias();
    if (with_bias()) cfg.bias_dt = bias_md_.data_type;
    if (!post_ops_ok()) return dnnl_unimplemented;
    if (!cfg.supported()) return dnnl_unimplemented;

    // An empty dst (a zero M, N or batch) goes to the GEMM (the panel
    // count below would be 0). K = 0 stays: dst = bias and post-ops.
    for (int d = 0; d < nd; ++d)
        if (dst_md_.dims[d] == 0) return dnnl_unimplemented;
    // Where 4 rows or fewer use each panel of B (GEMV-like), the GEMM's
    // small-M kernels streaming plain B are faster than packing it per
    // execution, and `any` stays plain for them as the GEMM has it.
    dim_t rows_per_panel = M();
    for (int d = 0; d < nd - 2; ++d)
        if (weights_md_.dims[d] == 1) rows_per_panel *= dst_md_.dims[d];
    // Except int8 weights of 4 Mi elements or more in `any` (packed
    // once, read in place): there the kernel's quads stream faster than
    // the integer GEMV (inner product 1x4096x4096 u8 x s8, two threads:
    // 0.120 ms against 0.142; 1x2048x1000 was 0.021 against 0.017).
    const bool big_int8_any
            = int8 && wei_any && nd == 2 && K() * N() >= ((dim_t)1 << 22);
    if (rows_per_panel <= 4 && !big_int8_any) return dnnl_unimplemented;
    panel = target->tile_nv * target->lanes();
    // Rounded f32 weights are packed per execution (an f32 layout in
    // panels would save no work).
    if (wei_any && nd == 2 && !cvt_src) {
        weights_md_ = brgemm_weights_md(weights_md_, panel);
        wei_packed = true;
    }
    // The kernel's input elements, and the k per panel row.
    const dim_t es = int8 ? 1 : bf16 ? 2 : 4;
    kstep = 4 / es;
    k_rows = (K() + kstep - 1) / kstep * kstep;

    // bf16: groups of two panels (one, where the units would not give
    // every thread 4). On the Zen 4 development machine, bf16
    // 128x4096:4096x4096 with plain weights on one core: 27.2 ms with
    // single panels, 22.6 with pairs (the pack's rows twice as long),
    // 24.7-26.0 with four, 26.8 with eight. f32 panel rows are twice as
    // long already, and pairs made its Llama prefill problems 2-5% slower
    // on two threads: one panel. int8 (u8 x s8, BERT and Llama shapes):
    // one, two and four panels within 5% of each other, one panel ahead
    // on two threads.
    // Batches folded into M (2 x 10 x 30 : 1 x 30 x 20 f32 on two AVX2
    // cores: 1.87 -> 1.45 us; a batch of short matrices had tiles of a few
    // rows each).
    dim_t nbatch = 1;
    folded = nd > 2;
    for (int d = 0; d < nd - 2; ++d) {
        nbatch *= dst_md_.dims[d];
        if (weights_md_.dims[d] != 1 || src_md_.dims[d] != dst_md_.dims[d])
            folded = false;
    }
    folded = folded && nbatch > 1 && rows_fold(src_md_, ss, nd)
             && rows_fold(dst_md_, ds, nd);
    for (const auto &b : binaries)
        if (b.bcast == jit::brgemm_bcast_t::full) {
            const memory_desc_t &s1 =
                    attr_.post_ops.entries[b.po_index].src1_md;
            for (int d = 0; d < nd - 2; ++d)
                if (s1.dims[d] != dst_md_.dims[d]) folded = false;
            if (!rows_fold(s1, b.strides, nd)) folded = false;
        }
    rows = folded ? nbatch * M() : M();
    if (folded) nbatch = 1;
    const int tm = target->tile_m;
    const dim_t nb_n = (N() + panel - 1) / panel, nb_m = (rows + tm - 1) / tm;
    group = std::min<dim_t>(bf16 ? 2 : 1, nb_n);
    while (group > 1
            && nbatch * ((nb_n + group - 1) / group) * nb_m < 4 * max_threads())
        group /= 2;
    // B blocks of a group of at most 256 KiB (L2 holds one with its A
    // rows and C).
    const dim_t max_kc = (256 * 1024) / (group * panel * es);
    nk = attr_.post_ops.find(post_op_kind_t::sum) >= 0 || K() <= max_kc
                 ? 1
                 : (K() + max_kc - 1) / max_kc;
    kc = nk > 1 ? (K() + nk - 1) / nk : K();
    // Blocks of whole k pairs / quads.
    if (nk > 1) kc = (kc + kstep - 1) / kstep * kstep;
    // Plain weights: each thread packs the K block of the panel it works
    // on into its own buffer, which stays in L2 for the panel's M tiles.
    if (!wei_packed)
        pack_bytes = (size_t)(group * ((kc + kstep - 1) / kstep * kstep) * panel
                              * es);
    // A bf16 dst (or any int8 one) in K blocks: f32 (s32) partial sums of
    // up to 128 KiB of tiles.
    const dim_t unit_bytes = group * tm * panel * (dim_t)sizeof(float);
    run_tiles = std::max<dim_t>(1, (128 * 1024) / unit_bytes);
    if ((ddt != dnnl_f32 || int8) && ddt != dnnl_s32 && nk > 1)
        acc_bytes = (size_t)(run_tiles * unit_bytes);
    // The combined per-column scales of int8 (src's times the weights').
    if (quant.scale == jit::brgemm_scale_t::per_n)
        scale_bytes = (size_t)N() * sizeof(float);
    // The rounded source, dense: [src batch][M][K] bf16 (within 32 MiB;
    // a larger one goes to the GEMM).
    if (cvt_src) {
        dim_t src_rows = M();
        for (int d = 0; d < nd - 2; ++d) src_rows *= src_md_.dims[d];
        cvt_bytes = (size_t)(src_rows * K()) * 2;
        if (cvt_bytes > ((size_t)32 << 20)) return dnnl_unimplemented;
    }
    comp_bytes = quant.comp() ? (size_t)N() * sizeof(int32_t) : 0;
    if (pack_bytes + acc_bytes + cvt_bytes + scale_bytes + comp_bytes > 0)
        book_scratchpad((pack_bytes + acc_bytes) * max_threads()
                        + (cvt_bytes + 63) / 64 * 64
                        + (scale_bytes + 63) / 64 * 64 + comp_bytes);
    name_ = std::string("brg_matmul:") + target->isa_name;
    return dnnl_success;
}

status_t brgemm_matmul_t::init(engine_t *) {
    const pd_t *p = pd_();
    const dim_t M = p->rows, N = p->N();
    const int tm = p->target->tile_m;
    for (int ph = 0; ph < n_phases; ++ph) {
        if ((ph == only) != (p->nk == 1)) continue;
        if (ph == middle && p->nk < 3) continue;
        for (int mt = 0; mt < 2; ++mt)
            for (int nt = 0; nt < 2; ++nt) {
                const int m = mt ? (int)(M % tm) : tm;
                const int n = nt ? (int)(N % p->panel) : p->panel;
                if (m == 0 || n == 0) continue;
                const jit::brgemm_config_t c = jit::brgemm_tile_config(p->cfg, m, n,
                        ph == middle || ph == last, ph == only || ph == last);
                bool hit = false;
                DNNL_CHECK(
                        jit::get_brgemm_kernel(c, kernels_[ph][mt][nt], hit));
            }
    }
    return dnnl_success;
}

status_t brgemm_matmul_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const int nd = p->ndims();
    const memory_desc_t &smd = p->src_md(), &wmd = p->weights_md(),
                        &dmd = p->dst_md();
    const dim_t M = p->rows, N = p->N(), K = p->K();
    dim_t nbatch = 1;
    for (int d = 0; d < nd - 2 && !p->folded; ++d) nbatch *= dmd.dims[d];
    if (M == 0 || N == 0 || nbatch == 0) return dnnl_success;

    // Byte pointers: src and weights of one type (wes bytes), dst of its;
    // the kernel reads es-byte elements (bf16 when the source is rounded).
    const bool int8 = smd.data_type == dnnl_u8 || smd.data_type == dnnl_s8;
    const bool bf16 = smd.data_type == dnnl_bf16 || p->cvt_src;
    const dim_t wes = (dim_t)data_type_size(smd.data_type);
    const dim_t es = 4 / p->kstep;
    const dim_t des = (dim_t)data_type_size(dmd.data_type);
    const char *src = ctx.input<char>(DNNL_ARG_SRC);
    const char *wei = ctx.input<char>(DNNL_ARG_WEIGHTS);
    char *dst = ctx.output<char>(DNNL_ARG_DST);
    const char *bias =
            p->with_bias() ? ctx.input<char>(DNNL_ARG_BIAS) : nullptr;
    if (!dst || (K > 0 && (!src || !wei)) || (p->with_bias() && !bias))
        return dnnl_invalid_arguments;
    if (src) src += smd.offset0 * wes;
    if (wei) wei += wmd.offset0 * wes;
    dst += dmd.offset0 * des;
    if (bias)
        bias += p->bias_md().offset0
                * (dim_t)data_type_size(p->bias_md().data_type);
    const dim_t bias_es =
            bias ? (dim_t)data_type_size(p->bias_md().data_type) : 0;

    std::vector<const float *> bin(p->binaries.size());
    for (size_t i = 0; i < bin.size(); ++i) {
        const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(p->binaries[i].po_index)
                        | DNNL_ARG_SRC_1;
        bin[i] = ctx.input<float>(arg);
        if (!bin[i]) return dnnl_invalid_arguments;
        bin[i] += p->attr()
                          ->post_ops.entries[p->binaries[i].po_index]
                          .src1_md.offset0;
    }

    dims_t ss, ws, ds;
    postops::plain_strides(smd, ss);
    postops::plain_strides(dmd, ds);
    const int panel = p->panel;
    const dim_t G = p->group;
    const dim_t nb_n = (N + panel - 1) / panel, nb_g = (nb_n + G - 1) / G;
    const size_t panel_bytes = (size_t)(p->k_rows * panel * es);

    // Plain weights are packed block by block into per-thread buffers
    // (columns past N zero-filled); a bf16 dst in K blocks keeps the
    // partial sums of a run of tiles in a per-thread f32 buffer after it.
    const int tm = p->target->tile_m;
    const dim_t nb_m = (M + tm - 1) / tm;
    const dim_t units = nbatch * nb_g * nb_m;
    // Two units a thread at least, and a team only for work worth
    // waking it (below 2^17 multiply-adds, about a microsecond on one
    // core, the wake-up costs more than it saves).
    const int nthr = std::min(nthr_for(units, 2),
            nthr_for(nbatch * M * N * std::max<dim_t>(K, 1), 1 << 17));
    struct free_t {
        void operator()(char *q) const { std::free(q); }
    };
    std::unique_ptr<char, free_t> owned;
    char *scratch = nullptr;
    const size_t per_thr = p->pack_bytes + p->acc_bytes;
    const bool pack_b = !p->wei_packed && K > 0;
    const bool cvt = p->cvt_src && K > 0;
    const size_t cvt_off = per_thr * nthr;
    const size_t scale_off = cvt_off + (p->cvt_bytes + 63) / 64 * 64;
    const size_t comp_off = scale_off + (p->scale_bytes + 63) / 64 * 64;
    if (pack_b || p->acc_bytes || cvt || p->scale_bytes || p->comp_bytes) {
        const size_t need = comp_off + p->comp_bytes;
        scratch = static_cast<char *>(ctx.scratchpad());
        if (!scratch || p->scratchpad_size() < need) {
            owned.reset(static_cast<char *>(
                    std::aligned_alloc(64, (need + 63) / 64 * 64)));
            scratch = owned.get();
            if (!scratch) return dnnl_out_of_memory;
        }
    }
    // fpmath bf16: the source rounded into a dense [batch][M][K] copy,
    // which the kernels then read (its strides replace the source's).
    if (cvt) {
        uint16_t *h = reinterpret_cast<uint16_t *>(scratch + cvt_off);
        dims_t cs;
        cs[nd - 1] = 1;
        for (int d = nd - 2; d >= 0; --d) cs[d] = cs[d + 1] * smd.dims[d + 1];
        const dim_t rows = (dim_t)(p->cvt_bytes / 2) / K;
        const float *f = reinterpret_cast<const float *>(src);
        parallel_chunks(nthr_for(rows, 16), rows, [&](int, dim_t r0, dim_t r1) {
            for (dim_t r = r0; r < r1; ++r) {
                // Row r of the dense copy: its batch and M coordinates.
                dim_t off = 0, rem = r;
                for (int d = nd - 2; d >= 0; --d) {
                    off += (rem % smd.dims[d]) * ss[d];
                    rem /= smd.dims[d];
                }
                const float *x = f + off;
                uint16_t *y = h + r * K;
                for (dim_t k = 0; k < K; ++k) y[k] = f32_to_bf16(x[k]);
            }
        });
        src = reinterpret_cast<const char *>(h);
        for (int d = 0; d < nd; ++d) ss[d] = cs[d];
    }
    // int8: the execution's scales, zero points and shift.
    jit::brgemm_quant_values_t qv;
    if (int8)
        DNNL_CHECK(qv.init(ctx, *p->attr(), p->quant, N,
                p->scale_bytes ? reinterpret_cast<float *>(scratch + scale_off)
                               : nullptr));
    // s8 source, source zero point: comp[n] = -shift x column n's sum.
    int32_t *comp = nullptr;
    if (p->quant.comp()) {
        const int32_t shift = qv.shift;
        comp = reinterpret_cast<int32_t *>(scratch + comp_off);
        dims_t wst;
        postops::plain_strides(wmd, wst);
        column_sums_s8(reinterpret_cast<const int8_t *>(wei), K, N,
                p->wei_packed, p->panel, p->k_rows, wst[nd - 2], wst[nd - 1],
                comp, nthr);
        for (dim_t j = 0; j < N; ++j) comp[j] *= -shift;
    }
    dim_t wk = 0, wn = 0;
    if (pack_b) {
        postops::plain_strides(wmd, ws);
        wk = ws[nd - 2];
        wn = ws[nd - 1];
    }
    // A group's panels in the buffer, pstride elements apart.
    const dim_t pstride = (dim_t)p->pack_bytes / (G * es);
    // Packs rows [k0, k0 + kn) of group gb of weight batch wbi into o.
    auto pack = [&](char *o, dim_t wbi, dim_t gb, dim_t k0, dim_t kn) {
        dim_t woff = 0, rem = wbi;
        for (int d = nd - 3; d >= 0; --d) {
            woff += (rem % wmd.dims[d]) * ws[d];
            rem /= wmd.dims[d];
        }
        const dim_t n0 = gb * G * panel;
        const dim_t w0 = woff + n0 * wn + k0 * wk;
        const pack_src_t ps{
                wk, wn, std::min(G * panel, N - n0), (dim_t)panel, pstride};
        if (int8)
            pack_s8(reinterpret_cast<int8_t *>(o),
                    reinterpret_cast<const int8_t *>(wei) + w0, ps, kn);
        else if (p->cvt_src)
            pack_bf16(reinterpret_cast<uint16_t *>(o),
                    reinterpret_cast<const float *>(wei) + w0, ps, kn);
        else if (bf16)
            pack_bf16(reinterpret_cast<uint16_t *>(o),
                    reinterpret_cast<const uint16_t *>(wei) + w0, ps, kn);
        else
            pack_f32(reinterpret_cast<float *>(o),
                    reinterpret_cast<const float *>(wei) + w0, ps, kn);
    };

    // Weight batch index of a dst batch index (broadcast dims map to 0).
    auto wei_batch = [&](dim_t b) {
        dim_t wbi = 0, rem = b;
        dim_t mul = 1;
        for (int d = nd - 3; d >= 0; --d) {
            const dim_t c = rem % dmd.dims[d];
            rem /= dmd.dims[d];
            if (wmd.dims[d] != 1) wbi += c * mul;
            mul *= wmd.dims[d];
        }
        return wbi;
    };
    const size_t acc_ld = (size_t)panel * sizeof(float);
    // Plain weights are packed once per run of units (the M tiles of a
    // panel group) in a chunk, and packed weights far beyond any L3
    // (128 MiB and more) stream from memory once per run: so chunks are
    // a run long where there are runs enough for every thread, and one a
    // thread otherwise. Eight a thread (for balance) cut the runs of a
    // 384x768:768x768 bf16 matmul on 16 threads to about one unit each,
    // every unit packing its group again (0.22 ms against oneDNN's
    // 0.145), and made an inner product of K = 100352 (128 x 1000
    // outputs) read its 400 MB of packed weights eight times (16-core
    // Xeon: 36-43 ms, 23.6 in runs; oneDNN 3.2 19.8). Weights that an L3
    // holds are re-read from it cheaply, and there the finer chunks
    // balance better (runs for 4096 x 1024 weights: 0.72 -> 0.91 ms).
    const bool b_per_run = pack_b
            || (double)K * (double)N * (double)es >= (double)(128 << 20);
    const int chunks_per_thread = b_per_run
            ? (int)std::min<dim_t>(8, std::max<dim_t>(1, units / (nthr * nb_m)))
            : 8;
    parallel_chunks(nthr, units, [&](int ithr, dim_t u0, dim_t u1) {
        char *buf = scratch ? scratch + (size_t)ithr * per_thr : nullptr;
        float *acc = nullptr;
        if (p->acc_bytes) acc = reinterpret_cast<float *>(buf + p->pack_bytes);
        jit::brgemm_args_t a{};
        jit::brgemm_batch_t be;
        a.batch = &be;
        a.bs = 1;
        a.k = (size_t)K;
        a.lda = (size_t)(ss[nd - 2] * es);
        // One panel (g of the group) of unit u; tile t of a run keeps its
        // partial sums at acc + (t * G + g) * tm rows.
        auto run_tile = [&](dim_t u, dim_t t, dim_t g, dim_t k0, int ph) {
            const dim_t mb = u % nb_m, jb = ((u / nb_m) % nb_g) * G + g,
                        b = u / (nb_m * nb_g);
            const dim_t m0 = mb * tm, n0 = jb * panel;
            const int mt = m0 + tm > M, nt = n0 + panel > N;
            // With K = 0 the source has no elements: it is never read and
            // its strides are free (any value passes the descriptor
            // checks), so no offset is formed from them (they may overflow).
            const char *ap = src;
            if (src && K > 0)
                ap += (batch_off(dmd, smd, ss, b) + m0 * ss[nd - 2] + k0) * es;
            const char *bp = nullptr;
            if (!p->wei_packed)
                bp = buf + (size_t)(g * pstride * es);
            else if (wei)
                bp = wei + (size_t)jb * panel_bytes + (size_t)(k0 * panel * es);
            be.a = reinterpret_cast<const float *>(ap);
            be.b = reinterpret_cast<const float *>(bp);
            const dim_t c_off =
                    batch_off(dmd, dmd, ds, b) + m0 * ds[nd - 2] + n0;
            float *part =
                    acc ? acc + (size_t)((t * G + g) * tm * panel) : nullptr;
            if (part && (ph == first || ph == middle)) {
                a.c = part;
                a.ldc = acc_ld;
            } else {
                a.c = reinterpret_cast<float *>(dst + c_off * des);
                a.ldc = (size_t)(ds[nd - 2] * des);
            }
            a.acc = part;
            a.ld_acc = acc_ld;
            a.bias = bias ? reinterpret_cast<const float *>(bias + n0 * bias_es)
                          : nullptr;
            qv.set_args(a, p->quant, n0);
            a.comp = comp ? comp + n0 : nullptr;
            for (size_t i = 0; i < bin.size(); ++i) {
                const auto &ba = p->binaries[i];
                const float *q = bin[i];
                const memory_desc_t &s1 =
                        p->attr()->post_ops.entries[ba.po_index].src1_md;
                if (ba.bcast == jit::brgemm_bcast_t::per_n) q += n0;
                if (ba.bcast == jit::brgemm_bcast_t::full) {
                    q += batch_off(dmd, s1, ba.strides, b)
                         + m0 * ba.strides[nd - 2] + n0;
                    a.binary_ld[i] = (size_t)ba.strides[nd - 2] * sizeof(float);
                }
                a.binary[i] = q;
            }
            kernels_[ph][mt][nt]->fn(&a);
        };
        // Runs of units sharing a group of B panels: K blocks outside, M
        // tiles inside, so each block of the panels is read from L2 by
        // all, and each tile's A rows from L1 by the group's panels.
        for (dim_t r0 = u0; r0 < u1;) {
            dim_t run = nb_m - r0 % nb_m;
            if (acc) run = std::min(run, p->run_tiles);
            const dim_t r1 = std::min(u1, r0 + run);
            for (dim_t kb = 0; kb < p->nk; ++kb) {
                const dim_t k0 = kb * p->kc;
                const dim_t kn = std::min(p->kc, K - k0);
                const int ph = p->nk == 1        ? only
                               : kb == 0         ? first
                               : kb + 1 == p->nk ? last
                                                 : middle;
                a.k = (size_t)kn;
                const dim_t gb = (r0 / nb_m) % nb_g, b = r0 / (nb_m * nb_g);
                if (pack_b) pack(buf, wei_batch(b), gb, k0, kn);
                const dim_t ng = std::min(G, nb_n - gb * G);
                for (dim_t u = r0; u < r1; ++u)
                    for (dim_t g = 0; g < ng; ++g)
                        run_tile(u, u - r0, g, k0, ph);
            }
            r0 = r1;
        }
    }, chunks_per_thread);
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
