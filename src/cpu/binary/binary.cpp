// CPU binary: descriptor checks, the per-row computation and the two
// drivers (loop nest, generic walk), plus the implementation list.
#include "cpu/binary/binary.hpp"

#include "common/exec_ctx.hpp"
#include "cpu/cpu_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace binary {

namespace {

// Tensor order of the nest and the walk: dst, src0, src1, [src2], then
// the post-op tensors.
std::vector<const memory_desc_t *> tensor_list(
        const binary_pd_t &pd, const rows::po_chain_t &po) {
    std::vector<const memory_desc_t *> v{pd.dst_md()};
    for (int i = 0; i < pd.n_srcs(); ++i) v.push_back(pd.src_md(i));
    for (const auto &m : po.mds) v.push_back(&m);
    return v;
}

struct args_t {
    alg_kind_t alg;
    int nsrc;
    const void *ptr[3];
    data_type_t dt[3];
    bool scaled[2];
    float scale[2];
    void *dst;
    data_type_t dst_dt;
    const rows::po_chain_t *po;
    std::vector<const void *> po_ptrs;
    bool half; // every tensor bf16 (or every tensor f16), plain rows suffice
};

// One row chunk: r[0] dst, r[1..nsrc] sources, then post-op tensors.
void compute_row(const args_t &a, const rows::row_t *r, dim_t n) {
    if (a.half) {
        // bf16 / f16 everywhere, no scales or post-ops: in registers.
        const rows::row_t &x = r[1], &y = r[2], &z = r[0];
        if (!x.idx && !y.idx && !z.idx && z.st == 1 && (x.st == 1 || x.st == 0)
                && (y.st == 1 || y.st == 0)) {
            const size_t e = 2;
            rows::binary_half(a.alg, z.dt,
                    static_cast<const char *>(x.base) + x.off * e, x.st == 0,
                    static_cast<const char *>(y.base) + y.off * e, y.st == 0,
                    static_cast<char *>(const_cast<void *>(z.base)) + z.off * e,
                    n);
            return;
        }
    }
    float b0[rows::chunk], b1[rows::chunk], b2[rows::chunk], bd[rows::chunk],
            bt[rows::chunk];
    float *bufs[3] = {b0, b1, b2};
    const float *v[3] = {nullptr, nullptr, nullptr};
    bool sc[3] = {false, false, false};
    for (int i = 0; i < a.nsrc; ++i) {
        const rows::row_t &ri = r[1 + i];
        sc[i] = ri.scalar();
        v[i] = rows::load(ri, n, bufs[i]);
        if (i < 2 && a.scaled[i])
            v[i] = rows::scale(v[i], n, sc[i], a.scale[i], bufs[i]);
    }
    const rows::row_t &rd = r[0];
    const bool direct =
            rd.dt == dnnl_f32 && !rd.idx && rd.st == 1 && !a.po->has_sum();
    float *out =
            direct ? static_cast<float *>(const_cast<void *>(rd.base)) + rd.off
                   : bd;
    rows::binary(a.alg, v[0], sc[0], v[1], sc[1], v[2], sc[2], out, n);
    if (!a.po->empty()) rows::apply(*a.po, out, n, r + 1 + a.nsrc, rd, bt);
    if (!direct) rows::store(rd, out, n);
}

status_t init_args(args_t &a, const binary_pd_t &pd, const rows::po_chain_t &po,
        const exec_ctx_t &ctx) {
    a.alg = pd.alg();
    a.nsrc = pd.n_srcs();
    for (int i = 0; i < a.nsrc; ++i) {
        a.ptr[i] = ctx.host_ptr(DNNL_ARG_SRC_0 + i);
        a.dt[i] = pd.src_md(i)->data_type;
        if (!a.ptr[i]) return dnnl_invalid_arguments;
    }
    for (int i = 0; i < 2; ++i) {
        a.scaled[i] = pd.with_scale(i);
        a.scale[i] = 1.f;
        if (!a.scaled[i]) continue;
        const void *s =
                ctx.host_ptr(DNNL_ARG_ATTR_SCALES | (DNNL_ARG_SRC_0 + i));
        if (!s) return dnnl_invalid_arguments;
        const auto *e = pd.attr()->scales.get(DNNL_ARG_SRC_0 + i);
        a.scale[i] = load_f32(e->data_type, s, 0);
    }
    a.dst = ctx.host_ptr(DNNL_ARG_DST);
    a.dst_dt = pd.dst_md()->data_type;
    if (!a.dst) return dnnl_invalid_arguments;
    a.po = &po;
    a.half = a.nsrc == 2 && !a.scaled[0] && !a.scaled[1] && po.empty()
             && (a.dst_dt == dnnl_bf16 || a.dst_dt == dnnl_f16)
             && a.dt[0] == a.dst_dt && a.dt[1] == a.dst_dt;
    return po.pointers(ctx, a.po_ptrs);
}

// Base pointers and data types of the tensors in list order.
void tensor_ptrs(const args_t &a, const rows::po_chain_t &po,
        std::vector<const void *> &p, std::vector<data_type_t> &dt) {
    p.assign(1, a.dst);
    dt.assign(1, a.dst_dt);
    for (int i = 0; i < a.nsrc; ++i) {
        p.push_back(a.ptr[i]);
        dt.push_back(a.dt[i]);
    }
    for (size_t k = 0; k < po.mds.size(); ++k) {
        p.push_back(a.po_ptrs[k]);
        dt.push_back(po.mds[k].data_type);
    }
}

bool dt_ok(data_type_t dt) {
    return is_f32_convertible(dt);
}

} // namespace

template <bool nested>
status_t binary_t<nested>::pd_t::init(engine_t *) {
    if (!this->attr_ok()) return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    name_ = rows::impl_name(dt_pair_name(this->src_md(0)->data_type,
                                    this->dst_md()->data_type),
            "binary", nested ? "nest" : "walk");
    for (int i = 0; i < this->n_srcs(); ++i)
        if (!dt_ok(this->src_md(i)->data_type)) return dnnl_unimplemented;
    if (!dt_ok(this->dst_md()->data_type)) return dnnl_unimplemented;
    DNNL_CHECK(po.init(this->attr()->post_ops, *this->dst_md()));
    const auto tensors = tensor_list(*this, po);
    if (nested) {
        if (!nest::build(nest, *this->dst_md(), tensors))
            return dnnl_unimplemented;
        const dim_t L = nest.L();
        // 0 block, 1 repeated row, 2 one value a row, -1 none of these
        auto row_kind = [&](int t) {
            if (nest.sL(t) == 0) return 2;
            if (nest.sL(t) != 1) return -1;
            return nest.sM(t) == L ? 0 : nest.sM(t) == 0 ? 1 : -1;
        };
        block_ok = nest.nparts >= 2 && !this->is_ternary() && po.empty()
                   && !this->with_scale(0) && !this->with_scale(1)
                   && row_kind(0) == 0 && row_kind(1) >= 0 && row_kind(2) >= 0;
        for (const memory_desc_t *m : tensors)
            block_ok = block_ok && m->data_type == dnnl_f32;
    } else {
        walk.init(this->dst_md()->ndims, this->dst_md()->dims, tensors);
    }
    return dnnl_success;
}

template <bool nested>
status_t binary_t<nested>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (md_nelems(*pd->dst_md()) == 0) return dnnl_success;
    args_t a;
    DNNL_CHECK(init_args(a, *pd, pd->po, ctx));
    std::vector<const void *> ptrs;
    std::vector<data_type_t> dts;
    tensor_ptrs(a, pd->po, ptrs, dts);
    const int nt = (int)ptrs.size();

    if (nested) {
        const nest::nest_t &n = pd->nest;
        const int nthr = nthr_for(n.volume(), 32 * 1024);
        nest::for_each_block(
                n, nthr, [&](const dim_t *off, dim_t mcnt, dim_t len) {
                    if (pd->block_ok && mcnt > 1) {
                        rows::binary_block(a.alg,
                                static_cast<const float *>(ptrs[1]) + off[1],
                                n.sM(1), n.sL(1) == 0,
                                static_cast<const float *>(ptrs[2]) + off[2],
                                n.sM(2), n.sL(2) == 0,
                                static_cast<float *>(a.dst) + off[0], mcnt,
                                len);
                        return;
                    }
                    rows::row_t r[nest::max_tensors];
                    std::vector<rows::row_t> heap;
                    rows::row_t *rr = r;
                    if (nt > nest::max_tensors) {
                        heap.resize(nt);
                        rr = heap.data();
                    }
                    for (int t = 0; t < nt; ++t) {
                        rr[t].base = ptrs[t];
                        rr[t].dt = dts[t];
                        rr[t].st = n.sL(t);
                    }
                    for (dim_t m = 0; m < mcnt; ++m)
                        for (dim_t l0 = 0; l0 < len; l0 += rows::chunk) {
                            const dim_t cnt = len - l0 < rows::chunk
                                                      ? len - l0
                                                      : rows::chunk;
                            for (int t = 0; t < nt; ++t)
                                rr[t].off = off[t] + m * n.sM(t) + l0 * n.sL(t);
                            compute_row(a, rr, cnt);
                        }
                });
    } else {
        const walk::walk_t &w = pd->walk;
        const int nthr = nthr_for(w.volume(), 16 * 1024);
        walk::for_each_row(w, nthr,
                [&](const dim_t *base, const dim_t *const *idx, dim_t cnt) {
                    std::vector<rows::row_t> rr(nt);
                    for (int t = 0; t < nt; ++t) {
                        rr[t].base = ptrs[t];
                        rr[t].dt = dts[t];
                        rr[t].off = base[t];
                        rr[t].idx = idx[t];
                        // A broadcast tensor reads one element per row.
                        if (idx[t][0] == 0 && cnt > 1 && idx[t][cnt - 1] == 0) {
                            bool all0 = true;
                            for (dim_t i = 1; i < cnt && all0; ++i)
                                all0 = idx[t][i] == 0;
                            if (all0) {
                                rr[t].idx = nullptr;
                                rr[t].st = 0;
                            }
                        }
                    }
                    compute_row(a, rr.data(), cnt);
                });
    }
    walk::zero_pad(*pd->dst_md(), a.dst);
    return dnnl_success;
}

template struct binary_t<true>;
template struct binary_t<false>;

} // namespace binary

const impl_list_item_t *binary_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<binary::binary_t<true>::pd_t, binary_desc_t>},
            {create_pd<binary::binary_t<false>::pd_t, binary_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
