// Primitive attributes from the --attr-* knobs: parsing benchdnn's grammar,
// building dnnl::primitive_attr, and the runtime data (scales, zero points,
// binary and prelu post-op operands) given to the primitive and to the
// references.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"
#include "reference/post_ops_ref.hpp"

namespace bd {

struct case_t;

struct quant_spec_t {
    int arg = 0; // DNNL_ARG_SRC, ...
    std::string policy = "common";
    double value = 1; // scale, or zero point
    dt_t dt = dt_t::f32;
    dims_t groups; // over the argument's last two dims; empty: none
    int mask = 0; // set by make_attr
};

struct post_op_spec_t {
    post_ops_ref::post_op_t::kind_t kind = post_ops_ref::post_op_t::eltwise;
    dnnl::algorithm alg = dnnl::algorithm::undef;
    float alpha = 0, beta = 0, scale = 1;
    int zero_point = 0;
    dt_t dt = dt_t::undef; // sum: data type; binary: src1 data type
    std::string policy = "common"; // binary, prelu
    int mask = 0;
    std::string tag = "any";
};

struct attr_spec_t {
    std::vector<quant_spec_t> scales, zero_points;
    std::vector<post_op_spec_t> post_ops;
    bool fpmath_set = false;
    dnnl::fpmath_mode fpmath = dnnl::fpmath_mode::strict;
    bool fpmath_apply_to_int = false;
    bool user_scratchpad = false;
    std::string acc_mode; // --attr-acc-mode; empty when not given
    int deterministic = -1;

    bool empty() const;
    const quant_spec_t *scale(int arg) const;
    const quant_spec_t *zero_point(int arg) const;
    bool has_sum() const;
};

// Parses the --attr-* knobs of p; false (with a reason) when a value is
// malformed or not supported by this driver.
bool parse_attr(const problem_t &p, attr_spec_t &a, std::string &why);

// Turns a policy into a mask for `arg`; returns -1 when not supported.
using mask_fn_t = std::function<int(int arg, const std::string &policy)>;
// Generic policy -> mask for a tensor of `ndims` dims (per_oc = dim 1).
int policy_mask(const std::string &policy, int ndims);

// Builds the library attribute; sets the masks in `a`. False (with a reason)
// when a policy is not supported, or a setting is not in the oneDNN API the
// driver is built against (api_compat.hpp). Throws dnnl::error from the library.
bool make_attr(attr_spec_t &a, const dims_t &dst_dims, const mask_fn_t &mask_of,
        dnnl::primitive_attr &attr, std::string &why);

// Runtime attribute data, kept for the references.
struct attr_rt_t {
    std::map<int, std::vector<float>> scales; // by argument
    std::map<int, int> scale_mask;
    std::map<int, std::vector<float>> zero_points;
    std::map<int, int> zp_mask;
    std::map<int, dims_t> scale_groups, zp_groups; // per dim (1: none)
    std::vector<post_ops_ref::post_op_t> post_ops;

    // Value for the element at `pos` of a tensor of `dims` (1 / 0 if unset).
    double scale(int arg, const dims_t &dims, const int64_t *pos) const;
    double zero_point(int arg, const dims_t &dims, const int64_t *pos) const;
    // The common (mask 0) value, or 1 / 0.
    double scale0(int arg) const;
    double zero_point0(int arg) const;
};

// Creates and fills the runtime memories of the attributes (scales, zero
// points, post-op operands) as execution arguments of `c`. `arg_dims` gives
// the dims of each quantized argument; `dst_dims` those of the destination.
void setup_attr_args(case_t &c, const attr_spec_t &a,
        const std::map<int, dims_t> &arg_dims, const dims_t &dst_dims, attr_rt_t &rt);

// Algorithm names.
bool str2eltwise_alg(const std::string &s, dnnl::algorithm &alg);
bool str2binary_alg(const std::string &s, dnnl::algorithm &alg);

} // namespace bd
