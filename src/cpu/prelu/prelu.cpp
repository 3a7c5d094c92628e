// CPU PReLU: checks, row computations, the drivers and the implementation
// list.
#include "cpu/prelu/prelu.hpp"

#include <cstring>
#include <vector>

#include "common/binary_pd.hpp"
#include "common/exec_ctx.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/cpu_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace prelu {

namespace {

// Elements between a layout's first and last element, plus one.
dim_t span(const memory_desc_t &md) {
    dim_t pos[max_ndims];
    for (int d = 0; d < md.ndims; ++d) {
        if (md.padded_dims[d] == 0) return 0;
        pos[d] = md.padded_dims[d] - 1;
    }
    return md_off_v(md, pos) - md.offset0 + 1;
}

// Forward row: r[0] dst, r[1] src, r[2] weights.
void fwd_row(const rows::row_t *r, dim_t n) {
    float xb[rows::chunk], wb[rows::chunk], yb[rows::chunk];
    const float *x = rows::load(r[1], n, xb);
    const float *w = rows::load(r[2], n, wb);
    const bool direct = r[0].dt == dnnl_f32 && !r[0].idx && r[0].st == 1;
    float *y = direct ? static_cast<float *>(const_cast<void *>(r[0].base))
                                + r[0].off
                      : yb;
    rows::prelu_fwd(x, w, r[2].scalar(), y, n);
    if (!direct) rows::store(r[0], y, n);
}

// Backward row: r[0] src, r[1] weights, r[2] diff_dst, r[3] diff_src,
// r[4] diff_weights; acc (relative to diff_weights' offset0) unless direct.
void bwd_row(const rows::row_t *r, dim_t n, bool dw_direct, float *acc,
        dim_t dw_off0) {
    float xb[rows::chunk], wb[rows::chunk], db[rows::chunk], sb[rows::chunk],
            cb[rows::chunk];
    const float *x = rows::load(r[0], n, xb);
    const float *w = rows::load(r[1], n, wb);
    const float *dd = rows::load(r[2], n, db);
    const rows::row_t &ds = r[3];
    const bool direct = ds.dt == dnnl_f32 && !ds.idx && ds.st == 1;
    float *o =
            direct ? static_cast<float *>(const_cast<void *>(ds.base)) + ds.off
                   : sb;
    rows::prelu_bwd(x, w, r[1].scalar(), dd, o, cb, n);
    if (!direct) rows::store(ds, o, n);
    const rows::row_t &dw = r[4];
    if (dw_direct) {
        rows::store(dw, cb, n);
        return;
    }
    float *a = acc + (dw.off - dw_off0);
    if (dw.scalar()) {
        float s = 0.f;
#pragma omp simd reduction(+ : s)
        for (dim_t i = 0; i < n; ++i) s += cb[i];
        a[0] += s;
    } else if (dw.idx) {
        for (dim_t i = 0; i < n; ++i) a[dw.idx[i]] += cb[i];
    } else {
        for (dim_t i = 0; i < n; ++i) a[i * dw.st] += cb[i];
    }
}

bool dt_ok(data_type_t dt) {
    return is_f32_convertible(dt);
}

} // namespace

template <bool fwd, bool nested>
status_t prelu_t<fwd, nested>::pd_t::init(engine_t *) {
    if (this->is_fwd() != fwd) return dnnl_unimplemented;
    const auto &a = *this->attr();
    if (!a.scales.empty() || !a.zero_points.empty()
            || !a.post_ops.entries.empty() || !a.rounding_modes.empty())
        return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    // Types input first: src_dst, backward diff_dst_diff_src.
    name_ = rows::impl_name(fwd ? dt_pair_name(this->src_md()->data_type,
                                    this->dst_md()->data_type)
                                : dt_pair_name(this->diff_dst_md()->data_type,
                                        this->diff_src_md()->data_type),
            fwd ? "prelu" : "prelu_bwd", nested ? "nest" : "walk");
    std::vector<const memory_desc_t *> tensors;
    const memory_desc_t *master;
    int reduce = -1;
    if (fwd) {
        tensors = {this->dst_md(), this->src_md(), this->weights_md()};
        master = this->dst_md();
    } else {
        tensors = {this->src_md(), this->weights_md(), this->diff_dst_md(),
                this->diff_src_md(), this->diff_weights_md()};
        master = this->src_md();
        dw_direct =
                layout::same_dims(*this->diff_weights_md(), *this->src_md());
        dw_span = span(*this->diff_weights_md());
        reduce = 4;
    }
    for (const memory_desc_t *m : tensors)
        if (!dt_ok(m->data_type)) return dnnl_unimplemented;
    if (nested) {
        if (!nest::build(nest, *master, tensors, reduce))
            return dnnl_unimplemented;
        const dim_t L = nest.L();
        auto row_kind = [&](int t) { // 0 block, 1 repeated row, -1 neither
            if (nest.sL(t) != 1) return -1;
            return nest.sM(t) == L ? 0 : nest.sM(t) == 0 ? 1 : -1;
        };
        block_ok = fwd && nest.nparts >= 2 && row_kind(0) == 0
                   && row_kind(1) == 0 && row_kind(2) >= 0;
        for (const memory_desc_t *m : tensors)
            block_ok = block_ok && m->data_type == dnnl_f32;
    } else {
        walk.init(master->ndims, master->dims, tensors);
    }
    return dnnl_success;
}

template <bool fwd, bool nested>
status_t prelu_t<fwd, nested>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (md_nelems(*pd->src_md()) == 0) {
        // Nothing to compute; diff_weights sum over nothing.
        void *dw = fwd ? nullptr : ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS);
        if (dw) std::memset(dw, 0, md_size(*pd->diff_weights_md()));
        return dnnl_success;
    }
    std::vector<const void *> ptr;
    std::vector<data_type_t> dt;
    if (fwd) {
        ptr = {ctx.host_ptr(DNNL_ARG_DST), ctx.host_ptr(DNNL_ARG_SRC),
                ctx.host_ptr(DNNL_ARG_WEIGHTS)};
        dt = {pd->dst_md()->data_type, pd->src_md()->data_type,
                pd->weights_md()->data_type};
    } else {
        ptr = {ctx.host_ptr(DNNL_ARG_SRC), ctx.host_ptr(DNNL_ARG_WEIGHTS),
                ctx.host_ptr(DNNL_ARG_DIFF_DST),
                ctx.host_ptr(DNNL_ARG_DIFF_SRC),
                ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS)};
        dt = {pd->src_md()->data_type, pd->weights_md()->data_type,
                pd->diff_dst_md()->data_type, pd->diff_src_md()->data_type,
                pd->diff_weights_md()->data_type};
    }
    for (const void *p : ptr)
        if (!p) return dnnl_invalid_arguments;
    const int nt = (int)ptr.size();
    const dim_t volume = nested ? pd->nest.volume() : pd->walk.volume();
    int nthr = nthr_for(volume, 32 * 1024);

    // Backward accumulators of diff_weights, one array per thread.
    const bool accumulate = !fwd && !pd->dw_direct;
    const dim_t dw_off0 = fwd ? 0 : pd->diff_weights_md()->offset0;
    std::vector<float> acc;
    if (accumulate) {
        while (nthr > 1 && (dim_t)nthr * pd->dw_span > (dim_t)64 * 1024 * 1024)
            --nthr;
        acc.assign((size_t)(nthr * pd->dw_span), 0.f);
    }
    // Threads of the main pass number their accumulators by thread id.
    auto row = [&](int ithr, const rows::row_t *r, dim_t n) {
        if (fwd)
            fwd_row(r, n);
        else
            bwd_row(r, n, pd->dw_direct,
                    accumulate ? acc.data() + ithr * pd->dw_span : nullptr,
                    dw_off0);
    };

    if (nested) {
        const nest::nest_t &n = pd->nest;
        const nest::split_t s(n, nthr);
        parallel_chunks(nthr, s.units, [&](int ithr, dim_t u0, dim_t u1) {
            std::vector<rows::row_t> r(nt);
            for (int t = 0; t < nt; ++t) {
                r[t].base = ptr[t];
                r[t].dt = dt[t];
                r[t].st = n.sL(t);
            }
            nest::run_range(
                    n, s, u0, u1, [&](const dim_t *off, dim_t mcnt, dim_t len) {
                        if (pd->block_ok && mcnt > 1) {
                            rows::prelu_block(
                                    static_cast<const float *>(ptr[1]) + off[1],
                                    n.sM(1),
                                    static_cast<const float *>(ptr[2]) + off[2],
                                    n.sM(2),
                                    static_cast<float *>(
                                            const_cast<void *>(ptr[0]))
                                            + off[0],
                                    mcnt, len);
                            return;
                        }
                        for (dim_t m = 0; m < mcnt; ++m)
                            for (dim_t l0 = 0; l0 < len; l0 += rows::chunk) {
                                const dim_t cnt = len - l0 < rows::chunk
                                                          ? len - l0
                                                          : rows::chunk;
                                for (int t = 0; t < nt; ++t)
                                    r[t].off =
                                            off[t] + m * n.sM(t) + l0 * n.sL(t);
                                row(ithr, r.data(), cnt);
                            }
                    });
        });
    } else {
        const walk::walk_t &w = pd->walk;
        const dim_t L = w.dims[w.ndims - 1];
        const dim_t nchunks = (L + rows::chunk - 1) / rows::chunk;
        const dim_t units = volume ? volume / L * nchunks : 0;
        parallel_chunks(nthr, units, [&](int ithr, dim_t u0, dim_t u1) {
            std::vector<rows::row_t> r(nt);
            const int last = w.ndims - 1;
            for (dim_t u = u0; u < u1; ++u) {
                dim_t rr = u / nchunks;
                const dim_t i0 = (u % nchunks) * rows::chunk;
                const dim_t cnt = i0 + rows::chunk < L ? rows::chunk : L - i0;
                for (int t = 0; t < nt; ++t) {
                    r[t].base = ptr[t];
                    r[t].dt = dt[t];
                    r[t].off = w.tabs[t].base;
                    r[t].idx = w.tabs[t].dim(last) + i0;
                }
                for (int d = last - 1; d >= 0; --d) {
                    const dim_t i = rr % w.dims[d];
                    rr /= w.dims[d];
                    for (int t = 0; t < nt; ++t)
                        r[t].off += w.tabs[t].dim(d)[i];
                }
                row(ithr, r.data(), cnt);
            }
        });
    }

    if (accumulate) {
        // Sum the threads' partial results into diff_weights.
        const memory_desc_t &dwm = *pd->diff_weights_md();
        walk::walk_t ww;
        ww.init(dwm.ndims, dwm.dims, {&dwm});
        void *dwp = const_cast<void *>(ptr[4]);
        const dim_t spanv = pd->dw_span;
        const int nacc = nthr;
        walk::for_each_row(ww, nthr_for(ww.volume(), 16 * 1024),
                [&](const dim_t *base, const dim_t *const *idx, dim_t cnt) {
                    float v[rows::chunk];
                    const dim_t b = base[0] - dw_off0;
                    for (dim_t i = 0; i < cnt; ++i) {
                        float s = 0.f;
                        for (int t = 0; t < nacc; ++t)
                            s += acc[(size_t)(t * spanv + b + idx[0][i])];
                        v[i] = s;
                    }
                    rows::row_t r;
                    r.base = dwp;
                    r.dt = dwm.data_type;
                    r.off = base[0];
                    r.idx = idx[0];
                    rows::store(r, v, cnt);
                });
    }
    if (fwd) {
        walk::zero_pad(*pd->dst_md(), const_cast<void *>(ptr[0]));
    } else {
        walk::zero_pad(*pd->diff_src_md(), const_cast<void *>(ptr[3]));
        walk::zero_pad(*pd->diff_weights_md(), const_cast<void *>(ptr[4]));
    }
    return dnnl_success;
}

template struct prelu_t<true, true>;
template struct prelu_t<true, false>;
template struct prelu_t<false, true>;
template struct prelu_t<false, false>;

} // namespace prelu

const impl_list_item_t *prelu_impl_list() {
    using namespace prelu;
    static const impl_list_item_t list[] = {
            {create_pd<prelu_t<true, true>::pd_t, prelu_desc_t>},
            {create_pd<prelu_t<false, true>::pd_t, prelu_desc_t>},
            {create_pd<prelu_t<true, false>::pd_t, prelu_desc_t>},
            {create_pd<prelu_t<false, false>::pd_t, prelu_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
