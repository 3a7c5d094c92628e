// Library memory objects seen as logical tensors: values are written and read
// as dense row-major float arrays over the logical dims, whatever the data
// type and physical layout (plain, strided or blocked) the library chose.
// Offsets come from the memory descriptor's public queries (strides, inner
// blocks), never from a library reorder, so a broken reorder cannot hide.
#pragma once

#include <cstdint>
#include <vector>

#include "common.hpp"

namespace bd {

struct tensor_t {
    tensor_t() = default;
    tensor_t(const dnnl::memory::desc &md, const dnnl::engine &eng);
    // A tensor that uses the memory object of another (in-place execution).
    static tensor_t alias(const tensor_t &other, const dnnl::memory::desc &md);

    dnnl::memory::desc md;
    dnnl::memory mem;
    dims_t dims;
    dt_t dt = dt_t::undef;

    int64_t nelems() const { return bd::nelems(dims); }
    size_t size_bytes() const { return md.get_size(); }
    bool empty() const { return !mem; }

    // Writes `v` (nelems() values in logical order, already representable
    // in dt) converting to dt; the padding of blocked layouts is zeroed.
    void write(const std::vector<float> &v);
    // Reads the logical values as floats.
    std::vector<float> read() const;
    // Fills the whole buffer with a byte pattern (outputs before execution).
    void memset(int byte);
};

// Deterministic pseudo-random values for data filling, the same on every
// run and for every library.
struct rng_t {
    explicit rng_t(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    // Uniform integer in [lo, hi].
    int64_t integer(int64_t lo, int64_t hi) {
        return lo + (int64_t)(next() % (uint64_t)(hi - lo + 1));
    }
    // Uniform real in [lo, hi).
    double real(double lo, double hi) {
        return lo + (hi - lo) * ((next() >> 11) * (1.0 / 9007199254740992.0));
    }
    uint64_t s;
};

// n integers in [lo, hi] (a fraction 1 - density of them set to zero).
std::vector<float> fill_int(int64_t n, int64_t lo, int64_t hi, uint64_t seed,
        double density = 1.0);
// n reals in [lo, hi), rounded to dt.
std::vector<float> fill_real(int64_t n, double lo, double hi, dt_t dt, uint64_t seed);
// Rounds every value to dt (saturating integer types).
void round_to(std::vector<float> &v, dt_t dt);

} // namespace bd
