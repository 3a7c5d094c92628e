// bf16 <-> f32 for the tests' own references (round to nearest even; the
// tests' values are finite), written here rather than taken from the
// library so that a conversion bug there cannot hide in both sides.
#pragma once

#include <cstdint>
#include <cstring>

inline uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
inline float from_bf16(uint16_t h) {
    const uint32_t u = (uint32_t)h << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline float round_bf16(float f) {
    return from_bf16(to_bf16(f));
}
