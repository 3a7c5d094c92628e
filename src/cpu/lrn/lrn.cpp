// CPU LRN drivers (problem set-up, tiling, threading, layout conversion)
// and the LRN implementation list.
#include "cpu/lrn/lrn.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "cpu/threading/threading.hpp"

#include "common/exec_ctx.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/lrn/lrn_tiles.hpp"
#include "cpu/pooling/dense_io.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {

namespace {

bool dt_ok(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

dim_t div_up(dim_t a, dim_t b) {
    return (a + b - 1) / b;
}

// Points per tile: enough tiles for every thread (about four each), but
// not so small that the loops lose their vector length.
dim_t tile_points(dim_t N, dim_t SP, dim_t lo, dim_t hi) {
    const dim_t nthr = max_threads();
    dim_t P = div_up(N * SP, 4 * nthr);
    if (P < lo) P = lo;
    P = P < hi ? P : hi;
    return P < SP ? P : SP;
}

// The dense f32 ncsp view of a tensor copied by io::in_view/out_view.
tref_t f32_ncsp(const float *p, dim_t N, dim_t C, dim_t SP) {
    chan_layout_t l;
    l.cls = chan_class_t::ncsp;
    l.N = N, l.C = C, l.SP = SP;
    return tref_t(p, dnnl_f32, l);
}

// The tensors of one execution; ws may be absent.
struct io_t {
    tref_t x, y, ws, dd; // forward: x -> y; backward: x, dd -> y (diff_src)
    float *scratch = nullptr; // the primitive's scratchpad (pd_t::bufs)
};

// Thread ithr's buffers in the scratchpad. (They were std::vectors made
// per chunk: zero-filled three 96 KiB tiles at a time, and the heap grew
// and shrank by them on every execution, trimming with TLB shootdowns;
// AlexNet's norm1 inference ran 2.7 ms, twice its training pass.)
struct thread_ptrs_t {
    float *x, *y, *ws, *dd, *scratch;
    template <typename bufs_t>
    thread_ptrs_t(float *all, const bufs_t &b, int ithr) {
        x = all + (size_t)ithr * (size_t)b.total();
        y = x + b.x;
        ws = y + b.y;
        dd = ws + b.ws;
        scratch = dd + b.dd;
    }
};

// Across channels on ncsp: tiles of C rows x P points.
template <bool fwd>
void run_cp(const typename lrn_t<fwd>::pd_t *pd, const io_t &t) {
    const kernel_table_t &k = *pd->ker;
    const params_t &p = pd->prm;
    const dim_t N = pd->N, SP = pd->SP, P = pd->P;
    const dim_t nsb = div_up(SP, P);
    // In-place forward would overwrite rows that other rows still read.
    const bool alias = fwd && t.x.base == t.y.base;
    const int nthr = std::min(pd->nthr, max_threads());
    parallel_chunks(nthr, N * nsb, [&](int ithr, dim_t u0, dim_t u1) {
        const thread_ptrs_t b(t.scratch, pd->bufs, ithr);
        float *xb = b.x, *yb = b.y, *wb = b.ws, *db = b.dd;
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t n = u / nsb, s0 = (u % nsb) * P;
            const dim_t np = P < SP - s0 ? P : SP - s0;
            dim_t ldx, ldy, ldw = 0, ldd = 0;
            const float *x = tile_in(t.x, n, s0, np, xb, ldx, alias);
            float *y = tile_out(t.y, n, s0, np, yb, ldy);
            if (fwd) {
                float *ws = t.ws ? tile_out(t.ws, n, s0, np, wb, ldw)
                                 : nullptr;
                k.across_fwd_cp(p, x, ldx, y, ldy, ws, ldw, pd->C, np);
                if (ws) tile_commit(t.ws, n, s0, np, ws);
            } else {
                const float *ws =
                        t.ws ? tile_in(t.ws, n, s0, np, wb, ldw) : nullptr;
                const float *d = tile_in(t.dd, n, s0, np, db, ldd);
                k.across_bwd_cp(p, x, ldx, d, ldd, ws, ldw, y, ldy, pd->C, np,
                        b.scratch);
            }
            tile_commit(t.y, n, s0, np, y);
        }
    });
}

// Across channels on channels-last and channel-blocked tensors (mixed as
// they come): point rows, f32 tensors walked in place, others converted
// per tile. Every point is computed from its own channels, so in-place
// execution needs no copy.
template <bool fwd>
void run_pc(const typename lrn_t<fwd>::pd_t *pd, io_t t) {
    const kernel_table_t &k = *pd->ker;
    const params_t &p = pd->prm;
    const dim_t N = pd->N, C = pd->C, SP = pd->SP, S = pd->seg, P = pd->P;
    const dim_t nsb = div_up(SP, P);
    // Segment offsets of every tensor's layout and of the row buffers.
    chan_layout_t rows;
    rows.cls = chan_class_t::nspc;
    const std::vector<dim_t> row_off = seg_offsets(rows, C, S);
    std::vector<dim_t> offs[4];
    tref_t *ts[4] = {&t.x, &t.y, &t.ws, &t.dd};
    for (int i = 0; i < 4; ++i) {
        if (!*ts[i]) continue;
        offs[i] = seg_offsets(ts[i]->l, C, S);
        ts[i]->off = offs[i].data();
        ts[i]->ld = point_stride(ts[i]->l, C);
    }
    const int nthr = std::min(pd->nthr, max_threads());
    parallel_chunks(nthr, N * nsb, [&](int ithr, dim_t u0, dim_t u1) {
        const thread_ptrs_t b(t.scratch, pd->bufs, ithr);
        float *xb = b.x, *yb = b.y, *wb = b.ws, *db = b.dd;
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t n = u / nsb, s0 = (u % nsb) * P;
            const dim_t np = P < SP - s0 ? P : SP - s0;
            const pc_in_t x = pc_in(t.x, n, s0, np, xb, row_off.data());
            const pc_out_t y = pc_out(t.y, n, s0, yb, row_off.data());
            if (fwd) {
                pc_out_t ws;
                if (t.ws) ws = pc_out(t.ws, n, s0, wb, row_off.data());
                k.across_fwd_pc(p, x, y, t.ws ? &ws : nullptr, C, S, np,
                        b.scratch);
                if (t.ws) pc_commit(t.ws, n, s0, np, ws.p);
            } else {
                pc_in_t ws;
                if (t.ws)
                    ws = pc_in(t.ws, n, s0, np, wb, row_off.data());
                const pc_in_t d =
                        pc_in(t.dd, n, s0, np, db, row_off.data());
                k.across_bwd_pc(p, x, d, t.ws ? &ws : nullptr, y, C, S, np,
                        b.scratch);
            }
            pc_commit(t.y, n, s0, np, y.p);
        }
    });
}

template <bool fwd>
void run(
        const typename lrn_t<fwd>::pd_t *pd, const io_t &t, chan_class_t walk) {
    const kernel_table_t &k = *pd->ker;
    const params_t &p = pd->prm;
    const dim_t N = pd->N, C = pd->C;
    if (!pd->across()) {
        // Within channel: one plane per (n, c), each tensor read or
        // written in place (ncsp f32) or through a plane buffer.
        const int nthr = std::min(pd->nthr, max_threads());
        parallel_chunks(nthr, N * C, [&](int ithr, dim_t nc0, dim_t nc1) {
            const thread_ptrs_t b(t.scratch, pd->bufs, ithr);
            float *xb = b.x, *yb = b.y, *wb = b.ws, *db = b.dd;
            for (dim_t nc = nc0; nc < nc1; ++nc) {
                const dim_t n = nc / C, c = nc % C;
                const float *x = plane_in(t.x, n, c, xb);
                float *y = plane_out(t.y, n, c, yb);
                if (fwd) {
                    float *ws = t.ws ? plane_out(t.ws, n, c, wb)
                                     : nullptr;
                    k.within_fwd(p, x, y, ws, pd->sp, b.scratch);
                    if (ws) plane_commit(t.ws, n, c, ws);
                } else {
                    const float *ws =
                            t.ws ? plane_in(t.ws, n, c, wb) : nullptr;
                    const float *d = plane_in(t.dd, n, c, db);
                    k.within_bwd(p, x, d, ws, y, pd->sp, b.scratch);
                }
                plane_commit(t.y, n, c, y);
            }
        });
        return;
    }
    if (walk == chan_class_t::ncsp)
        run_cp<fwd>(pd, t);
    else
        run_pc<fwd>(pd, t);
}

} // namespace

template <bool fwd>
status_t lrn_t<fwd>::pd_t::init(engine_t *) {
    if (this->is_fwd() != fwd) return dnnl_unimplemented;
    if (!this->attr_.post_ops.entries.empty() || !this->attr_.scales.empty()
            || !this->attr_.zero_points.empty())
        return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    const memory_desc_t &x = this->src_md_;
    const memory_desc_t &y = fwd ? this->dst_md_ : this->diff_src_md_;
    // One data type for every tensor, as in oneDNN.
    if (!dt_ok(x.data_type) || y.data_type != x.data_type
            || (!fwd && this->diff_dst_md_.data_type != x.data_type))
        return dnnl_unimplemented;
    const int nd = x.ndims, nsp = nd - 2;
    if (!this->across() && nsp > 3) return dnnl_unimplemented;
    N = x.dims[0];
    C = x.dims[1];
    SP = 1;
    for (int d = 2; d < nd; ++d) SP *= x.dims[d];
    for (int i = 0; i < nsp && nsp <= 3; ++i) sp[3 - nsp + i] = x.dims[2 + i];

    // All tensors must share a walk to be used in place: ncsp tiles, or
    // point rows, which nspc and blocked tensors may mix (each is gathered
    // or used in place on its own).
    const chan_layout_t lx = chan_layout(x);
    auto row_walk = [](chan_class_t c) {
        return c == chan_class_t::nspc || c == chan_class_t::blocked;
    };
    bool same = lx.cls != chan_class_t::other;
    const memory_desc_t *others[] = {&y, &this->diff_dst_md_, &this->ws_md_};
    for (const memory_desc_t *m : others) {
        if (is_zero_md(*m)) continue;
        const chan_class_t c = chan_layout(*m).cls;
        same = same && (c == lx.cls || (row_walk(c) && row_walk(lx.cls)));
    }
    // Within-channel planes are gathered per tensor: any mix of the three
    // layouts will do.
    if (!this->across()) {
        same = lx.cls != chan_class_t::other;
        for (const memory_desc_t *m : others)
            same = same
                    && (is_zero_md(*m)
                            || chan_layout(*m).cls != chan_class_t::other);
    }
    walk = same ? lx.cls : chan_class_t::other;
    B = lx.B;
    seg = 16;
    const memory_desc_t *all[] = {&x, &y, &this->diff_dst_md_, &this->ws_md_};
    for (const memory_desc_t *m : all) {
        const chan_layout_t l = chan_layout(*m);
        if (!is_zero_md(*m) && l.cls == chan_class_t::blocked)
            seg = std::gcd(seg, l.B);
    }

    const dim_t ls = this->desc()->local_size;
    const double summands =
            this->across() ? (double)ls : std::pow((double)ls, nsp);
    prm.lo = (ls - 1) / 2;
    // For even sizes the window is one narrower than local_size (oneDNN).
    prm.hi = ls > 0 ? (ls + 1) / 2 - 1 : 0;
    const float alpha = this->desc()->alpha;
    prm.a = (float)((double)alpha / summands);
    prm.k = this->desc()->k;
    if (ls == 0) {
        // An empty window: k + (alpha / 0) * 0 is NaN in IEEE arithmetic.
        prm.lo = prm.hi = 0;
        prm.a = 0.f;
        prm.k = std::numeric_limits<float>::quiet_NaN();
    }
    // Windows wider than the tensor add only zeros.
    dim_t ext = this->across() ? C : std::max(std::max(sp[0], sp[1]), sp[2]);
    if (ext < 1) ext = 1;
    prm.lo = std::min(prm.lo, ext - 1);
    prm.hi = std::min(prm.hi, ext - 1);
    prm.beta = this->desc()->beta;
    prm.c2 = -2.f * prm.a * prm.beta;
    prm.pw = prm.beta == 0.75f  ? pow_kind_t::b075
             : prm.beta == 1.f  ? pow_kind_t::b1
             : prm.beta == 0.5f ? pow_kind_t::b05
                                : pow_kind_t::general;
    ker = &select_kernels();
    name_ = "simd:" + kernel_name("f32", kernel_op(), ker->isa_name);
    plan_buffers();
    return dnnl_success;
}

template <bool fwd>
void lrn_t<fwd>::pd_t::plan_buffers() {
    // A tensor needs a copy unless the walk reads it in place: ncsp tiles
    // and within-channel planes of f32 ncsp, pc rows of any f32 layout.
    // Tensors of the `other` walk are dense f32 ncsp copies already.
    const bool pc = this->across()
            && (walk == chan_class_t::nspc || walk == chan_class_t::blocked);
    auto needs_copy = [&](const memory_desc_t &m) {
        if (is_zero_md(m) || walk == chan_class_t::other) return false;
        if (m.data_type != dnnl_f32) return true;
        return !pc && chan_layout(m).cls != chan_class_t::ncsp;
    };
    const memory_desc_t &y = fwd ? this->dst_md_ : this->diff_src_md_;
    const memory_desc_t &dd = fwd ? zero_md() : this->diff_dst_md_;
    const memory_desc_t &ws = this->has_ws() ? this->ws_md_ : zero_md();
    dim_t unit = SP, scratch = within_scratch(prm, sp);
    if (this->across()) {
        P = pc ? tile_points(N, SP, 1, 32) : tile_points(N, SP, 16, 256);
        unit = C * P;
        scratch = pc ? across_pc_scratch(prm, C)
                     : fwd ? 0 : across_cp_bwd_scratch(C, P);
    }
    // An in-place ncsp forward copies its source tile whatever its type.
    const bool x_always = fwd && this->across() && !pc;
    bufs.x = x_always || needs_copy(this->src_md_) ? unit : 0;
    bufs.y = needs_copy(y) ? unit : 0;
    bufs.ws = needs_copy(ws) ? unit : 0;
    bufs.dd = needs_copy(dd) ? unit : 0;
    bufs.scratch = scratch;
    nthr = max_threads();
    this->book_scratchpad((size_t)nthr * (size_t)bufs.total() * sizeof(float));
}

template <bool fwd>
status_t lrn_t<fwd>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const void *x = ctx.host_ptr(DNNL_ARG_SRC);
    void *y = ctx.host_ptr(fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC);
    const void *dd = fwd ? nullptr : ctx.host_ptr(DNNL_ARG_DIFF_DST);
    void *ws = p->has_ws() ? ctx.host_ptr(DNNL_ARG_WORKSPACE) : nullptr;
    if (!x || !y || (!fwd && !dd) || (p->has_ws() && !ws))
        return dnnl_invalid_arguments;
    if (p->N * p->C * p->SP == 0) return dnnl_success;
    float *scratch = static_cast<float *>(ctx.scratchpad());
    if (!scratch && p->bufs.total() > 0) return dnnl_invalid_arguments;
    const memory_desc_t &ymd = fwd ? *p->dst_md() : *p->diff_src_md();
    if (p->walk != chan_class_t::other) {
        io_t t;
        t.scratch = scratch;
        t.x = tref_t(x, p->src_md()->data_type, chan_layout(*p->src_md()));
        t.y = tref_t(y, ymd.data_type, chan_layout(ymd));
        if (ws) t.ws = tref_t(ws, dnnl_f32, chan_layout(*p->ws_md()));
        if (!fwd)
            t.dd = tref_t(dd, p->diff_dst_md()->data_type,
                    chan_layout(*p->diff_dst_md()));
        run<fwd>(p, t, p->walk);
        return dnnl_success;
    }
    // Any other layout: dense f32 copies, computed as ncsp.
    std::vector<float> xb, yb, wb, db;
    const dim_t N = p->N, C = p->C, SP = p->SP;
    io_t t;
    t.scratch = scratch;
    t.x = f32_ncsp(io::in_view(*p->src_md(), x, xb), N, C, SP);
    float *yv = io::out_view(ymd, y, yb);
    t.y = f32_ncsp(yv, N, C, SP);
    float *wv = nullptr;
    if (ws) {
        wv = fwd ? io::out_view(*p->ws_md(), ws, wb)
                 : const_cast<float *>(io::in_view(*p->ws_md(), ws, wb));
        t.ws = f32_ncsp(wv, N, C, SP);
    }
    if (!fwd) t.dd = f32_ncsp(io::in_view(*p->diff_dst_md(), dd, db), N, C, SP);
    run<fwd>(p, t, chan_class_t::ncsp);
    io::commit(ymd, y, yb, yv);
    if (fwd && ws) io::commit(*p->ws_md(), ws, wb, wv);
    return dnnl_success;
}

template struct lrn_t<true>;
template struct lrn_t<false>;

} // namespace lrn

const impl_list_item_t *lrn_impl_list() {
    using namespace lrn;
    static const impl_list_item_t list[] = {
            {create_pd<lrn_t<true>::pd_t, lrn_desc_t>},
            {create_pd<lrn_t<false>::pd_t, lrn_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
