// ref:any reorder (see ref_reorder.hpp).
#include "cpu/reorder/ref_reorder.hpp"

#include "cpu/reorder/reorder_layout.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

status_t ref_reorder_t::pd_t::init(engine_t *engine) {
    if (!reorder_mds_ok(*src_md(), *dst_md())) return dnnl_unimplemented;
    DNNL_CHECK(init_quant_conf(conf, *attr(), *src_md(), *dst_md()));
    if (!has_zero_dim(*src_md())) tables.init(*src_md(), *dst_md(), conf);
    return dnnl_success;
}

status_t ref_reorder_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (has_zero_dim(*pd->src_md())) return dnnl_success;
    const void *src = ctx.host_ptr(DNNL_ARG_FROM);
    void *dst = ctx.host_ptr(DNNL_ARG_TO);
    if (!src || !dst) return dnnl_invalid_arguments;
    quant_values_t qv;
    DNNL_CHECK(qv.init(ctx, pd->conf, *pd->src_md()));
    return pd->tables.run_all(src, dst, qv);
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
