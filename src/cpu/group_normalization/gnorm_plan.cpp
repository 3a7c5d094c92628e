// Group normalization: descriptor checks, the walk plan (ncsp or nxc
// rows), data type conversions and the implementation list.
#include "cpu/group_normalization/gnorm.hpp"

#include "common/binary_pd.hpp"
#include "common/float_convert.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"
#include "cpu/kernel_name.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace gnorm {

namespace {

// Rows of spatial points: the spatial dims merge into one of stride 1.
bool ncsp_view(const memory_desc_t &md, view_t &v) {
    dims_t s;
    if (!postops::plain_strides(md, s)) return false;
    dim_t expect = 1;
    for (int d = md.ndims - 1; d >= 2; --d) {
        if (md.dims[d] != 1 && s[d] != expect) return false;
        expect *= md.dims[d];
    }
    v = {md.data_type, md.offset0, s[0], s[1], 1, true};
    return true;
}

// Rows of channels: channel stride 1, spatial dims merge into one.
bool nxc_view(const memory_desc_t &md, view_t &v) {
    dims_t s;
    if (!postops::plain_strides(md, s)) return false;
    if (md.dims[1] != 1 && s[1] != 1) return false;
    dim_t ssp = 0, expect = 0;
    for (int d = md.ndims - 1; d >= 2; --d) {
        if (md.dims[d] == 1) continue;
        if (ssp == 0) ssp = expect = s[d];
        if (s[d] != expect) return false;
        expect *= md.dims[d];
    }
    v = {md.data_type, md.offset0, s[0], 1, ssp, true};
    return true;
}

bool fwd_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16 || dt == dnnl_s8
           || dt == dnnl_u8;
}
bool bwd_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

} // namespace

status_t plan_t::init(const memory_desc_t *const *mds, int n, dim_t groups) {
    const memory_desc_t &m0 = *mds[0];
    nt = n;
    N = m0.dims[0];
    C = m0.dims[1];
    SP = 1;
    for (int d = 2; d < m0.ndims; ++d) SP *= m0.dims[d];
    G = groups;
    cpg = C / G;
    bool all_ncsp = true, all_nxc = true;
    view_t vn[3], vx[3];
    for (int t = 0; t < n; ++t) {
        all_ncsp = ncsp_view(*mds[t], vn[t]) && all_ncsp;
        all_nxc = nxc_view(*mds[t], vx[t]) && all_nxc;
    }
    // With one spatial point rows of channels are the longer ones.
    nxc = all_nxc && (SP == 1 || !all_ncsp);
    for (int t = 0; t < n; ++t) {
        if (nxc) {
            v[t] = vx[t];
        } else if (ncsp_view(*mds[t], v[t])) {
        } else {
            // Through a dense row-major (ncsp) f32 copy.
            v[t] = {dnnl_f32, 0, C * SP, SP, 1, false};
        }
    }
    return dnnl_success;
}

int nthr_for(dim_t nelems) {
    return cpu::nthr_for(nelems, 16384);
}

void cvt_t::to_f32(data_type_t dt, const void *src, float *dst, dim_t n) const {
    if (k) return k->to_f32(dt, src, dst, n);
    for (dim_t i = 0; i < n; ++i) dst[i] = load_f32(dt, src, i);
}

void cvt_t::from_f32(
        data_type_t dt, const float *src, void *dst, dim_t n) const {
    if (k) return k->from_f32(dt, src, dst, n);
    for (dim_t i = 0; i < n; ++i) store_f32(dt, src[i], dst, i);
}

template <bool fwd>
status_t gnorm_t<fwd>::pd_t::init(engine_t *) {
    if (this->is_fwd() != fwd) return dnnl_unimplemented;
    const auto &a = this->attr_;
    if (!a.zero_points.empty() || !a.rounding_modes.empty())
        return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    if (fwd) {
        if (!fwd_dt(this->src_md_.data_type)
                || !fwd_dt(this->dst_md_.data_type))
            return dnnl_unimplemented;
        for (const auto &it : a.scales.items)
            if ((it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST)
                    || it.e.mask != 0)
                return dnnl_unimplemented;
        DNNL_CHECK(po.init(a.post_ops, this->dst_md_));
        const memory_desc_t *mds[] = {&this->src_md_, &this->dst_md_};
        DNNL_CHECK(plan.init(mds, 2, this->groups()));
    } else {
        if (!a.scales.empty() || !a.post_ops.entries.empty())
            return dnnl_unimplemented;
        if (!bwd_dt(this->src_md_.data_type)
                || !bwd_dt(this->diff_dst_md_.data_type)
                || !bwd_dt(this->diff_src_md_.data_type))
            return dnnl_unimplemented;
        const memory_desc_t *mds[] = {
                &this->src_md_, &this->diff_dst_md_, &this->diff_src_md_};
        DNNL_CHECK(plan.init(mds, 3, this->groups()));
    }
    k = &norm::select_kernels();
    cvt.k = eltwise::select_kernels();
    name_ = "simd:"
            + kernel_name("f32", plan.nxc ? "gnorm_nxc" : "gnorm_ncsp", k->isa);
    return dnnl_success;
}

template struct gnorm_t<true>;
template struct gnorm_t<false>;

} // namespace gnorm

const impl_list_item_t *group_normalization_impl_list() {
    using namespace gnorm;
    static const impl_list_item_t list[] = {
            {create_pd<gnorm_t<true>::pd_t, group_normalization_desc_t>},
            {create_pd<gnorm_t<false>::pd_t, group_normalization_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
