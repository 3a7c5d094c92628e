// CPU resampling, forward (with eltwise, binary and sum post-ops) and
// backward, nearest and linear, 1D-3D, any data type oneDNN takes
// (forward: f32/bf16/f16/s8/u8 in and out; backward: f32/bf16/f16).
// Dense nchw-like layouts are walked row by row (vertical blend, then a
// gather along w); nhwc-like and channel-blocked layouts point by point
// with contiguous channel vectors; other layouts through dense f32 copies.
#pragma once

#include <string>

#include "common/resampling_pd.hpp"
#include "cpu/chan_layout.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/postops/postops.hpp"
#include "cpu/resampling/resampling_kernels.hpp"
#include "cpu/resampling/resampling_taps.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {

// What the kernels need of a problem.
struct geom_t {
    dim_t N = 0, C = 0;
    int nd = 0; // logical ndims
    bool linear = false;
    taps_t t[3]; // d, h, w (missing dims: in = out = 1)
    chan_class_t walk = chan_class_t::other;
    const kernel_table_t *ker = nullptr; // row kernels of the best ISA

    // Threads for one pass: by the values it reads and writes (both
    // tensors), 16K a thread, so that small problems run on the caller
    // instead of waking a team for a few rows (1 x 1 x 5 x 6 -> 9 x 4
    // nearest: 2.0 -> 0.55 us).
    int team() const {
        dim_t in = N * C, out = N * C;
        for (const taps_t &d : t) {
            in *= d.in;
            out *= d.out;
        }
        return nthr_for(in + out, 16 * 1024);
    }
};

// A tensor as the kernels walk it.
struct tensor_t {
    char *base = nullptr;
    data_type_t dt = dnnl_f32;
    size_t esz = 4;
    chan_layout_t l;
    char *at(dim_t n, dim_t c, dim_t s) const {
        return base + l.off(n, c, s) * esz;
    }
};

struct fwd_args_t {
    tensor_t src, dst;
    const postops::postops_t *po = nullptr;
    const postops::postops_args_t *po_args = nullptr;
    // Where the sum post-op reads the old dst: the dst itself, unless dst
    // is a dense f32 copy; then the user's plain dst (old_md).
    const void *old_base = nullptr;
    const memory_desc_t *old_md = nullptr;
};

void fwd_ncsp(const geom_t &g, const fwd_args_t &a);
void fwd_vec(const geom_t &g, const fwd_args_t &a);
void bwd_ncsp(const geom_t &g, const tensor_t &dd, const tensor_t &ds);
void bwd_vec(const geom_t &g, const tensor_t &dd, const tensor_t &ds);

template <bool fwd>
struct resampling_t : public primitive_t {
    struct pd_t : public cpu_pd_t<resampling_pd_t, resampling_t> {
        using cpu_pd_t<resampling_pd_t, resampling_t>::cpu_pd_t;
        // Binary select post-ops go through the shared post-op code.
        bool handles_select_post_op() const override { return true; }
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        geom_t g;
        postops::postops_t po;
        std::string name_;
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl
