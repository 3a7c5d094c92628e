// CPU pooling, forward and backward: any layout (dense row-major f32 used in
// place, others converted through an f32 buffer), f32/bf16/f16, 1D-3D,
// dilation, max (workspace: u8 or s32 kernel index) and average; forward
// applies eltwise and binary post-ops.
#pragma once

#include "common/pooling_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

// Problem geometry with missing spatial dims set to 1 (d, h, w order).
struct geom_t {
    dim_t mb, c, id, ih, iw, od, oh, ow, kd, kh, kw, sd, sh, sw, dd, dh, dw, pd, ph, pw;
};

// Fills `g` from the descriptor (src / dst for forward, diff_src / diff_dst
// for backward).
void init_geom(const pooling_pd_t &pd, const memory_desc_t &src, const memory_desc_t &dst,
        geom_t &g);

template <bool fwd>
struct pooling_t : public primitive_t {
    struct pd_t : public cpu_pd_t<pooling_pd_t, pooling_t> {
        using cpu_pd_t<pooling_pd_t, pooling_t>::cpu_pd_t;
        // Binary select post-ops go through the shared post-op code.
        bool handles_select_post_op() const override { return true; }
        status_t init(engine_t *engine);
        const char *name() const override { return "ref:any"; }
        geom_t g {};
        postops::postops_t po; // forward: eltwise and binary post-ops
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace pooling
} // namespace cpu
} // namespace impl
} // namespace dnnl
