// C API of stream profiling: dnnl_reset_profiling and
// dnnl_query_profiling_data. Streams keep the entries themselves (one per
// primitive execution, see stream.hpp); the CPU engine has none, as in
// oneDNN, where profiling is a GPU feature.
#include "oneapi/dnnl/dnnl.h"

#include "common/stream.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

status_t check_profiling_stream(const dnnl_stream *stream) {
    if (!stream) return dnnl_invalid_arguments;
    if (stream->engine()->kind() != dnnl_gpu) {
        verbose_error("stream", "the cpu engine does not support profiling");
        return dnnl_unimplemented;
    }
    if (!(stream->flags() & dnnl_stream_profiling)) {
        verbose_error("stream", "profiling is not enabled on this stream");
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

} // namespace

dnnl_status_t dnnl_reset_profiling(dnnl_stream_t stream) {
    DNNL_CHECK(check_profiling_stream(stream));
    return stream->reset_profiling();
}

dnnl_status_t dnnl_query_profiling_data(dnnl_stream_t stream,
        dnnl_profiling_data_kind_t data_kind, int *num_entries,
        uint64_t *data) {
    DNNL_CHECK(check_profiling_stream(stream));
    if (!num_entries) return dnnl_invalid_arguments;
    // The count may be asked with any kind; the data only as times.
    if (data && data_kind != dnnl_profiling_data_kind_time) {
        verbose_error("stream", "profiling data kind %d is not supported",
                (int)data_kind);
        return dnnl_invalid_arguments;
    }
    return stream->query_profiling(num_entries, data);
}
