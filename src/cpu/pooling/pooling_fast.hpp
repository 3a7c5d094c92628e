// CPU pooling for f32 tensors, tried before the generic implementation:
//  - the channel-vector walk (pooling_cv.hpp), forward and backward, for
//    channels-last, nChw16c / nChw8c and ncsp layouts;
//  - the row walk, forward only, for ncsp tensors with fewer than 16
//    channels (too few to fill the transposed vectors): per output row,
//    each kernel column adds a strided run of input points to the whole
//    row, with the run's limits computed once instead of a bounds check per
//    element; global pooling there is one reduction per (n, c).
// Max keeps the first maximum in (kd, kh, kw) order and writes its kernel
// index to the workspace, as the generic implementation does.
#pragma once

#include "cpu/isa_table.hpp"

#include <string>

#include "cpu/pooling/pooling.hpp"
#include "cpu/pooling/pooling_cv.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

// Element strides of a plain descriptor as (n, c, d, h, w); missing spatial
// dims get stride 0.
struct strides5_t {
    dim_t off0 = 0, n = 0, c = 0, d = 0, h = 0, w = 0;
};

// One execution of the row walk.
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

// The walks, compiled once per ISA (pooling_fast_kernels.cpp: the row
// walk, pooling_cv_kernels.cpp: the channel-vector walk).
struct fast_kernels_t {
    const char *isa;
    void (*ncsp)(const fast_args_t &a);
    cv_kernels_t cv;
};
void fwd_ncsp_base(const fast_args_t &a);
void cv_fwd_base(const cv_args_t &a);
void cv_bwd_base(const cv_args_t &a);
void fwd_ncsp_avx2(const fast_args_t &a);
void cv_fwd_avx2(const cv_args_t &a);
void cv_bwd_avx2(const cv_args_t &a);
void fwd_ncsp_avx512_core(const fast_args_t &a);
void cv_fwd_avx512_core(const cv_args_t &a);
void cv_bwd_avx512_core(const cv_args_t &a);

// Their table, best first (cpu/isa_table.hpp), that a primitive
// descriptor picks from once (select_fast_kernels: the first that may
// run).
const isa_table_t<fast_kernels_t> &fast_kernel_table();
const fast_kernels_t &select_fast_kernels();

// What the channel-vector walk needs from the descriptors, fixed at
// primitive-descriptor creation.
struct cv_plan_t {
    geom_t g {};
    cv_kind_t kind = cv_kind_t::direct;
    int gw = 16;
    dim_t ngroups = 0;
    int tail = 0;
    bool out_padded = false, ws_padded = false;
    cv_view_t I, O, W;
    dim_t in_off0 = 0, out_off0 = 0, ws_off0 = 0;
};

// Fills `p` for tensors `in` (src / diff_dst) and `out` (dst / diff_src)
// and the workspace `ws` (null when there is none); `g` is the geometry.
// dnnl_unimplemented when the layouts do not fit the walk.
status_t cv_plan(const geom_t &g, bool fwd, const memory_desc_t &in,
        const memory_desc_t &out, const memory_desc_t *ws, cv_plan_t &p);

// Threads for a problem of `g` (about 32k window taps each at least).
int pool_nthr(const geom_t &g);

struct pooling_fast_fwd_t : public primitive_t {
    struct pd_t : public cpu_pd_t<pooling_pd_t, pooling_fast_fwd_t> {
        using cpu_pd_t<pooling_pd_t, pooling_fast_fwd_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        geom_t g {};
        bool rows = false; // the row walk, else the channel-vector walk
        strides5_t s, d, w; // row walk: src, dst, workspace
        cv_plan_t cv;
        const fast_kernels_t *k = nullptr;
        std::string name_;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

struct pooling_fast_bwd_t : public primitive_t {
    struct pd_t : public cpu_pd_t<pooling_pd_t, pooling_fast_bwd_t> {
        using cpu_pd_t<pooling_pd_t, pooling_fast_bwd_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        cv_plan_t cv;
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
