// Deconvolution (transposed convolution): the operation descriptor, its
// validating constructor and the primitive descriptor base. Implementations
// run it through convolution kernels with the roles of the tensors swapped.
#pragma once

#include <string>

#include "common/convolution_pd.hpp"

namespace dnnl {
namespace impl {

struct deconvolution_desc_t : public op_desc_impl_t<deconvolution_desc_t> {
    deconvolution_desc_t() : op_desc_impl_t(dnnl_deconvolution) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    alg_kind_t alg_kind = dnnl_alg_kind_undef;
    memory_desc_t src_desc {};
    memory_desc_t diff_src_desc {};
    memory_desc_t weights_desc {};
    memory_desc_t diff_weights_desc {};
    memory_desc_t bias_desc {};
    memory_desc_t diff_bias_desc {};
    memory_desc_t dst_desc {};
    memory_desc_t diff_dst_desc {};
    dims_t strides {};
    dims_t dilates {};
    dims_t padding_l {};
    dims_t padding_r {};
    data_type_t accum_data_type = dnnl_data_type_undef;

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("alg", alg_kind);
        v("src", src_desc);
        v("diff_src", diff_src_desc);
        v("weights", weights_desc);
        v("diff_weights", diff_weights_desc);
        v("bias", bias_desc);
        v("diff_bias", diff_bias_desc);
        v("dst", dst_desc);
        v("diff_dst", diff_dst_desc);
        v("strides", strides);
        v("dilates", dilates);
        v("padding_l", padding_l);
        v("padding_r", padding_r);
        v("accum_data_type", accum_data_type);
    }
};

// Same argument roles as conv_desc_init; the spatial relation is the
// transposed one: src = (dst - ker_range + pad_l + pad_r) / stride + 1.
status_t deconv_desc_init(deconvolution_desc_t &dd, prop_kind_t prop_kind,
        alg_kind_t alg_kind, const memory_desc_t *src_desc,
        const memory_desc_t *weights_desc, const memory_desc_t *bias_desc,
        const memory_desc_t *dst_desc, const dims_t strides,
        const dims_t dilates, const dims_t padding_l, const dims_t padding_r);

status_t deconv_attr_check(
        const deconvolution_desc_t &dd, const primitive_attr_t *attr);

struct deconvolution_pd_t : public conv_like_pd_t<deconvolution_desc_t> {
    deconvolution_pd_t(const deconvolution_desc_t &d,
            const primitive_attr_t &attr, const primitive_desc_t *hint_fwd)
        : conv_like_pd_t(d, attr) {}
};

} // namespace impl
} // namespace dnnl
