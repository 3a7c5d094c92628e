// Backward depthwise convolution (groups = channels, one channel each),
// direct, on f32 channels-last tensors (the plan copies others to and
// from those):
//   data:    per diff_src row, the diff_dst rows of the kernel rows that
//            reach it, walked by dw_bwd_d_row_nspc (conv_kernels.cpp);
//   weights: per diff_dst row, its products with the source rows of the
//            kernel rows added to a per-thread [taps][G] partial sum
//            (dw_bwd_w_row_nspc), the bias its column sums; the partials
//            are added in thread order, so results do not depend on
//            timing.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/convolution/conv_driver.hpp"
#include "cpu/convolution/conv_kernels.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace conv {

void conv_bwd_data_depthwise(
        const conv_plan_t &p, const conv_canon_t &t, void *)
{
    const conv_conf_t &c = p.c;
    const dim_t G = c.g;
    const float *dd = static_cast<const float *>(t.diff_dst);
    const float *w = static_cast<const float *>(t.wei);
    float *ds = static_cast<float *>(t.diff_src);
    const dim_t nrows_in = c.mb * c.id * c.ih;
    const int nthr = (int)std::min<dim_t>(p.nthr, nrows_in);
    // diff_dst index o of input index i through tap k (stride s, dilation
    // dl, padding pad), or -1 when no output reads i through k.
    auto out_of = [](dim_t i, dim_t k, dim_t s, dim_t dl, dim_t pad,
                          dim_t n) -> dim_t {
        const dim_t num = i + pad - k * dl;
        if (num < 0 || num % s) return -1;
        return num / s < n ? num / s : -1;
    };
    parallel_chunks(nthr, nrows_in, [&](int, dim_t r0, dim_t r1) {
        std::vector<const float *> rows((size_t)(c.kd * c.kh));
        std::vector<dim_t> taps((size_t)(c.kd * c.kh));
        for (dim_t r = r0; r < r1; ++r) {
            const dim_t ih = r % c.ih, id = (r / c.ih) % c.id,
                        n = r / (c.ih * c.id);
            int nr = 0;
            for (dim_t kd = 0; kd < c.kd; ++kd) {
                const dim_t od = out_of(id, kd, c.sd, c.ddl, c.pf, c.od);
                if (od < 0) continue;
                for (dim_t kh = 0; kh < c.kh; ++kh) {
                    const dim_t oh = out_of(ih, kh, c.sh, c.dhl, c.pt, c.oh);
                    if (oh < 0) continue;
                    rows[nr] = dd + ((n * c.od + od) * c.oh + oh) * c.ow * G;
                    taps[nr] = kd * c.kh + kh;
                    ++nr;
                }
            }
            p.ker->dw_bwd_d_row_nspc(c, rows.data(), taps.data(), nr, w,
                    ds + r * c.iw * G, G);
        }
    });
}

void conv_bwd_weights_depthwise(
        const conv_plan_t &p, const conv_canon_t &t, void *scratchpad)
{
    const conv_conf_t &c = p.c;
    const dim_t G = c.g, wsz = c.ksp() * G;
    const float *src = static_cast<const float *>(t.src);
    const float *dd = static_cast<const float *>(t.diff_dst);
    const dim_t nrows_out = c.mb * c.od * c.oh;
    const int nthr = (int)std::max<dim_t>(1, std::min<dim_t>(p.nthr, nrows_out));
    // Per thread: [taps][G] weight sums, then G bias sums.
    float *red = p.scratch.get<float>(scratchpad, scratch_plan_t::red);
    const dim_t part = wsz + G;
    // A static split: one partial sum per thread, kept hot over its rows.
    // Fixed parts claimed by the team (a descheduled thread holding up
    // no one) measured 10-30% slower on small images (7x7x1024 mb32,
    // two threads: 0.41 -> 0.53 ms) and were not kept.
    int used = 1; // the team's size (the runtime may give fewer threads)
    parallel(nthr, [&](int ithr, int team) {
        if (ithr == 0) used = team;
        float *acc = red + ithr * part, *bias = acc + wsz;
        std::fill(acc, acc + part, 0.f);
        dim_t r0, r1;
        balance(nrows_out, team, ithr, r0, r1);
        std::vector<const float *> rows((size_t)(c.kd * c.kh));
        std::vector<dim_t> taps((size_t)(c.kd * c.kh));
        for (dim_t r = r0; r < r1; ++r) {
            const dim_t oh = r % c.oh, od = (r / c.oh) % c.od,
                        n = r / (c.oh * c.od);
            int nr = 0;
            for_each_input_row(c, od, oh, [&](dim_t kd, dim_t kh, dim_t id, dim_t ih) {
                rows[nr] = src + ((n * c.id + id) * c.ih + ih) * c.iw * G;
                taps[nr++] = kd * c.kh + kh;
            });
            const float *d = dd + r * c.ow * G;
            p.ker->dw_bwd_w_row_nspc(c, rows.data(), taps.data(), nr, d, acc,
                    t.diff_bias ? bias : nullptr);
        }
    });
    // The partial sums added in thread order (the same bits whatever the
    // split of this pass), slices of weights and bias sums by a team of
    // the same size as the one above: one thread summing 16 threads' parts
    // took as long as the rows of small images themselves, and a smaller
    // team here (or one claiming slices) made the next execution's team
    // slower to gather (measured 1.5x on large images, 16 threads).
    const dim_t nsum = t.diff_bias ? part : wsz;
    parallel(nthr, [&](int ithr, int team) {
        dim_t b, e;
        balance(nsum, team, ithr, b, e, 16);
        constexpr dim_t slice = 256;
        float s[slice];
        for (dim_t i0 = b; i0 < e; i0 += slice) {
            const dim_t n = std::min(slice, e - i0);
            for (dim_t j = 0; j < n; ++j)
                s[j] = red[i0 + j];
            for (int k = 1; k < used; ++k) {
                const float *r = red + k * part + i0;
                for (dim_t j = 0; j < n; ++j)
                    s[j] += r[j];
            }
            for (dim_t j = 0; j < n; ++j) {
                const dim_t i = i0 + j;
                if (i < wsz)
                    t.diff_wei[i] = s[j];
                else
                    t.diff_bias[i - wsz] = s[j];
            }
        }
    });
}

} // namespace conv
} // namespace cpu
} // namespace impl
} // namespace dnnl
