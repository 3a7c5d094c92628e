// Vectorised eltwise for dense layouts: all tensors share one dense
// layout, so the operation is a map over one contiguous array. The
// threading layer splits the array; each thread runs the per-ISA kernels (through an f32
// buffer for other data types). Padded blocked layouts are processed
// padding included when the algorithm maps 0 to 0. Forward takes binary
// post-ops with a scalar or same-layout second source.
#pragma once

#include <string>
#include <vector>

#include "common/eltwise_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

struct simd_eltwise_fwd_t : public primitive_t {
    struct pd_t : public cpu_pd_t<eltwise_pd_t, simd_eltwise_fwd_t> {
        using cpu_pd_t<eltwise_pd_t, simd_eltwise_fwd_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }

        const kernel_table_t *kernels = nullptr;
        dim_t work = 0; // elements processed, padding included
        // f32 source and destination, no post-ops: the kernels run on
        // the arrays straight ("flat" in the name), else through f32
        // blocks ("stage1024").
        bool flat = false;
        // Binary post-ops whose second source is one value (all dims 1)
        // or a tensor of the destination's layout.
        struct binary_po_t {
            alg_kind_t alg;
            bool scalar;
        };
        std::vector<binary_po_t> post_ops;

    private:
        std::string name_;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

struct simd_eltwise_bwd_t : public primitive_t {
    struct pd_t : public cpu_pd_t<eltwise_pd_t, simd_eltwise_bwd_t> {
        using cpu_pd_t<eltwise_pd_t, simd_eltwise_bwd_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }

        const kernel_table_t *kernels = nullptr;
        dim_t work = 0;
        bool flat = false; // all three tensors f32: no staging

    private:
        std::string name_;
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
