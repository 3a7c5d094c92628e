// The counter-based random numbers of the dropout attribute: Philox4x32-10
// (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011)
// over the element index, with the counter and key laid out as oneDNN 3.13
// lays them out, so that masks match oneDNN's bit for bit.
#pragma once

#include <cstdint>

namespace dnnl {
namespace impl {
namespace math {

// One Philox4x32-10 block: ten rounds over a 128-bit counter with a
// 64-bit key, the key bumped by the Weyl constants between rounds.
inline void philox4x32_10(uint32_t ctr[4], uint32_t k0, uint32_t k1) {
    constexpr uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;
    constexpr uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += w0;
            k1 += w1;
        }
        const uint64_t p0 = uint64_t(m0) * ctr[0];
        const uint64_t p1 = uint64_t(m1) * ctr[2];
        const uint32_t c1 = ctr[1], c3 = ctr[3];
        ctr[0] = uint32_t(p1 >> 32) ^ c1 ^ k0;
        ctr[1] = uint32_t(p1);
        ctr[2] = uint32_t(p0 >> 32) ^ c3 ^ k1;
        ctr[3] = uint32_t(p0);
    }
}

// The 32-bit word for element `idx`: the counter holds the offset (low
// half first) and idx rounded down to a multiple of 4; the key is the
// seed; word idx % 4 of the block is the answer.
inline uint32_t dropout_random(uint64_t idx, uint64_t seed, uint64_t offset) {
    const uint64_t base = idx & ~uint64_t(3);
    uint32_t ctr[4] = {uint32_t(offset), uint32_t(offset >> 32), uint32_t(base),
            uint32_t(base >> 32)};
    philox4x32_10(ctr, uint32_t(seed), uint32_t(seed >> 32));
    return ctr[idx & 3];
}

// Without an offset (offset 0), oneDNN keeps its earlier 32-bit scheme:
// index and seed are taken modulo 2^32 and spread over the 64-bit inputs
// as below. Its word index is always 2, so four consecutive elements share
// one random number; matched as it is.
inline uint32_t dropout_random_legacy(uint32_t idx, uint32_t seed) {
    const uint64_t x = idx & ~uint32_t(3);
    const uint64_t idx64 = ((x + 3) << 32) + (x + 2);
    const uint64_t offset64 = ((x + 1) << 32) + x;
    const uint64_t seed64 = (uint64_t(seed) << 32) + seed;
    return dropout_random(idx64, seed64, offset64);
}

// Whether dropout keeps the element at dst offset `idx`: the random word
// exceeds p * (2^32 - 1) (p clamped to [0, 1]). oneDNN uses the 32-bit
// scheme whenever the offset is 0.
inline bool dropout_keep(uint64_t idx, float p, int64_t seed, int64_t offset) {
    const uint32_t r = offset ? dropout_random(idx, uint64_t(seed), uint64_t(offset))
                              : dropout_random_legacy(uint32_t(idx), uint32_t(seed));
    const float pc = p < 0.f ? 0.f : (p > 1.f ? 1.f : p);
    return r > double(UINT32_MAX) * pc;
}

// What a kept value is multiplied by: 1 / (1 - p), and 0 for p == 1.
inline float dropout_scale(float p) { return p != 1.f ? 1.f / (1.f - p) : 0.f; }

} // namespace math
} // namespace impl
} // namespace dnnl
