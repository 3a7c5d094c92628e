// Naive reorder reference (see reorder_ref.hpp).
#include "reference/reorder_ref.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "reference/compare.hpp"
#include "reference/small_float.hpp"

namespace reorder_ref {

size_t dtype_size(dtype dt) {
    switch (dt) {
    case dtype::f64:
        return 8;
    case dtype::f32:
    case dtype::s32:
        return 4;
    case dtype::bf16:
    case dtype::f16:
        return 2;
    default:
        return 1;
    }
}

bool is_int(dtype dt) {
    return dt == dtype::s32 || dt == dtype::s8 || dt == dtype::u8;
}

int64_t offset(const layout_t &l, const int64_t *pos) {
    int64_t q[max_dims];
    for (int d = 0; d < l.ndims; ++d) q[d] = pos[d] + l.padded_offsets[d];
    // Inner blocks, innermost (last) first.
    int64_t off = l.offset0, unit = 1;
    for (int k = l.nblks - 1; k >= 0; --k) {
        const int d = l.idxs[k];
        off += (q[d] % l.blks[k]) * unit;
        q[d] /= l.blks[k];
        unit *= l.blks[k];
    }
    for (int d = 0; d < l.ndims; ++d) off += q[d] * l.strides[d];
    return off;
}

namespace {

// Half precision <-> double by arithmetic on the value (not bit tricks):
// 11 significant bits, exponents -14..15, subnormals in steps of 2^-24.
double half_round(double v) {
    if (std::isnan(v)) return v;
    const double a = std::fabs(v);
    if (a >= 65520.0) return std::copysign(INFINITY, v);
    int e;
    std::frexp(a, &e);     // a = m * 2^e, m in [0.5, 1)
    int exp_unit = e - 11; // value of the last kept bit
    if (exp_unit < -24) exp_unit = -24;
    const double unit = std::ldexp(1.0, exp_unit);
    const double r = std::nearbyint(a / unit) * unit; // ties to even
    return std::copysign(r, v);
}

uint16_t half_bits(double v) {
    const double r = half_round(v);
    uint16_t sign = std::signbit(r) ? 0x8000 : 0;
    const double a = std::fabs(r);
    if (std::isnan(r)) return 0x7e00;
    if (std::isinf(r)) return sign | 0x7c00;
    if (a == 0) return sign;
    if (a < std::ldexp(1.0, -14)) // subnormal
        return sign | (uint16_t)(a / std::ldexp(1.0, -24));
    int e;
    const double m = std::frexp(a, &e); // a = m * 2^e
    const int biased = e - 1 + 15;
    const uint16_t mant = (uint16_t)((m * 2 - 1) * 1024);
    return sign | (uint16_t)(biased << 10) | mant;
}

double half_value(uint16_t h) {
    const int sign = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = std::ldexp((double)m, -24);
    else
        v = std::ldexp(1.0 + m / 1024.0, e - 15);
    return sign ? -v : v;
}

// bfloat16: f32 with 8 significant bits.
double bf16_round(double v) {
    const float f = (float)v; // the library rounds to f32 first as well
    if (std::isnan(f) || std::isinf(f)) return f;
    const double a = std::fabs((double)f);
    if (a == 0) return f;
    int e;
    std::frexp(a, &e);
    int exp_unit = e - 8;
    if (exp_unit < -133) exp_unit = -133;
    const double unit = std::ldexp(1.0, exp_unit);
    const double r = std::nearbyint(a / unit) * unit;
    return std::copysign(r, (double)f);
}

double saturate_round(double v, double lo, double hi) {
    if (std::isnan(v)) return 0;
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return std::nearbyint(v);
}

} // namespace

double load(dtype dt, const void *base, int64_t off) {
    const char *p =
            static_cast<const char *>(base) + off * (int64_t)dtype_size(dt);
    switch (dt) {
    case dtype::f64: {
        double d;
        std::memcpy(&d, p, 8);
        return d;
    }
    case dtype::f32: {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    case dtype::s32: {
        int32_t i;
        std::memcpy(&i, p, 4);
        return i;
    }
    case dtype::s8:
        return (double)*reinterpret_cast<const int8_t *>(p);
    case dtype::u8:
        return (double)*reinterpret_cast<const uint8_t *>(p);
    case dtype::bf16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        uint32_t u = (uint32_t)h << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    case dtype::f16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return half_value(h);
    }
    case dtype::f8_e5m2:
        return ref::decode_small_float(*reinterpret_cast<const uint8_t *>(p),
                5, 2, false);
    case dtype::f8_e4m3:
        return ref::decode_small_float(*reinterpret_cast<const uint8_t *>(p),
                4, 3, true);
    }
    return 0;
}

double round_to(dtype dt, double v) {
    switch (dt) {
    case dtype::f64:
        return v;
    case dtype::f32:
        return (float)v;
    case dtype::bf16:
        return bf16_round(v);
    case dtype::f16:
        return half_round((float)v);
    // 2147483520 is the largest f32 below 2^31: the library computes
    // in f32, so that is the largest s32 it can produce from a float.
    case dtype::s32:
        return saturate_round(v, -2147483648.0, 2147483520.0);
    case dtype::s8:
        return saturate_round(v, -128, 127);
    case dtype::u8:
        return saturate_round(v, 0, 255);
    // Narrowed through f16 with its overflow rules, as the library does.
    case dtype::f8_e5m2:
        return ref::round_to_dt((float)v, dnnl_f8_e5m2);
    case dtype::f8_e4m3:
        return ref::round_to_dt((float)v, dnnl_f8_e4m3);
    }
    return 0;
}

void store(dtype dt, void *base, int64_t off, double v) {
    char *p = static_cast<char *>(base) + off * (int64_t)dtype_size(dt);
    const double r = round_to(dt, v);
    switch (dt) {
    case dtype::f64:
        std::memcpy(p, &r, 8);
        break;
    case dtype::f32: {
        const float f = (float)r;
        std::memcpy(p, &f, 4);
        break;
    }
    case dtype::s32: {
        const int32_t i = (int32_t)r;
        std::memcpy(p, &i, 4);
        break;
    }
    case dtype::s8:
        *reinterpret_cast<int8_t *>(p) = (int8_t)r;
        break;
    case dtype::u8:
        *reinterpret_cast<uint8_t *>(p) = (uint8_t)r;
        break;
    case dtype::bf16: {
        const float f = (float)r; // exact: r has 8 significant bits
        uint32_t u;
        std::memcpy(&u, &f, 4);
        const uint16_t h = (uint16_t)(u >> 16);
        std::memcpy(p, &h, 2);
        break;
    }
    case dtype::f16: {
        const uint16_t h = half_bits(r);
        std::memcpy(p, &h, 2);
        break;
    }
    case dtype::f8_e5m2:
        *reinterpret_cast<uint8_t *>(p)
                = (uint8_t)ref::encode_small_float(r, 5, 2, false);
        break;
    case dtype::f8_e4m3:
        *reinterpret_cast<uint8_t *>(p)
                = (uint8_t)ref::encode_small_float(r, 4, 3, true);
        break;
    }
}

int64_t quant_index(
        int mask, int ndims, const int64_t *dims, const int64_t *pos) {
    int64_t idx = 0;
    for (int d = 0; d < ndims; ++d)
        if (mask & (1 << d)) idx = idx * dims[d] + pos[d];
    return idx;
}

double compute(const quant_t &q, int ndims, const int64_t *dims,
        const int64_t *pos, double src, double old) {
    auto pick_f = [&](const std::vector<float> &v, int mask, double def) {
        if (v.empty()) return def;
        return (double)v[quant_index(mask, ndims, dims, pos)];
    };
    auto pick_i = [&](const std::vector<int32_t> &v, int mask) {
        if (v.empty()) return 0.0;
        return (double)v[quant_index(mask, ndims, dims, pos)];
    };
    double r = pick_f(q.src_scales, q.src_scale_mask, 1.0)
               * (src - pick_i(q.src_zps, q.src_zp_mask));
    if (q.with_sum && q.beta != 0) r += q.beta * old;
    r = r / pick_f(q.dst_scales, q.dst_scale_mask, 1.0)
        + pick_i(q.dst_zps, q.dst_zp_mask);
    return r;
}

void reorder(const layout_t &sl, dtype sdt, const void *src, const layout_t &dl,
        dtype ddt, void *dst, const quant_t &q) {
    const int nd = sl.ndims;
    for_each_pos(nd, dl.padded, [&](const int64_t *pos) {
        bool pad = false;
        for (int d = 0; d < nd; ++d) pad = pad || pos[d] >= dl.dims[d];
        const int64_t doff = offset(dl, pos);
        if (pad) {
            store(ddt, dst, doff, 0.0);
            return;
        }
        const double s = load(sdt, src, offset(sl, pos));
        const double old = load(ddt, dst, doff);
        store(ddt, dst, doff, compute(q, nd, sl.dims, pos, s, old));
    });
}

} // namespace reorder_ref
