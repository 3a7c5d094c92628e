// Logical access to library memory: offsets from the public memory
// descriptor queries, element conversion to and from every data type.
#include "dnn_mem.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "api_version.hpp"
#include "reference/compare.hpp"
#include "reference/small_float.hpp"

namespace bd {

namespace {

// ---- element conversion ------------------------------------------------

// By their C names, which api_version.hpp gives for an API without them.
constexpr dt_t f8_e5m2 = (dt_t)dnnl_f8_e5m2, f8_e4m3 = (dt_t)dnnl_f8_e4m3;

uint32_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float bits_f32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

void store(void *base, int64_t off, dt_t dt, float v) {
    switch (dt) {
        case dt_t::f32: ((float *)base)[off] = v; break;
        case dt_t::f64: ((double *)base)[off] = v; break;
        case dt_t::bf16:
            ((uint16_t *)base)[off] = (uint16_t)(f32_bits(
                    (float)ref::round_to_dt(v, dnnl_bf16)) >> 16);
            break;
        case dt_t::f16:
            ((uint16_t *)base)[off] = (uint16_t)ref::encode_small_float(
                    (float)ref::round_to_dt(v, dnnl_f16), 5, 10, false);
            break;
        case f8_e5m2:
            ((uint8_t *)base)[off] = (uint8_t)ref::encode_small_float(
                    (float)ref::round_to_dt(v, dnnl_f8_e5m2), 5, 2, false);
            break;
        case f8_e4m3:
            ((uint8_t *)base)[off] = (uint8_t)ref::encode_small_float(
                    (float)ref::round_to_dt(v, dnnl_f8_e4m3), 4, 3, true);
            break;
        case dt_t::s8: ((int8_t *)base)[off] = (int8_t)ref::round_to_dt(v, dnnl_s8); break;
        case dt_t::u8: ((uint8_t *)base)[off] = (uint8_t)ref::round_to_dt(v, dnnl_u8); break;
        case dt_t::s32:
            ((int32_t *)base)[off] = (int32_t)ref::round_to_dt(v, dnnl_s32);
            break;
        case (dt_t)dnnl_s4:
        case (dt_t)dnnl_u4: {
            // Two to a byte, the lower index in the low nibble.
            const int q = (int)ref::round_to_dt(v, (dnnl_data_type_t)dt);
            uint8_t &b = ((uint8_t *)base)[off / 2];
            b = off % 2 ? (uint8_t)((b & 0x0f) | ((q & 0xf) << 4))
                        : (uint8_t)((b & 0xf0) | (q & 0xf));
            break;
        }
        default: throw std::runtime_error("unsupported data type");
    }
}

float load(const void *base, int64_t off, dt_t dt) {
    switch (dt) {
        case dt_t::f32: return ((const float *)base)[off];
        case dt_t::f64: return (float)((const double *)base)[off];
        case dt_t::bf16: return bits_f32((uint32_t)((const uint16_t *)base)[off] << 16);
        case dt_t::f16: return (float)ref::decode_small_float(((const uint16_t *)base)[off], 5, 10, false);
        case f8_e5m2: return (float)ref::decode_small_float(((const uint8_t *)base)[off], 5, 2, false);
        case f8_e4m3: return (float)ref::decode_small_float(((const uint8_t *)base)[off], 4, 3, true);
        case dt_t::s8: return ((const int8_t *)base)[off];
        case dt_t::u8: return ((const uint8_t *)base)[off];
        case dt_t::s32: return (float)((const int32_t *)base)[off];
        case (dt_t)dnnl_s4:
        case (dt_t)dnnl_u4: {
            const uint8_t b = ((const uint8_t *)base)[off / 2];
            const int nib = off % 2 ? b >> 4 : b & 0xf;
            return (float)(dt == (dt_t)dnnl_s4 ? (nib ^ 8) - 8 : nib);
        }
        default: throw std::runtime_error("unsupported data type");
    }
}

// ---- offsets -------------------------------------------------------------

// For a blocked layout the element offset is a sum over dimensions of a
// function of that dimension's index alone:
//   off(i_d) = (i_d / B_d) * stride_d + sum over the inner blocks of d of
//              (digit of i_d in that block) * (product of later blocks)
// so one table per dimension gives every offset with additions only.
std::vector<std::vector<int64_t>> offset_tables(const dnnl::memory::desc &md) {
    if (md.get_format_kind() != dnnl::memory::format_kind::blocked)
        throw std::runtime_error("memory descriptor is not blocked");
    const auto dims = md.get_dims();
    const int nd = (int)dims.size();
    const auto strides = md.get_strides();
    const int nblks = md.get_inner_nblks();
    const auto blks = md.get_inner_blks();
    const auto idxs = md.get_inner_idxs();
    std::vector<int64_t> block_total(nd, 1), inner_stride(nblks, 1);
    for (int j = 0; j < nblks; ++j)
        block_total[idxs[j]] *= blks[j];
    for (int j = nblks - 2; j >= 0; --j)
        inner_stride[j] = inner_stride[j + 1] * blks[j + 1];
    std::vector<std::vector<int64_t>> t(nd);
    for (int d = 0; d < nd; ++d) {
        t[d].resize(dims[d]);
        for (int64_t i = 0; i < dims[d]; ++i) {
            int64_t off = (i / block_total[d]) * strides[d];
            int64_t r = i % block_total[d];
            for (int j = nblks - 1; j >= 0; --j) {
                if (idxs[j] != d) continue;
                off += (r % blks[j]) * inner_stride[j];
                r /= blks[j];
            }
            t[d][i] = off;
        }
    }
    return t;
}

// Calls f(logical_index, physical_offset) for every element, in logical
// row-major order.
template <typename F>
void for_each_offset(const dnnl::memory::desc &md, F f) {
    const auto dims = md.get_dims();
    const int nd = (int)dims.size();
    int64_t n = 1;
    for (auto v : dims)
        n *= v;
    if (n == 0) return;
    if (nd == 0) return;
    const auto t = offset_tables(md);
    const int64_t offset0 = md.get_submemory_offset();
    std::vector<int64_t> idx(nd, 0);
    // Partial sums of offsets over the outer dimensions.
    std::vector<int64_t> acc(nd + 1, offset0);
    for (int d = 0; d < nd; ++d)
        acc[d + 1] = acc[d] + t[d][0];
    const int last = nd - 1;
    const auto &tl = t[last];
    for (int64_t l = 0; l < n; l += dims[last]) {
        const int64_t base = acc[last];
        for (int64_t i = 0; i < dims[last]; ++i)
            f(l + i, base + tl[i]);
        // Advance the outer index.
        int d = last - 1;
        while (d >= 0) {
            if (++idx[d] < dims[d]) break;
            idx[d] = 0;
            --d;
        }
        if (d < 0) break;
        for (int k = d; k < last; ++k)
            acc[k + 1] = acc[k] + t[k][idx[k]];
    }
}

struct mapped_t {
    explicit mapped_t(const dnnl::memory &m) : mem(m), ptr(m.map_data<void>()) {}
    ~mapped_t() { mem.unmap_data(ptr); }
    dnnl::memory mem;
    void *ptr;
};

} // namespace

tensor_t::tensor_t(const dnnl::memory::desc &amd, const dnnl::engine &eng)
    : md(amd), mem(amd, eng), dims(amd.get_dims()), dt(amd.get_data_type()) {}

tensor_t tensor_t::alias(const tensor_t &other, const dnnl::memory::desc &amd) {
    tensor_t t;
    t.md = amd;
    t.mem = other.mem;
    t.dims = amd.get_dims();
    t.dt = amd.get_data_type();
    return t;
}

namespace {
// Whether the layout carries data beyond its elements (e.g. the
// compensation buffers of int8 weights chosen with format "any"): then the
// buffer's size exceeds the span of the element offsets.
bool has_extra(const dnnl::memory::desc &md) {
    if (md.get_format_kind() != dnnl::memory::format_kind::blocked) return false;
    const auto t = offset_tables(md);
    int64_t span = md.get_submemory_offset();
    for (const auto &d : t) {
        int64_t mx = 0;
        for (auto o : d)
            mx = std::max(mx, o);
        span += mx;
    }
    // Padded blocks may add up to a block of unused elements per dim; only
    // a size beyond the padded dims counts as extra data.
    int64_t padded = 1;
    for (auto d : md.get_padded_dims())
        padded *= d;
    const int64_t esz = (int64_t)dnnl::memory::data_type_size(md.get_data_type());
    return (int64_t)md.get_size() > std::max(span + 1, padded) * esz;
}
} // namespace

void tensor_t::write(const std::vector<float> &v) {
    if ((int64_t)v.size() != nelems()) throw std::runtime_error("tensor_t::write: size mismatch");
    if (nelems() && has_extra(md)) {
        // Only the library knows how to fill the extra data: write a plain
        // copy and let the library reorder it.
        tag_t plain = tag_t::undef;
        const int nd = (int)dims.size();
        str2tag("abx", nd, plain);
        tensor_t tmp(dnnl::memory::desc(dims, dt, plain), mem.get_engine());
        tmp.write(v);
        dnnl::stream &s = get_stream();
        dnnl::reorder(tmp.mem, mem).execute(s, tmp.mem, mem);
        s.wait();
        return;
    }
    mapped_t m(mem);
    if (md.get_size()) std::memset(m.ptr, 0, md.get_size());
    void *base = m.ptr;
    const dt_t t = dt;
    if (t == dt_t::f32) {
        float *p = (float *)base;
        for_each_offset(md, [&](int64_t l, int64_t off) { p[off] = v[l]; });
    } else {
        for_each_offset(md, [&](int64_t l, int64_t off) { store(base, off, t, v[l]); });
    }
}

std::vector<float> tensor_t::read() const {
    std::vector<float> v((size_t)nelems());
    mapped_t m(mem);
    const void *base = m.ptr;
    const dt_t t = dt;
    if (t == dt_t::f32) {
        const float *p = (const float *)base;
        for_each_offset(md, [&](int64_t l, int64_t off) { v[l] = p[off]; });
    } else {
        for_each_offset(md, [&](int64_t l, int64_t off) { v[l] = load(base, off, t); });
    }
    return v;
}

void tensor_t::memset(int byte) {
    mapped_t m(mem);
    if (md.get_size()) std::memset(m.ptr, byte, md.get_size());
}

std::vector<float> fill_int(int64_t n, int64_t lo, int64_t hi, uint64_t seed, double density) {
    std::vector<float> v((size_t)n);
    rng_t r(seed);
    for (auto &x : v) {
        x = (float)r.integer(lo, hi);
        if (density < 1.0 && r.real(0, 1) >= density) x = 0;
    }
    return v;
}

std::vector<float> fill_real(int64_t n, double lo, double hi, dt_t dt, uint64_t seed) {
    std::vector<float> v((size_t)n);
    rng_t r(seed);
    for (auto &x : v)
        x = (float)r.real(lo, hi);
    round_to(v, dt);
    return v;
}

void round_to(std::vector<float> &v, dt_t dt) {
    if (dt == dt_t::f32 || dt == dt_t::f64) return;
    for (auto &x : v)
        x = (float)ref::round_to_dt(x, (dnnl_data_type_t)dt);
}

} // namespace bd
