// The execution plan of a CPU convolution, in convolution roles: geometry,
// the layouts the kernels run on, how user tensors map onto them, the
// arithmetic (f32 or exact s32), the epilogue and the scratchpad layout.
// Convolution and deconvolution descriptors both build one (deconvolution
// swaps the roles of its tensors) and hand it to the driver
// (conv_driver.hpp), which knows nothing of either descriptor.
#pragma once

#include <cstddef>
#include <vector>

#include "common/memory_desc.hpp"
#include "common/primitive_attr.hpp"
#include "cpu/convolution/conv_epilogue.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

// Activation layouts the kernels run on: channels last (n, spatial, c) or
// channels first (n, c, spatial), both dense.
enum class layout_t { nspc, ncsp };

enum class conv_kind_t { fwd, bwd_d, bwd_w };

// How products are accumulated: f32 (f32/bf16/f16 data), exact s32 (int8
// data through the integer GEMM), or f32 on zero-point-shifted int8 values
// (per-channel source zero points, or ones the data type cannot hold).
enum class math_t { f32, s32, shifted_f32 };

// Geometry in convolution terms, spatial dims as 3D (missing ones are 1).
// Dilations are stored plus one (1 = dense).
struct conv_conf_t {
    int ndims = 4; // of the activations: 3, 4 or 5
    dim_t mb = 0, g = 1, icg = 0, ocg = 0; // channels per group
    dim_t id = 1, ih = 1, iw = 1, od = 1, oh = 1, ow = 1;
    dim_t kd = 1, kh = 1, kw = 1;
    dim_t sd = 1, sh = 1, sw = 1;
    dim_t ddl = 1, dhl = 1, dwl = 1;
    dim_t pf = 0, pt = 0, pl = 0; // front, top, left padding

    dim_t ic() const { return g * icg; }
    dim_t oc() const { return g * ocg; }
    dim_t isp() const { return id * ih * iw; }
    dim_t osp() const { return od * oh * ow; }
    dim_t ksp() const { return kd * kh * kw; }
    dim_t kgemm() const { return icg * ksp(); } // reduction size of fwd
    // Pointwise problems need no im2col: the source is the GEMM operand.
    bool is_pointwise() const {
        return ksp() == 1 && sd == 1 && sh == 1 && sw == 1 && pf == 0
                && pt == 0 && pl == 0 && id == od && ih == oh && iw == ow;
    }
    bool is_depthwise() const { return g > 1 && icg == 1 && ocg == 1; }
    bool is_empty() const {
        return mb == 0 || g == 0 || icg == 0 || ocg == 0 || isp() == 0
                || osp() == 0;
    }
};

// Calls f(kd, kh, id, ih) for every kernel row of output row (od, oh)
// whose input row lies inside the source.
template <typename F>
inline void for_each_input_row(const conv_conf_t &c, dim_t od, dim_t oh, F f) {
    for (dim_t kd = 0; kd < c.kd; ++kd) {
        const dim_t id = od * c.sd - c.pf + kd * c.ddl;
        if (id < 0 || id >= c.id) continue;
        for (dim_t kh = 0; kh < c.kh; ++kh) {
            const dim_t ih = oh * c.sh - c.pt + kh * c.dhl;
            if (ih < 0 || ih >= c.ih) continue;
            f(kd, kh, id, ih);
        }
    }
}

// Byte offsets of the scratchpad parts, 64-byte aligned.
struct scratch_plan_t {
    enum key_t {
        src_shadow, // source in the canonical layout
        dst_shadow, // destination in the canonical layout
        wei_pack, // weights in the kernel layout
        wei_f32, // weights in the kernel layout as f32 (shifted math)
        col, // per-thread im2col buffers
        acc, // per-thread accumulators (or one full one)
        gemm_ws, // per-thread GEMM packing workspaces
        red, // per-thread partial diff weights / bias
        wei_acc, // f32 diff weights before conversion
        bias_acc, // f32 diff bias before conversion
        src_f32, // zero-point-shifted source
        wei_panels, // weights as microkernel A panels (implicit GEMM)
        n_keys
    };
    size_t off[n_keys] = {};
    size_t size[n_keys] = {};
    size_t total = 0;

    void add(key_t k, size_t bytes) {
        size[k] = bytes;
        if (!bytes) return;
        off[k] = (total + 63) / 64 * 64;
        total = off[k] + bytes;
    }
    template <typename T>
    T *get(void *base, key_t k) const {
        if (!size[k] || !base) return nullptr;
        return reinterpret_cast<T *>(static_cast<char *>(base) + off[k]);
    }
};

struct conv_kernels_t;

struct conv_plan_t {
    conv_kind_t kind = conv_kind_t::fwd;
    conv_conf_t c;
    layout_t layout = layout_t::nspc;
    math_t math = math_t::f32;
    bool depthwise_direct = false; // direct depthwise kernels (bwd: f32 nspc)

    // The user tensors in convolution roles (resolved, never `any`):
    // fwd: src, wei, bias, dst; bwd_d: src = diff_src (output), wei,
    // dst = diff_dst; bwd_w: src, wei = diff_weights (output), bias =
    // diff_bias (output), dst = diff_dst.
    memory_desc_t src_md {}, wei_md {}, bias_md {}, dst_md {};
    // The layouts the kernels read or write (data types of the user's).
    memory_desc_t src_canon {}, wei_canon {}, dst_canon {};
    bool src_shadow = false, dst_shadow = false, wei_pack = false;
    memory_desc_t wei_f32_md {}; // kernel layout, f32 (shifted math)
    // fwd s32 math with a common source zero point and padding: a zero
    // point the source type cannot hold switches to shifted_f32 at run time.
    bool shift_fallback = false;
    bool in_zp = false, in_zp_per_c = false;
    // bwd_w: diff bias reduces the convolution source (deconvolution).
    bool bias_from_src = false;
    bool with_bias = false;

    int nthr = 1;
    // The inner loops for this machine (conv_kernels.hpp).
    const conv_kernels_t *ker = nullptr;
    dim_t msp = 1; // spatial chunk of one work item
    // fwd, ncsp, f32 arithmetic: implicit GEMM on the GEMM microkernels
    // with K blocks of ig_kc.
    bool igemm = false;
    dim_t ig_kc = 0;
    // How the implicit GEMM gets its f32 A panels: the user's weights as
    // they are, converted (same layout, bf16/f16), packed from the plain
    // layout of wei_tag(), or copied generically from any other layout.
    enum class ig_wei_t { direct, convert, pack_plain, generic };
    ig_wei_t ig_wei = ig_wei_t::direct;
    // pack_plain: element (g, oc, k) of the user's weights is at
    // g * ig_s[0] + oc * ig_s[1] + k * ig_s[2] (k in the kernel's order).
    dim_t ig_s[3] = {};
    // bwd_d: one full-image GEMM at a time (GEMM threads inside).
    bool bwd_d_serial_images = false;

    epilogue_t epi; // fwd and bwd_d outputs
    scratch_plan_t scratch;
};

// The tags of the canonical layouts.
format_tag_t act_tag(layout_t l, int ndims);
// Weights layout of the kernels: ncsp runs (g)oi(d)(h)w, nspc runs
// (g)(d)(h)wio (output channels innermost).
format_tag_t wei_tag(layout_t l, int ndims, bool with_groups);
// Weights layout of the direct depthwise kernel (grouped weights): plain
// for ncsp, spatial-major with groups innermost for nspc.
format_tag_t dw_wei_tag(layout_t l, int ndims);

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
