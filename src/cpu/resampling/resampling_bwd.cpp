// Backward resampling kernels: every diff_src element gathers the diff_dst
// elements that read it (inverse tap lists), so threads never share an
// output. Row-wise for nchw-like layouts, vector-wise for nhwc-like and
// channel-blocked ones; accumulation in f32.
#include <vector>

#include "common/float_convert.hpp"
#include "cpu/resampling/resampling.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {

void bwd_ncsp(const geom_t &g, const tensor_t &dd, const tensor_t &ds) {
    const taps_t &td = g.t[0], &th = g.t[1], &tw = g.t[2];
    const dim_t ID = td.in, IH = th.in, IW = tw.in, OH = th.out, OW = tw.out;
    const dim_t rows = g.N * g.C * ID * IH;
    const bool dd_f32 = dd.dt == dnnl_f32;
    const dim_t *ws = tw.start.data(), *wo = tw.o.data();
    const float *wv = tw.w.data();
#pragma omp parallel
    {
        std::vector<float> tmp((size_t)OW), cv(dd_f32 ? 0 : (size_t)OW), out((size_t)IW);
        float *t = tmp.data(), *o = out.data();
#pragma omp for schedule(static)
        for (dim_t r = 0; r < rows; ++r) {
            const dim_t ih = r % IH, id = (r / IH) % ID, nc = r / (IH * ID);
            const dim_t n = nc / g.C, c = nc % g.C;
            for (dim_t k = 0; k < OW; ++k)
                t[k] = 0.f;
            for (dim_t i = td.start[id]; i < td.start[id + 1]; ++i)
                for (dim_t j = th.start[ih]; j < th.start[ih + 1]; ++j) {
                    const float w = td.w[i] * th.w[j];
                    const char *p = dd.at(n, c, (td.o[i] * OH + th.o[j]) * OW);
                    const float *x = reinterpret_cast<const float *>(p);
                    if (!dd_f32) {
                        cvt_to_f32(dd.dt, p, cv.data(), OW);
                        x = cv.data();
                    }
                    for (dim_t k = 0; k < OW; ++k)
                        t[k] += w * x[k];
                }
            for (dim_t iw = 0; iw < IW; ++iw) {
                float v = 0.f;
                for (dim_t e = ws[iw]; e < ws[iw + 1]; ++e)
                    v += wv[e] * t[wo[e]];
                o[iw] = v;
            }
            cvt_from_f32(ds.dt, o, ds.at(n, c, (id * IH + ih) * IW), IW);
        }
    }
}

void bwd_vec(const geom_t &g, const tensor_t &dd, const tensor_t &ds) {
    const taps_t &td = g.t[0], &th = g.t[1], &tw = g.t[2];
    const dim_t ID = td.in, IH = th.in, IW = tw.in, OH = th.out, OW = tw.out;
    const bool nspc = ds.l.cls == chan_class_t::nspc;
    const dim_t C = g.C, V = nspc ? C : ds.l.B, ncb = nspc ? 1 : ds.l.CB;
    const dim_t units = g.N * ncb * ID * IH;
    const bool dd_f32 = dd.dt == dnnl_f32;
#pragma omp parallel
    {
        std::vector<float> acc((size_t)V), cv(dd_f32 ? 0 : (size_t)V);
        float *o = acc.data();
#pragma omp for schedule(static)
        for (dim_t u = 0; u < units; ++u) {
            const dim_t ih = u % IH, id = (u / IH) % ID, nb = u / (IH * ID);
            const dim_t n = nb / ncb, c0 = (nb % ncb) * V;
            const dim_t len = C - c0 < V ? C - c0 : V;
            for (dim_t iw = 0; iw < IW; ++iw) {
                for (dim_t v = 0; v < len; ++v)
                    o[v] = 0.f;
                for (dim_t i = td.start[id]; i < td.start[id + 1]; ++i)
                    for (dim_t j = th.start[ih]; j < th.start[ih + 1]; ++j)
                        for (dim_t k = tw.start[iw]; k < tw.start[iw + 1]; ++k) {
                            const float w = td.w[i] * th.w[j] * tw.w[k];
                            const dim_t s = (td.o[i] * OH + th.o[j]) * OW + tw.o[k];
                            const char *p = dd.at(n, c0, s);
                            const float *x = reinterpret_cast<const float *>(p);
                            if (!dd_f32) {
                                cvt_to_f32(dd.dt, p, cv.data(), len);
                                x = cv.data();
                            }
                            for (dim_t v = 0; v < len; ++v)
                                o[v] += w * x[v];
                        }
                cvt_from_f32(ds.dt, o, ds.at(n, c0, (id * IH + ih) * IW + iw), len);
            }
        }
    }
}

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl
