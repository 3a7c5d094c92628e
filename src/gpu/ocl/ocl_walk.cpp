// Memory-order walks, per-dim offsets and kernel configuration buffers.
#include "gpu/ocl/ocl_walk.hpp"

#include <algorithm>
#include <cstring>

#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_nest.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

struct part_t {
    int dim;
    dim_t extent, mult, stride;
};

// Parts of md's padded positions, outermost first, of the dims in `mask`;
// parts of extent 1 are left out (at least one part is kept).
std::vector<part_t> parts_of(const memory_desc_t &md, unsigned mask = ~0u) {
    const blocking_desc_t &b = md.format_desc.blocking;
    dim_t blk[max_ndims];
    for (int d = 0; d < md.ndims; ++d) blk[d] = 1;
    for (int k = 0; k < b.inner_nblks; ++k)
        blk[b.inner_idxs[k]] *= b.inner_blks[k];
    dim_t inner_total = 1;
    for (int k = 0; k < b.inner_nblks; ++k) inner_total *= b.inner_blks[k];

    std::vector<part_t> outer;
    for (int d = 0; d < md.ndims; ++d) {
        const dim_t ext = md.padded_dims[d] / blk[d];
        if (ext > 1 && (mask >> d & 1u))
            outer.push_back({d, ext, blk[d], b.strides[d]});
    }
    // Larger strides first; equal strides keep the logical order.
    std::stable_sort(
            outer.begin(), outer.end(), [](const part_t &x, const part_t &y) {
                return x.stride > y.stride;
            });
    std::vector<part_t> parts = outer;
    dim_t after = inner_total;
    for (int k = 0; k < b.inner_nblks; ++k) {
        after /= b.inner_blks[k];
        dim_t within = 1; // the same dim's blocks after this one
        for (int j = k + 1; j < b.inner_nblks; ++j)
            if (b.inner_idxs[j] == b.inner_idxs[k]) within *= b.inner_blks[j];
        if (b.inner_blks[k] > 1 && (mask >> b.inner_idxs[k] & 1u))
            parts.push_back(
                    {(int)b.inner_idxs[k], b.inner_blks[k], within, after});
    }
    if (parts.empty()) parts.push_back({0, 1, 1, 1});
    return parts;
}

} // namespace

bool make_walk(const memory_desc_t &md, walk_t &w, int vec) {
    return make_walk_of_dims(md, ~0u, w, vec);
}

bool make_walk_of_dims(
        const memory_desc_t &md, unsigned mask, walk_t &w, int vec) {
    std::memset(&w, 0, sizeof(w));
    const std::vector<part_t> parts = parts_of(md, mask);
    if ((int)parts.size() > walk_max_parts) return false;
    w.nparts = (int64_t)parts.size();
    w.volume = 1;
    for (size_t p = 0; p < parts.size(); ++p) {
        w.extent[p] = parts[p].extent;
        w.dim[p] = parts[p].dim;
        w.mult[p] = parts[p].mult;
    }
    const size_t last = parts.size() - 1;
    w.lane_dim = parts[last].dim;
    w.lane_step = parts[last].mult;
    if (vec > 1) {
        if (w.extent[last] % vec != 0) return false;
        w.extent[last] /= vec;
        w.mult[last] *= vec;
    }
    for (size_t p = 0; p < parts.size(); ++p) {
        w.volume *= w.extent[p];
        if (w.extent[p] < ((dim_t)1 << 31))
            int32_divider(w.extent[p], w.magic[p], w.shift[p]);
    }
    return true;
}

void walk_innermost(
        const memory_desc_t &md, int &dim, dim_t &extent, dim_t &step) {
    const part_t p = parts_of(md).back();
    dim = p.dim;
    extent = p.extent;
    step = p.mult;
}

bool walk_dense(const memory_desc_t &md) {
    const std::vector<part_t> parts = parts_of(md);
    dim_t expect = 1;
    for (size_t i = parts.size(); i-- > 0;) {
        if (parts[i].extent > 1 && parts[i].stride != expect) return false;
        expect *= parts[i].extent;
    }
    return true;
}

bool fast_offsets_ok(const memory_desc_t &md) {
    if (!layout_supported(md) || md.ndims > walk_ndims) return false;
    const blocking_desc_t &b = md.format_desc.blocking;
    for (int k = 0; k < b.inner_nblks; ++k)
        for (int j = k + 1; j < b.inner_nblks; ++j)
            if (b.inner_idxs[j] == b.inner_idxs[k]) return false;
    return true;
}

bool spatial_unblocked(const memory_desc_t &md) {
    const blocking_desc_t &b = md.format_desc.blocking;
    for (int k = 0; k < b.inner_nblks; ++k)
        if (b.inner_idxs[k] >= 2) return false;
    return true;
}

memory_desc_t as_5d(const memory_desc_t &md) {
    if (md.ndims < 2 || md.ndims >= 5) return md;
    const int shift = 5 - md.ndims;
    memory_desc_t r = md;
    blocking_desc_t &rb = r.format_desc.blocking;
    const blocking_desc_t &b = md.format_desc.blocking;
    r.ndims = 5;
    for (int d = 0; d < 5; ++d) {
        const bool inserted = d >= 2 && d < 2 + shift;
        const int s = d < 2 ? d : d - shift; // source dim
        r.dims[d] = inserted ? 1 : md.dims[s];
        r.padded_dims[d] = inserted ? 1 : md.padded_dims[s];
        r.padded_offsets[d] = inserted ? 0 : md.padded_offsets[s];
        rb.strides[d] = inserted ? 0 : b.strides[s];
    }
    for (int k = 0; k < b.inner_nblks; ++k)
        rb.inner_idxs[k] = b.inner_idxs[k] >= 2 ? b.inner_idxs[k] + shift
                                                : b.inner_idxs[k];
    return r;
}

bool lanes_contiguous(const memory_desc_t &md, int dim, int w) {
    if (!fast_offsets_ok(md) || dim >= md.ndims) return false;
    const blocking_desc_t &b = md.format_desc.blocking;
    if (md.offset0 % w != 0) return false;
    dim_t after = 1;
    for (int k = b.inner_nblks - 1; k >= 0; --k) {
        if (b.inner_idxs[k] == dim) {
            if (after != 1 || b.inner_blks[k] % w != 0) return false;
        } else if (after % w != 0) {
            return false;
        }
        after *= b.inner_blks[k];
    }
    bool blocked = false;
    for (int k = 0; k < b.inner_nblks; ++k)
        blocked = blocked || b.inner_idxs[k] == dim;
    for (int d = 0; d < md.ndims; ++d) {
        if (d == dim && !blocked) {
            if (b.strides[d] != 1) return false;
            continue;
        }
        if (md.padded_dims[d] > 1 && b.strides[d] % w != 0) return false;
    }
    return true;
}

int channel_lanes(const memory_desc_t &out,
        const std::vector<const memory_desc_t *> &all) {
    int dim = 0;
    dim_t ext = 0, step = 0;
    walk_innermost(out, dim, ext, step);
    if (dim != 1 || step != 1) return 1;
    size_t esz = 1;
    for (const memory_desc_t *m : all)
        esz = std::max(esz, data_type_size(m->data_type));
    const int max_w = (int)std::min<size_t>(8, 16 / esz);
    return pick_vec(max_w, [&](int w) {
        if (ext % w != 0) return false;
        for (const memory_desc_t *m : all)
            if (!lanes_contiguous(*m, 1, w)) return false;
        return true;
    });
}

bool offsets_fit_int32(const memory_desc_t &md) {
    const blocking_desc_t &b = md.format_desc.blocking;
    dim_t blk[max_ndims];
    for (int d = 0; d < md.ndims; ++d) blk[d] = 1;
    dim_t inner = 1;
    for (int k = 0; k < b.inner_nblks; ++k) {
        blk[b.inner_idxs[k]] *= b.inner_blks[k];
        inner *= b.inner_blks[k];
    }
    // The largest offset: the last element of the last block.
    dim_t last = md.offset0 + inner - 1;
    for (int d = 0; d < md.ndims; ++d) {
        if (b.strides[d] < 0) return false;
        const dim_t n = md.padded_dims[d] / blk[d];
        if (n > 0) last += (n - 1) * b.strides[d];
    }
    const dim_t lim = (dim_t)1 << 31;
    return last < lim && md_nelems(md, true) < lim;
}

conf_t &conf_t::put(const walk_t &w) {
    const int64_t *p = reinterpret_cast<const int64_t *>(&w);
    values_.insert(values_.end(), p, p + sizeof(w) / sizeof(int64_t));
    return *this;
}

conf_t &conf_t::put_tensor(const memory_desc_t &md, bool generic) {
    if (generic) {
        const layout_t l = make_layout(md);
        const int64_t *p = reinterpret_cast<const int64_t *>(&l);
        values_.insert(values_.end(), p, p + sizeof(l) / sizeof(int64_t));
        return *this;
    }
    // offset0, then outer[6], blk[6], inner[6] (doff_t of ocl_walk.clh).
    const blocking_desc_t &b = md.format_desc.blocking;
    int64_t outer[walk_ndims] = {}, blk[walk_ndims], inner[walk_ndims] = {};
    for (int d = 0; d < walk_ndims; ++d) {
        blk[d] = 1;
        if (d < md.ndims) outer[d] = b.strides[d];
    }
    dim_t after = 1;
    for (int k = b.inner_nblks - 1; k >= 0; --k) {
        blk[b.inner_idxs[k]] = b.inner_blks[k];
        inner[b.inner_idxs[k]] = after;
        after *= b.inner_blks[k];
    }
    values_.push_back(md.offset0);
    values_.insert(values_.end(), outer, outer + walk_ndims);
    values_.insert(values_.end(), blk, blk + walk_ndims);
    values_.insert(values_.end(), inner, inner + walk_ndims);
    return *this;
}

conf_t &conf_t::put_no_tensor(bool generic) {
    const size_t n =
            generic ? sizeof(layout_t) / sizeof(int64_t) : 1 + 3 * walk_ndims;
    values_.insert(values_.end(), n, 0);
    return *this;
}

void define_walk(kernel_options_t &opts, bool generic, bool int32) {
    opts.define("WALK_GENERIC", generic ? 1 : 0);
    opts.define("WALK_INT32", (!generic && int32) ? 1 : 0);
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
