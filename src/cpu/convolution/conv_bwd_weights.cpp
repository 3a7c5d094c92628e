// Backward-weights convolution on canonical tensors.
//
// Work items are (image, chunk of output points); every thread accumulates
// the weight gradient of its items into a private f32 buffer in the
// kernel layout, then the buffers are summed:
//   nspc: dW[k][oc] += col[sp][k]^T * diff_dst[sp][oc]
//   ncsp: dW[oc][k] += diff_dst[oc][sp] * col[k][sp]^T
// The bias gradient is a per-channel sum over images and points of
// diff_dst (of the source for deconvolution).
#include <algorithm>
#include <cstring>


#include "common/float_convert.hpp"
#include "cpu/convolution/conv_driver.hpp"
#include "cpu/convolution/conv_im2col.hpp"
#include "cpu/gemm/gemm.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {
// out[ch] = sum over images and points of x (canonical, `C` channels).
void reduce_channels(const conv_plan_t &p, const void *x, data_type_t dt,
        dim_t C, dim_t npts, float *out)
{
    const conv_conf_t &c = p.c;
    const bool ncsp = p.layout == layout_t::ncsp;
    const dim_t blk = 16;
    const dim_t nblk = (C + blk - 1) / blk;
    const int nthr = (int)std::min<dim_t>(p.nthr, nblk);
    parallel_chunks(nthr, nblk, [&](int, dim_t b0, dim_t b1) {
        for (dim_t b = b0; b < b1; ++b) {
            const dim_t c0 = b * blk, c1 = std::min(C, c0 + blk);
            double acc[16] = {};
            for (dim_t n = 0; n < c.mb; ++n) {
                if (ncsp) {
                    for (dim_t ch = c0; ch < c1; ++ch) {
                        const dim_t base = (n * C + ch) * npts;
                        float s = 0.f;
                        if (dt == dnnl_f32) {
                            const float *v = static_cast<const float *>(x) + base;
                            for (dim_t i = 0; i < npts; ++i)
                                s += v[i];
                        } else {
                            for (dim_t i = 0; i < npts; ++i)
                                s += load_f32(dt, x, base + i);
                        }
                        acc[ch - c0] += s;
                    }
                } else {
                    float s[16] = {};
                    for (dim_t i = 0; i < npts; ++i) {
                        const dim_t base = (n * npts + i) * C;
                        for (dim_t ch = c0; ch < c1; ++ch)
                            s[ch - c0] += load_f32(dt, x, base + ch);
                    }
                    for (dim_t ch = c0; ch < c1; ++ch)
                        acc[ch - c0] += s[ch - c0];
                }
            }
            for (dim_t ch = c0; ch < c1; ++ch)
                out[ch] = (float)acc[ch - c0];
        }
    });
}

template <typename T>
void im2col_raw(const conv_plan_t &p, const void *src, void *col, dim_t sp0,
        dim_t nsp)
{
    if (p.layout == layout_t::nspc)
        im2col_nspc<T>(p.c, static_cast<const T *>(src), static_cast<T *>(col),
                sp0, nsp, T(0));
    else
        im2col_ncsp<T>(p.c, static_cast<const T *>(src), static_cast<T *>(col),
                sp0, nsp, T(0));
}
} // namespace

void conv_bwd_weights_gemm(
        const conv_plan_t &p, const conv_canon_t &t, void *scratchpad)
{
    const conv_conf_t &c = p.c;
    const auto &sc = p.scratch;
    const bool ncsp = p.layout == layout_t::ncsp;
    const data_type_t sdt = p.src_md.data_type, ddt = p.dst_md.data_type;
    const size_t sesz = data_type_size(sdt), desz = data_type_size(ddt);
    const dim_t K = c.kgemm(), IC = c.ic(), OC = c.oc();
    const dim_t isp = c.isp(), osp = c.osp();
    const dim_t msp = p.msp;
    const dim_t nchunks = (osp + msp - 1) / msp;
    const dim_t items = c.mb * nchunks;
    const bool need_col = !c.is_pointwise();
    const dim_t wsz = c.g * c.ocg * K;
    const dim_t nbias = p.bias_from_src ? IC : OC;
    const dim_t red_stride = wsz + nbias;
    const int nthr = (int)std::min<dim_t>(p.nthr, items);
    const size_t ws_size = sc.size[scratch_plan_t::gemm_ws] / p.nthr;
    float *red = sc.get<float>(scratchpad, scratch_plan_t::red);
    char *col_base = sc.get<char>(scratchpad, scratch_plan_t::col);
    char *ws_base = sc.get<char>(scratchpad, scratch_plan_t::gemm_ws);

    int team = 1; // threads the runtime actually gave
    // A static split: each thread sums into its own buffer, and the sum
    // of the buffers below must not depend on timing.
    parallel(nthr, [&](int ithr, int nt) {
        if (ithr == 0) team = nt;
        dim_t start, end;
        balance(items, nt, ithr, start, end);
        float *my = red + ithr * red_stride;
        std::fill(my, my + wsz, 0.f);
        char *col = col_base ? col_base + ithr * msp * K * sesz : nullptr;
        void *ws = ws_base ? ws_base + ithr * ws_size : nullptr;
        for (dim_t it = start; it < end; ++it) {
            const dim_t chunk = it % nchunks, n = it / nchunks;
            const dim_t sp0 = chunk * msp;
            const dim_t nsp = std::min(msp, osp - sp0);
            for (dim_t g = 0; g < c.g; ++g) {
                const dim_t soff = ncsp ? (n * IC + g * c.icg) * isp
                                        : n * isp * IC + g * c.icg;
                const char *src_ng
                        = static_cast<const char *>(t.src) + soff * sesz;
                const void *act;
                dim_t act_rs, act_cs; // act(sp, k)
                if (need_col) {
                    if (sesz == 4)
                        im2col_raw<uint32_t>(p, src_ng, col, sp0, nsp);
                    else if (sesz == 2)
                        im2col_raw<uint16_t>(p, src_ng, col, sp0, nsp);
                    else
                        im2col_raw<uint8_t>(p, src_ng, col, sp0, nsp);
                    act = col;
                    act_rs = ncsp ? 1 : K;
                    act_cs = ncsp ? nsp : 1;
                } else {
                    act = src_ng + (ncsp ? sp0 : sp0 * IC) * sesz;
                    act_rs = ncsp ? 1 : IC;
                    act_cs = ncsp ? isp : 1;
                }
                const dim_t doff = ncsp ? (n * OC + g * c.ocg) * osp + sp0
                                        : (n * osp + sp0) * OC + g * c.ocg;
                const char *dd
                        = static_cast<const char *>(t.diff_dst) + doff * desz;
                gemm::gemm_f32_args_t a;
                if (ncsp) {
                    a.M = c.ocg, a.N = K, a.K = nsp;
                    a.a = dd, a.a_dt = ddt, a.a_rs = osp, a.a_cs = 1;
                    a.b = act, a.b_dt = sdt, a.b_rs = act_rs, a.b_cs = act_cs;
                    a.ldc = K;
                } else {
                    a.M = K, a.N = c.ocg, a.K = nsp;
                    a.a = act, a.a_dt = sdt, a.a_rs = act_cs, a.a_cs = act_rs;
                    a.b = dd, a.b_dt = ddt, a.b_rs = OC, a.b_cs = 1;
                    a.ldc = c.ocg;
                }
                a.c = my + g * c.ocg * K;
                a.beta = 1.f;
                a.parallel = false;
                a.nthr = 1;
                a.workspace = ws;
                gemm::gemm_f32(a);
            }
        }
    });

    // Sum the partial gradients.
    float *out = t.diff_wei;
    parallel_chunks(p.nthr, wsz, [&](int, dim_t i0, dim_t i1) {
        for (dim_t i = i0; i < i1; ++i) {
            float s = red[i];
            for (int k = 1; k < team; ++k)
                s += red[k * red_stride + i];
            out[i] = s;
        }
    });

    if (p.with_bias && t.diff_bias) {
        if (p.bias_from_src)
            reduce_channels(p, t.src, sdt, IC, isp, t.diff_bias);
        else
            reduce_channels(p, t.diff_dst, ddt, OC, osp, t.diff_bias);
    }
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
