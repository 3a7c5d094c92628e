// Layout choices and kernel forms of the gpu convolution descriptors.
#include "gpu/ocl/convolution/conv_layout.hpp"

#include <initializer_list>

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {
format_tag_t act_tag(int ndims, bool cl) {
    if (cl) return ndims == 3 ? dnnl_acb : ndims == 4 ? dnnl_acdb : dnnl_acdeb;
    return ndims == 3 ? dnnl_abc : ndims == 4 ? dnnl_abcd : dnnl_abcde;
}

// `ndims` of the weights (one more than the activations with groups).
format_tag_t wei_tag(int ndims, bool cl, bool groups) {
    if (!cl)
        return ndims == 3   ? dnnl_abc
               : ndims == 4 ? dnnl_abcd
               : ndims == 5 ? dnnl_abcde
                            : dnnl_abcdef;
    if (groups)
        return ndims == 4 ? dnnl_adcb : ndims == 5 ? dnnl_adecb : dnnl_adefcb;
    return ndims == 3 ? dnnl_cba : ndims == 4 ? dnnl_cdba : dnnl_cdeba;
}

status_t set_any(memory_desc_t &md, format_tag_t tag) {
    if (md.ndims == 0 || md.format_kind != dnnl_format_kind_any)
        return dnnl_success;
    return md_set_format_by_tag(md, tag);
}
} // namespace

bool conv_channels_last(const memory_desc_t &a, const memory_desc_t &b) {
    for (const memory_desc_t *md : {&a, &b}) {
        if (md->format_kind != dnnl_blocked) continue;
        if (md_matches_tag(*md, act_tag(md->ndims, false))) return false;
        if (md_matches_tag(*md, act_tag(md->ndims, true))) return true;
    }
    return true;
}

status_t conv_resolve_act(memory_desc_t &md, bool channels_last) {
    return set_any(md, act_tag(md.ndims, channels_last));
}

status_t conv_resolve_wei(
        memory_desc_t &md, bool channels_last, bool with_groups) {
    return set_any(md, wei_tag(md.ndims, channels_last, with_groups));
}

status_t conv_resolve_bias(memory_desc_t &md) {
    return set_any(md, dnnl_a);
}

conv_blocked_t conv_blocked(const memory_desc_t &md) {
    const layout_t l = make_layout(md);
    conv_blocked_t b{};
    b.offset0 = l.offset0;
    b.ndims = l.ndims;
    b.nblks = l.nblks;
    for (int d = 0; d < layout_max_ndims; ++d) {
        b.strides[d] = l.strides[d];
        b.blk_size[d] = l.blk_size[d];
    }
    for (int k = 0; k < layout_max_blks; ++k) {
        b.inner_blk[k] = l.inner_blk[k];
        b.inner_idx[k] = l.inner_idx[k];
        b.inner_stride[k] = l.inner_stride[k];
        b.inner_within[k] = l.inner_within[k];
    }
    return b;
}

conv_strides_t conv_act_strides(const memory_desc_t &md) {
    conv_strides_t r{};
    const dim_t *s = md.format_desc.blocking.strides;
    r.off0 = md.offset0;
    r.s[0] = s[0];
    r.s[1] = s[1];
    // Spatial dims right-aligned into (d, h, w).
    const int sp = md.ndims - 2;
    for (int i = 0; i < sp; ++i) r.s[2 + 3 - sp + i] = s[2 + i];
    return r;
}

conv_strides_t conv_wei_strides(const memory_desc_t &md, bool with_groups) {
    conv_strides_t r{};
    const dim_t *s = md.format_desc.blocking.strides;
    const int o = with_groups ? 1 : 0;
    r.off0 = md.offset0;
    r.s[0] = with_groups ? s[0] : 0;
    r.s[1] = s[o];
    r.s[2] = s[o + 1];
    const int sp = md.ndims - o - 2;
    for (int i = 0; i < sp; ++i) r.s[3 + 3 - sp + i] = s[o + 2 + i];
    return r;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
