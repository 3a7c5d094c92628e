// Times one BRGEMM microkernel alone on the calling thread, through the
// library's test hook (dnnl_test_brgemm_kernel, exported for the tests):
// ns per call and GFLOP/s (GOP/s for int8) of an m x n tile over K, the
// batch of `bs` elements all pointing at the same A and B (so they stay in
// the caches), A rows `K * size + ldx` bytes apart, A and B `off` bytes
// past a 64-byte boundary. The table entries are brgemm_table()'s order
// (on an AMX machine: 0 AMX bf16, 1 AMX int8, 2 AVX512_BF16, 3 VNNI, 4
// AVX-512 f32, 5 AVX2). doc/performance.md's kernel-alone figures come
// from it.
//
// Build (against a build tree B), one line:
//   g++ -O2 -std=c++17 -Isrc -Iinclude -IB/include
//       tools/bench_brgemm_kernel.cpp -LB/src -ldnnl -o bench_brgemm_kernel
// Usage: bench_brgemm_kernel ENTRY M N K [BS [OFF [LDX]]]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cpu/jit/brgemm_test_hook.hpp"

using namespace dnnl::impl::cpu::jit;


int main(int argc, char **argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s ENTRY M N K [BS [OFF [LDX]]]\n", argv[0]);
        return 2;
    }
    const int entry = std::atoi(argv[1]), m = std::atoi(argv[2]),
              n = std::atoi(argv[3]), K = std::atoi(argv[4]);
    const int bs = argc > 5 ? std::atoi(argv[5]) : 1;
    const int off = argc > 6 ? std::atoi(argv[6]) : 0;
    const int ldx = argc > 7 ? std::atoi(argv[7]) : 0;
    unsigned isa = 0;
    int in_dt = 0, panel = 0, tile_m = 0;
    brgemm_fn fn = nullptr;
    const unsigned char *code = nullptr;
    size_t code_size = 0;
    const void *h = dnnl_test_brgemm_kernel(entry, m, n, 0, 4, 0, 0, 0, 0, 0, 0,
            nullptr, 0, 0, &isa, &in_dt, &panel, &tile_m, &fn, &code,
            &code_size);
    if (!h) {
        std::printf("entry %d: no kernel for %d x %d\n", entry, m, n);
        return 1;
    }
    // (Also asks Linux for the AMX tile data where the entry is AMX.)
    if (!dnnl_test_cpu_isa_entry_supported(isa)) {
        std::printf("entry %d: its ISA is not here\n", entry);
        dnnl_test_brgemm_release(h);
        return 1;
    }
    const size_t es = in_dt == dnnl_bf16 ? 2 : in_dt == dnnl_u8 ? 1 : 4;
    std::vector<char> a_buf((size_t)m * (K * es + ldx) + 4096),
            b_buf((size_t)(K + 4) * panel * 4 + 4096);
    for (size_t i = 0; i < a_buf.size(); ++i) a_buf[i] = (char)(i * 7 % 13);
    for (size_t i = 0; i < b_buf.size(); ++i) b_buf[i] = (char)(i * 5 % 11);
    auto aligned = [off](std::vector<char> &v) {
        return reinterpret_cast<const float *>(
                (((uintptr_t)v.data() + 63) & ~(uintptr_t)63) + off);
    };
    std::vector<float> c((size_t)m * n);
    std::vector<brgemm_batch_t> batch(
            (size_t)bs, brgemm_batch_t {aligned(a_buf), aligned(b_buf)});
    brgemm_args_t args {};
    args.batch = batch.data();
    args.bs = (size_t)bs;
    args.k = (size_t)K;
    args.lda = (size_t)K * es + ldx;
    args.c = c.data();
    args.ldc = (size_t)n * sizeof(float);
    for (int i = 0; i < 1000; ++i) fn(&args);
    const int iters = 20000;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) fn(&args);
    const double ns = std::chrono::duration<double, std::nano>(
                              std::chrono::steady_clock::now() - t0)
                              .count()
            / iters;
    std::printf("entry %d (isa %u, input type %d) %d x %d, K %d, batch %d: "
                "%.0f ns a call, %.1f G(FL)OP/s\n",
            entry, isa, in_dt, m, n, K, bs, ns, 2.0 * m * n * K * bs / ns);
    dnnl_test_brgemm_release(h);
    return 0;
}
