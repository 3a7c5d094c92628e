// Building and running OpenCL kernels. A kernel comes from an embedded
// source (src/gpu/ocl/<family>/*.cl) specialised by compile-time defines;
// its program is built through the global kernel cache, keyed by source
// name, build options, device and context, so primitives that differ only
// in what travels as kernel arguments (shapes, strides) share one program.
// A primitive keeps its ocl_kernel_t objects: a primitive-cache hit never
// reaches the OpenCL compiler.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "common/c_types.hpp"
#include "common/exec_ctx.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

class ocl_engine_t;

// Build options: -D defines, written in a fixed textual form so that equal
// configurations give equal cache keys.
class kernel_options_t {
public:
    void define(const char *name);
    void define(const char *name, int64_t value);
    void define(const char *name, const std::string &value);
    // A float as an exact hexadecimal literal (1.5f -> 0x1.8p+0f).
    void define_float(const char *name, float value);
    void add_option(const std::string &option); // e.g. -cl-mad-enable
    const std::string &str() const { return text_; }

private:
    std::string text_;
};

// Arguments of one launch, set in order.
class kernel_args_t {
public:
    kernel_args_t &mem(cl_mem m);
    kernel_args_t &i32(int32_t v) { return raw(&v, sizeof(v)); }
    kernel_args_t &i64(int64_t v) { return raw(&v, sizeof(v)); }
    kernel_args_t &f32(float v) { return raw(&v, sizeof(v)); }
    // A __local buffer of `bytes`.
    kernel_args_t &local(size_t bytes);
    // A struct passed by value (its device twin must match byte for byte).
    template <typename T>
    kernel_args_t &value(const T &v) {
        return raw(&v, sizeof(T));
    }

    struct arg_t {
        size_t size;
        bool is_local;
        size_t offset; // into bytes_
    };
    const std::vector<arg_t> &args() const { return args_; }
    const void *data(const arg_t &a) const {
        return a.is_local ? nullptr : bytes_.data() + a.offset;
    }

private:
    kernel_args_t &raw(const void *p, size_t size);
    std::vector<arg_t> args_;
    std::vector<unsigned char> bytes_;
};

// Global and (optional) local work sizes in 1 to 3 dimensions. A global
// size is rounded up to a multiple of the local one; kernels check bounds.
struct nd_range_t {
    nd_range_t() = default;
    nd_range_t(std::initializer_list<size_t> global,
            std::initializer_list<size_t> local = {});
    int ndims = 1;
    size_t global[3] = {1, 1, 1};
    size_t local[3] = {0, 0, 0}; // 0: the runtime chooses
    bool empty() const;
};

// A kernel of a built program. Copies share the cl_kernel; launches are
// serialised per kernel (argument setting and enqueue are one step), so one
// primitive may execute from many threads at once.
class ocl_kernel_t {
public:
    ocl_kernel_t() = default;
    bool valid() const { return state_ != nullptr; }
    const std::string &name() const;

    // Enqueues on the execution's stream (the queue of an OpenCL stream).
    status_t enqueue(const exec_ctx_t &ctx, const nd_range_t &range,
            const kernel_args_t &args) const;
    status_t enqueue(cl_command_queue queue, const nd_range_t &range,
            const kernel_args_t &args) const;
    // Largest work-group size this kernel allows on its device.
    size_t max_wg_size() const;

    struct state_t;
    explicit ocl_kernel_t(std::shared_ptr<state_t> s) : state_(std::move(s)) {}

private:
    std::shared_ptr<state_t> state_;
};

// Builds (or takes from the kernel cache) the program of embedded source
// `source` ("eltwise/eltwise.cl") with `options` for the engine's device
// and context, and creates `names` from it, in order. A build failure is
// dnnl_runtime_error with the build log in the verbose error line.
status_t create_kernels(engine_t *engine, const char *source,
        const kernel_options_t &options, const std::vector<const char *> &names,
        std::vector<ocl_kernel_t> &kernels);
// One kernel.
status_t create_kernel(engine_t *engine, const char *source,
        const kernel_options_t &options, const char *name,
        ocl_kernel_t &kernel);

// Counters of program builds from source done by this process (not cache
// hits), for tests that check that the kernel cache served a request, and
// of programs loaded from cache blob binaries.
int64_t program_builds();
int64_t program_loads();

// Cache blobs of engines. Puts the program named `portable_id` (source and
// options, as a primitive blob names it), built from `binary`, into the
// kernel cache for the engine's device and context (nothing happens when
// the cache already holds it).
status_t restore_program(engine_t *engine, const std::string &portable_id,
        const uint8_t *binary, size_t size);
// Every program the kernel cache holds for the engine's device, as
// (portable id, binary), each once.
status_t saved_programs(engine_t *engine,
        std::vector<std::pair<std::string, std::string>> &programs);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
