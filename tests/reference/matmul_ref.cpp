// Matmul reference; see matmul_ref.hpp.
#include "reference/matmul_ref.hpp"

namespace matmul_ref {

namespace {
// Offset of `pos` (dst rank) in a dense tensor of `dims`, broadcasting dims
// of size 1.
int64_t offset(const std::vector<int64_t> &dims, const int64_t *pos) {
    int64_t off = 0;
    for (size_t d = 0; d < dims.size(); ++d)
        off = off * dims[d] + (dims[d] == 1 ? 0 : pos[d]);
    return off;
}
} // namespace

std::vector<double> compute(const problem_t &p, const std::vector<float> &src,
        const std::vector<float> &wei, const std::vector<float> &bias,
        const quant_t &q, const std::vector<post_ops_ref::post_op_t> &ops,
        const std::vector<float> *old_dst) {
    const int nd = (int)p.dst_dims.size();
    const int64_t K = p.src_dims[nd - 1];
    int64_t total = 1;
    for (int64_t d : p.dst_dims)
        total *= d;
    std::vector<double> out(total);
    std::vector<int64_t> pos(nd, 0), spos(nd), wpos(nd);
    for (int64_t idx = 0; idx < total; ++idx) {
        int64_t rem = idx;
        for (int d = nd - 1; d >= 0; --d) {
            pos[d] = rem % p.dst_dims[d];
            rem /= p.dst_dims[d];
        }
        const int64_t m = pos[nd - 2], n = pos[nd - 1];
        spos = pos;
        wpos = pos;
        spos[nd - 2] = m;
        spos[nd - 1] = 0;
        wpos[nd - 2] = 0;
        wpos[nd - 1] = n;
        const int64_t s0 = offset(p.src_dims, spos.data());
        const int64_t w0 = offset(p.wei_dims, wpos.data());
        const int64_t wk = p.wei_dims[nd - 1]; // dense: k moves by N
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) {
            const double s = (double)src[s0 + k] - q.src_zp;
            const double w = (double)wei[w0 + k * wk] - q.wei_zp;
            acc += s * w;
        }
        double v = acc;
        if (!q.src_scale.empty()) v *= q.src_scale[0];
        if (!q.wei_scale.empty()) v *= q.wei_scale[q.wei_scale.size() == 1 ? 0 : n];
        if (!p.bias_dims.empty()) v += bias[offset(p.bias_dims, pos.data())];
        v = post_ops_ref::apply(ops, v, old_dst ? (*old_dst)[idx] : 0.0, pos.data());
        if (!q.dst_scale.empty()) v /= q.dst_scale[q.dst_scale.size() == 1 ? 0 : n];
        if (!q.dst_zp.empty()) v += q.dst_zp[q.dst_zp.size() == 1 ? 0 : n];
        out[idx] = v;
    }
    return out;
}

} // namespace matmul_ref
