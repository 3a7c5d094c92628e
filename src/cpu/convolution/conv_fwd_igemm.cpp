// Forward convolution as an implicit GEMM (f32 arithmetic, f32/bf16/f16
// data), driving the GEMM core's microkernels directly:
//   C[oc][sp] = W[oc][k] * col[k][sp]
// The weights are kept in the microkernel's A panel layout itself
// (igemm_wei_md: output channels blocked by MR innermost), which is what
// `any` resolves to, so they are read in place. For every work item
// (image, group, chunk of output points) and K block the source is
// gathered straight into B panels (im2col fused with packing, no column
// buffer), the microkernel accumulates into the destination (or an f32
// block) and the epilogue runs on the finished block. Channels-first
// tensors are gathered with unit stride along the width and written in
// place; channels-last ones are gathered with the channel count as stride
// and written back transposed by the epilogue.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>


#include "cpu/convolution/conv_driver.hpp"
#include "cpu/convolution/conv_igemm_pack.hpp"
#include "cpu/convolution/conv_layout.hpp"
#include "common/float_convert.hpp"
#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"
#include "cpu/convolution/conv_clones.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {
using gemm::to_f32_t;

// A run of output points of one output row: points [j, j + len) of the
// chunk are (od, oh, ow0 + t); id0 / ih0 are their first input row indices.
struct run_t {
    dim_t j, len, id0, ih0, ow0;
};

std::vector<run_t> make_runs(const conv_conf_t &c, dim_t sp0, dim_t nsp)
{
    std::vector<run_t> runs;
    dim_t j = 0, sp = sp0;
    while (j < nsp) {
        const dim_t ow0 = sp % c.ow;
        const dim_t oh = (sp / c.ow) % c.oh;
        const dim_t od = sp / (c.ow * c.oh);
        const dim_t len = std::min(nsp - j, c.ow - ow0);
        runs.push_back({j, len, od * c.sd - c.pf, oh * c.sh - c.pt, ow0});
        j += len;
        sp += len;
    }
    return runs;
}

// Writes `n` values into B panel lanes starting at chunk point j of row
// `row` (which points at lane 0 of panel 0): v(t) for t < n.
#define CONV_INLINE inline __attribute__((always_inline))

template <typename F>
CONV_INLINE void put_lanes(float *row, dim_t kcNR, int NR, dim_t j, dim_t n, F v)
{
    dim_t lane = j % NR;
    float *d = row + (j / NR) * kcNR;
    for (dim_t t = 0; t < n;) {
        const dim_t cnt = std::min<dim_t>(n - t, NR - lane);
        for (dim_t q = 0; q < cnt; ++q)
            d[lane + q] = v(t + q);
        t += cnt;
        lane = 0;
        d += kcNR;
    }
}

// Contiguous f32 source: plain copies.
CONV_INLINE void copy_lanes(
        float *row, dim_t kcNR, int NR, dim_t j, dim_t n, const float *s)
{
    dim_t lane = j % NR;
    float *d = row + (j / NR) * kcNR;
    for (dim_t t = 0; t < n;) {
        const dim_t cnt = std::min<dim_t>(n - t, NR - lane);
        float *dl = d + lane;
        const float *sl = s + t;
        for (dim_t q = 0; q < cnt; ++q)
            dl[q] = sl[q];
        t += cnt;
        lane = 0;
        d += kcNR;
    }
}

template <typename T>
CONV_INLINE void put_src(float *row, dim_t kcNR, int NR, dim_t j, dim_t n,
        const T *s, dim_t stride)
{
    if (std::is_same<T, float>::value && stride == 1) {
        copy_lanes(row, kcNR, NR, j, n, (const float *)s);
        return;
    }
    put_lanes(row, kcNR, NR, j, n,
            [&](dim_t t) { return to_f32_t<T>::cvt(s[t * stride]); });
}

// B panels of K rows [pc, pc + kc) and the chunk's output points:
// bp[j / NR][p][j % NR] = col(pc + p, j), zero outside the source.
template <typename T>
CONV_INLINE void pack_b(const conv_conf_t &c, bool ncsp, const T *src,
        const std::vector<run_t> &runs, dim_t pc, dim_t kc, dim_t sp0,
        dim_t nsp, int NR, float *bp)
{
    // Element (ic, point) at src[ic * cs + point * ps].
    const dim_t cs = ncsp ? c.isp() : 1, ps = ncsp ? 1 : c.ic();
    const dim_t npanels = (nsp + NR - 1) / NR;
    const dim_t ksp = c.ksp();
    const dim_t kcNR = kc * NR;
    // Zero the lanes past nsp in the last panel.
    if (nsp % NR) {
        float *last = bp + (npanels - 1) * kcNR;
        for (dim_t p = 0; p < kc; ++p)
            for (dim_t j = nsp % NR; j < NR; ++j)
                last[p * NR + j] = 0.f;
    }
    const bool pointwise = c.is_pointwise();
    if (!ncsp) {
        // Channels last: the rows of one kernel tap are consecutive
        // channels, contiguous in the source for every output point, so
        // copy point by point (contiguous reads, lane-strided writes).
        const dim_t IC = c.ic();
        for (dim_t p = 0; p < kc;) {
            const dim_t k = pc + p;
            const dim_t tap = k / c.icg, ic0 = k % c.icg;
            const dim_t nrows = std::min(c.icg - ic0, kc - p);
            const dim_t kw = tap % c.kw, kh = (tap / c.kw) % c.kh,
                        kd = tap / (c.kw * c.kh);
            float *rows = bp + p * NR;
            for (const run_t &r : runs) {
                const dim_t id = r.id0 + kd * c.ddl;
                const dim_t ih = r.ih0 + kh * c.dhl;
                const bool row_ok
                        = id >= 0 && id < c.id && ih >= 0 && ih < c.ih;
                const T *srow = src + (id * c.ih + ih) * c.iw * IC + ic0;
                dim_t lane = r.j % NR;
                float *d = rows + (r.j / NR) * kcNR;
                for (dim_t t = 0; t < r.len; ++t) {
                    const dim_t iw = (r.ow0 + t) * c.sw - c.pl + kw * c.dwl;
                    float *dl = d + lane;
                    if (row_ok && iw >= 0 && iw < c.iw) {
                        const T *sp = srow + iw * IC;
                        for (dim_t q = 0; q < nrows; ++q)
                            dl[q * NR] = to_f32_t<T>::cvt(sp[q]);
                    } else {
                        for (dim_t q = 0; q < nrows; ++q)
                            dl[q * NR] = 0.f;
                    }
                    if (++lane == NR) {
                        lane = 0;
                        d += kcNR;
                    }
                }
            }
            p += nrows;
        }
        return;
    }
    for (dim_t p = 0; p < kc; ++p) {
        const dim_t k = pc + p;
        // K order: ncsp (ic, kd, kh, kw), nspc (kd, kh, kw, ic).
        const dim_t ic = ncsp ? k / ksp : k % c.icg;
        const dim_t kr = ncsp ? k % ksp : k / c.icg;
        const dim_t kw = kr % c.kw, kh = (kr / c.kw) % c.kh,
                    kd = kr / (c.kw * c.kh);
        const T *plane = src + ic * cs;
        float *row = bp + p * NR;
        if (pointwise) {
            put_src(row, kcNR, NR, 0, nsp, plane + sp0 * ps, ps);
            continue;
        }
        const dim_t off_w = kw * c.dwl - c.pl;
        dim_t lo = off_w >= 0 ? 0 : (-off_w + c.sw - 1) / c.sw;
        dim_t hi = c.iw - 1 - off_w < 0
                ? 0
                : std::min(c.ow, (c.iw - 1 - off_w) / c.sw + 1);
        if (lo > hi) lo = hi;
        for (const run_t &r : runs) {
            const dim_t id = r.id0 + kd * c.ddl;
            const dim_t ih = r.ih0 + kh * c.dhl;
            const dim_t e = r.ow0 + r.len;
            if (id < 0 || id >= c.id || ih < 0 || ih >= c.ih || hi <= r.ow0
                    || lo >= e) {
                put_lanes(row, kcNR, NR, r.j, r.len, [](dim_t) { return 0.f; });
                continue;
            }
            const dim_t a = std::max(r.ow0, lo), b = std::min(e, hi);
            if (a > r.ow0)
                put_lanes(row, kcNR, NR, r.j, a - r.ow0,
                        [](dim_t) { return 0.f; });
            const T *s = plane
                    + ((id * c.ih + ih) * c.iw + off_w + a * c.sw) * ps;
            put_src(row, kcNR, NR, r.j + (a - r.ow0), b - a, s, c.sw * ps);
            if (b < e)
                put_lanes(row, kcNR, NR, r.j + (b - r.ow0), e - b,
                        [](dim_t) { return 0.f; });
        }
    }
}

// The packing loops compiled for each ISA, picked at load time.
CONV_CLONES void pack_b_f32(const conv_conf_t &c, bool ncsp, const float *src,
        const std::vector<run_t> &runs, dim_t pc, dim_t kc, dim_t sp0,
        dim_t nsp, int NR, float *bp)
{
    pack_b(c, ncsp, src, runs, pc, kc, sp0, nsp, NR, bp);
}
CONV_CLONES void pack_b_bf16(const conv_conf_t &c, bool ncsp,
        const gemm::bf16_tag_t *src, const std::vector<run_t> &runs,
        dim_t pc, dim_t kc, dim_t sp0, dim_t nsp, int NR, float *bp)
{
    pack_b(c, ncsp, src, runs, pc, kc, sp0, nsp, NR, bp);
}
CONV_CLONES void pack_b_f16(const conv_conf_t &c, bool ncsp,
        const gemm::f16_tag_t *src, const std::vector<run_t> &runs, dim_t pc,
        dim_t kc, dim_t sp0, dim_t nsp, int NR, float *bp)
{
    pack_b(c, ncsp, src, runs, pc, kc, sp0, nsp, NR, bp);
}

template <typename T>
void pack_plain_panel(const conv_plan_t &p, const T *wei, dim_t g, dim_t ir,
        int MR, float *out)
{
    const dim_t K = p.c.kgemm(), ocg = p.c.ocg;
    const dim_t mpad = (ocg + MR - 1) / MR * MR;
    const dim_t m = std::min<dim_t>(MR, ocg - ir);
    float *o = out + g * mpad * K + ir * K;
    const dim_t *s = p.ig_s;
    gemm::pack_a_f32(
            wei + p.wei_md.offset0 + g * s[0] + ir * s[1], s[1], s[2], m, K, MR, o);
}

// The user's weights as f32 A panels.
void make_panels(const conv_plan_t &p, const void *wei, data_type_t wdt,
        int MR, float *out)
{
    using w_t = conv_plan_t::ig_wei_t;
    const conv_conf_t &c = p.c;
    if (p.ig_wei == w_t::convert) {
        cvt_to_f32(wdt, wei, out, md_nelems(p.wei_canon, true));
        return;
    }
    if (p.ig_wei == w_t::generic) {
        std::memset(out, 0, md_nelems(p.wei_canon, true) * sizeof(float));
        copy_tensor(p.wei_md, wei, p.wei_canon, out);
        return;
    }
    const dim_t npan = (c.ocg + MR - 1) / MR;
    const dim_t jobs = c.g * npan;
    const int nthr = (int)std::min<dim_t>(p.nthr, jobs);
    parallel_chunks(nthr, jobs, [&](int, dim_t j0, dim_t j1) {
        for (dim_t j = j0; j < j1; ++j) {
            const dim_t g = j / npan, ir = (j % npan) * MR;
            if (wdt == dnnl_f32)
                pack_plain_panel(p, (const float *)wei, g, ir, MR, out);
            else if (wdt == dnnl_bf16)
                pack_plain_panel(p, (const gemm::bf16_tag_t *)wei, g, ir, MR, out);
            else
                pack_plain_panel(p, (const gemm::f16_tag_t *)wei, g, ir, MR, out);
        }
    });
}
} // namespace

void conv_fwd_igemm(const conv_plan_t &p, const conv_canon_t &t,
        const epilogue_args_t &ea, void *scratchpad)
{
    const conv_conf_t &c = p.c;
    const auto &sc = p.scratch;
    const auto &uk = gemm::select_f32_ukernel();
    const int MR = uk.mr, NR = uk.nr;
    const data_type_t sdt = p.src_md.data_type, wdt = p.wei_md.data_type;
    const size_t sesz = data_type_size(sdt);
    const size_t desz = data_type_size(p.epi.dst_dt);
    const dim_t K = c.kgemm(), IC = c.ic(), OC = c.oc();
    const dim_t isp = c.isp(), osp = c.osp();
    const dim_t kcb = p.ig_kc, msp = p.msp;
    const dim_t nkb = (K + kcb - 1) / kcb;
    const dim_t mpad = (c.ocg + MR - 1) / MR * MR;
    const dim_t nchunks = (osp + msp - 1) / msp;
    const dim_t items = c.mb * c.g * nchunks;
    const bool ncsp = p.layout == layout_t::ncsp;
    const bool out_direct
            = ncsp && p.epi.dst_dt == dnnl_f32 && !p.epi.has_sum();
    const bool need_epi = !(out_direct && p.epi.is_identity());
    const int nthr = (int)std::min<dim_t>(p.nthr, items);

    float *wpan = sc.get<float>(scratchpad, scratch_plan_t::wei_panels);
    float *bbase = sc.get<float>(scratchpad, scratch_plan_t::col);
    float *abase = sc.get<float>(scratchpad, scratch_plan_t::acc);
    const dim_t bstride = (msp + NR - 1) / NR * NR * kcb;

    // f32 A panels (the layout of igemm_wei_md).
    using w_t = conv_plan_t::ig_wei_t;
    const float *wei = static_cast<const float *>(t.wei);
    if (p.ig_wei != w_t::direct) {
        make_panels(p, t.wei, wdt, MR, wpan);
        wei = wpan;
    }

    // Items claimed one at a time (see threading.hpp).
    parallel_claim(nthr, items, [&](int ithr, dim_t it) {
        float *bp = bbase + ithr * bstride;
        float *acc = abase ? abase + ithr * c.ocg * msp : nullptr;
        // f32 channels-first sources take the vectorised gathering.
        const bool fast_pack
                = ncsp && sdt == dnnl_f32 && igemm_fast_pack_ok(c, NR);
        igemm_gather_t gather;
        const dim_t chunk = it % nchunks;
        const dim_t g = (it / nchunks) % c.g;
        const dim_t n = it / (nchunks * c.g);
        const dim_t sp0 = chunk * msp;
        const dim_t nsp = std::min(msp, osp - sp0);
        const dim_t soff = ncsp ? (n * IC + g * c.icg) * isp
                                : n * isp * IC + g * c.icg;
        const dim_t ooff = ncsp ? (n * OC + g * c.ocg) * osp + sp0
                                : (n * osp + sp0) * OC + g * c.ocg;
        const char *src_ng = static_cast<const char *>(t.src) + soff * sesz;
        char *out = static_cast<char *>(t.dst) + ooff * desz;
        float *cbuf = out_direct ? (float *)out : acc;
        const dim_t ldc = out_direct ? osp : nsp;
        std::vector<run_t> runs;
        if (fast_pack)
            igemm_gather_plan(c, sp0, nsp, NR, gather);
        else
            runs = make_runs(c, sp0, nsp);
        for (dim_t kb = 0; kb < nkb; ++kb) {
            const dim_t pc = kb * kcb, kc = std::min(kcb, K - pc);
            if (fast_pack)
                igemm_pack_f32_ncsp(
                        c, (const float *)src_ng, gather, pc, kc, NR, bp);
            else if (sdt == dnnl_f32)
                pack_b_f32(c, ncsp, (const float *)src_ng, runs, pc, kc,
                        sp0, nsp, NR, bp);
            else if (sdt == dnnl_bf16)
                pack_b_bf16(c, ncsp, (const gemm::bf16_tag_t *)src_ng,
                        runs, pc, kc, sp0, nsp, NR, bp);
            else
                pack_b_f16(c, ncsp, (const gemm::f16_tag_t *)src_ng, runs,
                        pc, kc, sp0, nsp, NR, bp);
            const float *ap = wei + g * mpad * K + pc * MR;
            const float beta = kb == 0 ? 0.f : 1.f;
            for (dim_t jr = 0; jr < nsp; jr += NR) {
                const dim_t nn = std::min<dim_t>(NR, nsp - jr);
                const float *b = bp + jr * kc;
                for (dim_t ir = 0; ir < c.ocg; ir += MR)
                    uk.fn(kc, ap + ir * K, b, cbuf + ir * ldc + jr, ldc,
                            std::min<dim_t>(MR, c.ocg - ir), nn, 1.f,
                            beta);
            }
        }
        if (need_epi)
            epilogue_apply(p.epi, ea, false, cbuf, 1, ldc, out,
                    ncsp ? 1 : OC, ncsp ? osp : 1, n, g * c.ocg, c.ocg,
                    sp0, nsp);
    });
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
