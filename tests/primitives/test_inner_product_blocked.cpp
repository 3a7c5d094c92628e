// Inner product with blocked source and weights layouts, 3D spatial (5D
// tensors) as oneDNN takes them: nCdhw16c / nCdhw8c sources with weights
// `any` (which follow the source's blocking), OIdhw16i16o weights (blocked
// along OC too, padded) with a plain source, and backward data / weights
// through blocked layouts, also with channels that do not fill their
// blocks. Data moves in and out through plain tensors and
// the library's reorder; the expected product is computed here.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

// A plain f32 tensor with deterministic small-integer values (exact sums).
memory plain(const memory::dims &d, int seed) {
    memory m(memory::desc(d, dt::f32, d.size() == 2 ? tag::ab : tag::abcde),
            eng());
    float *p = static_cast<float *>(m.get_data_handle());
    const size_t n = m.get_desc().get_size() / sizeof(float);
    for (size_t i = 0; i < n; ++i)
        p[i] = (float)((int)((i * 7 + seed) % 9) - 4);
    return m;
}

memory to(memory src, const memory::desc &md, stream &s) {
    memory m(md, eng());
    reorder(src, m).execute(s, src, m);
    return m;
}

std::vector<float> values(memory m, stream &s) {
    memory::desc pd(m.get_desc().get_dims(), dt::f32,
            m.get_desc().get_ndims() == 2 ? tag::ab : tag::abcde);
    memory p(pd, eng());
    reorder(m, p).execute(s, m, p);
    s.wait();
    const float *f = static_cast<const float *>(p.get_data_handle());
    return std::vector<float>(f, f + pd.get_size() / sizeof(float));
}

struct shape_t {
    memory::dim MB = 2, IC = 16, OC = 8, D = 2, H = 3, W = 2;
    memory::dims src() const { return {MB, IC, D, H, W}; }
    memory::dims wei() const { return {OC, IC, D, H, W}; }
    memory::dims dst() const { return {MB, OC}; }
    memory::dim K() const { return IC * D * H * W; }
};

void check_fwd(const shape_t &sh, tag src_tag, tag wei_tag) {
    SCOPED_TRACE(testing::Message() << "src " << (int)src_tag << " wei " << (int)wei_tag);
    stream s(eng());
    memory::desc smd(sh.src(), dt::f32, src_tag), wmd(sh.wei(), dt::f32, wei_tag);
    memory::desc dmd(sh.dst(), dt::f32, tag::ab);
    inner_product_forward::primitive_desc pd(
            eng(), prop_kind::forward_inference, smd, wmd, dmd);
    memory ps = plain(sh.src(), 1), pw = plain(sh.wei(), 2);
    memory src = to(ps, pd.src_desc(), s), wei = to(pw, pd.weights_desc(), s);
    memory dst(pd.dst_desc(), eng());
    inner_product_forward(pd).execute(
            s, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}});
    const std::vector<float> x = values(ps, s), w = values(pw, s),
                             y = values(dst, s);
    for (memory::dim n = 0; n < sh.MB; ++n)
        for (memory::dim o = 0; o < sh.OC; ++o) {
            float want = 0;
            for (memory::dim k = 0; k < sh.K(); ++k)
                want += x[n * sh.K() + k] * w[o * sh.K() + k];
            EXPECT_EQ(y[n * sh.OC + o], want) << n << "," << o;
        }
}

TEST(InnerProductBlocked, Forward5D) {
    shape_t sh;
    check_fwd(sh, tag::nCdhw16c, tag::any);
    check_fwd(sh, tag::nCdhw8c, tag::any);
    check_fwd(sh, tag::any, tag::OIdhw16i16o);
    check_fwd(sh, tag::nCdhw16c, tag::OIdhw16i16o);
    check_fwd(sh, tag::ncdhw, tag::OIdhw16i16o);
    // weights `any` follow the blocked source.
    memory::desc smd(sh.src(), dt::f32, tag::nCdhw16c);
    inner_product_forward::primitive_desc pd(eng(), prop_kind::forward_inference,
            smd, memory::desc(sh.wei(), dt::f32, tag::any),
            memory::desc(sh.dst(), dt::f32, tag::ab));
    EXPECT_EQ(pd.weights_desc(),
            memory::desc(sh.wei(), dt::f32, tag::aBcde16b));
}

void check_bwd(const shape_t &sh, tag src_tag) {
    SCOPED_TRACE(testing::Message() << "src " << (int)src_tag << " IC " << sh.IC);
    stream s(eng());
    memory::desc smd(sh.src(), dt::f32, src_tag);
    memory::desc wany(sh.wei(), dt::f32, tag::any);
    memory::desc dmd(sh.dst(), dt::f32, tag::ab);
    inner_product_forward::primitive_desc fpd(
            eng(), prop_kind::forward_training, smd, wany, dmd);
    inner_product_backward_data::primitive_desc bd(eng(), smd, wany, dmd, fpd);
    inner_product_backward_weights::primitive_desc bw(eng(), smd, wany, dmd, fpd);
    memory pw = plain(sh.wei(), 3), pdd = plain(sh.dst(), 4), ps = plain(sh.src(), 5);
    memory wei = to(pw, bd.weights_desc(), s), ddst = to(pdd, bd.diff_dst_desc(), s);
    memory dsrc(bd.diff_src_desc(), eng());
    inner_product_backward_data(bd).execute(s, {{DNNL_ARG_WEIGHTS, wei},
            {DNNL_ARG_DIFF_DST, ddst}, {DNNL_ARG_DIFF_SRC, dsrc}});
    memory src = to(ps, bw.src_desc(), s), ddst2 = to(pdd, bw.diff_dst_desc(), s);
    memory dwei(bw.diff_weights_desc(), eng());
    inner_product_backward_weights(bw).execute(s, {{DNNL_ARG_SRC, src},
            {DNNL_ARG_DIFF_DST, ddst2}, {DNNL_ARG_DIFF_WEIGHTS, dwei}});
    const std::vector<float> w = values(pw, s), g = values(pdd, s),
                             x = values(ps, s), dx = values(dsrc, s),
                             dw = values(dwei, s);
    for (memory::dim n = 0; n < sh.MB; ++n)
        for (memory::dim k = 0; k < sh.K(); ++k) {
            float want = 0;
            for (memory::dim o = 0; o < sh.OC; ++o)
                want += g[n * sh.OC + o] * w[o * sh.K() + k];
            EXPECT_EQ(dx[n * sh.K() + k], want);
        }
    for (memory::dim o = 0; o < sh.OC; ++o)
        for (memory::dim k = 0; k < sh.K(); ++k) {
            float want = 0;
            for (memory::dim n = 0; n < sh.MB; ++n)
                want += g[n * sh.OC + o] * x[n * sh.K() + k];
            EXPECT_EQ(dw[o * sh.K() + k], want);
        }
}

TEST(InnerProductBlocked, Backward5D) {
    check_bwd(shape_t(), tag::nCdhw8c);
}

// Channels that do not fill their blocks (nCdhw16c with 12 channels): the
// GEMM implementations refuse the padding, dense copies take it (named
// "blocked:<implementation>"), every pass.
TEST(InnerProductBlocked, PaddedChannels) {
    shape_t sh;
    sh.IC = 12;
    check_fwd(sh, tag::nCdhw16c, tag::any);
    check_fwd(sh, tag::nCdhw16c, tag::aBcde16b);
    check_fwd(sh, tag::ncdhw, tag::aBcde16b);
    check_bwd(sh, tag::nCdhw16c);
    sh.OC = 5;
    check_fwd(sh, tag::nCdhw8c, tag::any);
    check_bwd(sh, tag::nCdhw8c);
    inner_product_forward::primitive_desc pd(eng(), prop_kind::forward_inference,
            memory::desc(sh.src(), dt::f32, tag::nCdhw16c),
            memory::desc(sh.wei(), dt::f32, tag::any),
            memory::desc(sh.dst(), dt::f32, tag::ab));
    EXPECT_EQ(std::string(pd.impl_info_str()).rfind("blocked:", 0), 0u)
            << pd.impl_info_str();
}

} // namespace
