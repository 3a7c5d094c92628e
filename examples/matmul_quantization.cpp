// Matmul with quantization: C = A x B computed as u8 x s8 with an
// asymmetric source (scale and zero point: a = scale_a * (qa - zp_a)) and
// symmetric weights quantized per column (b[:, n] = scale_b[n] * qb[:, n]),
// giving f32 directly: the matmul applies both scales and subtracts the
// zero point itself.
// Quantization is done by reorders with destination scales and zero
// points (q = round(x / scale) + zp). Checks: the quantized operands, the
// result against integer arithmetic on those operands, and the result
// against the f32 product within the quantization error.
//
// Usage: matmul_quantization [cpu|gpu]

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

template <typename T>
memory vector_memory(const std::vector<T> &v, dt type, const engine &eng)
{
    memory m({{static_cast<memory::dim>(v.size())}, type, tag::x}, eng);
    example::write_to(m, v);
    return m;
}

void matmul_quantized(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);

    const memory::dim M = 12, K = 40, N = 20;
    const auto a = example::fill(M * K, -0.5, 1.5, 31); // activations
    const auto b = example::fill(K * N, -1, 1, 32);     // weights

    // Parameters: A spans [-0.5, 1.5) -> u8 [0, 255] with a zero point;
    // each column of B by its largest magnitude -> s8 [-127, 127].
    const float a_scale = 2.f / 255.f;
    const int32_t a_zp = 64; // round(0.5 / a_scale): -0.5 maps near 0
    std::vector<float> b_scales(N, 0.f);
    for (memory::dim k = 0; k < K; ++k)
        for (memory::dim n = 0; n < N; ++n)
            b_scales[n] = std::max(b_scales[n], std::fabs(b[k * N + n]));
    for (auto &s : b_scales)
        s /= 127.f;

    const memory::desc a_f32({M, K}, dt::f32, tag::ab);
    const memory::desc b_f32({K, N}, dt::f32, tag::ab);
    const memory::desc a_u8({M, K}, dt::u8, tag::ab);
    const memory::desc b_s8({K, N}, dt::s8, tag::ab);
    const memory::desc c_f32({M, N}, dt::f32, tag::ab);
    memory a_mem(a_f32, eng), b_mem(b_f32, eng);
    memory qa(a_u8, eng), qb(b_s8, eng), c(c_f32, eng);
    example::write_to(a_mem, a);
    example::write_to(b_mem, b);
    memory a_scale_mem = vector_memory<float>({a_scale}, dt::f32, eng);
    memory a_zp_mem = vector_memory<int32_t>({a_zp}, dt::s32, eng);
    memory b_scale_mem = vector_memory(b_scales, dt::f32, eng);

    // Quantize A (per tensor, with zero point) and B (per column).
    primitive_attr qa_attr;
    qa_attr.set_scales_mask(DNNL_ARG_DST, 0);
    qa_attr.set_zero_points_mask(DNNL_ARG_DST, 0);
    reorder(reorder::primitive_desc(a_mem, qa, qa_attr))
            .execute(strm, {{DNNL_ARG_FROM, a_mem}, {DNNL_ARG_TO, qa},
                                   {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, a_scale_mem},
                                   {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, a_zp_mem}});
    primitive_attr qb_attr;
    qb_attr.set_scales_mask(DNNL_ARG_DST, 1 << 1);
    reorder(reorder::primitive_desc(b_mem, qb, qb_attr))
            .execute(strm, {{DNNL_ARG_FROM, b_mem}, {DNNL_ARG_TO, qb},
                                   {DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, b_scale_mem}});

    // The quantized matmul: scales and the zero point at execution.
    primitive_attr mm_attr;
    mm_attr.set_scales_mask(DNNL_ARG_SRC, 0);
    mm_attr.set_zero_points_mask(DNNL_ARG_SRC, 0);
    mm_attr.set_scales_mask(DNNL_ARG_WEIGHTS, 1 << 1);
    auto mm_pd = example::make_or_skip(
            [&] { return matmul::primitive_desc(eng, a_u8, b_s8, c_f32, mm_attr); },
            "u8 x s8 matmul with a source zero point");
    matmul(mm_pd).execute(strm,
            {{DNNL_ARG_SRC, qa}, {DNNL_ARG_WEIGHTS, qb}, {DNNL_ARG_DST, c},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, a_scale_mem},
                    {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, a_zp_mem},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, b_scale_mem}});
    strm.wait();

    const auto got_a = example::read_from<uint8_t>(qa);
    const auto got_b = example::read_from<int8_t>(qb);
    for (size_t i = 0; i < a.size(); ++i) {
        const int want = std::min(255,
                std::max(0, static_cast<int>(std::nearbyint(a[i] / a_scale)) + a_zp));
        example::expect(std::abs(got_a[i] - want) <= 1,
                "quantized A at " + std::to_string(i));
    }
    for (size_t i = 0; i < b.size(); ++i) {
        const int want
                = static_cast<int>(std::nearbyint(b[i] / b_scales[i % N]));
        example::expect(std::abs(got_b[i] - want) <= 1,
                "quantized B at " + std::to_string(i));
    }

    // Integer arithmetic on the operands the library quantized, and f32.
    const auto got = example::read_from<float>(c);
    std::vector<float> want_int(M * N), want_f32(M * N);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n) {
            int32_t acc = 0;
            float f = 0;
            for (memory::dim k = 0; k < K; ++k) {
                acc += (got_a[m * K + k] - a_zp) * got_b[k * N + n];
                f += a[m * K + k] * b[k * N + n];
            }
            want_int[m * N + n] = static_cast<float>(acc) * a_scale * b_scales[n];
            want_f32[m * N + n] = f;
        }
    example::expect_close(got, want_int, 1e-5f, "int8 matmul");
    float worst = 0;
    for (size_t i = 0; i < got.size(); ++i)
        worst = std::max(worst, std::fabs(got[i] - want_f32[i]));
    std::printf("quantized vs f32 matmul: largest difference %.4f\n", worst);
    // Each of the K products errs by at most |a| * half a step of B plus
    // |b| * half a step of A (|a| < 1.5, |b| < 1), and a little more.
    const float b_step = *std::max_element(b_scales.begin(), b_scales.end());
    example::expect(worst <= 1.01f * K * (1.5f * b_step + a_scale) / 2,
            "quantized product near f32");
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, matmul_quantized);
}
