// CNN inference in int8: an f32 convolution layer (+ bias, ReLU) run as
// u8 x s8 -> u8 with scales, as a quantized model does it.
//  1. Calibration (here: from the data itself) gives one scale for the
//     source and the destination, and one per output channel for weights.
//  2. Reorders quantize: f32 -> u8 source and f32 -> s8 weights, with the
//     destination scales of the reorder attributes (q = round(x / scale)).
//  3. The convolution computes in s32, applies src and weights scales,
//     adds the f32 bias, applies ReLU, divides by the destination scale and
//     saturates to u8.
//  4. A reorder with a source scale dequantizes the result to f32.
// Checks: the quantized tensors and the u8 result against the same
// arithmetic in plain loops (within one unit of rounding), and the
// dequantized result against the f32 convolution (within the quantization
// error).
//
// Usage: cnn_inference_int8 [cpu|gpu]

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "example_reference.hpp"
#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

// One f32 scale (or a vector of them) as a memory of the engine.
memory scales_memory(const std::vector<float> &v, const engine &eng)
{
    memory m({{static_cast<memory::dim>(v.size())}, dt::f32, tag::x}, eng);
    example::write_to(m, v);
    return m;
}

int quantize(float x, float scale, int lo, int hi)
{
    return std::min(hi, std::max(lo, static_cast<int>(std::nearbyint(x / scale))));
}

void cnn_int8(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);

    const example::conv_shape cs {2, 8, 10, 10, 16, 3, 3, 1, 1};
    const memory::dims src_dims = {cs.n, cs.ic, cs.ih, cs.iw};
    const memory::dims wei_dims = {cs.oc, cs.ic, cs.kh, cs.kw};
    const memory::dims dst_dims = {cs.n, cs.oc, cs.oh(), cs.ow()};
    const size_t per_oc = static_cast<size_t>(cs.ic * cs.kh * cs.kw);

    const auto src = example::fill(example::product(src_dims), 0, 2, 11);
    const auto wei = example::fill(example::product(wei_dims), -0.5, 0.5, 12);
    const auto bias = example::fill(cs.oc, -0.2, 0.2, 13);

    // 1. Calibration.
    auto ref = example::ref_conv<float>(cs, src, wei, bias);
    example::relu_in_place(ref);
    const float src_scale = 2.f / 255.f;
    const float dst_scale = *std::max_element(ref.begin(), ref.end()) / 255.f;
    std::vector<float> wei_scales(cs.oc);
    for (memory::dim o = 0; o < cs.oc; ++o) {
        float m = 0;
        for (size_t i = 0; i < per_oc; ++i)
            m = std::max(m, std::fabs(wei[o * per_oc + i]));
        wei_scales[o] = m / 127.f;
    }

    // 2. Quantizing reorders.
    memory f32_src({src_dims, dt::f32, tag::nchw}, eng);
    memory f32_wei({wei_dims, dt::f32, tag::oihw}, eng);
    memory f32_bias({{cs.oc}, dt::f32, tag::x}, eng);
    example::write_to(f32_src, src);
    example::write_to(f32_wei, wei);
    example::write_to(f32_bias, bias);
    memory src_scale_mem = scales_memory({src_scale}, eng);
    memory wei_scale_mem = scales_memory(wei_scales, eng);
    memory dst_scale_mem = scales_memory({dst_scale}, eng);

    // The convolution picks the int8 layouts; the reorders write them.
    primitive_attr conv_attr;
    conv_attr.set_scales_mask(DNNL_ARG_SRC, 0);
    conv_attr.set_scales_mask(DNNL_ARG_WEIGHTS, 1 << 0); // per output channel
    conv_attr.set_scales_mask(DNNL_ARG_DST, 0);
    post_ops relu;
    relu.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    conv_attr.set_post_ops(relu);
    auto conv_pd = example::make_or_skip(
            [&] {
                return convolution_forward::primitive_desc(eng,
                        prop_kind::forward_inference,
                        algorithm::convolution_direct,
                        {src_dims, dt::u8, tag::any},
                        {wei_dims, dt::s8, tag::any},
                        {{cs.oc}, dt::f32, tag::x},
                        {dst_dims, dt::u8, tag::any}, {cs.stride, cs.stride},
                        {cs.pad, cs.pad}, {cs.pad, cs.pad}, conv_attr);
            },
            "int8 convolution");

    memory q_src(conv_pd.src_desc(), eng);
    memory q_wei(conv_pd.weights_desc(), eng);
    memory q_dst(conv_pd.dst_desc(), eng);

    primitive_attr q_src_attr;
    q_src_attr.set_scales_mask(DNNL_ARG_DST, 0);
    reorder(reorder::primitive_desc(f32_src, q_src, q_src_attr))
            .execute(strm, {{DNNL_ARG_FROM, f32_src}, {DNNL_ARG_TO, q_src},
                                   {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
                                           src_scale_mem}});
    primitive_attr q_wei_attr;
    q_wei_attr.set_scales_mask(DNNL_ARG_DST, 1 << 0);
    reorder(reorder::primitive_desc(f32_wei, q_wei, q_wei_attr))
            .execute(strm, {{DNNL_ARG_FROM, f32_wei}, {DNNL_ARG_TO, q_wei},
                                   {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST,
                                           wei_scale_mem}});

    // 3. The int8 convolution.
    convolution_forward(conv_pd).execute(strm,
            {{DNNL_ARG_SRC, q_src}, {DNNL_ARG_WEIGHTS, q_wei},
                    {DNNL_ARG_BIAS, f32_bias}, {DNNL_ARG_DST, q_dst},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, src_scale_mem},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, wei_scale_mem},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, dst_scale_mem}});

    // Plain copies of the quantized data, to check and to recompute with.
    memory u8_src({src_dims, dt::u8, tag::nchw}, eng);
    memory s8_wei({wei_dims, dt::s8, tag::oihw}, eng);
    memory u8_dst({dst_dims, dt::u8, tag::nchw}, eng);
    reorder(q_src, u8_src).execute(strm, q_src, u8_src);
    reorder(q_wei, s8_wei).execute(strm, q_wei, s8_wei);
    reorder(q_dst, u8_dst).execute(strm, q_dst, u8_dst);

    // 4. Dequantize.
    memory f32_dst({dst_dims, dt::f32, tag::nchw}, eng);
    primitive_attr dq_attr;
    dq_attr.set_scales_mask(DNNL_ARG_SRC, 0);
    reorder(reorder::primitive_desc(q_dst, f32_dst, dq_attr))
            .execute(strm, {{DNNL_ARG_FROM, q_dst}, {DNNL_ARG_TO, f32_dst},
                                   {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC,
                                           dst_scale_mem}});
    strm.wait();

    const auto got_src = example::read_from<uint8_t>(u8_src);
    const auto got_wei = example::read_from<int8_t>(s8_wei);
    for (size_t i = 0; i < src.size(); ++i)
        example::expect(std::abs(got_src[i] - quantize(src[i], src_scale, 0, 255))
                        <= 1,
                "quantized source at " + std::to_string(i));
    for (size_t i = 0; i < wei.size(); ++i)
        example::expect(std::abs(got_wei[i]
                                - quantize(wei[i], wei_scales[i / per_oc],
                                        -128, 127))
                        <= 1,
                "quantized weights at " + std::to_string(i));

    // The u8 result from the library's own quantized inputs, in plain loops.
    const auto acc = example::ref_conv<int64_t>(cs, got_src, got_wei, {});
    const auto got_dst = example::read_from<uint8_t>(u8_dst);
    const size_t spatial = static_cast<size_t>(cs.oh() * cs.ow());
    for (size_t i = 0; i < acc.size(); ++i) {
        const size_t oc = (i / spatial) % cs.oc;
        float v = static_cast<float>(acc[i]) * src_scale * wei_scales[oc]
                + bias[oc];
        const int want = quantize(std::max(v, 0.f), dst_scale, 0, 255);
        example::expect(std::abs(got_dst[i] - want) <= 1,
                "u8 result at " + std::to_string(i) + ": got "
                        + std::to_string(got_dst[i]) + ", want "
                        + std::to_string(want));
    }

    // Dequantized against f32: src, weights and dst each add up to half a
    // step of error per product; a few destination steps bound it here.
    const auto deq = example::read_from<float>(f32_dst);
    float worst = 0;
    for (size_t i = 0; i < deq.size(); ++i)
        worst = std::max(worst, std::fabs(deq[i] - ref[i]));
    std::printf("int8 vs f32: largest difference %.4f (destination step "
                "%.4f)\n",
            worst, dst_scale);
    example::expect(worst <= 4 * dst_scale, "dequantized result near f32");
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, cnn_int8);
}
