// Forward resampling kernels: row-wise for nchw-like layouts, vector-wise
// for nhwc-like and channel-blocked ones. Values are computed in f32,
// post-ops applied on the f32 row, then stored in dst's data type.
#include <cstring>
#include <memory>
#include <vector>

#include "common/float_convert.hpp"
#include "cpu/resampling/resampling.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {

namespace {

// Logical dst coordinate of (n, c, od, oh, ow) for `nd` dims.
void fill_pos(
        dim_t *pos, int nd, dim_t n, dim_t c, dim_t od, dim_t oh, dim_t ow) {
    const dim_t sp[3] = {od, oh, ow};
    pos[0] = n, pos[1] = c;
    for (int i = 2; i < nd; ++i) pos[i] = sp[3 - (nd - 2) + (i - 2)];
}

// The old dst element at `pos` for the sum post-op (see fwd_args_t) and
// its steps along dims row_dim / col_dim (row_dim < 0: none); null when
// the sum reads dst itself.
const void *old_at(const fwd_args_t &a, const dim_t *pos, int row_dim,
        int col_dim, dim_t &rs, dim_t &cs) {
    rs = 0;
    cs = 1;
    if (!a.old_base) return nullptr;
    const memory_desc_t &md = *a.old_md;
    if (row_dim >= 0) rs = md.format_desc.blocking.strides[row_dim];
    cs = md.format_desc.blocking.strides[col_dim];
    return static_cast<const char *>(a.old_base)
           + md_off_v(md, pos) * (dim_t)data_type_size(md.data_type);
}

} // namespace

void fwd_ncsp(const geom_t &g, const fwd_args_t &a) {
    const taps_t &td = g.t[0], &th = g.t[1], &tw = g.t[2];
    const dim_t IH = th.in, IW = tw.in, OD = td.out, OH = th.out, OW = tw.out;
    const dim_t rows = g.N * g.C * OD * OH;
    const tensor_t &src = a.src, &dst = a.dst;
    const bool src_f32 = src.dt == dnnl_f32;
    const kernel_table_t &ker = *g.ker;
    const dim_t *wi0 = tw.i0.data(), *wi1 = tw.i1.data();
    const float *ww0 = tw.w0.data(), *ww1 = tw.w1.data();
    // Post-ops run on blocks of consecutive rows of one (n, c, od) plane
    // (up to 4096 values), one call for the block: a call costs about as
    // much as a short row (19 x 9 x 4 outputs with a per-channel add:
    // 7.5 -> 4.5 us).
    const bool po = !a.po->empty();
    const dim_t blk =
            po ? std::max<dim_t>(1, std::min<dim_t>(OH, 4096 / OW)) : 1;
    // Rows under 64 points go a plane (n, c, od) at a time, one kernel
    // call for its OH rows: per row, the index arithmetic and a call cost
    // more than the row (nearest 19 x 5 x 6 -> 9 x 4: 4.3 -> 1.0 us;
    // linear 2 x 4 x 5 x 5 -> 10 x 10: 4.4 -> 1.6 on one AVX2 core;
    // 8 x 64 x 14 x 14 -> 28 x 28 on two: linear 632 -> 278 us, nearest
    // 108 -> 57, 28 -> 56 nearest 236 -> 99). Linear 3D keeps the rows
    // (its taps along d).
    const bool planes = OH * OW <= 4096 && OW < 64 && (!g.linear || g.nd <= 4);
    const dim_t unit = planes ? OH : 1; // rows of a work item
    const bool direct = !po && dst.dt == dnnl_f32;
    parallel_chunks(g.team(), rows / unit, [&](int, dim_t u0, dim_t u1) {
        const dim_t r0 = u0 * unit, r1 = u1 * unit;
        // Work buffers, written before they are read (not zeroed).
        auto buffer = [](dim_t n) {
            return std::unique_ptr<float[]>(n ? new float[(size_t)n] : nullptr);
        };
        const auto tmp = buffer(g.linear && !planes ? IW : 0);
        const auto cv = buffer(src_f32 ? 0 : planes ? IH * IW : IW);
        const auto out = buffer(direct ? 0 : planes ? OH * OW : blk * OW);
        float *t = tmp.get();
        dim_t first = 0, pending = 0; // rows in `out`, not yet stored
        auto flush = [&]() {
            const dim_t oh = first % OH, od = (first / OH) % OD,
                        nc = first / (OH * OD);
            const dim_t n = nc / g.C, c = nc % g.C;
            char *d = dst.at(n, c, (od * OH + oh) * OW);
            if (po) {
                dims_t pos;
                fill_pos(pos, g.nd, n, c, od, oh, 0);
                // Rows step along h (nd >= 4; 1D blocks are one row).
                const int row_dim = g.nd >= 4 ? g.nd - 2 : -1;
                dim_t rs, cs;
                const void *old = old_at(a, pos, row_dim, g.nd - 1, rs, cs);
                if (!old) rs = OW; // dst's own rows, contiguous in a plane
                postops::apply(*a.po, *a.po_args, out.get(), OW, pending, OW,
                        pos, row_dim, g.nd - 1, old ? old : d, rs, cs);
            }
            // The rows follow one another in dst's dense plane: one call.
            cvt_from_f32(dst.dt, out.get(), d, pending * OW);
            pending = 0;
        };
        auto row = [&](dim_t n, dim_t c, dim_t id, dim_t ih) -> const float * {
            const char *p = src.at(n, c, (id * IH + ih) * IW);
            if (src_f32) return reinterpret_cast<const float *>(p);
            cvt_to_f32(src.dt, p, cv.get(), IW);
            return cv.get();
        };
        // Nearest into f32 without post-ops: rows gathered straight into
        // dst, and a row with the previous row's source row (upsampling)
        // copied from it (2x up, 256 x 32 x 32: 0.51 -> 0.27 ms on 2 AVX2
        // cores; 8 x 64 x 56 x 56: 2.42 -> 1.53).
        for (dim_t r = r0; r < r1 && planes; r += OH) {
            const dim_t od = (r / OH) % OD, nc = r / (OH * OD);
            const dim_t n = nc / g.C, c = nc % g.C;
            const char *sp = src.at(n, c, td.i0[od] * IH * IW);
            const float *s = reinterpret_cast<const float *>(sp);
            if (!src_f32) {
                cvt_to_f32(src.dt, sp, cv.get(), IH * IW);
                s = cv.get();
            }
            float *o = direct ? reinterpret_cast<float *>(
                               dst.at(n, c, od * OH * OW))
                              : out.get();
            if (g.linear)
                ker.linear_plane(o, s, IW, th.i0.data(), th.i1.data(),
                        th.w0.data(), th.w1.data(), th.cnt.data(), OH, wi0, wi1,
                        ww0, ww1, OW, tw.halves);
            else
                ker.copy_plane(o, s, IW, th.i0.data(), OH, wi0, OW, tw.doubles);
            if (direct) continue;
            first = r;
            pending = OH;
            flush();
        }
        // Linear: row (od, oh) into o, the source rows blended along d and
        // h into t (as axpy), then along w.
        auto linear_row = [&](float *o, dim_t n, dim_t c, dim_t od, dim_t oh) {
            bool first = true;
            for (int i = 0; i < td.cnt[od]; ++i)
                for (int j = 0; j < th.cnt[oh]; ++j) {
                    const float w = td.weight(od, i) * th.weight(oh, j);
                    const float *s = row(n, c, td.tap(od, i), th.tap(oh, j));
                    ker.axpy(t, s, w, IW, first);
                    first = false;
                }
            if (tw.halves)
                ker.blend2_row(o, t, IW);
            else
                ker.blend_row(o, t, wi0, wi1, ww0, ww1, OW);
        };
        const float *prev_out = nullptr;
        const char *prev_src = nullptr;
        for (dim_t r = r0; r < r1 && direct && !planes; ++r) {
            const dim_t oh = r % OH, od = (r / OH) % OD, nc = r / (OH * OD);
            const dim_t n = nc / g.C, c = nc % g.C;
            const char *sp = src.at(n, c, (td.i0[od] * IH + th.i0[oh]) * IW);
            float *d = reinterpret_cast<float *>(
                    dst.at(n, c, (od * OH + oh) * OW));
            if (g.linear)
                linear_row(d, n, c, od, oh);
            else if (sp == prev_src)
                std::memcpy(d, prev_out, (size_t)OW * sizeof(float));
            else if (tw.doubles)
                ker.dup2_row(d, row(n, c, td.i0[od], th.i0[oh]), IW);
            else
                ker.copy_row(d, row(n, c, td.i0[od], th.i0[oh]), wi0, OW);
            prev_src = sp;
            prev_out = d;
        }
        for (dim_t r = r0; r < r1 && !direct && !planes; ++r) {
            const dim_t oh = r % OH, od = (r / OH) % OD, nc = r / (OH * OD);
            const dim_t n = nc / g.C, c = nc % g.C;
            if (pending == 0) first = r;
            float *o = out.get() + pending * OW;
            if (g.linear)
                linear_row(o, n, c, od, oh);
            else
                ker.copy_row(o, row(n, c, td.i0[od], th.i0[oh]), wi0, OW);
            if (++pending == blk || oh == OH - 1) flush();
        }
        if (pending) flush();
    });
}

// One output row (n, channel block, od, oh) at a time: the row is OW
// points of V contiguous channels; each output point blends V-vectors of
// the 1-4 source rows in one pass (the row kernels), then post-ops run on
// the OW x V block.
void fwd_vec(const geom_t &g, const fwd_args_t &a) {
    const taps_t &td = g.t[0], &th = g.t[1], &tw = g.t[2];
    const dim_t IH = th.in, IW = tw.in, OD = td.out, OH = th.out, OW = tw.out;
    const tensor_t &src = a.src, &dst = a.dst;
    const bool nspc = src.l.cls == chan_class_t::nspc;
    const dim_t C = g.C, V = nspc ? C : src.l.B, ncb = nspc ? 1 : src.l.CB;
    const dim_t units = g.N * ncb * OD * OH;
    const bool src_f32 = src.dt == dnnl_f32;
    const dim_t row_in = IW * V, row_out = OW * V;
    const kernel_table_t &ker = *g.ker;
    const dim_t *wi0 = tw.i0.data(), *wi1 = tw.i1.data();
    const float *ww0 = tw.w0.data(), *ww1 = tw.w1.data();
    const bool direct = dst.dt == dnnl_f32 && !a.po->has_sum();
    // The row buffer only where some row needs it, and not zeroed (it is
    // written before it is read): a zeroed 64 KB vector per chunk was half
    // the time of 256 channels-last 32 x 32 -> 64 x 64 on 16 Xeon cores.
    const bool with_out = !direct || C % V != 0;
    parallel_chunks(g.team(), units, [&](int, dim_t u0, dim_t u1) {
        // Up to four converted source rows (linear 3D reads four).
        std::vector<float> cv(src_f32 ? 0 : (size_t)(4 * row_in));
        std::unique_ptr<float[]> out(
                with_out ? new float[(size_t)row_out] : nullptr);
        // Source row (id, ih) of block c0 as f32: V values per point; a
        // converted row goes to buffer `b`.
        auto row = [&](dim_t n, dim_t c0, dim_t id, dim_t ih,
                           int b) -> const float * {
            const char *p = src.at(n, c0, (id * IH + ih) * IW);
            if (src_f32) return reinterpret_cast<const float *>(p);
            float *f = cv.data() + b * row_in;
            cvt_to_f32(src.dt, p, f, row_in);
            return f;
        };
        for (dim_t u = u0; u < u1; ++u) {
            const dim_t oh = u % OH, od = (u / OH) % OD, nb = u / (OH * OD);
            const dim_t n = nb / ncb, c0 = (nb % ncb) * V;
            const dim_t len = C - c0 < V ? C - c0 : V;
            char *d = dst.at(n, c0, (od * OH + oh) * OW);
            // Compute straight into an f32 dst unless a sum must still read
            // it or the block is partial.
            float *o = direct && len == V ? reinterpret_cast<float *>(d)
                                          : out.get();
            if (!g.linear) {
                ker.copy_vec(
                        o, row(n, c0, td.i0[od], th.i0[oh], 0), wi0, OW, V);
            } else {
                // The 1, 2 or 4 source rows of this output row (taps
                // along d and h) and their weights.
                const float *rows[4];
                float wr[4];
                int nr = 0;
                for (int i = 0; i < td.cnt[od]; ++i)
                    for (int j = 0; j < th.cnt[oh]; ++j, ++nr) {
                        wr[nr] = td.weight(od, i) * th.weight(oh, j);
                        rows[nr] = row(n, c0, td.tap(od, i), th.tap(oh, j), nr);
                    }
                ker.linear_vec(o, rows, wr, nr, wi0, wi1, ww0, ww1, OW, V);
            }
            if (!a.po->empty()) {
                dims_t pos;
                fill_pos(pos, g.nd, n, c0, od, oh, 0);
                postops::apply(*a.po, *a.po_args, o, V, OW, len, pos, g.nd - 1,
                        1, d, V, 1);
            }
            if (o == reinterpret_cast<float *>(d)) continue;
            // A partial last block keeps its padded channels zero (as
            // every output in a blocked layout, oneDNN's contract).
            if (len < V)
                for (dim_t k = 0; k < OW; ++k)
                    for (dim_t l = len; l < V; ++l) o[k * V + l] = 0.f;
            cvt_from_f32(dst.dt, o, d, row_out);
        }
    });
}

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl
