// Small generic helpers: refcounting, field-list hashing, equality and
// serialization (cache blob ids).
#pragma once

#include <atomic>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {

// Intrusive reference count for objects handed out through C handles that
// other objects keep alive (engines).
class refcounted_t {
public:
    void retain() const { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release() const {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }

protected:
    virtual ~refcounted_t() = default;

private:
    mutable std::atomic<int> refs_ {1};
};

// `x` rounded up to a multiple of 64 (the alignment of the parts of a
// scratchpad or workspace: a cache line, and every element size).
inline size_t align64(size_t x) {
    return (x + 63) / 64 * 64;
}

// DNNL_RUNTIME_F32_VAL (a NaN), compared by its bits: a value the user
// gives only at execution.
inline bool is_runtime_f32(float v) {
    const float rt = DNNL_RUNTIME_F32_VAL;
    return std::memcmp(&v, &rt, sizeof v) == 0;
}

inline size_t hash_combine(size_t seed, size_t v) {
    return seed ^ (v + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2));
}

// Visitors that turn one list of fields (a struct's `visit` member, which
// calls the visitor on every field in order) into hashing, equality and a
// printable form. A field that is compared is therefore always hashed.
struct field_hasher_t {
    size_t seed = 0;
    template <typename T>
    void operator()(const char *, const T &v) {
        hash_value(v);
    }
    // An array of which only the first `live` entries are in use (the rest
    // are still compared for equality): hashing the live part is enough.
    template <typename T, size_t N>
    void operator()(const char *, const T (&arr)[N], int live) {
        const size_t n = live < 0 ? 0 : ((size_t)live < N ? (size_t)live : N);
        if constexpr (std::is_integral<T>::value) {
            // Two independent multiply-xor lanes: a shorter dependency
            // chain than one combine per element.
            const uint64_t prime = 0x100000001b3ull;
            uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
            size_t i = 0;
            for (; i + 1 < n; i += 2) {
                a = (a ^ (uint64_t)arr[i]) * prime;
                b = (b ^ (uint64_t)arr[i + 1]) * prime;
            }
            if (i < n) a = (a ^ (uint64_t)arr[i]) * prime;
            seed = hash_combine(seed, (size_t)(a ^ (b >> 7) ^ n));
        } else {
            for (size_t i = 0; i < n; ++i) hash_value(arr[i]);
        }
    }
    template <typename T>
    void hash_value(const T &v) {
        if constexpr (std::is_arithmetic<T>::value || std::is_enum<T>::value)
            seed = hash_combine(seed, std::hash<T>()(v));
        else
            v.visit(*this);
    }
    template <typename T, size_t N>
    void hash_value(const T (&arr)[N]) {
        for (size_t i = 0; i < N; ++i) hash_value(arr[i]);
    }
    template <typename T>
    void hash_value(const std::vector<T> &vec) {
        seed = hash_combine(seed, vec.size());
        for (const auto &e : vec) hash_value(e);
    }
};

struct field_equal_t {
    bool equal = true;
    template <typename T>
    static bool eq(const T &a, const T &b) {
        if constexpr (std::is_floating_point<T>::value) {
            // Bitwise, so that NaN payloads (runtime values) compare equal.
            return std::memcmp(&a, &b, sizeof(T)) == 0;
        } else if constexpr (std::is_arithmetic<T>::value
                || std::is_enum<T>::value) {
            return a == b;
        } else {
            return fields_equal(a, b);
        }
    }
    template <typename T, size_t N>
    static bool eq(const T (&a)[N], const T (&b)[N]) {
        // Plain numbers compare bitwise, as eq() does for one of them.
        if constexpr (std::is_arithmetic<T>::value || std::is_enum<T>::value)
            return std::memcmp(a, b, sizeof(a)) == 0;
        for (size_t i = 0; i < N; ++i)
            if (!eq(a[i], b[i])) return false;
        return true;
    }
    template <typename T>
    static bool eq(const std::vector<T> &a, const std::vector<T> &b) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!eq(a[i], b[i])) return false;
        return true;
    }
    template <typename T>
    static bool fields_equal(const T &a, const T &b);
};

// Compares two structs field by field using their shared `visit` list.
template <typename T>
struct pair_visitor_t {
    const T &b;
    bool equal = true;
    // Visits `a`'s fields; finds the same field in `b` by offset.
    template <typename F>
    void operator()(const char *, const F &fa) {
        if (!equal) return;
        const char *base_a = reinterpret_cast<const char *>(a_ptr);
        const char *pa = reinterpret_cast<const char *>(&fa);
        const F &fb = *reinterpret_cast<const F *>(
                reinterpret_cast<const char *>(&b) + (pa - base_a));
        equal = equal && field_equal_t::eq(fa, fb);
    }
    // Partly used arrays are compared whole.
    template <typename F>
    void operator()(const char *name, const F &fa, int) {
        (*this)(name, fa);
    }
    const T *a_ptr;
};

template <typename T>
bool field_equal_t::fields_equal(const T &a, const T &b) {
    pair_visitor_t<T> v {b, true, &a};
    a.visit(v);
    return v.equal;
}

// Appends the bytes of every field in list order (cache blob ids): plain
// numbers as they lie in memory, vectors and partly used arrays preceded
// by their length, so that two different field sets never give the same
// bytes. Partly used arrays contribute their live part, as in hashing.
struct field_bytes_t {
    std::string &out;
    template <typename T>
    void operator()(const char *, const T &v) {
        put(v);
    }
    template <typename T, size_t N>
    void operator()(const char *, const T (&arr)[N], int live) {
        const size_t n = live < 0 ? 0 : ((size_t)live < N ? (size_t)live : N);
        put((uint64_t)n);
        for (size_t i = 0; i < n; ++i) put(arr[i]);
    }
    template <typename T>
    void put(const T &v) {
        if constexpr (std::is_arithmetic<T>::value || std::is_enum<T>::value)
            out.append(reinterpret_cast<const char *>(&v), sizeof(T));
        else
            v.visit(*this);
    }
    template <typename T, size_t N>
    void put(const T (&arr)[N]) {
        for (size_t i = 0; i < N; ++i) put(arr[i]);
    }
    template <typename T>
    void put(const std::vector<T> &vec) {
        put((uint64_t)vec.size());
        for (const auto &e : vec) put(e);
    }
};

// Finds a memory descriptor field by name in a field list (fields of
// other types, arrays and nested lists are passed over).
struct md_field_finder_t {
    const char *name;
    const dnnl_memory_desc *found = nullptr;
    void operator()(const char *n, const dnnl_memory_desc &md) {
        if (!found && std::strcmp(n, name) == 0) found = &md;
    }
    template <typename T>
    void operator()(const char *, const T &) {}
    template <typename T, size_t N>
    void operator()(const char *, const T (&)[N], int) {}
};

template <typename T>
void append_field_bytes(std::string &out, const T &v) {
    field_bytes_t b {out};
    v.visit(b);
}

template <typename T>
size_t hash_fields(const T &v) {
    field_hasher_t h;
    v.visit(h);
    return h.seed;
}

template <typename T>
bool equal_fields(const T &a, const T &b) {
    return field_equal_t::fields_equal(a, b);
}

// Reads an environment variable; empty string when unset.
std::string getenv_string(const char *name);

} // namespace impl
} // namespace dnnl
