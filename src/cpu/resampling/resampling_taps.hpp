// Interpolation taps of resampling along one spatial dim: for every output
// index o, the source indices and weights at x = (o + 0.5) * in / out - 0.5
// (nearest: round(x); linear: floor(x) and ceil(x) weighted 1 - f and f),
// clamped to the source. The backward direction uses the inverse lists:
// for every source index, the outputs that read it and their weights.
#pragma once

#include <cmath>
#include <vector>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace resampling {

struct taps_t {
    dim_t in = 1, out = 1;
    // Both taps of every output (i1 = i0, w1 = 0 for nearest): fixed
    // shape for the vectorised gathers.
    std::vector<dim_t> i0, i1;
    std::vector<float> w0, w1;
    // The taps with a non-zero weight (1 or 2 per output).
    std::vector<int> cnt;
    // Inverse: outputs [start[i], start[i + 1]) of `o`/`w` read source i.
    std::vector<dim_t> start, o;
    std::vector<float> w;
    // Nearest doubling: output k reads source k / 2 for every k.
    bool doubles = false;
    // Linear doubling: the taps blend2_row assumes (output 2i from i - 1
    // and i weighted 0.25 and 0.75, output 2i + 1 from i and i + 1
    // weighted 0.75 and 0.25, both ends clamped), checked tap by tap.
    bool halves = false;

    void init(dim_t in_, dim_t out_, bool linear) {
        in = in_, out = out_;
        i0.assign((size_t)out, 0);
        i1.assign((size_t)out, 0);
        w0.assign((size_t)out, 1.f);
        w1.assign((size_t)out, 0.f);
        cnt.assign((size_t)out, 1);
        auto clamp = [&](dim_t i) { return i < 0 ? 0 : i >= in ? in - 1 : i; };
        for (dim_t k = 0; k < out; ++k) {
            // Same float expression as oneDNN, so that ties round alike.
            const float x = ((float)k + 0.5f) * (float)in / (float)out - 0.5f;
            if (!linear) {
                i0[k] = i1[k] = clamp((dim_t)std::round(x));
                continue;
            }
            const float f = std::floor(x);
            i0[k] = clamp((dim_t)f);
            i1[k] = clamp((dim_t)std::ceil(x));
            w1[k] = x - f;
            w0[k] = 1.f - w1[k];
            cnt[k] = w1[k] != 0.f ? 2 : 1;
        }
        doubles = !linear && out == 2 * in;
        for (dim_t k = 0; doubles && k < out; ++k) doubles = i0[k] == k / 2;
        halves = linear && out == 2 * in;
        for (dim_t k = 0; halves && k < out; ++k) {
            const dim_t i = k / 2, lo = k % 2 ? i : i - 1;
            halves = i0[k] == clamp(lo) && i1[k] == clamp(lo + 1)
                     && w0[k] == (k % 2 ? 0.75f : 0.25f)
                     && w1[k] == (k % 2 ? 0.25f : 0.75f);
        }
        start.assign((size_t)in + 1, 0);
        for (dim_t k = 0; k < out; ++k) {
            ++start[(size_t)i0[k] + 1];
            if (cnt[k] == 2) ++start[(size_t)i1[k] + 1];
        }
        for (dim_t i = 0; i < in; ++i)
            start[(size_t)i + 1] += start[(size_t)i];
        o.assign((size_t)start[(size_t)in], 0);
        w.assign((size_t)start[(size_t)in], 0.f);
        std::vector<dim_t> pos(start.begin(), start.end() - 1);
        for (dim_t k = 0; k < out; ++k) {
            dim_t &p0 = pos[(size_t)i0[k]];
            o[(size_t)p0] = k, w[(size_t)p0] = w0[k], ++p0;
            if (cnt[k] == 2) {
                dim_t &p1 = pos[(size_t)i1[k]];
                o[(size_t)p1] = k, w[(size_t)p1] = w1[k], ++p1;
            }
        }
    }
    dim_t tap(dim_t k, int t) const { return t ? i1[(size_t)k] : i0[(size_t)k]; }
    float weight(dim_t k, int t) const { return t ? w1[(size_t)k] : w0[(size_t)k]; }
};

} // namespace resampling
} // namespace cpu
} // namespace impl
} // namespace dnnl
