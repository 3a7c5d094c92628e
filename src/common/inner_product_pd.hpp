// Inner product: the operation descriptor, its validating constructor and
// attribute check used by the C API, and the primitive descriptor base of
// every inner product implementation (forward, backward data, backward
// weights).
//
// Forward: dst(MB, OC) = src(MB, IC, spatial...) . weights(OC, IC,
// spatial...) + bias(OC), the IC and spatial dims flattened together.
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct inner_product_desc_t : public op_desc_impl_t<inner_product_desc_t> {
    inner_product_desc_t() : op_desc_impl_t(dnnl_inner_product) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    memory_desc_t src_desc {};
    memory_desc_t diff_src_desc {};
    memory_desc_t weights_desc {};
    memory_desc_t diff_weights_desc {};
    memory_desc_t bias_desc {};
    memory_desc_t diff_bias_desc {};
    memory_desc_t dst_desc {};
    memory_desc_t diff_dst_desc {};
    data_type_t accum_data_type = dnnl_data_type_undef;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("src", src_desc);
        v("diff_src", diff_src_desc);
        v("weights", weights_desc);
        v("diff_weights", diff_weights_desc);
        v("bias", bias_desc);
        v("diff_bias", diff_bias_desc);
        v("dst", dst_desc);
        v("diff_dst", diff_dst_desc);
        v("accum_data_type", accum_data_type);
    }
};

// Fills `d` from the C API arguments. For backward data `src` is diff_src,
// for backward weights `weights`/`bias` are the diff_ ones; `dst` is
// diff_dst for both backward kinds. dnnl_invalid_arguments for
// inconsistent shapes, dnnl_unimplemented for runtime dims.
status_t ip_desc_init(inner_product_desc_t &d, prop_kind_t prop,
        const memory_desc_t *src, const memory_desc_t *weights,
        const memory_desc_t *bias, const memory_desc_t *dst);

// Attributes an inner product may take at all (dnnl_unimplemented else):
// forward: scales when the source is int8 (on gpu also an integer
// destination; src/dst per tensor, weights per tensor or per OC) and
// eltwise/sum/binary/prelu post-ops; backward: none beyond fpmath,
// accumulation and scratchpad modes. oneDNN's rules.
status_t ip_attr_check(const inner_product_desc_t &d, const primitive_attr_t *attr,
        engine_kind_t engine_kind);

struct inner_product_pd_t : public primitive_desc_t {
    inner_product_pd_t(const inner_product_desc_t &d, const primitive_attr_t &attr);

    const inner_product_desc_t *desc() const {
        return static_cast<const inner_product_desc_t *>(op_desc());
    }
    prop_kind_t prop() const { return desc()->prop_kind; }
    bool is_fwd() const {
        return prop() == dnnl_forward_training || prop() == dnnl_forward_inference;
    }
    bool is_bwd_d() const { return prop() == dnnl_backward_data; }
    bool is_bwd_w() const { return prop() == dnnl_backward_weights; }

    // Resolved descriptors: src is diff_src for backward data, weights and
    // bias are the diff_ ones for backward weights, dst is diff_dst for the
    // backward kinds.
    const memory_desc_t &src_md() const { return src_md_; }
    const memory_desc_t &weights_md() const { return weights_md_; }
    const memory_desc_t &bias_md() const { return bias_md_; }
    const memory_desc_t &dst_md() const { return dst_md_; }

    int ndims() const { return src_md_.ndims; }
    bool with_bias() const { return !is_zero_md(bias_md_); }
    dim_t MB() const { return src_md_.dims[0]; }
    dim_t OC() const { return dst_md_.dims[1]; }
    dim_t IC_total() const; // IC times the spatial sizes

    const memory_desc_t *arg_md(int arg) const override;
    arg_usage_t arg_usage(int arg) const override;
    status_t query(query_t what, int index, void *result) const override;

protected:
    // Replaces format `any`: src (or diff_src) plain row-major unless the
    // weights are given, weights ordered like src with OC outermost (or
    // plain), dst and bias plain. Unimplemented when the resolved layouts
    // are not plain, unless `allow_blocked`: then src (not along MB) and
    // weights may be blocked, and `any` follows the other's blocking
    // (nCdhw16c src: weights blocked by 16 input channels, OC outermost).
    status_t init_formats(bool allow_blocked = false);

    memory_desc_t src_md_;
    memory_desc_t weights_md_;
    memory_desc_t bias_md_;
    memory_desc_t dst_md_;
};

} // namespace impl
} // namespace dnnl
