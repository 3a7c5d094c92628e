// The f32 pooling kernel table (src/cpu/pooling/pooling_fast.hpp): the
// ncsp row walk and the channel-vector walk, forward and backward, of
// every entry this processor supports against naive loops. Shapes have
// tails: channel counts that leave a short last group, odd spatial sizes,
// padding, strides and dilation; every algorithm (max with an s32 and a
// u8 workspace, average with and without padding).
#include <cfloat>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/pooling/pooling_fast.hpp"
#include "kernel_table_glue.hpp"

namespace {

using dnnl::impl::dim_t;
namespace pooling = dnnl::impl::cpu::pooling;
using kernel_table_glue::random_floats;

// A 2-D problem (d = 1) as the kernels' geometry.
pooling::geom_t geom(dim_t mb, dim_t c, dim_t ih, dim_t iw, dim_t k, dim_t s,
        dim_t dil, dim_t pad) {
    const dim_t ke = (k - 1) * (dil + 1) + 1;
    const dim_t oh = (ih + 2 * pad - ke) / s + 1;
    const dim_t ow = (iw + 2 * pad - ke) / s + 1;
    return {mb, c, 1, ih, iw, 1, oh, ow, 1, k, k, 1, s, s, 0, dil, dil, 0, pad,
            pad};
}

// Element offsets of (n, c, h, w) in a tensor.
using offset_fn = std::function<dim_t(dim_t, dim_t, dim_t, dim_t)>;

struct ref_out_t {
    std::vector<double> dst; // forward, at the dst offsets
    std::vector<int32_t> arg; // max: the first maximum's kernel index
};

// Naive forward: per output point, the window's taps in (kh, kw) order.
void ref_fwd(const pooling::geom_t &g, dnnl_alg_kind_t alg,
        const std::vector<float> &src, const offset_fn &so,
        const offset_fn &dof, size_t dsize, ref_out_t &r) {
    r.dst.assign(dsize, 0.0);
    r.arg.assign(dsize, -1);
    for (dim_t n = 0; n < g.mb; ++n)
        for (dim_t c = 0; c < g.c; ++c)
            for (dim_t oh = 0; oh < g.oh; ++oh)
                for (dim_t ow = 0; ow < g.ow; ++ow) {
                    double acc = alg == dnnl_pooling_max ? -FLT_MAX : 0.0;
                    int32_t arg = 0;
                    dim_t cnt = 0;
                    for (dim_t kh = 0; kh < g.kh; ++kh)
                        for (dim_t kw = 0; kw < g.kw; ++kw) {
                            const dim_t ih = oh * g.sh - g.ph + kh * (g.dh + 1);
                            const dim_t iw = ow * g.sw - g.pw + kw * (g.dw + 1);
                            if (ih < 0 || ih >= g.ih || iw < 0 || iw >= g.iw)
                                continue;
                            const double v = src[(size_t)so(n, c, ih, iw)];
                            ++cnt;
                            if (alg != dnnl_pooling_max)
                                acc += v;
                            else if (v > acc) {
                                acc = v;
                                arg = (int32_t)(kh * g.kw + kw);
                            }
                        }
                    const size_t o = (size_t)dof(n, c, oh, ow);
                    if (alg == dnnl_pooling_avg_include_padding)
                        acc /= (double)(g.kh * g.kw);
                    if (alg == dnnl_pooling_avg_exclude_padding)
                        acc = cnt ? acc / (double)cnt : 0.0;
                    r.dst[o] = acc;
                    r.arg[o] = arg;
                }
}

// Naive backward: each output point's gradient back to its window (max:
// to the recorded tap).
std::vector<double> ref_bwd(const pooling::geom_t &g, dnnl_alg_kind_t alg,
        const std::vector<float> &dd, const offset_fn &ddo,
        const std::vector<int32_t> &arg, const offset_fn &dso, size_t ssize) {
    std::vector<double> ds(ssize, 0.0);
    for (dim_t n = 0; n < g.mb; ++n)
        for (dim_t c = 0; c < g.c; ++c)
            for (dim_t oh = 0; oh < g.oh; ++oh)
                for (dim_t ow = 0; ow < g.ow; ++ow) {
                    const size_t o = (size_t)ddo(n, c, oh, ow);
                    dim_t cnt = 0;
                    for (int pass = 0; pass < 2; ++pass)
                        for (dim_t kh = 0; kh < g.kh; ++kh)
                            for (dim_t kw = 0; kw < g.kw; ++kw) {
                                const dim_t ih
                                        = oh * g.sh - g.ph + kh * (g.dh + 1);
                                const dim_t iw
                                        = ow * g.sw - g.pw + kw * (g.dw + 1);
                                if (ih < 0 || ih >= g.ih || iw < 0
                                        || iw >= g.iw)
                                    continue;
                                if (pass == 0) {
                                    ++cnt;
                                    continue;
                                }
                                double w = 0;
                                if (alg == dnnl_pooling_max)
                                    w = arg[o] == kh * g.kw + kw ? 1.0 : 0.0;
                                else if (alg
                                        == dnnl_pooling_avg_include_padding)
                                    w = 1.0 / (double)(g.kh * g.kw);
                                else
                                    w = 1.0 / (double)cnt;
                                ds[(size_t)dso(n, c, ih, iw)] += w * dd[o];
                            }
                }
    return ds;
}

const dnnl_alg_kind_t algs[] = {dnnl_pooling_max,
        dnnl_pooling_avg_include_padding, dnnl_pooling_avg_exclude_padding};

std::vector<pooling::geom_t> shapes(dim_t c) {
    // Global pooling: the window is the whole 5 x 7 plane.
    const pooling::geom_t global {
            2, c, 1, 5, 7, 1, 1, 1, 1, 5, 7, 1, 1, 1, 0, 0, 0, 0, 0, 0};
    return {geom(2, c, 11, 13, 3, 2, 0, 1), geom(1, c, 9, 10, 3, 1, 1, 2),
            global};
}

std::string shape_name(const pooling::geom_t &g) {
    return "c" + std::to_string(g.c) + "ih" + std::to_string(g.ih) + "iw"
            + std::to_string(g.iw) + "k" + std::to_string(g.kw) + "s"
            + std::to_string(g.sw) + "d" + std::to_string(g.dw) + "p"
            + std::to_string(g.pw);
}

const auto entries = [] {
    return kernel_table_glue::runnable_entries<pooling::fast_kernels_t>(
            "pooling");
};

} // namespace

// The ncsp row walk (fewer than 16 channels): nchw source and destination,
// an s32 or u8 workspace in the destination's layout.
TEST(KernelTables, PoolingNcspRowWalkOnEveryIsa) {
    ASSERT_FALSE(entries().empty());
    for (const auto *e : entries())
        for (const auto &g : shapes(3))
            for (auto alg : algs)
                for (bool wu8 : {false, true}) {
                    const pooling::strides5_t S {0, g.c * g.ih * g.iw,
                            g.ih * g.iw, g.ih * g.iw, g.iw, 1};
                    const pooling::strides5_t D {0, g.c * g.oh * g.ow,
                            g.oh * g.ow, g.oh * g.ow, g.ow, 1};
                    const auto src = random_floats(
                            (size_t)(g.mb * S.n), -5.f, 5.f, 31);
                    const size_t dsize = (size_t)(g.mb * D.n);
                    std::vector<float> dst(dsize, 99.f);
                    std::vector<int32_t> ws32(dsize, -7);
                    std::vector<uint8_t> ws8(dsize, 200);
                    const bool with_ws = alg == dnnl_pooling_max;
                    pooling::fast_args_t a;
                    a.g = g;
                    a.S = S;
                    a.D = D;
                    a.W = D;
                    a.alg = alg;
                    a.src = src.data();
                    a.dst = dst.data();
                    a.ws = !with_ws ? nullptr
                            : wu8   ? (void *)ws8.data()
                                    : (void *)ws32.data();
                    a.wu8 = wu8;
                    a.nthr = 1;
                    e->ncsp(a);
                    ref_out_t r;
                    ref_fwd(g, alg, src,
                            [&](dim_t n, dim_t c, dim_t h, dim_t w) {
                                return n * S.n + c * S.c + h * S.h + w;
                            },
                            [&](dim_t n, dim_t c, dim_t h, dim_t w) {
                                return n * D.n + c * D.c + h * D.h + w;
                            },
                            dsize, r);
                    const std::string what = std::string(e->isa) + " "
                            + shape_name(g) + " alg " + std::to_string(alg)
                            + (wu8 ? " u8 ws" : "");
                    for (size_t i = 0; i < dsize; ++i) {
                        EXPECT_NEAR(dst[i], r.dst[i], 1e-5) << what << " at " << i;
                        if (with_ws)
                            EXPECT_EQ(wu8 ? (int32_t)ws8[i] : ws32[i],
                                    r.arg[i])
                                    << what << " ws at " << i;
                    }
                }
}

namespace {

// A tensor of the channel-vector walk: its view and how its elements are
// addressed, for one of the layouts the walk takes.
enum class layout_t { nhwc, nChw16c, nChw8c, nchw };

struct tensor_t {
    pooling::cv_view_t v;
    int gw = 16;
    bool padded = false; // the last block holds padded lanes
    size_t size = 0;
    offset_fn off;
};

tensor_t tensor(layout_t l, dim_t N, dim_t C, dim_t H, dim_t W) {
    tensor_t t;
    if (l == layout_t::nhwc) {
        t.gw = 64;
        t.v = {H * W * C, 64, 1, 0, W * C, C};
        t.off = [=](dim_t n, dim_t c, dim_t h, dim_t w) {
            return ((n * H + h) * W + w) * C + c;
        };
        t.size = (size_t)(N * H * W * C);
    } else if (l == layout_t::nchw) {
        t.gw = 16;
        t.v = {C * H * W, 16 * H * W, H * W, 0, W, 1};
        t.off = [=](dim_t n, dim_t c, dim_t h, dim_t w) {
            return ((n * C + c) * H + h) * W + w;
        };
        t.size = (size_t)(N * C * H * W);
    } else {
        const dim_t B = l == layout_t::nChw16c ? 16 : 8;
        const dim_t CB = (C + B - 1) / B;
        t.gw = (int)B;
        t.padded = CB * B > C;
        t.v = {CB * H * W * B, H * W * B, 1, 0, W * B, B};
        t.off = [=](dim_t n, dim_t c, dim_t h, dim_t w) {
            return (((n * CB + c / B) * H + h) * W + w) * B + c % B;
        };
        t.size = (size_t)(N * CB * B * H * W);
    }
    return t;
}

std::string layout_name(layout_t l) {
    switch (l) {
    case layout_t::nhwc: return "nhwc";
    case layout_t::nChw16c: return "nChw16c";
    case layout_t::nChw8c: return "nChw8c";
    default: return "nchw";
    }
}

pooling::cv_args_t cv_args(const pooling::geom_t &g, dnnl_alg_kind_t alg,
        layout_t l, const tensor_t &in, const tensor_t &out) {
    pooling::cv_args_t a;
    a.g = g;
    a.alg = alg;
    a.kind = l == layout_t::nchw ? pooling::cv_kind_t::ncsp
                                 : pooling::cv_kind_t::direct;
    a.gw = in.gw;
    a.ngroups = (g.c + in.gw - 1) / in.gw;
    a.tail = (int)(g.c - (a.ngroups - 1) * in.gw);
    a.out_padded = out.padded;
    a.ws_padded = false;
    a.I = in.v;
    a.O = out.v;
    a.W = out.v;
    a.wu8 = false;
    a.ws = nullptr;
    a.nthr = 1;
    return a;
}

const layout_t layouts[]
        = {layout_t::nhwc, layout_t::nChw16c, layout_t::nChw8c, layout_t::nchw};

} // namespace

// The channel-vector walk, forward then backward through the forward's
// workspace, on each layout it takes; 70 channels leave a short last
// group for every group width (64, 16, 8), and padded lanes of blocked
// outputs must come out zero.
TEST(KernelTables, PoolingChannelVectorWalkOnEveryIsa) {
    const dim_t C = 70;
    for (const auto *e : entries())
        for (layout_t l : layouts)
            for (const auto &g : shapes(C))
                for (auto alg : algs) {
                    const tensor_t ts = tensor(l, g.mb, C, g.ih, g.iw);
                    const tensor_t td = tensor(l, g.mb, C, g.oh, g.ow);
                    const auto src = random_floats(ts.size, -5.f, 5.f, 32);
                    std::vector<float> dst(td.size, 99.f);
                    std::vector<int32_t> ws(td.size, -7);
                    const bool with_ws = alg == dnnl_pooling_max;
                    auto a = cv_args(g, alg, l, ts, td);
                    a.in = src.data();
                    a.out = dst.data();
                    a.ws = with_ws ? ws.data() : nullptr;
                    e->cv.fwd(a);
                    ref_out_t r;
                    ref_fwd(g, alg, src, ts.off, td.off, td.size, r);
                    const std::string what = std::string(e->isa) + " "
                            + layout_name(l) + " " + shape_name(g) + " alg "
                            + std::to_string(alg);
                    std::vector<bool> real(td.size, false);
                    for (dim_t n = 0; n < g.mb; ++n)
                        for (dim_t c = 0; c < C; ++c)
                            for (dim_t h = 0; h < g.oh; ++h)
                                for (dim_t w = 0; w < g.ow; ++w) {
                                    const size_t i = (size_t)td.off(n, c, h, w);
                                    real[i] = true;
                                    ASSERT_NEAR(dst[i], r.dst[i], 1e-5)
                                            << what << " dst at " << i;
                                    if (with_ws)
                                        ASSERT_EQ(ws[i], r.arg[i])
                                                << what << " ws at " << i;
                                }
                    for (size_t i = 0; i < td.size; ++i)
                        if (!real[i])
                            ASSERT_EQ(dst[i], 0.f)
                                    << what << " padded lane at " << i;

                    // Backward: diff_dst in the dst layout, diff_src in
                    // the src layout.
                    const auto dd = random_floats(td.size, -1.f, 1.f, 33);
                    std::vector<float> ds(ts.size, 99.f);
                    auto b = cv_args(g, alg, l, td, ts);
                    b.I = td.v;
                    b.O = ts.v;
                    b.W = td.v;
                    b.in = dd.data();
                    b.out = ds.data();
                    b.ws = with_ws ? ws.data() : nullptr;
                    e->cv.bwd(b);
                    const auto want = ref_bwd(
                            g, alg, dd, td.off, r.arg, ts.off, ts.size);
                    std::vector<bool> sreal(ts.size, false);
                    for (dim_t n = 0; n < g.mb; ++n)
                        for (dim_t c = 0; c < C; ++c)
                            for (dim_t h = 0; h < g.ih; ++h)
                                for (dim_t w = 0; w < g.iw; ++w) {
                                    const size_t i = (size_t)ts.off(n, c, h, w);
                                    sreal[i] = true;
                                    ASSERT_NEAR(ds[i], want[i], 1e-5)
                                            << what << " diff_src at " << i;
                                }
                    for (size_t i = 0; i < ts.size; ++i)
                        if (!sreal[i])
                            ASSERT_EQ(ds[i], 0.f)
                                    << what << " padded diff_src lane at "
                                    << i;
                }
}
