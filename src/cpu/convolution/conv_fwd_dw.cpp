// Forward depthwise convolution (groups = channels, one channel each), a
// direct kernel accumulating in f32 for every data type (int8 values are
// exact in f32 for kernels below 2^9 taps):
//   nspc: per output row, for every output point and block of channels a
//         register accumulator walks the kernel taps (vectorised over
//         channels);
//   ncsp: per channel plane, output rows accumulate shifted input rows
//         (vectorised over the width).
// The inner loops are compiled for AVX-512, AVX2 and baseline x86-64 and
// picked at load time.
#include <algorithm>
#include <cstring>
#include <vector>


#include "common/float_convert.hpp"
#include "cpu/convolution/conv_driver.hpp"
#include "cpu/convolution/conv_clones.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {

// Output point ow, channels [cb, cb + len) with a fixed-size accumulator
// (L is a compile-time constant so that it lives in registers).
template <int L>
__attribute__((always_inline)) inline void dw_point(const conv_conf_t &c,
        const float *const *rows, const dim_t *taps, int nrows,
        const float *w, dim_t ow, dim_t cb, dim_t len, float *out)
{
    const dim_t G = c.g;
    float a[L];
    for (int q = 0; q < L; ++q)
        a[q] = 0.f;
    for (int r = 0; r < nrows; ++r) {
        const float *wk = w + taps[r] * c.kw * G + cb;
        for (dim_t kw = 0; kw < c.kw; ++kw) {
            const dim_t iw = ow * c.sw - c.pl + kw * c.dwl;
            if (iw < 0 || iw >= c.iw) continue;
            const float *s = rows[r] + iw * G + cb;
            const float *wv = wk + kw * G;
            if (len == L) {
                for (int q = 0; q < L; ++q)
                    a[q] += s[q] * wv[q];
            } else {
                for (dim_t q = 0; q < len; ++q)
                    a[q] += s[q] * wv[q];
            }
        }
    }
    for (dim_t q = 0; q < len; ++q)
        out[q] = a[q];
}

// One output row, channels last. rows[r] is the input row of kernel row
// taps[r] (a (kd, kh) index); w is [kd][kh][kw][G]; out is [OW][ldo].
CONV_CLONES void dw_row_nspc(const conv_conf_t &c, const float *const *rows,
        const dim_t *taps, int nrows, const float *w, float *out, dim_t ldo)
{
    const dim_t G = c.g;
    for (dim_t ow = 0; ow < c.ow; ++ow) {
        dim_t cb = 0;
        for (; cb + 64 <= G; cb += 64)
            dw_point<64>(c, rows, taps, nrows, w, ow, cb, 64,
                    out + ow * ldo + cb);
        for (; cb < G; cb += 16)
            dw_point<16>(c, rows, taps, nrows, w, ow, cb,
                    std::min<dim_t>(16, G - cb), out + ow * ldo + cb);
    }
}

// One output row of one channel plane: acc[ow] = sum over taps.
CONV_CLONES void dw_row_ncsp(const conv_conf_t &c, const float *in,
        const float *wg, dim_t od, dim_t oh, float *acc)
{
    for (dim_t ow = 0; ow < c.ow; ++ow)
        acc[ow] = 0.f;
    for (dim_t kd = 0; kd < c.kd; ++kd) {
        const dim_t id = od * c.sd - c.pf + kd * c.ddl;
        if (id < 0 || id >= c.id) continue;
        for (dim_t kh = 0; kh < c.kh; ++kh) {
            const dim_t ih = oh * c.sh - c.pt + kh * c.dhl;
            if (ih < 0 || ih >= c.ih) continue;
            const float *srow = in + (id * c.ih + ih) * c.iw;
            for (dim_t kw = 0; kw < c.kw; ++kw) {
                const float wv = wg[(kd * c.kh + kh) * c.kw + kw];
                const dim_t off = kw * c.dwl - c.pl;
                // ow range with 0 <= ow * sw + off < iw
                const dim_t lo = off >= 0 ? 0 : (-off + c.sw - 1) / c.sw;
                const dim_t hi = c.iw - 1 - off < 0
                        ? 0
                        : std::min(c.ow, (c.iw - 1 - off) / c.sw + 1);
                if (c.sw == 1) {
                    const float *s = srow + off;
                    for (dim_t ow = lo; ow < hi; ++ow)
                        acc[ow] += s[ow] * wv;
                } else {
                    for (dim_t ow = lo; ow < hi; ++ow)
                        acc[ow] += srow[ow * c.sw + off] * wv;
                }
            }
        }
    }
}
} // namespace

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
        const int nthr = (int)std::min<dim_t>(p.nthr, nrows_out);
        const dim_t krows = c.kd * c.kh;
        parallel_chunks(nthr, nrows_out, [&](int ithr, dim_t start, dim_t end) {
            float *acc = acc_base + ithr * c.ow * G;
            float *inbuf = in_base + ithr * krows * c.iw * G;
            std::vector<const float *> rows(krows);
            std::vector<dim_t> taps(krows);
            for (dim_t r = start; r < end; ++r) {
                const dim_t oh = r % c.oh, od = (r / c.oh) % c.od,
                            n = r / (c.oh * c.od);
                int nr = 0;
                for (dim_t kd = 0; kd < c.kd; ++kd) {
                    const dim_t id = od * c.sd - c.pf + kd * c.ddl;
                    if (id < 0 || id >= c.id) continue;
                    for (dim_t kh = 0; kh < c.kh; ++kh) {
                        const dim_t ih = oh * c.sh - c.pt + kh * c.dhl;
                        if (ih < 0 || ih >= c.ih) continue;
                        const dim_t soff
                                = ((n * c.id + id) * c.ih + ih) * c.iw * G;
                        if (direct_in) {
                            rows[nr] = static_cast<const float *>(t.src) + soff;
                        } else {
                            float *b = inbuf + nr * c.iw * G;
                            cvt_to_f32(sdt,
                                    static_cast<const char *>(t.src)
                                            + soff * sesz,
                                    b, c.iw * G);
                            if (t.in_zp)
                                for (dim_t iw = 0; iw < c.iw; ++iw)
                                    for (dim_t ch = 0; ch < G; ++ch)
                                        b[iw * G + ch] -= zp_of(ch);
                            rows[nr] = b;
                        }
                        taps[nr] = kd * c.kh + kh;
                        ++nr;
                    }
                }
                const dim_t sp0 = (od * c.oh + oh) * c.ow;
                char *o = static_cast<char *>(t.dst)
                        + (n * osp + sp0) * G * desz;
                if (direct_out) {
                    dw_row_nspc(c, rows.data(), taps.data(), nr, w, (float *)o,
                            G);
                    continue;
                }
                dw_row_nspc(c, rows.data(), taps.data(), nr, w, acc, G);
                epilogue_apply(p.epi, ea, false, acc, G, 1, o, G, 1, n, 0, G,
                        sp0, c.ow);
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
                        dw_row_ncsp(c, in, w + g * ksp, od, oh, (float *)o);
                        continue;
                    }
                    dw_row_ncsp(c, in, w + g * ksp, od, oh, acc);
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
