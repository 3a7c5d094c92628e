// The generic reorder loop (see ref_reorder_engine.hpp).
#include "cpu/reorder/ref_reorder_engine.hpp"

#include "cpu/reorder/reorder_cvt.hpp"
#include "cpu/reorder/reorder_layout.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

void ref_tables_t::init(const memory_desc_t &src, const memory_desc_t &dst,
        const quant_conf_t &conf) {
    ndims = src.ndims;
    sdt = src.data_type;
    ddt = dst.data_type;
    quant = conf.any();
    s0 = src.offset0;
    d0 = dst.offset0;
    for (int d = 0; d < ndims; ++d) {
        dims[d] = src.dims[d];
        dpad[d] = dst.padded_dims[d] - dst.padded_offsets[d];
        if (dpad[d] < dims[d]) dpad[d] = dims[d];
        auto init_map = [&](dim_map_t &m, const memory_desc_t &md, dim_t n,
                                dim_t &base) {
            if (dim_block(md, d) == 1) {
                m.stride = md.format_desc.blocking.strides[d];
                base += md.padded_offsets[d] * m.stride;
            } else {
                m.tab.resize(n);
                for (dim_t i = 0; i < n; ++i) m.tab[i] = dim_offset(md, d, i);
            }
        };
        init_map(smap[d], src, dims[d], s0);
        init_map(dmap[d], dst, dpad[d], d0);
    }
    for (int q = 0; q < q_count; ++q)
        quant_conf_t::index_strides(
                conf.with[q] ? conf.mask[q] : 0, ndims, dims, qstr[q]);
    for (int d = 0; d < ndims; ++d) {
        dim_t step = dpad[d] < 2 ? 0 : dmap[d](1) - dmap[d](0);
        if (step < 0) step = -step;
        if (dpad[d] >= 2 && step == 0) serial = true; // aliased positions
        dstep[d] = step;
    }
}

namespace {

template <typename S, typename D>
void run_box(const ref_tables_t &t, const S *src, D *dst,
        const quant_values_t &qv, const dim_t *lo, const dim_t *hi) {
    const int nd = t.ndims;
    // Innermost loop: among the dims long enough to be worth it, the one
    // whose step moves least in the destination.
    int in = nd - 1;
    {
        dim_t longest = 0;
        for (int d = 0; d < nd; ++d)
            if (hi[d] - lo[d] > longest) {
                longest = hi[d] - lo[d];
                in = d;
            }
        const dim_t enough = longest < 8 ? longest : 8;
        for (int d = 0; d < nd; ++d)
            if (hi[d] - lo[d] >= enough && t.dstep[d] < t.dstep[in]) in = d;
    }
    int od[max_ndims];
    int no = 0;
    dim_t work = 1;
    for (int d = 0; d < nd; ++d) {
        if (hi[d] <= lo[d]) return;
        if (d == in) continue;
        od[no++] = d;
        work *= hi[d] - lo[d];
    }
    const dim_t ilo = lo[in], ihi = hi[in];
    const dim_t ival_end = ihi < t.dims[in] ? ihi : t.dims[in];
    // Inner offsets: a table, or i times a stride.
    const dim_t *st = t.smap[in].tab.empty() ? nullptr : t.smap[in].tab.data();
    const dim_t *dt = t.dmap[in].tab.empty() ? nullptr : t.dmap[in].tab.data();
    const dim_t sstr = t.smap[in].stride, dstr = t.dmap[in].stride;
    const dim_t qs_in[q_count] = {
            t.qstr[0][in], t.qstr[1][in], t.qstr[2][in], t.qstr[3][in]};
    const float *ss = qv.scale[0], *ds = qv.scale[1];
    const int32_t *sz = qv.zp[0], *dz = qv.zp[1];
    const float beta = qv.beta;
    const bool quant = t.quant;

    // Work items: outer positions times chunks of the inner range (chunks
    // only when there are too few outer positions to share).
    const dim_t ilen = ihi - ilo;
    const int nthr = t.serial ? 1 : nthr_for(work * ilen, 16 * 1024);
    dim_t chunk = ilen;
    if (nthr > 1 && work < 4 * nthr && ilen > 4096) {
        const dim_t parts = (4 * nthr + work - 1) / work;
        chunk = (ilen + parts - 1) / parts;
        if (chunk < 1024) chunk = 1024;
    }
    const dim_t nch = (ilen + chunk - 1) / chunk;
    parallel(nthr, [&](int ithr, int nthr_) {
        dim_t start, end;
        balance(work * nch, nthr_, ithr, start, end);
        if (start >= end) return;
        dim_t idx[max_ndims];
        dim_t ch = start % nch;
        {
            dim_t w = start / nch;
            for (int k = no - 1; k >= 0; --k) {
                const int d = od[k];
                const dim_t n = hi[d] - lo[d];
                idx[k] = lo[d] + w % n;
                w /= n;
            }
        }
        for (dim_t w = start; w < end; ++w) {
            bool pad = false;
            dim_t sb = t.s0, db = t.d0;
            dim_t qb[q_count] = {0, 0, 0, 0};
            for (int k = 0; k < no; ++k) {
                const int d = od[k];
                const dim_t i = idx[k];
                db += t.dmap[d](i);
                if (i >= t.dims[d]) {
                    pad = true;
                    continue;
                }
                sb += t.smap[d](i);
                if (quant)
                    for (int q = 0; q < q_count; ++q) qb[q] += i * t.qstr[q][d];
            }
            const dim_t cbeg = ilo + ch * chunk;
            const dim_t cend = cbeg + chunk < ihi ? cbeg + chunk : ihi;
            const dim_t vend = cend < ival_end ? cend : ival_end;
            dim_t i = cbeg;
            if (!pad) {
                if (!quant) {
                    for (; i < vend; ++i)
                        dst[db + (dt ? dt[i] : i * dstr)] = cvt_direct<S, D>(
                                src[sb + (st ? st[i] : i * sstr)]);
                } else {
                    for (; i < vend; ++i) {
                        D *o = &dst[db + (dt ? dt[i] : i * dstr)];
                        *o = cvt_quant<S, D>(src[sb + (st ? st[i] : i * sstr)],
                                o, ss[qb[0] + i * qs_in[0]],
                                sz[qb[2] + i * qs_in[2]],
                                ds[qb[1] + i * qs_in[1]],
                                dz[qb[3] + i * qs_in[3]], beta);
                    }
                }
            }
            for (; i < cend; ++i) dst[db + (dt ? dt[i] : i * dstr)] = D{};
            // Next work item.
            if (++ch < nch) continue;
            ch = 0;
            for (int k = no - 1; k >= 0; --k) {
                const int d = od[k];
                if (++idx[k] < hi[d]) break;
                idx[k] = lo[d];
            }
        }
    });
}

} // namespace

status_t ref_tables_t::run(const void *src, void *dst, const quant_values_t &qv,
        const dim_t *lo, const dim_t *hi) const {
    bool ok = false;
    with_data_type<true>(sdt, [&](auto s) {
        using S = decltype(s);
        with_data_type<true>(ddt, [&](auto d) {
            using D = decltype(d);
            run_box<S, D>(*this, static_cast<const S *>(src),
                    static_cast<D *>(dst), qv, lo, hi);
            ok = true;
        });
    });
    return ok ? dnnl_success : dnnl_unimplemented;
}

status_t ref_tables_t::run_all(
        const void *src, void *dst, const quant_values_t &qv) const {
    dims_t lo = {0};
    return run(src, dst, qv, lo, dpad);
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
