// Factor plans of the gpu reorder (see reorder_plan.hpp).
#include "gpu/ocl/reorder/reorder_plan.hpp"

#include <algorithm>
#include <vector>

#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// One digit of a dim's index in a layout: `lm` logical positions per step,
// `stride` elements per step, `ext` steps (0: unbounded, the outer part).
struct unit_t {
    dim_t lm, stride, ext;
};

// The digits of dim `d`, outer part first, then the inner blocks of `d`
// from the outermost in.
std::vector<unit_t> dim_units(const memory_desc_t &md, int d) {
    const auto &b = md.format_desc.blocking;
    std::vector<unit_t> u;
    dim_t lm = 1;
    for (int k = 0; k < b.inner_nblks; ++k)
        if (b.inner_idxs[k] == d) lm *= b.inner_blks[k];
    u.push_back({lm, b.strides[d], 0});
    for (int k = 0; k < b.inner_nblks; ++k) {
        if (b.inner_idxs[k] != d || b.inner_blks[k] == 1) continue;
        dim_t stride = 1;
        for (int j = k + 1; j < b.inner_nblks; ++j) stride *= b.inner_blks[j];
        lm /= b.inner_blks[k];
        u.push_back({lm, stride, b.inner_blks[k]});
    }
    return u;
}

// Elements one step of `lm` logical positions moves in a layout whose
// digits (nested with lm) are `u`.
dim_t stride_at(const std::vector<unit_t> &u, dim_t lm) {
    // The digit with the largest step not above lm (the innermost digit
    // steps by one, so there is one).
    const unit_t *best = nullptr;
    for (const unit_t &x : u)
        if (x.lm <= lm && (!best || x.lm > best->lm)) best = &x;
    return best->stride * (lm / best->lm);
}

// Offset (offset0 excluded) of index `p` of dim `d`.
dim_t dim_offset(const memory_desc_t &md, int d, dim_t p) {
    dim_t off = 0;
    for (const unit_t &x : dim_units(md, d)) {
        const dim_t digit = x.ext ? (p / x.lm) % x.ext : p / x.lm;
        off += digit * x.stride;
    }
    return off;
}

struct factor_t {
    dim_t ext, sstr, dstr;
    int dim; // tracked dim, -1 when merged across dims
    dim_t lm;
};

// Splits dim `d` (extent `dpad` in the destination) into factors with one
// stride in each layout. False when the two layouts' blocks of `d` do not
// nest (8 and 12, say); `by_layout` uses the destination's blocks alone.
bool refine_dim(const memory_desc_t &src, const memory_desc_t &dst, int d,
        int tracked, dim_t dpad, bool by_layout, std::vector<factor_t> &out,
        bool &overrun) {
    const std::vector<unit_t> su = dim_units(src, d), du = dim_units(dst, d);
    std::vector<dim_t> steps {1};
    for (const unit_t &x : du) steps.push_back(x.lm);
    if (!by_layout)
        for (const unit_t &x : su) steps.push_back(x.lm);
    std::sort(steps.begin(), steps.end(), [](dim_t a, dim_t b) { return a > b; });
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    for (size_t i = 0; i + 1 < steps.size(); ++i)
        if (steps[i] % steps[i + 1] != 0) return false;
    const dim_t outer = (dpad + steps[0] - 1) / steps[0];
    overrun = outer * steps[0] > dpad;
    for (size_t i = 0; i < steps.size(); ++i) {
        const dim_t ext = i == 0 ? outer : steps[i - 1] / steps[i];
        if (ext <= 1) continue;
        out.push_back({ext, by_layout ? 0 : stride_at(su, steps[i]),
                stride_at(du, steps[i]), tracked, steps[i]});
    }
    return true;
}

int log2_ceil(dim_t v) {
    int l = 0;
    while (((dim_t)1 << l) < v && l < 30)
        ++l;
    return l;
}

// Tiles for a transpose: X (factor 0) is contiguous in the destination, Y
// (moved to factor 1) in the source. Tiles hold up to 2048 elements (8 a
// work-item of 256, which pays for the work-group's index arithmetic and
// keeps several loads in flight): X takes up to 32, Y what is left, and X
// grows again when Y is short.
bool try_tiles(std::vector<factor_t> &f, reorder_plan_t &plan) {
    if (f.size() < 2 || f[0].dstr != 1) return false;
    size_t y = 0;
    for (size_t i = 1; i < f.size(); ++i)
        if (f[i].sstr == 1) y = i;
    if (y == 0) return false;
    int lx = std::min(log2_ceil(f[0].ext), 5);
    const int ly = std::min(log2_ceil(f[y].ext), 11 - lx);
    lx = std::min(log2_ceil(f[0].ext), 11 - ly);
    if (lx + ly < 8) return false; // too small to fill a work-group
    const factor_t fy = f[y];
    f.erase(f.begin() + y);
    f.insert(f.begin() + 1, fy);
    plan.tile_x_log2 = lx;
    plan.tile_y_log2 = ly;
    plan.tiles_x = (f[0].ext + (1 << lx) - 1) >> lx;
    plan.tiles_y = (f[1].ext + (1 << ly) - 1) >> ly;
    return true;
}

} // namespace

int64_t md_touched_elems(const memory_desc_t &md, const dim_t *extent) {
    int64_t hi = md.offset0;
    for (int d = 0; d < md.ndims; ++d) {
        const dim_t e = extent[d];
        if (e <= 0) return 0;
        dim_t blk = 1;
        for (const unit_t &x : dim_units(md, d))
            if (x.ext) blk *= x.ext;
        // Within one outer step offsets grow with the index; across steps
        // with the (non-negative) stride: the last index, or the end of
        // the last full outer step, is the furthest.
        dim_t m = dim_offset(md, d, e - 1);
        const dim_t full = (e - 1) / blk * blk;
        if (full > 0) m = std::max(m, dim_offset(md, d, full - 1));
        hi += m;
    }
    return hi + 1;
}

status_t make_plan(const memory_desc_t &src, const memory_desc_t &dst,
        int quant_dims, bool plain_copy, reorder_plan_t &plan) {
    plan = reorder_plan_t();
    const int nd = src.ndims;
    for (const memory_desc_t *md : {&src, &dst})
        for (int d = 0; d < nd; ++d) {
            if (md->format_desc.blocking.strides[d] < 0
                    || md->padded_offsets[d] != 0) {
                verbose_check("reorder",
                        "gpu: negative strides or padded offsets");
                return dnnl_unimplemented;
            }
        }
    for (int d = 0; d < nd; ++d)
        if (src.dims[d] == 0) return dnnl_success; // empty

    std::vector<factor_t> f;
    bool by_layout = false;
    for (;; by_layout = true) {
        if (by_layout && (nd > plan_max_dims || !layout_supported(src))) {
            verbose_check("reorder",
                    "gpu: blocks that do not nest, beyond %d dims or %d "
                    "blocks",
                    plan_max_dims, layout_max_blks);
            return dnnl_unimplemented;
        }
        f.clear();
        plan.has_pad = false;
        bool nested = true;
        int nt = 0;
        for (int d = 0; d < nd && nested; ++d) {
            const dim_t dpad = dst.padded_dims[d];
            plan.dim_map[d] = -1;
            if (!by_layout && dpad <= 1) continue; // index always 0
            const size_t first = f.size();
            bool overrun = false;
            nested = refine_dim(src, dst, d, -1, dpad, by_layout, f, overrun);
            const bool pad = overrun || src.dims[d] < dpad;
            plan.has_pad = plan.has_pad || pad;
            // Only dims whose positions matter are tracked (padding checks,
            // quantization indices); the others merge freely.
            if (!(by_layout || pad || ((quant_dims >> d) & 1))) continue;
            if (nt == plan_max_dims) {
                verbose_check("reorder",
                        "gpu: more than %d padded or quantized dims",
                        plan_max_dims);
                return dnnl_unimplemented;
            }
            const int t = nt++;
            plan.dim_map[d] = t;
            plan.args.dims[t] = src.dims[d];
            plan.args.dpad[t] = dpad;
            for (size_t i = first; i < f.size(); ++i)
                f[i].dim = t;
        }
        plan.args.ndims = nt;
        if (nested) break;
    }

    // Destination order, outermost first; positions must not alias.
    std::stable_sort(f.begin(), f.end(),
            [](const factor_t &a, const factor_t &b) { return a.dstr > b.dstr; });
    for (const factor_t &x : f)
        if (x.dstr == 0) {
            verbose_check("reorder", "gpu: destination positions alias");
            return dnnl_unimplemented;
        }
    // Neighbours contiguous in both merge: within a tracked dim when their
    // logical steps continue each other, across untracked dims always.
    std::vector<factor_t> m;
    for (const factor_t &b : f) {
        if (!m.empty()) {
            factor_t &a = m.back();
            const bool same_dim
                    = a.dim == b.dim && a.dim >= 0 && a.lm == b.ext * b.lm;
            if (a.dstr == b.ext * b.dstr && a.sstr == b.ext * b.sstr
                    && (same_dim || (a.dim < 0 && b.dim < 0))) {
                a = {a.ext * b.ext, b.sstr, b.dstr, same_dim ? a.dim : -1,
                        b.lm};
                continue;
            }
        }
        m.push_back(b);
    }
    std::reverse(m.begin(), m.end()); // innermost first
    if (m.empty()) m.push_back({1, 1, 1, -1, 1});
    if ((int)m.size() > plan_max_factors) {
        verbose_check("reorder", "gpu: more than %d layout factors",
                plan_max_factors);
        return dnnl_unimplemented;
    }

    bool tracked_quant = false;
    for (int d = 0; d < nd; ++d)
        tracked_quant = tracked_quant
                || (((quant_dims >> d) & 1) && plan.dim_map[d] >= 0);
    const bool contiguous = m.size() == 1 && m[0].sstr == 1 && m[0].dstr == 1
            && !plan.has_pad && !by_layout;
    if (contiguous && plain_copy)
        plan.kind = plan_kind_t::copy;
    else if (contiguous && !tracked_quant)
        plan.kind = plan_kind_t::linear;
    else if (!by_layout && try_tiles(m, plan))
        plan.kind = plan_kind_t::tiled;
    else
        plan.kind = by_layout ? plan_kind_t::by_layout : plan_kind_t::generic;
    if (by_layout) plan.src_layout = make_layout(src);

    plan_args_t &a = plan.args;
    a.nf = (int64_t)m.size();
    a.s0 = src.offset0;
    a.d0 = dst.offset0;
    int64_t elems = 1, s_end = a.s0, d_end = a.d0;
    for (size_t i = 0; i < m.size(); ++i) {
        a.ext[i] = m[i].ext;
        a.sstr[i] = m[i].sstr;
        a.dstr[i] = m[i].dstr;
        a.dim[i] = m[i].dim;
        a.lm[i] = m[i].lm;
        elems *= m[i].ext;
        s_end += (m[i].ext - 1) * m[i].sstr;
        d_end += (m[i].ext - 1) * m[i].dstr;
    }
    plan.work = elems;
    if (plan.kind == plan_kind_t::tiled)
        plan.work = plan.tiles_x * plan.tiles_y * (elems / m[0].ext / m[1].ext);
    const int64_t limit = ((int64_t)1 << 31) - 1024;
    plan.idx_long = elems >= limit || s_end >= limit || d_end >= limit
            || md_touched_elems(src, src.dims) >= limit;
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
