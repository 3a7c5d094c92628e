// Winograd convolution on the gpu engine (oneDNN's gpu engine takes
// `convolution_winograd` for f32 / f16 forward 3x3 unit-stride kernels):
// F(2x2, 3x3) after Lavin and Gray. Each execution transforms the weights
// (U = G g G^T, 16 values per output and input channel) into the
// scratchpad, then a work-item per 2x2 output tile, output channel and
// image transforms each input channel's 4x4 patch (V = B^T d B),
// accumulates U * V element-wise over the channels and transforms the sum
// back (Y = A^T M A); bias and the post-op chain follow per output. 2D
// without groups or dilation, plain layouts of any strides (`any`: nchw,
// oihw), no scales or zero points; backward is the direct algorithm's
// only, as in oneDNN.
#pragma once

#include <vector>

#include "common/convolution_pd.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_wino_convolution_t : public primitive_t {
    struct pd_t : public ocl_pd_t<convolution_pd_t, ocl_wino_convolution_t> {
        using ocl_pd_t<convolution_pd_t, ocl_wino_convolution_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return "ocl:wino:f2x2_3x3"; }

        post_ops_conf_t post_ops;
        std::vector<int64_t> conf; // wino_conf of wino_conv.cl
        int64_t tiles = 0;         // 2x2 output tiles of an image
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    ocl_kernel_t weights_, conv_;
    device_table_t conf_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
