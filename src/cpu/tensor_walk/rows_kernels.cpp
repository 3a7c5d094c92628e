// dnnl-isa: base avx2 avx512_core
// Row kernels of the tensor-wide families (load/store conversions,
// binary, reductions, PReLU, eltwise post-ops), compiled once per ISA
// listed above (cmake/isa_sources.cmake); the table is
// rows_kernel_table.cpp.

#include <cmath>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/isa_unit.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rows {
namespace {
namespace k {

namespace {

template <typename T, typename F>
inline void gather(const T *s, dim_t off, dim_t st, const dim_t *idx, dim_t n,
        float *d, F cvt) {
    if (idx)
        for (dim_t i = 0; i < n; ++i) d[i] = cvt(s[off + idx[i]]);
    else
        for (dim_t i = 0; i < n; ++i) d[i] = cvt(s[off + i * st]);
}

template <typename T, typename F>
inline void scatter(T *d, dim_t off, dim_t st, const dim_t *idx, dim_t n,
        const float *s, F cvt) {
    if (idx)
        for (dim_t i = 0; i < n; ++i) d[off + idx[i]] = cvt(s[i]);
    else
        for (dim_t i = 0; i < n; ++i) d[off + i * st] = cvt(s[i]);
}

} // namespace

const float *load(const row_t &r, dim_t n, float *buf) {
    if (r.scalar()) {
        buf[0] = load_f32(r.dt, r.base, r.off);
        return buf;
    }
    if (!r.idx && r.st == 1) {
        if (r.dt == dnnl_f32) return static_cast<const float *>(r.base) + r.off;
        const char *p = static_cast<const char *>(r.base)
                        + r.off * (dim_t)data_type_size(r.dt);
        cvt_to_f32(r.dt, p, buf, n);
        return buf;
    }
    switch (r.dt) {
    case dnnl_f32:
        gather(static_cast<const float *>(r.base), r.off, r.st, r.idx, n, buf,
                [](float v) { return v; });
        break;
    case dnnl_bf16:
        gather(static_cast<const uint16_t *>(r.base), r.off, r.st, r.idx, n,
                buf, [](uint16_t v) { return bf16_to_f32(v); });
        break;
    case dnnl_f16:
        gather(static_cast<const uint16_t *>(r.base), r.off, r.st, r.idx, n,
                buf, [](uint16_t v) { return f16_to_f32(v); });
        break;
    case dnnl_s8:
        gather(static_cast<const int8_t *>(r.base), r.off, r.st, r.idx, n, buf,
                [](int8_t v) { return float(v); });
        break;
    case dnnl_u8:
        gather(static_cast<const uint8_t *>(r.base), r.off, r.st, r.idx, n, buf,
                [](uint8_t v) { return float(v); });
        break;
    case dnnl_s32:
        gather(static_cast<const int32_t *>(r.base), r.off, r.st, r.idx, n, buf,
                [](int32_t v) { return float(v); });
        break;
    default:
        for (dim_t i = 0; i < n; ++i)
            buf[i] = load_f32(
                    r.dt, r.base, r.off + (r.idx ? r.idx[i] : i * r.st));
        break;
    }
    return buf;
}

void store(const row_t &r, const float *v, dim_t n) {
    void *base = const_cast<void *>(r.base);
    if (!r.idx && r.st == 1) {
        char *p =
                static_cast<char *>(base) + r.off * (dim_t)data_type_size(r.dt);
        if (r.dt == dnnl_f32) {
            float *d = reinterpret_cast<float *>(p);
            if (d != v)
                for (dim_t i = 0; i < n; ++i) d[i] = v[i];
            return;
        }
        cvt_from_f32(r.dt, v, p, n);
        return;
    }
    switch (r.dt) {
    case dnnl_f32:
        scatter(static_cast<float *>(base), r.off, r.st, r.idx, n, v,
                [](float x) { return x; });
        break;
    case dnnl_bf16:
        scatter(static_cast<uint16_t *>(base), r.off, r.st, r.idx, n, v,
                [](float x) { return f32_to_bf16(x); });
        break;
    case dnnl_f16:
        scatter(static_cast<uint16_t *>(base), r.off, r.st, r.idx, n, v,
                [](float x) { return f32_to_f16(x); });
        break;
    case dnnl_s8:
        scatter(static_cast<int8_t *>(base), r.off, r.st, r.idx, n, v,
                [](float x) { return f32_to_s8(x); });
        break;
    case dnnl_u8:
        scatter(static_cast<uint8_t *>(base), r.off, r.st, r.idx, n, v,
                [](float x) { return f32_to_u8(x); });
        break;
    case dnnl_s32:
        scatter(static_cast<int32_t *>(base), r.off, r.st, r.idx, n, v,
                [](float x) { return f32_to_s32(x); });
        break;
    default:
        for (dim_t i = 0; i < n; ++i)
            store_f32(r.dt, v[i], base, r.off + (r.idx ? r.idx[i] : i * r.st));
        break;
    }
}

const float *scale(
        const float *v, dim_t n, bool is_scalar, float s, float *buf) {
    if (is_scalar) {
        buf[0] = v[0] * s;
        return buf;
    }
    for (dim_t i = 0; i < n; ++i) buf[i] = v[i] * s;
    return buf;
}

namespace {

template <typename Op>
inline void binary_loop(const float *a, bool as, const float *b, bool bs,
        float *d, dim_t n, Op op) {
    if (!as && !bs) {
        for (dim_t i = 0; i < n; ++i) d[i] = op(a[i], b[i]);
    } else if (!as) {
        const float y = b[0];
        for (dim_t i = 0; i < n; ++i) d[i] = op(a[i], y);
    } else if (!bs) {
        const float x = a[0];
        for (dim_t i = 0; i < n; ++i) d[i] = op(x, b[i]);
    } else {
        const float r = op(a[0], b[0]);
        for (dim_t i = 0; i < n; ++i) d[i] = r;
    }
}

} // namespace

void binary(alg_kind_t alg, const float *a, bool as, const float *b, bool bs,
        const float *c, bool cs, float *d, dim_t n) {
    using namespace math;
    switch (alg) {
    case dnnl_binary_add:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_add(x, y); });
        break;
    case dnnl_binary_mul:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_mul(x, y); });
        break;
    case dnnl_binary_max:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_max(x, y); });
        break;
    case dnnl_binary_min:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_min(x, y); });
        break;
    case dnnl_binary_div:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_div(x, y); });
        break;
    case dnnl_binary_sub:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_sub(x, y); });
        break;
    case dnnl_binary_ge:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_ge(x, y); });
        break;
    case dnnl_binary_gt:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_gt(x, y); });
        break;
    case dnnl_binary_le:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_le(x, y); });
        break;
    case dnnl_binary_lt:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_lt(x, y); });
        break;
    case dnnl_binary_eq:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_eq(x, y); });
        break;
    case dnnl_binary_ne:
        binary_loop(a, as, b, bs, d, n,
                [](float x, float y) { return binary_ne(x, y); });
        break;
    case dnnl_binary_select:
        for (dim_t i = 0; i < n; ++i)
            d[i] = binary_select(a[as ? 0 : i], b[bs ? 0 : i], c[cs ? 0 : i]);
        break;
    default:
        for (dim_t i = 0; i < n; ++i) d[i] = math::nan_f();
        break;
    }
}

// Rows m < M of L elements: d[m * L + l] = op(a[m * sa + l], b[m * sb + l]),
// or op(a[m * sa], ...) when `as` (one value a row; b likewise): the row
// operation above, a row at a time.
void binary_block(alg_kind_t alg, const float *a, dim_t sa, bool as,
        const float *b, dim_t sb, bool bs, float *d, dim_t M, dim_t L) {
    for (dim_t m = 0; m < M; ++m)
        binary(alg, a + m * sa, as, b + m * sb, bs, nullptr, false, d + m * L,
                L);
}

// The same for PReLU: y = x > 0 ? x : w * x.
void prelu_block(const float *x, dim_t sx, const float *w, dim_t sw, float *y,
        dim_t M, dim_t L) {
    for (dim_t m = 0; m < M; ++m) {
        const float *xr = x + m * sx, *wr = w + m * sw;
        float *yr = y + m * L;
        for (dim_t l = 0; l < L; ++l)
            yr[l] = xr[l] > 0.f ? xr[l] : wr[l] * xr[l];
    }
}

template <typename Cvt, typename Back, typename Op>
inline void half_loop(const uint16_t *a, bool as, const uint16_t *b, bool bs,
        uint16_t *d, dim_t n, Cvt cvt, Back back, Op op) {
    if (!as && !bs) {
        for (dim_t i = 0; i < n; ++i) d[i] = back(op(cvt(a[i]), cvt(b[i])));
    } else if (!as) {
        const float y = cvt(b[0]);
        for (dim_t i = 0; i < n; ++i) d[i] = back(op(cvt(a[i]), y));
    } else if (!bs) {
        const float x = cvt(a[0]);
        for (dim_t i = 0; i < n; ++i) d[i] = back(op(x, cvt(b[i])));
    } else {
        const uint16_t r = back(op(cvt(a[0]), cvt(b[0])));
        for (dim_t i = 0; i < n; ++i) d[i] = r;
    }
}

template <typename Op>
inline void half_loop(bool bf, const uint16_t *a, bool as, const uint16_t *b,
        bool bs, uint16_t *d, dim_t n, Op op) {
    if (bf)
        half_loop(
                a, as, b, bs, d, n, [](uint16_t v) { return bf16_to_f32(v); },
                [](float v) { return f32_to_bf16(v); }, op);
    else
        half_loop(
                a, as, b, bs, d, n, [](uint16_t v) { return f16_to_f32(v); },
                [](float v) { return f32_to_f16(v); }, op);
}

// d = op(a, b) on bf16 or f16 rows (all three of that type), converted in
// registers; false for other types and select.
bool binary_half(alg_kind_t alg, data_type_t dt, const void *a, bool as,
        const void *b, bool bs, void *d, dim_t n) {
    if (dt != dnnl_bf16 && dt != dnnl_f16) return false;
    using namespace math;
    const bool bf = dt == dnnl_bf16;
    const uint16_t *x = static_cast<const uint16_t *>(a),
                   *y = static_cast<const uint16_t *>(b);
    uint16_t *z = static_cast<uint16_t *>(d);
#define DNNL_HALF_CASE(name)                                                   \
    case dnnl_binary_##name:                                                   \
        half_loop(bf, x, as, y, bs, z, n,                                      \
                [](float p, float q) { return binary_##name(p, q); });         \
        return true;
    switch (alg) {
        DNNL_HALF_CASE(add)
        DNNL_HALF_CASE(mul)
        DNNL_HALF_CASE(max)
        DNNL_HALF_CASE(min)
        DNNL_HALF_CASE(div)
        DNNL_HALF_CASE(sub)
        DNNL_HALF_CASE(ge)
        DNNL_HALF_CASE(gt)
        DNNL_HALF_CASE(le)
        DNNL_HALF_CASE(lt)
        DNNL_HALF_CASE(eq)
        DNNL_HALF_CASE(ne)
    default:
        return false;
    }
#undef DNNL_HALF_CASE
}

template <int T>
inline float red_tf(float x, float p) {
    if (T == 1) return math::abs_f(x);
    if (T == 2) return x * x;
    if (T == 3) return std::pow(math::abs_f(x), p);
    return x;
}

// Reductions keep W independent partial results, so that consecutive
// vector operations do not wait for each other.
constexpr int red_w = 64;

template <int T>
float red_sum(const float *x, dim_t n, float p) {
    float acc[red_w] = {};
    dim_t i = 0;
    for (; i + red_w <= n; i += red_w)
        for (int j = 0; j < red_w; ++j) acc[j] += red_tf<T>(x[i + j], p);
    float r = 0.f;
    for (; i < n; ++i) r += red_tf<T>(x[i], p);
    for (int j = 0; j < red_w; ++j) r += acc[j];
    return r;
}

template <typename F>
float red_fold(const float *x, dim_t n, float init, F f) {
    float acc[red_w];
    for (int j = 0; j < red_w; ++j) acc[j] = init;
    dim_t i = 0;
    for (; i + red_w <= n; i += red_w)
        for (int j = 0; j < red_w; ++j) acc[j] = f(acc[j], x[i + j]);
    float r = init;
    for (; i < n; ++i) r = f(r, x[i]);
    for (int j = 0; j < red_w; ++j) r = f(r, acc[j]);
    return r;
}

// v combined with the reduction of n values: comb 0 sum (of x, |x|, x^2
// or |x|^p for tr 0..3), 1 max, 2 min, 3 product.
float reduce_run(int comb, int tr, const float *x, dim_t n, float p, float v) {
    switch (comb) {
    case 1:
        return red_fold(
                x, n, v, [](float a, float b) { return b > a ? b : a; });
    case 2:
        return red_fold(
                x, n, v, [](float a, float b) { return b < a ? b : a; });
    case 3:
        return v * red_fold(x, n, 1.f, [](float a, float b) { return a * b; });
    default:
        break;
    }
    switch (tr) {
    case 1:
        return v + red_sum<1>(x, n, p);
    case 2:
        return v + red_sum<2>(x, n, p);
    case 3:
        return v + red_sum<3>(x, n, p);
    default:
        return v + red_sum<0>(x, n, p);
    }
}

template <int T>
void red_lanes_sum(const float *x, dim_t n, float p, float *acc) {
    for (dim_t i = 0; i < n; ++i) acc[i] += red_tf<T>(x[i], p);
}

// acc[i] combined with x[i] (same meaning of comb and tr).
void reduce_lanes(
        int comb, int tr, const float *x, dim_t n, float p, float *acc) {
    switch (comb) {
    case 1:
        for (dim_t i = 0; i < n; ++i) acc[i] = x[i] > acc[i] ? x[i] : acc[i];
        return;
    case 2:
        for (dim_t i = 0; i < n; ++i) acc[i] = x[i] < acc[i] ? x[i] : acc[i];
        return;
    case 3:
        for (dim_t i = 0; i < n; ++i) acc[i] *= x[i];
        return;
    default:
        break;
    }
    switch (tr) {
    case 1:
        red_lanes_sum<1>(x, n, p, acc);
        return;
    case 2:
        red_lanes_sum<2>(x, n, p, acc);
        return;
    case 3:
        red_lanes_sum<3>(x, n, p, acc);
        return;
    default:
        red_lanes_sum<0>(x, n, p, acc);
        return;
    }
}

// out[i] = in[idx[i]] for 4-byte elements.
void gather32(const uint32_t *in, const int32_t *idx, uint32_t *out, dim_t n) {
    for (dim_t i = 0; i < n; ++i) out[i] = in[idx[i]];
}

// PReLU rows: y = x > 0 ? x : w * x (w[0] only when w_scalar).
void prelu_fwd(
        const float *x, const float *w, bool w_scalar, float *y, dim_t n) {
    if (w_scalar) {
        const float w0 = w[0];
        for (dim_t i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : x[i] * w0;
    } else {
        for (dim_t i = 0; i < n; ++i) y[i] = x[i] > 0.f ? x[i] : x[i] * w[i];
    }
}

// PReLU backward rows: ds = x > 0 ? dd : w * dd, c = x > 0 ? 0 : x * dd.
void prelu_bwd(const float *x, const float *w, bool w_scalar, const float *dd,
        float *ds, float *c, dim_t n) {
    if (w_scalar) {
        const float w0 = w[0];
        for (dim_t i = 0; i < n; ++i) {
            ds[i] = x[i] > 0.f ? dd[i] : w0 * dd[i];
            c[i] = x[i] > 0.f ? 0.f : x[i] * dd[i];
        }
    } else {
        for (dim_t i = 0; i < n; ++i) {
            ds[i] = x[i] > 0.f ? dd[i] : w[i] * dd[i];
            c[i] = x[i] > 0.f ? 0.f : x[i] * dd[i];
        }
    }
}

namespace {
template <typename F>
inline void map(float *v, dim_t n, F f) {
    for (dim_t i = 0; i < n; ++i) v[i] = f(v[i]);
}
} // namespace

void eltwise(alg_kind_t alg, float a, float b, float scale, float *v, dim_t n) {
    using namespace math;
    switch (eltwise_base_alg(alg)) {
    case dnnl_eltwise_relu:
        if (a == 0.f)
            map(v, n, [](float x) { return x > 0.f ? x : 0.f; });
        else
            map(v, n, [=](float x) { return relu_fwd(x, a); });
        break;
    case dnnl_eltwise_tanh:
        map(v, n, [](float x) { return tanh_fwd(x); });
        break;
    case dnnl_eltwise_elu:
        map(v, n, [=](float x) { return elu_fwd(x, a); });
        break;
    case dnnl_eltwise_square:
        map(v, n, [](float x) { return square_fwd(x); });
        break;
    case dnnl_eltwise_abs:
        map(v, n, [](float x) { return abs_fwd(x); });
        break;
    case dnnl_eltwise_sqrt:
        map(v, n, [](float x) { return sqrt_fwd(x); });
        break;
    case dnnl_eltwise_linear:
        map(v, n, [=](float x) { return linear_fwd(x, a, b); });
        break;
    case dnnl_eltwise_soft_relu:
        map(v, n, [=](float x) { return soft_relu_fwd(x, a); });
        break;
    case dnnl_eltwise_hardsigmoid:
        map(v, n, [=](float x) { return hardsigmoid_fwd(x, a, b); });
        break;
    case dnnl_eltwise_logistic:
        map(v, n, [](float x) { return logistic_fwd(x); });
        break;
    case dnnl_eltwise_exp:
        map(v, n, [](float x) { return exp_fwd(x); });
        break;
    case dnnl_eltwise_gelu_tanh:
        map(v, n, [](float x) { return gelu_tanh_fwd(x); });
        break;
    case dnnl_eltwise_swish:
        map(v, n, [=](float x) { return swish_fwd(x, a); });
        break;
    case dnnl_eltwise_log:
        map(v, n, [](float x) { return log_fwd(x); });
        break;
    case dnnl_eltwise_clip:
        map(v, n, [=](float x) { return clip_fwd(x, a, b); });
        break;
    case dnnl_eltwise_clip_v2:
        map(v, n, [=](float x) { return clip_v2_fwd(x, a, b); });
        break;
    case dnnl_eltwise_pow:
        map(v, n, [=](float x) { return pow_fwd(x, a, b); });
        break;
    case dnnl_eltwise_gelu_erf:
        map(v, n, [](float x) { return gelu_erf_fwd(x); });
        break;
    case dnnl_eltwise_round:
        map(v, n, [](float x) { return round_fwd(x); });
        break;
    case dnnl_eltwise_mish:
        map(v, n, [](float x) { return mish_fwd(x); });
        break;
    case dnnl_eltwise_hardswish:
        map(v, n, [=](float x) { return hardswish_fwd(x, a, b); });
        break;
    default:
        map(v, n, [=](float x) { return eltwise_fwd(alg, x, a, b); });
        break;
    }
    if (scale != 1.f)
        for (dim_t i = 0; i < n; ++i) v[i] *= scale;
}

void apply(const po_chain_t &c, float *v, dim_t n, const row_t *t,
        const row_t &old, float *buf) {
    for (const auto &e : c.entries) {
        switch (e.kind) {
        case post_op_kind_t::eltwise:
            eltwise(e.alg, e.alpha, e.beta, e.scale, v, n);
            break;
        case post_op_kind_t::sum: {
            row_t o = old;
            o.dt = e.sum_dt;
            const float *x = k::load(o, n, buf);
            const float s = e.scale, zp = e.zero_point;
            if (zp == 0.f && s == 1.f)
                for (dim_t i = 0; i < n; ++i) v[i] += x[i];
            else
                for (dim_t i = 0; i < n; ++i) v[i] += s * (x[i] - zp);
            break;
        }
        case post_op_kind_t::binary: {
            const row_t &r = t[e.tensor];
            const float *x = k::load(r, n, buf);
            if (e.cond < 0) {
                binary(e.alg, v, false, x, r.scalar(), nullptr, false, v, n);
                break;
            }
            // select keeps v where the condition is positive.
            float cbuf[chunk];
            const row_t &c = t[e.cond];
            const float *cv = k::load(c, n, cbuf);
            const bool xs = r.scalar(), cs = c.scalar();
            for (dim_t i = 0; i < n; ++i)
                v[i] = math::post_op_select(
                        v[i], x[xs ? 0 : i], cv[cs ? 0 : i]);
            break;
        }
        case post_op_kind_t::prelu: {
            const row_t &r = t[e.tensor];
            const float *w = k::load(r, n, buf);
            if (r.scalar()) {
                const float w0 = w[0];
                for (dim_t i = 0; i < n; ++i)
                    v[i] = v[i] > 0.f ? v[i] : v[i] * w0;
            } else {
                for (dim_t i = 0; i < n; ++i)
                    v[i] = v[i] > 0.f ? v[i] : v[i] * w[i];
            }
            break;
        }
        default:
            break;
        }
    }
}

} // namespace k
} // namespace

const kernels_t &DNNL_ISA_NAME(kernels)() {
    static const kernels_t table{isa_unit::this_isa_name, k::load, k::store, k::scale, k::binary,
            k::binary_block, k::prelu_block, k::binary_half, k::reduce_run,
            k::reduce_lanes, k::gather32, k::prelu_fwd, k::prelu_bwd,
            k::eltwise, k::apply};
    return table;
}

} // namespace rows
} // namespace cpu
} // namespace impl
} // namespace dnnl
