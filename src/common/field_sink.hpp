// A field list (`visit`) seen without templates: field_sink_t receives every
// field of an operation descriptor by name, as a number, an enumerator of a
// known kind, a memory descriptor, an array of dims or a list of memory
// descriptors. Verbose printing reads descriptors through it, so the line
// comes from the same list that hashing and equality use.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {

struct field_scalar_t {
    // What the number means: enumerators print by their names.
    enum kind_t {
        integer,
        real,
        alg_kind,
        prop_kind,
        data_type,
        rnn_direction
    };
    kind_t kind = integer;
    int64_t i = 0; // integers and enumerators
    double f = 0;  // reals
};

struct field_sink_t {
    virtual ~field_sink_t() = default;
    virtual void scalar(const char *name, const field_scalar_t &v) = 0;
    virtual void md(const char *name, const memory_desc_t &md) = 0;
    // The live entries of an array of dims (strides, kernel, padding, ...).
    virtual void dims(const char *name, const dim_t *v, int n) = 0;
    virtual void mds(const char *name, const std::vector<memory_desc_t> &v) = 0;
};

// The visitor that forwards a `visit` list to a sink. Fields of other
// types (vectors of scales, nested lists) are passed over.
struct field_sink_visitor_t {
    field_sink_t &sink;

    template <typename T>
    void operator()(const char *name, const T &v) {
        using S = field_scalar_t;
        if constexpr (std::is_same<T, memory_desc_t>::value) {
            sink.md(name, v);
        } else if constexpr (std::is_same<T,
                                     std::vector<memory_desc_t>>::value) {
            sink.mds(name, v);
        } else if constexpr (std::is_same<T, alg_kind_t>::value) {
            sink.scalar(name, S{S::alg_kind, (int64_t)v, 0});
        } else if constexpr (std::is_same<T, prop_kind_t>::value) {
            sink.scalar(name, S{S::prop_kind, (int64_t)v, 0});
        } else if constexpr (std::is_same<T, data_type_t>::value) {
            sink.scalar(name, S{S::data_type, (int64_t)v, 0});
        } else if constexpr (std::is_same<T, dnnl_rnn_direction_t>::value) {
            sink.scalar(name, S{S::rnn_direction, (int64_t)v, 0});
        } else if constexpr (std::is_floating_point<T>::value) {
            sink.scalar(name, S{S::real, 0, (double)v});
        } else if constexpr (std::is_integral<T>::value
                             || std::is_enum<T>::value) {
            sink.scalar(name, S{S::integer, (int64_t)v, 0});
        }
    }
    template <typename T, size_t N>
    void operator()(const char *name, const T (&arr)[N], int live) {
        if constexpr (std::is_same<T, dim_t>::value)
            sink.dims(
                    name, arr, live < 0 ? 0 : (live > (int)N ? (int)N : live));
    }
    template <typename T, size_t N>
    void operator()(const char *name, const T (&arr)[N]) {
        (*this)(name, arr, (int)N);
    }
};

} // namespace impl
} // namespace dnnl
