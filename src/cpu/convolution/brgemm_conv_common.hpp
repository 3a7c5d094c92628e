// What the three f32 convolution passes on the BRGEMM kernels (forward,
// backward data, backward weights: brgemm_conv*.cpp) share: the checks
// every pass makes, channels-last activations, the weight panels, the
// geometry as 3D, runs of output columns with equal kernel taps, and the
// set of kernels a pass takes from the kernel cache.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "common/convolution_pd.hpp"
#include "cpu/jit/brgemm_kernel.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace brgconv {

// Geometry as 3D (absent spatial dims are 1); `i*` are the source's (the
// diff_src's for backward data) sizes, `o*` the destination's.
struct geo_t {
    dim_t mb = 0, ic = 0, oc = 0;
    dim_t id = 1, ih = 1, iw = 1, od = 1, oh = 1, ow = 1;
    dim_t kd = 1, kh = 1, kw = 1;
    dim_t sd = 1, sh = 1, sw = 1;
    dim_t dd = 1, dh = 1, dw = 1; // distance between taps (dilation + 1)
    dim_t pd = 0, ph = 0, pw = 0; // front, top, left padding
    dim_t ksp() const { return kd * kh * kw; }
};

geo_t geo_of(const convolution_pd_t &pd);

inline dim_t div_up(dim_t a, dim_t b) {
    return (a + b - 1) / b;
}
// Floor and ceiling division for any sign of a (b > 0).
inline dim_t floor_div(dim_t a, dim_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}
inline dim_t ceil_div(dim_t a, dim_t b) {
    return -floor_div(-a, b);
}

// A 1x1 kernel without padding (right padding below 0 only drops source
// columns: a 1x1 kernel of stride 2 over an even size has -1).
bool is_1x1_no_pad(const convolution_pd_t &pd);
// For a 1x1 kernel with unit strides and no padding: reshapes `g` into
// one row per image over all its points (od = oh = 1, ow = spatial size)
// and says so; leaves it alone otherwise.
bool flatten(geo_t &g, const convolution_pd_t &pd);

// The checks every pass makes (CPU engine, direct algorithm, f32 tensors,
// groups of 1, no runtime dims, no scales, zero points, rounding modes
// or non-strict fpmath, spatial parameters in range) and the kernel
// target; null when declined. With `low_precision` (the forward pass),
// u8 / s8 sources and s8 weights into f32 / s8 / u8 / s32 (f32 bias) are
// taken too, scales and zero points left to the caller, on the u8 x s8
// target; and bf16 sources and weights into f32 / bf16 (f32 or bf16
// bias) on the bf16 target. `backward_data`: the kernel's A is diff_dst
// and its C diff_src (bf16 diff_dst and weights into f32 / bf16).
const jit::brgemm_target_t *target_for(const convolution_pd_t &pd,
        engine_t *engine, bool low_precision = false,
        bool backward_data = false);

// Both activations channels last (`any` resolves to it unless the other
// one is given channels first); false when they are not.
bool channels_last(memory_desc_t &a, memory_desc_t &b, int ndims);

// Weights in the kernel's panels: channels of one side (`ic_inner`:
// input channels, else output channels) innermost in blocks of `width`,
// then the other side's channels, then kd, kh, kw, then the blocks (a
// group dim of size 1 outermost); `kgroup` > 1 (s8 weights: 4) keeps
// that many of the other side's channels together innermost, padded to
// a multiple. `any` resolves to it; anything else must be it (offset
// allowed).
bool panel_weights(memory_desc_t &md, bool groups, bool ic_inner, int width,
        int kgroup = 1);

// Kernel positions k in [0, K) with 0 <= o * s - p + k * dl < I.
void taps_in(dim_t o, dim_t s, dim_t p, dim_t dl, dim_t K, dim_t I, dim_t &k0,
        dim_t &k1);

// Cuts [0, n) into runs of positions with equal key(i) (numbers each of
// which only rises, or only falls, as i grows) and calls emit(i0, i1,
// key) for each, in order. Each run's end is found by bisection, so
// padding that makes n billions of positions costs a few dozen steps.
template <typename F, typename E>
void cut_runs(dim_t n, F key, E emit) {
    for (dim_t i = 0; i < n;) {
        const auto k = key(i);
        dim_t lo = i + 1, hi = n; // the run ends in [lo, hi]
        while (lo < hi) {
            const dim_t mid = lo + (hi - lo) / 2;
            if (key(mid) == k)
                lo = mid + 1;
            else
                hi = mid;
        }
        emit(i, lo, k);
        i = lo;
    }
}

// Fetches `rows` rows of `bytes` bytes, `ld` bytes apart, ahead of their
// use: rows to be written into L1 with write intent (a tile's stores
// need their lines), rows to be read into L2.
inline void prefetch_rows(
        const void *p, dim_t rows, size_t ld, size_t bytes, bool write) {
    const char *c = static_cast<const char *>(p);
    for (dim_t i = 0; i < rows; ++i, c += ld)
        for (size_t l = 0; l < bytes; l += 64) {
            if (write)
                __builtin_prefetch(c + l, 1, 3);
            else
                __builtin_prefetch(c + l, 0, 2);
        }
}

// The tile heights (1 .. tm) that cutting runs of [a0, a1) into tiles of
// at most tm rows uses, marked in `used` (size tm + 1).
void mark_tiles(dim_t a0, dim_t a1, int tm, std::vector<bool> &used);

// A run of n points cut into ceil(n / tm) tiles of near-equal height
// (the first n % count one taller): a tile of one or two rows, whose
// kernel waits on its panel's loads, only where the run is that short.
struct tile_split_t {
    dim_t count, base, extra;
    tile_split_t(dim_t n, dim_t tm)
        : count(n > 0 ? div_up(n, tm) : 0), base(count ? n / count : 0),
          extra(count ? n % count : 0) {}
    dim_t start(dim_t i) const { return i * base + std::min(i, extra); }
    dim_t height(dim_t i) const { return base + (i < extra ? 1 : 0); }
    // Marks the heights in `used` (size tm + 1).
    void mark(std::vector<bool> &used) const {
        if (count == 0) return;
        used[(size_t)base] = true;
        if (extra) used[(size_t)base + 1] = true;
    }
};

// The kernels of one pass from the kernel cache: per K phase, tile
// height and channel tail. A K phase tells where a block of the
// reduction stands: the only one (beta 0, epilogue), the first (beta 0),
// a middle one (beta 1), the last (beta 1, epilogue).
struct kernel_set_t {
    enum phase_t { only, first, middle, last, n_phases };
    // The phase of block kb of nk.
    static phase_t phase_of(dim_t kb, dim_t nk) {
        return nk == 1 ? only : kb == 0 ? first : kb + 1 == nk ? last : middle;
    }
    // The phases nk blocks use, as a bit mask.
    static unsigned phases_for(dim_t nk);

    // Takes the kernels of the phases in `phases` for every tile height
    // m with used[m] and for n_full and n_tail columns (0: none), from
    // `full` (the full tile with its epilogue).
    status_t load(const jit::brgemm_config_t &full, unsigned phases,
            const std::vector<bool> &used, int n_full, int n_tail);
    const jit::brgemm_kernel_t &at(int phase, int m, bool tail) const {
        return *k_[((size_t)phase * rows_ + m) * 2 + tail];
    }

private:
    size_t rows_ = 0;
    std::vector<std::shared_ptr<const jit::brgemm_kernel_t>> k_;
};

// Teams for the forward and backward-data passes: a thread for each
// min_thread_macs multiply-adds (about 2-4 us of one core's work), the
// calling thread alone below two of them. Measured on 2 AVX2 cores (mb2
// 16 -> 32 channels 7x7 3x3, 0.45 M multiply-adds): backward data 15.8
// -> 10.6 us with two threads, the 3D smoke problem 11.4 -> 8.3; at 1 M
// (the earlier bound) these ran on one; with a bound of 50 K a 1x1
// problem of 0.1 M got slower (2.2 -> 3.1 us). On the 16-core Xeon a
// bound of 2 x 10^5 a thread ran the same.
inline int team_for(double macs, dim_t units) {
    constexpr double min_thread_macs = 1e5;
    if (macs < 2 * min_thread_macs) return 1;
    const double by_work = std::min(macs / min_thread_macs, 4096.);
    return std::min(nthr_for(units, 1), (int)by_work);
}

} // namespace brgconv
} // namespace cpu
} // namespace impl
} // namespace dnnl
