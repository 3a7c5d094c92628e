// What the attributes ask of a reorder (scales and zero points of the
// source and destination, a sum post-op), checked when the descriptor is
// created, and the per-execution values read from the argument memories.
#pragma once

#include <vector>

#include "common/exec_ctx.hpp"
#include "common/memory_desc.hpp"
#include "common/primitive_attr.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

// Indices of the four quantization arrays.
enum { q_src_scale = 0, q_dst_scale, q_src_zp, q_dst_zp, q_count };

struct quant_conf_t {
    bool with[q_count] = {};
    int mask[q_count] = {};
    data_type_t dt[q_count] = {};
    bool with_sum = false;
    float beta = 0.f;

    // True when anything but a plain conversion is needed.
    bool any() const {
        return with[0] || with[1] || with[2] || with[3] || with_sum;
    }
    // True when every array present has mask 0.
    bool all_scalar() const {
        for (int i = 0; i < q_count; ++i)
            if (with[i] && mask[i] != 0) return false;
        return true;
    }
    // The single non-zero mask of the arrays present, 0 when all are
    // scalar, -1 when they differ.
    int common_mask() const;
    // Row-major strides of dims in `mask` over `dims` (0 for other dims).
    static void index_strides(
            int mask, int ndims, const dim_t *dims, dim_t *strides);
};

// Checks the attributes against what the CPU reorders support; returns
// dnnl_unimplemented for anything else.
status_t init_quant_conf(quant_conf_t &conf, const primitive_attr_t &attr,
        const memory_desc_t &src, const memory_desc_t &dst);

// Values of one execution: f32 scales and s32 zero points as dense arrays
// indexed by the row-major position over the dims in their mask.
struct quant_values_t {
    const float *scale[2] = {}; // src, dst (null: 1)
    const int32_t *zp[2] = {};  // src, dst (null: 0)
    float beta = 0.f;

    quant_values_t() = default;
    quant_values_t(const quant_values_t &) = delete;
    quant_values_t &operator=(const quant_values_t &) = delete;

    // Reads the arrays from the execution arguments (converting other
    // data types); fails when a needed argument is missing or too small.
    status_t init(const exec_ctx_t &ctx, const quant_conf_t &conf,
            const memory_desc_t &src);

private:
    std::vector<float> scale_buf_[2];
    std::vector<int32_t> zp_buf_[2];
    float one_ = 1.f;
    int32_t zero_ = 0;
};

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
