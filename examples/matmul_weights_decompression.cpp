// Matmul with weight decompression, as large language models run their
// linear layers: activations stay f32, weights are stored as 4-bit
// unsigned integers (two per byte) with one f32 scale per group of G rows
// along K and per column, and one u8 zero point per column:
//   w[k][n] = scale[k / G][n] * (q[k][n] - zp[n]).
// The matmul decompresses them itself; fpmath_mode(..., apply_to_int =
// true) is what allows integer weights next to floating-point activations.
// Here the mode is strict (decompressed weights in f32); bf16 or f16 let
// an implementation compute in those types instead.
// Checks: the result against the same formula in plain loops.
//
// Usage: matmul_weights_decompression [cpu|gpu]

#include <cmath>
#include <cstdint>

#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

void decompressed_matmul(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);

    const memory::dim M = 4, K = 64, N = 24, G = 16; // G: scale group along K
    const auto src = example::fill(M * K, -1, 1, 41);
    const auto scale_vals = example::fill((K / G) * N, 0.01, 0.05, 42);
    const auto raw = example::fill(K * N, 0, 16, 43);
    const auto zp_raw = example::fill(N, 5, 11, 44);

    // 4-bit weights, K x N row-major: element i in byte i / 2, the even one
    // in the low nibble.
    std::vector<int> q(K * N);
    std::vector<uint8_t> packed(K * N / 2, 0);
    for (size_t i = 0; i < q.size(); ++i) {
        q[i] = static_cast<int>(raw[i]) & 0xF;
        packed[i / 2] |= static_cast<uint8_t>(q[i] << (i % 2 ? 4 : 0));
    }
    std::vector<uint8_t> zp(N);
    for (memory::dim n = 0; n < N; ++n)
        zp[n] = static_cast<uint8_t>(zp_raw[n]);

    const memory::desc src_md({M, K}, dt::f32, tag::ab);
    const memory::desc wei_md({K, N}, dt::u4, tag::ab);
    const memory::desc dst_md({M, N}, dt::f32, tag::ab);
    const memory::desc scale_md({K / G, N}, dt::f32, tag::ab);
    const memory::desc zp_md({N}, dt::u8, tag::a);

    primitive_attr attr;
    attr.set_fpmath_mode(fpmath_mode::strict, /* apply_to_int = */ true);
    // Scales vary along K (in groups of G) and N: mask of both dims.
    attr.set_scales(DNNL_ARG_WEIGHTS, (1 << 0) | (1 << 1), {G, 1}, dt::f32);
    // Zero points vary along N only.
    attr.set_zero_points(DNNL_ARG_WEIGHTS, 1 << 1, {}, dt::u8);
    auto pd = example::make_or_skip(
            [&] { return matmul::primitive_desc(eng, src_md, wei_md, dst_md, attr); },
            "matmul weight decompression");

    memory src_mem(src_md, eng), wei_mem(wei_md, eng), dst_mem(dst_md, eng);
    memory scale_mem(scale_md, eng), zp_mem(zp_md, eng);
    example::expect(wei_md.get_size() == packed.size(),
            "4-bit weights take half a byte each");
    example::write_to(src_mem, src);
    example::write_to(wei_mem, packed);
    example::write_to(scale_mem, scale_vals);
    example::write_to(zp_mem, zp);

    matmul(pd).execute(strm,
            {{DNNL_ARG_SRC, src_mem}, {DNNL_ARG_WEIGHTS, wei_mem},
                    {DNNL_ARG_DST, dst_mem},
                    {DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, scale_mem},
                    {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, zp_mem}});
    strm.wait();

    std::vector<float> want(M * N, 0.f);
    for (memory::dim m = 0; m < M; ++m)
        for (memory::dim n = 0; n < N; ++n)
            for (memory::dim k = 0; k < K; ++k) {
                const float w = scale_vals[(k / G) * N + n]
                        * static_cast<float>(q[k * N + n] - zp[n]);
                want[m * N + n] += src[m * K + k] * w;
            }
    example::expect_close(example::read_from<float>(dst_mem), want, 1e-5f,
            "decompressed matmul");
    std::printf("%ld x %ld weights in %zu bytes (f32: %zu), result matches\n",
            static_cast<long>(K), static_cast<long>(N), packed.size(),
            static_cast<size_t>(K * N * sizeof(float)));
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, decompressed_matmul);
}
