// Tiles of a channel-wise tensor as f32 for the LRN kernels: the tensor
// itself where it already has the tile's shape and is f32, otherwise a
// converted copy in a per-thread buffer.
//   cp tiles (ncsp):        C rows of P consecutive points, row stride ld
//   pc tiles (nspc/blocked): P rows of C channels, row stride ld
#pragma once

#include "common/float_convert.hpp"
#include "cpu/chan_layout.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {

struct tref_t {
    char *base = nullptr;
    data_type_t dt = dnnl_f32;
    size_t esz = 4;
    chan_layout_t l;

    tref_t() = default;
    tref_t(const void *p, data_type_t t, const chan_layout_t &lay)
        : base((char *)p), dt(t), esz(data_type_size(t)), l(lay) {}
    explicit operator bool() const { return base != nullptr; }
    char *at(dim_t n, dim_t c, dim_t s) const { return base + l.off(n, c, s) * esz; }
    bool direct(bool cp) const {
        return dt == dnnl_f32
                && l.cls == (cp ? chan_class_t::ncsp : chan_class_t::nspc);
    }
};

// Points [s0, s0 + P) of image n. `copy` forces a copy even when the
// tensor could be used in place.
inline const float *tile_in(const tref_t &t, bool cp, dim_t n, dim_t s0, dim_t P,
        float *buf, dim_t &ld, bool copy = false) {
    const dim_t C = t.l.C;
    if (t.direct(cp) && !copy) {
        ld = cp ? t.l.SP : C;
        return reinterpret_cast<const float *>(t.at(n, 0, s0));
    }
    ld = cp ? P : C;
    if (cp) {
        for (dim_t c = 0; c < C; ++c)
            cvt_to_f32(t.dt, t.at(n, c, s0), buf + c * P, P);
    } else if (t.l.cls == chan_class_t::nspc) {
        cvt_to_f32(t.dt, t.at(n, 0, s0), buf, P * C);
    } else {
        // Blocks of B channels, copied whole (f32) or converted.
        const dim_t B = t.l.B;
        for (dim_t pt = 0; pt < P; ++pt)
            for (dim_t c = 0; c < C; c += B) {
                const dim_t len = C - c < B ? C - c : B;
                const char *src = t.at(n, c, s0);
                if (t.dt == dnnl_f32) {
                    const float *f = reinterpret_cast<const float *>(src) + pt * B;
                    float *d = buf + pt * C + c;
                    for (dim_t i = 0; i < len; ++i)
                        d[i] = f[i];
                } else
                    cvt_to_f32(t.dt, src + pt * B * t.esz, buf + pt * C + c, len);
            }
    }
    return buf;
}

inline float *tile_out(const tref_t &t, bool cp, dim_t n, dim_t s0, dim_t P,
        float *buf, dim_t &ld) {
    if (t.direct(cp)) {
        ld = cp ? t.l.SP : t.l.C;
        return reinterpret_cast<float *>(t.at(n, 0, s0));
    }
    ld = cp ? P : t.l.C;
    return buf;
}

// Writes a tile from tile_out back when it was a buffer.
inline void tile_commit(const tref_t &t, bool cp, dim_t n, dim_t s0, dim_t P,
        const float *buf) {
    if (t.direct(cp)) return;
    const dim_t C = t.l.C;
    if (cp) {
        for (dim_t c = 0; c < C; ++c)
            cvt_from_f32(t.dt, buf + c * P, t.at(n, c, s0), P);
    } else if (t.l.cls == chan_class_t::nspc) {
        cvt_from_f32(t.dt, buf, t.at(n, 0, s0), P * C);
    } else {
        const dim_t B = t.l.B;
        for (dim_t pt = 0; pt < P; ++pt)
            for (dim_t c = 0; c < C; c += B) {
                const dim_t len = C - c < B ? C - c : B;
                char *dst = t.at(n, c, s0);
                if (t.dt == dnnl_f32) {
                    float *d = reinterpret_cast<float *>(dst) + pt * B;
                    const float *f = buf + pt * C + c;
                    for (dim_t i = 0; i < len; ++i)
                        d[i] = f[i];
                } else
                    cvt_from_f32(t.dt, buf + pt * C + c, dst + pt * B * t.esz, len);
            }
    }
}

} // namespace lrn
} // namespace cpu
} // namespace impl
} // namespace dnnl
