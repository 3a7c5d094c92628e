// stream_t (behind dnnl_stream_t): an in-order queue of executions on one
// engine, and the profiling hooks every top-level execution passes.
#pragma once

#include <atomic>
#include <cstdint>

#include "common/engine.hpp"

struct dnnl_stream {
    using status_t = dnnl::impl::status_t;
    dnnl_stream(dnnl::impl::engine_t *engine, unsigned flags)
        : engine_(engine), flags_(flags), unique_id_(next_unique_id()) {}
    virtual ~dnnl_stream() = default;

    dnnl::impl::engine_t *engine() const { return engine_.get(); }
    unsigned flags() const { return flags_; }
    // A number no other stream of the process has had (addresses are
    // reused; what a primitive keeps per stream must not be).
    uint64_t unique_id() const { return unique_id_; }
    // Blocks until everything submitted so far has finished.
    virtual status_t wait() = 0;

    // Profiling (dnnl_stream_profiling): each primitive execution made
    // through the API is bracketed by exec_begin / exec_end and becomes
    // one entry. exec_begin returns a token that exec_end takes back (an
    // execution that failed leaves no entry). Streams that cannot profile
    // keep the defaults: no entries, and the queries refuse.
    virtual void *exec_begin() { return nullptr; }
    virtual void exec_end(void *token, bool ok) {}
    virtual status_t reset_profiling() { return dnnl_invalid_arguments; }
    // The number of entries since the last reset into *num; with `data`,
    // also their times in nanoseconds (at most *num of them, *num set to
    // how many were written).
    virtual status_t query_profiling(int *num, uint64_t *data) {
        return dnnl_invalid_arguments;
    }

private:
    static uint64_t next_unique_id() {
        static std::atomic<uint64_t> next {1};
        return next.fetch_add(1, std::memory_order_relaxed);
    }
    dnnl::impl::engine_ref_t engine_;
    unsigned flags_;
    uint64_t unique_id_;
};

namespace dnnl {
namespace impl {

// Brackets one execution on `stream` for its profiling.
class stream_exec_scope_t {
public:
    explicit stream_exec_scope_t(stream_t *stream)
        : stream_(stream), token_(stream->exec_begin()) {}
    ~stream_exec_scope_t() { stream_->exec_end(token_, ok_); }
    // The status of the execution, passed through.
    status_t done(status_t st) {
        ok_ = st == dnnl_success;
        return st;
    }
    stream_exec_scope_t(const stream_exec_scope_t &) = delete;
    stream_exec_scope_t &operator=(const stream_exec_scope_t &) = delete;

private:
    stream_t *stream_;
    void *token_;
    bool ok_ = false;
};

} // namespace impl
} // namespace dnnl
