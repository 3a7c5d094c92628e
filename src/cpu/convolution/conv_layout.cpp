// Canonical tags and the generic tensor copy of the convolution kernels.
#include "cpu/convolution/conv_layout.hpp"

#include <cstring>

#include "cpu/threading/threading.hpp"

#include "common/float_convert.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

format_tag_t act_tag(layout_t l, int ndims)
{
    if (l == layout_t::ncsp)
        return ndims == 3 ? dnnl_abc : ndims == 4 ? dnnl_abcd : dnnl_abcde;
    return ndims == 3 ? dnnl_acb : ndims == 4 ? dnnl_acdb : dnnl_acdeb;
}

format_tag_t wei_tag(layout_t l, int ndims, bool g)
{
    if (l == layout_t::ncsp) {
        if (g) return ndims == 3 ? dnnl_abcd : ndims == 4 ? dnnl_abcde
                                                          : dnnl_abcdef;
        return ndims == 3 ? dnnl_abc : ndims == 4 ? dnnl_abcd : dnnl_abcde;
    }
    if (g) return ndims == 3 ? dnnl_adcb : ndims == 4 ? dnnl_adecb
                                                      : dnnl_adefcb;
    return ndims == 3 ? dnnl_cba : ndims == 4 ? dnnl_cdba : dnnl_cdeba;
}

format_tag_t dw_wei_tag(layout_t l, int ndims)
{
    if (l == layout_t::ncsp)
        return ndims == 3 ? dnnl_abcd : ndims == 4 ? dnnl_abcde : dnnl_abcdef;
    return ndims == 3 ? dnnl_dcab : ndims == 4 ? dnnl_decab : dnnl_defcab;
}

status_t igemm_wei_md(memory_desc_t &md, const memory_desc_t &like,
        layout_t l, bool groups, int mr)
{
    const int nd = like.ndims;
    const int g = groups ? 1 : 0; // dims: (g,) o, i, spatial...
    const int o = g, i = g + 1;
    memory_desc_t r = zero_md();
    r.ndims = nd;
    r.data_type = like.data_type;
    r.format_kind = dnnl_blocked;
    for (int d = 0; d < nd; ++d)
        r.dims[d] = r.padded_dims[d] = like.dims[d];
    r.padded_dims[o] = (like.dims[o] + mr - 1) / mr * mr;
    auto &b = r.format_desc.blocking;
    b.inner_nblks = 1;
    b.inner_blks[0] = mr;
    b.inner_idxs[0] = o;
    // Outer order, outermost first.
    int order[max_ndims], n = 0;
    if (groups) order[n++] = 0;
    order[n++] = o;
    if (l == layout_t::ncsp) order[n++] = i;
    for (int d = i + 1; d < nd; ++d)
        order[n++] = d;
    if (l == layout_t::nspc) order[n++] = i;
    dim_t stride = mr;
    for (int k = n - 1; k >= 0; --k) {
        const int d = order[k];
        b.strides[d] = stride;
        stride *= d == o ? r.padded_dims[o] / mr : r.dims[d];
    }
    md = r;
    return dnnl_success;
}

bool md_is_tag(const memory_desc_t &md, format_tag_t tag)
{
    // (Tensors in the tag's layout are used in place from element 0.)
    if (md.format_kind != dnnl_blocked || md.offset0 != 0) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.padded_dims[d] != md.dims[d] || md.padded_offsets[d] != 0)
            return false;
    return md_matches_tag(md, tag);
}

namespace {
// Element offset of position `pos` advanced by `i` along the last dim.
struct line_t {
    dim_t base;
    dim_t stride; // 0: use md_off_v per element
};

line_t line_of(const memory_desc_t &md, const dim_t *pos)
{
    const int last = md.ndims - 1;
    const auto &b = md.format_desc.blocking;
    for (int i = 0; i < b.inner_nblks; ++i)
        if (b.inner_idxs[i] == last) return {md_off_v(md, pos), 0};
    return {md_off_v(md, pos), b.strides[last]};
}

template <typename T>
void copy_line_raw(const T *s, dim_t ss, T *d, dim_t ds, dim_t n)
{
    if (ss == 1 && ds == 1) {
        std::memcpy(d, s, n * sizeof(T));
        return;
    }
    for (dim_t i = 0; i < n; ++i)
        d[i * ds] = s[i * ss];
}
} // namespace

namespace {
// Both tensors dense and unpadded in one layout (only the data types may
// differ): element i of one is element i of the other.
bool same_dense_layout(const memory_desc_t &a, const memory_desc_t &b)
{
    if (!md_is_dense(a) || !md_is_dense(b) || a.ndims != b.ndims) return false;
    const auto &x = a.format_desc.blocking, &y = b.format_desc.blocking;
    if (x.inner_nblks != y.inner_nblks) return false;
    for (int i = 0; i < x.inner_nblks; ++i)
        if (x.inner_blks[i] != y.inner_blks[i]
                || x.inner_idxs[i] != y.inner_idxs[i])
            return false;
    for (int k = 0; k < a.ndims; ++k)
        if (a.dims[k] != b.dims[k] || a.padded_dims[k] != a.dims[k]
                || b.padded_dims[k] != b.dims[k] || x.strides[k] != y.strides[k])
            return false;
    return true;
}
} // namespace

void copy_tensor(const memory_desc_t &smd, const void *s,
        const memory_desc_t &dmd, void *d)
{
    const int nd = smd.ndims;
    if (nd == 0) return;
    // One layout, one of the types f32: a flat conversion (the usual
    // case: bf16 / f16 tensors to and from f32 working copies).
    const data_type_t st = smd.data_type, dt = dmd.data_type;
    if ((st == dnnl_f32 || dt == dnnl_f32) && same_dense_layout(smd, dmd)) {
        const dim_t n = md_nelems(smd);
        const char *sb = static_cast<const char *>(s)
                + smd.offset0 * data_type_size(st);
        char *db = static_cast<char *>(d) + dmd.offset0 * data_type_size(dt);
        const int nthr = n > 64 * 1024 ? max_threads() : 1;
        parallel_chunks(nthr, (n + 4095) / 4096, [&](int, dim_t b0, dim_t b1) {
            const dim_t i0 = b0 * 4096, len = std::min(n, b1 * 4096) - i0;
            if (dt == dnnl_f32)
                cvt_to_f32(st, sb + i0 * data_type_size(st),
                        reinterpret_cast<float *>(db) + i0, len);
            else
                cvt_from_f32(dt, reinterpret_cast<const float *>(sb) + i0,
                        db + i0 * data_type_size(dt), len);
        });
        return;
    }
    const dim_t inner = smd.dims[nd - 1];
    dim_t outer = 1;
    for (int k = 0; k < nd - 1; ++k)
        outer *= smd.dims[k];
    if (outer == 0 || inner == 0) return;
    const data_type_t sdt = smd.data_type, ddt = dmd.data_type;
    const size_t ssz = data_type_size(sdt), dsz = data_type_size(ddt);
    // A destination with padding gets zeros there (oneDNN's convention).
    for (int k = 0; k < nd; ++k)
        if (dmd.padded_dims[k] != dmd.dims[k]) {
            std::memset(static_cast<char *>(d) + dmd.offset0 * dsz, 0,
                    md_size(dmd));
            break;
        }

    const bool par = outer * inner > 64 * 1024;
    parallel_chunks(par ? max_threads() : 1, outer, [&](int, dim_t o0, dim_t o1) {
        for (dim_t o = o0; o < o1; ++o) {
            dim_t pos[max_ndims] = {};
            dim_t rem = o;
            for (int k = nd - 2; k >= 0; --k) {
                pos[k] = rem % smd.dims[k];
                rem /= smd.dims[k];
            }
            const line_t sl = line_of(smd, pos);
            const line_t dl = line_of(dmd, pos);
            if (sl.stride && dl.stride) {
                if (sdt == ddt) {
                    const char *sp = static_cast<const char *>(s) + sl.base * ssz;
                    char *dp = static_cast<char *>(d) + dl.base * dsz;
                    if (ssz == 4)
                        copy_line_raw((const uint32_t *)sp, sl.stride,
                                (uint32_t *)dp, dl.stride, inner);
                    else if (ssz == 2)
                        copy_line_raw((const uint16_t *)sp, sl.stride,
                                (uint16_t *)dp, dl.stride, inner);
                    else
                        copy_line_raw((const uint8_t *)sp, sl.stride,
                                (uint8_t *)dp, dl.stride, inner);
                } else {
                    for (dim_t i = 0; i < inner; ++i)
                        store_f32(ddt,
                                load_f32(sdt, s, sl.base + i * sl.stride), d,
                                dl.base + i * dl.stride);
                }
                continue;
            }
            for (dim_t i = 0; i < inner; ++i) {
                pos[nd - 1] = i;
                const dim_t so = sl.stride ? sl.base + i * sl.stride
                                           : md_off_v(smd, pos);
                const dim_t dof = dl.stride ? dl.base + i * dl.stride
                                            : md_off_v(dmd, pos);
                if (sdt == ddt)
                    std::memcpy(static_cast<char *>(d) + dof * dsz,
                            static_cast<const char *>(s) + so * ssz, ssz);
                else
                    store_f32(ddt, load_f32(sdt, s, so), d, dof);
            }
        }
    });
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
