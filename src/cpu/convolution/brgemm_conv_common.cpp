// The pieces the BRGEMM convolution passes share (brgemm_conv_common.hpp):
// checks, layouts, geometry, tap ranges, tile heights and the kernel set.
#include "cpu/convolution/brgemm_conv_common.hpp"

#include <algorithm>
#include <utility>

#include "common/engine.hpp"
#include "cpu/convolution/conv_layout.hpp"
#include "cpu/convolution/cpu_convolution.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace brgconv {

geo_t geo_of(const convolution_pd_t &pd) {
    geo_t g;
    g.mb = pd.MB(), g.ic = pd.IC(), g.oc = pd.OC();
    g.id = pd.in_sp(0), g.ih = pd.in_sp(1), g.iw = pd.in_sp(2);
    g.od = pd.out_sp(0), g.oh = pd.out_sp(1), g.ow = pd.out_sp(2);
    g.kd = pd.ker_sp(0), g.kh = pd.ker_sp(1), g.kw = pd.ker_sp(2);
    g.sd = pd.stride_sp(0), g.sh = pd.stride_sp(1), g.sw = pd.stride_sp(2);
    g.dd = pd.dilate_sp(0) + 1, g.dh = pd.dilate_sp(1) + 1;
    g.dw = pd.dilate_sp(2) + 1;
    g.pd = pd.pad_l_sp(0), g.ph = pd.pad_l_sp(1), g.pw = pd.pad_l_sp(2);
    return g;
}

bool is_1x1_no_pad(const convolution_pd_t &pd) {
    bool r = pd.ker_sp(0) * pd.ker_sp(1) * pd.ker_sp(2) == 1;
    for (int i = 0; i < 3; ++i)
        r = r && pd.pad_l_sp(i) == 0 && pd.pad_r_sp(i) <= 0;
    return r;
}

bool flatten(geo_t &g, const convolution_pd_t &pd) {
    if (!is_1x1_no_pad(pd) || g.sd * g.sh * g.sw != 1 || g.od != g.id
            || g.oh != g.ih || g.ow != g.iw)
        return false;
    g.ow = g.od * g.oh * g.ow;
    g.iw = g.ow;
    g.od = g.oh = g.id = g.ih = 1;
    return true;
}

const jit::brgemm_target_t *target_for(const convolution_pd_t &pd,
        engine_t *engine, bool low_precision, bool backward_data) {
    if (engine->kind() != dnnl_cpu) return nullptr;
    const convolution_desc_t &d = *pd.desc();
    if (d.alg_kind != dnnl_convolution_direct
            && d.alg_kind != dnnl_convolution_auto)
        return nullptr;
    if (pd.G() != 1) return nullptr;
    // By role: the kernel's A, its B (weights), its C, the bias.
    const memory_desc_t *mds[] = {&pd.data_src_md(), &pd.data_weights_md(),
            &pd.data_dst_md(), &pd.data_bias_md()};
    if (backward_data) std::swap(mds[0], mds[2]);
    const data_type_t sdt = mds[0]->data_type, wdt = mds[1]->data_type;
    // The kernels' input type, and the types each tensor may have with it
    // (src, weights, dst, bias).
    data_type_t in_dt = dnnl_f32;
    if (low_precision && !backward_data && (sdt == dnnl_u8 || sdt == dnnl_s8)
            && wdt == dnnl_s8)
        in_dt = dnnl_u8;
    if (low_precision && sdt == dnnl_bf16 && wdt == dnnl_bf16)
        in_dt = dnnl_bf16;
    auto type_ok = [&](int i, data_type_t t) {
        if (t == dnnl_f32 && (i >= 2 || in_dt == dnnl_f32)) return true;
        if (in_dt == dnnl_u8)
            return (i == 0 && (t == dnnl_u8 || t == dnnl_s8))
                   || (i == 1 && t == dnnl_s8)
                   || (i == 2
                           && (t == dnnl_s8 || t == dnnl_u8 || t == dnnl_s32));
        return in_dt == dnnl_bf16 && t == dnnl_bf16;
    };
    for (int i = 0; i < 4; ++i) {
        const memory_desc_t *md = mds[i];
        if (i == 3 && !pd.with_bias()) continue;
        if (!type_ok(i, md->data_type) || md_has_runtime_dims_or_strides(*md))
            return nullptr;
        // Empty problems go to the implementations behind (the plans
        // divide by channel and point counts).
        for (int d = 0; d < md->ndims; ++d)
            if (md->dims[d] == 0) return nullptr;
    }
    // Scales and zero points are int8's; the fpmath mode relaxes f32
    // inputs only (bf16 ones run exactly).
    const primitive_attr_t &attr = *pd.attr();
    const bool int8 = in_dt == dnnl_u8;
    if ((!int8 && !attr.scales.empty())
            || (!int8 && !attr.zero_points.empty())
            || attr.zero_points.has(DNNL_ARG_WEIGHTS)
            || (in_dt == dnnl_f32
                    && attr.fpmath_mode != dnnl_fpmath_mode_strict))
        return nullptr;
    for (const auto &r : attr.rounding_modes)
        if (r.mode != (int)dnnl_rounding_mode_environment) return nullptr;
    if (!spatial_params_in_range(d, pd.ndims(), pd.with_groups(),
                pd.data_src_md(), pd.data_dst_md(), pd.data_weights_md()))
        return nullptr;
    return jit::select_brgemm_target(in_dt);
}

bool channels_last(memory_desc_t &a, memory_desc_t &b, int nd) {
    using namespace conv;
    const format_tag_t tag = act_tag(layout_t::nspc, nd);
    if (choose_layout(a, b, layout_t::nspc) != layout_t::nspc) return false;
    if (resolve_any(a, tag) != dnnl_success
            || resolve_any(b, tag) != dnnl_success)
        return false;
    return md_is_tag(a, tag) && md_is_tag(b, tag);
}

bool panel_weights(memory_desc_t &md, bool groups, bool ic_inner, int width,
        int kgroup) {
    // Dims: (g,) o, i, spatial; a group dim (of size 1 here) outermost.
    const int nd = md.ndims, g = groups ? 1 : 0;
    const int in = g + (ic_inner ? 1 : 0), out = g + (ic_inner ? 0 : 1);
    memory_desc_t r = zero_md();
    r.ndims = nd;
    r.data_type = md.data_type;
    r.format_kind = dnnl_blocked;
    for (int d = 0; d < nd; ++d) r.dims[d] = r.padded_dims[d] = md.dims[d];
    r.padded_dims[in] = (md.dims[in] + width - 1) / width * width;
    r.padded_dims[out] = (md.dims[out] + kgroup - 1) / kgroup * kgroup;
    auto &b = r.format_desc.blocking;
    b.inner_nblks = 1;
    b.inner_blks[0] = width;
    b.inner_idxs[0] = in;
    if (kgroup > 1) {
        b.inner_nblks = 2;
        b.inner_blks[1] = kgroup;
        b.inner_idxs[1] = out;
    }
    // Outer order, outermost first: (groups,) blocks, spatial, the other
    // channels.
    int order[max_ndims], n = 0;
    if (groups) order[n++] = 0;
    order[n++] = in;
    for (int d = g + 2; d < nd; ++d) order[n++] = d;
    order[n++] = out;
    dim_t stride = width * kgroup;
    for (int k = n - 1; k >= 0; --k) {
        const int d = order[k];
        b.strides[d] = stride;
        stride *= d == in    ? r.padded_dims[in] / width
                  : d == out ? r.padded_dims[out] / kgroup
                             : r.dims[d];
    }
    if (md.format_kind == dnnl_format_kind_any) {
        md = r;
        return true;
    }
    r.offset0 = md.offset0;
    return md_equal(r, md);
}

void taps_in(dim_t o, dim_t s, dim_t p, dim_t dl, dim_t K, dim_t I, dim_t &k0,
        dim_t &k1) {
    k0 = 0;
    k1 = K;
    const dim_t start = o * s - p;
    while (k0 < K && start + k0 * dl < 0) ++k0;
    while (k1 > k0 && start + (k1 - 1) * dl >= I) --k1;
}

void mark_tiles(dim_t a0, dim_t a1, int tm, std::vector<bool> &used) {
    if (a1 <= a0) return;
    if (a1 - a0 >= tm) used[tm] = true;
    if ((a1 - a0) % tm) used[(size_t)((a1 - a0) % tm)] = true;
}

unsigned kernel_set_t::phases_for(dim_t nk) {
    if (nk <= 1) return 1u << only;
    unsigned m = (1u << first) | (1u << last);
    if (nk > 2) m |= 1u << middle;
    return m;
}

status_t kernel_set_t::load(const jit::brgemm_config_t &full, unsigned phases,
        const std::vector<bool> &used, int n_full, int n_tail) {
    rows_ = used.size();
    k_.assign(n_phases * rows_ * 2, nullptr);
    for (int ph = 0; ph < n_phases; ++ph) {
        if (!(phases >> ph & 1u)) continue;
        for (size_t m = 1; m < rows_; ++m) {
            if (!used[m]) continue;
            for (int t = 0; t < 2; ++t) {
                const int n = t ? n_tail : n_full;
                if (n == 0) continue;
                const jit::brgemm_config_t c = jit::brgemm_tile_config(full,
                        (int)m, n, ph == middle || ph == last,
                        ph == only || ph == last);
                bool hit = false;
                DNNL_CHECK(jit::get_brgemm_kernel(
                        c, k_[((size_t)ph * rows_ + m) * 2 + t], hit));
            }
        }
    }
    return dnnl_success;
}

} // namespace brgconv
} // namespace cpu
} // namespace impl
} // namespace dnnl
