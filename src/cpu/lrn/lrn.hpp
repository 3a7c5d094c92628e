// CPU LRN, forward and backward, across and within channels, f32/bf16/f16.
// Dense nchw-like, nhwc-like and channel-blocked layouts are walked in
// place (tiles converted to f32 where the type is not f32); other layouts
// go through dense f32 copies. The arithmetic is in lrn_kernels_*.
#pragma once

#include <string>

#include "common/lrn_pd.hpp"
#include "cpu/chan_layout.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/kernel_name.hpp"
#include "cpu/lrn/lrn_kernels.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace lrn {

template <bool fwd>
struct lrn_t : public primitive_t {
    struct pd_t : public cpu_pd_t<lrn_pd_t, lrn_t> {
        using cpu_pd_t<lrn_pd_t, lrn_t>::cpu_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override { return name_.c_str(); }
        // Fills bufs, P and nthr and books the scratchpad.
        void plan_buffers();

        params_t prm;
        const kernel_table_t *ker = nullptr;
        // The walk every tensor shares; `other` means dense f32 copies.
        chan_class_t walk = chan_class_t::other;
        dim_t B = 1;
        // Channel segment of the point-row walk: 16, or less when a
        // blocked tensor's block is not a multiple of 16.
        dim_t seg = 16;
        dim_t N = 0, C = 0, SP = 1;
        dim_t sp[3] = {1, 1, 1}; // d, h, w (within channel)
        // Each thread's buffers in the scratchpad, in floats: the copies
        // of x, y, ws and diff_dst (zero where a tensor is walked in
        // place) and the kernels' scratch; `P` points a tile (across).
        struct thread_bufs_t {
            dim_t x = 0, y = 0, ws = 0, dd = 0, scratch = 0;
            dim_t total() const { return x + y + ws + dd + scratch; }
        } bufs;
        dim_t P = 0;
        int nthr = 1; // threads the scratchpad has buffers for
        std::string name_;
        // The kernels' operation and walk for the name: lrn_within,
        // lrn_across_cp (channel rows of point tiles) or lrn_across_pc<S>
        // (point rows of S-channel segments).
        std::string kernel_op() const {
            if (!this->across()) return "lrn_within";
            if (walk == chan_class_t::nspc || walk == chan_class_t::blocked)
                return "lrn_across_pc" + std::to_string(seg);
            return "lrn_across_cp";
        }
    };

    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

} // namespace lrn
} // namespace cpu
} // namespace impl
} // namespace dnnl
