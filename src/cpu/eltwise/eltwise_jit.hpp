// Forward eltwise on generated code: f32 source and destination of one
// dense layout, no post-ops, an algorithm the injector emits
// (jit::eltwise_injector_t::supports); everything else falls through to
// the compiled kernels (eltwise_simd.*). The primitive takes its kernel
// from the kernel cache when it is created, so primitives that differ
// only in shape share one copy of the code.
#pragma once

#include <memory>
#include <string>

#include "common/eltwise_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/eltwise/eltwise_jit_kernel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

struct jit_eltwise_fwd_t : public primitive_t {
    struct pd_t : public cpu_pd_t<eltwise_pd_t, jit_eltwise_fwd_t> {
        using cpu_pd_t<eltwise_pd_t, jit_eltwise_fwd_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }

        const jit_target_t *target = nullptr;
        dim_t work = 0; // elements processed, padding included
        // The kernel this primitive runs.
        jit_kernel_config_t kernel_config() const;

    private:
        std::string name_;
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    std::shared_ptr<const jit_kernel_t> kernel_;
};

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
