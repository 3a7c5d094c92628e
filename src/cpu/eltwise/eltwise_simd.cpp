// Vectorised eltwise for dense layouts: descriptor checks and the
// threaded drivers around the per-ISA kernels.
#include "cpu/eltwise/eltwise_simd.hpp"

#include <cmath>
#include <vector>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/eltwise/eltwise_kernel_name.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"
#include "cpu/eltwise/eltwise_work.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

namespace {

using namespace eltwise_md_utils;

// Elements per f32 staging buffer (per thread, on the stack).
constexpr dim_t block = 1024;

dim_t padded_volume(const memory_desc_t &md) {
    return md_nelems(md, true);
}

bool is_float_type(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16
           || dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
}

bool maps_zero_to_zero(float v) {
    return v == 0.f; // false for NaN
}

} // namespace

status_t simd_eltwise_fwd_t::pd_t::init(engine_t *) {
    if (!is_fwd() || !attr_ok(true)) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    const memory_desc_t &s = *src_md(), &d = *dst_md();
    if (!is_f32_convertible(s.data_type) || !is_f32_convertible(d.data_type))
        return dnnl_unimplemented;
    if (!same_layout(s, d) || !is_dense_padded(s)) return dnnl_unimplemented;
    for (const auto &e : attr()->post_ops.entries) {
        const memory_desc_t &m = e.src1_md;
        // Post-ops could make the padding non-zero: the generic
        // implementation handles padded layouts with post-ops.
        if (has_padding(s)) return dnnl_unimplemented;
        if (!math::is_binary_alg(e.alg) || e.alg == dnnl_binary_select
                || !is_f32_convertible(m.data_type) || m.ndims != d.ndims
                || m.format_kind != dnnl_blocked
                || md_has_runtime_dims_or_strides(m))
            return dnnl_unimplemented;
        bool scalar = true;
        for (int i = 0; i < m.ndims; ++i) scalar = scalar && m.dims[i] == 1;
        if (!scalar && !same_layout(m, d)) return dnnl_unimplemented;
        post_ops.push_back({e.alg, scalar});
    }
    if (has_padding(s)
            && !maps_zero_to_zero(
                    math::eltwise_fwd(alg(), 0.f, alpha(), beta())))
        return dnnl_unimplemented;
    kernels = select_kernels();
    if (!kernels) return dnnl_unimplemented;
    work = has_zero_dim() ? 0 : padded_volume(s);
    flat = s.data_type == dnnl_f32 && d.data_type == dnnl_f32
            && post_ops.empty();
    name_ = "simd:"
            + eltwise_kernel_name(dt_pair_name(s.data_type, d.data_type),
                    alg(), false, flat ? "flat" : "stage1024",
                    kernels->isa_name);
    return dnnl_success;
}

status_t simd_eltwise_fwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const dim_t n = pd->work;
    if (n == 0) return dnnl_success;
    const memory_desc_t &smd = *pd->src_md(), &dmd = *pd->dst_md();
    const char *src = ctx.input<char>(DNNL_ARG_SRC);
    char *dst = ctx.output<char>(DNNL_ARG_DST);
    if (!src || !dst) return dnnl_invalid_arguments;
    const data_type_t sdt = smd.data_type, ddt = dmd.data_type;
    const size_t ssz = data_type_size(sdt), dsz = data_type_size(ddt);
    src += smd.offset0 * ssz;
    dst += dmd.offset0 * dsz;

    const kernel_table_t &k = *pd->kernels;
    const alg_kind_t alg = pd->alg();
    const float alpha = pd->alpha(), beta = pd->beta();

    // Second sources of the post-ops: one value, or an array laid out as
    // dst.
    struct po_arg_t {
        alg_kind_t alg;
        data_type_t dt;
        const char *data; // null for a scalar
        size_t esz;
        float value;
    };
    const auto &entries = pd->attr()->post_ops.entries;
    std::vector<po_arg_t> po(pd->post_ops.size());
    for (size_t i = 0; i < po.size(); ++i) {
        const memory_desc_t &m = entries[i].src1_md;
        const char *p = ctx.input<char>(
                DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_1);
        if (!p) return dnnl_invalid_arguments;
        po[i].alg = pd->post_ops[i].alg;
        po[i].dt = m.data_type;
        po[i].esz = data_type_size(m.data_type);
        po[i].data =
                pd->post_ops[i].scalar ? nullptr : p + m.offset0 * po[i].esz;
        po[i].value = load_f32(m.data_type, p, m.offset0);
    }
    const bool f32_io = pd->flat;

    const int nthr = nthr_for(n, min_per_thread(alg));
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance(n, nt, ithr, start, end, 16);
        if (start >= end) return;
        if (f32_io) {
            k.fwd(alg, alpha, beta,
                    reinterpret_cast<const float *>(src) + start,
                    reinterpret_cast<float *>(dst) + start, end - start);
            return;
        }
        alignas(64) float buf[block];
        alignas(64) float buf1[block];
        for (dim_t off = start; off < end; off += block) {
            const dim_t len = end - off < block ? end - off : block;
            k.to_f32(sdt, src + off * ssz, buf, len);
            k.fwd(alg, alpha, beta, buf, buf, len);
            for (const auto &p : po) {
                if (!p.data) {
                    k.binary_scalar(p.alg, buf, p.value, buf, len);
                } else {
                    k.to_f32(p.dt, p.data + off * p.esz, buf1, len);
                    k.binary(p.alg, buf, buf1, buf, len);
                }
            }
            k.from_f32(ddt, buf, dst + off * dsz, len);
        }
    });
    return dnnl_success;
}

status_t simd_eltwise_bwd_t::pd_t::init(engine_t *) {
    if (is_fwd() || !attr_ok(false)) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    const memory_desc_t &v = *data_md(), &dd = *diff_dst_md(),
                        &ds = *diff_src_md();
    if (!is_float_type(v.data_type) || !is_float_type(dd.data_type)
            || !is_float_type(ds.data_type))
        return dnnl_unimplemented;
    if (!same_layout(v, dd) || !same_layout(v, ds) || !is_dense_padded(v))
        return dnnl_unimplemented;
    if (has_padding(v)
            && !maps_zero_to_zero(
                    math::eltwise_bwd(alg(), 0.f, 0.f, alpha(), beta())))
        return dnnl_unimplemented;
    kernels = select_kernels();
    if (!kernels) return dnnl_unimplemented;
    work = has_zero_dim() ? 0 : padded_volume(v);
    flat = v.data_type == dnnl_f32 && dd.data_type == dnnl_f32
            && ds.data_type == dnnl_f32;
    name_ = "simd:"
            + eltwise_kernel_name(dt_pair_name(v.data_type, ds.data_type),
                    alg(), true, flat ? "flat" : "stage1024",
                    kernels->isa_name);
    return dnnl_success;
}

status_t simd_eltwise_bwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const dim_t n = pd->work;
    if (n == 0) return dnnl_success;
    const memory_desc_t &vmd = *pd->data_md(), &ddmd = *pd->diff_dst_md(),
                        &dsmd = *pd->diff_src_md();
    const char *data = ctx.input<char>(pd->data_arg());
    const char *diff_dst = ctx.input<char>(DNNL_ARG_DIFF_DST);
    char *diff_src = ctx.output<char>(DNNL_ARG_DIFF_SRC);
    if (!data || !diff_dst || !diff_src) return dnnl_invalid_arguments;
    const data_type_t vdt = vmd.data_type, dddt = ddmd.data_type,
                      dsdt = dsmd.data_type;
    const size_t vsz = data_type_size(vdt), ddsz = data_type_size(dddt),
                 dssz = data_type_size(dsdt);
    data += vmd.offset0 * vsz;
    diff_dst += ddmd.offset0 * ddsz;
    diff_src += dsmd.offset0 * dssz;

    const kernel_table_t &k = *pd->kernels;
    const alg_kind_t alg = pd->alg();
    const float alpha = pd->alpha(), beta = pd->beta();
    const bool f32_io = pd->flat;

    const int nthr = nthr_for(n, min_per_thread(alg));
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance(n, nt, ithr, start, end, 16);
        if (start >= end) return;
        if (f32_io) {
            k.bwd(alg, alpha, beta,
                    reinterpret_cast<const float *>(diff_dst) + start,
                    reinterpret_cast<const float *>(data) + start,
                    reinterpret_cast<float *>(diff_src) + start, end - start);
            return;
        }
        alignas(64) float gbuf[block];
        alignas(64) float vbuf[block];
        for (dim_t off = start; off < end; off += block) {
            const dim_t len = end - off < block ? end - off : block;
            k.to_f32(dddt, diff_dst + off * ddsz, gbuf, len);
            k.to_f32(vdt, data + off * vsz, vbuf, len);
            k.bwd(alg, alpha, beta, gbuf, vbuf, gbuf, len);
            k.from_f32(dsdt, gbuf, diff_src + off * dssz, len);
        }
    });
    return dnnl_success;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
