// BRGEMM-based f32 matmul: descriptor checks (which post-ops and layouts
// the kernel's epilogue takes), the four kernels of a shape (full tile,
// M tail, N tail, both) from the kernel cache, weight packing and the
// threaded walk over output tiles.
#include "cpu/matmul/brgemm_matmul.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "common/exec_ctx.hpp"
#include "cpu/matmul/gemm_matmul.hpp"
#include "cpu/postops/postops.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

bool is_plain(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked
           && md.format_desc.blocking.inner_nblks == 0;
}

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


} // namespace

bool brgemm_matmul_t::pd_t::post_ops_ok() {
    const auto &entries = attr_.post_ops.entries;
    for (size_t e = 0; e < entries.size(); ++e) {
        const post_op_t &p = entries[e];
        jit::brgemm_post_op_t q;
        if (p.kind != post_op_kind_t::binary) {
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
    if (src_md_.data_type != dnnl_f32 || weights_md_.data_type != dnnl_f32
            || dst_md_.data_type != dnnl_f32)
        return dnnl_unimplemented;
    if (with_bias() && bias_md_.data_type != dnnl_f32)
        return dnnl_unimplemented;
    if (has_runtime_dims_or_strides()) return dnnl_unimplemented;
    if (!attr_.scales.items.empty() || !attr_.zero_points.items.empty())
        return dnnl_unimplemented;
    if (attr_.fpmath_mode != dnnl_fpmath_mode_strict) return dnnl_unimplemented;
    for (const auto &r : attr_.rounding_modes)
        if (r.mode != (int)dnnl_rounding_mode_environment)
            return dnnl_unimplemented;
    target = jit::select_brgemm_target();
    if (!target) return dnnl_unimplemented;

    const bool wei_any = weights_md_.format_kind == dnnl_format_kind_any;
    DNNL_CHECK(init_formats());
    if (!is_plain(src_md_) || !is_plain(weights_md_) || !is_plain(dst_md_)
            || (with_bias() && !is_plain(bias_md_)))
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
    cfg.bias = with_bias();
    if (!post_ops_ok()) return dnnl_unimplemented;
    if (!cfg.supported()) return dnnl_unimplemented;

    // Where 4 rows or fewer use each panel of B (GEMV-like), the GEMM's
    // small-M kernels streaming plain B are faster than packing it per
    // execution, and `any` stays plain for them as the GEMM has it.
    dim_t rows_per_panel = M();
    for (int d = 0; d < nd - 2; ++d)
        if (weights_md_.dims[d] == 1) rows_per_panel *= dst_md_.dims[d];
    if (rows_per_panel <= 4) return dnnl_unimplemented;
    panel = target->tile_nv * target->lanes();
    if (wei_any && nd == 2) {
        weights_md_ = panel_weights_md(weights_md_, panel);
        wei_packed = true;
    }

    // B blocks of at most 256 KiB (L2 holds one with its A rows and C).
    const dim_t max_kc = (256 * 1024) / (panel * (dim_t)sizeof(float));
    nk = attr_.post_ops.find(post_op_kind_t::sum) >= 0 || K() <= max_kc
                 ? 1
                 : (K() + max_kc - 1) / max_kc;
    kc = nk > 1 ? (K() + nk - 1) / nk : K();
    // Plain weights: each thread packs the K block of the panel it works
    // on into its own buffer, which stays in L2 for the panel's M tiles.
    if (!wei_packed) {
        pack_bytes = (size_t)(kc * panel) * sizeof(float);
        book_scratchpad(pack_bytes * max_threads());
    }
    name_ = std::string("brg_matmul:") + target->isa_name;
    return dnnl_success;
}

status_t brgemm_matmul_t::init(engine_t *) {
    const pd_t *p = pd_();
    const dim_t M = p->M(), N = p->N();
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
    const dim_t M = p->M(), N = p->N(), K = p->K();
    dim_t nbatch = 1, wbatch = 1;
    for (int d = 0; d < nd - 2; ++d) {
        nbatch *= dmd.dims[d];
        wbatch *= wmd.dims[d];
    }
    if (M == 0 || N == 0 || nbatch == 0) return dnnl_success;

    const float *src = ctx.input<float>(DNNL_ARG_SRC);
    const float *wei = ctx.input<float>(DNNL_ARG_WEIGHTS);
    float *dst = ctx.output<float>(DNNL_ARG_DST);
    const float *bias =
            p->with_bias() ? ctx.input<float>(DNNL_ARG_BIAS) : nullptr;
    if (!dst || (K > 0 && (!src || !wei)) || (p->with_bias() && !bias))
        return dnnl_invalid_arguments;
    if (src) src += smd.offset0;
    if (wei) wei += wmd.offset0;
    dst += dmd.offset0;
    if (bias) bias += p->bias_md().offset0;

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
    const dim_t nb_n = (N + panel - 1) / panel;
    const size_t panel_elems = (size_t)(K * panel);

    // Plain weights are packed block by block into per-thread buffers
    // (columns past N zero-filled).
    const int tm = p->target->tile_m;
    const dim_t nb_m = (M + tm - 1) / tm;
    const dim_t units = nbatch * nb_n * nb_m;
    const int nthr = nthr_for(units, 2);
    struct free_t {
        void operator()(float *q) const { std::free(q); }
    };
    std::unique_ptr<float, free_t> owned;
    float *pack_buf = nullptr;
    dim_t wk = 0, wn = 0;
    if (!p->wei_packed && K > 0) {
        const size_t need = p->pack_bytes * nthr;
        pack_buf = static_cast<float *>(ctx.scratchpad());
        if (!pack_buf || p->scratchpad_size() < need) {
            owned.reset(static_cast<float *>(
                    std::aligned_alloc(64, (need + 63) / 64 * 64)));
            pack_buf = owned.get();
            if (!pack_buf) return dnnl_out_of_memory;
        }
        postops::plain_strides(wmd, ws);
        wk = ws[nd - 2];
        wn = ws[nd - 1];
    }
    // Packs rows [k0, k0 + kn) of panel jb of weight batch wbi into o.
    auto pack = [&](float *o, dim_t wbi, dim_t jb, dim_t k0, dim_t kn) {
        dim_t woff = 0, rem = wbi;
        for (int d = nd - 3; d >= 0; --d) {
            woff += (rem % wmd.dims[d]) * ws[d];
            rem /= wmd.dims[d];
        }
        const float *w = wei + woff + jb * panel * wn + k0 * wk;
        const dim_t n = std::min<dim_t>(panel, N - jb * panel);
        for (dim_t k = 0; k < kn; ++k) {
            float *row = o + k * panel;
            if (wn == 1)
                std::memcpy(row, w + k * wk, n * sizeof(float));
            else
                for (dim_t j = 0; j < n; ++j) row[j] = w[k * wk + j * wn];
            for (dim_t j = n; j < panel; ++j) row[j] = 0.f;
        }
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
    parallel_chunks(nthr, units, [&](int ithr, dim_t u0, dim_t u1) {
        float *buf =
                pack_buf ? pack_buf
                                   + (size_t)ithr
                                             * (p->pack_bytes / sizeof(float))
                         : nullptr;
        jit::brgemm_args_t a;
        jit::brgemm_batch_t be;
        a.batch = &be;
        a.bs = 1;
        a.k = (size_t)K;
        a.lda = (size_t)ss[nd - 2] * sizeof(float);
        a.ldc = (size_t)ds[nd - 2] * sizeof(float);
        auto run_unit = [&](dim_t u, dim_t k0, int ph) {
            const dim_t mb = u % nb_m, jb = (u / nb_m) % nb_n,
                        b = u / (nb_m * nb_n);
            const dim_t m0 = mb * tm, n0 = jb * panel;
            const int mt = m0 + tm > M, nt = n0 + panel > N;
            // With K = 0 the source has no elements: it is never read and
            // its strides are free (any value passes the descriptor
            // checks), so no offset is formed from them (they may overflow).
            be.a = src && K > 0
                    ? src + batch_off(dmd, smd, ss, b) + m0 * ss[nd - 2] + k0
                    : src;
            if (p->wei_packed)
                be.b = wei ? wei + (size_t)jb * panel_elems
                                       + (size_t)(k0 * panel)
                           : nullptr;
            else
                be.b = buf;
            a.c = dst + batch_off(dmd, dmd, ds, b) + m0 * ds[nd - 2] + n0;
            a.bias = bias ? bias + n0 : nullptr;
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
        // Runs of units sharing a B panel: K blocks outside, M tiles
        // inside, so each block of the panel is read from L2 by all.
        for (dim_t r0 = u0; r0 < u1;) {
            const dim_t run = nb_m - r0 % nb_m;
            const dim_t r1 = std::min(u1, r0 + run);
            for (dim_t kb = 0; kb < p->nk; ++kb) {
                const dim_t k0 = kb * p->kc;
                const dim_t kn = std::min(p->kc, K - k0);
                const int ph = p->nk == 1        ? only
                               : kb == 0         ? first
                               : kb + 1 == p->nk ? last
                                                 : middle;
                a.k = (size_t)kn;
                if (buf) {
                    const dim_t jb = (r0 / nb_m) % nb_n, b = r0 / (nb_m * nb_n);
                    pack(buf, wei_batch(b), jb, k0, kn);
                }
                for (dim_t u = r0; u < r1; ++u) run_unit(u, k0, ph);
            }
            r0 = r1;
        }
    });
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
