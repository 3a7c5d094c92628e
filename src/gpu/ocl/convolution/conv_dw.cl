// Direct forward depthwise convolution (one input and one output channel
// per group): one work-item per output element reads its kernel window
// straight from the source. Depthwise layers do a handful of products per
// loaded value, so a GEMM per group (one column wide) would spend its time
// on strided gathers; here neighbouring work-items take neighbouring
// channels when the destination is channels-last (the geometry's
// c_mfast = 0), else neighbouring output points, and the loads coalesce.
// Parameters and defines as for conv_gemm.cl (conv_ctx.clh); the geometry's
// M counts output points (MB * OD * OH * OW) and g the channels.
#include "convolution/conv_ctx.clh"

kernel void conv_dw(CONV_PARAMS) {
    conv_ctx_t x;
    conv_epi_t e;
    CONV_CTX_INIT(x, e);
    const long i = get_global_id(0);
    if (i >= (long)p.M * p.g) return;
    int c, m;
    if (p.c_mfast) { // (n, c, point)
        const int osp = p.od * p.oh * p.ow;
        const long nc = i / osp;
        c = nc % p.g;
        m = (int)(nc / p.g) * osp + (int)(i % osp);
    } else { // (n, point, c)
        c = i % p.g;
        m = i / p.g;
    }
    const conv_point_t o = conv_point_split(m, p.od, p.oh, p.ow);
    COMP_T acc = 0;
    for (int kd = 0; kd < p.kd; ++kd) {
        const int id = o.d * p.sd - p.pd + kd * p.dd;
        if (id < 0 || id >= p.id) continue;
        for (int kh = 0; kh < p.kh; ++kh) {
            const int ih = o.h * p.sh - p.ph + kh * p.dh;
            if (ih < 0 || ih >= p.ih) continue;
            for (int kw = 0; kw < p.kw; ++kw) {
                const int iw = o.w * p.sw - p.pw + kw * p.dw;
                if (iw < 0 || iw >= p.iw) continue;
                const COMP_T s = LOAD_COMP(SRC_DT, src,
                                         SRC_OFF(&x.src_d, o.n, c, id, ih, iw))
                        - A_ZP_AT(&x, c);
                acc += s
                        * (LOAD_COMP(WEI_DT, wei,
                                   WEI_OFF(&x.wei_d, p.with_groups, c, 0, 0,
                                           kd, kh, kw))
                                - x.b_zp);
            }
        }
    }
    long idx[LAYOUT_MAX_NDIMS];
    conv_act_pos(idx, p.sp_ndims, o.n, c, o.d, o.h, o.w);
    const long off = DST_OFF(&x.dst_d, o.n, c, o.d, o.h, o.w);
    CONV_STORE_OUT(e, DST_DT, dst, off, acc, c, idx);
}
