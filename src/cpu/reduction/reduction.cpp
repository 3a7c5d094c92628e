// CPU reduction: the operation's arithmetic, the plan of the nest, the
// main passes (nested, generic), the final elementwise pass and the
// implementation list.
#include "cpu/reduction/reduction.hpp"

#include <cmath>
#include <cstring>
#include <vector>

#include "common/binary_pd.hpp"
#include "common/exec_ctx.hpp"
#include "cpu/cpu_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reduction {

namespace {

// Values as the row kernels number them (rows::reduce_run).
enum class comb_t { sum = 0, max = 1, min = 2, mul = 3 };
enum class tr_t { none = 0, abs = 1, sq = 2, pow = 3 };

struct op_t {
    alg_kind_t alg;
    comb_t comb;
    tr_t tr;
    float p, eps, inv_n;

    op_t(const reduction_pd_t &pd, dim_t n) {
        alg = pd.alg();
        p = pd.p();
        eps = pd.eps();
        inv_n = n ? 1.f / (float)n : 0.f;
        switch (alg) {
        case dnnl_reduction_max:
            comb = comb_t::max;
            break;
        case dnnl_reduction_min:
            comb = comb_t::min;
            break;
        case dnnl_reduction_mul:
            comb = comb_t::mul;
            break;
        default:
            comb = comb_t::sum;
            break;
        }
        tr = tr_t::none;
        if (reduction_pd_t::is_norm(alg))
            tr = p == 1.f ? tr_t::abs : p == 2.f ? tr_t::sq : tr_t::pow;
    }
    float init() const {
        switch (comb) {
        case comb_t::max:
            return -INFINITY;
        case comb_t::min:
            return INFINITY;
        case comb_t::mul:
            return 1.f;
        default:
            return 0.f;
        }
    }
    float combine(float a, float b) const {
        switch (comb) {
        case comb_t::max:
            return a > b ? a : b;
        case comb_t::min:
            return a < b ? a : b;
        case comb_t::mul:
            return a * b;
        default:
            return a + b;
        }
    }
    float finalize(float v) const {
        switch (alg) {
        case dnnl_reduction_mean:
            return v * inv_n;
        case dnnl_reduction_norm_lp_max:
            return std::pow(v > eps ? v : eps, 1.f / p);
        case dnnl_reduction_norm_lp_sum:
            return std::pow(v + eps, 1.f / p);
        case dnnl_reduction_norm_lp_power_p_max:
            return v > eps ? v : eps;
        case dnnl_reduction_norm_lp_power_p_sum:
            return v + eps;
        default:
            return v;
        }
    }
};

// v combined with the reduction of n contiguous f32 values.
inline float reduce_run(const op_t &op, const float *x, dim_t n, float v) {
    return rows::reduce_run((int)op.comb, (int)op.tr, x, n, op.p, v);
}

// acc[i] combined with x[i] for n lanes.
inline void reduce_lanes(const op_t &op, const float *x, dim_t n, float *acc) {
    rows::reduce_lanes((int)op.comb, (int)op.tr, x, n, op.p, acc);
}

// v combined with n values of a strided (or indexed) row of any type.
float reduce_row(const op_t &op, const rows::row_t &r0, dim_t n, float v) {
    float buf[rows::chunk];
    rows::row_t r = r0;
    for (dim_t i0 = 0; i0 < n; i0 += rows::chunk) {
        const dim_t cnt = n - i0 < rows::chunk ? n - i0 : rows::chunk;
        if (r0.idx)
            r.idx = r0.idx + i0;
        else
            r.off = r0.off + i0 * r0.st;
        v = reduce_run(op, rows::load(r, cnt, buf), cnt, v);
    }
    return v;
}

constexpr dim_t lane_chunk = 256;

dim_t product(const dim_t *e, int n) {
    dim_t v = 1;
    for (int i = 0; i < n; ++i) v *= e[i];
    return v;
}

// Offsets of mixed-radix index `i` over parts (ext, st...).
inline dim_t mixed_off(dim_t i, const dim_t *ext, const dim_t *st, int n) {
    dim_t off = 0;
    for (int p = n - 1; p >= 0; --p) {
        off += (i % ext[p]) * st[p];
        i /= ext[p];
    }
    return off;
}

} // namespace

bool plan_t::init(const memory_desc_t &src, const memory_desc_t &dst) {
    nest::nest_t n;
    if (!nest::build(n, src, {&src, &dst}, 1)) return false;
    const int np = n.nparts;
    const int in = np - 1;
    inner_reduced = n.stride(1, in) == 0 && n.extent[in] > 1;
    if (inner_reduced) {
        run = n.extent[in];
        run_st = n.stride(0, in);
    } else {
        lanes = n.extent[in];
        lane_src = n.stride(0, in);
        lane_dst = n.stride(1, in);
    }
    nk = nr = 0;
    for (int p = 0; p < in; ++p) {
        if (n.stride(1, p) == 0) {
            rext[nr] = n.extent[p];
            rs[nr++] = n.stride(0, p);
        } else {
            kext[nk] = n.extent[p];
            ks_src[nk] = n.stride(0, p);
            ks_dst[nk++] = n.stride(1, p);
        }
    }
    base_src = n.base[0];
    base_dst = n.base[1];
    return true;
}

template <bool nested>
status_t reduction_t<nested>::pd_t::init(engine_t *) {
    const auto &a = *this->attr();
    if (!a.scales.empty() || !a.zero_points.empty()
            || !a.rounding_modes.empty())
        return dnnl_unimplemented;
    if (po_check::check(a.post_ops, this->dst_md_,
                po_check::eltwise | po_check::sum | po_check::binary)
            != dnnl_success)
        return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    const memory_desc_t &src = *this->src_md(), &dst = *this->dst_md();
    name_ = rows::impl_name(dt_pair_name(src.data_type, dst.data_type),
            "reduction", nested ? "nest" : "walk");
    if (!is_f32_convertible(src.data_type)
            || !is_f32_convertible(dst.data_type))
        return dnnl_unimplemented;
    DNNL_CHECK(po.init(a.post_ops, dst));
    reduce_size = 1;
    for (int d = 0; d < src.ndims; ++d)
        if (dst.dims[d] != src.dims[d]) reduce_size *= src.dims[d];
    direct = dst.data_type == dnnl_f32 && po.empty();
    if (nested) {
        if (md_nelems(src) == 0 || !plan.init(src, dst))
            return dnnl_unimplemented;
    } else {
        src_walk.init(src.ndims, src.dims, {&src});
        dst_walk.init(dst.ndims, dst.dims, {&dst});
    }
    if (!direct) {
        acc_md = dst;
        acc_md.data_type = dnnl_f32;
        acc_md.offset0 = 0;
        dim_t pos[max_ndims];
        dst_span = 1;
        for (int d = 0; d < dst.ndims; ++d) {
            pos[d] = dst.padded_dims[d] - 1;
            if (dst.padded_dims[d] == 0) dst_span = 0;
        }
        if (dst_span) dst_span = md_off_v(acc_md, pos) + 1;
        std::vector<const memory_desc_t *> t{&dst, &acc_md};
        for (const auto &m : po.mds) t.push_back(&m);
        final_nested = nest::build(final_nest, dst, t);
        if (!final_nested) final_walk.init(dst.ndims, dst.dims, t);
    }
    return dnnl_success;
}

template <bool nested>
status_t reduction_t<nested>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const memory_desc_t &smd = *pd->src_md(), &dmd = *pd->dst_md();
    const void *src = ctx.host_ptr(DNNL_ARG_SRC);
    void *dst = ctx.host_ptr(DNNL_ARG_DST);
    if ((!src && md_nelems(smd) > 0) || (!dst && md_nelems(dmd) > 0))
        return dnnl_invalid_arguments;
    if (md_nelems(dmd) == 0) return dnnl_success;
    std::vector<const void *> po_ptrs;
    DNNL_CHECK(pd->po.pointers(ctx, po_ptrs));
    const op_t op(*pd, pd->reduce_size);
    const data_type_t sdt = smd.data_type;

    std::vector<float> accbuf(pd->direct ? 0 : (size_t)pd->dst_span);
    float *out = pd->direct ? static_cast<float *>(dst) : accbuf.data();
    const dim_t out_off0 = pd->direct ? 0 : dmd.offset0;
    const int nthr = nthr_for(md_nelems(smd, true), 32 * 1024);

    if (nested) {
        const plan_t &P = pd->plan;
        const dim_t Kc = product(P.kext, P.nk);
        const dim_t nlc =
                P.inner_reduced ? 1 : (P.lanes + lane_chunk - 1) / lane_chunk;
        const dim_t G = Kc * nlc;
        const dim_t Ro = product(P.rext, P.nr);
        dim_t S = 1;
        if (G < 2 * nthr && Ro > 1) {
            S = (2 * nthr + G - 1) / G;
            if (S > Ro) S = Ro;
        }
        const dim_t gw = P.inner_reduced ? 1 : lane_chunk;
        std::vector<float> part(S > 1 ? (size_t)(G * S * gw) : 0);
        const dim_t units = G * S;
        parallel_chunks(nthr, units, [&](int, dim_t u0, dim_t u1) {
            float acc[lane_chunk], buf[lane_chunk];
            for (dim_t u = u0; u < u1; ++u) {
                const dim_t g = u / S, s = u % S;
                dim_t r0, r1;
                balance(Ro, (int)S, (int)s, r0, r1);
                const dim_t k = g / nlc, l0 = (g % nlc) * lane_chunk;
                const dim_t src_k =
                        P.base_src + mixed_off(k, P.kext, P.ks_src, P.nk);
                const dim_t dst_k =
                        P.base_dst + mixed_off(k, P.kext, P.ks_dst, P.nk);
                if (P.inner_reduced) {
                    float v = op.init();
                    rows::row_t r;
                    r.base = src;
                    r.dt = sdt;
                    r.st = P.run_st;
                    for (dim_t ro = r0; ro < r1; ++ro) {
                        r.off = src_k + mixed_off(ro, P.rext, P.rs, P.nr);
                        v = reduce_row(op, r, P.run, v);
                    }
                    if (S == 1)
                        out[dst_k - out_off0] = op.finalize(v);
                    else
                        part[(size_t)(g * S + s)] = v;
                } else {
                    const dim_t nl = P.lanes - l0 < lane_chunk ? P.lanes - l0
                                                               : lane_chunk;
                    const float init = op.init();
                    for (dim_t l = 0; l < nl; ++l) acc[l] = init;
                    rows::row_t r;
                    r.base = src;
                    r.dt = sdt;
                    r.st = P.lane_src;
                    for (dim_t ro = r0; ro < r1; ++ro) {
                        r.off = src_k + mixed_off(ro, P.rext, P.rs, P.nr)
                                + l0 * P.lane_src;
                        reduce_lanes(op, rows::load(r, nl, buf), nl, acc);
                    }
                    if (S == 1) {
                        float *o = out + (dst_k + l0 * P.lane_dst - out_off0);
                        for (dim_t l = 0; l < nl; ++l)
                            o[l * P.lane_dst] = op.finalize(acc[l]);
                    } else {
                        std::memcpy(&part[(size_t)((g * S + s) * gw)], acc,
                                nl * sizeof(float));
                    }
                }
            }
        });
        if (S > 1) {
            parallel_chunks(nthr_for(G * gw, 4096), G,
                    [&](int, dim_t g0, dim_t g1) {
                        for (dim_t g = g0; g < g1; ++g) {
                            const dim_t k = g / nlc,
                                        l0 = (g % nlc) * lane_chunk;
                            const dim_t dst_k =
                                    P.base_dst
                                    + mixed_off(k, P.kext, P.ks_dst, P.nk);
                            const dim_t nl =
                                    P.inner_reduced
                                            ? 1
                                            : (P.lanes - l0 < lane_chunk
                                                            ? P.lanes - l0
                                                            : lane_chunk);
                            for (dim_t l = 0; l < nl; ++l) {
                                float v = part[(size_t)(g * S * gw + l)];
                                for (dim_t s = 1; s < S; ++s)
                                    v = op.combine(
                                            v, part[(size_t)((g * S + s) * gw
                                                             + l)]);
                                out[dst_k + (l0 + l) * P.lane_dst - out_off0] =
                                        op.finalize(v);
                            }
                        }
                    });
        }
    } else {
        const walk::walk_t &sw = pd->src_walk, &dw = pd->dst_walk;
        const int nd = smd.ndims;
        int red[max_ndims], nred = 0;
        for (int d = 0; d < nd; ++d)
            if (dmd.dims[d] != smd.dims[d]) red[nred++] = d;
        const int rl = red[nred - 1];
        dim_t rext[max_ndims];
        for (int i = 0; i < nred - 1; ++i) rext[i] = smd.dims[red[i]];
        const dim_t Ro = product(rext, nred - 1);
        const dim_t Dn = dw.volume();
        parallel_chunks(nthr_for(md_nelems(smd), 32 * 1024), Dn,
                [&](int, dim_t k0, dim_t k1) {
                    const auto &st = sw.tabs[0];
                    const auto &dt = dw.tabs[0];
                    for (dim_t k = k0; k < k1; ++k) {
                        dim_t rem = k, so = st.base, doff = dt.base;
                        for (int d = nd - 1; d >= 0; --d) {
                            const dim_t i = rem % dmd.dims[d];
                            rem /= dmd.dims[d];
                            doff += dt.dim(d)[i];
                            if (dmd.dims[d] == smd.dims[d]) so += st.dim(d)[i];
                        }
                        float v = op.init();
                        rows::row_t r;
                        r.base = src;
                        r.dt = sdt;
                        r.idx = st.dim(rl);
                        for (dim_t ro = 0; ro < Ro; ++ro) {
                            dim_t q = ro, o = so;
                            for (int i = nred - 2; i >= 0; --i) {
                                o += st.dim(red[i])[q % rext[i]];
                                q /= rext[i];
                            }
                            r.off = o;
                            v = reduce_row(op, r, smd.dims[rl], v);
                        }
                        out[doff - out_off0] = op.finalize(v);
                    }
                });
    }

    if (!pd->direct) {
        // dst = post-ops(acc) in dst's data type.
        const rows::po_chain_t &po = pd->po;
        std::vector<const void *> ptrs{dst, accbuf.data()};
        std::vector<data_type_t> dts{dmd.data_type, dnnl_f32};
        for (size_t i = 0; i < po.mds.size(); ++i) {
            ptrs.push_back(po_ptrs[i]);
            dts.push_back(po.mds[i].data_type);
        }
        const int nt = (int)ptrs.size();
        auto final_row = [&](rows::row_t *r, dim_t n) {
            float v[rows::chunk], b[rows::chunk];
            const float *x = rows::load(r[1], n, b);
            std::memcpy(v, x, n * sizeof(float));
            if (!po.empty()) rows::apply(po, v, n, r + 2, r[0], b);
            rows::store(r[0], v, n);
        };
        if (pd->final_nested) {
            const nest::nest_t &n = pd->final_nest;
            nest::for_each_block(n, nthr_for(n.volume(), 32 * 1024),
                    [&](const dim_t *off, dim_t mcnt, dim_t len) {
                        std::vector<rows::row_t> r(nt);
                        for (int t = 0; t < nt; ++t) {
                            r[t].base = ptrs[t];
                            r[t].dt = dts[t];
                            r[t].st = n.sL(t);
                        }
                        for (dim_t m = 0; m < mcnt; ++m)
                            for (dim_t l0 = 0; l0 < len; l0 += rows::chunk) {
                                const dim_t cnt = len - l0 < rows::chunk
                                                          ? len - l0
                                                          : rows::chunk;
                                for (int t = 0; t < nt; ++t)
                                    r[t].off =
                                            off[t] + m * n.sM(t) + l0 * n.sL(t);
                                final_row(r.data(), cnt);
                            }
                    });
        } else {
            walk::for_each_row(pd->final_walk,
                    nthr_for(pd->final_walk.volume(), 16 * 1024),
                    [&](const dim_t *base, const dim_t *const *idx, dim_t cnt) {
                        std::vector<rows::row_t> r(nt);
                        for (int t = 0; t < nt; ++t) {
                            r[t].base = ptrs[t];
                            r[t].dt = dts[t];
                            r[t].off = base[t];
                            r[t].idx = idx[t];
                        }
                        final_row(r.data(), cnt);
                    });
        }
    }
    walk::zero_pad(dmd, dst);
    return dnnl_success;
}

template struct reduction_t<true>;
template struct reduction_t<false>;

} // namespace reduction

const impl_list_item_t *reduction_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<reduction::reduction_t<true>::pd_t, reduction_desc_t>},
            {create_pd<reduction::reduction_t<false>::pd_t, reduction_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
