// im2col / col2im of the GEMM-based convolution kernels.
#include "cpu/convolution/conv_im2col.hpp"

#include <algorithm>
#include <cstring>

#include "common/float_convert.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {
// Range of output indices o in [0, on) whose input index o * s - p + k * dl
// lies in [0, in).
inline void valid_range(dim_t on, dim_t in, dim_t s, dim_t p, dim_t koff,
        dim_t &lo, dim_t &hi)
{
    // o * s >= p - koff
    const dim_t a = p - koff;
    lo = a <= 0 ? 0 : (a + s - 1) / s;
    // o * s <= in - 1 + p - koff
    const dim_t b = in - 1 + p - koff;
    hi = b < 0 ? 0 : std::min(on, b / s + 1);
    if (lo > hi) lo = hi;
}

// Input index of output index o for kernel tap k, or -1 when out of range.
inline dim_t in_idx(dim_t o, dim_t s, dim_t p, dim_t k, dim_t dl, dim_t n)
{
    const dim_t i = o * s - p + k * dl;
    return i >= 0 && i < n ? i : -1;
}
} // namespace

template <typename T>
void im2col_nspc(const conv_conf_t &c, const T *src, T *col, dim_t sp0,
        dim_t nsp, T fill)
{
    const dim_t IC = c.ic(), icg = c.icg, K = c.kgemm();
    const bool runs = c.dwl == 1 && icg == IC;
    dim_t ow = sp0 % c.ow, oh = (sp0 / c.ow) % c.oh, od = sp0 / (c.ow * c.oh);
    for (dim_t r = 0; r < nsp; ++r) {
        T *row = col + r * K;
        for (dim_t kd = 0; kd < c.kd; ++kd) {
            const dim_t id = in_idx(od, c.sd, c.pf, kd, c.ddl, c.id);
            for (dim_t kh = 0; kh < c.kh; ++kh) {
                const dim_t ih = in_idx(oh, c.sh, c.pt, kh, c.dhl, c.ih);
                T *dk = row + (kd * c.kh + kh) * c.kw * icg;
                if (id < 0 || ih < 0) {
                    for (dim_t i = 0; i < c.kw * icg; ++i)
                        dk[i] = fill;
                    continue;
                }
                const T *srow = src + (id * c.ih + ih) * c.iw * IC;
                if (runs) {
                    // The kernel row's taps are neighbouring pixels of
                    // whole channels: the valid ones are one run of the
                    // source (one copy instead of one per tap: a small
                    // int8 3x3 spent a third of its time in tap copies).
                    const dim_t iw0 = ow * c.sw - c.pl;
                    const dim_t k0 = iw0 < 0 ? -iw0 : 0;
                    const dim_t k1 = std::max(
                            k0, std::min(c.kw, c.iw - iw0));
                    for (dim_t i = 0; i < k0 * IC; ++i)
                        dk[i] = fill;
                    if (k1 > k0)
                        std::memcpy(dk + k0 * IC, srow + (iw0 + k0) * IC,
                                (size_t)((k1 - k0) * IC) * sizeof(T));
                    for (dim_t i = k1 * IC; i < c.kw * IC; ++i)
                        dk[i] = fill;
                    continue;
                }
                for (dim_t kw = 0; kw < c.kw; ++kw) {
                    const dim_t iw = in_idx(ow, c.sw, c.pl, kw, c.dwl, c.iw);
                    T *d = dk + kw * icg;
                    if (iw < 0) {
                        for (dim_t i = 0; i < icg; ++i)
                            d[i] = fill;
                    } else {
                        std::memcpy(d, srow + iw * IC, icg * sizeof(T));
                    }
                }
            }
        }
        if (++ow == c.ow) {
            ow = 0;
            if (++oh == c.oh) {
                oh = 0;
                ++od;
            }
        }
    }
}

template <typename T>
void im2col_ncsp(const conv_conf_t &c, const T *src, T *col, dim_t sp0,
        dim_t nsp, T fill)
{
    const dim_t isp = c.isp();
    for (dim_t ic = 0; ic < c.icg; ++ic)
    for (dim_t kd = 0; kd < c.kd; ++kd)
    for (dim_t kh = 0; kh < c.kh; ++kh)
    for (dim_t kw = 0; kw < c.kw; ++kw) {
        T *row = col + (((ic * c.kd + kd) * c.kh + kh) * c.kw + kw) * nsp;
        const T *splane = src + ic * isp;
        dim_t lo, hi;
        valid_range(c.ow, c.iw, c.sw, c.pl, kw * c.dwl, lo, hi);
        dim_t r = 0;
        dim_t sp = sp0;
        while (r < nsp) {
            const dim_t ow0 = sp % c.ow;
            const dim_t oh = (sp / c.ow) % c.oh;
            const dim_t od = sp / (c.ow * c.oh);
            const dim_t len = std::min(nsp - r, c.ow - ow0);
            const dim_t id = in_idx(od, c.sd, c.pf, kd, c.ddl, c.id);
            const dim_t ih = in_idx(oh, c.sh, c.pt, kh, c.dhl, c.ih);
            T *d = row + r;
            if (id < 0 || ih < 0) {
                for (dim_t i = 0; i < len; ++i)
                    d[i] = fill;
            } else {
                const T *s = splane + (id * c.ih + ih) * c.iw;
                const dim_t a = std::max(ow0, lo), b = std::min(ow0 + len, hi);
                dim_t i = 0;
                for (; ow0 + i < a && i < len; ++i)
                    d[i] = fill;
                const dim_t off = kw * c.dwl - c.pl;
                if (c.sw == 1) {
                    if (b > a) {
                        std::memcpy(d + (a - ow0), s + a + off,
                                (b - a) * sizeof(T));
                        i = b - ow0;
                    }
                } else {
                    for (; ow0 + i < b; ++i)
                        d[i] = s[(ow0 + i) * c.sw + off];
                }
                for (i = std::max(i, b - ow0); i < len; ++i)
                    d[i] = fill;
            }
            r += len;
            sp += len;
        }
    }
}

void im2col_nspc_f32(const conv_conf_t &c, data_type_t dt, const void *src,
        const int32_t *zp, bool zp_per_c, float *col, dim_t sp0, dim_t nsp)
{
    const dim_t IC = c.ic(), icg = c.icg, K = c.kgemm();
    const size_t esz = data_type_size(dt);
    const char *s8 = static_cast<const char *>(src);
    for (dim_t r = 0; r < nsp; ++r) {
        const dim_t sp = sp0 + r;
        const dim_t ow = sp % c.ow, oh = (sp / c.ow) % c.oh,
                    od = sp / (c.ow * c.oh);
        float *row = col + r * K;
        for (dim_t kd = 0; kd < c.kd; ++kd)
        for (dim_t kh = 0; kh < c.kh; ++kh)
        for (dim_t kw = 0; kw < c.kw; ++kw) {
            float *d = row + ((kd * c.kh + kh) * c.kw + kw) * icg;
            const dim_t id = in_idx(od, c.sd, c.pf, kd, c.ddl, c.id);
            const dim_t ih = in_idx(oh, c.sh, c.pt, kh, c.dhl, c.ih);
            const dim_t iw = in_idx(ow, c.sw, c.pl, kw, c.dwl, c.iw);
            if (id < 0 || ih < 0 || iw < 0) {
                for (dim_t i = 0; i < icg; ++i)
                    d[i] = 0.f;
                continue;
            }
            const dim_t off = ((id * c.ih + ih) * c.iw + iw) * IC;
            cvt_to_f32(dt, s8 + off * esz, d, icg);
            if (zp)
                for (dim_t i = 0; i < icg; ++i)
                    d[i] -= (float)zp[zp_per_c ? i : 0];
        }
    }
}

void im2col_ncsp_f32(const conv_conf_t &c, data_type_t dt, const void *src,
        const int32_t *zp, bool zp_per_c, float *col, dim_t sp0, dim_t nsp)
{
    const dim_t isp = c.isp();
    for (dim_t ic = 0; ic < c.icg; ++ic) {
        const float z = zp ? (float)zp[zp_per_c ? ic : 0] : 0.f;
        for (dim_t kd = 0; kd < c.kd; ++kd)
        for (dim_t kh = 0; kh < c.kh; ++kh)
        for (dim_t kw = 0; kw < c.kw; ++kw) {
            float *row
                    = col + (((ic * c.kd + kd) * c.kh + kh) * c.kw + kw) * nsp;
            for (dim_t r = 0; r < nsp; ++r) {
                const dim_t sp = sp0 + r;
                const dim_t ow = sp % c.ow, oh = (sp / c.ow) % c.oh,
                            od = sp / (c.ow * c.oh);
                const dim_t id = in_idx(od, c.sd, c.pf, kd, c.ddl, c.id);
                const dim_t ih = in_idx(oh, c.sh, c.pt, kh, c.dhl, c.ih);
                const dim_t iw = in_idx(ow, c.sw, c.pl, kw, c.dwl, c.iw);
                row[r] = (id < 0 || ih < 0 || iw < 0)
                        ? 0.f
                        : load_f32(dt, src,
                                  ic * isp + (id * c.ih + ih) * c.iw + iw)
                                - z;
            }
        }
    }
}

template <typename T>
void col2im_nspc(const conv_conf_t &c, const T *col, T *out, dim_t ldo,
        dim_t r0, dim_t r1)
{
    const dim_t IC = ldo, icg = c.icg, K = c.kgemm();
    for (dim_t r = r0; r < r1; ++r) {
        const dim_t id = r / c.ih, ih = r % c.ih;
        T *orow = out + r * c.iw * IC;
        for (dim_t iw = 0; iw < c.iw; ++iw)
            for (dim_t i = 0; i < icg; ++i)
                orow[iw * IC + i] = 0;
        for (dim_t kd = 0; kd < c.kd; ++kd) {
            const dim_t odn = id + c.pf - kd * c.ddl;
            if (odn < 0 || odn % c.sd) continue;
            const dim_t od = odn / c.sd;
            if (od >= c.od) continue;
            for (dim_t kh = 0; kh < c.kh; ++kh) {
                const dim_t ohn = ih + c.pt - kh * c.dhl;
                if (ohn < 0 || ohn % c.sh) continue;
                const dim_t oh = ohn / c.sh;
                if (oh >= c.oh) continue;
                const T *crow = col + (od * c.oh + oh) * c.ow * K;
                for (dim_t kw = 0; kw < c.kw; ++kw) {
                    dim_t lo, hi;
                    valid_range(c.ow, c.iw, c.sw, c.pl, kw * c.dwl, lo, hi);
                    const dim_t koff = ((kd * c.kh + kh) * c.kw + kw) * icg;
                    for (dim_t ow = lo; ow < hi; ++ow) {
                        const dim_t iw = ow * c.sw - c.pl + kw * c.dwl;
                        const T *s = crow + ow * K + koff;
                        T *d = orow + iw * IC;
                        for (dim_t i = 0; i < icg; ++i)
                            d[i] += s[i];
                    }
                }
            }
        }
    }
}

template <typename T>
void col2im_ncsp(
        const conv_conf_t &c, const T *col, T *out, dim_t r0, dim_t r1)
{
    const dim_t osp = c.osp(), isp = c.isp();
    const dim_t rows_per_c = c.id * c.ih;
    for (dim_t r = r0; r < r1; ++r) {
        const dim_t ic = r / rows_per_c;
        const dim_t id = (r % rows_per_c) / c.ih, ih = r % c.ih;
        T *orow = out + ic * isp + (id * c.ih + ih) * c.iw;
        for (dim_t iw = 0; iw < c.iw; ++iw)
            orow[iw] = 0;
        for (dim_t kd = 0; kd < c.kd; ++kd) {
            const dim_t odn = id + c.pf - kd * c.ddl;
            if (odn < 0 || odn % c.sd) continue;
            const dim_t od = odn / c.sd;
            if (od >= c.od) continue;
            for (dim_t kh = 0; kh < c.kh; ++kh) {
                const dim_t ohn = ih + c.pt - kh * c.dhl;
                if (ohn < 0 || ohn % c.sh) continue;
                const dim_t oh = ohn / c.sh;
                if (oh >= c.oh) continue;
                for (dim_t kw = 0; kw < c.kw; ++kw) {
                    const T *crow = col
                            + (((ic * c.kd + kd) * c.kh + kh) * c.kw + kw) * osp
                            + (od * c.oh + oh) * c.ow;
                    dim_t lo, hi;
                    valid_range(c.ow, c.iw, c.sw, c.pl, kw * c.dwl, lo, hi);
                    const dim_t off = kw * c.dwl - c.pl;
                    if (c.sw == 1) {
                        T *d = orow + off;
                        for (dim_t ow = lo; ow < hi; ++ow)
                            d[ow] += crow[ow];
                    } else {
                        for (dim_t ow = lo; ow < hi; ++ow)
                            orow[ow * c.sw + off] += crow[ow];
                    }
                }
            }
        }
    }
}

template void im2col_nspc<uint8_t>(const conv_conf_t &, const uint8_t *,
        uint8_t *, dim_t, dim_t, uint8_t);
template void im2col_nspc<uint16_t>(const conv_conf_t &, const uint16_t *,
        uint16_t *, dim_t, dim_t, uint16_t);
template void im2col_nspc<uint32_t>(const conv_conf_t &, const uint32_t *,
        uint32_t *, dim_t, dim_t, uint32_t);
template void im2col_ncsp<uint8_t>(const conv_conf_t &, const uint8_t *,
        uint8_t *, dim_t, dim_t, uint8_t);
template void im2col_ncsp<uint16_t>(const conv_conf_t &, const uint16_t *,
        uint16_t *, dim_t, dim_t, uint16_t);
template void im2col_ncsp<uint32_t>(const conv_conf_t &, const uint32_t *,
        uint32_t *, dim_t, dim_t, uint32_t);
template void col2im_nspc<float>(
        const conv_conf_t &, const float *, float *, dim_t, dim_t, dim_t);
template void col2im_nspc<int32_t>(const conv_conf_t &, const int32_t *,
        int32_t *, dim_t, dim_t, dim_t);
template void col2im_ncsp<float>(
        const conv_conf_t &, const float *, float *, dim_t, dim_t);
template void col2im_ncsp<int32_t>(
        const conv_conf_t &, const int32_t *, int32_t *, dim_t, dim_t);

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
