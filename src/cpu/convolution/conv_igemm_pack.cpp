// The gathering plan of the implicit-GEMM convolution's fast B-panel
// packing (see conv_igemm_pack.hpp), and whether it serves a geometry;
// the pack loop itself is AVX-512 code (conv_igemm_pack_avx512.cpp), in
// the convolution kernel table's AVX-512 entry.
#include "cpu/convolution/conv_igemm_pack.hpp"

#include <algorithm>


namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

bool igemm_gather_fits(const conv_conf_t &c, int NR) {
    return NR % 16 == 0 && (c.sw == 1 || c.sw == 2);
}

namespace {

// A part of an output row in lanes [lo, hi) of vector v; ow_v is the
// output column lane 0 would have on that row.
struct seg_t {
    dim_t v, lo, hi, id0, ih0, ow_v;
};

// Lanes [lo, hi) of a 16-bit mask.
uint16_t lane_range(dim_t lo, dim_t hi) {
    if (hi <= lo) return 0;
    return (uint16_t)((0xffffu << lo) & (0xffffu >> (16 - hi)));
}

// The even bits of a 32-bit mask from the 16 lane bits (lane l -> bit 2l).
uint32_t spread_even(uint16_t m) {
    uint32_t x = m;
    x = (x | (x << 8)) & 0x00ff00ffu;
    x = (x | (x << 4)) & 0x0f0f0f0fu;
    x = (x | (x << 2)) & 0x33333333u;
    x = (x | (x << 1)) & 0x55555555u;
    return x;
}

} // namespace

void igemm_gather_plan(const conv_conf_t &c, dim_t sp0, dim_t nsp, int NR,
        igemm_gather_t &g) {
    // Output rows cut at vector boundaries.
    std::vector<seg_t> segs;
    dim_t j = 0, sp = sp0;
    while (j < nsp) {
        const dim_t ow0 = sp % c.ow;
        const dim_t oh = (sp / c.ow) % c.oh;
        const dim_t od = sp / (c.ow * c.oh);
        const dim_t len = std::min(nsp - j, c.ow - ow0);
        for (dim_t v = j / 16; v * 16 < j + len; ++v)
            segs.push_back({v, std::max(j, v * 16) - v * 16,
                    std::min(j + len, v * 16 + 16) - v * 16, od * c.sd - c.pf,
                    oh * c.sh - c.pt, ow0 + (v * 16 - j)});
        j += len;
        sp += len;
    }
    g.nvec = (nsp + NR - 1) / NR * NR / 16;
    g.per_vec = 1;
    for (size_t a = 0, b; a < segs.size(); a = b) {
        for (b = a; b < segs.size() && segs[b].v == segs[a].v; ++b) {}
        g.per_vec = std::max(g.per_vec, (int)(b - a));
    }
    const dim_t ksp = c.ksp(), S = g.per_vec;
    g.loads.assign((size_t)(ksp * g.nvec * S), igemm_load_t {0, 0, 0});
    for (dim_t tap = 0; tap < ksp; ++tap) {
        const dim_t kw = tap % c.kw, kh = (tap / c.kw) % c.kh,
                    kd = tap / (c.kw * c.kh);
        igemm_load_t *t = g.loads.data() + tap * g.nvec * S;
        dim_t prev_v = -1, s = 0;
        for (const seg_t &q : segs) {
            s = q.v == prev_v ? s + 1 : 0;
            prev_v = q.v;
            const dim_t id = q.id0 + kd * c.ddl, ih = q.ih0 + kh * c.dhl;
            if (id < 0 || id >= c.id || ih < 0 || ih >= c.ih) continue;
            // Input column of lane 0; lane l reads iw0 + l * sw.
            const dim_t iw0 = q.ow_v * c.sw - c.pl + kw * c.dwl;
            const dim_t lo = std::max(q.lo,
                    iw0 >= 0 ? 0 : (-iw0 + c.sw - 1) / c.sw);
            const dim_t hi = std::min(q.hi,
                    c.iw - iw0 <= 0 ? 0 : (c.iw - iw0 + c.sw - 1) / c.sw);
            const uint16_t m = lane_range(lo, hi);
            if (!m) continue;
            igemm_load_t &e = t[q.v * S + s];
            e.off = (id * c.ih + ih) * c.iw + iw0;
            e.m = m;
            e.m2 = spread_even(m);
        }
    }
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
