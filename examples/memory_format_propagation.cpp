// Memory format propagation: let compute-heavy primitives pick their
// layouts (format tag `any`), let the next primitive take the previous
// one's output layout as it is, and reorder only at the network's edges.
//   user src (nchw) -> [reorder?] -> convolution (any) -> pooling (the
//   convolution's layout) -> [reorder?] -> user dst (nchw)
// The layouts chosen are printed (strides and inner blocks, as a program
// can inspect them through the public API). Checks: pooling reads the
// convolution's output without a reorder between them, and the result
// equals the same layers in plain loops.
//
// Usage: memory_format_propagation [cpu|gpu]

#include <string>

#include "example_reference.hpp"
#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

// "strides a:b:c:d" plus "blocks 16b" style inner blocking, from queries.
std::string describe(const memory::desc &md)
{
    std::string s = "strides";
    for (auto v : md.get_strides())
        s += (s.size() == 7 ? " " : ":") + std::to_string(v);
    const auto blks = md.get_inner_blks();
    const auto idxs = md.get_inner_idxs();
    if (!blks.empty()) {
        s += ", inner blocks";
        for (size_t i = 0; i < blks.size(); ++i)
            s += " " + std::to_string(blks[i])
                    + static_cast<char>('a' + idxs[i]);
    }
    return s;
}

void propagate(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);

    const example::conv_shape cs {1, 16, 14, 14, 32, 3, 3, 1, 1};
    const memory::dims src_dims = {cs.n, cs.ic, cs.ih, cs.iw};
    const memory::dims wei_dims = {cs.oc, cs.ic, cs.kh, cs.kw};
    const memory::dims conv_dims = {cs.n, cs.oc, cs.oh(), cs.ow()};
    const memory::dims pool_dims = {cs.n, cs.oc, cs.oh() / 2, cs.ow() / 2};

    const auto src = example::fill(example::product(src_dims), -1, 1, 51);
    const auto wei = example::fill(example::product(wei_dims), -0.2, 0.2, 52);

    // 1. The primitives choose.
    convolution_forward::primitive_desc conv_pd(eng,
            prop_kind::forward_inference, algorithm::convolution_direct,
            {src_dims, dt::f32, tag::any}, {wei_dims, dt::f32, tag::any},
            {conv_dims, dt::f32, tag::any}, {1, 1}, {1, 1}, {1, 1});
    pooling_forward::primitive_desc pool_pd(eng, prop_kind::forward_inference,
            algorithm::pooling_max, conv_pd.dst_desc(),
            {pool_dims, dt::f32, tag::any}, {2, 2}, {2, 2}, {0, 0}, {0, 0},
            {0, 0});
    std::printf("convolution src:     %s\n", describe(conv_pd.src_desc()).c_str());
    std::printf("convolution weights: %s\n", describe(conv_pd.weights_desc()).c_str());
    std::printf("convolution dst:     %s\n", describe(conv_pd.dst_desc()).c_str());
    std::printf("pooling dst:         %s\n", describe(pool_pd.dst_desc()).c_str());
    example::expect(pool_pd.src_desc() == conv_pd.dst_desc(),
            "pooling takes the convolution's layout unchanged");

    // 2. User memories in plain layouts; reorders only where they differ.
    memory user_src({src_dims, dt::f32, tag::nchw}, eng);
    memory user_wei({wei_dims, dt::f32, tag::oihw}, eng);
    memory user_dst({pool_dims, dt::f32, tag::nchw}, eng);
    example::write_to(user_src, src);
    example::write_to(user_wei, wei);

    int reorders = 0;
    auto as_wanted = [&](const memory &user, const memory::desc &want) {
        if (user.get_desc() == want) return user;
        memory m(want, eng);
        reorder(user, m).execute(
                strm, {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, m}});
        ++reorders;
        return m;
    };
    memory conv_src = as_wanted(user_src, conv_pd.src_desc());
    memory conv_wei = as_wanted(user_wei, conv_pd.weights_desc());
    memory conv_dst(conv_pd.dst_desc(), eng);
    const bool dst_reorder = pool_pd.dst_desc() != user_dst.get_desc();
    memory pool_dst = dst_reorder ? memory(pool_pd.dst_desc(), eng) : user_dst;

    convolution_forward(conv_pd).execute(strm,
            {{DNNL_ARG_SRC, conv_src}, {DNNL_ARG_WEIGHTS, conv_wei},
                    {DNNL_ARG_DST, conv_dst}});
    pooling_forward(pool_pd).execute(
            strm, {{DNNL_ARG_SRC, conv_dst}, {DNNL_ARG_DST, pool_dst}});
    if (dst_reorder) {
        reorder(pool_dst, user_dst).execute(strm, pool_dst, user_dst);
        ++reorders;
    }
    strm.wait();
    std::printf("reorders inserted: %d\n", reorders);

    auto ref = example::ref_conv<float>(cs, src, wei, {});
    ref = example::ref_max_pool(ref, cs.n, cs.oc, cs.oh(), cs.ow(), 2);
    example::expect_close(
            example::read_from<float>(user_dst), ref, 1e-4f, "network output");
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, propagate);
}
