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
#include "cpu/convolution/conv_kernels.hpp"
#include "cpu/convolution/conv_igemm_pack.hpp"
#include "cpu/convolution/conv_layout.hpp"
#include "common/float_convert.hpp"
#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {
using gemm::to_f32_t;

std::vector<run_t> make_runs(
        const conv_conf_t &c, dim_t sp0, dim_t nsp, int NR)
{
    std::vector<run_t> runs;
    dim_t j = 0, sp = sp0;
    while (j < nsp) {
        const dim_t ow0 = sp % c.ow;
        const dim_t oh = (sp / c.ow) % c.oh;
        const dim_t od = sp / (c.ow * c.oh);
        const dim_t len = std::min(nsp - j, c.ow - ow0);
        runs.push_back({j, len, od * c.sd - c.pf, oh * c.sh - c.pt, ow0,
                j / NR, j % NR});
        j += len;
        sp += len;
    }
    return runs;
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
                = ncsp && sdt == dnnl_f32 && p.ker->pack_b_f32_gather
                && igemm_gather_fits(c, NR);
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
            runs = make_runs(c, sp0, nsp, NR);
        for (dim_t kb = 0; kb < nkb; ++kb) {
            const dim_t pc = kb * kcb, kc = std::min(kcb, K - pc);
            if (fast_pack)
                p.ker->pack_b_f32_gather(
                        c, (const float *)src_ng, gather, pc, kc, NR, bp);
            else if (sdt == dnnl_f32)
                p.ker->pack_b_f32(c, ncsp, (const float *)src_ng, runs, pc, kc,
                        sp0, nsp, NR, bp);
            else if (sdt == dnnl_bf16)
                p.ker->pack_b_bf16(c, ncsp, (const gemm::bf16_tag_t *)src_ng,
                        runs, pc, kc, sp0, nsp, NR, bp);
            else
                p.ker->pack_b_f16(c, ncsp, (const gemm::f16_tag_t *)src_ng, runs,
                        pc, kc, sp0, nsp, NR, bp);
            const float *ap = wei + g * mpad * K + pc * MR;
            const float beta = kb == 0 ? 0.f : 1.f;
            for (dim_t jr = 0; jr < nsp; jr += NR) {
                const dim_t nn = std::min<dim_t>(NR, nsp - jr);
                const float *b = bp + jr * kc;
                for (dim_t ir = 0; ir < c.ocg; ir += MR)
                    uk.fn(kc, ap + ir * K, b, cbuf + ir * ldc + jr, ldc,
                            std::min<dim_t>(MR, c.ocg - ir), nn, 1.f,
                            beta, nullptr);
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
