// A convolution pass in convolution roles, the form in which convolution
// and deconvolution primitives hand their work to the implicit-GEMM
// kernels (conv_gemm.hpp). A deconvolution is the transpose of the
// convolution whose source is the deconvolution's destination, so its
// passes become convolution passes with the tensors' roles exchanged.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

enum class conv_role_t { fwd = 0, bwd_d = 1, bwd_w = 2 };

// Mirrors conv_geom_t of conv_addr.clh field by field (ints only, so the
// two agree on the layout without padding rules). Spatial sizes as 3D
// (missing dims 1), dilations plus one, left paddings; M, N, K, the K
// slicing and the index-order flags are filled by conv_gemm_conf_t.
struct conv_geom_t {
    int32_t mb, g, icg, ocg;
    int32_t id, ih, iw, od, oh, ow;
    int32_t kd, kh, kw, sd, sh, sw;
    int32_t dd, dh, dw, pd, ph, pw;
    int32_t M, N, K;
    int32_t kchunk, nsplit;
    int32_t sp_ndims, with_groups, ic_inner, c_mfast, unused;
};

struct conv_problem_t {
    conv_role_t role = conv_role_t::fwd;
    conv_geom_t geom{};
    int ndims = 4; // of the activations
    bool with_groups = false;
    // Resolved descriptors in convolution roles: src is diff_src for
    // bwd_d, dst is diff_dst for bwd_d and bwd_w, wei is diff_weights for
    // bwd_w and has dims ((g,) oc, ic, spatial) in convolution order; bias
    // is the forward bias (fwd, bwd_d epilogues) or the diff bias (bwd_w).
    memory_desc_t src{}, wei{}, dst{}, bias{};
    bool with_bias = false;
    bool bias_from_src = false; // bwd_w: the diff bias sums src, not dst
};

// The data type combinations the CPU implementation takes, for the pass
// as the user sees it (fwd, bwd_d or bwd_w of a convolution or a
// deconvolution): sdt / ddt are src / dst, or diff_src / diff_dst.
bool conv_types_supported(bool fwd, bool bwd_d, data_type_t sdt,
        data_type_t wdt, data_type_t ddt, data_type_t bdt);

// True when every size, stride, dilation and padding of a
// convolution-like pd, and the element counts of its tensors, fit the
// 32-bit index arithmetic of the kernels (their offsets are 64-bit): sizes
// below 2^30 and parameters below 2^28 keep sums like
// od * SD - PD + kd * DD below 2^31.
template <typename PD>
bool conv_geom_fits(const PD &pd) {
    for (const memory_desc_t *md :
            {&pd.data_src_md(), &pd.data_weights_md(), &pd.data_dst_md()})
        if (md_nelems(*md, true) >= (int64_t(1) << 30)) return false;
    const int64_t lim = int64_t(1) << 28;
    for (int i = 0; i < 3; ++i)
        if (pd.stride_sp(i) >= lim || pd.dilate_sp(i) >= lim
                || pd.pad_l_sp(i) >= lim || pd.pad_r_sp(i) >= lim)
            return false;
    return true;
}

// The geometry of a convolution-like pd (conv_like_pd_t): as it is for a
// convolution, transposed (source and destination sizes and channel
// counts exchanged) for a deconvolution.
template <typename PD>
conv_geom_t make_conv_geom(const PD &pd, bool transpose) {
    conv_geom_t g{};
    g.mb = (int32_t)pd.MB();
    g.g = (int32_t)pd.G();
    const int64_t icg = pd.IC() / pd.G(), ocg = pd.OC() / pd.G();
    g.icg = (int32_t)(transpose ? ocg : icg);
    g.ocg = (int32_t)(transpose ? icg : ocg);
    int32_t *in[3] = {&g.id, &g.ih, &g.iw}, *out[3] = {&g.od, &g.oh, &g.ow};
    int32_t *k[3] = {&g.kd, &g.kh, &g.kw}, *s[3] = {&g.sd, &g.sh, &g.sw};
    int32_t *d[3] = {&g.dd, &g.dh, &g.dw}, *p[3] = {&g.pd, &g.ph, &g.pw};
    for (int i = 0; i < 3; ++i) {
        *in[i] = (int32_t)(transpose ? pd.out_sp(i) : pd.in_sp(i));
        *out[i] = (int32_t)(transpose ? pd.in_sp(i) : pd.out_sp(i));
        *k[i] = (int32_t)pd.ker_sp(i);
        *s[i] = (int32_t)pd.stride_sp(i);
        *d[i] = (int32_t)(pd.dilate_sp(i) + 1);
        *p[i] = (int32_t)pd.pad_l_sp(i);
    }
    g.nsplit = 1;
    return g;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
