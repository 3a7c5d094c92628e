// Naive references of the binary primitive and of post-ops, on logical
// tensors: row-major arrays of doubles with their dims. A tensor dim of
// size 1 broadcasts against the destination's. Written without any library
// code; shared by the binary, softmax and reduction tests.
#pragma once

#include <cstdint>
#include <vector>

namespace binary_ref {

using dims_t = std::vector<int64_t>;

enum class alg_t {
    add,
    mul,
    max,
    min,
    div,
    sub,
    ge,
    gt,
    le,
    lt,
    eq,
    ne,
    select
};

// a op b (select: c != 0 ? a : b).
double op(alg_t alg, double a, double b, double c = 0);

// Row-major index into a tensor of dims `d` (broadcasting its dims of
// size 1) of the destination position `pos`.
int64_t bcast_index(const dims_t &d, const int64_t *pos);
int64_t volume(const dims_t &d);
// Calls f(pos) for every position of dims (row-major order).
template <typename F>
void for_each(const dims_t &d, F f) {
    const int64_t n = volume(d);
    std::vector<int64_t> pos(d.size(), 0);
    for (int64_t i = 0; i < n; ++i) {
        f(pos.data());
        for (int k = (int)d.size() - 1; k >= 0; --k) {
            if (++pos[k] < d[k]) break;
            pos[k] = 0;
        }
    }
}

// dst = op(scale0 * src0, scale1 * src1[, src2]).
std::vector<double> compute(alg_t alg, const dims_t &dst_dims,
        const std::vector<double> &src0, const dims_t &d0,
        const std::vector<double> &src1, const dims_t &d1,
        const std::vector<double> *src2 = nullptr, const dims_t *d2 = nullptr,
        double scale0 = 1, double scale1 = 1);

} // namespace binary_ref

namespace po_ref {

enum class kind_t { eltwise, sum, binary };
enum class elt_t { relu, linear, tanh, logistic, square, abs, clip, exp };

struct entry_t {
    kind_t kind = kind_t::eltwise;
    elt_t elt = elt_t::relu;
    double alpha = 0, beta = 0, scale = 1; // eltwise (scale), sum (scale)
    int32_t zero_point = 0;                // sum
    binary_ref::alg_t alg = binary_ref::alg_t::add; // binary
    binary_ref::dims_t dims;                        // binary source dims
    std::vector<double> src;                        // binary source values
};

double eltwise(elt_t e, double x, double alpha, double beta);
// Applies the chain to v at destination position pos; `old` is the
// destination's value before the operation (sum).
double apply(const std::vector<entry_t> &chain, const int64_t *pos, double v,
        double old);

} // namespace po_ref
