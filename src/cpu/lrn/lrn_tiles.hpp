// Tiles of a channel-wise tensor as f32 for the LRN kernels: the tensor
// itself where the kernels can walk it in place (f32), otherwise a
// converted copy in a per-thread buffer.
//   cp tiles (ncsp):        C rows of P consecutive points, row stride ld
//   pc views (nspc/blocked): P point rows of channel segments (pc_view_t);
//                            blocked f32 tensors are walked in their blocks
#pragma once

#include <vector>

#include "common/float_convert.hpp"
#include "cpu/chan_layout.hpp"
#include "cpu/lrn/lrn_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {

struct tref_t {
    char *base = nullptr;
    data_type_t dt = dnnl_f32;
    size_t esz = 4;
    chan_layout_t l;
    // pc walks of an f32 tensor: point stride and segment offsets.
    dim_t ld = 0;
    const dim_t *off = nullptr;

    tref_t() = default;
    tref_t(const void *p, data_type_t t, const chan_layout_t &lay)
        : base((char *)p), dt(t), esz(data_type_size(t)), l(lay) {}
    explicit operator bool() const { return base != nullptr; }
    char *at(dim_t n, dim_t c, dim_t s) const {
        return base + l.off(n, c, s) * esz;
    }
    bool cp_direct() const {
        return dt == dnnl_f32 && l.cls == chan_class_t::ncsp;
    }
};

// Offsets of the channel segments [s * S, s * S + S) within a point row
// of layout l (channels-last: `l` may also describe a dense row buffer).
inline std::vector<dim_t> seg_offsets(
        const chan_layout_t &l, dim_t C, dim_t S) {
    std::vector<dim_t> off;
    for (dim_t c0 = 0; c0 < C; c0 += S)
        off.push_back(l.cls == chan_class_t::blocked
                              ? (c0 / l.B) * l.SP * l.B + c0 % l.B
                              : c0);
    return off;
}
inline dim_t point_stride(const chan_layout_t &l, dim_t C) {
    return l.cls == chan_class_t::blocked ? l.B : C;
}

// ---- cp tiles: points [s0, s0 + P) of image n. `copy` forces a copy even
// when the tensor could be used in place.
inline const float *tile_in(const tref_t &t, dim_t n, dim_t s0, dim_t P,
        float *buf, dim_t &ld, bool copy = false) {
    if (t.cp_direct() && !copy) {
        ld = t.l.SP;
        return reinterpret_cast<const float *>(t.at(n, 0, s0));
    }
    ld = P;
    for (dim_t c = 0; c < t.l.C; ++c)
        cvt_to_f32(t.dt, t.at(n, c, s0), buf + c * P, P);
    return buf;
}

inline float *tile_out(
        const tref_t &t, dim_t n, dim_t s0, dim_t P, float *buf, dim_t &ld) {
    if (t.cp_direct()) {
        ld = t.l.SP;
        return reinterpret_cast<float *>(t.at(n, 0, s0));
    }
    ld = P;
    return buf;
}

// Writes a tile from tile_out back when it was a buffer.
inline void tile_commit(
        const tref_t &t, dim_t n, dim_t s0, dim_t P, const float *buf) {
    if (t.cp_direct()) return;
    for (dim_t c = 0; c < t.l.C; ++c)
        cvt_from_f32(t.dt, buf + c * P, t.at(n, c, s0), P);
}

// ---- pc views: points [s0, s0 + P) of image n; buffers are dense rows
// of C channels with segment offsets `row_off`.
inline pc_in_t pc_in(const tref_t &t, dim_t n, dim_t s0, dim_t P, float *buf,
        const dim_t *row_off) {
    pc_in_t v;
    if (t.dt == dnnl_f32) {
        v.p = reinterpret_cast<const float *>(t.at(n, 0, s0));
        v.ld = t.ld, v.off = t.off;
        return v;
    }
    const dim_t C = t.l.C;
    v.p = buf, v.ld = C, v.off = row_off;
    if (t.l.cls == chan_class_t::nspc) {
        cvt_to_f32(t.dt, t.at(n, 0, s0), buf, P * C);
        return v;
    }
    const dim_t B = t.l.B;
    for (dim_t pt = 0; pt < P; ++pt)
        for (dim_t c = 0; c < C; c += B) {
            const dim_t len = C - c < B ? C - c : B;
            cvt_to_f32(t.dt, t.at(n, c, s0) + pt * B * t.esz, buf + pt * C + c,
                    len);
        }
    return v;
}

inline pc_out_t pc_out(
        const tref_t &t, dim_t n, dim_t s0, float *buf, const dim_t *row_off) {
    pc_out_t v;
    if (t.dt == dnnl_f32) {
        v.p = reinterpret_cast<float *>(t.at(n, 0, s0));
        v.ld = t.ld, v.off = t.off;
    } else {
        v.p = buf, v.ld = t.l.C, v.off = row_off;
    }
    return v;
}

// Writes a view from pc_out back when it was a buffer.
inline void pc_commit(
        const tref_t &t, dim_t n, dim_t s0, dim_t P, const float *buf) {
    if (t.dt == dnnl_f32) return;
    const dim_t C = t.l.C;
    if (t.l.cls == chan_class_t::nspc) {
        cvt_from_f32(t.dt, buf, t.at(n, 0, s0), P * C);
        return;
    }
    const dim_t B = t.l.B;
    for (dim_t pt = 0; pt < P; ++pt)
        for (dim_t c = 0; c < C; c += B) {
            const dim_t len = C - c < B ? C - c : B;
            cvt_from_f32(t.dt, buf + pt * C + c,
                    t.at(n, c, s0) + pt * B * t.esz, len);
        }
}

// ---- within-channel planes: the SP points of channel c of image n as a
// dense f32 array. An ncsp f32 tensor is used in place; any other layout
// or data type goes through `buf`, point by point at the layout's point
// step (channels-last: C, blocked: the block).
inline dim_t plane_step(const chan_layout_t &l) {
    switch (l.cls) {
        case chan_class_t::ncsp: return 1;
        case chan_class_t::nspc: return l.C;
        default: return l.B;
    }
}

inline const float *plane_in(const tref_t &t, dim_t n, dim_t c, float *buf) {
    const char *p = t.at(n, c, 0);
    if (t.cp_direct()) return reinterpret_cast<const float *>(p);
    const dim_t step = plane_step(t.l), SP = t.l.SP;
    if (step == 1)
        cvt_to_f32(t.dt, p, buf, SP);
    else
        for (dim_t s = 0; s < SP; ++s)
            buf[s] = load_f32(t.dt, p, s * step);
    return buf;
}

inline float *plane_out(const tref_t &t, dim_t n, dim_t c, float *buf) {
    return t.cp_direct() ? reinterpret_cast<float *>(t.at(n, c, 0)) : buf;
}

// Writes a plane from plane_out back when it was a buffer.
inline void plane_commit(
        const tref_t &t, dim_t n, dim_t c, const float *buf) {
    if (t.cp_direct()) return;
    char *p = t.at(n, c, 0);
    const dim_t step = plane_step(t.l), SP = t.l.SP;
    if (step == 1)
        cvt_from_f32(t.dt, buf, p, SP);
    else
        for (dim_t s = 0; s < SP; ++s)
            store_f32(t.dt, buf[s], p, s * step);
}

} // namespace lrn
} // namespace cpu
} // namespace impl
} // namespace dnnl
