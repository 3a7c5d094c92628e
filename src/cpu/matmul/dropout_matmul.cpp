// Matmul with the dropout attribute (see dropout_matmul.hpp).
#include "cpu/matmul/dropout_matmul.hpp"

#include <cstdint>
#include <vector>

#include "common/exec_ctx.hpp"
#include "common/math/philox.hpp"
#include "common/memory.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

size_t align64(size_t x) { return (x + 63) / 64 * 64; }

// The output stage takes f32 dst scales and s32 dst zero points, per
// tensor or per column, without groups.
bool output_quant_ok(const quant_entry_t *e, data_type_t dt, int col_mask) {
    return !e
            || (e->data_type == dt && e->group_ndims == 0
                    && (e->mask == 0 || e->mask == col_mask));
}

} // namespace

status_t dropout_matmul_pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu || !attr_.dropout.on()) return dnnl_unimplemented;
    if (has_runtime_dims_or_strides()) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    const int nd = dst_md_.ndims;
    DNNL_CHECK(init_dropout_mask());

    // The output stage after dropout: post-ops, dst scale, zero point.
    const int col_mask = 1 << (nd - 1);
    const quant_entry_t *ds = attr_.scales.get(DNNL_ARG_DST);
    const quant_entry_t *dz = attr_.zero_points.get(DNNL_ARG_DST);
    if (!output_quant_ok(ds, dnnl_f32, col_mask) || !output_quant_ok(dz, dnnl_s32, col_mask))
        return dnnl_unimplemented;
    primitive_attr_t oattr;
    oattr.post_ops = attr_.post_ops;
    oattr.rounding_modes = attr_.rounding_modes; // DST's rounds the output
    if (ds) oattr.scales.set(DNNL_ARG_DST, *ds);
    if (dz) oattr.zero_points.set(DNNL_ARG_DST, *dz);
    DNNL_CHECK(out.init(oattr, dst_md_, nullptr, false, nd - 1, 0));

    // Everything before dropout: a matmul into dense f32.
    DNNL_CHECK(md_init_by_strides(acc_md, nd, dst_md_.dims, dnnl_f32, nullptr));
    matmul_desc_t nd_desc = *desc();
    nd_desc.src_desc = src_md_;
    nd_desc.weights_desc = weights_md_;
    nd_desc.bias_desc = bias_md_;
    nd_desc.dst_desc = acc_md;
    primitive_attr_t nattr = attr_;
    nattr.dropout = dropout_t();
    nattr.post_ops = dnnl_post_ops();
    nattr.rounding_modes.clear(); // the f32 buffer is not rounded
    quant_map_t scales, zps;
    for (const auto &it : attr_.scales.items)
        if (it.arg != DNNL_ARG_DST) scales.set(it.arg, it.e);
    for (const auto &it : attr_.zero_points.items)
        if (it.arg != DNNL_ARG_DST) zps.set(it.arg, it.e);
    nattr.scales = scales;
    nattr.zero_points = zps;
    DNNL_CHECK(create_nested_pd(nested_pd, nd_desc, nattr, engine));
    name_ = std::string("dropout:") + nested_pd->name();
    nested_scratch_offset = align64(md_size(acc_md));
    book_scratchpad(nested_scratch_offset + nested_pd->scratchpad_size());
    return dnnl_success;
}

status_t dropout_matmul_pd_t::make_primitive(std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<dropout_matmul_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(dropout_matmul_t));
    return dnnl_success;
}

status_t dropout_matmul_t::execute(const exec_ctx_t &ctx) const {
    const dropout_matmul_pd_t *pd = pd_();
    const dropout_t &drop = pd->attr()->dropout;
    char *scratch = static_cast<char *>(ctx.scratchpad());
    const float *prob = ctx.input<float>(DNNL_ARG_ATTR_DROPOUT_PROBABILITY);
    const void *seed = ctx.host_ptr(DNNL_ARG_ATTR_DROPOUT_SEED);
    const int64_t *offset = ctx.input<int64_t>(DNNL_ARG_ATTR_DROPOUT_OFFSET);
    uint8_t *mask = static_cast<uint8_t *>(ctx.host_ptr(DNNL_ARG_ATTR_DROPOUT_MASK));
    char *dst = static_cast<char *>(ctx.host_ptr(DNNL_ARG_DST));
    const bool with_mask = !is_zero_md(pd->dropout_mask_md());
    if (!scratch || !prob || !seed || !dst || (drop.use_offset && !offset)
            || (with_mask && !mask))
        return dnnl_invalid_arguments;
    const float p = *prob;
    const int64_t seed_v = drop.seed_dt == dnnl_s32
            ? int64_t(*static_cast<const int32_t *>(seed))
            : *static_cast<const int64_t *>(seed);
    const int64_t offset_v = drop.use_offset ? *offset : 0;

    // 1. The matmul into the f32 buffer.
    float *acc = reinterpret_cast<float *>(scratch);
    engine_t *engine = ctx.stream()->engine();
    std::unique_ptr<memory_storage_t> storage;
    DNNL_CHECK(engine->create_memory_storage(storage, acc, md_size(pd->acc_md)));
    memory_t acc_mem(engine, pd->acc_md, std::move(storage));
    std::vector<exec_arg_t> args {{DNNL_ARG_DST, &acc_mem}};
    for (const exec_arg_t &a : ctx.args())
        if (a.arg != DNNL_ARG_DST && a.arg != DNNL_ARG_SCRATCHPAD) args.push_back(a);
    exec_ctx_t nctx(ctx.stream(), std::move(args));
    nctx.set_resources(ctx.resources());
    nctx.set_scratchpad(scratch + pd->nested_scratch_offset);
    DNNL_CHECK(nested_->execute(nctx));

    // 2. Dropout and the output stage, row by row.
    postops::gemm_epilogue_args_t ea;
    DNNL_CHECK(ea.init(pd->out, ctx));
    const memory_desc_t &dmd = pd->dst_md();
    const int nd = dmd.ndims;
    const dim_t N = dmd.dims[nd - 1];
    const dim_t total = md_nelems(dmd);
    if (N == 0 || total == 0) return dnnl_success;
    const size_t dsz = data_type_size(dmd.data_type);
    const float keep_scale = math::dropout_scale(p);
    for (dim_t r = 0; r < total / N; ++r) {
        float *v = acc + r * N;
        const dim_t lin = r * N;
        for (dim_t n = 0; n < N; ++n) {
            const bool keep = math::dropout_keep(
                    uint64_t(dmd.offset0 + lin + n), p, seed_v, offset_v);
            if (with_mask) mask[pd->dropout_mask_md().offset0 + lin + n] = keep ? 1 : 0;
            v[n] = keep ? v[n] * keep_scale : 0.f;
        }
        dims_t pos = {};
        dim_t rem = r;
        for (int d = nd - 2; d >= 0; --d) {
            pos[d] = rem % dmd.dims[d];
            rem /= dmd.dims[d];
        }
        postops::apply(pd->out, ea, v, N, dst + (dmd.offset0 + lin) * dsz, N, 1,
                1, N, pos, -1, nd - 1);
    }
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
