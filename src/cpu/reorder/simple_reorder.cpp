// The fast CPU reorder: plan execution over threads, then the tail.
#include "cpu/reorder/simple_reorder.hpp"

#include "cpu/reorder/reorder_layout.hpp"
#include "cpu/reorder/reorder_parallel.hpp"
#include "cpu/reorder/simple_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

status_t simple_reorder_t::pd_t::init(engine_t *engine) {
    if (!reorder_mds_ok(*src_md(), *dst_md())) return dnnl_unimplemented;
    DNNL_CHECK(init_quant_conf(conf, *attr(), *src_md(), *dst_md()));
    return plan.init(*src_md(), *dst_md(), conf);
}

namespace {

template <typename S, typename D, qmode_t Q>
void run_plan(const simple_plan_t &p, const S *src, D *dst, const kq_t &q) {
    const elem_op_t<S, D, Q> op(q);
    const auto &outer = p.outer;
    const int no = (int)outer.size();
    dim_t w_outer = 1;
    for (const auto &n : outer)
        w_outer *= n.n;
    const bool tile = p.kind == kernel_kind_t::tile;
    // Work items: outer positions times kernel pieces (chunks of the linear
    // node, or tiles: b tiles outside a tiles).
    const dim_t nta = tile ? (p.ka.n + p.tile_a - 1) / p.tile_a : 1;
    const dim_t ntb = tile ? (p.kb.n + p.tile_b - 1) / p.tile_b : 1;
    const dim_t nch = tile ? nta * ntb : (p.k1.n + p.chunk - 1) / p.chunk;
    const dim_t items = w_outer * nch;
    const int nthr = reorder_nthr(p.elems);

    parallel_run(nthr, [&](int ithr, int nthr_) {
        dim_t start, end;
        balance(items, nthr_, ithr, start, end);
        if (start >= end) return;
        dim_t idx[2 * max_ndims + 2];
        dim_t piece = start % nch;
        {
            dim_t w = start / nch;
            for (int k = no - 1; k >= 0; --k) {
                idx[k] = w % outer[k].n;
                w /= outer[k].n;
            }
        }
        for (dim_t it = start; it < end; ++it) {
            dim_t sb = p.s0, db = p.d0, qb = 0;
            for (int k = 0; k < no; ++k) {
                sb += idx[k] * outer[k].is;
                db += idx[k] * outer[k].os;
                qb += idx[k] * outer[k].qs;
            }
            if (tile) {
                const dim_t a0 = (piece % nta) * p.tile_a;
                const dim_t b0 = (piece / nta) * p.tile_b;
                const dim_t na = std::min(p.tile_a, p.ka.n - a0);
                const dim_t nb = std::min(p.tile_b, p.kb.n - b0);
                tile_kernel<S, D, Q>(src + sb + a0 * p.ka.is + b0, p.ka.is,
                        dst + db + a0 + b0 * p.kb.os, p.kb.os, na, nb, op,
                        qb + a0 * p.ka.qs + b0 * p.kb.qs, p.ka.qs, p.kb.qs);
            } else {
                const dim_t c0 = piece * p.chunk;
                const dim_t n = std::min(p.chunk, p.k1.n - c0);
                linear_kernel<S, D, Q>(src + sb + c0 * p.k1.is, p.k1.is,
                        dst + db + c0 * p.k1.os, p.k1.os, n, op,
                        qb + c0 * p.k1.qs, p.k1.qs);
            }
            if (++piece < nch) continue;
            piece = 0;
            for (int k = no - 1; k >= 0; --k) {
                if (++idx[k] < outer[k].n) break;
                idx[k] = 0;
            }
        }
    });
}

template <typename S, typename D>
void run_typed(const simple_plan_t &p, const void *src, void *dst,
        const kq_t &q) {
    const S *s = static_cast<const S *>(src);
    D *d = static_cast<D *>(dst);
    switch (p.qmode) {
        case qmode_t::none: run_plan<S, D, qmode_t::none>(p, s, d, q); break;
        case qmode_t::scalar: run_plan<S, D, qmode_t::scalar>(p, s, d, q); break;
        case qmode_t::scalar_sum:
            run_plan<S, D, qmode_t::scalar_sum>(p, s, d, q);
            break;
        case qmode_t::indexed:
            run_plan<S, D, qmode_t::indexed>(p, s, d, q);
            break;
    }
}

} // namespace

status_t simple_reorder_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const simple_plan_t &p = pd->plan;
    if (p.empty) return dnnl_success;
    const void *src = ctx.host_ptr(DNNL_ARG_FROM);
    void *dst = ctx.host_ptr(DNNL_ARG_TO);
    if (!src || !dst) return dnnl_invalid_arguments;
    quant_values_t qv;
    DNNL_CHECK(qv.init(ctx, pd->conf, *pd->src_md()));

    // Same buffer, same layout, nothing to convert: done.
    if (src == dst && p.qmode == qmode_t::none && p.sdt == p.ddt
            && md_equal(*pd->src_md(), *pd->dst_md()))
        return dnnl_success;

    const kq_t q {qv.scale[0], qv.scale[1], qv.zp[0], qv.zp[1],
            p.qidx[q_src_scale] ? 1 : 0, p.qidx[q_dst_scale] ? 1 : 0,
            p.qidx[q_src_zp] ? 1 : 0, p.qidx[q_dst_zp] ? 1 : 0, qv.beta};
    bool ok = false;
    with_data_type(p.sdt, [&](auto s) {
        with_data_type(p.ddt, [&](auto d) {
            run_typed<decltype(s), decltype(d)>(p, src, dst, q);
            ok = true;
        });
    });
    if (!ok) return dnnl_unimplemented;

    if (p.need_tail) {
        // Boxes outside the main one: dims before k inside it, dim k past
        // it, dims after k anywhere.
        const int nd = p.tail.ndims;
        for (int k = 0; k < nd; ++k) {
            if (p.main[k] >= p.dpad[k]) continue;
            dims_t lo, hi;
            for (int d = 0; d < nd; ++d) {
                lo[d] = 0;
                hi[d] = d < k ? p.main[d] : p.tail.dpad[d];
            }
            lo[k] = p.main[k];
            DNNL_CHECK(p.tail.run(src, dst, qv, lo, hi));
        }
    }
    return dnnl_success;
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
