// Forward depthwise convolution (groups = channels, one channel each), a
// direct kernel accumulating in f32 for every data type (int8 values are
// exact in f32 for kernels below 2^9 taps):
//   nspc: per output row, register accumulators for 8 output points by
//         16 channels walk the kernel taps (vectorised over channels);
//   ncsp: per channel plane, output rows accumulate shifted input rows
//         (vectorised over the width).
// The inner loops are compiled once per ISA (conv_kernels.cpp) and picked
// when the primitive descriptor is created.
#include <algorithm>
#include <cstring>
#include <vector>


#include "common/float_convert.hpp"
#include "cpu/convolution/conv_driver.hpp"
#include "cpu/convolution/conv_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {


void conv_fwd_depthwise(const conv_plan_t &p, const conv_canon_t &t,
        const epilogue_args_t &ea, void *scratchpad)
{
    const conv_conf_t &c = p.c;
    const auto &sc = p.scratch;
    const dim_t G = c.g;
    const dim_t isp = c.isp(), osp = c.osp();
    const data_type_t sdt = p.src_md.data_type;
    const size_t sesz = data_type_size(sdt);
    const size_t desz = data_type_size(p.epi.dst_dt);
    const bool direct_in = sdt == dnnl_f32 && !t.in_zp;
    // Nothing to apply: rows go straight to an f32 destination.
    const bool direct_out = p.epi.is_identity();
    const float *w = static_cast<const float *>(t.wei);
    float *acc_base = sc.get<float>(scratchpad, scratch_plan_t::acc);
    float *in_base = sc.get<float>(scratchpad, scratch_plan_t::col);
    auto zp_of = [&](dim_t ch) -> float {
        return t.in_zp ? (float)t.in_zp[p.in_zp_per_c ? ch : 0] : 0.f;
    };

    if (p.layout == layout_t::nspc) {
        const dim_t nrows_out = c.mb * c.od * c.oh;
        // Few rows (a small image at mb1): rows cut into channel blocks
        // too (multiples of 16), so that every thread gets work.
        const dim_t nv = (G + 15) / 16;
        const dim_t want = 4 * (dim_t)p.nthr;
        const dim_t nsplit = p.nthr > 1 && nrows_out < want
                ? std::min(nv, (want + nrows_out - 1) / nrows_out)
                : 1;
        const dim_t cblk = (nv + nsplit - 1) / nsplit * 16;
        const dim_t nsplit_used = (G + cblk - 1) / cblk;
        const dim_t units = nrows_out * nsplit_used;
        const int nthr = (int)std::min<dim_t>(p.nthr, units);
        const dim_t krows = c.kd * c.kh;
        parallel_chunks(nthr, units, [&](int ithr, dim_t start, dim_t end) {
            float *acc = acc_base + ithr * c.ow * G;
            float *inbuf = in_base + ithr * krows * c.iw * G;
            std::vector<const float *> rows(krows);
            std::vector<dim_t> taps(krows);
            for (dim_t u = start; u < end; ++u) {
                const dim_t r = u / nsplit_used;
                const dim_t c0 = (u % nsplit_used) * cblk,
                            nc = std::min(cblk, G - c0);
                const dim_t oh = r % c.oh, od = (r / c.oh) % c.od,
                            n = r / (c.oh * c.od);
                int nr = 0;
                for_each_input_row(c, od, oh,
                        [&](dim_t kd, dim_t kh, dim_t id, dim_t ih) {
                            const dim_t soff
                                    = ((n * c.id + id) * c.ih + ih) * c.iw * G;
                            if (direct_in) {
                                rows[nr] = static_cast<const float *>(t.src)
                                        + soff;
                            } else {
                                // Only the unit's channels [c0, c0 + nc)
                                // are converted: the kernel reads no others.
                                float *b = inbuf + nr * c.iw * G;
                                const char *sr = static_cast<const char *>(
                                                         t.src)
                                        + soff * sesz;
                                for (dim_t iw = 0; iw < c.iw; ++iw) {
                                    float *bp = b + iw * G + c0;
                                    cvt_to_f32(sdt, sr + (iw * G + c0) * sesz,
                                            bp, nc);
                                    if (t.in_zp)
                                        for (dim_t ch = 0; ch < nc; ++ch)
                                            bp[ch] -= zp_of(c0 + ch);
                                }
                                rows[nr] = b;
                            }
                            taps[nr++] = kd * c.kh + kh;
                        });
                const dim_t sp0 = (od * c.oh + oh) * c.ow;
                char *o = static_cast<char *>(t.dst)
                        + (n * osp + sp0) * G * desz;
                if (direct_out) {
                    p.ker->dw_row_nspc(c, rows.data(), taps.data(), nr, w,
                            (float *)o, G, c0, nc);
                    continue;
                }
                p.ker->dw_row_nspc(c, rows.data(), taps.data(), nr, w, acc, G,
                        c0, nc);
                epilogue_apply(p.epi, ea, false, acc + c0, G, 1,
                        o + c0 * desz, G, 1, n, c0, nc, sp0, c.ow);
            }
        });
        return;
    }

    const dim_t planes = c.mb * G;
    const int nthr = (int)std::min<dim_t>(p.nthr, planes);
    const dim_t ksp = c.ksp();
    parallel_chunks(nthr, planes, [&](int ithr, dim_t start, dim_t end) {
        float *acc = acc_base + ithr * c.ow;
        float *inplane = in_base + ithr * isp;
        for (dim_t pl = start; pl < end; ++pl) {
            const dim_t g = pl % G, n = pl / G;
            const float *in;
            if (direct_in) {
                in = static_cast<const float *>(t.src) + pl * isp;
            } else {
                cvt_to_f32(sdt,
                        static_cast<const char *>(t.src) + pl * isp * sesz,
                        inplane, isp);
                if (t.in_zp) {
                    const float z = zp_of(g);
                    for (dim_t i = 0; i < isp; ++i)
                        inplane[i] -= z;
                }
                in = inplane;
            }
            for (dim_t od = 0; od < c.od; ++od)
                for (dim_t oh = 0; oh < c.oh; ++oh) {
                    const dim_t sp0 = (od * c.oh + oh) * c.ow;
                    char *o = static_cast<char *>(t.dst)
                            + (pl * osp + sp0) * desz;
                    if (direct_out) {
                        p.ker->dw_row_ncsp(c, in, w + g * ksp, od, oh, (float *)o);
                        continue;
                    }
                    p.ker->dw_row_ncsp(c, in, w + g * ksp, od, oh, acc);
                    epilogue_apply(p.epi, ea, false, acc, 1, 0, o, 1, osp, n,
                            g, 1, sp0, c.ow);
                }
        }
    });
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
