// Pooling on the gpu engine: checks, configuration, kernel specialisation
// and launch.
#include "gpu/ocl/pooling/pooling.hpp"

#include <algorithm>
#include <numeric>

#include "common/binary_pd.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_nest.hpp"
#include "gpu/ocl/ocl_types.hpp"
#include "gpu/ocl/ocl_unit_plan.hpp"
#include "gpu/ocl/ocl_walk.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

bool is_int(data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8 || dt == dnnl_s32;
}
bool is_float(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

// The destination types a forward source type may pool into (those of
// oneDNN's OpenCL pooling; mixed types only for inference).
bool fwd_pair_ok(data_type_t s, data_type_t d) {
    switch (s) {
    case dnnl_f32:
        return d == dnnl_f32 || d == dnnl_s8 || d == dnnl_u8;
    case dnnl_f16:
        return d == dnnl_f16 || d == dnnl_s8 || d == dnnl_u8;
    case dnnl_bf16:
        return d == dnnl_bf16;
    case dnnl_s8:
    case dnnl_u8:
        return d == dnnl_s8 || d == dnnl_u8 || d == dnnl_f16 || d == dnnl_f32;
    case dnnl_s32:
        return d == dnnl_s32;
    case dnnl_f64:
        return d == dnnl_f64;
    default:
        return false;
    }
}

int alg_code(alg_kind_t alg) {
    return alg == dnnl_pooling_max                   ? 0
           : alg == dnnl_pooling_avg_include_padding ? 1
                                                     : 2;
}

bool same_blocking(const memory_desc_t &a, const memory_desc_t &b) {
    const blocking_desc_t &x = a.format_desc.blocking,
                          &y = b.format_desc.blocking;
    if (a.ndims != b.ndims || x.inner_nblks != y.inner_nblks) return false;
    for (int d = 0; d < a.ndims; ++d)
        if (a.padded_dims[d] != b.padded_dims[d]
                || x.strides[d] != y.strides[d])
            return false;
    for (int k = 0; k < x.inner_nblks; ++k)
        if (x.inner_blks[k] != y.inner_blks[k]
                || x.inner_idxs[k] != y.inner_idxs[k])
            return false;
    return true;
}

// Dense in n, c, d, h, w order (nchw) or n, d, h, w, c (channels last),
// 5D views (as_5d); the strides of dims of size 1 (those as_5d inserts)
// do not matter.
const int nchw_order[5] = {0, 1, 2, 3, 4}, nhwc_order[5] = {0, 2, 3, 4, 1};

bool dense_in(const memory_desc_t &m, const int (&order)[5]) {
    const blocking_desc_t &b = m.format_desc.blocking;
    if (b.inner_nblks != 0) return false;
    int64_t expect = 1;
    for (int i = 4; i >= 0; --i) {
        const int d = order[i];
        if (m.padded_dims[d] != m.dims[d]
                || (m.dims[d] > 1 && b.strides[d] != expect))
            return false;
        expect *= m.dims[d];
    }
    return true;
}

bool all_dense(const int (&order)[5], const memory_desc_t &a,
        const memory_desc_t &b, const memory_desc_t &c) {
    return dense_in(a, order) && dense_in(b, order) && dense_in(c, order);
}

} // namespace

status_t ocl_pooling_t::pd_t::check_data_types() const {
    if (is_fwd()) {
        const data_type_t s = src_md_.data_type, d = dst_md_.data_type;
        if (!fwd_pair_ok(s, d)) {
            verbose_check("pooling", "gpu: src %s with dst %s", dnnl_dt2str(s),
                    dnnl_dt2str(d));
            return dnnl_unimplemented;
        }
        const bool training = desc()->prop_kind == dnnl_forward_training;
        if (training && (is_int(s) || s != d)) {
            verbose_check("pooling",
                    "gpu: integer or mixed data types only for inference");
            return dnnl_unimplemented;
        }
        return dnnl_success;
    }
    const data_type_t s = diff_src_md_.data_type, d = diff_dst_md_.data_type;
    if (!(is_float(s) || s == dnnl_f64) || s != d) {
        verbose_check("pooling",
                "gpu: backward takes one type of f32, bf16, f16 or f64");
        return dnnl_unimplemented;
    }
    return dnnl_success;
}

status_t ocl_pooling_t::pd_t::init(engine_t *engine) {
    const primitive_attr_t &a = *attr();
    if (!a.scales.empty() || !a.zero_points.empty() || !a.rounding_modes.empty()
            || (!is_fwd() && !a.post_ops.entries.empty())) {
        verbose_check("pooling", "gpu: only forward post-ops are supported");
        return dnnl_unimplemented;
    }
    const int nd = is_fwd() ? src_md_.ndims : diff_src_md_.ndims;
    if (nd < 3 || nd > 5) {
        verbose_check("pooling", "gpu: 1 to 3 spatial dims");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(init_formats());
    DNNL_CHECK(check_data_types());
    const memory_desc_t &data = is_fwd() ? src_md_ : diff_src_md_;
    if (!f64_supported(engine, "pooling", {&data})) return dnnl_unimplemented;
    if (data.data_type == dnnl_f64 && !a.post_ops.entries.empty()) {
        verbose_check("pooling", "gpu: post-ops with f64 data");
        return dnnl_unimplemented;
    }
    const memory_desc_t *mds[] = {is_fwd() ? &src_md_ : &diff_src_md_,
            is_fwd() ? &dst_md_ : &diff_dst_md_, &ws_md_};
    for (const memory_desc_t *md : mds) {
        if (md == &ws_md_ && !has_ws()) continue;
        if (!layout_supported(*md)) {
            verbose_check("pooling", "gpu: layout not supported");
            return dnnl_unimplemented;
        }
    }
    if (has_ws() && ws_md_.data_type != dnnl_u8
            && ws_md_.data_type != dnnl_s32) {
        verbose_check("pooling", "gpu: workspace of u8 or s32 indices only");
        return dnnl_unimplemented;
    }
    if (is_fwd()) DNNL_CHECK(post_ops.init(a.post_ops, dst_md_, "pooling"));
    init_conf(device_info_of(engine));
    return dnnl_success;
}

void ocl_pooling_t::pd_t::init_conf(const device_info_t &dev) {
    const memory_desc_t s = as_5d(is_fwd() ? src_md_ : diff_src_md_);
    const memory_desc_t d = as_5d(is_fwd() ? dst_md_ : diff_dst_md_);
    const memory_desc_t w = has_ws() ? as_5d(ws_md_) : zero_md();
    const memory_desc_t &out = is_fwd() ? d : s; // the written tensor
    std::vector<const memory_desc_t *> all = {&s, &d};
    if (has_ws()) all.push_back(&w);

    generic = false;
    for (const memory_desc_t *m : all)
        generic = generic || !fast_offsets_ok(*m) || !spatial_unblocked(*m);

    // Channels as vector lanes (exact s32 maxima and f64 are scalar: the
    // vector loads convert to float).
    const bool scalar = s.data_type == dnnl_s32 || s.data_type == dnnl_f64;
    vec = generic || scalar ? 1 : channel_lanes(out, all);
    // Else, forward over layouts whose rows are contiguous (nchw):
    // consecutive outputs along w as the lanes. Two, measured on the H100
    // (3x3 stride-2 max over 56x56 planes: 0.187 ms with one output per
    // work-item, 0.135 with two, 0.172 with four or eight).
    lane_dim = 1;
    int in_dim = 0;
    dim_t in_ext = 0, in_step = 0;
    walk_innermost(out, in_dim, in_ext, in_step);
    // Backward likewise writes up to eight diff_src elements along w a
    // work-item: their index arithmetic and the diff_dst (and workspace)
    // values their windows share are done once (H200, 3x3 stride-2 max
    // over 56x56 planes: 1.43 ms with one element a work-item, 0.38 with
    // four, 0.29 with eight).
    if (vec == 1 && !generic && !scalar && in_dim == 4 && in_step == 1) {
        // The tensors written as vectors: dst (and the workspace), or
        // diff_src (backward reads diff_dst and the workspace as scalars).
        std::vector<const memory_desc_t *> written = {is_fwd() ? &d : &s};
        if (is_fwd() && has_ws()) written.push_back(&w);
        vec = pick_vec(is_fwd() ? 2 : 8, [&](int v) {
            if (in_ext % v != 0) return false;
            for (const memory_desc_t *m : written)
                if (!lanes_contiguous(*m, 4, v)) return false;
            return true;
        });
        if (vec > 1) lane_dim = 4;
    }

    const pooling_desc_t &pd = *desc();
    const int shift = 3 - nsp();
    int64_t k[3], st[3], step[3], pad[3];
    for (int i = 0; i < 3; ++i) {
        const int j = i - shift; // index into the descriptor, < 0 if absent
        k[i] = j < 0 ? 1 : pd.kernel[j];
        st[i] = j < 0 ? 1 : pd.strides[j];
        step[i] = j < 0 ? 1 : pd.dilation[j] + 1;
        pad[i] = j < 0 ? 0 : pd.padding_l[j];
    }
    // Forward windows of up to 8 x 8 over at most two spatial dims get
    // their size compiled in (pool_fwd then unrolls every tap).
    unroll = is_fwd() && !generic && nsp() <= 2 && k[1] <= 8 && k[2] <= 8;
    window_h = unroll ? k[1] : 0;
    window_w = unroll ? k[2] : 0;
    init_row_chunks(
            s, all, in_dim, in_ext, in_step, k[2], st[2], step[2], pad[2]);

    walk_t walk;
    make_walk(out, walk, vec);
    work = layout::has_zero_dim(out) ? 0 : walk.volume;
    int32 = !generic && walk.volume * vec < ((int64_t)1 << 31);
    for (const memory_desc_t *m : all) int32 = int32 && offsets_fit_int32(*m);
    out_dense = walk_dense(out);
    ws_dense = is_fwd() && has_ws() && out_dense && walk_dense(w)
               && same_blocking(w, d);

    conf_t c;
    c.put(walk).put_tensor(s, generic).put_tensor(d, generic);
    if (has_ws())
        c.put_tensor(w, generic);
    else
        c.put_no_tensor(generic);
    for (int i = 0; i < walk_ndims; ++i) c.put(i < 5 ? out.dims[i] : 1);
    for (int i = 0; i < 3; ++i) c.put(s.dims[2 + i]);
    for (int i = 0; i < 3; ++i) c.put(d.dims[2 + i]);
    for (const int64_t *v : {k, st, step, pad})
        for (int i = 0; i < 3; ++i) c.put(v[i]);
    int64_t smagic[3], sshift[3];
    for (int i = 0; i < 3; ++i) int32_divider(st[i], smagic[i], sshift[i]);
    for (const int64_t *v : {smagic, sshift})
        for (int i = 0; i < 3; ++i) c.put(v[i]);
    for (int64_t v : init_tiles(dev, s, k, st, step)) c.put(v);
    conf = c.values();
    init_phased(s, k, st, step, pad);
}

// Backward over dense nchw-like tensors without dilation by
// pool_bwd_phased: windows of up to 64 taps whose diff_dst values a block
// needs fit 32 registers, and a 32-bit work-item index.
// ONEDNN_OCL_POOL_PHASED=0 turns it off (the tiles or the gather run).
void ocl_pooling_t::pd_t::init_phased(const memory_desc_t &s, const int64_t *k,
        const int64_t *st, const int64_t *step, const int64_t *pad) {
    constexpr int64_t max_values = 32;
    phased = false;
    if (is_fwd() || generic || work == 0 || s.data_type == dnnl_f64
            || getenv_string("ONEDNN_OCL_POOL_PHASED") == "0")
        return;
    const memory_desc_t dd = as_5d(diff_dst_md_);
    const memory_desc_t wd = has_ws() ? as_5d(ws_md_) : dd;
    if (!all_dense(nchw_order, s, dd, wd)) return;
    // Blocks along w of the fewest elements that are a multiple of the
    // stride and of 16 bytes of diff_src, or of fewer bytes where that
    // does not divide the row (H200, 3x3 stride-2 max over 64 x 256 x 56
    // x 56, f32: blocks of 16 elements 0.140 ms, 8 0.115, 4 0.083, 2
    // 0.104; bf16: 8 0.077, 4 0.097; stride 1: 8 0.27, 4 0.24, 2 0.32;
    // 32 x 512 x 14 x 14: 2 0.015, the tiles 0.020).
    const int64_t elem = (int64_t)data_type_size(s.data_type);
    for (int64_t target = 16 / elem;; target /= 2) {
        ph_v = target / std::gcd(st[2], target);
        if (target == 1 || s.dims[4] % (st[2] * ph_v) == 0) break;
    }
    int64_t values = 1, kvol = 1, items = s.dims[0] * s.dims[1];
    for (int i = 0; i < 3; ++i) {
        if (step[i] != 1 || k[i] > 255 || st[i] > 255 || pad[i] > 255) return;
        const int64_t v = i == 2 ? ph_v : 1, elems = st[i] * v;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (int64_t j = 0; j < elems; ++j) {
            const int64_t q = (j + pad[i]) / st[i], r = (j + pad[i]) % st[i];
            for (int64_t t = 0; st[i] * t + r < k[i]; ++t) {
                lo = std::min(lo, q - t);
                hi = std::max(hi, q - t);
            }
        }
        if (lo > hi) lo = hi = 0; // no element has a window
        ph_t[i][0] = lo;
        ph_t[i][1] = hi;
        ph_window[i][0] = k[i];
        ph_window[i][1] = st[i];
        ph_window[i][2] = pad[i];
        values *= hi - lo + 1;
        kvol *= k[i];
        ph_blocks[i] = div_up(s.dims[2 + i], elems);
        items *= ph_blocks[i];
    }
    if (values > max_values || kvol > 64 || items >= ((int64_t)1 << 31)) return;
    // Stores of ph_vec elements: dividing the block's row and the row,
    // from an aligned diff_src.
    const int64_t cw = st[2] * ph_v;
    ph_vec = 8;
    while (ph_vec > 1
            && (cw % ph_vec != 0 || s.dims[4] % ph_vec != 0
                    || s.offset0 % ph_vec != 0))
        ph_vec /= 2;
    // Rows that take single stores (odd widths) keep the tiles where they
    // apply: not measured against them.
    if (ph_vec == 1 && tiles != 0) return;
    ph_items = items;
    ph_offsets[0] = s.offset0;
    ph_offsets[1] = dd.offset0;
    ph_offsets[2] = has_ws() ? ws_md_.offset0 : 0;
    for (int i = 0; i < 3; ++i) {
        ph_dims[i] = s.dims[2 + i];
        ph_dims[3 + i] = dd.dims[2 + i];
        int32_divider(ph_blocks[i], ph_div[i][0], ph_div[i][1]);
    }
    phased = true;
    tiles = 0;
}

// Backward over dense tensors in tiles held in local memory
// (pool_bwd_tiles): nchw-like (whole planes, as many as the local memory
// holds, or one plane's rows of the tile dim: d for 3D, else h) or
// channels last (up to 32 channels of one image, rows of the tile dim),
// diff_dst and the workspace dense in diff_src's order. Windows of at most
// 64 taps in at most 32 phases: a larger window scatters each value to
// more elements than the gather reads (global pooling would leave one
// lane of a group working), and every phase is a barrier.
std::vector<int64_t> ocl_pooling_t::pd_t::init_tiles(const device_info_t &dev,
        const memory_desc_t &s, const int64_t *k, const int64_t *st,
        const int64_t *step) {
    // Local memory a group may take: on the H200 (48 KB a group at most)
    // 16 KB ran 3x slower than 48 KB, 32 KB 1.5x (whole planes a group
    // amortise its barriers and loads); and 16 channels a group, channels
    // last, ran within 3% of 32 at 48 KB and faster with less.
    constexpr int64_t max_local_bytes = 48 * 1024;
    constexpr int max_channel_bits = 4;
    constexpr size_t fields = 19;
    tiles = 0;
    const std::vector<int64_t> none(fields, 0);
    if (is_fwd() || generic || work == 0 || s.data_type == dnnl_f64)
        return none; // the tiles hold floats
    const memory_desc_t dd = as_5d(diff_dst_md_);
    const memory_desc_t wd = has_ws() ? as_5d(ws_md_) : dd;
    const int kind = all_dense(nchw_order, s, dd, wd)   ? 1
                     : all_dense(nhwc_order, s, dd, wd) ? 2
                                                        : 0;
    if (kind == 0) return none;

    const int64_t *in = s.dims + 2, *out = dd.dims + 2;
    int64_t phases[3], kvol = 1, nph = 1;
    for (int i = 0; i < 3; ++i) {
        const int64_t ext = (k[i] - 1) * step[i] + 1;
        phases[i] = std::max<int64_t>(
                1, std::min((ext + st[i] - 1) / st[i], out[i]));
        kvol *= k[i];
        nph *= phases[i];
    }
    // Channels-last tiles were measured faster than the gather for max
    // pooling only (H200, 3x3 stride 2 over 56x56: max 0.30 -> 0.25 ms,
    // avg 0.32 -> 0.33), and both kinds only up to 8 phases (stride 1,
    // 9 phases: nchw even, channels last 0.50 -> 0.72 ms).
    if (kvol > 64 || nph > 8) return none;
    if (kind == 2 && desc()->alg_kind != dnnl_pooling_max) return none;

    const int64_t lanes = (int64_t)unit_group_limit(dev, 0);
    const int64_t budget
            = std::min<int64_t>(max_local_bytes, (int64_t)dev.local_mem_size);
    int cbits = 0; // channels a group takes, channels last
    if (kind == 2)
        while (cbits < max_channel_bits && ((int64_t)1 << cbits) < s.dims[1]
                && ((int64_t)2 << cbits) <= lanes)
            ++cbits;
    const int64_t cblock = (int64_t)1 << cbits;
    // The tile dim: d where there is one (the staged outputs of a row of
    // the tile dim are then contiguous), else h.
    tile_dim = in[0] > 1 || out[0] > 1 ? 0 : 1;
    const int64_t rows = in[tile_dim];
    const int64_t inner = tile_dim == 0 ? in[1] * in[2] : in[2];
    const int64_t out_inner = tile_dim == 0 ? out[1] * out[2] : out[2];
    const int64_t plane = in[0] * in[1] * in[2];
    const int64_t out_plane = out[0] * out[1] * out[2];
    // A group's local memory: its tiles of `tile_rows` rows and the staged
    // outputs (a float and, for max, a byte of the workspace each).
    const int64_t staged_bytes = has_ws() ? 5 : 4;
    const int kt = tile_dim; // the tile dim in k, st and step
    const int jt = kt - (3 - nsp()); // and in the descriptor (< 0: absent)
    const int64_t pad_t = jt < 0 ? 0 : desc()->padding_l[jt];
    auto out_rows = [&](int64_t r0, int64_t r1) { // outputs reaching [r0, r1)
        const int64_t f = r0 + pad_t - (k[kt] - 1) * step[kt];
        const int64_t lo = f <= 0 ? 0 : (f + st[kt] - 1) / st[kt];
        const int64_t hi = std::min((r1 - 1 + pad_t) / st[kt], out[kt] - 1);
        return std::max<int64_t>(hi - lo + 1, 0);
    };
    auto staged_of = [&](int64_t tile_rows) { // outputs a group stages
        if (tile_rows >= rows) return out_plane; // whole planes: all
        int64_t most = 0;
        for (int64_t r = 0; r < rows; r += tile_rows)
            most = std::max(most,
                    out_rows(r, std::min(r + tile_rows, rows)) * out_inner);
        return most;
    };
    auto bytes_of = [&](int64_t group_planes, int64_t tile_rows) {
        return group_planes
                * (tile_rows * inner * 4 + staged_of(tile_rows) * staged_bytes);
    };
    const int64_t planes = s.dims[0] * s.dims[1];
    int64_t per_group = 1, tile_rows = rows, blocks = 0;
    if (kind == 1 && bytes_of(1, rows) <= budget) {
        per_group = std::min({budget / bytes_of(1, rows), lanes, planes});
        blocks = div_up(planes, per_group);
    } else {
        const int64_t group_planes = kind == 1 ? 1 : cblock;
        while (tile_rows > 0 && bytes_of(group_planes, tile_rows) > budget)
            --tile_rows;
        if (tile_rows == 0) return none;
        tile_rows = div_up(rows, div_up(rows, tile_rows)); // even tiles
        blocks = kind == 1 ? planes : s.dims[0] * div_up(s.dims[1], cblock);
    }
    const int64_t tile_count = div_up(rows, tile_rows);
    int64_t wbits = 0; // lanes along w: enough for a phase's outputs
    while (((int64_t)2 << (wbits + cbits)) <= lanes
            && ((int64_t)1 << wbits) < div_up(out[2], phases[2]))
        ++wbits;
    int64_t kmagic[2], kshift[2];
    int32_divider(k[2], kmagic[0], kshift[0]);
    int32_divider(k[1], kmagic[1], kshift[1]);

    tiles = kind;
    tile_lanes = lanes;
    const int64_t group_planes = kind == 1 ? per_group : cblock;
    tile_local = group_planes * tile_rows * inner;
    tile_staged = group_planes * staged_of(tile_rows);
    tile_groups = blocks * tile_count;
    return {planes, s.dims[1], per_group, tile_rows, tile_count, tile_dim,
            inner, plane, phases[0], phases[1], phases[2], wbits, cbits,
            out_inner, out_plane, kmagic[0], kmagic[1], kshift[0], kshift[1]};
}

// Forward over nchw-like rows with a compiled-in window: four outputs
// along w per work-item whose source taps come from aligned 4-wide chunks
// of each source row (one wide load per chunk instead of a load per tap;
// the taps are then picked from registers at indices known when the
// kernel is compiled, which is why stride, dilation and the padding's
// phase along w are compiled in too). Needs every row and every other
// stride a multiple of four elements, and four outputs dividing the row.
void ocl_pooling_t::pd_t::init_row_chunks(const memory_desc_t &s,
        const std::vector<const memory_desc_t *> &all, int in_dim,
        int64_t in_ext, int64_t in_step, int64_t kw, int64_t sw, int64_t dw,
        int64_t pw) {
    constexpr int v = 4;
    row_chunks = 0;
    if (!unroll || in_dim != 4 || in_step != 1 || s.data_type == dnnl_s32
            || s.data_type == dnnl_f64
            || in_ext % v != 0 || s.padded_dims[4] % v != 0)
        return;
    for (const memory_desc_t *m : all)
        if (!lanes_contiguous(*m, 4, v)) return;
    const int64_t cp = (pw + v - 1) / v; // chunks before the first output
    const int64_t phase = v * cp - pw;
    const int64_t span = phase + (v - 1) * sw + (kw - 1) * dw + 1;
    const int64_t chunks = (span + v - 1) / v;
    if (chunks > 8) return; // registers: at most 32 values of a row
    row_chunks = chunks;
    row_lead = cp;
    row_phase = phase;
    row_stride = sw;
    row_step = dw;
    vec = v;
    lane_dim = 4;
}

status_t ocl_pooling_t::init(engine_t *engine) {
    const pd_t *pd = pd_();
    kernel_options_t opts;
    opts.define("IS_FWD", pd->is_fwd() ? 1 : 0);
    opts.define("ALG", alg_code(pd->desc()->alg_kind));
    opts.define("VEC", pd->phased ? pd->ph_vec : pd->vec);
    opts.define("LANE_DIM", pd->lane_dim);
    opts.define("POOL_KH", pd->window_h);
    opts.define("POOL_KW", pd->window_w);
    opts.define("ROW_CHUNKS", pd->row_chunks);
    if (pd->row_chunks) {
        opts.define("ROW_LEAD", pd->row_lead);
        opts.define("ROW_PHASE", pd->row_phase);
        opts.define("ROW_STRIDE", pd->row_stride);
        opts.define("ROW_STEP", pd->row_step);
    }
    opts.define("OUT_DENSE", pd->out_dense ? 1 : 0);
    opts.define("WS_DENSE", pd->ws_dense ? 1 : 0);
    opts.define("WITH_WS", pd->has_ws() ? 1 : 0);
    opts.define("POOL_TILES", pd->tiles);
    opts.define("POOL_PHASED", pd->phased ? 1 : 0);
    if (pd->phased) {
        const char *dn = "DHW";
        for (int i = 0; i < 3; ++i) {
            const std::string x(1, dn[i]);
            opts.define(("PH_K" + x).c_str(), pd->ph_window[i][0]);
            opts.define(("PH_S" + x).c_str(), pd->ph_window[i][1]);
            opts.define(("PH_P" + x).c_str(), pd->ph_window[i][2]);
            opts.define(("PH_T" + x + "_LO").c_str(), pd->ph_t[i][0]);
            opts.define(("PH_T" + x + "_HI").c_str(), pd->ph_t[i][1]);
        }
        opts.define("PH_V", pd->ph_v);
    }
    opts.define("TILE_DIM", pd->tile_dim);
    define_walk(opts, pd->generic, pd->int32);
    define_data_type(
            opts, "WS", pd->has_ws() ? pd->ws_md()->data_type : dnnl_u8);
    if (pd->is_fwd()) {
        define_data_type(opts, "SRC", pd->src_md()->data_type);
        define_data_type(opts, "DST", pd->dst_md()->data_type);
        pd->post_ops.define(opts);
        opts.define("WITH_SUM", pd->post_ops.has_sum() ? 1 : 0);
        opts.define("PO_NDIMS",
                pd->post_ops.count() ? (int64_t)pd->dst_md()->ndims : 5);
    } else {
        define_data_type(opts, "DIFF_SRC", pd->diff_src_md()->data_type);
        define_data_type(opts, "DIFF_DST", pd->diff_dst_md()->data_type);
    }
    // Forward rows of small windows without a workspace or post-ops
    // (H200, 64 x 256 x 56 x 56, 3x3 stride 2, nchw: max 0.087-0.090 ->
    // 0.084-0.085 ms, avg 0.099-0.100 -> 0.092 with 48 registers a lane);
    // larger windows hold more values a lane and keep the compiler's
    // choice.
    if (pd->is_fwd() && pd->row_chunks > 0 && pd->row_chunks * pd->window_h <= 9
            && !pd->has_ws() && pd->post_ops.count() == 0)
        cap_registers_on_nvidia(opts, device_info_of(engine), 48);
    // Max pooling's other forward kernel (channels-last and blocked
    // layouts) ran faster with the limit at 255 than with the compiler's
    // default (H200, nhwc 3x3 s2: inference 0.083-0.085 -> 0.077-0.080
    // ms, training 0.099 -> 0.091; avg pooling went 0.083 -> 0.091 and
    // keeps the default); its groups of 256 lanes fit any count up to 255.
    if (pd->is_fwd() && pd->row_chunks == 0
            && pd->desc()->alg_kind == dnnl_pooling_max)
        cap_registers_on_nvidia(opts, device_info_of(engine), 255);
    // Backward tiles with 40 registers a lane (H200, max 3x3 stride 2 over
    // 56x56 nchw: 0.209 ms with the compiler's choice, 0.188 with 32,
    // 0.182 with 40 or 64; avg 0.294, 0.280, 0.273, 0.253).
    if (pd->tiles) cap_registers_on_nvidia(opts, device_info_of(engine), 40);
    DNNL_CHECK(conf_.create(engine, pd->conf));
    return create_kernel(engine, "pooling/pooling.cl", opts,
            pd->is_fwd() ? "pool_fwd"
            : pd->phased ? "pool_bwd_phased"
            : pd->tiles  ? "pool_bwd_tiles"
                         : "pool_bwd",
            kernel_);
}

status_t ocl_pooling_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->work == 0) return dnnl_success;
    kernel_args_t args;
    const cl_mem ws = pd->has_ws() ? mem_of(ctx, DNNL_ARG_WORKSPACE) : nullptr;
    if (pd->has_ws() && !ws) return dnnl_invalid_arguments;
    if (pd->is_fwd()) {
        // A source without elements (a spatial dim of 0: every window lies
        // in the padding, so the kernel reads none) may come without a
        // buffer; dst's stands in for it.
        const cl_mem dst = mem_of(ctx, DNNL_ARG_DST);
        cl_mem src = mem_of(ctx, DNNL_ARG_SRC);
        if (!src && md_nelems(*pd->src_md()) == 0) src = dst;
        if (!src || !dst) {
            verbose_error("pooling", "src or dst has no gpu buffer");
            return dnnl_invalid_arguments;
        }
        args.mem(src)
                .mem(dst)
                .mem(ws)
                .mem(conf_.mem());
        pd->post_ops.set_args(args, ctx);
    } else {
        args.mem(mem_of(ctx, DNNL_ARG_DIFF_SRC))
                .mem(mem_of(ctx, DNNL_ARG_DIFF_DST))
                .mem(ws);
        if (pd->phased) return execute_phased(ctx, args);
        args.mem(conf_.mem());
        if (pd->tiles) {
            // The tile's floats, the staged diff_dst values and workspace
            // indices.
            args.local((size_t)pd->tile_local * sizeof(float))
                    .local((size_t)pd->tile_staged * sizeof(float))
                    .local(pd->has_ws() ? (size_t)pd->tile_staged : 1);
            const size_t lanes = (size_t)pd->tile_lanes;
            return kernel_.enqueue(ctx,
                    nd_range_t({(size_t)pd->tile_groups * lanes}, {lanes}),
                    args);
        }
    }
    return kernel_.enqueue(
            ctx, nd_range_t({(size_t)pd->work}, {(size_t)256}), args);
}

// pool_bwd_phased's launch after its tensors: the arguments init_phased
// prepared (offsets, dims, blocks and their dividers).
status_t ocl_pooling_t::execute_phased(
        const exec_ctx_t &ctx, kernel_args_t &args) const {
    const pd_t *pd = pd_();
    for (int64_t off : pd->ph_offsets) args.i64(off);
    for (int64_t v : pd->ph_dims) args.i32((int)v);
    for (int i : {2, 1, 0}) args.i32((int)pd->ph_blocks[i]);
    args.i32((int)pd->ph_items);
    for (int i : {2, 1, 0}) args.i64(pd->ph_div[i][0]).i64(pd->ph_div[i][1]);
    return kernel_.enqueue(ctx,
            nd_range_t(
                    {(size_t)div_up(pd->ph_items, (int64_t)256) * 256}, {256}),
            args);
}

const impl_list_item_t *pooling_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_pooling_t::pd_t, pooling_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
