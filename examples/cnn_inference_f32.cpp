// CNN inference in f32: convolution (+ bias, ReLU as a post-op), max
// pooling, a fully connected layer and softmax, the way a framework builds
// a network on oneDNN: user data stays in plain layouts (nchw, oihw), the
// primitives choose their own layouts (format `any`), and reorders convert
// at the edges only where a primitive asked for something else. The
// network runs as a list of (primitive, arguments) pairs on one stream,
// and its output is checked against plain loops.
//
// Usage: cnn_inference_f32 [cpu|gpu]

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "example_reference.hpp"
#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

struct step {
    primitive prim;
    std::unordered_map<int, memory> args;
};

// Returns `user` when the primitive wants its layout, else a new memory in
// the wanted layout plus a reorder step that fills it.
memory prepare_input(const memory &user, const memory::desc &wanted,
        const engine &eng, std::vector<step> &net)
{
    if (user.get_desc() == wanted) return user;
    memory m(wanted, eng);
    net.push_back({reorder(user, m), {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, m}}});
    return m;
}

void cnn_inference(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);

    const example::conv_shape cs {2, 3, 16, 16, 8, 3, 3, 1, 1};
    const memory::dim classes = 10, pool_k = 2;
    const memory::dim ph = cs.oh() / pool_k, pw = cs.ow() / pool_k;
    const memory::dims src_dims = {cs.n, cs.ic, cs.ih, cs.iw};
    const memory::dims wei_dims = {cs.oc, cs.ic, cs.kh, cs.kw};
    const memory::dims conv_dst_dims = {cs.n, cs.oc, cs.oh(), cs.ow()};
    const memory::dims pool_dst_dims = {cs.n, cs.oc, ph, pw};
    const memory::dims fc_wei_dims = {classes, cs.oc, ph, pw};

    const auto src = example::fill(example::product(src_dims), -1, 1, 1);
    const auto wei = example::fill(example::product(wei_dims), -0.5, 0.5, 2);
    const auto bias = example::fill(cs.oc, -0.1, 0.1, 3);
    const auto fc_wei = example::fill(example::product(fc_wei_dims), -0.2, 0.2, 4);
    const auto fc_bias = example::fill(classes, -0.1, 0.1, 5);

    // User memories in plain layouts.
    memory user_src({src_dims, dt::f32, tag::nchw}, eng);
    memory user_wei({wei_dims, dt::f32, tag::oihw}, eng);
    memory user_bias({{cs.oc}, dt::f32, tag::x}, eng);
    memory user_fc_wei({fc_wei_dims, dt::f32, tag::oihw}, eng);
    memory user_fc_bias({{classes}, dt::f32, tag::x}, eng);
    memory user_dst({{cs.n, classes}, dt::f32, tag::nc}, eng);
    example::write_to(user_src, src);
    example::write_to(user_wei, wei);
    example::write_to(user_bias, bias);
    example::write_to(user_fc_wei, fc_wei);
    example::write_to(user_fc_bias, fc_bias);

    std::vector<step> net;
    std::vector<step> weight_prep; // run once: weights into the chosen layouts

    // Convolution with a fused ReLU; every tensor's layout left to it.
    post_ops relu;
    relu.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr conv_attr;
    conv_attr.set_post_ops(relu);
    convolution_forward::primitive_desc conv_pd(eng,
            prop_kind::forward_inference, algorithm::convolution_direct,
            {src_dims, dt::f32, tag::any}, {wei_dims, dt::f32, tag::any},
            {{cs.oc}, dt::f32, tag::x}, {conv_dst_dims, dt::f32, tag::any},
            {cs.stride, cs.stride}, {cs.pad, cs.pad}, {cs.pad, cs.pad},
            conv_attr);
    memory conv_src = prepare_input(user_src, conv_pd.src_desc(), eng, net);
    memory conv_wei
            = prepare_input(user_wei, conv_pd.weights_desc(), eng, weight_prep);
    memory conv_dst(conv_pd.dst_desc(), eng);
    net.push_back({convolution_forward(conv_pd),
            {{DNNL_ARG_SRC, conv_src}, {DNNL_ARG_WEIGHTS, conv_wei},
                    {DNNL_ARG_BIAS, user_bias}, {DNNL_ARG_DST, conv_dst}}});

    // Max pooling reads the convolution's layout as it is.
    pooling_forward::primitive_desc pool_pd(eng, prop_kind::forward_inference,
            algorithm::pooling_max, conv_pd.dst_desc(),
            {pool_dst_dims, dt::f32, tag::any}, {pool_k, pool_k},
            {pool_k, pool_k}, {0, 0}, {0, 0}, {0, 0});
    memory pool_dst(pool_pd.dst_desc(), eng);
    net.push_back({pooling_forward(pool_pd),
            {{DNNL_ARG_SRC, conv_dst}, {DNNL_ARG_DST, pool_dst}}});

    // Fully connected layer over the pooled maps.
    inner_product_forward::primitive_desc fc_pd(eng,
            prop_kind::forward_inference, pool_pd.dst_desc(),
            {fc_wei_dims, dt::f32, tag::any}, {{classes}, dt::f32, tag::x},
            {{cs.n, classes}, dt::f32, tag::nc});
    memory fc_wei_mem
            = prepare_input(user_fc_wei, fc_pd.weights_desc(), eng, weight_prep);
    memory fc_dst(fc_pd.dst_desc(), eng);
    net.push_back({inner_product_forward(fc_pd),
            {{DNNL_ARG_SRC, pool_dst}, {DNNL_ARG_WEIGHTS, fc_wei_mem},
                    {DNNL_ARG_BIAS, user_fc_bias}, {DNNL_ARG_DST, fc_dst}}});

    // Class probabilities.
    softmax_forward::primitive_desc sm_pd(eng, prop_kind::forward_inference,
            algorithm::softmax_accurate, fc_pd.dst_desc(),
            user_dst.get_desc(), 1);
    net.push_back({softmax_forward(sm_pd),
            {{DNNL_ARG_SRC, fc_dst}, {DNNL_ARG_DST, user_dst}}});

    std::printf("layouts chosen: conv src %s, conv weights %s, %zu reorders\n",
            conv_pd.src_desc() == user_src.get_desc() ? "as given" : "reordered",
            conv_pd.weights_desc() == user_wei.get_desc() ? "as given"
                                                          : "reordered",
            weight_prep.size() + (net.size() - 4));

    for (auto &s : weight_prep)
        s.prim.execute(strm, s.args);
    // Twice, as inference runs repeatedly over new inputs; same answer.
    for (int iter = 0; iter < 2; ++iter)
        for (auto &s : net)
            s.prim.execute(strm, s.args);
    strm.wait();

    // The same network in plain loops.
    auto ref = example::ref_conv<float>(cs, src, wei, bias);
    example::relu_in_place(ref);
    ref = example::ref_max_pool(ref, cs.n, cs.oc, cs.oh(), cs.ow(), pool_k);
    ref = example::ref_fc(ref, fc_wei, fc_bias, cs.n, cs.oc * ph * pw, classes);
    for (memory::dim n = 0; n < cs.n; ++n) {
        float *row = ref.data() + n * classes;
        const float m = *std::max_element(row, row + classes);
        float sum = 0;
        for (memory::dim c = 0; c < classes; ++c)
            sum += row[c] = std::exp(row[c] - m);
        for (memory::dim c = 0; c < classes; ++c)
            row[c] /= sum;
    }
    const auto got = example::read_from<float>(user_dst);
    example::expect_close(got, ref, 1e-4f, "class probabilities");
    for (memory::dim n = 0; n < cs.n; ++n) {
        const float *row = got.data() + n * classes;
        const auto best = std::max_element(row, row + classes) - row;
        std::printf("image %ld: class %ld (p = %.4f)\n", static_cast<long>(n),
                static_cast<long>(best), row[best]);
    }
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, cnn_inference);
}
