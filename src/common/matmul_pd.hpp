// Matmul: the operation descriptor (matmul_desc_t), its validating
// constructor used by the C API, and the primitive descriptor base every
// matmul implementation derives from.
//
// dst(b..., M, N) = src(b..., M, K) x weights(b..., K, N) [+ bias], with
// numpy-style broadcast of the batch dims (size 1 against size n) and
// DNNL_RUNTIME_DIM_VAL dims or strides resolved at execution.
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct matmul_desc_t : public op_desc_impl_t<matmul_desc_t> {
    matmul_desc_t() : op_desc_impl_t(dnnl_matmul) {}
    memory_desc_t src_desc {};
    memory_desc_t weights_desc {};
    memory_desc_t bias_desc {};
    memory_desc_t dst_desc {};
    data_type_t accum_data_type = dnnl_data_type_undef;

    template <typename V>
    void visit(V &v) const {
        v("src", src_desc);
        v("weights", weights_desc);
        v("bias", bias_desc);
        v("dst", dst_desc);
        v("accum_data_type", accum_data_type);
    }
};

// Fills `md` from the C API arguments with oneDNN's shape rules; returns
// dnnl_invalid_arguments for inconsistent shapes and unknown data type
// combinations.
status_t matmul_desc_init(matmul_desc_t &md, const memory_desc_t *src,
        const memory_desc_t *weights, const memory_desc_t *bias,
        const memory_desc_t *dst);

// Checks the attributes against what matmul accepts at all (oneDNN's
// matmul attribute rules); dnnl_unimplemented otherwise.
status_t matmul_attr_check(const matmul_desc_t &md, const primitive_attr_t *attr);

struct matmul_pd_t : public primitive_desc_t {
    matmul_pd_t(const matmul_desc_t &d, const primitive_attr_t &attr)
        : primitive_desc_t(d, attr)
        , src_md_(d.src_desc)
        , weights_md_(d.weights_desc)
        , bias_md_(d.bias_desc)
        , dst_md_(d.dst_desc) {}

    const matmul_desc_t *desc() const {
        return static_cast<const matmul_desc_t *>(op_desc());
    }
    // Descriptors with `any` resolved (after init_formats).
    const memory_desc_t &src_md() const { return src_md_; }
    const memory_desc_t &weights_md() const { return weights_md_; }
    const memory_desc_t &bias_md() const { return bias_md_; }
    const memory_desc_t &dst_md() const { return dst_md_; }
    // The dropout mask's layout (zero md: no mask, or no dropout here).
    const memory_desc_t &dropout_mask_md() const { return dropout_mask_md_; }

    int ndims() const { return dst_md_.ndims; }
    bool with_bias() const { return !is_zero_md(bias_md_); }
    // Sizes from the descriptors (DNNL_RUNTIME_DIM_VAL when runtime).
    dim_t M() const { return dst_md_.dims[ndims() - 2]; }
    dim_t N() const { return dst_md_.dims[ndims() - 1]; }
    dim_t K() const { return src_md_.dims[ndims() - 1]; }
    bool has_runtime_dims_or_strides() const;

    const memory_desc_t *arg_md(int arg) const override;
    // The descriptor of an argument as created (runtime dims included).
    const memory_desc_t *declared_arg_md(int arg) const;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Replaces format `any`: plain row-major for src, weights, dst and
    // bias. Fails (unimplemented) when the result is not a plain layout.
    status_t init_formats();
    // For implementations that apply the dropout attribute (after
    // init_formats): dst must be dense row-major, which dropout's element
    // offsets are defined over, and the mask has dst's dims and layout
    // (`any` resolves to it); dnnl_unimplemented with a verbose line
    // otherwise. Sets dropout_mask_md_, which arg_md and the queries
    // then report.
    status_t init_dropout_mask();

    memory_desc_t dropout_mask_md_ {}; // zero md: no mask

    memory_desc_t src_md_;
    memory_desc_t weights_md_;
    memory_desc_t bias_md_;
    memory_desc_t dst_md_;
};

} // namespace impl
} // namespace dnnl
