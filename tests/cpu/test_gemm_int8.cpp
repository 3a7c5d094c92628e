// Exactness of the integer GEMM core through dnnl_gemm_u8s8s32 and
// dnnl_gemm_s8s8s32: extreme values (255 x -128 sums over long K, which
// would saturate any 16-bit intermediate), K not a multiple of 4 (the quad
// kernels' tails), tiles cut at every row count of the microkernels, zero
// points of both operands (the shift compensations of the u8 x s8 quad
// path), both transposes and the unpacked path of up to four rows of A.
// Results must equal 64-bit sums modulo 2^32.
// CTest also runs these under ONEDNN_MAX_CPU_ISA=AVX2_VNNI and AVX2 (see
// tests/CMakeLists.txt) so every integer kernel family is covered.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"

namespace {

bool tr(char t) { return t == 'T'; }

template <typename TA>
std::vector<int32_t> ref_gemm(char ta, char tb, int64_t M, int64_t N, int64_t K,
        const std::vector<TA> &A, int64_t lda, int ao, const std::vector<int8_t> &B,
        int64_t ldb, int bo) {
    std::vector<int32_t> C(M * N);
    for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
            int64_t s = 0;
            for (int64_t k = 0; k < K; ++k) {
                const int64_t a = A[tr(ta) ? k * lda + i : i * lda + k];
                const int64_t b = B[tr(tb) ? j * ldb + k : k * ldb + j];
                s += (a - ao) * (b - bo);
            }
            C[i * N + j] = (int32_t)(uint32_t)(uint64_t)s;
        }
    return C;
}

// Values drawn from `pick` (a generator of one element).
template <typename TA, typename FA, typename FB>
void check(char ta, char tb, int64_t M, int64_t N, int64_t K, int ao, int bo,
        FA pick_a, FB pick_b) {
    SCOPED_TRACE(std::string(std::is_signed<TA>::value ? "s8s8 " : "u8s8 ") + ta
            + tb + " M=" + std::to_string(M) + " N=" + std::to_string(N) + " K="
            + std::to_string(K) + " ao=" + std::to_string(ao)
            + " bo=" + std::to_string(bo));
    const int64_t lda = (tr(ta) ? M : K) + 3, ldb = (tr(tb) ? K : N) + 1;
    std::vector<TA> A((tr(ta) ? K : M) * lda + 1);
    std::vector<int8_t> B((tr(tb) ? N : K) * ldb + 1);
    for (auto &x : A)
        x = (TA)pick_a();
    for (auto &x : B)
        x = (int8_t)pick_b();
    std::vector<int32_t> C(M * N, 12345);
    const int32_t co = 0;
    dnnl_status_t st;
    if (std::is_signed<TA>::value)
        st = dnnl_gemm_s8s8s32(ta, tb, 'F', M, N, K, 1.f, (const int8_t *)A.data(),
                lda, (int8_t)ao, B.data(), ldb, (int8_t)bo, 0.f, C.data(), N, &co);
    else
        st = dnnl_gemm_u8s8s32(ta, tb, 'F', M, N, K, 1.f, (const uint8_t *)A.data(),
                lda, (uint8_t)ao, B.data(), ldb, (int8_t)bo, 0.f, C.data(), N, &co);
    ASSERT_EQ(st, dnnl_success);
    const std::vector<int32_t> ref = ref_gemm(ta, tb, M, N, K, A, lda, ao, B, ldb, bo);
    int errors = 0;
    for (int64_t i = 0; i < M * N && errors < 5; ++i)
        if (C[i] != ref[i]) {
            ++errors;
            ADD_FAILURE() << "C(" << i / N << "," << i % N << ") got " << C[i]
                          << " expected " << ref[i];
        }
}

TEST(GemmInt8, ExtremeValuesLongK) {
    // All-255 x all-(-128): every pair sum is -65280, far outside int16.
    for (int64_t K : {1, 2, 3, 4, 5, 7, 64, 255, 1027, 4099})
        check<uint8_t>('N', 'N', 13, 35, K, 0, 0, [] { return 255; },
                [] { return -128; });
    for (int64_t K : {3, 1029})
        check<int8_t>('N', 'N', 7, 33, K, 0, 0, [] { return -128; },
                [] { return -128; });
    check<int8_t>('T', 'N', 5, 17, 1030, 0, 0, [] { return 127; },
            [] { return -128; });
}

TEST(GemmInt8, RandomExtremesAndTails) {
    std::mt19937 gen(11);
    std::uniform_int_distribution<int> coin(0, 1), any_u8(0, 255), any_s8(-128, 127);
    auto ext_u8 = [&] { return coin(gen) ? 255 : 0; };
    auto ext_s8 = [&] { return coin(gen) ? 127 : -128; };
    for (int64_t M = 1; M <= 13; ++M)
        for (int64_t K : {1, 6, 17, 30})
            check<uint8_t>('N', 'N', M, 40, K, 0, 0, ext_u8, ext_s8);
    for (char ta : {'N', 'T'})
        for (char tb : {'N', 'T'})
            for (int64_t K : {5, 66, 771}) {
                check<uint8_t>(ta, tb, 29, 70, K, 0, 0, ext_u8, ext_s8);
                check<int8_t>(ta, tb, 29, 70, K, 0, 0, ext_s8, ext_s8);
                check<uint8_t>(ta, tb, 14, 9, K, 0, 0, [&] { return any_u8(gen); },
                        [&] { return any_s8(gen); });
            }
}

TEST(GemmInt8, ZeroPoints) {
    std::mt19937 gen(12);
    std::uniform_int_distribution<int> any_u8(0, 255), any_s8(-128, 127);
    auto u8 = [&] { return any_u8(gen); };
    auto s8 = [&] { return any_s8(gen); };
    for (char ta : {'N', 'T'})
        for (char tb : {'N', 'T'})
            for (int64_t K : {1, 7, 300}) {
                check<uint8_t>(ta, tb, 17, 45, K, 255, 0, u8, s8);
                check<uint8_t>(ta, tb, 17, 45, K, 128, -128, u8, s8);
                check<uint8_t>(ta, tb, 17, 45, K, 3, 127, u8, s8);
                check<int8_t>(ta, tb, 17, 45, K, -128, 5, s8, s8);
                check<int8_t>(ta, tb, 17, 45, K, 127, -128, s8, s8);
            }
    // Extremes with zero points that maximise |A - ao| and |B - bo|.
    check<uint8_t>('N', 'N', 9, 40, 2051, 255, 127, [] { return 0; },
            [] { return -128; });
    check<int8_t>('N', 'T', 9, 40, 2051, 127, -128, [] { return -128; },
            [] { return 127; });
}

TEST(GemmInt8, SmallMStreamsB) {
    // Up to four rows of A with B contiguous along K ('T') or N ('N'): the
    // path without packing. Zero points, extremes over K past its int32
    // blocks (32768 products), column counts past its 64-column units.
    std::mt19937 gen(14);
    std::uniform_int_distribution<int> any_u8(0, 255), any_s8(-128, 127);
    auto u8 = [&] { return any_u8(gen); };
    auto s8 = [&] { return any_s8(gen); };
    for (int64_t M = 1; M <= 4; ++M)
        for (char tb : {'N', 'T'}) {
            check<uint8_t>('N', tb, M, 130, 301, 0, 0, u8, s8);
            check<uint8_t>('N', tb, M, 70, 33, 3, 127, u8, s8);
            check<int8_t>('N', tb, M, 65, 300, -128, 5, s8, s8);
        }
    for (char tb : {'N', 'T'}) {
        check<uint8_t>('N', tb, 3, 70, 32770, 0, 0, [] { return 255; },
                [] { return -128; });
        check<int8_t>('N', tb, 2, 9, 65537, 127, -128, [] { return -128; },
                [] { return 127; });
        // Past 2^31 in total (wraps): int32 sums of whole K would overflow.
        check<uint8_t>('N', tb, 1, 9, 70001, 0, 0, [] { return 255; },
                [] { return -128; });
    }
}

TEST(GemmInt8, LargeBlocks) {
    // Several K, M and N cache blocks, two threads.
    std::mt19937 gen(13);
    std::uniform_int_distribution<int> any_u8(0, 255), any_s8(-128, 127);
    check<uint8_t>('N', 'N', 250, 3100, 1601, 7, 0, [&] { return any_u8(gen); },
            [&] { return any_s8(gen); });
}

} // namespace
