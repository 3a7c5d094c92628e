// One training step of a convolution layer in f32, every part a primitive:
//   forward:   y = relu(conv(x, W) + b)        (forward_training)
//   loss:      L = 1/2 sum (y - t)^2, so dL/dy = y - t   (binary sub)
//   backward:  dL/d(conv out) through ReLU      (eltwise backward)
//              dL/dW, dL/db                     (convolution backward weights)
//              dL/dx                            (convolution backward data)
//   update:    W -= lr * dL/dW, b -= lr * dL/db (sum with scales, in place)
// Checks: every gradient against plain loops, the update exactly, and that
// a second forward pass with the new weights has a smaller loss.
//
// Usage: cnn_training_f32 [cpu|gpu]

#include <algorithm>
#include <cmath>

#include "example_reference.hpp"
#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

float loss_of(const std::vector<float> &y, const std::vector<float> &t)
{
    double l = 0;
    for (size_t i = 0; i < y.size(); ++i)
        l += 0.5 * (y[i] - t[i]) * (y[i] - t[i]);
    return static_cast<float>(l);
}

void training_step(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);

    const example::conv_shape cs {2, 3, 8, 8, 4, 3, 3, 1, 1};
    const memory::dims x_dims = {cs.n, cs.ic, cs.ih, cs.iw};
    const memory::dims w_dims = {cs.oc, cs.ic, cs.kh, cs.kw};
    const memory::dims b_dims = {cs.oc};
    const memory::dims y_dims = {cs.n, cs.oc, cs.oh(), cs.ow()};
    const memory::dims strides = {cs.stride, cs.stride};
    const memory::dims pad = {cs.pad, cs.pad};
    const float lr = 0.01f;

    const auto x = example::fill(example::product(x_dims), -1, 1, 21);
    const auto w = example::fill(example::product(w_dims), -0.3, 0.3, 22);
    const auto b = example::fill(cs.oc, -0.1, 0.1, 23);
    const auto t = example::fill(example::product(y_dims), 0, 1, 24);

    const memory::desc x_md(x_dims, dt::f32, tag::nchw);
    const memory::desc w_md(w_dims, dt::f32, tag::oihw);
    const memory::desc b_md(b_dims, dt::f32, tag::x);
    const memory::desc y_md(y_dims, dt::f32, tag::nchw);
    memory x_mem(x_md, eng), w_mem(w_md, eng), b_mem(b_md, eng);
    memory conv_out(y_md, eng), y_mem(y_md, eng), t_mem(y_md, eng);
    memory dy(y_md, eng), dconv(y_md, eng), dx(x_md, eng);
    memory dw(w_md, eng), db(b_md, eng);
    example::write_to(x_mem, x);
    example::write_to(w_mem, w);
    example::write_to(b_mem, b);
    example::write_to(t_mem, t);

    // Forward.
    convolution_forward::primitive_desc conv_pd(eng, prop_kind::forward_training,
            algorithm::convolution_direct, x_md, w_md, b_md, y_md, strides,
            pad, pad);
    eltwise_forward::primitive_desc relu_pd(eng, prop_kind::forward_training,
            algorithm::eltwise_relu, y_md, y_md, 0.f, 0.f);
    convolution_forward conv(conv_pd);
    eltwise_forward relu(relu_pd);
    auto forward = [&] {
        conv.execute(strm, {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_WEIGHTS, w_mem},
                                   {DNNL_ARG_BIAS, b_mem},
                                   {DNNL_ARG_DST, conv_out}});
        relu.execute(strm, {{DNNL_ARG_SRC, conv_out}, {DNNL_ARG_DST, y_mem}});
    };
    forward();

    // Loss gradient.
    binary::primitive_desc sub_pd(eng, algorithm::binary_sub, y_md, y_md, y_md);
    binary(sub_pd).execute(strm,
            {{DNNL_ARG_SRC_0, y_mem}, {DNNL_ARG_SRC_1, t_mem},
                    {DNNL_ARG_DST, dy}});

    // Backward: each backward descriptor takes its forward one as a hint.
    eltwise_backward::primitive_desc relu_bwd_pd(eng, algorithm::eltwise_relu,
            y_md, y_md, y_md, 0.f, 0.f, relu_pd);
    eltwise_backward(relu_bwd_pd)
            .execute(strm, {{DNNL_ARG_SRC, conv_out}, {DNNL_ARG_DIFF_DST, dy},
                                   {DNNL_ARG_DIFF_SRC, dconv}});
    convolution_backward_weights::primitive_desc bww_pd(eng,
            algorithm::convolution_direct, x_md, w_md, b_md, y_md, strides,
            pad, pad, conv_pd);
    convolution_backward_weights(bww_pd).execute(strm,
            {{DNNL_ARG_SRC, x_mem}, {DNNL_ARG_DIFF_DST, dconv},
                    {DNNL_ARG_DIFF_WEIGHTS, dw}, {DNNL_ARG_DIFF_BIAS, db}});
    convolution_backward_data::primitive_desc bwd_pd(eng,
            algorithm::convolution_direct, x_md, w_md, y_md, strides, pad, pad,
            conv_pd);
    convolution_backward_data(bwd_pd).execute(strm,
            {{DNNL_ARG_DIFF_DST, dconv}, {DNNL_ARG_WEIGHTS, w_mem},
                    {DNNL_ARG_DIFF_SRC, dx}});
    strm.wait();
    const float loss0 = loss_of(example::read_from<float>(y_mem), t);

    // Update in place: W = 1 * W + (-lr) * dW (and the same for b).
    sum::primitive_desc upd_w_pd(eng, w_md, {1.f, -lr}, {w_md, w_md});
    sum(upd_w_pd).execute(strm, {{DNNL_ARG_MULTIPLE_SRC + 0, w_mem},
                                        {DNNL_ARG_MULTIPLE_SRC + 1, dw},
                                        {DNNL_ARG_DST, w_mem}});
    sum::primitive_desc upd_b_pd(eng, b_md, {1.f, -lr}, {b_md, b_md});
    sum(upd_b_pd).execute(strm, {{DNNL_ARG_MULTIPLE_SRC + 0, b_mem},
                                        {DNNL_ARG_MULTIPLE_SRC + 1, db},
                                        {DNNL_ARG_DST, b_mem}});
    forward();
    strm.wait();
    const float loss1 = loss_of(example::read_from<float>(y_mem), t);

    // The same step in plain loops.
    auto ref_out = example::ref_conv<float>(cs, x, w, b);
    std::vector<float> ref_dconv(ref_out.size());
    for (size_t i = 0; i < ref_out.size(); ++i)
        ref_dconv[i] = ref_out[i] > 0 ? std::max(ref_out[i], 0.f) - t[i] : 0.f;
    std::vector<float> ref_dw(w.size(), 0.f), ref_db(b.size(), 0.f);
    std::vector<float> ref_dx(x.size(), 0.f);
    const int64_t oh = cs.oh(), ow = cs.ow();
    for (int64_t n = 0; n < cs.n; ++n)
        for (int64_t o = 0; o < cs.oc; ++o)
            for (int64_t yy = 0; yy < oh; ++yy)
                for (int64_t xx = 0; xx < ow; ++xx) {
                    const float g = ref_dconv[((n * cs.oc + o) * oh + yy) * ow + xx];
                    ref_db[o] += g;
                    for (int64_t i = 0; i < cs.ic; ++i)
                        for (int64_t ky = 0; ky < cs.kh; ++ky)
                            for (int64_t kx = 0; kx < cs.kw; ++kx) {
                                const int64_t iy = yy * cs.stride - cs.pad + ky;
                                const int64_t ix = xx * cs.stride - cs.pad + kx;
                                if (iy < 0 || iy >= cs.ih || ix < 0 || ix >= cs.iw)
                                    continue;
                                const int64_t xi = ((n * cs.ic + i) * cs.ih + iy) * cs.iw + ix;
                                const int64_t wi = ((o * cs.ic + i) * cs.kh + ky) * cs.kw + kx;
                                ref_dw[wi] += g * x[xi];
                                ref_dx[xi] += g * w[wi];
                            }
                }
    example::expect_close(example::read_from<float>(dconv), ref_dconv, 1e-4f,
            "gradient through ReLU");
    example::expect_close(example::read_from<float>(dw), ref_dw, 1e-4f,
            "weights gradient");
    example::expect_close(example::read_from<float>(db), ref_db, 1e-4f,
            "bias gradient");
    example::expect_close(example::read_from<float>(dx), ref_dx, 1e-4f,
            "source gradient");
    std::vector<float> ref_w(w.size()), ref_b(b.size());
    for (size_t i = 0; i < w.size(); ++i)
        ref_w[i] = w[i] - lr * ref_dw[i];
    for (size_t i = 0; i < b.size(); ++i)
        ref_b[i] = b[i] - lr * ref_db[i];
    example::expect_close(example::read_from<float>(w_mem), ref_w, 1e-5f,
            "updated weights");
    example::expect_close(example::read_from<float>(b_mem), ref_b, 1e-5f,
            "updated bias");

    std::printf("loss before the step %.5f, after %.5f\n", loss0, loss1);
    example::expect(loss1 < loss0, "the step lowers the loss");
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, training_step);
}
