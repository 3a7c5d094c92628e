// A first tour of the C++ API: engine and stream, a 4D tensor, a ReLU
// (eltwise forward) checked element by element, a layout change from nchw
// to nhwc with a reorder, and how failures surface as dnnl::error.
//
// Usage: getting_started [cpu|gpu]   (default: cpu)
// Prints "Example passed on CPU." (or GPU) and exits 0 when every check holds.

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

#include "example_utils.hpp"

namespace {

using dims_t = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

using example::expect;
using example::read_from;
using example::write_to;

void run(dnnl::engine::kind kind)
{
    dnnl::engine eng(kind, 0);
    dnnl::stream strm(eng);

    // A small batch of images: N x C x H x W, stored plain (nchw).
    const dnnl::memory::dim N = 2, C = 3, H = 4, W = 5;
    const dims_t shape = {N, C, H, W};
    const size_t count = static_cast<size_t>(N * C * H * W);

    // Values spread evenly over [-1, 1): about half of them negative.
    std::vector<float> input(count);
    for (size_t i = 0; i < count; ++i)
        input[i] = -1.f + 2.f * static_cast<float>(i) / count;

    dnnl::memory::desc plain_md(shape, dt::f32, tag::nchw);
    expect(plain_md.get_size() == count * sizeof(float), "nchw size");
    expect(plain_md.get_dims() == shape, "dims round trip");

    dnnl::memory src(plain_md, eng);
    dnnl::memory dst(plain_md, eng);
    write_to(src, input);

    // 1. ReLU: dst = max(src, 0).
    dnnl::eltwise_forward::primitive_desc relu_pd(eng,
            dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu,
            plain_md, plain_md);
    dnnl::eltwise_forward relu(relu_pd);
    relu.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();

    const std::vector<float> activated = read_from<float>(dst);
    size_t zeroed = 0;
    for (size_t i = 0; i < count; ++i) {
        const float want = input[i] > 0.f ? input[i] : 0.f;
        expect(activated[i] == want, "relu value at " + std::to_string(i));
        if (input[i] < 0.f) ++zeroed;
    }
    std::printf("relu: %zu of %zu values were negative and became 0\n", zeroed,
            count);

    // 2. Reorder the activations to channels-last (nhwc).
    dnnl::memory::desc nhwc_md(shape, dt::f32, tag::nhwc);
    dnnl::memory nhwc(nhwc_md, eng);
    dnnl::reorder(dst, nhwc).execute(strm, dst, nhwc);
    strm.wait();

    const std::vector<float> moved = read_from<float>(nhwc);
    for (dnnl::memory::dim n = 0; n < N; ++n)
        for (dnnl::memory::dim c = 0; c < C; ++c)
            for (dnnl::memory::dim h = 0; h < H; ++h)
                for (dnnl::memory::dim w = 0; w < W; ++w) {
                    const auto from = ((n * C + c) * H + h) * W + w;
                    const auto to = ((n * H + h) * W + w) * C + c;
                    expect(moved[to] == activated[from], "nhwc element");
                }
    std::printf(
            "reorder: nchw -> nhwc moved all %zu values correctly\n", count);

    // 3. Errors: a descriptor with a negative dimension is rejected, and
    //    the C++ API reports it by throwing dnnl::error with a status.
    bool thrown = false;
    try {
        dnnl::memory::desc bad({N, -C, H, W}, dt::f32, tag::nchw);
    } catch (const dnnl::error &e) {
        thrown = true;
        std::printf("error handling: caught dnnl::error (status %d): %s\n",
                static_cast<int>(e.status), e.what());
    }
    expect(thrown, "negative dimension must throw dnnl::error");

    // ...and so is a ReLU whose source and destination shapes differ.
    thrown = false;
    try {
        dnnl::memory::desc other({N, C, H, W + 1}, dt::f32, tag::nchw);
        dnnl::eltwise_forward::primitive_desc pd(eng,
                dnnl::prop_kind::forward_inference,
                dnnl::algorithm::eltwise_relu, plain_md, other);
    } catch (const dnnl::error &e) {
        thrown = true;
        std::printf("error handling: mismatched shapes rejected (status %d)\n",
                static_cast<int>(e.status));
    }
    expect(thrown, "mismatched relu shapes must throw dnnl::error");
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, run);
}
