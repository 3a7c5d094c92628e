// Convolution: the operation descriptor (convolution_desc_t), its
// validating constructor shared by the C API and deconvolution, and the
// primitive descriptor base (convolution_pd_t) shared by every
// convolution implementation.
//
// The cache key of a convolution deliberately ignores the requested
// algorithm: a convolution_auto request and the convolution_direct request
// it resolves to must reach the same cache entry (rfcs/02). The descriptor
// still stores what the user asked for (alg_kind); the key compares
// `key_alg`, which folds auto into direct but keeps winograd apart.
#pragma once

#include <string>

#include "common/op_desc.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {

struct convolution_desc_t : public op_desc_impl_t<convolution_desc_t> {
    convolution_desc_t() : op_desc_impl_t(dnnl_convolution) {}
    prop_kind_t prop_kind = dnnl_prop_kind_undef;
    alg_kind_t alg_kind = dnnl_alg_kind_undef; // as requested, not in the key
    alg_kind_t key_alg = dnnl_alg_kind_undef; // auto folded into direct
    memory_desc_t src_desc {};
    memory_desc_t diff_src_desc {};
    memory_desc_t weights_desc {};
    memory_desc_t diff_weights_desc {};
    memory_desc_t bias_desc {};
    memory_desc_t diff_bias_desc {};
    memory_desc_t dst_desc {};
    memory_desc_t diff_dst_desc {};
    dims_t strides {};
    dims_t dilates {}; // oneDNN convention: 0 is a dense kernel
    dims_t padding_l {};
    dims_t padding_r {};
    data_type_t accum_data_type = dnnl_data_type_undef;
    int use_inversion = 0; // internal: built from a deconvolution

    template <typename V>
    void visit(V &v) const {
        v("prop_kind", prop_kind);
        v("alg", key_alg);
        v("src", src_desc);
        v("diff_src", diff_src_desc);
        v("weights", weights_desc);
        v("diff_weights", diff_weights_desc);
        v("bias", bias_desc);
        v("diff_bias", diff_bias_desc);
        v("dst", dst_desc);
        v("diff_dst", diff_dst_desc);
        // Only the spatial entries are in use.
        const int sp = (src_desc.ndims ? src_desc.ndims : diff_src_desc.ndims) - 2;
        v("strides", strides, sp);
        v("dilates", dilates, sp);
        v("padding_l", padding_l, sp);
        v("padding_r", padding_r, sp);
        v("accum_data_type", accum_data_type);
        v("use_inversion", use_inversion);
    }
};

// oneDNN's default accumulation type for (src, weights, dst) data types;
// dnnl_data_type_undef for combinations no convolution can accumulate.
data_type_t conv_default_accum_data_type(data_type_t src_dt,
        data_type_t wei_dt, data_type_t dst_dt, prop_kind_t prop_kind);

// Fills `cd` from the arguments of the C API, checking that the shapes are
// consistent. For backward data `src_desc` is diff_src, for backward
// weights `weights_desc`/`bias_desc` are the diff_ ones; `dst_desc` is
// diff_dst for both backward kinds. Returns dnnl_invalid_arguments for
// inconsistent problems and dnnl_unimplemented for runtime dims.
status_t conv_desc_init(convolution_desc_t &cd, prop_kind_t prop_kind,
        alg_kind_t alg_kind, const memory_desc_t *src_desc,
        const memory_desc_t *weights_desc, const memory_desc_t *bias_desc,
        const memory_desc_t *dst_desc, const dims_t strides,
        const dims_t dilates, const dims_t padding_l, const dims_t padding_r);

// Checks the attributes a CPU convolution of `cd` can honour; returns
// dnnl_unimplemented for the others (oneDNN's conv_attr_check rules).
status_t conv_attr_check(
        const convolution_desc_t &cd, const primitive_attr_t *attr);

// Shape accessors and queries common to convolution-like descriptors
// (convolution and deconvolution share the field names). `D` is the
// operation descriptor type.
template <typename D>
struct conv_like_pd_t : public primitive_desc_t {
    conv_like_pd_t(const D &d, const primitive_attr_t &attr)
        : primitive_desc_t(d, attr) {
        const D &x = *desc();
        src_md_ = is_bwd_d() ? x.diff_src_desc : x.src_desc;
        weights_md_ = is_bwd_w() ? x.diff_weights_desc : x.weights_desc;
        bias_md_ = is_bwd_w() ? x.diff_bias_desc : x.bias_desc;
        dst_md_ = is_fwd() ? x.dst_desc : x.diff_dst_desc;
    }

    const D *desc() const { return static_cast<const D *>(op_desc()); }
    prop_kind_t prop() const { return desc()->prop_kind; }
    bool is_fwd() const {
        return prop() == dnnl_forward_training
                || prop() == dnnl_forward_inference;
    }
    bool is_bwd_d() const { return prop() == dnnl_backward_data; }
    bool is_bwd_w() const { return prop() == dnnl_backward_weights; }

    // The descriptors as resolved by the implementation (`any` replaced):
    // src is diff_src for backward data, dst is diff_dst for backward
    // passes, weights/bias are the diff_ ones for backward weights.
    const memory_desc_t &data_src_md() const { return src_md_; }
    const memory_desc_t &data_weights_md() const { return weights_md_; }
    const memory_desc_t &data_bias_md() const { return bias_md_; }
    const memory_desc_t &data_dst_md() const { return dst_md_; }

    int ndims() const { return src_md_.ndims; }
    int sp_ndims() const { return ndims() - 2; }
    bool with_groups() const { return weights_md_.ndims == ndims() + 1; }
    bool with_bias() const { return !is_zero_md(bias_md_); }
    dim_t G() const { return with_groups() ? weights_md_.dims[0] : 1; }
    dim_t MB() const { return src_md_.dims[0]; }
    dim_t IC() const { return src_md_.dims[1]; }
    dim_t OC() const { return dst_md_.dims[1]; }
    // Spatial sizes as 3D (depth, height, width); missing ones are 1.
    dim_t in_sp(int i) const { return sp_dim(src_md_.dims, i); }
    dim_t out_sp(int i) const { return sp_dim(dst_md_.dims, i); }
    dim_t ker_sp(int i) const {
        return sp_dim(weights_md_.dims + (with_groups() ? 1 : 0), i);
    }
    dim_t stride_sp(int i) const { return sp_param(desc()->strides, i, 1); }
    dim_t dilate_sp(int i) const { return sp_param(desc()->dilates, i, 0); }
    dim_t pad_l_sp(int i) const { return sp_param(desc()->padding_l, i, 0); }
    dim_t pad_r_sp(int i) const { return sp_param(desc()->padding_r, i, 0); }

    const memory_desc_t *arg_md(int arg) const override {
        switch (arg) {
            case DNNL_ARG_SRC:
                if (!is_bwd_d()) return &src_md_;
                break;
            case DNNL_ARG_DIFF_SRC:
                if (is_bwd_d()) return &src_md_;
                break;
            case DNNL_ARG_WEIGHTS:
                if (!is_bwd_w()) return &weights_md_;
                break;
            case DNNL_ARG_DIFF_WEIGHTS:
                if (is_bwd_w()) return &weights_md_;
                break;
            case DNNL_ARG_BIAS:
                if (is_fwd()) return &bias_md_;
                break;
            case DNNL_ARG_DIFF_BIAS:
                if (is_bwd_w()) return &bias_md_;
                break;
            case DNNL_ARG_DST:
                if (is_fwd()) return &dst_md_;
                break;
            case DNNL_ARG_DIFF_DST:
                if (!is_fwd()) return &dst_md_;
                break;
            default: break;
        }
        const auto &po = attr_.post_ops.entries;
        for (size_t i = 0; i < po.size(); ++i)
            if (po[i].kind == post_op_kind_t::binary
                    && arg == (DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i)
                               | DNNL_ARG_SRC_1))
                return &po[i].src1_md;
        return primitive_desc_t::arg_md(arg);
    }

    arg_usage_t arg_usage(int arg) const override {
        const bool fwd = is_fwd(), bd = is_bwd_d(), bw = is_bwd_w();
        switch (arg) {
            case DNNL_ARG_SRC:
                return fwd || bw ? arg_usage_t::input : arg_usage_t::unused;
            case DNNL_ARG_DIFF_SRC:
                return bd ? arg_usage_t::output : arg_usage_t::unused;
            case DNNL_ARG_WEIGHTS:
                return fwd || bd ? arg_usage_t::input : arg_usage_t::unused;
            case DNNL_ARG_DIFF_WEIGHTS:
                return bw ? arg_usage_t::output : arg_usage_t::unused;
            case DNNL_ARG_BIAS:
                return fwd && with_bias() ? arg_usage_t::input
                                          : arg_usage_t::unused;
            case DNNL_ARG_DIFF_BIAS:
                return bw && with_bias() ? arg_usage_t::output
                                         : arg_usage_t::unused;
            case DNNL_ARG_DST:
                return fwd ? arg_usage_t::output : arg_usage_t::unused;
            case DNNL_ARG_DIFF_DST:
                return fwd ? arg_usage_t::unused : arg_usage_t::input;
            default: return primitive_desc_t::arg_usage(arg);
        }
    }

    status_t query(query_t what, int index, void *result) const override {
        if (!result) return dnnl_invalid_arguments;
        switch (what) {
            case dnnl_query_prop_kind:
                *(prop_kind_t *)result = prop();
                return dnnl_success;
            case dnnl_query_alg_kind:
                *(alg_kind_t *)result = resolved_alg();
                return dnnl_success;
            case dnnl_query_strides:
                *(const dims_t **)result = &desc()->strides;
                return dnnl_success;
            case dnnl_query_dilations:
                *(const dims_t **)result = &desc()->dilates;
                return dnnl_success;
            case dnnl_query_padding_l:
                *(const dims_t **)result = &desc()->padding_l;
                return dnnl_success;
            case dnnl_query_padding_r:
                *(const dims_t **)result = &desc()->padding_r;
                return dnnl_success;
            default: return primitive_desc_t::query(what, index, result);
        }
    }

    // The algorithm actually computed (convolution_auto is resolved).
    virtual alg_kind_t resolved_alg() const { return desc()->alg_kind; }

protected:
    // i: 0 depth, 1 height, 2 width.
    dim_t sp_dim(const dim_t *dims, int i) const {
        const int k = i - (3 - sp_ndims());
        return k < 0 ? 1 : dims[2 + k];
    }
    dim_t sp_param(const dims_t &p, int i, dim_t dflt) const {
        const int k = i - (3 - sp_ndims());
        return k < 0 ? dflt : p[k];
    }

    memory_desc_t src_md_ {}, weights_md_ {}, bias_md_ {}, dst_md_ {};
};

struct convolution_pd_t : public conv_like_pd_t<convolution_desc_t> {
    convolution_pd_t(const convolution_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *hint_fwd)
        : conv_like_pd_t(d, attr) {}

    // convolution_auto always resolves to the direct algorithm here.
    alg_kind_t resolved_alg() const override {
        return desc()->alg_kind == dnnl_convolution_auto
                ? dnnl_convolution_direct
                : desc()->alg_kind;
    }
};

} // namespace impl
} // namespace dnnl
