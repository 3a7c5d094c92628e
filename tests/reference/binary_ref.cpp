// Naive binary and post-op references (see binary_ref.hpp).
#include "reference/binary_ref.hpp"

#include <cmath>

namespace binary_ref {

double op(alg_t alg, double a, double b, double c) {
    switch (alg) {
    case alg_t::add:
        return a + b;
    case alg_t::mul:
        return a * b;
    case alg_t::max:
        return a > b ? a : b;
    case alg_t::min:
        return a < b ? a : b;
    case alg_t::div:
        return a / b;
    case alg_t::sub:
        return a - b;
    case alg_t::ge:
        return a >= b ? 1 : 0;
    case alg_t::gt:
        return a > b ? 1 : 0;
    case alg_t::le:
        return a <= b ? 1 : 0;
    case alg_t::lt:
        return a < b ? 1 : 0;
    case alg_t::eq:
        return a == b ? 1 : 0;
    case alg_t::ne:
        return a != b ? 1 : 0;
    case alg_t::select:
        return c != 0 ? a : b;
    }
    return NAN;
}

int64_t volume(const dims_t &d) {
    int64_t n = 1;
    for (int64_t v : d) n *= v;
    return n;
}

int64_t bcast_index(const dims_t &d, const int64_t *pos) {
    int64_t idx = 0;
    for (size_t k = 0; k < d.size(); ++k)
        idx = idx * d[k] + (d[k] == 1 ? 0 : pos[k]);
    return idx;
}

std::vector<double> compute(alg_t alg, const dims_t &dst_dims,
        const std::vector<double> &src0, const dims_t &d0,
        const std::vector<double> &src1, const dims_t &d1,
        const std::vector<double> *src2, const dims_t *d2, double scale0,
        double scale1) {
    std::vector<double> dst;
    dst.reserve(volume(dst_dims));
    for_each(dst_dims, [&](const int64_t *pos) {
        const double a = scale0 * src0[bcast_index(d0, pos)];
        const double b = scale1 * src1[bcast_index(d1, pos)];
        const double c = src2 ? (*src2)[bcast_index(*d2, pos)] : 0;
        dst.push_back(op(alg, a, b, c));
    });
    return dst;
}

} // namespace binary_ref

namespace po_ref {

double eltwise(elt_t e, double x, double alpha, double beta) {
    switch (e) {
    case elt_t::relu:
        return x > 0 ? x : alpha * x;
    case elt_t::linear:
        return alpha * x + beta;
    case elt_t::tanh:
        return std::tanh(x);
    case elt_t::logistic:
        return 1 / (1 + std::exp(-x));
    case elt_t::square:
        return x * x;
    case elt_t::abs:
        return std::fabs(x);
    case elt_t::clip:
        return x < alpha ? alpha : (x > beta ? beta : x);
    case elt_t::exp:
        return std::exp(x);
    }
    return NAN;
}

double apply(const std::vector<entry_t> &chain, const int64_t *pos, double v,
        double old) {
    for (const auto &e : chain) {
        switch (e.kind) {
        case kind_t::eltwise:
            v = e.scale * eltwise(e.elt, v, e.alpha, e.beta);
            break;
        case kind_t::sum:
            v += e.scale * (old - e.zero_point);
            break;
        case kind_t::binary:
            v = binary_ref::op(
                    e.alg, v, e.src[binary_ref::bcast_index(e.dims, pos)]);
            break;
        }
    }
    return v;
}

} // namespace po_ref
