// CPU softmax: plans (rows, lanes), descriptor checks, the forward and
// backward drivers and the implementation list.
#include "cpu/softmax/softmax.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

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

// Rows shorter than this go through the lanes kernel in groups of 64
// rows (forward: up to 48 values 1.1-2.5x faster than a row at a time,
// 64 even; backward faster only below one vector).
constexpr dim_t short_row_fwd = 64, short_row_bwd = 16;

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
        // Short rows are transposed in groups into lanes (a row a lane)
        // for the lanes kernel: one row per call spends its time in the
        // reductions' folds and tails, not in the row.
        const dim_t G = C < (fwd ? short_row_fwd : short_row_bwd) ? 64 : 0;
        // Every thread's buffers, taken once (not per chunk): rows of x,
        // diff_dst and the output (a group's block for short rows), the
        // post-ops' row, two lanes tiles and the lanes kernel's sums.
        const dim_t row_buf = std::max(C, G * C);
        const dim_t per_thr = 3 * row_buf + C + 2 * G * C + 2 * G;
        std::unique_ptr<float[]> scratch(new float[(size_t)(nthr * per_thr)]);
        // Short rows: chunks of whole groups.
        const dim_t units = G ? (p.nrows + G - 1) / G : p.nrows;
        parallel_chunks(nthr, units, [&](int ithr, dim_t u0, dim_t u1) {
            const dim_t r0 = G ? u0 * G : u0;
            const dim_t r1 = G ? std::min(p.nrows, u1 * G) : u1;
            float *xb = scratch.get() + ithr * per_thr, *db = xb + row_buf,
                  *ob = db + row_buf, *pb = ob + row_buf, *ta = pb + C,
                  *tb = ta + G * C, *tmp = tb + G * C;
            // Row offsets of every tensor at `at`: `base` for rows read and
            // written one at a time; groups of short rows are read at
            // `base` and written behind it, at `obase`.
            std::vector<dim_t> base(ntens), obase(ntens);
            const dim_t *at = base.data();
            std::vector<rows::row_t> por(ntens);
            auto row = [&](int t) {
                return axis::axis_row(p, t, ptr[t], dt[t], at[t]);
            };
            // The output row at `at`: in place when dense f32.
            rows::row_t ow;
            bool direct = false;
            auto out_row = [&]() {
                ow = row(oi);
                direct = dt[oi] == dnnl_f32 && ow.st == 1 && !ow.idx;
                return direct ? static_cast<float *>(out) + ow.off
                              : ob;
            };
            auto finish = [&](float *y) {
                if (fwd && !pd->po.empty()) {
                    for (int t = 2; t < ntens; ++t) por[t] = row(t);
                    rows::apply(pd->po, y, C, por.data() + 2, ow, pb);
                }
                if (fwd && ds != 1.f)
                    for (dim_t i = 0; i < C; ++i) y[i] /= ds;
                if (!direct) rows::store(ow, y, C);
            };
            if (G) {
                // Contiguous rows: a group is one block of ng * C elements
                // in every tensor, read (and without post-ops written) at
                // once.
                const bool block = p.contiguous;
                const bool block_out = block && pd->po.empty() && ds == 1.f;
                axis::row_cursor_t in(p, r0, base.data());
                axis::row_cursor_t outc(p, r0, obase.data());
                auto transpose_in = [&](const float *x, dim_t ng, float *t) {
                    for (dim_t i = 0; i < ng; ++i)
                        for (dim_t c = 0; c < C; ++c) t[c * G + i] = x[i * C + c];
                };
                for (dim_t g0 = r0; g0 < r1; g0 += G) {
                    const dim_t ng = std::min(G, r1 - g0);
                    for (dim_t i = 0; i < ng; ++i, in.next()) {
                        if (block && i) continue;
                        const dim_t len = block ? ng * C : C;
                        float *ti = ta + i, *td = tb + i;
                        transpose_in(rows::load(row(0), len, xb),
                                len / C, ti);
                        if (fwd) continue;
                        transpose_in(rows::load(row(1), len, db),
                                len / C, td);
                    }
                    if (fwd)
                        k.fwd_lanes(ta, G, ta, G, C, ng, log, ss,
                                tmp);
                    else
                        k.bwd_lanes(ta, G, tb, G, ta, G,
                                C, ng, log, tmp);
                    at = obase.data();
                    for (dim_t i = 0; i < ng; ++i, outc.next()) {
                        if (block_out && i) continue;
                        float *y = out_row();
                        const dim_t n = block_out ? ng : 1;
                        for (dim_t j = 0; j < n; ++j)
                            for (dim_t c = 0; c < C; ++c)
                                y[j * C + c] = ta[c * G + i + j];
                        if (block_out) {
                            if (!direct) rows::store(ow, y, ng * C);
                        } else {
                            finish(y);
                        }
                    }
                    at = base.data();
                }
                return;
            }
            axis::row_cursor_t rc(p, r0, base.data());
            // Rows one after another in f32 tensors, nothing after the
            // kernel: pointers step by C (no row descriptors per row).
            bool plain = p.contiguous && (!fwd || (pd->po.empty() && ds == 1.f));
            for (int t = 0; t < ntens; ++t) plain = plain && dt[t] == dnnl_f32;
            if (plain) {
                auto f32 = [&](int t) {
                    return static_cast<float *>(const_cast<void *>(ptr[t]))
                            + base[t];
                };
                const float *x = f32(0), *d = fwd ? nullptr : f32(1);
                float *y = f32(oi);
                for (dim_t r = r0; r < r1; ++r, x += C, y += C) {
                    if (fwd) {
                        k.fwd_row(x, y, C, log, ss);
                    } else {
                        k.bwd_row(x, d, y, C, log);
                        d += C;
                    }
                }
                return;
            }
            for (dim_t r = r0; r < r1; ++r, rc.next()) {
                const float *x = rows::load(row(0), C, xb);
                float *y = out_row();
                if (fwd) {
                    k.fwd_row(x, y, C, log, ss);
                } else {
                    const float *d = rows::load(row(1), C, db);
                    k.bwd_row(x, d, y, C, log);
                }
                finish(y);
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
