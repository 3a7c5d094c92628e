// Naive references of convolution and deconvolution (forward, backward
// data, backward weights) in double precision, plus the scalar functions of
// the eltwise post-op algorithms and binary operations. Plain loops over
// logical indices; no library code.
//
// Tensors are dense logical arrays:
//   activations  (mb, c, d, h, w)
//   weights      (g, oc / g, ic / g, kd, kh, kw)
// with absent spatial dims of size 1. For deconvolution `ic`/`oc` and
// `i`/`o` are the deconvolution's own (source / destination) sizes and
// the weights are (g, oc / g, ic / g, k...) as in oneDNN.
#pragma once

#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl_types.h"

namespace conv_ref {

struct prb_t {
    int64_t mb = 1, g = 1, ic = 1, oc = 1; // total channels
    // Spatial sizes (depth, height, width); unused ones stay 1 / 0.
    int64_t i[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1};
    int64_t s[3] = {1, 1, 1};
    int64_t d[3] = {0, 0, 0}; // dilation, oneDNN convention (0: dense)
    int64_t pl[3] = {0, 0, 0}; // left (front, top) padding

    int64_t isp() const { return i[0] * i[1] * i[2]; }
    int64_t osp() const { return o[0] * o[1] * o[2]; }
    int64_t ksp() const { return k[0] * k[1] * k[2]; }
    int64_t src_size() const { return mb * ic * isp(); }
    int64_t dst_size() const { return mb * oc * osp(); }
    int64_t wei_size() const { return oc * (ic / g) * ksp(); }
};

// dst = conv(src, wei) (no bias).
void conv_fwd(const prb_t &p, const std::vector<double> &src,
        const std::vector<double> &wei, std::vector<double> &dst);
// diff_src from diff_dst.
void conv_bwd_data(const prb_t &p, const std::vector<double> &diff_dst,
        const std::vector<double> &wei, std::vector<double> &diff_src);
// diff_wei (and diff_bias when not null, per output channel).
void conv_bwd_weights(const prb_t &p, const std::vector<double> &src,
        const std::vector<double> &diff_dst, std::vector<double> &diff_wei,
        std::vector<double> *diff_bias);

void deconv_fwd(const prb_t &p, const std::vector<double> &src,
        const std::vector<double> &wei, std::vector<double> &dst);
void deconv_bwd_data(const prb_t &p, const std::vector<double> &diff_dst,
        const std::vector<double> &wei, std::vector<double> &diff_src);
void deconv_bwd_weights(const prb_t &p, const std::vector<double> &src,
        const std::vector<double> &diff_dst, std::vector<double> &diff_wei,
        std::vector<double> *diff_bias);

// The output stage of a forward pass, in oneDNN's order:
//   v = acc * src_scale * wei_scale[c] + bias[c]
//   v = post-ops(v)
//   v = v / dst_scale[c] + dst_zp[c]
// (the caller rounds to the destination type).
struct post_op_t {
    enum kind_t { eltwise, sum, binary, prelu } kind = eltwise;
    dnnl_alg_kind_t alg = dnnl_alg_kind_undef;
    double alpha = 0, beta = 0, scale = 1;
    int32_t zero_point = 0; // sum
    // binary src1 / prelu weights: dense row-major over the dims of the
    // destination whose bit is set in `mask` (size 1 elsewhere).
    int mask = 0;
    std::vector<double> data;
};
struct quant_t {
    double src_scale = 1;
    // Empty: 1 / 0; one value: common; otherwise one per channel.
    std::vector<double> wei_scale, dst_scale;
    std::vector<int32_t> dst_zp;
};
// v and old_dst: dense (n, c, spatial...) tensors of `ndims` dims.
void finish(std::vector<double> &v, int ndims, const int64_t *dims,
        const quant_t &q, const std::vector<double> *bias,
        const std::vector<post_op_t> &po, const std::vector<double> &old_dst);

// Forward value of an eltwise algorithm with oneDNN's alpha/beta meaning.
double eltwise_fwd(dnnl_alg_kind_t alg, double x, double alpha, double beta);
// a op b for the binary algorithms (comparisons give 0 or 1).
double binary(dnnl_alg_kind_t alg, double a, double b);

} // namespace conv_ref
