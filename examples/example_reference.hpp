// Plain loops the examples check the library's results against: direct
// 2D convolution, max pooling and a fully connected layer over nchw/oihw
// data held in std::vector, written for clarity, not speed.
#ifndef EXAMPLES_EXAMPLE_REFERENCE_HPP
#define EXAMPLES_EXAMPLE_REFERENCE_HPP

#include <algorithm>
#include <cstdint>
#include <vector>

namespace example {

struct conv_shape {
    int64_t n, ic, ih, iw, oc, kh, kw, stride, pad;
    int64_t oh() const { return (ih + 2 * pad - kh) / stride + 1; }
    int64_t ow() const { return (iw + 2 * pad - kw) / stride + 1; }
};

// dst[n][oc][oh][ow] = bias[oc] + sum src * weights, zero padding. `T`
// accumulates (float, or int64_t for integer data).
template <typename T, typename S, typename W>
std::vector<T> ref_conv(const conv_shape &s, const std::vector<S> &src,
        const std::vector<W> &wei, const std::vector<T> &bias)
{
    const int64_t oh = s.oh(), ow = s.ow();
    std::vector<T> dst(s.n * s.oc * oh * ow);
    for (int64_t n = 0; n < s.n; ++n)
        for (int64_t o = 0; o < s.oc; ++o)
            for (int64_t y = 0; y < oh; ++y)
                for (int64_t x = 0; x < ow; ++x) {
                    T acc = bias.empty() ? T(0) : bias[o];
                    for (int64_t i = 0; i < s.ic; ++i)
                        for (int64_t ky = 0; ky < s.kh; ++ky)
                            for (int64_t kx = 0; kx < s.kw; ++kx) {
                                const int64_t iy = y * s.stride - s.pad + ky;
                                const int64_t ix = x * s.stride - s.pad + kx;
                                if (iy < 0 || iy >= s.ih || ix < 0
                                        || ix >= s.iw)
                                    continue;
                                acc += T(src[((n * s.ic + i) * s.ih + iy) * s.iw
                                               + ix])
                                        * T(wei[((o * s.ic + i) * s.kh + ky)
                                                           * s.kw
                                                   + kx]);
                            }
                    dst[((n * s.oc + o) * oh + y) * ow + x] = acc;
                }
    return dst;
}

// Max pooling with a k x k window and stride k over nchw, no padding.
template <typename T>
std::vector<T> ref_max_pool(const std::vector<T> &src, int64_t n, int64_t c,
        int64_t h, int64_t w, int64_t k)
{
    const int64_t oh = h / k, ow = w / k;
    std::vector<T> dst(n * c * oh * ow);
    for (int64_t i = 0; i < n * c; ++i)
        for (int64_t y = 0; y < oh; ++y)
            for (int64_t x = 0; x < ow; ++x) {
                T m = src[(i * h + y * k) * w + x * k];
                for (int64_t ky = 0; ky < k; ++ky)
                    for (int64_t kx = 0; kx < k; ++kx)
                        m = std::max(m, src[(i * h + y * k + ky) * w + x * k + kx]);
                dst[(i * oh + y) * ow + x] = m;
            }
    return dst;
}

// dst[n][o] = bias[o] + sum_i src[n][i] * wei[o][i].
inline std::vector<float> ref_fc(const std::vector<float> &src,
        const std::vector<float> &wei, const std::vector<float> &bias,
        int64_t n, int64_t in, int64_t out)
{
    std::vector<float> dst(n * out);
    for (int64_t b = 0; b < n; ++b)
        for (int64_t o = 0; o < out; ++o) {
            float acc = bias[o];
            for (int64_t i = 0; i < in; ++i)
                acc += src[b * in + i] * wei[o * in + i];
            dst[b * out + o] = acc;
        }
    return dst;
}

inline void relu_in_place(std::vector<float> &v)
{
    for (auto &x : v)
        x = std::max(x, 0.f);
}

} // namespace example

#endif
