// ref:any reorder (see ref_reorder.hpp).
#include "cpu/reorder/ref_reorder.hpp"

#include "cpu/reorder/reorder_layout.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

namespace {

// The descriptor an execution passes for a pd descriptor with runtime
// values: concrete, of the same type and rank, equal where pd's is known.
bool resolves(const memory_desc_t &pd_md, const memory_desc_t &md) {
    if (md.ndims != pd_md.ndims || md.data_type != pd_md.data_type
            || md.format_kind != dnnl_blocked
            || md_has_runtime_dims_or_strides(md))
        return false;
    for (int d = 0; d < md.ndims; ++d)
        if (pd_md.dims[d] != DNNL_RUNTIME_DIM_VAL && pd_md.dims[d] != md.dims[d])
            return false;
    return true;
}

} // namespace

status_t ref_reorder_t::pd_t::init(engine_t *engine) {
    runtime = md_has_runtime_dims_or_strides(*src_md())
            || md_has_runtime_dims_or_strides(*dst_md());
    if (!reorder_mds_ok(*src_md(), *dst_md(), runtime, /*with_f8=*/true))
        return dnnl_unimplemented;
    // Runtime shapes: the tables are built per execution; quantization
    // with runtime shapes is not implemented.
    if (runtime) {
        return attr()->scales.empty() && !attr()->has_rnn_qparams() && attr()->zero_points.empty()
                ? dnnl_success
                : dnnl_unimplemented;
    }
    DNNL_CHECK(init_quant_conf(conf, *attr(), *src_md(), *dst_md()));
    if (!has_zero_dim(*src_md())) tables.init(*src_md(), *dst_md(), conf);
    return dnnl_success;
}

status_t ref_reorder_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (!pd->runtime && has_zero_dim(*pd->src_md())) return dnnl_success;
    const memory_t *sm = ctx.memory(DNNL_ARG_FROM), *dm = ctx.memory(DNNL_ARG_TO);
    const void *src = ctx.host_ptr(DNNL_ARG_FROM);
    void *dst = ctx.host_ptr(DNNL_ARG_TO);
    if (!pd->runtime) {
        if (!src || !dst) return dnnl_invalid_arguments;
        quant_values_t qv;
        DNNL_CHECK(qv.init(ctx, pd->conf, *pd->src_md()));
        return pd->tables.run_all(src, dst, qv);
    }
    if (!sm || !dm || !resolves(*pd->src_md(), sm->md())
            || !resolves(*pd->dst_md(), dm->md())
            || !reorder_mds_ok(sm->md(), dm->md(), false, /*with_f8=*/true))
        return dnnl_invalid_arguments;
    if (has_zero_dim(sm->md())) return dnnl_success;
    if (!src || !dst) return dnnl_invalid_arguments;
    quant_conf_t conf;
    DNNL_CHECK(init_quant_conf(conf, *pd->attr(), sm->md(), dm->md()));
    ref_tables_t tables;
    tables.init(sm->md(), dm->md(), conf);
    quant_values_t qv;
    DNNL_CHECK(qv.init(ctx, conf, sm->md()));
    return tables.run_all(src, dst, qv);
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
