// Integer matmul over oneDNN's full quantization grid on the gpu engine
// (common/matmul_quant_grid.hpp: grouped and multi-dimensional scales and
// zero points, precomputed source reductions), which the GEMM kernels do
// not take: a reference kernel (quant_matmul.cl), one work-item per
// output element, each product dequantized with its own scales and zero
// points, then bias, the post-op chain, 1 / dst scale and the dst zero
// point. Plain layouts of any strides, up to six dims.
#pragma once

#include <vector>

#include "common/matmul_pd.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_quant_matmul_t : public primitive_t {
    struct pd_t : public ocl_pd_t<matmul_pd_t, ocl_quant_matmul_t> {
        pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : ocl_pd_t(d, attr) {}
        status_t init(engine_t *engine);
        const char *name() const override { return "ocl:ref_quant"; }
        bool handles_precomputed_reductions() const override { return true; }

        post_ops_conf_t post_ops;
        std::vector<int64_t> conf; // quant_conf of quant_matmul.cl
        int64_t rows = 0;          // dst rows: batch x M
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    ocl_kernel_t kernel_;
    device_table_t conf_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
