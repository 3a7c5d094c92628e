// Inner product references; see ip_ref.hpp.
#include "reference/ip_ref.hpp"

namespace ip_ref {

std::vector<double> fwd(int64_t MB, int64_t OC, int64_t K,
        const std::vector<float> &src, const std::vector<float> &wei,
        const std::vector<float> &bias, const quant_t &q,
        const std::vector<post_ops_ref::post_op_t> &ops,
        const std::vector<float> *old_dst) {
    std::vector<double> out(MB * OC);
    for (int64_t mb = 0; mb < MB; ++mb)
        for (int64_t oc = 0; oc < OC; ++oc) {
            double acc = 0;
            for (int64_t k = 0; k < K; ++k)
                acc += (double)src[mb * K + k] * wei[oc * K + k];
            if (!q.src_scale.empty()) acc *= q.src_scale[0];
            if (!q.wei_scale.empty())
                acc *= q.wei_scale[q.wei_scale.size() == 1 ? 0 : oc];
            if (!bias.empty()) acc += bias[oc];
            const int64_t pos[2] = {mb, oc};
            const size_t idx = mb * OC + oc;
            double v = post_ops_ref::apply(
                    ops, acc, old_dst ? (*old_dst)[idx] : 0.0, pos);
            if (!q.dst_scale.empty()) v /= q.dst_scale[0];
            out[idx] = v;
        }
    return out;
}

std::vector<double> bwd_data(int64_t MB, int64_t OC, int64_t K,
        const std::vector<float> &diff_dst, const std::vector<float> &wei) {
    std::vector<double> out(MB * K, 0.0);
    for (int64_t mb = 0; mb < MB; ++mb)
        for (int64_t k = 0; k < K; ++k) {
            double s = 0;
            for (int64_t oc = 0; oc < OC; ++oc)
                s += (double)diff_dst[mb * OC + oc] * wei[oc * K + k];
            out[mb * K + k] = s;
        }
    return out;
}

void bwd_weights(int64_t MB, int64_t OC, int64_t K,
        const std::vector<float> &src, const std::vector<float> &diff_dst,
        std::vector<double> &diff_wei, std::vector<double> &diff_bias) {
    diff_wei.assign(OC * K, 0.0);
    diff_bias.assign(OC, 0.0);
    for (int64_t oc = 0; oc < OC; ++oc) {
        for (int64_t k = 0; k < K; ++k) {
            double s = 0;
            for (int64_t mb = 0; mb < MB; ++mb)
                s += (double)diff_dst[mb * OC + oc] * src[mb * K + k];
            diff_wei[oc * K + k] = s;
        }
        double b = 0;
        for (int64_t mb = 0; mb < MB; ++mb)
            b += diff_dst[mb * OC + oc];
        diff_bias[oc] = b;
    }
}

} // namespace ip_ref
