// CPU pooling implementation and the pooling implementation list.
#include "cpu/pooling/pooling.hpp"

#include <cfloat>
#include <cstring>
#include <vector>

#include "common/exec_ctx.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/pooling/dense_io.hpp"
#include "cpu/pooling/pooling_fast.hpp"
#include "cpu/postops/dense_rows.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace pooling {

void init_geom(const pooling_pd_t &pd, const memory_desc_t &s, const memory_desc_t &d,
        geom_t &g) {
    const auto *dd = pd.desc();
    const int ns = s.ndims - 2;
    dim_t I[3] = {1, 1, 1}, O[3] = {1, 1, 1}, K[3] = {1, 1, 1}, S[3] = {1, 1, 1},
          D[3] = {0, 0, 0}, P[3] = {0, 0, 0};
    for (int i = 0; i < ns; ++i) {
        const int j = 3 - ns + i;
        I[j] = s.dims[2 + i];
        O[j] = d.dims[2 + i];
        K[j] = dd->kernel[i];
        S[j] = dd->strides[i];
        D[j] = dd->dilation[i];
        P[j] = dd->padding_l[i];
    }
    g = {s.dims[0], s.dims[1], I[0], I[1], I[2], O[0], O[1], O[2], K[0], K[1], K[2], S[0],
            S[1], S[2], D[0], D[1], D[2], P[0], P[1], P[2]};
}

template <bool fwd>
status_t pooling_t<fwd>::pd_t::init(engine_t *) {
    if (this->is_fwd() != fwd) return dnnl_unimplemented;
    if ((!fwd && !this->attr_.post_ops.entries.empty())
            || !this->attr_.scales.empty() || !this->attr_.zero_points.empty())
        return dnnl_unimplemented;
    const memory_desc_t &s = fwd ? this->src_md_ : this->diff_src_md_;
    const memory_desc_t &d = fwd ? this->dst_md_ : this->diff_dst_md_;
    // Integers too (as oneDNN's pooling takes them): computed in f32, the
    // average rounded to nearest even and saturated on the store.
    auto takes = [](data_type_t dt) {
        return io::float_dt(dt) || dt == dnnl_s8 || dt == dnnl_u8
                || dt == dnnl_s32;
    };
    if (!takes(s.data_type) || !takes(d.data_type)) return dnnl_unimplemented;
    DNNL_CHECK(this->init_formats());
    if (this->has_ws() && this->ws_md_.data_type != dnnl_u8
            && this->ws_md_.data_type != dnnl_s32)
        return dnnl_unimplemented;
    init_geom(*this, s, d, g);
    if (fwd) {
        DNNL_CHECK(po.init(this->attr_.post_ops, this->dst_md_));
        if (po.has_sum()) return dnnl_unimplemented; // as oneDNN's pooling
    }
    return dnnl_success;
}

template <>
status_t pooling_t<true>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const geom_t g = p->g;
    const alg_kind_t alg = p->desc()->alg_kind;
    std::vector<float> sbuf, dbuf;
    const float *src = io::in_view(*p->src_md(), ctx.host_ptr(DNNL_ARG_SRC), sbuf);
    void *dst_h = ctx.host_ptr(DNNL_ARG_DST);
    float *dst = io::out_view(*p->dst_md(), dst_h, dbuf);
    void *ws = p->has_ws() ? ctx.host_ptr(DNNL_ARG_WORKSPACE) : nullptr;
    if (md_nelems(*p->dst_md()) == 0) return dnnl_success;
    // An empty source has no buffer: every window is then in the padding.
    const bool empty_src = md_nelems(*p->src_md()) == 0;
    if ((!src && !empty_src) || !dst || (p->has_ws() && !ws))
        return dnnl_invalid_arguments;
    postops::postops_args_t pa;
    DNNL_CHECK(pa.init(p->po, ctx));
    const memory_desc_t &wmd = *p->ws_md();
    const bool wdense = ws && io::is_rowmajor_dense(wmd);
    const bool wu8 = ws && wmd.data_type == dnnl_u8;
    const dim_t ksize = g.kd * g.kh * g.kw;

    parallel_nd(g.mb * g.c, g.od, [&](dim_t nc, dim_t od) {
        {
            const float *s = src + nc * g.id * g.ih * g.iw;
            for (dim_t oh = 0; oh < g.oh; ++oh)
                for (dim_t ow = 0; ow < g.ow; ++ow) {
                    const dim_t l = ((nc * g.od + od) * g.oh + oh) * g.ow + ow;
                    float acc = alg == dnnl_pooling_max ? -FLT_MAX : 0.f;
                    dim_t arg = 0, cnt = 0;
                    for (dim_t kd = 0; kd < g.kd; ++kd) {
                        const dim_t id = od * g.sd - g.pd + kd * (g.dd + 1);
                        if (id < 0 || id >= g.id) continue;
                        for (dim_t kh = 0; kh < g.kh; ++kh) {
                            const dim_t ih = oh * g.sh - g.ph + kh * (g.dh + 1);
                            if (ih < 0 || ih >= g.ih) continue;
                            const float *row = s + (id * g.ih + ih) * g.iw;
                            for (dim_t kw = 0; kw < g.kw; ++kw) {
                                const dim_t iw = ow * g.sw - g.pw + kw * (g.dw + 1);
                                if (iw < 0 || iw >= g.iw) continue;
                                const float v = row[iw];
                                if (alg == dnnl_pooling_max) {
                                    if (v > acc) {
                                        acc = v;
                                        arg = (kd * g.kh + kh) * g.kw + kw;
                                    }
                                } else {
                                    acc += v;
                                }
                                ++cnt;
                            }
                        }
                    }
                    if (alg == dnnl_pooling_avg_include_padding)
                        acc /= (float)ksize;
                    else if (alg == dnnl_pooling_avg_exclude_padding)
                        acc = cnt ? acc / (float)cnt : 0.f;
                    dst[l] = acc;
                    if (ws) {
                        const dim_t o = io::off(wmd, wdense, l);
                        if (wu8)
                            static_cast<uint8_t *>(ws)[o] = (uint8_t)arg;
                        else
                            static_cast<int32_t *>(ws)[o] = (int32_t)arg;
                    }
                }
        }
    });
    postops::apply_dense(p->po, pa, dst, *p->dst_md());
    io::commit(*p->dst_md(), dst_h, dbuf, dst);
    return dnnl_success;
}

template <>
status_t pooling_t<false>::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd_();
    const geom_t g = p->g;
    const alg_kind_t alg = p->desc()->alg_kind;
    std::vector<float> sbuf, dbuf;
    const float *ddst = io::in_view(*p->diff_dst_md(), ctx.host_ptr(DNNL_ARG_DIFF_DST), dbuf);
    void *dsrc_h = ctx.host_ptr(DNNL_ARG_DIFF_SRC);
    float *dsrc = io::out_view(*p->diff_src_md(), dsrc_h, sbuf);
    const void *ws = p->has_ws() ? ctx.host_ptr(DNNL_ARG_WORKSPACE) : nullptr;
    // The gradient of an empty source is empty: nothing to write.
    if (md_nelems(*p->diff_src_md()) == 0) return dnnl_success;
    if (!ddst || !dsrc || (p->has_ws() && !ws)) return dnnl_invalid_arguments;
    const memory_desc_t &wmd = *p->ws_md();
    const bool wdense = ws && io::is_rowmajor_dense(wmd);
    const bool wu8 = ws && wmd.data_type == dnnl_u8;
    const dim_t ksize = g.kd * g.kh * g.kw;
    const dim_t isz = g.id * g.ih * g.iw;

    parallel_chunks(max_threads(), g.mb * g.c, [&](int, dim_t nc0, dim_t nc1) {
        for (dim_t nc = nc0; nc < nc1; ++nc) {
            float *s = dsrc + nc * isz;
            std::memset(s, 0, sizeof(float) * isz);
            for (dim_t od = 0; od < g.od; ++od)
                for (dim_t oh = 0; oh < g.oh; ++oh)
                    for (dim_t ow = 0; ow < g.ow; ++ow) {
                        const dim_t l = ((nc * g.od + od) * g.oh + oh) * g.ow + ow;
                        const float dv = ddst[l];
                        if (alg == dnnl_pooling_max) {
                            const dim_t o = io::off(wmd, wdense, l);
                            const dim_t k = wu8 ? (dim_t) static_cast<const uint8_t *>(ws)[o]
                                                : (dim_t) static_cast<const int32_t *>(ws)[o];
                            const dim_t kd = k / (g.kh * g.kw), kh = (k / g.kw) % g.kh,
                                        kw = k % g.kw;
                            const dim_t id = od * g.sd - g.pd + kd * (g.dd + 1);
                            const dim_t ih = oh * g.sh - g.ph + kh * (g.dh + 1);
                            const dim_t iw = ow * g.sw - g.pw + kw * (g.dw + 1);
                            if (id >= 0 && id < g.id && ih >= 0 && ih < g.ih && iw >= 0
                                    && iw < g.iw)
                                s[(id * g.ih + ih) * g.iw + iw] += dv;
                            continue;
                        }
                        dim_t cnt = 0;
                        if (alg == dnnl_pooling_avg_exclude_padding) {
                            dim_t cd = 0, ch = 0, cw = 0;
                            for (dim_t kd = 0; kd < g.kd; ++kd) {
                                const dim_t id = od * g.sd - g.pd + kd * (g.dd + 1);
                                cd += id >= 0 && id < g.id;
                            }
                            for (dim_t kh = 0; kh < g.kh; ++kh) {
                                const dim_t ih = oh * g.sh - g.ph + kh * (g.dh + 1);
                                ch += ih >= 0 && ih < g.ih;
                            }
                            for (dim_t kw = 0; kw < g.kw; ++kw) {
                                const dim_t iw = ow * g.sw - g.pw + kw * (g.dw + 1);
                                cw += iw >= 0 && iw < g.iw;
                            }
                            cnt = cd * ch * cw;
                        } else {
                            cnt = ksize;
                        }
                        if (cnt == 0) continue;
                        const float v = dv / (float)cnt;
                        for (dim_t kd = 0; kd < g.kd; ++kd) {
                            const dim_t id = od * g.sd - g.pd + kd * (g.dd + 1);
                            if (id < 0 || id >= g.id) continue;
                            for (dim_t kh = 0; kh < g.kh; ++kh) {
                                const dim_t ih = oh * g.sh - g.ph + kh * (g.dh + 1);
                                if (ih < 0 || ih >= g.ih) continue;
                                float *row = s + (id * g.ih + ih) * g.iw;
                                for (dim_t kw = 0; kw < g.kw; ++kw) {
                                    const dim_t iw = ow * g.sw - g.pw + kw * (g.dw + 1);
                                    if (iw < 0 || iw >= g.iw) continue;
                                    row[iw] += v;
                                }
                            }
                        }
                    }
        }
    });
    io::commit(*p->diff_src_md(), dsrc_h, sbuf, dsrc);
    return dnnl_success;
}

template struct pooling_t<true>;
template struct pooling_t<false>;

} // namespace pooling

const impl_list_item_t *pooling_impl_list() {
    using namespace pooling;
    static const impl_list_item_t list[] = {
            {create_pd<pooling_fast_fwd_t::pd_t, pooling_desc_t>},
            {create_pd<pooling_t<true>::pd_t, pooling_desc_t>},
            {create_pd<pooling_fast_bwd_t::pd_t, pooling_desc_t>},
            {create_pd<pooling_t<false>::pd_t, pooling_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
