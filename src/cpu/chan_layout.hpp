// Recognises the three dense layouts that the channel-wise CPU primitives
// (LRN, resampling) walk directly, with any data type:
//   ncsp     dense row-major N x C x spatial (nchw, ncdhw, ...)
//   nspc     dense channels-last (nhwc, ndhwc, ...)
//   blocked  dense channel-blocked N x C/B x spatial x B (nChw8c, nChw16c)
// Anything else is "other" and goes through a dense f32 copy.
#pragma once

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

enum class chan_class_t { other, ncsp, nspc, blocked };

struct chan_layout_t {
    chan_class_t cls = chan_class_t::other;
    dim_t N = 0, C = 0, SP = 1;
    dim_t B = 1; // channel block (blocked only)
    dim_t CB = 0; // number of channel blocks (blocked only)
    dim_t offset0 = 0;

    // Element offset of (n, c, flattened spatial s).
    dim_t off(dim_t n, dim_t c, dim_t s) const {
        switch (cls) {
            case chan_class_t::ncsp: return offset0 + (n * C + c) * SP + s;
            case chan_class_t::nspc: return offset0 + (n * SP + s) * C + c;
            default: return offset0 + ((n * CB + c / B) * SP + s) * B + c % B;
        }
    }
    bool same_walk(const chan_layout_t &o) const {
        return cls == o.cls && cls != chan_class_t::other && B == o.B;
    }
};

inline chan_layout_t chan_layout(const memory_desc_t &md) {
    chan_layout_t l;
    if (md.format_kind != dnnl_blocked || md.ndims < 2) return l;
    const auto &b = md.format_desc.blocking;
    const int nd = md.ndims;
    l.N = md.dims[0];
    l.C = md.dims[1];
    for (int d = 2; d < nd; ++d)
        l.SP *= md.dims[d];
    l.offset0 = md.offset0;
    for (int d = 0; d < nd; ++d)
        if (d != 1 && md.padded_dims[d] != md.dims[d]) return l;
    // Expected strides for a dim order (outermost first) and innermost
    // step; dims of size 1 may have any stride.
    auto matches = [&](const int *order, dim_t inner) {
        dim_t s = inner;
        for (int i = nd - 1; i >= 0; --i) {
            const int d = order[i];
            if (md.padded_dims[d] != 1 && b.strides[d] != s) return false;
            s *= md.padded_dims[d];
        }
        return true;
    };
    int order[max_ndims];
    if (b.inner_nblks == 0) {
        if (md.padded_dims[1] != md.dims[1]) return l;
        for (int d = 0; d < nd; ++d)
            order[d] = d;
        if (matches(order, 1)) {
            l.cls = chan_class_t::ncsp;
            return l;
        }
        order[0] = 0;
        for (int d = 2; d < nd; ++d)
            order[d - 1] = d;
        order[nd - 1] = 1;
        if (matches(order, 1)) l.cls = chan_class_t::nspc;
        return l;
    }
    if (b.inner_nblks != 1 || b.inner_idxs[0] != 1) return l;
    l.B = b.inner_blks[0];
    l.CB = md.padded_dims[1] / l.B;
    if (l.CB * l.B != md.padded_dims[1]) return l;
    // The outer channel dim counts blocks, so walk it with its block count.
    dim_t s = l.B;
    for (int i = nd - 1; i >= 0; --i) {
        const dim_t extent = i == 1 ? l.CB : md.padded_dims[i];
        if (extent != 1 && b.strides[i] != s) return l;
        s *= extent;
    }
    l.cls = chan_class_t::blocked;
    return l;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
