// dnnl-isa: base avx2 avx512_core
// Softmax row and lane kernels, compiled once per ISA listed above
// (cmake/isa_sources.cmake); the table is softmax_kernel_table.cpp.

#include "common/math/eltwise_math.hpp"
#include "cpu/softmax/softmax_kernels.hpp"
#include "cpu/isa_unit.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace softmax {
namespace {

// e^x for x <= 0 (x - max of a softmax row): cheaper than math::exp_f as
// it needs neither overflow handling nor the subnormal range. Results
// below 2^-126 (x < -87.3) come out as about 1e-38 instead of tiny or
// zero, which no softmax result can tell apart; NaN stays NaN.
DNNL_ALWAYS_INLINE float exp_nonpos(float x) {
    const float lo = -87.3f;
    const float xc = x < lo ? lo : x;
    const float kf = math::round_small_f(xc * 1.44269504088896341f);
    float r = xc - kf * 0.693359375f;
    r = r - kf * -2.12194440e-4f;
    float p = 1.f / 720.f;
    p = p * r + 1.f / 120.f;
    p = p * r + 1.f / 24.f;
    p = p * r + 1.f / 6.f;
    p = p * r + 0.5f;
    p = p * r + 1.f;
    p = p * r + 1.f;
    const float s = math::bitsf(uint32_t(int32_t(kf) + 127) << 23);
    return p * s;
}

// Reductions with W independent partial results (no waiting on the
// previous vector operation).
constexpr int acc_w = 64;

DNNL_ALWAYS_INLINE float row_max(const float *x, dim_t n) {
    float acc[acc_w];
    for (int j = 0; j < acc_w; ++j) acc[j] = -math::inf_f();
    dim_t i = 0;
    for (; i + acc_w <= n; i += acc_w)
        for (int j = 0; j < acc_w; ++j)
            acc[j] = x[i + j] > acc[j] ? x[i + j] : acc[j];
    float m = -math::inf_f();
    for (; i < n; ++i) m = x[i] > m ? x[i] : m;
    for (int j = 0; j < acc_w; ++j) m = acc[j] > m ? acc[j] : m;
    return m;
}

void fwd_row(const float *x, float *y, dim_t n, bool log, float s) {
    const float m = row_max(x, n);
    float sum = 0.f;
    if (!log) {
#pragma omp simd reduction(+ : sum)
        for (dim_t i = 0; i < n; ++i) {
            const float e = exp_nonpos(x[i] - m);
            y[i] = e;
            sum += e;
        }
        const float r = s / sum;
        for (dim_t i = 0; i < n; ++i) y[i] *= r;
    } else {
#pragma omp simd reduction(+ : sum)
        for (dim_t i = 0; i < n; ++i) {
            const float d = x[i] - m;
            y[i] = d;
            sum += exp_nonpos(d);
        }
        const float l = math::log_f(sum);
        for (dim_t i = 0; i < n; ++i) y[i] = (y[i] - l) * s;
    }
}

void fwd_lanes(const float *s, dim_t sld, float *d, dim_t dld, dim_t C,
        dim_t nl, bool log, float scale, float *tmp) {
    float *mx = tmp, *sm = tmp + nl;
    for (dim_t l = 0; l < nl; ++l) {
        mx[l] = -math::inf_f();
        sm[l] = 0.f;
    }
    for (dim_t c = 0; c < C; ++c) {
        const float *r = s + c * sld;
        for (dim_t l = 0; l < nl; ++l) mx[l] = r[l] > mx[l] ? r[l] : mx[l];
    }
    if (!log) {
        for (dim_t c = 0; c < C; ++c) {
            const float *r = s + c * sld;
            float *o = d + c * dld;
            for (dim_t l = 0; l < nl; ++l) {
                const float e = exp_nonpos(r[l] - mx[l]);
                o[l] = e;
                sm[l] += e;
            }
        }
        for (dim_t l = 0; l < nl; ++l) sm[l] = scale / sm[l];
        for (dim_t c = 0; c < C; ++c) {
            float *o = d + c * dld;
            for (dim_t l = 0; l < nl; ++l) o[l] *= sm[l];
        }
    } else {
        for (dim_t c = 0; c < C; ++c) {
            const float *r = s + c * sld;
            float *o = d + c * dld;
            for (dim_t l = 0; l < nl; ++l) {
                const float v = r[l] - mx[l];
                o[l] = v;
                sm[l] += exp_nonpos(v);
            }
        }
        for (dim_t l = 0; l < nl; ++l) sm[l] = math::log_f(sm[l]);
        for (dim_t c = 0; c < C; ++c) {
            float *o = d + c * dld;
            for (dim_t l = 0; l < nl; ++l) o[l] = (o[l] - sm[l]) * scale;
        }
    }
}

void bwd_row(const float *dst, const float *dd, float *ds, dim_t n, bool log) {
    float sum = 0.f;
    if (!log) {
        float acc[acc_w] = {};
        dim_t i = 0;
        for (; i + acc_w <= n; i += acc_w)
            for (int j = 0; j < acc_w; ++j) acc[j] += dd[i + j] * dst[i + j];
        for (; i < n; ++i) sum += dd[i] * dst[i];
        for (int j = 0; j < acc_w; ++j) sum += acc[j];
        for (dim_t i = 0; i < n; ++i) ds[i] = dst[i] * (dd[i] - sum);
    } else {
        float acc[acc_w] = {};
        dim_t i = 0;
        for (; i + acc_w <= n; i += acc_w)
            for (int j = 0; j < acc_w; ++j) acc[j] += dd[i + j];
        for (; i < n; ++i) sum += dd[i];
        for (int j = 0; j < acc_w; ++j) sum += acc[j];
        for (dim_t i = 0; i < n; ++i) ds[i] = dd[i] - math::exp_f(dst[i]) * sum;
    }
}

void bwd_lanes(const float *dst, dim_t ld_dst, const float *dd, dim_t ld_dd,
        float *ds, dim_t ld_ds, dim_t C, dim_t nl, bool log, float *tmp) {
    float *sm = tmp;
    for (dim_t l = 0; l < nl; ++l) sm[l] = 0.f;
    for (dim_t c = 0; c < C; ++c) {
        const float *a = dd + c * ld_dd, *b = dst + c * ld_dst;
        if (!log)
            for (dim_t l = 0; l < nl; ++l) sm[l] += a[l] * b[l];
        else
            for (dim_t l = 0; l < nl; ++l) sm[l] += a[l];
    }
    for (dim_t c = 0; c < C; ++c) {
        const float *a = dd + c * ld_dd, *b = dst + c * ld_dst;
        float *o = ds + c * ld_ds;
        if (!log)
            for (dim_t l = 0; l < nl; ++l) o[l] = b[l] * (a[l] - sm[l]);
        else
            for (dim_t l = 0; l < nl; ++l)
                o[l] = a[l] - math::exp_f(b[l]) * sm[l];
    }
}

} // namespace

const kernels_t &DNNL_ISA_NAME(kernels)() {
    static const kernels_t k{isa_unit::this_isa_name, fwd_row, fwd_lanes, bwd_row, bwd_lanes};
    return k;
}

} // namespace softmax
} // namespace cpu
} // namespace impl
} // namespace dnnl
