// dnnl-isa: base avx2 avx512_core
// Softmax row and lane kernels, compiled once per ISA listed above
// (cmake/isa_sources.cmake); the table is softmax_kernel_table.cpp.

#include "common/math/eltwise_math.hpp"
#include "cpu/softmax/softmax_kernels.hpp"
#include "cpu/isa_unit.hpp"
#include "cpu/simd_v16.hpp"

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

// Reductions with acc_w independent partial results (no waiting on the
// previous vector operation); the tail goes into the first partials, so
// it vectorizes too, and the partials fold in halves.
constexpr int acc_w = 64;

template <typename F, typename Op>
DNNL_ALWAYS_INLINE float reduce(dim_t n, float init, F f, Op op) {
    float acc[acc_w];
    for (int j = 0; j < acc_w; ++j) acc[j] = init;
    dim_t i = 0;
    for (; i + acc_w <= n; i += acc_w)
        for (int j = 0; j < acc_w; ++j) acc[j] = op(acc[j], f(i + j));
    const int tail = (int)(n - i);
    for (int j = 0; j < tail; ++j) acc[j] = op(acc[j], f(i + j));
    for (int w = acc_w / 2; w >= 8; w /= 2)
        for (int j = 0; j < w; ++j) acc[j] = op(acc[j], acc[j + w]);
    // The last eight as a tree of independent scalars (a loop here is
    // compiled into a chain through the stack).
    const float a = op(op(acc[0], acc[4]), op(acc[2], acc[6]));
    const float b = op(op(acc[1], acc[5]), op(acc[3], acc[7]));
    return op(a, b);
}

DNNL_ALWAYS_INLINE float max_of(float a, float b) { return b > a ? b : a; }

DNNL_ALWAYS_INLINE float row_max(const float *x, dim_t n) {
    return reduce(n, -math::inf_f(), [&](dim_t i) { return x[i]; }, max_of);
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

// sum of a[i] * b[i] (b null: of a[i]) in 16-wide vectors, four sums
// in flight, the tail through zero-filled copies: no partials on the
// stack (rows of 16-64 values spent their time folding those).
float dot16(const float *a, const float *b, dim_t n) {
    v16_t s0 {}, s1 {}, s2 {}, s3 {};
    auto term = [&](dim_t i) {
        return b ? load16(a + i) * load16(b + i) : load16(a + i);
    };
    dim_t i = 0;
    for (; i + 64 <= n; i += 64) {
        s0 += term(i);
        s1 += term(i + 16);
        s2 += term(i + 32);
        s3 += term(i + 48);
    }
    for (; i + 16 <= n; i += 16)
        s0 += term(i);
    if (i < n) {
        float ta[16] = {}, tb[16] = {};
        for (dim_t j = 0; i + j < n; ++j) {
            ta[j] = a[i + j];
            tb[j] = b ? b[i + j] : 1.f;
        }
        s1 += load16(ta) * load16(tb);
    }
    return hsum16((s0 + s1) + (s2 + s3));
}

void bwd_row(const float *dst, const float *dd, float *ds, dim_t n, bool log) {
    if (!log) {
        const float sum = dot16(dd, dst, n);
        for (dim_t i = 0; i < n; ++i) ds[i] = dst[i] * (dd[i] - sum);
    } else {
        const float sum = dot16(dd, nullptr, n);
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
