// CPU pooling forward for f32 tensors in plain layouts, tried before the
// generic implementation:
//  nxc  (channel stride 1, e.g. nhwc): per output point, the window's input
//       points are combined across the contiguous channels;
//  ncsp (w stride 1, e.g. nchw): per output row, each kernel column adds a
//       strided run of input points to the whole row, with the run's limits
//       computed once instead of a bounds check per element.
// Max keeps the first maximum in (kd, kh, kw) order and writes its kernel
// index to the workspace, as the generic implementation does.
#pragma once

#include <string>

#include "cpu/pooling/pooling.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

// Element strides of a plain descriptor as (n, c, d, h, w); missing spatial
// dims get stride 0.
struct strides5_t {
    dim_t off0 = 0, n = 0, c = 0, d = 0, h = 0, w = 0;
};

// One execution's view of the problem.
struct fast_args_t {
    geom_t g;
    strides5_t S, D, W; // src, dst, workspace
    alg_kind_t alg;
    const float *src; // at offset0
    float *dst;       // at offset0
    void *ws;         // null without workspace
    bool wu8;         // u8 (else s32) workspace
    int nthr;
};

// The two walks, compiled per ISA (pooling_fast_<isa>.cpp).
struct fast_kernels_t {
    const char *isa;
    void (*nxc)(const fast_args_t &a);
    void (*ncsp)(const fast_args_t &a);
};
const fast_kernels_t &fast_kernels_base();
const fast_kernels_t &fast_kernels_avx2();
const fast_kernels_t &fast_kernels_avx512();
// The widest table the processor and the max-ISA setting allow.
const fast_kernels_t &select_fast_kernels();

struct pooling_fast_fwd_t : public primitive_t {
    struct pd_t : public cpu_pd_t<pooling_pd_t, pooling_fast_fwd_t> {
        using cpu_pd_t<pooling_pd_t, pooling_fast_fwd_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        geom_t g{};
        bool nxc = false;
        strides5_t s, d, w; // src, dst, workspace
        const fast_kernels_t *k = nullptr;
        std::string name_;
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
