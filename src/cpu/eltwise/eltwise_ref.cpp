// Generic eltwise: descriptor checks and the layout-agnostic walk.
#include "cpu/eltwise/eltwise_ref.hpp"

#include <vector>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

namespace {

bool is_float_type(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16
           || dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
}

// The output's padded index space, cut into rows along the last dimension
// and rows into chunks, so that both many small rows and a few long ones
// spread over threads. `body(pos, in_range_outer, i_begin, i_end)` handles
// positions i_begin..i_end of the last dimension of the row at `pos`.
template <typename F>
void for_each_row_chunk(
        const memory_desc_t &out, dim_t min_per_thread, F body) {
    const int nd = out.ndims;
    const int last = nd - 1;
    const dim_t *extent = out.padded_dims;
    dim_t rows = 1;
    for (int d = 0; d < last; ++d) rows *= extent[d];
    const dim_t inner = extent[last];
    if (rows == 0 || inner == 0) return;
    constexpr dim_t chunk = 4096;
    const dim_t nchunks = (inner + chunk - 1) / chunk;
    const dim_t units = rows * nchunks;
    const int nthr = nthr_for(rows * inner, min_per_thread);
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance(units, nt, ithr, start, end);
        if (start >= end) return;
        dim_t pos[max_ndims] = {0};
        dim_t row = start / nchunks;
        dim_t c = start % nchunks;
        for (int d = last - 1; d >= 0; --d) {
            pos[d] = row % extent[d];
            row /= extent[d];
        }
        for (dim_t u = start; u < end; ++u) {
            bool in_range = true;
            for (int d = 0; d < last; ++d)
                in_range = in_range && pos[d] < out.dims[d];
            const dim_t i0 = c * chunk;
            const dim_t i1 = i0 + chunk < inner ? i0 + chunk : inner;
            body(pos, in_range, i0, i1);
            if (++c == nchunks) {
                c = 0;
                for (int d = last - 1; d >= 0; --d) {
                    if (++pos[d] < extent[d]) break;
                    pos[d] = 0;
                }
            }
        }
    });
}

// Rows in the destination's padding also get a base (never used: their
// elements are only zeroed in the destination), and a source's entries
// there may hold any value (free strides of unit dims): wrapping unsigned
// sums keep that defined.
dim_t row_base(const offset_table_t &t, const dim_t *pos, int last) {
    uint64_t off = (uint64_t)t.base;
    for (int d = 0; d < last; ++d) off += (uint64_t)t.dim(d)[pos[d]];
    return (dim_t)off;
}

// oneDNN's limit on the length of a post-op chain.
constexpr size_t max_post_ops = 32;

// A binary post-op: its second source and, for select, its condition
// (cond == nullptr otherwise), each broadcast per dimension.
struct binary_po_t {
    alg_kind_t alg;
    data_type_t dt;
    const void *src1;
    offset_table_t offsets;
    data_type_t cond_dt = dnnl_data_type_undef;
    const void *cond = nullptr;
    offset_table_t cond_offsets;
};

bool po_tensor_ok(const memory_desc_t &m, const memory_desc_t &d) {
    if (m.format_kind != dnnl_blocked || m.ndims != d.ndims
            || md_has_runtime_dims_or_strides(m)
            || !is_f32_convertible(m.data_type))
        return false;
    for (int i = 0; i < d.ndims; ++i)
        if (m.dims[i] != d.dims[i] && m.dims[i] != 1) return false;
    return true;
}

} // namespace

status_t ref_eltwise_fwd_t::pd_t::init(engine_t *) {
    if (!is_fwd() || !attr_ok(true)) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    const memory_desc_t &s = *src_md(), &d = *dst_md();
    if (!is_f32_convertible(s.data_type) || !is_f32_convertible(d.data_type))
        return dnnl_unimplemented;
    if (attr()->post_ops.entries.size() > max_post_ops)
        return dnnl_unimplemented;
    for (const auto &e : attr()->post_ops.entries) {
        if (!math::is_binary_alg(e.alg) || !po_tensor_ok(e.src1_md, d))
            return dnnl_unimplemented;
        if (e.alg == dnnl_binary_select && !po_tensor_ok(e.src2_md, d))
            return dnnl_unimplemented;
    }
    return dnnl_success;
}

status_t ref_eltwise_fwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->has_zero_dim()) return dnnl_success;
    const memory_desc_t &smd = *pd->src_md(), &dmd = *pd->dst_md();
    const void *src = ctx.input<void>(DNNL_ARG_SRC);
    void *dst = ctx.output<void>(DNNL_ARG_DST);
    if (!src || !dst) return dnnl_invalid_arguments;

    const dim_t *extent = dmd.padded_dims;
    offset_table_t soff, doff;
    soff.init(smd, extent);
    doff.init(dmd, extent);

    const auto &entries = pd->attr()->post_ops.entries;
    std::vector<binary_po_t> po(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_1;
        po[i].alg = entries[i].alg;
        po[i].dt = entries[i].src1_md.data_type;
        po[i].src1 = ctx.input<void>(arg);
        if (!po[i].src1) return dnnl_invalid_arguments;
        po[i].offsets.init(entries[i].src1_md, extent, true);
        if (entries[i].alg != dnnl_binary_select) continue;
        po[i].cond_dt = entries[i].src2_md.data_type;
        po[i].cond = ctx.input<void>(
                DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_2);
        if (!po[i].cond) return dnnl_invalid_arguments;
        po[i].cond_offsets.init(entries[i].src2_md, extent, true);
    }

    const alg_kind_t alg = pd->alg();
    const float alpha = pd->alpha(), beta = pd->beta();
    const data_type_t sdt = smd.data_type, ddt = dmd.data_type;
    const int last = dmd.ndims - 1;
    const dim_t n_last = dmd.dims[last];

    for_each_row_chunk(dmd, 8 * 1024,
            [&](const dim_t *pos, bool in_range, dim_t i0, dim_t i1) {
                const dim_t sb = row_base(soff, pos, last);
                const dim_t db = row_base(doff, pos, last);
                const dim_t *sl = soff.dim(last), *dl = doff.dim(last);
                dim_t pb[max_post_ops], cb[max_post_ops];
                const size_t npo = po.size();
                for (size_t k = 0; k < npo; ++k) {
                    pb[k] = row_base(po[k].offsets, pos, last);
                    cb[k] = po[k].cond
                            ? row_base(po[k].cond_offsets, pos, last)
                            : 0;
                }
                const dim_t lim = in_range ? (n_last < i1 ? n_last : i1) : i0;
                for (dim_t i = i0; i < lim; ++i) {
                    float v = load_f32(sdt, src, sb + sl[i]);
                    v = math::eltwise_fwd(alg, v, alpha, beta);
                    for (size_t k = 0; k < npo; ++k) {
                        const float s1 = load_f32(po[k].dt, po[k].src1,
                                pb[k] + po[k].offsets.dim(last)[i]);
                        if (!po[k].cond) {
                            v = math::binary_op(po[k].alg, v, s1);
                            continue;
                        }
                        const float c = load_f32(po[k].cond_dt, po[k].cond,
                                cb[k] + po[k].cond_offsets.dim(last)[i]);
                        v = math::post_op_select(v, s1, c);
                    }
                    store_f32(ddt, v, dst, db + dl[i]);
                }
                for (dim_t i = lim > i0 ? lim : i0; i < i1; ++i)
                    store_f32(ddt, 0.f, dst, db + dl[i]);
            });
    return dnnl_success;
}

status_t ref_eltwise_bwd_t::pd_t::init(engine_t *) {
    if (is_fwd() || !attr_ok(false)) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    if (!is_float_type(data_md()->data_type)
            || !is_float_type(diff_dst_md()->data_type)
            || !is_float_type(diff_src_md()->data_type))
        return dnnl_unimplemented;
    return dnnl_success;
}

status_t ref_eltwise_bwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (pd->has_zero_dim()) return dnnl_success;
    const memory_desc_t &vmd = *pd->data_md(), &ddmd = *pd->diff_dst_md(),
                        &dsmd = *pd->diff_src_md();
    const void *data = ctx.input<void>(pd->data_arg());
    const void *diff_dst = ctx.input<void>(DNNL_ARG_DIFF_DST);
    void *diff_src = ctx.output<void>(DNNL_ARG_DIFF_SRC);
    if (!data || !diff_dst || !diff_src) return dnnl_invalid_arguments;

    const dim_t *extent = dsmd.padded_dims;
    offset_table_t voff, ddoff, dsoff;
    voff.init(vmd, extent);
    ddoff.init(ddmd, extent);
    dsoff.init(dsmd, extent);

    const alg_kind_t alg = pd->alg();
    const float alpha = pd->alpha(), beta = pd->beta();
    const data_type_t vdt = vmd.data_type, dddt = ddmd.data_type,
                      dsdt = dsmd.data_type;
    const int last = dsmd.ndims - 1;
    const dim_t n_last = dsmd.dims[last];

    for_each_row_chunk(dsmd, 8 * 1024,
            [&](const dim_t *pos, bool in_range, dim_t i0, dim_t i1) {
                const dim_t vb = row_base(voff, pos, last);
                const dim_t ddb = row_base(ddoff, pos, last);
                const dim_t dsb = row_base(dsoff, pos, last);
                const dim_t *vl = voff.dim(last), *ddl = ddoff.dim(last),
                            *dsl = dsoff.dim(last);
                const dim_t lim = in_range ? (n_last < i1 ? n_last : i1) : i0;
                for (dim_t i = i0; i < lim; ++i) {
                    const float v = load_f32(vdt, data, vb + vl[i]);
                    const float g = load_f32(dddt, diff_dst, ddb + ddl[i]);
                    store_f32(dsdt, math::eltwise_bwd(alg, g, v, alpha, beta),
                            diff_src, dsb + dsl[i]);
                }
                for (dim_t i = lim > i0 ? lim : i0; i < i1; ++i)
                    store_f32(dsdt, 0.f, diff_src, dsb + dsl[i]);
            });
    return dnnl_success;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
