// CPU softmax: plans (rows, lanes), descriptor checks, the forward and
// backward drivers and the implementation list.
#include "cpu/softmax/softmax.hpp"

#include <cstring>

#include "common/binary_pd.hpp"
#include "common/exec_ctx.hpp"
#include "cpu/tensor_walk/walk.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/kernel_name.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace softmax {

namespace {

// Lanes per tile, a multiple of 16: about 8K floats per f32 copy of a
// tile, 64K floats when the tensors are used in place.
dim_t lanes_chunk(const axis::lanes_plan_t &p, bool direct) {
    dim_t lc = (direct ? 65536 : 8192) / p.C / 16 * 16;
    if (lc < 16) lc = 16;
    return lc < p.L ? lc : p.L;
}

// Copies rows c of a tile between memory and an f32 tile of leading dim ld.
void load_tile(const void *ptr, data_type_t dt, dim_t off, dim_t sa, dim_t C,
        dim_t nl, float *tile, dim_t ld) {
    for (dim_t c = 0; c < C; ++c) {
        rows::row_t r;
        r.base = ptr;
        r.dt = dt;
        r.off = off + c * sa;
        float *dst = tile + c * ld;
        const float *v = rows::load(r, nl, dst);
        if (v != dst) std::memcpy(dst, v, nl * sizeof(float));
    }
}

void store_tile(void *ptr, data_type_t dt, dim_t off, dim_t sa, dim_t C,
        dim_t nl, const float *tile, dim_t ld) {
    for (dim_t c = 0; c < C; ++c) {
        rows::row_t r;
        r.base = ptr;
        r.dt = dt;
        r.off = off + c * sa;
        rows::store(r, tile + c * ld, nl);
    }
}

bool only_eltwise(const rows::po_chain_t &po) {
    for (const auto &e : po.entries)
        if (e.kind != post_op_kind_t::eltwise) return false;
    return true;
}

float read_scale(
        const softmax_pd_t &pd, const exec_ctx_t &ctx, int arg, bool &ok) {
    if (!pd.with_scale(arg)) return 1.f;
    const void *p = ctx.host_ptr(DNNL_ARG_ATTR_SCALES | arg);
    if (!p) {
        ok = false;
        return 1.f;
    }
    return load_f32(pd.attr()->scales.get(arg)->data_type, p, 0);
}

} // namespace

template <bool fwd, bool lanes>
status_t softmax_t<fwd, lanes>::pd_t::init(engine_t *) {
    if (this->is_fwd() != fwd) return dnnl_unimplemented;
    if (!this->attr_ok()) return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    if (!this->types_ok()) return dnnl_unimplemented;
    std::vector<const memory_desc_t *> tensors;
    const memory_desc_t *master;
    if (fwd) {
        DNNL_CHECK(po.init(this->attr()->post_ops, *this->dst_md()));
        master = this->src_md();
        tensors = {this->src_md(), this->dst_md()};
        for (const auto &m : po.mds) tensors.push_back(&m);
    } else {
        master = this->dst_md();
        tensors = {this->dst_md(), this->diff_dst_md(), this->diff_src_md()};
    }
    if (lanes) {
        if (!only_eltwise(po) || master->dims[this->axis()] > 4096
                || !lplan.init(*master, this->axis(), tensors))
            return dnnl_unimplemented;
    } else {
        rplan.init(*master, this->axis(), tensors);
    }
    k = &select_kernels();
    name_ = "simd:"
            + kernel_name("f32", lanes ? "softmax_lanes" : "softmax_rows",
                    k->isa);
    return dnnl_success;
}

template <bool fwd, bool lanes>
status_t softmax_t<fwd, lanes>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const kernels_t &k = *pd->k;
    if (md_nelems(fwd ? *pd->dst_md() : *pd->diff_src_md()) == 0)
        return dnnl_success;
    const bool log = pd->is_log();
    bool ok = true;
    const float ss = fwd ? read_scale(*pd, ctx, DNNL_ARG_SRC, ok) : 1.f;
    const float ds = fwd ? read_scale(*pd, ctx, DNNL_ARG_DST, ok) : 1.f;
    if (!ok) return dnnl_invalid_arguments;

    // Tensor pointers in plan order.
    std::vector<const void *> ptr;
    std::vector<data_type_t> dt;
    const memory_desc_t *out_md;
    if (fwd) {
        ptr = {ctx.host_ptr(DNNL_ARG_SRC), ctx.host_ptr(DNNL_ARG_DST)};
        dt = {pd->src_md()->data_type, pd->dst_md()->data_type};
        std::vector<const void *> pp;
        DNNL_CHECK(pd->po.pointers(ctx, pp));
        for (size_t i = 0; i < pp.size(); ++i) {
            ptr.push_back(pp[i]);
            dt.push_back(pd->po.mds[i].data_type);
        }
        out_md = pd->dst_md();
    } else {
        ptr = {ctx.host_ptr(DNNL_ARG_DST), ctx.host_ptr(DNNL_ARG_DIFF_DST),
                ctx.host_ptr(DNNL_ARG_DIFF_SRC)};
        dt = {pd->dst_md()->data_type, pd->diff_dst_md()->data_type,
                pd->diff_src_md()->data_type};
        out_md = pd->diff_src_md();
    }
    for (const void *p : ptr)
        if (!p) return dnnl_invalid_arguments;
    const int oi = fwd ? 1 : 2; // output tensor index
    void *out = const_cast<void *>(ptr[oi]);
    if (md_nelems(*out_md) == 0) {
        walk::zero_pad(*out_md, out);
        return dnnl_success;
    }

    if (lanes) {
        const axis::lanes_plan_t &p = pd->lplan;
        // f32 tensors are worked on in place; others through f32 tiles.
        bool direct = true;
        for (data_type_t d : dt) direct = direct && d == dnnl_f32;
        const dim_t lc = lanes_chunk(p, direct);
        const dim_t nchunks = (p.L + lc - 1) / lc;
        const dim_t units = p.outer() * nchunks;
        const int nthr = nthr_for(units * p.C * lc, 4096);
        parallel_chunks(nthr, units, [&](int, dim_t u0, dim_t u1) {
            const size_t tile = direct ? 0 : (size_t)(p.C * lc);
            std::vector<float> a(tile), b(fwd ? 0 : tile), c(fwd ? 0 : tile),
                    tmp((size_t)(2 * lc));
            dim_t off[3];
            auto f32 = [&](int t) {
                return static_cast<float *>(const_cast<void *>(ptr[t]))
                       + off[t];
            };
            for (dim_t u = u0; u < u1; ++u) {
                const dim_t l0 = (u % nchunks) * lc;
                const dim_t nl = l0 + lc < p.L ? lc : p.L - l0;
                axis::lane_offsets(p, u / nchunks, l0, off);
                if (fwd) {
                    float *o = direct ? f32(1) : a.data();
                    const dim_t ld = direct ? p.sa[1] : lc;
                    if (direct)
                        k.fwd_lanes(f32(0), p.sa[0], o, ld, p.C, nl, log, ss,
                                tmp.data());
                    else {
                        load_tile(
                                ptr[0], dt[0], off[0], p.sa[0], p.C, nl, o, lc);
                        k.fwd_lanes(o, lc, o, lc, p.C, nl, log, ss, tmp.data());
                    }
                    if (!pd->po.empty() || ds != 1.f)
                        for (dim_t ci = 0; ci < p.C; ++ci) {
                            float *r = o + ci * ld;
                            for (const auto &e : pd->po.entries)
                                rows::eltwise(
                                        e.alg, e.alpha, e.beta, e.scale, r, nl);
                            if (ds != 1.f)
                                for (dim_t l = 0; l < nl; ++l) r[l] /= ds;
                        }
                    if (!direct)
                        store_tile(out, dt[1], off[1], p.sa[1], p.C, nl, o, lc);
                } else if (direct) {
                    k.bwd_lanes(f32(0), p.sa[0], f32(1), p.sa[1], f32(2),
                            p.sa[2], p.C, nl, log, tmp.data());
                } else {
                    load_tile(ptr[0], dt[0], off[0], p.sa[0], p.C, nl, a.data(),
                            lc);
                    load_tile(ptr[1], dt[1], off[1], p.sa[1], p.C, nl, b.data(),
                            lc);
                    k.bwd_lanes(a.data(), lc, b.data(), lc, c.data(), lc, p.C,
                            nl, log, tmp.data());
                    store_tile(
                            out, dt[2], off[2], p.sa[2], p.C, nl, c.data(), lc);
                }
            }
        });
    } else {
        const axis::rows_plan_t &p = pd->rplan;
        const dim_t C = p.C;
        const int ntens = (int)p.tabs.size();
        const int nthr = nthr_for(p.nrows * C, 4096);
        parallel_chunks(nthr, p.nrows, [&](int, dim_t r0, dim_t r1) {
            std::vector<float> xb((size_t)C), yb((size_t)C), zb((size_t)C);
            std::vector<dim_t> base(ntens);
            std::vector<rows::row_t> por(ntens);
            for (dim_t r = r0; r < r1; ++r) {
                axis::row_bases(p, r, base.data());
                const rows::row_t r0w =
                        axis::axis_row(p, 0, ptr[0], dt[0], base[0]);
                const rows::row_t r1w =
                        axis::axis_row(p, 1, ptr[1], dt[1], base[1]);
                const float *x = rows::load(r0w, C, xb.data());
                if (fwd) {
                    const bool direct =
                            dt[1] == dnnl_f32 && r1w.st == 1 && !r1w.idx;
                    float *y = direct ? static_cast<float *>(out) + r1w.off
                                      : yb.data();
                    k.fwd_row(x, y, C, log, ss);
                    if (!pd->po.empty()) {
                        for (int t = 2; t < ntens; ++t)
                            por[t] = axis::axis_row(
                                    p, t, ptr[t], dt[t], base[t]);
                        rows::apply(
                                pd->po, y, C, por.data() + 2, r1w, zb.data());
                    }
                    if (ds != 1.f)
                        for (dim_t i = 0; i < C; ++i) y[i] /= ds;
                    if (!direct) rows::store(r1w, y, C);
                } else {
                    const float *dd = rows::load(r1w, C, yb.data());
                    const rows::row_t r2w =
                            axis::axis_row(p, 2, ptr[2], dt[2], base[2]);
                    const bool direct =
                            dt[2] == dnnl_f32 && r2w.st == 1 && !r2w.idx;
                    float *o = direct ? static_cast<float *>(out) + r2w.off
                                      : zb.data();
                    k.bwd_row(x, dd, o, C, log);
                    if (!direct) rows::store(r2w, o, C);
                }
            }
        });
    }
    walk::zero_pad(*out_md, out);
    return dnnl_success;
}

template struct softmax_t<true, true>;
template struct softmax_t<true, false>;
template struct softmax_t<false, true>;
template struct softmax_t<false, false>;

} // namespace softmax

const impl_list_item_t *softmax_impl_list() {
    using namespace softmax;
    static const impl_list_item_t list[] = {
            {create_pd<softmax_t<true, true>::pd_t, softmax_desc_t>},
            {create_pd<softmax_t<false, true>::pd_t, softmax_desc_t>},
            {create_pd<softmax_t<true, false>::pd_t, softmax_desc_t>},
            {create_pd<softmax_t<false, false>::pd_t, softmax_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
