// Building the fast reorder's plan (see simple_plan.hpp).
#include "cpu/reorder/simple_plan.hpp"

#include <algorithm>

#include "cpu/reorder/reorder_layout.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

namespace {

dim_t gcd(dim_t a, dim_t b) {
    while (b) {
        const dim_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

// Common refinement of the source's and destination's factors of one dim;
// false when the blockings do not nest.
bool refine_dim(const std::vector<factor_t> &fs,
        const std::vector<factor_t> &fd, dim_t qstride,
        std::vector<node_t> &nodes) {
    int i = (int)fs.size() - 1, j = (int)fd.size() - 1;
    dim_t a = fs[i].n, b = fd[j].n;
    dim_t sstr = fs[i].stride, dstr = fd[j].stride, lm = 1;
    while (i >= 0 && j >= 0) {
        if (a == 1) {
            if (--i >= 0) {
                a = fs[i].n;
                sstr = fs[i].stride;
            }
            continue;
        }
        if (b == 1) {
            if (--j >= 0) {
                b = fd[j].n;
                dstr = fd[j].stride;
            }
            continue;
        }
        const dim_t g = a < b ? a : b;
        if ((a > b ? a : b) % g != 0) return false;
        nodes.push_back({g, sstr, dstr, lm * qstride});
        lm *= g;
        a /= g;
        b /= g;
        sstr *= g;
        dstr *= g;
    }
    // Both sides multiply to the same extent, so nothing is left over.
    return true;
}

// Factors of the indices [lo, lo + e) of dim d (outermost first) and the
// offset of index lo. lo is 0 with e a multiple of the dim's block (the
// main box), or a multiple of the block with e inside one block (a tail
// part): then the range is taken through the inner blocks innermost
// first, each whole or holding the rest, and the outer stride for what
// is left; false when the range does not split so (e = 5 across inner
// blocks of 4).
bool range_factors(const memory_desc_t &md, int d, dim_t lo, dim_t e,
        std::vector<factor_t> &f, dim_t &base) {
    base += lo == 0 ? 0 : dim_offset(md, d, lo);
    if (lo == 0) {
        f = dim_factors(md, d, e);
        return true;
    }
    const auto whole = dim_factors(md, d, dim_block(md, d));
    std::vector<factor_t> in_first;
    dim_t rest = e;
    for (size_t k = whole.size(); k-- > 1 && rest > 1;) {
        const dim_t n = whole[k].n;
        if (rest <= n) {
            in_first.push_back({rest, whole[k].stride, 0});
            rest = 1;
        } else {
            if (rest % n != 0) return false;
            in_first.push_back({n, whole[k].stride, 0});
            rest /= n;
        }
    }
    if (rest > 1)
        in_first.push_back({rest, md.format_desc.blocking.strides[d], 0});
    if (in_first.empty()) in_first.push_back({1, 1, 0});
    f.assign(in_first.rbegin(), in_first.rend());
    return true;
}

} // namespace

status_t simple_plan_t::init(const memory_desc_t &src, const memory_desc_t &dst,
        const quant_conf_t &conf) {
    const int nd = src.ndims;
    sdt = src.data_type;
    ddt = dst.data_type;
    if (has_zero_dim(src)) {
        empty = true;
        return dnnl_success;
    }
    for (int d = 0; d < nd; ++d)
        if (src.padded_offsets[d] != 0 || dst.padded_offsets[d] != 0)
            return dnnl_unimplemented;

    const int cmask = conf.common_mask();
    if (cmask < 0) return dnnl_unimplemented;
    dims_t qstr = {0};
    quant_conf_t::index_strides(cmask, nd, src.dims, qstr);

    for (int d = 0; d < nd; ++d) {
        const dim_t bs = dim_block(src, d), bd = dim_block(dst, d);
        const dim_t l = bs / gcd(bs, bd) * bd;
        main[d] = src.dims[d] / l * l;
        dpad[d] = dst.padded_dims[d];
        if (main[d] == 0) return dnnl_unimplemented;
        if (main[d] < dpad[d]) need_tail = true;
    }

    if (!conf.any()) {
        qmode = qmode_t::none;
    } else if (conf.all_scalar()) {
        qmode = conf.with_sum && conf.beta != 0.f ? qmode_t::scalar_sum
                                                  : qmode_t::scalar;
    } else {
        qmode = qmode_t::indexed;
        for (int q = 0; q < q_count; ++q)
            qidx[q] = conf.with[q] && conf.mask[q] != 0;
    }

    const dims_t lo = {0};
    DNNL_CHECK(plan_box(src, dst, qstr, lo, main));
    if (need_tail) {
        zero_first = !conf.with_sum;
        if (zero_first) plan_tail_boxes(src, dst, qstr);
        // The generic loop's tables, only where it runs the tail.
        if (tail_boxes.empty()) tail.init(src, dst, conf);
        for (int k = 0; zero_first && k < nd; ++k) {
            if (dst.dims[k] == dpad[k]) continue;
            // The last block of dim k, all of every other dim.
            fill_box_t box;
            box.base = dst.offset0;
            std::vector<node_t> v;
            for (int d = 0; d < nd; ++d) {
                auto f = dim_factors(dst, d, dpad[d]);
                if (d == k) {
                    const dim_t blk = dim_block(dst, d);
                    const dim_t first = dst.dims[d] / blk;
                    box.base += first * f[0].stride;
                    f[0].n -= first;
                }
                for (const auto &x : f)
                    if (x.n > 1) v.push_back({x.n, 0, x.stride, 0});
            }
            std::sort(v.begin(), v.end(), [](const node_t &x, const node_t &y) {
                return x.os > y.os;
            });
            for (int i = (int)v.size() - 1; i >= 0; --i) {
                if (!box.nodes.empty()) {
                    node_t &in = box.nodes.back();
                    if (v[i].os == in.os * in.n) {
                        in.n *= v[i].n;
                        continue;
                    }
                }
                box.nodes.push_back(v[i]);
            }
            std::reverse(box.nodes.begin(), box.nodes.end());
            if (box.nodes.empty()) box.nodes.push_back({1, 0, 1, 0});
            zero_boxes.push_back(box);
        }
    }
    return dnnl_success;
}

// The tail as boxes of the fast kernels: each dim with a partial block
// takes either its whole blocks or the indices past them, every
// combination but the main box's. A box whose range does not split into
// factors leaves the whole tail to the generic loop.
void simple_plan_t::plan_tail_boxes(
        const memory_desc_t &src, const memory_desc_t &dst, const dim_t *qstr) {
    const int nd = src.ndims;
    int partial[DNNL_MAX_NDIMS], np = 0;
    for (int d = 0; d < nd; ++d)
        if (main[d] < src.dims[d]) partial[np++] = d;
    // More than three partial dims (seven boxes) stay with the generic
    // loop: no layout in use has them, and boxes cost creation time.
    if (np > 3) return;
    for (unsigned pick = 1; pick < (1u << np); ++pick) {
        dims_t lo, ext;
        for (int d = 0; d < nd; ++d) {
            lo[d] = 0;
            ext[d] = main[d];
        }
        for (int j = 0; j < np; ++j)
            if (pick & (1u << j)) {
                const int d = partial[j];
                lo[d] = main[d];
                ext[d] = src.dims[d] - main[d];
            }
        simple_plan_t box;
        box.sdt = sdt;
        box.ddt = ddt;
        box.qmode = qmode;
        for (int q = 0; q < q_count; ++q) box.qidx[q] = qidx[q];
        if (box.plan_box(src, dst, qstr, lo, ext) != dnnl_success) {
            tail_boxes.clear();
            return;
        }
        tail_boxes.push_back(std::move(box));
    }
}

// Nodes, kernel and work split of the positions [lo, lo + ext).
status_t simple_plan_t::plan_box(const memory_desc_t &src,
        const memory_desc_t &dst, const dim_t *qstr, const dim_t *lo,
        const dim_t *ext) {
    const int nd = src.ndims;
    std::vector<node_t> nodes;
    dim_t sbase = 0, dbase = 0;
    q0 = 0;
    for (int d = 0; d < nd; ++d) {
        std::vector<factor_t> fs, fd;
        if (!range_factors(src, d, lo[d], ext[d], fs, sbase)
                || !range_factors(dst, d, lo[d], ext[d], fd, dbase)
                || !refine_dim(fs, fd, qstr[d], nodes))
            return dnnl_unimplemented;
        q0 += lo[d] * qstr[d];
    }
    elems = 1;
    for (int d = 0; d < nd; ++d) elems *= ext[d];

    // Destination order (largest stride first); equal strides would mean
    // aliased destination positions.
    std::vector<node_t> v;
    for (const auto &n : nodes)
        if (n.n > 1) v.push_back(n);
    std::sort(v.begin(), v.end(), [](const node_t &x, const node_t &y) {
        if (x.os != y.os) return x.os > y.os;
        return x.is > y.is;
    });
    for (size_t k = 0; k < v.size(); ++k) {
        if (v[k].os == 0) return dnnl_unimplemented;
        if (k + 1 < v.size() && v[k].os == v[k + 1].os)
            return dnnl_unimplemented;
    }
    if (v.empty()) v.push_back({1, 1, 1, 0});
    // Merge neighbours that form one longer run in all strides.
    std::vector<node_t> merged;
    for (int k = (int)v.size() - 1; k >= 0; --k) {
        const node_t &o = v[k];
        if (!merged.empty()) {
            node_t &in = merged.back();
            if (o.os == in.os * in.n && o.is == in.is * in.n
                    && o.qs == in.qs * in.n) {
                in.n *= o.n;
                continue;
            }
        }
        merged.push_back(o);
    }
    std::reverse(merged.begin(), merged.end());

    s0 = src.offset0 + sbase;
    d0 = dst.offset0 + dbase;

    // Kernel choice.
    node_t last = merged.back();
    merged.pop_back();
    int kb_pos = -1;
    if (last.os == 1 && last.is != 1) {
        for (int k = (int)merged.size() - 1; k >= 0; --k)
            if (merged[k].is == 1 && merged[k].n >= 4) {
                kb_pos = k;
                break;
            }
    }
    if (kb_pos >= 0) {
        kind = kernel_kind_t::tile;
        ka = last;
        kb = merged[kb_pos];
        merged.erase(merged.begin() + kb_pos);
        const dim_t t =
                data_type_size(sdt) >= 4 && data_type_size(ddt) >= 4 ? 16 : 32;
        tile_a = std::min(t, ka.n);
        tile_b = std::min(t, kb.n);
    } else {
        kind = kernel_kind_t::linear;
        k1 = last;
        // A short innermost run takes the next loop into the kernel.
        if (k1.n < 256 && !merged.empty()) {
            // Next to a short run contiguous on both sides, the kernel takes
            // the loop that continues the source run when the tensor is
            // beyond the caches: the source is then read in long runs and
            // each destination run is still one whole line (nhwc ->
            // nChw16c read 64 bytes of every 1 KB pixel per plane: 11.0 ms
            // -> 4.7 for 32x256x56x56; in cache the destination order's
            // longer kernel loops are faster).
            size_t at = merged.size() - 1;
            const size_t big = (size_t)elems * std::max(data_type_size(sdt), data_type_size(ddt));
            if (k1.is == 1 && k1.os == 1 && big >= stream_min_bytes)
                for (size_t k = 0; k < merged.size(); ++k)
                    if (merged[k].is == k1.n) at = k;
            k2 = merged[at];
            merged.erase(merged.begin() + at);
            if (k1.n * k2.n < 256 && !merged.empty()) {
                k3 = merged.back();
                merged.pop_back();
            }
        }
    }
    outer = merged;

    // Work items of the linear kernel: split k2 (or k1) into chunks when
    // the outer loops are too short to share among threads.
    if (kind == kernel_kind_t::linear) {
        dim_t w = 1;
        for (const auto &n : outer) w *= n.n;
        const dim_t want = 64; // items enough for any thread count here
        if (k2.n > 1) {
            const node_t &ko = k3.n > 1 ? k3 : k2;
            const dim_t step = k3.n > 1 ? k1.n * k2.n : k1.n;
            chunk = ko.n;
            if (w < want) {
                const dim_t parts = (want + w - 1) / w;
                chunk = (ko.n + parts - 1) / parts;
                const dim_t min_steps = (1024 + step - 1) / step;
                chunk = std::min(ko.n, std::max(chunk, min_steps));
            }
        } else {
            chunk = k1.n;
            if (w < want && k1.n > 8192) {
                const dim_t parts = (want + w - 1) / w;
                chunk = (k1.n + parts - 1) / parts;
                if (chunk < 4096) chunk = 4096;
                chunk = (chunk + 63) / 64 * 64;
            }
        }
    }

    // Streaming needs destination runs of whole 64-byte lines: tiles of
    // 4-byte elements whose rows start on lines, conversions through
    // tiles (rows of tile_a), contiguous linear runs of at least a line.
    const size_t dsz = data_type_size(ddt);
    const bool lines =
            kind == kernel_kind_t::tile
                    ? (size_t)tile_a * dsz >= 64
                              && (sdt != ddt ? true
                                             : dsz == 4
                                                       && (size_t)kb.os * dsz
                                                                          % 64
                                                                  == 0)
                    : k1.os == 1 && k1.is == 1 && (size_t)k1.n * dsz >= 64;
    stream_dst = (qmode == qmode_t::none || qmode == qmode_t::scalar) && lines
                 && (size_t)elems * dsz >= stream_min_bytes;

    return dnnl_success;
}

// The kernel's operation: copy / cvt (one contiguous run, same or other
// type), strided (linear loops), transpose (tiles); the caller adds data
// types, tile, quantization and ISA (simple_reorder.cpp).
const char *simple_plan_t::impl_name() const {
    if (empty) return "any";
    if (kind == kernel_kind_t::tile) return "transpose";
    if (outer.empty() && k2.n == 1 && k3.n == 1 && k1.is == 1 && k1.os == 1
            && !need_tail)
        return sdt == ddt && qmode == qmode_t::none ? "copy" : "cvt";
    return "strided";
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
