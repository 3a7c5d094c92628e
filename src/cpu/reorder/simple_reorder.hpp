// The fast CPU reorder (simple:*): plain and blocked layouts whose blocks
// nest, any supported data type pair, scales and zero points whose masks
// agree, and the sum post-op; see simple_plan.hpp for how it works.
#pragma once

#include <string>

#include "common/exec_ctx.hpp"
#include "common/reorder_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/reorder/simple_exec.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

struct simple_reorder_t : public primitive_t {
    struct pd_t : public cpu_pd_t<reorder_pd_t, simple_reorder_t> {
        using cpu_pd_t::cpu_pd_t;
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);

        quant_conf_t conf;
        simple_plan_t plan;
        const exec_kernel_t *exec = nullptr;
        std::string name_;
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
