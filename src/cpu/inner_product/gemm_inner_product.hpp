// Inner product on the GEMM core, all three propagation kinds:
//   forward:          dst = src . weights^T  (+ epilogue: scales, bias,
//                     post-ops), f32/bf16/f16 and int8;
//   backward data:    diff_src = diff_dst . weights;
//   backward weights: diff_weights = diff_dst^T . src, diff_bias = column
//                     sums of diff_dst.
// Sources of 2 to 5 dims are flattened in the memory order of src (which
// must be dense over IC and spatial dims); weights in another order are
// gathered into that order (backward weights: scattered back).
#pragma once

#include <string>
#include <vector>

#include "common/inner_product_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/postops/gemm_epilogue.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace inner_product {

struct gemm_inner_product_t : public primitive_t {
    struct pd_t : public cpu_pd_t<inner_product_pd_t, gemm_inner_product_t> {
        pd_t(const inner_product_desc_t &d, const primitive_attr_t &attr,
                const primitive_desc_t *)
            : cpu_pd_t(d, attr) {}
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *engine);
        bool handles_select_post_op() const override { return true; }

        bool is_int8() const { return is_int8_; }
        const postops::gemm_epilogue_t &epilogue() const { return epi_; }
        // GEMM shape of the propagation kind: C is gm x gn, reduction gk.
        dim_t gm() const;
        dim_t gn() const;
        dim_t gk() const;
        // Whether C is the user's output (f32/s32, unit column stride).
        bool acc_direct() const { return acc_direct_; }
        dim_t chunk() const { return chunk_; } // C rows per GEMM call
        size_t acc_bytes() const { return acc_bytes_; }
        size_t ws_bytes() const { return ws_bytes_; }
        size_t gather_bytes() const { return gather_bytes_; }
        // Weights laid out unlike src: k_offsets()[k] is the offset within
        // a weights row of the k-th element in src's K order.
        bool wei_gather() const { return wei_gather_; }
        const std::vector<dim_t> &k_offsets() const { return k_off_; }
        // With wei_gather(): offset of each weights row (OC index).
        const std::vector<dim_t> &oc_offsets() const { return oc_off_; }
        // Forward weights in the GEMM core's pre-packed B layout
        // (ip_packed_weights.hpp), panels wei_packed_k() deep.
        bool wei_packed() const { return wei_packed_; }
        dim_t wei_packed_k() const { return wei_packed_k_; }

    private:
        bool data_types_ok() const;
        bool k_layout_ok() const;
        void init_k_offsets();
        status_t init_packed_weights();
        bool is_int8_ = false;
        bool wei_packed_ = false;
        dim_t wei_packed_k_ = 0;
        bool acc_direct_ = false;
        bool wei_gather_ = false;
        dim_t chunk_ = 0;
        size_t acc_bytes_ = 0, ws_bytes_ = 0, gather_bytes_ = 0;
        std::vector<dim_t> k_off_, oc_off_;
        postops::gemm_epilogue_t epi_;
        std::string name_;
    };

    using primitive_t::primitive_t;
    const pd_t *pd() const {
        return static_cast<const pd_t *>(primitive_t::pd());
    }
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const char *gather_weights(const char *wei, size_t wsz, char *scratch) const;
    status_t execute_fwd(const exec_ctx_t &ctx, char *scratch) const;
    status_t execute_bwd_d(const exec_ctx_t &ctx, char *scratch) const;
    status_t execute_bwd_w(const exec_ctx_t &ctx, char *scratch) const;
};

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
