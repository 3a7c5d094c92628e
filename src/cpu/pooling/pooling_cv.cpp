// Layout analysis of the channel-vector pooling walk: which tensors it
// takes and how it addresses them (pooling_cv.hpp).
#include "cpu/eltwise/eltwise_utils.hpp"
#include "cpu/pooling/pooling_fast.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

bool cv_view_of(const memory_desc_t &md, cv_kind_t kind, int &gw, cv_view_t &v,
        bool &padded) {
    if (md.format_kind != dnnl_blocked || md.ndims < 3 || md.ndims > 5)
        return false;
    const auto &bk = md.format_desc.blocking;
    const dim_t *st = bk.strides;
    const int nd = md.ndims, ns = nd - 2;
    v.n = st[0];
    v.d = ns == 3 ? st[2] : 0;
    v.h = ns >= 2 ? st[nd - 2] : 0;
    v.w = st[nd - 1];
    padded = false;
    if (bk.inner_nblks == 1) {
        // nChw16c / nChw8c: one block is one group of contiguous lanes.
        const dim_t b = bk.inner_blks[0];
        if (kind != cv_kind_t::direct || bk.inner_idxs[0] != 1
                || (b != 16 && b != 8))
            return false;
        gw = (int)b;
        v.g = st[1];
        v.c = 1;
        padded = md.padded_dims[1] > md.dims[1];
        return true;
    }
    if (bk.inner_nblks != 0) return false;
    gw = 16;
    if (kind == cv_kind_t::direct) {
        // Channels-last: groups of 64 channels (256 contiguous bytes, the
        // accumulators of a point stay in registers).
        if (st[1] != 1) return false;
        gw = 64;
        v.g = 64;
        v.c = 1;
        return true;
    }
    if (st[nd - 1] != 1) return false;
    v.c = st[1];
    // The stride of a single channel is free and may be huge (found by
    // fuzz_primitive_desc): a group step beyond dim_t declines the view.
    if (__builtin_mul_overflow((dim_t)16, st[1], &v.g)) return false;
    return true;
}

namespace {

// Global pooling over a dense spatial block read as one row: the ncsp
// walk then transposes whole vectors instead of short rows.
void flatten_global(cv_plan_t &p, cv_view_t &big) {
    geom_t &g = p.g;
    const bool global = g.od == 1 && g.oh == 1 && g.ow == 1 && g.kd == g.id
            && g.kh == g.ih && g.kw == g.iw && g.pd == 0 && g.ph == 0
            && g.pw == 0;
    const bool dense = big.w == 1 && (g.ih == 1 || big.h == g.iw)
            && (g.id == 1 || big.d == g.ih * g.iw);
    if (p.kind != cv_kind_t::ncsp || !global || !dense) return;
    const dim_t len = g.id * g.ih * g.iw;
    g.id = g.ih = g.kd = g.kh = 1;
    g.iw = g.kw = len;
    g.sd = g.sh = g.sw = 1;
    g.dd = g.dh = g.dw = 0;
    big.d = big.h = 0;
}

} // namespace

status_t cv_plan(const geom_t &g, bool fwd, const memory_desc_t &in,
        const memory_desc_t &out, const memory_desc_t *ws, cv_plan_t &p) {
    if (in.data_type != dnnl_f32 || out.data_type != dnnl_f32)
        return dnnl_unimplemented;
    // One kind and one group width for every tensor (a tensor with one
    // point or one channel may read as either kind); in ncsp the
    // transposes read and write whole w rows.
    bool pi = false, po = false, pw = false, ok = false;
    cv_kind_t k = cv_kind_t::direct;
    int gi = 0, go = 0, gw = 0;
    for (cv_kind_t kk : {cv_kind_t::direct, cv_kind_t::ncsp}) {
        k = kk;
        ok = cv_view_of(in, k, gi, p.I, pi) && cv_view_of(out, k, go, p.O, po)
                && (!ws || cv_view_of(*ws, k, gw, p.W, pw)) && gi == go
                && (!ws || gw == gi);
        if (ok) break;
    }
    if (!ok) return dnnl_unimplemented;
    p.g = g;
    p.kind = k;
    p.gw = gi;
    p.ngroups = (g.c + gi - 1) / gi;
    p.tail = (int)(g.c - (p.ngroups - 1) * gi);
    // The padded lanes of out and of a forward workspace are zeroed.
    p.out_padded = po;
    p.ws_padded = fwd && pw;
    p.in_off0 = in.offset0;
    p.out_off0 = out.offset0;
    p.ws_off0 = ws ? ws->offset0 : 0;
    flatten_global(p, fwd ? p.I : p.O);
    return dnnl_success;
}

int pool_nthr(const geom_t &g) {
    return nthr_for(
            g.mb * g.c * g.od * g.oh * g.ow * g.kd * g.kh * g.kw, 32768);
}

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
