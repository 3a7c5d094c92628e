// ref:any, the reorder that applies to every pair of blocked descriptors
// the CPU supports (the last entry of the implementation list), runtime
// dims and strides included.
#pragma once

#include "common/exec_ctx.hpp"
#include "common/reorder_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/reorder/ref_reorder_engine.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

struct ref_reorder_t : public primitive_t {
    struct pd_t : public cpu_pd_t<reorder_pd_t, ref_reorder_t> {
        using cpu_pd_t::cpu_pd_t;
        const char *name() const override { return "ref:any"; }
        status_t init(engine_t *engine);

        quant_conf_t conf;
        ref_tables_t tables;
        // Runtime dims or strides: conf and tables come per execution from
        // the memories' descriptors.
        bool runtime = false;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
