// CPU convolution implementations: descriptors that check a problem,
// resolve `any` layouts and build an execution plan, and the primitive that
// runs the plan. Two entries share the code:
//   dw:direct  depthwise convolution (groups = channels), direct: forward,
//              backward data and weights (channels last, f32; other
//              types and layouts through f32 channels-last copies)
//   gemm:any   everything else (and depthwise too), GEMM-based
#pragma once

#include <climits>

#include <string>

#include "common/convolution_pd.hpp"
#include "common/primitive.hpp"
#include "cpu/convolution/conv_plan.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

struct cpu_convolution_pd_t : public convolution_pd_t {
    cpu_convolution_pd_t(const convolution_desc_t &d,
            const primitive_attr_t &attr, const primitive_desc_t *hint,
            bool depthwise)
        : convolution_pd_t(d, attr, hint), depthwise_(depthwise) {}

    // The path and the kernels that run, e.g. "gemm:f32_gemm_12x32__avx512f"
    // or "dw:direct:f32_dwconv_6x16__avx2" (set when the plan is
    // finalised).
    const char *name() const override { return name_.c_str(); }
    // Binary select post-ops go through the shared post-op code.
    bool handles_select_post_op() const override { return true; }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;

    const conv::conv_plan_t &plan() const { return plan_; }

private:
    bool depthwise_;
    conv::conv_plan_t plan_;
    std::string name_;
};

// Whether every stride, dilation, padding and spatial size of a
// convolution or deconvolution descriptor `d` lies within +-(2^31 - 1).
// The kernels compute window positions in dim_t from them; a descriptor
// may hold values near dim_t's limits (valid, as its output sizes check
// out), where those sums would overflow, so such problems are declined
// (found by fuzz_primitive_desc under UBSan, for both kinds).
template <typename desc_t>
bool spatial_params_in_range(const desc_t &d, int ndims, bool with_groups,
        const memory_desc_t &src, const memory_desc_t &dst,
        const memory_desc_t &wei) {
    const dim_t lim = INT32_MAX;
    auto in = [&](dim_t v) { return v >= -lim && v <= lim; };
    const int wsp0 = with_groups ? 3 : 2; // first spatial dim of weights
    for (int i = 0; i < ndims - 2; ++i) {
        if (!in(d.strides[i]) || !in(d.dilates[i]) || !in(d.padding_l[i])
                || !in(d.padding_r[i]))
            return false;
        if (!in(src.dims[2 + i]) || !in(dst.dims[2 + i])
                || !in(wei.dims[wsp0 + i]))
            return false;
    }
    return true;
}

template <bool depthwise>
struct cpu_convolution_pd_impl_t : public cpu_convolution_pd_t {
    cpu_convolution_pd_impl_t(const convolution_desc_t &d,
            const primitive_attr_t &attr, const primitive_desc_t *hint)
        : cpu_convolution_pd_t(d, attr, hint, depthwise) {}
};

struct cpu_convolution_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const cpu_convolution_pd_t *pd_() const {
        return static_cast<const cpu_convolution_pd_t *>(pd());
    }
};

namespace conv {
// Chooses the activation layout from the user's descriptors: that of the
// first one given in a canonical layout, `dflt` otherwise.
layout_t choose_layout(
        const memory_desc_t &a, const memory_desc_t &b, layout_t dflt);
// Replaces a format-`any` descriptor by `tag`; leaves others alone.
status_t resolve_any(memory_desc_t &md, format_tag_t tag);
// The bias descriptor: `any` becomes `a`; anything but a contiguous vector
// without offset is declined (dnnl_unimplemented, verbose names `what`).
status_t resolve_bias(memory_desc_t &md, const char *what);
// Fills the geometry from a convolution-like descriptor.
template <typename PD>
conv_conf_t conf_from_pd(const PD &pd)
{
    conv_conf_t c;
    c.ndims = pd.ndims();
    c.mb = pd.MB();
    c.g = pd.G();
    c.icg = pd.IC() / c.g;
    c.ocg = pd.OC() / c.g;
    c.id = pd.in_sp(0), c.ih = pd.in_sp(1), c.iw = pd.in_sp(2);
    c.od = pd.out_sp(0), c.oh = pd.out_sp(1), c.ow = pd.out_sp(2);
    c.kd = pd.ker_sp(0), c.kh = pd.ker_sp(1), c.kw = pd.ker_sp(2);
    c.sd = pd.stride_sp(0), c.sh = pd.stride_sp(1), c.sw = pd.stride_sp(2);
    c.ddl = pd.dilate_sp(0) + 1, c.dhl = pd.dilate_sp(1) + 1;
    c.dwl = pd.dilate_sp(2) + 1;
    c.pf = pd.pad_l_sp(0), c.pt = pd.pad_l_sp(1), c.pl = pd.pad_l_sp(2);
    return c;
}
} // namespace conv

} // namespace cpu
} // namespace impl
} // namespace dnnl
