// Pooling on the gpu engine, forward (max with workspace in training,
// average including or excluding padding, fused eltwise / sum / binary
// post-ops) and backward, 1D to 3D with strides, dilation and padding,
// any blocked layouts: one work-item per output element or per vector of
// channels (pooling.cl).
#pragma once

#include <vector>

#include "common/pooling_pd.hpp"
#include "gpu/ocl/ocl_offset_table.hpp"
#include "gpu/ocl/ocl_post_ops.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

struct ocl_pooling_t : public primitive_t {
    struct pd_t : public ocl_pd_t<pooling_pd_t, ocl_pooling_t> {
        using ocl_pd_t<pooling_pd_t, ocl_pooling_t>::ocl_pd_t;
        status_t init(engine_t *engine);
        const char *name() const override {
            return generic          ? "ocl:pooling:any"
                   : phased         ? "ocl:pooling:phased"
                   : tiles          ? "ocl:pooling:tiles"
                   : row_chunks > 0 ? "ocl:pooling:rows_vec"
                   : lane_dim == 4  ? "ocl:pooling:rows"
                                    : "ocl:pooling:blocked";
        }

        bool generic = false;      // layout_t offsets at every tap
        bool int32 = false;        // 32-bit index arithmetic
        bool out_dense = false;    // written tensor dense in its walk order
        bool ws_dense = false;     // forward workspace walks with dst
        int vec = 1;               // lanes per work-item
        int lane_dim = 1;          // the lanes' dim: 1 channels, 4 w
        bool unroll = false;       // forward window size compiled in
        int64_t window_h = 0, window_w = 0; // that size (0: run time)
        // Aligned source chunks per row (0: taps loaded one by one), and
        // what indexes them at compile time: chunks before the first
        // output's window, the padding's phase in a chunk, stride and
        // dilation step along w.
        int64_t row_chunks = 0, row_lead = 0, row_phase = 0;
        int64_t row_stride = 1, row_step = 1;
        int64_t work = 0;          // work-items
        // Backward in tiles held in local memory (pool_bwd_tiles; 1: nchw
        // planes, 2: channels last, 0: not): groups of `tile_lanes` lanes,
        // each with a tile of `tile_local` floats and `tile_staged`
        // diff_dst values (and workspace indices).
        int tiles = 0;
        int tile_dim = 0; // 0: d, 1: h
        int64_t tile_groups = 0, tile_lanes = 0, tile_local = 0;
        int64_t tile_staged = 0;
        // Backward gathered with the window compiled in (pool_bwd_phased):
        // blocks of stride elements along d and h and stride x ph_v along
        // w, ph_blocks of them along each dim, each reading the outputs
        // block * (1, 1, ph_v) + [ph_t[i][0], ph_t[i][1]]; the window's
        // kernel, stride and padding per dim; stores of ph_vec elements.
        bool phased = false;
        int64_t ph_v = 1, ph_vec = 1;
        int64_t ph_t[3][2] = {}, ph_blocks[3] = {}, ph_window[3][3] = {};
        // Its launch: element offsets of diff_src, diff_dst and the
        // workspace, diff_src's and diff_dst's d, h, w, the work-items
        // and the int32_divider (magic, shift) of each dim's blocks.
        int64_t ph_offsets[3] = {}, ph_dims[6] = {}, ph_items = 0;
        int64_t ph_div[3][2] = {};
        std::vector<int64_t> conf; // pool_conf_t of pooling.cl
        post_ops_conf_t post_ops;

    private:
        status_t check_data_types() const;
        void init_conf(const device_info_t &dev);
        // The tile fields of pool_conf_t (zeros unless `tiles`).
        std::vector<int64_t> init_tiles(const device_info_t &dev,
                const memory_desc_t &s, const int64_t *k, const int64_t *st,
                const int64_t *step);
        void init_phased(const memory_desc_t &s, const int64_t *k,
                const int64_t *st, const int64_t *step, const int64_t *pad);
        void init_row_chunks(const memory_desc_t &s,
                const std::vector<const memory_desc_t *> &all, int in_dim,
                int64_t in_ext, int64_t in_step, int64_t kw, int64_t sw,
                int64_t dw, int64_t pw);
    };

    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
    status_t execute_phased(const exec_ctx_t &ctx, kernel_args_t &args) const;
    ocl_kernel_t kernel_;
    device_table_t conf_;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
