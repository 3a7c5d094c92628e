// stream_t (behind dnnl_stream_t): an in-order queue of executions on one
// engine.
#pragma once

#include "common/engine.hpp"

struct dnnl_stream {
    using status_t = dnnl::impl::status_t;
    dnnl_stream(dnnl::impl::engine_t *engine, unsigned flags)
        : engine_(engine), flags_(flags) {}
    virtual ~dnnl_stream() = default;

    dnnl::impl::engine_t *engine() const { return engine_.get(); }
    unsigned flags() const { return flags_; }
    // Blocks until everything submitted so far has finished.
    virtual status_t wait() = 0;

private:
    dnnl::impl::engine_ref_t engine_;
    unsigned flags_;
};

namespace dnnl {
namespace impl {
}
} // namespace dnnl
