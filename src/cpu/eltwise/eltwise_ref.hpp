// Generic eltwise for any blocked layouts (each tensor its own layout and
// data type), the last entry of the list. Walks the logical index space
// with per-dimension offset tables, computes with the scalar math entry
// points, applies binary post-ops (forward) and writes zeros to the
// padding of the output.
#pragma once

#include "common/eltwise_pd.hpp"
#include "cpu/cpu_primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

struct ref_eltwise_fwd_t : public primitive_t {
    struct pd_t : public cpu_pd_t<eltwise_pd_t, ref_eltwise_fwd_t> {
        using cpu_pd_t<eltwise_pd_t, ref_eltwise_fwd_t>::cpu_pd_t;
        // Binary select post-ops go through the shared post-op code.
        bool handles_select_post_op() const override { return true; }
        status_t init(engine_t *engine);
        const char *name() const override { return "ref:any"; }
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

struct ref_eltwise_bwd_t : public primitive_t {
    struct pd_t : public cpu_pd_t<eltwise_pd_t, ref_eltwise_bwd_t> {
        using cpu_pd_t<eltwise_pd_t, ref_eltwise_bwd_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return "ref:any"; }
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
