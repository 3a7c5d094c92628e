// Backward-data convolution on canonical tensors (also the forward pass of
// deconvolution, hence the epilogue and the integer path).
//
//   nspc: col[sp][k] = diff_dst[sp][oc] * W[k][oc]^T
//   ncsp: col[k][sp] = W[oc][k]^T * diff_dst[oc][sp]
// then col2im gathers col into diff_src. Pointwise problems need no col:
// the GEMM writes diff_src blocks directly, chunked like the forward pass.
#include <algorithm>
#include <functional>


#include "common/float_convert.hpp"
#include "cpu/convolution/conv_driver.hpp"
#include "cpu/convolution/conv_im2col.hpp"
#include "cpu/gemm/gemm.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

namespace {
// diff_dst points [sp0, sp0 + nsp) of image n, group g as f32 minus the
// zero points, compact: [sp][oc] (nspc) or [oc][sp] (ncsp).
void shift_input(const conv_plan_t &p, const conv_canon_t &t, dim_t n,
        dim_t g, dim_t sp0, dim_t nsp, float *buf)
{
    const conv_conf_t &c = p.c;
    const data_type_t dt = p.dst_md.data_type;
    const dim_t OC = c.oc(), osp = c.osp();
    auto zp = [&](dim_t oc) -> float {
        return t.in_zp ? (float)t.in_zp[p.in_zp_per_c ? g * c.ocg + oc : 0]
                       : 0.f;
    };
    if (p.layout == layout_t::nspc) {
        for (dim_t s = 0; s < nsp; ++s)
            for (dim_t oc = 0; oc < c.ocg; ++oc)
                buf[s * c.ocg + oc] = load_f32(dt, t.diff_dst,
                                              (n * osp + sp0 + s) * OC
                                                      + g * c.ocg + oc)
                        - zp(oc);
    } else {
        for (dim_t oc = 0; oc < c.ocg; ++oc)
            for (dim_t s = 0; s < nsp; ++s)
                buf[oc * nsp + s] = load_f32(dt, t.diff_dst,
                                            (n * OC + g * c.ocg + oc) * osp
                                                    + sp0 + s)
                        - zp(oc);
    }
}

// One GEMM of the backward-data pass. `act` is the diff_dst operand with
// element (sp, oc) at act[sp * a_sp + oc * a_oc]; the weights operand is
// element (k, oc) of the group's weights. C(k-side, sp-side) orientation
// follows the layout: nspc C[sp][k], ncsp C[k][sp].
struct bwd_gemm_t {
    const conv_plan_t &p;
    bool s32, shift;
    data_type_t act_dt, wdt;

    void run(dim_t nsp, dim_t nk, const void *act, dim_t a_sp, dim_t a_oc,
            const void *w_g, int32_t zp, void *cbuf, dim_t ldc, bool parallel,
            int nthr, void *ws,
            const std::function<void(dim_t, dim_t, dim_t, dim_t, const void *,
                    dim_t)> &post) const
    {
        const conv_conf_t &c = p.c;
        const bool ncsp = p.layout == layout_t::ncsp;
        const dim_t K = c.kgemm();
        // Weights element (k, oc): nspc W[k][oc], ncsp W[oc][k].
        const dim_t w_k = ncsp ? 1 : c.ocg, w_oc = ncsp ? K : 1;
        if (s32) {
            gemm::gemm_s32_args_t a;
            a.M = ncsp ? nk : nsp;
            a.N = ncsp ? nsp : nk;
            a.K = c.ocg;
            if (ncsp) {
                a.a = w_g, a.a_dt = wdt, a.a_rs = w_k, a.a_cs = w_oc;
                a.b = act, a.b_dt = act_dt, a.b_rs = a_oc, a.b_cs = a_sp;
                a.b_zp = zp;
            } else {
                a.a = act, a.a_dt = act_dt, a.a_rs = a_sp, a.a_cs = a_oc;
                a.a_zp = zp;
                a.b = w_g, a.b_dt = wdt, a.b_rs = w_oc, a.b_cs = w_k;
            }
            a.c = (int32_t *)cbuf;
            a.ldc = ldc;
            a.parallel = parallel;
            a.nthr = nthr;
            a.workspace = ws;
            if (post)
                a.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t nn,
                                 int32_t *cb, dim_t ld) {
                    post(m0, n0, m, nn, cb, ld);
                };
            gemm::gemm_s32(a);
            return;
        }
        gemm::gemm_f32_args_t a;
        a.M = ncsp ? nk : nsp;
        a.N = ncsp ? nsp : nk;
        a.K = c.ocg;
        const data_type_t adt = shift ? dnnl_f32 : act_dt;
        if (ncsp) {
            a.a = w_g, a.a_dt = wdt, a.a_rs = w_k, a.a_cs = w_oc;
            a.b = act, a.b_dt = adt, a.b_rs = a_oc, a.b_cs = a_sp;
        } else {
            a.a = act, a.a_dt = adt, a.a_rs = a_sp, a.a_cs = a_oc;
            a.b = w_g, a.b_dt = wdt, a.b_rs = w_oc, a.b_cs = w_k;
        }
        a.c = (float *)cbuf;
        a.ldc = ldc;
        a.beta = 0.f;
        a.parallel = parallel;
        a.nthr = nthr;
        a.workspace = ws;
        if (post)
            a.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t nn, float *cb,
                             dim_t ld) { post(m0, n0, m, nn, cb, ld); };
        gemm::gemm_f32(a);
    }
};
} // namespace

void conv_bwd_data_gemm(const conv_plan_t &p, const conv_canon_t &t,
        const epilogue_args_t &ea, void *scratchpad)
{
    const conv_conf_t &c = p.c;
    const auto &sc = p.scratch;
    const bool ncsp = p.layout == layout_t::ncsp;
    const bool shift = t.zp_shift;
    const bool s32 = p.math == math_t::s32 && !shift;
    const data_type_t in_dt = p.dst_md.data_type;
    const data_type_t wdt = shift ? dnnl_f32 : p.wei_canon.data_type;
    const size_t in_esz = data_type_size(in_dt), wesz = data_type_size(wdt);
    const size_t oesz = data_type_size(p.epi.dst_dt);
    const dim_t K = c.kgemm(), IC = c.ic(), OC = c.oc();
    const dim_t isp = c.isp(), osp = c.osp();
    const int32_t zp = (t.in_zp && !p.in_zp_per_c) ? t.in_zp[0] : 0;
    const bool out_f32_ok = !s32 && p.epi.dst_dt == dnnl_f32
            && !p.epi.has_sum();
    const bwd_gemm_t bg {p, s32, shift, in_dt, wdt};
    const size_t ws_total = sc.size[scratch_plan_t::gemm_ws];
    char *ws_base = sc.get<char>(scratchpad, scratch_plan_t::gemm_ws);
    char *acc_base = sc.get<char>(scratchpad, scratch_plan_t::acc);
    float *shift_base = sc.get<float>(scratchpad, scratch_plan_t::src_f32);

    auto in_ptr = [&](dim_t n, dim_t g) {
        const dim_t off = ncsp ? (n * OC + g * c.ocg) * osp
                               : n * osp * OC + g * c.ocg;
        return static_cast<const char *>(t.diff_dst) + off * in_esz;
    };
    auto out_ptr = [&](dim_t n, dim_t g) {
        const dim_t off = ncsp ? (n * IC + g * c.icg) * isp
                               : n * isp * IC + g * c.icg;
        return static_cast<char *>(t.diff_src) + off * oesz;
    };
    const dim_t out_sp = ncsp ? 1 : IC, out_c = ncsp ? isp : 1;

    if (c.is_pointwise()) {
        const dim_t msp = p.msp;
        const dim_t nchunks = (osp + msp - 1) / msp;
        const dim_t items = c.mb * c.g * nchunks;
        const int nthr = (int)std::min<dim_t>(p.nthr, items);
        const bool direct = out_f32_ok;
        const bool need_epi = !(direct && p.epi.is_identity());
        const size_t ws_size = ws_total / p.nthr;
        parallel_claim(nthr, items, [&](int ithr, dim_t it) {
            void *acc = acc_base + ithr * msp * c.icg * 4;
            void *ws = ws_base ? ws_base + ithr * ws_size : nullptr;
            float *sbuf = shift_base ? shift_base + ithr * osp * c.ocg
                                     : nullptr;
            const dim_t chunk = it % nchunks;
            const dim_t g = (it / nchunks) % c.g;
            const dim_t n = it / (nchunks * c.g);
            const dim_t sp0 = chunk * msp;
            const dim_t nsp = std::min(msp, osp - sp0);
            const void *act;
            dim_t a_sp, a_oc;
            if (shift) {
                shift_input(p, t, n, g, sp0, nsp, sbuf);
                act = sbuf;
                a_sp = ncsp ? 1 : c.ocg;
                a_oc = ncsp ? nsp : 1;
            } else {
                act = in_ptr(n, g) + (ncsp ? sp0 : sp0 * OC) * in_esz;
                a_sp = ncsp ? 1 : OC;
                a_oc = ncsp ? osp : 1;
            }
            char *out = out_ptr(n, g) + (ncsp ? sp0 : sp0 * IC) * oesz;
            void *cbuf = direct ? (void *)out : acc;
            const dim_t ldc = direct ? (ncsp ? isp : IC)
                                     : (ncsp ? nsp : c.icg);
            auto post = [&](dim_t m0, dim_t n0, dim_t m, dim_t nn,
                                const void *cb, dim_t ld) {
                const dim_t sp_b = ncsp ? n0 : m0, c_b = ncsp ? m0 : n0;
                const dim_t nsp_b = ncsp ? nn : m, nc_b = ncsp ? m : nn;
                char *o = out + (sp_b * out_sp + c_b * out_c) * oesz;
                epilogue_apply(p.epi, ea, s32, cb, ncsp ? 1 : ld,
                        ncsp ? ld : 1, o, out_sp, out_c, n,
                        g * c.icg + c_b, nc_b, sp0 + sp_b, nsp_b);
            };
            const char *w_g = static_cast<const char *>(t.wei)
                    + g * c.ocg * K * wesz;
            bg.run(nsp, c.icg, act, a_sp, a_oc, w_g, zp, cbuf, ldc,
                    false, 1, ws,
                    need_epi ? std::function<void(dim_t, dim_t, dim_t,
                                       dim_t, const void *, dim_t)>(post)
                             : nullptr);
        });
        return;
    }

    // General case: a full-image column buffer per (image, group).
    const dim_t items = c.mb * c.g;
    const bool direct = out_f32_ok && p.epi.is_identity();
    float *col_base = sc.get<float>(scratchpad, scratch_plan_t::col);
    // Output accumulator of one (image, group): nspc [isp][icg], ncsp
    // [icg][isp].
    auto one_item = [&](dim_t it, void *col, void *acc, void *ws, bool par,
                            int gemm_nthr, float *sbuf) {
        const dim_t g = it % c.g, n = it / c.g;
        const void *act;
        dim_t a_sp, a_oc;
        if (shift) {
            shift_input(p, t, n, g, 0, osp, sbuf);
            act = sbuf;
            a_sp = ncsp ? 1 : c.ocg;
            a_oc = ncsp ? osp : 1;
        } else {
            act = in_ptr(n, g);
            a_sp = ncsp ? 1 : OC;
            a_oc = ncsp ? osp : 1;
        }
        const char *w_g
                = static_cast<const char *>(t.wei) + g * c.ocg * K * wesz;
        bg.run(osp, K, act, a_sp, a_oc, w_g, zp, col, ncsp ? osp : K, par,
                gemm_nthr, ws, nullptr);

        char *out = out_ptr(n, g);
        void *dst = direct ? (void *)out : acc;
        const dim_t ldo = direct ? IC : c.icg;
        const dim_t rows = ncsp ? c.icg * c.id * c.ih : c.id * c.ih;
        auto c2i = [&](dim_t r0, dim_t r1) {
            if (s32) {
                if (ncsp)
                    col2im_ncsp<int32_t>(c, (const int32_t *)col,
                            (int32_t *)dst, r0, r1);
                else
                    col2im_nspc<int32_t>(c, (const int32_t *)col,
                            (int32_t *)dst, ldo, r0, r1);
            } else {
                if (ncsp)
                    col2im_ncsp<float>(
                            c, (const float *)col, (float *)dst, r0, r1);
                else
                    col2im_nspc<float>(c, (const float *)col, (float *)dst,
                            ldo, r0, r1);
            }
        };
        // Epilogue over input points [s0, s1) of this (image, group).
        auto epi = [&](dim_t s0, dim_t s1) {
            if (direct || s1 <= s0) return;
            const dim_t acc_sp = ncsp ? 1 : c.icg, acc_c = ncsp ? isp : 1;
            const char *a = static_cast<const char *>(acc)
                    + s0 * acc_sp * 4;
            epilogue_apply(p.epi, ea, s32, a, acc_sp, acc_c,
                    out + s0 * out_sp * oesz, out_sp, out_c, n, g * c.icg,
                    c.icg, s0, s1 - s0);
        };
        if (!par) {
            c2i(0, rows);
            epi(0, isp);
            return;
        }
        const int nthr = p.nthr;
        // Two regions: the epilogue of a point reads rows that other
        // threads' col2im writes.
        parallel_chunks(nthr, rows,
                [&](int, dim_t r0, dim_t r1) { c2i(r0, r1); });
        parallel_chunks(nthr, isp,
                [&](int, dim_t s0, dim_t s1) { epi(s0, s1); });
    };

    if (p.bwd_d_serial_images) {
        for (dim_t it = 0; it < items; ++it)
            one_item(it, col_base, acc_base, ws_base, true, p.nthr,
                    shift_base);
        return;
    }
    const int nthr = (int)std::min<dim_t>(p.nthr, items);
    const size_t ws_size = ws_total / p.nthr;
    parallel_claim(nthr, items, [&](int ithr, dim_t it) {
        float *col = col_base + ithr * osp * K;
        char *acc = acc_base + ithr * isp * c.icg * 4;
        void *ws = ws_base ? ws_base + ithr * ws_size : nullptr;
        float *sbuf = shift_base ? shift_base + ithr * osp * c.ocg : nullptr;
        one_item(it, col, acc, ws, false, 1, sbuf);
    });
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
