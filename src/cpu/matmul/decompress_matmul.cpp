// Matmul with weight decompression (see decompress_matmul.hpp).
#include "cpu/matmul/decompress_matmul.hpp"

#include <cstdint>
#include <vector>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/layout_helpers.hpp"
#include "common/memory.hpp"
#include "common/utils.hpp"
#include "common/verbose.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

bool is_sub_byte(data_type_t dt) { return dt == dnnl_s4 || dt == dnnl_u4; }

// Element `off` of a tensor of `dt`; 4-bit elements pack two to a byte,
// the lower index in the low nibble.
float load_any(data_type_t dt, const void *base, dim_t off) {
    if (!is_sub_byte(dt)) return load_f32(dt, base, off);
    const uint8_t byte = static_cast<const uint8_t *>(base)[off / 2];
    const int nib = (off % 2) ? byte >> 4 : byte & 0xf;
    return (float)(dt == dnnl_s4 ? (nib ^ 8) - 8 : nib);
}

} // namespace

bool init_wei_quant(wei_quant_t &q, const primitive_attr_t &attr,
        const memory_desc_t &wei, bool zero_point) {
    q = wei_quant_t();
    const quant_entry_t *e = zero_point ? attr.zero_points.get(DNNL_ARG_WEIGHTS)
                                        : attr.scales.get(DNNL_ARG_WEIGHTS);
    if (!e) return true;
    static const data_type_t zp_dts[] = {dnnl_s32, dnnl_s8, dnnl_u8, dnnl_s4, dnnl_u4};
    static const data_type_t scale_dts[] = {dnnl_f32, dnnl_bf16, dnnl_f16};
    bool dt_ok = false;
    if (zero_point) {
        for (data_type_t dt : zp_dts)
            dt_ok = dt_ok || dt == e->data_type;
    } else {
        for (data_type_t dt : scale_dts)
            dt_ok = dt_ok || dt == e->data_type;
    }
    if (!dt_ok || e->is_on_host) return false;
    const int nd = wei.ndims;
    if (e->group_ndims != 0 && e->group_ndims != 2) return false;
    q.on = true;
    q.dt = e->data_type;
    q.ndims = nd;
    dim_t stride = 1;
    for (int d = nd - 1; d >= 0; --d) {
        if (!(e->mask & (1 << d))) continue;
        dim_t g = 1;
        if (e->group_ndims == 2 && d >= nd - 2) g = e->group_dims[d - (nd - 2)];
        if (g <= 0 || wei.dims[d] % g != 0) return false;
        q.group[d] = g;
        q.stride[d] = stride;
        stride *= wei.dims[d] / g;
    }
    q.count = stride;
    return true;
}

float wei_quant_t::value(const void *data, const dim_t *pos) const {
    dim_t off = 0;
    for (int d = 0; d < ndims; ++d)
        if (group[d]) off += pos[d] / group[d] * stride[d];
    return load_any(dt, data, off);
}

status_t decompress_matmul_pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    return init_nested(engine, false);
}

status_t decompress_matmul_pd_t::init_nested(engine_t *engine, bool device) {
    const data_type_t sdt = src_md_.data_type, wdt = weights_md_.data_type;
    const bool fp_src = sdt == dnnl_f32 || sdt == dnnl_bf16 || sdt == dnnl_f16;
    const bool int_wei = wdt == dnnl_s8 || wdt == dnnl_u8 || is_sub_byte(wdt);
    if (!fp_src || !int_wei) return dnnl_unimplemented;
    // Sparse and grouped sources have implementations of their own.
    if (src_md_.format_kind == dnnl_format_kind_sparse)
        return dnnl_unimplemented;
    // oneDNN decompresses integer weights only when asked to.
    if (!attr_.fpmath_apply_to_int) {
        verbose_check("matmul", "integer weights with floating-point "
                                "activations need fpmath apply_to_int");
        return dnnl_unimplemented;
    }
    if (has_runtime_dims_or_strides()) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    if (!layout::is_plain(weights_md_)) return dnnl_unimplemented;
    for (const auto &it : attr_.zero_points.items)
        if (it.arg != DNNL_ARG_WEIGHTS) return dnnl_unimplemented;
    if (!init_wei_quant(scale, attr_, weights_md_, false)
            || !init_wei_quant(zp, attr_, weights_md_, true))
        return dnnl_unimplemented;

    // The nested matmul: dense f32 weights, every other attribute kept.
    DNNL_CHECK(md_init_by_strides(f32_weights_md, weights_md_.ndims,
            weights_md_.dims, dnnl_f32, nullptr));
    matmul_desc_t nd = *desc();
    nd.src_desc = src_md_;
    nd.weights_desc = f32_weights_md;
    nd.bias_desc = bias_md_;
    nd.dst_desc = dst_md_;
    primitive_attr_t nattr = attr_;
    quant_map_t scales;
    for (const auto &it : attr_.scales.items)
        if (it.arg != DNNL_ARG_WEIGHTS) scales.set(it.arg, it.e);
    nattr.scales = scales;
    nattr.zero_points = quant_map_t();
    nattr.fpmath_apply_to_int = 0;
    if (device) nattr.scratchpad_mode = dnnl_scratchpad_mode_library;
    DNNL_CHECK(create_nested_pd(nested_pd, nd, nattr, engine));
    if (device && nested_pd->scratchpad_size() != 0) return dnnl_unimplemented;
    src_md_ = *nested_pd->arg_md(DNNL_ARG_SRC);
    dst_md_ = *nested_pd->arg_md(DNNL_ARG_DST);
    if (with_bias()) bias_md_ = *nested_pd->arg_md(DNNL_ARG_BIAS);
    name_ = std::string("decompress:") + nested_pd->name();
    nested_scratch_offset = align64(md_size(f32_weights_md));
    book_scratchpad(device ? md_size(f32_weights_md)
                           : nested_scratch_offset + nested_pd->scratchpad_size());
    return dnnl_success;
}

status_t decompress_matmul_pd_t::make_primitive(
        std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<decompress_matmul_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(decompress_matmul_t));
    return dnnl_success;
}

status_t decompress_matmul_t::execute(const exec_ctx_t &ctx) const {
    const decompress_matmul_pd_t *pd = pd_();
    char *scratch = static_cast<char *>(ctx.scratchpad());
    const void *q = ctx.host_ptr(DNNL_ARG_WEIGHTS);
    const void *sc = ctx.host_ptr(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS);
    const void *zp = ctx.host_ptr(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS);
    if (!scratch || !q || (pd->scale.on && !sc) || (pd->zp.on && !zp))
        return dnnl_invalid_arguments;

    // Decompress row by row (all dims but N), N contiguous in the output.
    const memory_desc_t &wmd = pd->weights_md();
    const int nd = wmd.ndims;
    const dim_t N = wmd.dims[nd - 1];
    dim_t rows = 1;
    for (int d = 0; d < nd - 1; ++d)
        rows *= wmd.dims[d];
    float *w = reinterpret_cast<float *>(scratch);
    const dim_t *st = wmd.format_desc.blocking.strides;
    const wei_quant_t &qs = pd->scale, &qz = pd->zp;
    parallel_chunks(rows * N > 65536 ? max_threads() : 1, rows, [&](int, dim_t r0, dim_t r1) {
        for (dim_t r = r0; r < r1; ++r) {
            dims_t pos = {};
            dim_t rem = r, off = wmd.offset0;
            for (int d = nd - 2; d >= 0; --d) {
                pos[d] = rem % wmd.dims[d];
                rem /= wmd.dims[d];
                off += pos[d] * st[d];
            }
            for (dim_t n = 0; n < N; ++n) {
                pos[nd - 1] = n;
                float v = load_any(wmd.data_type, q, off + n * st[nd - 1]);
                if (qz.on) v -= qz.value(zp, pos);
                if (qs.on) v *= qs.value(sc, pos);
                w[r * N + n] = v;
            }
        }
    });

    engine_t *engine = ctx.stream()->engine();
    std::unique_ptr<memory_storage_t> storage;
    DNNL_CHECK(engine->create_memory_storage(
            storage, w, md_size(pd->f32_weights_md)));
    memory_t wei(engine, pd->f32_weights_md, std::move(storage));
    std::vector<exec_arg_t> args {{DNNL_ARG_WEIGHTS, &wei}};
    for (const exec_arg_t &a : ctx.args())
        if (a.arg != DNNL_ARG_WEIGHTS && a.arg != DNNL_ARG_SCRATCHPAD
                && a.arg != (DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS)
                && a.arg != (DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS))
            args.push_back(a);
    exec_ctx_t nctx(ctx.stream(), std::move(args));
    nctx.set_resources(ctx.resources());
    nctx.set_scratchpad(scratch + pd->nested_scratch_offset);
    return nested_->execute(nctx);
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
