// Backward resampling kernels: every diff_src element gathers the diff_dst
// elements that read it (inverse tap lists), so threads never share an
// output. Row-wise for nchw-like layouts, vector-wise for nhwc-like and
// channel-blocked ones; accumulation in f32.
#include <memory>
#include <vector>

#include "common/float_convert.hpp"
#include "cpu/resampling/resampling.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {

void bwd_ncsp(const geom_t &g, const tensor_t &dd, const tensor_t &ds) {
    const taps_t &td = g.t[0], &th = g.t[1], &tw = g.t[2];
    const dim_t ID = td.in, IH = th.in, IW = tw.in, OH = th.out, OW = tw.out;
    const dim_t rows = g.N * g.C * ID * IH;
    const bool dd_f32 = dd.dt == dnnl_f32, ds_f32 = ds.dt == dnnl_f32;
    const kernel_table_t &ker = *g.ker;
    const dim_t *ws = tw.start.data(), *wo = tw.o.data();
    const float *wv = tw.w.data();
    parallel_chunks(g.team(), rows, [&](int, dim_t r0, dim_t r1) {
        std::vector<float> tmp((size_t)OW), cv(dd_f32 ? 0 : (size_t)OW),
                out((size_t)IW);
        float *t = tmp.data(), *o = out.data();
        for (dim_t r = r0; r < r1; ++r) {
            const dim_t ih = r % IH, id = (r / IH) % ID, nc = r / (IH * ID);
            const dim_t n = nc / g.C, c = nc % g.C;
            bool first = true;
            for (dim_t i = td.start[id]; i < td.start[id + 1]; ++i)
                for (dim_t j = th.start[ih]; j < th.start[ih + 1]; ++j) {
                    const float w = td.w[i] * th.w[j];
                    const char *p = dd.at(n, c, (td.o[i] * OH + th.o[j]) * OW);
                    const float *x = reinterpret_cast<const float *>(p);
                    if (!dd_f32) {
                        cvt_to_f32(dd.dt, p, cv.data(), OW);
                        x = cv.data();
                    }
                    ker.axpy(t, x, w, OW, first);
                    first = false;
                }
            // Every source row is read by some output row, so `first` is
            // always cleared; zeros keep the contract if not.
            if (first)
                for (dim_t k = 0; k < OW; ++k) t[k] = 0.f;
            char *d = ds.at(n, c, (id * IH + ih) * IW);
            float *out = ds_f32 ? reinterpret_cast<float *>(d) : o;
            ker.inv_row(out, t, ws, wo, wv, IW);
            if (!ds_f32) cvt_from_f32(ds.dt, o, d, IW);
        }
    });
}

// One diff_src row (n, channel block, id, ih) at a time, like the forward
// walk: the diff_dst rows that read it blended along d and h over OW * V
// values, then the inverse taps along w per V-vector.
void bwd_vec(const geom_t &g, const tensor_t &dd, const tensor_t &ds) {
    const taps_t &td = g.t[0], &th = g.t[1], &tw = g.t[2];
    const dim_t ID = td.in, IH = th.in, IW = tw.in, OH = th.out, OW = tw.out;
    const bool nspc = ds.l.cls == chan_class_t::nspc;
    const dim_t C = g.C, V = nspc ? C : ds.l.B, ncb = nspc ? 1 : ds.l.CB;
    const dim_t units = g.N * ncb * ID * IH;
    const bool dd_f32 = dd.dt == dnnl_f32, ds_f32 = ds.dt == dnnl_f32;
    const dim_t row_out = OW * V, row_in = IW * V;
    const kernel_table_t &ker = *g.ker;
    const dim_t *ws = tw.start.data(), *wo = tw.o.data();
    const float *wv = tw.w.data();
    // Buffers written before they are read, so not zeroed (a zeroed row
    // per chunk cost as much as the row's work on wide channels-last
    // rows), and the diff_src row only where some row needs it.
    const bool with_acc = !ds_f32 || C % V != 0;
    parallel_chunks(g.team(), units, [&](int, dim_t u0, dim_t u1) {
        std::unique_ptr<float[]> tmp(new float[(size_t)row_out]),
                acc(with_acc ? new float[(size_t)row_in] : nullptr);
        std::vector<float> cv(dd_f32 ? 0 : (size_t)row_out);
        float *t = tmp.get();
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t ih = u % IH, id = (u / IH) % ID, nb = u / (IH * ID);
            const dim_t n = nb / ncb, c0 = (nb % ncb) * V;
            const dim_t len = C - c0 < V ? C - c0 : V;
            bool first = true;
            for (dim_t i = td.start[id]; i < td.start[id + 1]; ++i)
                for (dim_t j = th.start[ih]; j < th.start[ih + 1]; ++j) {
                    const float w = td.w[i] * th.w[j];
                    const char *p = dd.at(n, c0, (td.o[i] * OH + th.o[j]) * OW);
                    const float *x = reinterpret_cast<const float *>(p);
                    if (!dd_f32) {
                        // Whole blocks: channels never mix, and the
                        // padded channels are written zero below.
                        cvt_to_f32(dd.dt, p, cv.data(), row_out);
                        x = cv.data();
                    }
                    ker.axpy(t, x, w, row_out, first);
                    first = false;
                }
            if (first)
                for (dim_t e = 0; e < row_out; ++e) t[e] = 0.f;
            char *d = ds.at(n, c0, (id * IH + ih) * IW);
            // Straight into an f32 diff_src unless the block is partial.
            const bool direct = ds_f32 && len == V;
            float *o = direct ? reinterpret_cast<float *>(d) : acc.get();
            ker.inv_vec(o, t, ws, wo, wv, IW, V);
            if (direct) continue;
            // The padded channels of a partial block are written zero.
            if (len < V)
                for (dim_t iw = 0; iw < IW; ++iw)
                    for (dim_t l = len; l < V; ++l)
                        o[iw * V + l] = 0.f;
            cvt_from_f32(ds.dt, o, d, row_in);
        }
    });
}

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl
