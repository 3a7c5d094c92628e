// What the fuzz targets share: reading descriptors, primitive parameters
// and attributes out of the fuzzer's bytes (over FuzzedDataProvider), and
// the invariant checks that stop a run when the library breaks a promise.
//
// Enum values are always drawn inside the enum's declared range (values
// beyond it cannot be formed in C++ without undefined behaviour in the
// harness itself; tests/api/c_enum_calls.c covers those from C).
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "oneapi/dnnl/dnnl.h"
#include "reference/md_reach.hpp"

namespace fuzz {

// A broken invariant: say which and abort (libFuzzer keeps the input).
#define FUZZ_CHECK(cond) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "invariant failed: %s (%s:%d)\n", #cond, \
                    __FILE__, __LINE__); \
            std::abort(); \
        } \
    } while (0)

// Marker preset in output handles: a refused call must leave it there.
template <typename T>
T marker() {
    return reinterpret_cast<T>(uintptr_t(0x10));
}

// Checks the status/handle pair of a creator and hands back the handle
// (nullptr when refused).
template <typename T>
T checked_out(dnnl_status_t st, T out) {
    if (st == dnnl_success) {
        FUZZ_CHECK(out != nullptr && out != marker<T>());
        return out;
    }
    FUZZ_CHECK(out == marker<T>() || out == nullptr);
    return nullptr;
}

// A user buffer of exactly n bytes that ends where an inaccessible page
// begins. AddressSanitizer sees only compiled code; generated (JIT) code is
// not instrumented, so an access past the end from there would go unseen
// in an ordinary heap block. Here it faults at once. The start keeps the
// alignment of `align` bytes (the element size), as a user's array would.
class guarded_buffer_t {
public:
    explicit guarded_buffer_t(size_t n, size_t align = 1) {
        const size_t page = (size_t)sysconf(_SC_PAGESIZE);
        const size_t padded = (n + align - 1) / align * align;
        const size_t body = (padded + page - 1) / page * page;
        map_len_ = body + page;
        void *m = mmap(nullptr, map_len_, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        FUZZ_CHECK(m != MAP_FAILED);
        map_ = static_cast<uint8_t *>(m);
        FUZZ_CHECK(mprotect(map_ + body, page, PROT_NONE) == 0);
        data_ = map_ + body - padded;
        size_ = n;
    }
    guarded_buffer_t(const guarded_buffer_t &) = delete;
    guarded_buffer_t &operator=(const guarded_buffer_t &) = delete;
    guarded_buffer_t(guarded_buffer_t &&o) noexcept
        : map_(o.map_), map_len_(o.map_len_), data_(o.data_), size_(o.size_) {
        o.map_ = nullptr;
    }
    ~guarded_buffer_t() {
        if (map_) munmap(map_, map_len_);
    }
    uint8_t *data() const { return data_; }
    size_t size() const { return size_; }

private:
    uint8_t *map_ = nullptr;
    size_t map_len_ = 0;
    uint8_t *data_ = nullptr;
    size_t size_ = 0;
};

struct md_t {
    dnnl_memory_desc_t p = nullptr;
    md_t() = default;
    md_t(const md_t &) = delete;
    md_t &operator=(const md_t &) = delete;
    md_t(md_t &&o) noexcept : p(o.p) { o.p = nullptr; }
    ~md_t() { dnnl_memory_desc_destroy(p); }
    void reset(dnnl_memory_desc_t n) {
        dnnl_memory_desc_destroy(p);
        p = n;
    }
};

// Every invariant a descriptor the library hands out must keep: its size
// covers every element, its blob reads back into an equal descriptor of
// the same size, and it equals itself.
inline void check_md(const_dnnl_memory_desc_t md) {
    FUZZ_CHECK(md_reach::md_reach_ok(md));
    FUZZ_CHECK(dnnl_memory_desc_equal(md, md) == 1);
    size_t n = 0;
    FUZZ_CHECK(dnnl_memory_desc_get_blob(nullptr, &n, md) == dnnl_success);
    std::vector<uint8_t> blob(n);
    FUZZ_CHECK(dnnl_memory_desc_get_blob(blob.data(), &n, md) == dnnl_success);
    dnnl_memory_desc_t back = marker<dnnl_memory_desc_t>();
    back = checked_out(dnnl_memory_desc_create_with_blob(&back, blob.data()),
            back);
    FUZZ_CHECK(back != nullptr);
    FUZZ_CHECK(dnnl_memory_desc_equal(md, back) == 1);
    FUZZ_CHECK(dnnl_memory_desc_get_size(md) == dnnl_memory_desc_get_size(back));
    dnnl_memory_desc_destroy(back);
}

inline dnnl_dim_t read_dim(FuzzedDataProvider &in, bool small = false) {
    switch (in.ConsumeIntegralInRange(0, small ? 15 : 19)) {
        case 16: return DNNL_RUNTIME_DIM_VAL;
        case 17: return -in.ConsumeIntegralInRange<dnnl_dim_t>(1, 3);
        case 18: return in.ConsumeIntegral<dnnl_dim_t>();
        case 19: return (dnnl_dim_t)1 << in.ConsumeIntegralInRange(20, 62);
        default: return in.ConsumeIntegralInRange<dnnl_dim_t>(0, 9);
    }
}

inline dnnl_data_type_t read_dt(FuzzedDataProvider &in) {
    static const dnnl_data_type_t common[] = {dnnl_f32, dnnl_f32, dnnl_bf16,
            dnnl_f16, dnnl_s32, dnnl_s8, dnnl_u8, dnnl_s4, dnnl_u4,
            dnnl_f8_e5m2, dnnl_f8_e4m3, dnnl_f64, dnnl_e8m0, dnnl_f4_e2m1,
            dnnl_s64, dnnl_data_type_undef, dnnl_boolean};
    const int i = in.ConsumeIntegralInRange<int>(0, 17);
    if (i < 17) return common[i];
    return (dnnl_data_type_t)in.ConsumeIntegralInRange<int>(0, 32767);
}

// Plain tags most of the time (they fit most primitives), any tag else.
inline dnnl_format_tag_t read_tag(FuzzedDataProvider &in, int ndims) {
    static const dnnl_format_tag_t plain[] = {dnnl_a, dnnl_ab, dnnl_abc,
            dnnl_abcd, dnnl_abcde, dnnl_abcdef};
    static const dnnl_format_tag_t other[] = {dnnl_ba, dnnl_acb, dnnl_acdb,
            dnnl_acdeb, dnnl_aBc8b, dnnl_aBcd8b, dnnl_aBcd16b, dnnl_ABcd8b8a,
            dnnl_AB16b16a, dnnl_format_tag_any, dnnl_cba, dnnl_bac};
    const int k = in.ConsumeIntegralInRange(0, 3);
    if (k <= 1 && ndims >= 1 && ndims <= 6) return plain[ndims - 1];
    if (k == 2)
        return other[in.ConsumeIntegralInRange<size_t>(
                0, sizeof(other) / sizeof(other[0]) - 1)];
    return (dnnl_format_tag_t)in.ConsumeIntegralInRange<int>(
            0, (int)dnnl_format_tag_last);
}

// A descriptor from the input: by tag, by strides or from raw blob bytes.
// Returns the status; *out is the handle or stays the marker.
inline dnnl_status_t read_md(FuzzedDataProvider &in, dnnl_memory_desc_t *out,
        int ndims = -1, const dnnl_dim_t *fixed_dims = nullptr) {
    *out = marker<dnnl_memory_desc_t>();
    const int mode = in.ConsumeIntegralInRange(0, 9);
    if (ndims < 0) ndims = in.ConsumeIntegralInRange(0, 6);
    if (in.ConsumeIntegralInRange(0, 31) == 0)
        ndims = in.ConsumeIntegralInRange(-2, 14);
    dnnl_dims_t dims = {};
    const int nd = ndims < 0 ? 0 : (ndims > DNNL_MAX_NDIMS ? DNNL_MAX_NDIMS : ndims);
    for (int d = 0; d < nd; ++d)
        dims[d] = fixed_dims ? fixed_dims[d] : read_dim(in);
    const dnnl_data_type_t dt = read_dt(in);
    if (mode <= 5)
        return dnnl_memory_desc_create_with_tag(
                out, ndims, dims, dt, read_tag(in, ndims));
    if (mode <= 8) {
        dnnl_dims_t strides = {};
        // Dense row-major, then perturbed here and there.
        dnnl_dim_t s = 1;
        for (int d = nd - 1; d >= 0; --d) {
            strides[d] = s;
            if (dims[d] > 0 && dims[d] < (1 << 20)) s *= dims[d];
        }
        for (int d = 0; d < nd; ++d)
            if (in.ConsumeIntegralInRange(0, 3) == 0) strides[d] = read_dim(in);
        const bool null_strides = in.ConsumeIntegralInRange(0, 7) == 0;
        return dnnl_memory_desc_create_with_strides(
                out, ndims, dims, dt, null_strides ? nullptr : strides);
    }
    // Raw bytes: a template descriptor's blob with some bytes replaced.
    md_t tmpl;
    const dnnl_dims_t d2 = {4, 4};
    dnnl_memory_desc_create_with_tag(&tmpl.p, 2, d2, dnnl_f32, dnnl_ab);
    size_t n = 0;
    dnnl_memory_desc_get_blob(nullptr, &n, tmpl.p);
    std::vector<uint8_t> blob(n);
    dnnl_memory_desc_get_blob(blob.data(), &n, tmpl.p);
    const int edits = in.ConsumeIntegralInRange(1, 8);
    for (int e = 0; e < edits; ++e) {
        const size_t at = in.ConsumeIntegralInRange<size_t>(0, n - 1) & ~size_t(7);
        const int64_t v = in.ConsumeBool() ? in.ConsumeIntegral<int64_t>()
                                           : read_dim(in);
        std::memcpy(blob.data() + at, &v, std::min<size_t>(8, n - at));
    }
    return dnnl_memory_desc_create_with_blob(out, blob.data());
}

} // namespace fuzz
