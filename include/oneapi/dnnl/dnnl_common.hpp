// C++ wrappers shared by every part of the API: errors, owning handles,
// engines, streams, fpmath/accumulation modes, version and verbosity.
// Header-only; usable from C++11.
#ifndef ONEAPI_DNNL_DNNL_COMMON_HPP
#define ONEAPI_DNNL_DNNL_COMMON_HPP

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl_common.h"

// Exceptions are used unless the compiler has them switched off.
#ifndef DNNL_ENABLE_EXCEPTIONS
#if defined(__EXCEPTIONS) || defined(__cpp_exceptions)
#define DNNL_ENABLE_EXCEPTIONS 1
#else
#define DNNL_ENABLE_EXCEPTIONS 0
#endif
#endif

#if defined(__GNUC__) || defined(__clang__)
#define DNNL_TRAP() __builtin_trap()
#elif defined(__INTEL_COMPILER) || defined(_MSC_VER)
#define DNNL_TRAP() __debugbreak()
#else
#error "unknown compiler"
#endif

#if DNNL_ENABLE_EXCEPTIONS
#define DNNL_THROW_ERROR(status, msg) throw error(status, msg)
#else
#include <cstdio>
#define DNNL_THROW_ERROR(status, msg) \
    do { \
        std::fputs(msg, stderr); \
        DNNL_TRAP(); \
    } while (0)
#endif

namespace dnnl {

// Exception carrying the C status of a failed call.
struct error : public std::exception {
    dnnl_status_t status;
    const char *message;

    error(dnnl_status_t astatus, const char *amessage)
        : status(astatus), message(amessage) {}
    const char *what() const noexcept override { return message; }

    // Throws when a C call did not succeed.
    static void wrap_c_api(dnnl_status_t astatus, const char *amessage) {
        if (astatus != dnnl_success) DNNL_THROW_ERROR(astatus, amessage);
    }
};

// Per-type destroy function of a C handle (specialised below and in dnnl.hpp).
template <typename T>
struct handle_traits {};

// Reference-counted owner of a C handle; a weak handle never destroys it.
template <typename T, typename traits = handle_traits<T>>
struct handle {
private:
    using object_t = typename std::remove_pointer<T>::type;
    static dnnl_status_t no_destroy(T) { return dnnl_success; }
    std::shared_ptr<object_t> data_ {nullptr};

protected:
    bool operator==(const T other) const { return other == data_.get(); }
    bool operator!=(const T other) const { return !(*this == other); }

public:
    handle() = default;
    handle(const handle<T, traits> &) = default;
    handle(handle<T, traits> &&) = default;
    handle<T, traits> &operator=(const handle<T, traits> &) = default;
    handle<T, traits> &operator=(handle<T, traits> &&) = default;

    explicit handle(T t, bool weak = false) { reset(t, weak); }

    // A null t leaves the handle empty (nothing to destroy).
    void reset(T t, bool weak = false) {
        if (t == nullptr)
            data_.reset();
        else if (weak)
            data_.reset(t, &no_destroy);
        else
            data_.reset(t, &traits::destructor);
    }

    T get(bool allow_empty = false) const {
        T raw = data_.get();
        if (!allow_empty && raw == nullptr)
            DNNL_THROW_ERROR(
                    dnnl_invalid_arguments, "object is not initialized");
        return raw;
    }

    explicit operator T() const { return get(true); }
    explicit operator bool() const { return get(true) != nullptr; }

    bool operator==(const handle<T, traits> &other) const {
        return data_.get() == other.data_.get();
    }
    bool operator!=(const handle &other) const { return !(*this == other); }
};

template <>
struct handle_traits<dnnl_engine_t> {
    static dnnl_status_t destructor(dnnl_engine_t p) {
        return dnnl_engine_destroy(p);
    }
};

// A computational device (CPU or GPU).
struct engine : public handle<dnnl_engine_t> {
    friend struct primitive;
    friend struct reorder;

    enum class kind {
        any = dnnl_any_engine,
        cpu = dnnl_cpu,
        gpu = dnnl_gpu,
    };

    using handle::handle;

    engine() = default;

    static size_t get_count(kind akind) {
        return dnnl_engine_get_count(convert_to_c(akind));
    }

    engine(kind akind, size_t index) {
        dnnl_engine_t e = nullptr;
        error::wrap_c_api(dnnl_engine_create(&e, convert_to_c(akind), index),
                "could not create an engine");
        reset(e);
    }

    kind get_kind() const {
        dnnl_engine_kind_t k;
        error::wrap_c_api(dnnl_engine_get_kind(get(), &k),
                "could not get the kind of an engine");
        return static_cast<kind>(k);
    }

private:
    static dnnl_engine_kind_t convert_to_c(kind akind) {
        return static_cast<dnnl_engine_kind_t>(akind);
    }
};

inline dnnl_engine_kind_t convert_to_c(engine::kind akind) {
    return static_cast<dnnl_engine_kind_t>(akind);
}

template <>
struct handle_traits<dnnl_stream_t> {
    static dnnl_status_t destructor(dnnl_stream_t p) {
        return dnnl_stream_destroy(p);
    }
};

// An execution queue bound to an engine.
struct stream : public handle<dnnl_stream_t> {
    using handle::handle;

    enum class flags : unsigned {
        in_order = dnnl_stream_in_order,
        out_of_order = dnnl_stream_out_of_order,
        default_flags = dnnl_stream_default_flags,
#ifdef DNNL_EXPERIMENTAL_PROFILING
        profiling = dnnl_stream_profiling,
#endif
    };

    stream() = default;

    explicit stream(
            const engine &aengine, flags aflags = flags::default_flags) {
        dnnl_stream_t s = nullptr;
        error::wrap_c_api(dnnl_stream_create(&s, aengine.get(),
                                  static_cast<dnnl_stream_flags_t>(aflags)),
                "could not create a stream");
        reset(s);
    }

    engine get_engine() const {
        dnnl_engine_t e = nullptr;
        error::wrap_c_api(dnnl_stream_get_engine(get(), &e),
                "could not get the engine of a stream");
        return engine(e, true);
    }

    stream &wait() {
        error::wrap_c_api(dnnl_stream_wait(get()), "could not wait on a stream");
        return *this;
    }
};

// Bitwise operators for an enum class used as a set of flags.
#define DNNL_DEFINE_BITMASK_OPS(enum_name) \
    inline enum_name operator|(enum_name lhs, enum_name rhs) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(lhs) | static_cast<unsigned>(rhs)); \
    } \
    inline enum_name operator&(enum_name lhs, enum_name rhs) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(lhs) & static_cast<unsigned>(rhs)); \
    } \
    inline enum_name operator^(enum_name lhs, enum_name rhs) { \
        return static_cast<enum_name>( \
                static_cast<unsigned>(lhs) ^ static_cast<unsigned>(rhs)); \
    } \
    inline enum_name &operator|=(enum_name &lhs, enum_name rhs) { \
        return lhs = lhs | rhs; \
    } \
    inline enum_name &operator&=(enum_name &lhs, enum_name rhs) { \
        return lhs = lhs & rhs; \
    } \
    inline enum_name &operator^=(enum_name &lhs, enum_name rhs) { \
        return lhs = lhs ^ rhs; \
    } \
    inline enum_name operator~(enum_name rhs) { \
        return static_cast<enum_name>(~static_cast<unsigned>(rhs)); \
    }

DNNL_DEFINE_BITMASK_OPS(stream::flags)

// How far primitives may lower floating-point precision.
enum class fpmath_mode {
    strict = dnnl_fpmath_mode_strict,
    bf16 = dnnl_fpmath_mode_bf16,
    f16 = dnnl_fpmath_mode_f16,
    tf32 = dnnl_fpmath_mode_tf32,
    any = dnnl_fpmath_mode_any,
};

inline dnnl_fpmath_mode_t convert_to_c(fpmath_mode mode) {
    return static_cast<dnnl_fpmath_mode_t>(mode);
}

// Data type primitives may accumulate in.
enum class accumulation_mode {
    strict = dnnl_accumulation_mode_strict,
    relaxed = dnnl_accumulation_mode_relaxed,
    any = dnnl_accumulation_mode_any,
    s32 = dnnl_accumulation_mode_s32,
    f32 = dnnl_accumulation_mode_f32,
    f16 = dnnl_accumulation_mode_f16,
};

inline dnnl_accumulation_mode_t convert_to_c(accumulation_mode mode) {
    return static_cast<dnnl_accumulation_mode_t>(mode);
}

// Status codes returned by the service functions.
enum class status {
    success = dnnl_success,
    out_of_memory = dnnl_out_of_memory,
    invalid_arguments = dnnl_invalid_arguments,
    unimplemented = dnnl_unimplemented,
    last_impl_reached = dnnl_last_impl_reached,
    runtime_error = dnnl_runtime_error,
    not_required = dnnl_not_required,
};

// Library version information.
using version_t = dnnl_version_t;

inline const version_t *version() {
    return dnnl_version();
}

// Verbose mode and global defaults.
inline status set_verbose(int level) {
    return static_cast<status>(dnnl_set_verbose(level));
}

inline bool verbose_profiling_enabled() {
    int on = 0;
    dnnl_verbose_profiling_enabled(&on);
    return on != 0;
}

inline fpmath_mode get_default_fpmath_mode() {
    dnnl_fpmath_mode_t mode;
    error::wrap_c_api(dnnl_get_default_fpmath_mode(&mode),
            "could not get the default fpmath mode");
    return static_cast<fpmath_mode>(mode);
}

inline status set_default_fpmath_mode(fpmath_mode mode) {
    return static_cast<status>(
            dnnl_set_default_fpmath_mode(convert_to_c(mode)));
}

} // namespace dnnl

#endif
