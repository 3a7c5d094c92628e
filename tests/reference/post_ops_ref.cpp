// Post-op chain reference; see post_ops_ref.hpp.
#include "reference/post_ops_ref.hpp"

#include "reference/eltwise_ref.hpp"

namespace post_ops_ref {

int64_t broadcast_offset(const std::vector<int64_t> &od, const int64_t *pos) {
    int64_t off = 0;
    for (size_t d = 0; d < od.size(); ++d)
        off = off * od[d] + (od[d] == 1 ? 0 : pos[d]);
    return off;
}

double apply(const std::vector<post_op_t> &ops, double v, double old, const int64_t *pos) {
    for (const auto &op : ops) {
        switch (op.kind) {
            case post_op_t::sum: v += op.scale * (old - op.zero_point); break;
            case post_op_t::eltwise:
                v = eltwise_ref::fwd(op.alg, v, op.alpha, op.beta);
                break;
            case post_op_t::binary:
                v = eltwise_ref::binary(
                        op.alg, v, op.operand[broadcast_offset(op.operand_dims, pos)]);
                break;
            case post_op_t::prelu: {
                const double w = op.operand[broadcast_offset(op.operand_dims, pos)];
                v = v > 0 ? v : w * v;
                break;
            }
        }
    }
    return v;
}

void apply(const std::vector<post_op_t> &ops, const std::vector<int64_t> &dims,
        std::vector<double> &dst, const std::vector<float> *old) {
    if (ops.empty()) return;
    const int nd = (int)dims.size();
    std::vector<int64_t> pos(nd, 0);
    for (size_t i = 0; i < dst.size(); ++i) {
        dst[i] = apply(ops, dst[i], old ? (*old)[i] : 0.0, pos.data());
        for (int d = nd - 1; d >= 0; --d) {
            if (++pos[d] < dims[d]) break;
            pos[d] = 0;
        }
    }
}

} // namespace post_ops_ref
