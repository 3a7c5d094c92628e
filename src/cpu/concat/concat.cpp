// CPU concat: images of the sources in dst, the row copy kernels, the two
// drivers and the implementation list.
#include "cpu/concat/concat.hpp"

#include <cstring>

#include "common/exec_ctx.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/cpu_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace concat {

namespace {

// dst restricted to [off, off + src.dims[axis]) along the axis, when that
// is again a blocked layout with the same strides.
bool make_image(const memory_desc_t &dst, const memory_desc_t &src, int axis,
        dim_t off, memory_desc_t &img) {
    const auto &b = dst.format_desc.blocking;
    int nblk = 0;
    dim_t blk = 1;
    for (int k = 0; k < b.inner_nblks; ++k)
        if (b.inner_idxs[k] == axis) {
            ++nblk;
            blk = b.inner_blks[k];
        }
    if (nblk > 1) return false;
    const dim_t len = src.dims[axis];
    img = dst;
    img.dims[axis] = len;
    if (blk == 1) {
        img.padded_dims[axis] = len;
        img.offset0 += off * b.strides[axis];
        return true;
    }
    const bool last = off + len == dst.dims[axis];
    if (off % blk != 0 || (len % blk != 0 && !last)) return false;
    img.padded_dims[axis] = (len + blk - 1) / blk * blk;
    img.offset0 += off / blk * b.strides[axis];
    return true;
}

template <typename T>
inline void copy_strided(const void *s, dim_t so, dim_t ss, void *d, dim_t doff,
        dim_t ds, dim_t n) {
    const T *sp = static_cast<const T *>(s) + so;
    T *dp = static_cast<T *>(d) + doff;
    for (dim_t i = 0; i < n; ++i) dp[i * ds] = sp[i * ss];
}

struct copy_args_t {
    const void *src;
    data_type_t sdt;
    void *dst;
    data_type_t ddt;
    bool convert; // data types differ or a scale applies
    float scale;
};

// n elements from src (offset so, stride ss) to dst (doff, ds).
void copy_row(const copy_args_t &a, dim_t so, dim_t ss, dim_t doff, dim_t ds,
        dim_t n) {
    if (!a.convert) {
        const size_t esz = data_type_size(a.sdt);
        if (ss == 1 && ds == 1) {
            std::memcpy(static_cast<char *>(a.dst) + doff * esz,
                    static_cast<const char *>(a.src) + so * esz, n * esz);
            return;
        }
        switch (esz) {
        case 1:
            copy_strided<uint8_t>(a.src, so, ss, a.dst, doff, ds, n);
            return;
        case 2:
            copy_strided<uint16_t>(a.src, so, ss, a.dst, doff, ds, n);
            return;
        case 4:
            copy_strided<uint32_t>(a.src, so, ss, a.dst, doff, ds, n);
            return;
        default:
            break;
        }
    }
    float buf[rows::chunk], sbuf[rows::chunk];
    for (dim_t i0 = 0; i0 < n; i0 += rows::chunk) {
        const dim_t cnt = n - i0 < rows::chunk ? n - i0 : rows::chunk;
        rows::row_t r;
        r.base = a.src;
        r.dt = a.sdt;
        r.off = so + i0 * ss;
        r.st = ss;
        const float *v = rows::load(r, cnt, buf);
        if (a.scale != 1.f) v = rows::scale(v, cnt, r.scalar(), a.scale, sbuf);
        rows::row_t w;
        w.base = a.dst;
        w.dt = a.ddt;
        w.off = doff + i0 * ds;
        w.st = ds;
        rows::store(w, v, cnt);
    }
}

} // namespace

template <bool nested>
status_t concat_t<nested>::pd_t::init(engine_t *) {
    DNNL_CHECK(this->init_formats());
    const memory_desc_t &dst = *this->dst_md();
    name_ = rows::impl_name(
            dt_pair_name(this->src_md(0)->data_type, dst.data_type), "concat",
            nested ? "nest" : "walk");
    if (!is_f32_convertible(dst.data_type)) return dnnl_unimplemented;
    const int n = this->n_inputs(), ax = this->axis();
    for (int i = 0; i < n; ++i)
        if (!is_f32_convertible(this->src_md(i)->data_type))
            return dnnl_unimplemented;
    // An empty destination executes as a no-op: no tables to build (an
    // empty descriptor's strides are free, so offsets along them could
    // overflow).
    if (md_nelems(dst) == 0) return dnnl_success;
    if (nested) {
        images.resize(n);
        nests.resize(n);
        for (int i = 0; i < n; ++i) {
            const memory_desc_t &s = *this->src_md(i);
            if (!make_image(dst, s, ax, this->axis_offset(i), images[i]))
                return dnnl_unimplemented;
            if (!nest::build(nests[i], s, {&s, &images[i]}, 1))
                return dnnl_unimplemented;
        }
    } else {
        walks.resize(n);
        for (int i = 0; i < n; ++i) {
            const memory_desc_t &s = *this->src_md(i);
            walk::walk_t &w = walks[i];
            w.init(s.ndims, s.dims, {&s, &dst});
            // Shift dst's table along the axis to the source's position.
            auto &t = w.tabs[1];
            const dim_t off = this->axis_offset(i);
            for (dim_t p = 0; p < s.dims[ax]; ++p) {
                dim_t pos[max_ndims] = {0};
                pos[ax] = off + p;
                t.values[(size_t)(t.start[ax] + p)] =
                        md_off_v(dst, pos) - t.base;
            }
        }
    }
    return dnnl_success;
}

template <bool nested>
status_t concat_t<nested>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const int n = pd->n_inputs();
    void *dst = ctx.host_ptr(DNNL_ARG_DST);
    // An empty destination (a zero dim) is a no-op, whatever the buffers.
    if (md_nelems(*pd->dst_md()) == 0) return dnnl_success;
    if (!dst) return dnnl_invalid_arguments;
    std::vector<copy_args_t> args(n);
    dim_t volume = 0;
    for (int i = 0; i < n; ++i) {
        copy_args_t &a = args[i];
        a.src = ctx.host_ptr(DNNL_ARG_MULTIPLE_SRC + i);
        if (!a.src && md_nelems(*pd->src_md(i)) > 0)
            return dnnl_invalid_arguments;
        a.sdt = pd->src_md(i)->data_type;
        a.dst = dst;
        a.ddt = pd->dst_md()->data_type;
        a.scale = 1.f;
        if (pd->with_scale(i)) {
            const void *s = ctx.host_ptr(
                    DNNL_ARG_ATTR_SCALES | (DNNL_ARG_MULTIPLE_SRC + i));
            if (!s) return dnnl_invalid_arguments;
            a.scale = load_f32(pd->attr()
                                       ->scales.get(DNNL_ARG_MULTIPLE_SRC + i)
                                       ->data_type,
                    s, 0);
        }
        a.convert = a.sdt != a.ddt || a.scale != 1.f;
        volume += md_nelems(*pd->src_md(i), true);
    }

    const int nthr = nthr_for(volume, 64 * 1024);
    if (nested) {
        // One unit space over all sources: source i owns [start[i], start[i +
        // 1]).
        std::vector<nest::split_t> splits;
        std::vector<dim_t> start(1, 0);
        for (int i = 0; i < n; ++i) {
            splits.emplace_back(pd->nests[i], nthr);
            start.push_back(
                    start.back() + (args[i].src ? splits.back().units : 0));
        }
        parallel_chunks(nthr, start.back(), [&](int, dim_t b, dim_t e) {
            for (int i = 0; i < n; ++i) {
                const dim_t u0 = b > start[i] ? b - start[i] : 0;
                const dim_t u1 =
                        (e < start[i + 1] ? e : start[i + 1]) - start[i];
                if (u0 >= u1) continue;
                const nest::nest_t &ns = pd->nests[i];
                const dim_t ss = ns.sL(0), ds = ns.sL(1);
                const dim_t sm = ns.sM(0), dm = ns.sM(1);
                nest::run_range(ns, splits[i], u0, u1,
                        [&](const dim_t *off, dim_t mcnt, dim_t len) {
                            for (dim_t m = 0; m < mcnt; ++m)
                                copy_row(args[i], off[0] + m * sm, ss,
                                        off[1] + m * dm, ds, len);
                        });
            }
        });
    } else {
        for (int i = 0; i < n; ++i) {
            if (!args[i].src) continue;
            const walk::walk_t &w = pd->walks[i];
            const int nt = nthr_for(w.volume(), 16 * 1024);
            walk::for_each_row(w, nt,
                    [&](const dim_t *base, const dim_t *const *idx, dim_t cnt) {
                        float buf[rows::chunk], sbuf[rows::chunk];
                        rows::row_t r;
                        r.base = args[i].src;
                        r.dt = args[i].sdt;
                        r.off = base[0];
                        r.idx = idx[0];
                        const float *v = rows::load(r, cnt, buf);
                        if (args[i].scale != 1.f)
                            v = rows::scale(v, cnt, false, args[i].scale, sbuf);
                        rows::row_t wr;
                        wr.base = dst;
                        wr.dt = args[i].ddt;
                        wr.off = base[1];
                        wr.idx = idx[1];
                        rows::store(wr, v, cnt);
                    });
        }
    }
    walk::zero_pad(*pd->dst_md(), dst);
    return dnnl_success;
}

template struct concat_t<true>;
template struct concat_t<false>;

} // namespace concat

const impl_list_item_t *concat_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<concat::concat_t<true>::pd_t, concat_desc_t>},
            {create_pd<concat::concat_t<false>::pd_t, concat_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
