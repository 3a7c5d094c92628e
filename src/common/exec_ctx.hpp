// exec_ctx_t: what one execution sees: the stream, the argument memories,
// the scratchpad and the per-handle resources.
#pragma once

#include <vector>

#include "common/memory.hpp"
#include "common/primitive.hpp"
#include "common/stream.hpp"

namespace dnnl {
namespace impl {

struct exec_arg_t {
    int arg;
    memory_t *mem;
};

struct exec_ctx_t {
    exec_ctx_t(stream_t *stream, std::vector<exec_arg_t> args)
        : stream_(stream), args_(std::move(args)) {}

    stream_t *stream() const { return stream_; }
    memory_t *memory(int arg) const {
        for (const auto &a : args_)
            if (a.arg == arg) return a.mem;
        return nullptr;
    }
    // Host pointer of an argument's data (CPU engines), of its buffer
    // `index` for sparse memory; null when absent.
    void *host_ptr(int arg, int index = 0) const {
        memory_t *m = memory(arg);
        return m ? m->host_ptr(index) : nullptr;
    }
    template <typename T>
    const T *input(int arg) const {
        return static_cast<const T *>(host_ptr(arg));
    }
    template <typename T>
    T *output(int arg) const {
        return static_cast<T *>(host_ptr(arg));
    }
    void *scratchpad() const { return scratchpad_; }
    void set_scratchpad(void *p) { scratchpad_ = p; }
    const resource_mapper_t *resources() const { return resources_; }
    void set_resources(const resource_mapper_t *r) { resources_ = r; }
    const std::vector<exec_arg_t> &args() const { return args_; }

private:
    stream_t *stream_;
    std::vector<exec_arg_t> args_;
    void *scratchpad_ = nullptr;
    const resource_mapper_t *resources_ = nullptr;
};

} // namespace impl
} // namespace dnnl
