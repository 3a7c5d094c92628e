// Forward convolution kernels on canonical tensors.
//
// GEMM-based: work items are (image, group, chunk of output points); each
// thread builds the im2col chunk of its item (or reads the source directly
// for pointwise problems) and multiplies it with the group's weights with
// the GEMM core on one thread, the epilogue running on every finished
// block of C while it is in cache.
//   nspc: C[sp][oc] = col[sp][k] * W[k][oc]
//   ncsp: C[oc][sp] = W[oc][k] * col[k][sp]
// (Forward on f32/bf16/f16 data runs conv_fwd_igemm.cpp; this path serves
// int8, exactly in s32 or on zero-point-shifted f32 values.)
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
template <typename T>
void im2col_raw(const conv_plan_t &p, const void *src, void *col, dim_t sp0,
        dim_t nsp, int32_t fill)
{
    if (p.layout == layout_t::nspc)
        im2col_nspc<T>(p.c, static_cast<const T *>(src), static_cast<T *>(col),
                sp0, nsp, (T)fill);
    else
        im2col_ncsp<T>(p.c, static_cast<const T *>(src), static_cast<T *>(col),
                sp0, nsp, (T)fill);
}
} // namespace

void conv_fwd_gemm(const conv_plan_t &p, const conv_canon_t &t,
        const epilogue_args_t &ea, void *scratchpad)
{
    const conv_conf_t &c = p.c;
    const auto &sc = p.scratch;
    const bool ncsp = p.layout == layout_t::ncsp;
    const bool shift = t.zp_shift;
    const bool s32 = p.math == math_t::s32 && !shift;
    const data_type_t sdt = p.src_md.data_type;
    const data_type_t wdt = shift ? dnnl_f32 : p.wei_canon.data_type;
    const size_t sesz = data_type_size(sdt), wesz = data_type_size(wdt);
    const size_t desz = data_type_size(p.epi.dst_dt);
    const dim_t K = c.kgemm(), IC = c.ic(), OC = c.oc();
    const dim_t isp = c.isp(), osp = c.osp();
    const bool need_col = !c.is_pointwise() || shift;
    const size_t col_esz = shift ? 4 : sesz;
    const dim_t msp = p.msp;
    const dim_t nchunks = (osp + msp - 1) / msp;
    const dim_t items = c.mb * c.g * nchunks;
    const bool out_direct
            = !s32 && p.epi.dst_dt == dnnl_f32 && !p.epi.has_sum();
    const bool need_epi = !(out_direct && p.epi.is_identity());
    const int32_t zp = (t.in_zp && !p.in_zp_per_c) ? t.in_zp[0] : 0;
    const int nthr = (int)std::min<dim_t>(p.nthr, items);
    const size_t ws_size = sc.size[scratch_plan_t::gemm_ws] / p.nthr;

    char *col_base = sc.get<char>(scratchpad, scratch_plan_t::col);
    char *acc_base = sc.get<char>(scratchpad, scratch_plan_t::acc);
    char *ws_base = sc.get<char>(scratchpad, scratch_plan_t::gemm_ws);

    parallel_claim(nthr, items, [&](int ithr, dim_t it) {
        char *col = col_base ? col_base + ithr * msp * K * col_esz : nullptr;
        void *acc = acc_base + ithr * msp * c.ocg * 4;
        void *ws = ws_base ? ws_base + ithr * ws_size : nullptr;

        const dim_t chunk = it % nchunks;
        const dim_t g = (it / nchunks) % c.g;
        const dim_t n = it / (nchunks * c.g);
        const dim_t sp0 = chunk * msp;
        const dim_t nsp = std::min(msp, osp - sp0);

        const dim_t src_off = ncsp ? (n * IC + g * c.icg) * isp
                                   : n * isp * IC + g * c.icg;
        const char *src_ng
                = static_cast<const char *>(t.src) + src_off * sesz;
        // act(sp, k) at act + sp * act_rs + k * act_cs.
        const void *act;
        dim_t act_rs, act_cs;
        if (need_col) {
            if (shift) {
                const int32_t *z = t.in_zp
                        ? t.in_zp + (p.in_zp_per_c ? g * c.icg : 0)
                        : nullptr;
                if (ncsp)
                    im2col_ncsp_f32(c, sdt, src_ng, z, p.in_zp_per_c,
                            (float *)col, sp0, nsp);
                else
                    im2col_nspc_f32(c, sdt, src_ng, z, p.in_zp_per_c,
                            (float *)col, sp0, nsp);
            } else if (sesz == 4) {
                im2col_raw<uint32_t>(p, src_ng, col, sp0, nsp, 0);
            } else if (sesz == 2) {
                im2col_raw<uint16_t>(p, src_ng, col, sp0, nsp, 0);
            } else {
                im2col_raw<uint8_t>(p, src_ng, col, sp0, nsp, zp);
            }
            act = col;
            act_rs = ncsp ? 1 : K;
            act_cs = ncsp ? nsp : 1;
        } else {
            act = src_ng + (ncsp ? sp0 : sp0 * IC) * sesz;
            act_rs = ncsp ? 1 : IC;
            act_cs = ncsp ? isp : 1;
        }
        const char *w_g = static_cast<const char *>(t.wei)
                + g * c.ocg * K * wesz;
        const dim_t out_off = ncsp ? (n * OC + g * c.ocg) * osp + sp0
                                   : (n * osp + sp0) * OC + g * c.ocg;
        char *out = static_cast<char *>(t.dst) + out_off * desz;
        const dim_t out_sp = ncsp ? 1 : OC, out_c = ncsp ? osp : 1;
        void *cbuf = out_direct ? (void *)out : acc;
        const dim_t ldc = out_direct ? (ncsp ? osp : OC)
                                     : (ncsp ? nsp : c.ocg);

        // Epilogue on a finished block of C (rows m, columns j).
        auto post = [&](dim_t m0, dim_t n0, dim_t m, dim_t nn,
                            const void *cb, dim_t ld) {
            const dim_t sp_b = ncsp ? n0 : m0, c_b = ncsp ? m0 : n0;
            const dim_t nsp_b = ncsp ? nn : m, nc_b = ncsp ? m : nn;
            char *o = out + (sp_b * out_sp + c_b * out_c) * desz;
            epilogue_apply(p.epi, ea, s32, cb, ncsp ? 1 : ld, ncsp ? ld : 1, o,
                    out_sp, out_c, n, g * c.ocg + c_b, nc_b, sp0 + sp_b,
                    nsp_b);
        };

        if (s32) {
            gemm::gemm_s32_args_t a;
            a.M = ncsp ? c.ocg : nsp;
            a.N = ncsp ? nsp : c.ocg;
            a.K = K;
            if (ncsp) {
                a.a = w_g, a.a_dt = wdt, a.a_rs = K, a.a_cs = 1;
                a.b = act, a.b_dt = sdt, a.b_rs = act_cs, a.b_cs = act_rs;
                a.b_zp = zp;
            } else {
                a.a = act, a.a_dt = sdt, a.a_rs = act_rs, a.a_cs = act_cs;
                a.a_zp = zp;
                a.b = w_g, a.b_dt = wdt, a.b_rs = c.ocg, a.b_cs = 1;
            }
            a.c = (int32_t *)cbuf;
            a.ldc = ldc;
            a.parallel = false;
            a.nthr = 1;
            a.workspace = ws;
            a.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t nn,
                             int32_t *cb, dim_t ld) {
                post(m0, n0, m, nn, cb, ld);
            };
            gemm::gemm_s32(a);
        } else {
            gemm::gemm_f32_args_t a;
            a.M = ncsp ? c.ocg : nsp;
            a.N = ncsp ? nsp : c.ocg;
            a.K = K;
            const data_type_t adt = shift ? dnnl_f32 : sdt;
            if (ncsp) {
                a.a = w_g, a.a_dt = wdt, a.a_rs = K, a.a_cs = 1;
                a.b = act, a.b_dt = adt, a.b_rs = act_cs, a.b_cs = act_rs;
            } else {
                a.a = act, a.a_dt = adt, a.a_rs = act_rs, a.a_cs = act_cs;
                a.b = w_g, a.b_dt = wdt, a.b_rs = c.ocg, a.b_cs = 1;
            }
            a.c = (float *)cbuf;
            a.ldc = ldc;
            a.beta = 0.f;
            a.parallel = false;
            a.nthr = 1;
            a.workspace = ws;
            if (need_epi)
                a.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t nn,
                                 float *cb, dim_t ld) {
                    post(m0, n0, m, nn, cb, ld);
                };
            gemm::gemm_f32(a);
        }
    });
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
