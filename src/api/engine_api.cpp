// C API: engines and streams. The API layer is the one place that knows
// which backends exist.
#include <new>

#include "api/c_enum.hpp"
#include "common/engine.hpp"
#include "common/stream.hpp"
#include "common/verbose.hpp"
#include "cpu/cpu_engine.hpp"

using namespace dnnl::impl;

namespace dnnl {
namespace impl {

#if DNNL_GPU_OCL_ENGINE
namespace gpu {
size_t ocl_engine_count();
status_t ocl_engine_create(engine_t **engine, size_t index);
} // namespace gpu
#endif

size_t engine_count(engine_kind_t kind) {
    if (kind == dnnl_cpu) return 1;
#if DNNL_GPU_OCL_ENGINE
    if (kind == dnnl_gpu) return gpu::ocl_engine_count();
#endif
    return 0;
}

status_t engine_create(engine_t **engine, engine_kind_t kind, size_t index) {
    if (index >= engine_count(kind)) {
        verbose_error("engine", "no %s engine with index %zu",
                kind == dnnl_cpu ? "cpu" : "gpu", index);
        return dnnl_invalid_arguments;
    }
    if (kind == dnnl_cpu) {
        *engine = new (std::nothrow) cpu::cpu_engine_t();
        return *engine ? dnnl_success : dnnl_out_of_memory;
    }
#if DNNL_GPU_OCL_ENGINE
    if (kind == dnnl_gpu) return gpu::ocl_engine_create(engine, index);
#endif
    return dnnl_invalid_arguments;
}

} // namespace impl
} // namespace dnnl

size_t dnnl_engine_get_count(dnnl_engine_kind_t kind_arg) {
    const dnnl_engine_kind_t kind = checked(kind_arg, dnnl_any_engine);
    if (kind == dnnl_any_engine) return 0;
    return engine_count(kind);
}

dnnl_status_t dnnl_engine_create(
        dnnl_engine_t *engine, dnnl_engine_kind_t kind_arg, size_t index) {
    const dnnl_engine_kind_t kind = checked(kind_arg, dnnl_any_engine);
    if (!engine || kind == dnnl_any_engine) return dnnl_invalid_arguments;
    return engine_create(engine, kind, index);
}

dnnl_status_t dnnl_engine_get_kind(dnnl_engine_t engine, dnnl_engine_kind_t *kind) {
    if (!engine || !kind) return dnnl_invalid_arguments;
    *kind = engine->kind();
    return dnnl_success;
}

dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine) {
    if (engine) engine->release();
    return dnnl_success;
}

dnnl_status_t dnnl_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, unsigned flags) {
    if (!stream || !engine) return dnnl_invalid_arguments;
    const unsigned known = dnnl_stream_in_order | dnnl_stream_out_of_order
            | dnnl_stream_profiling;
    if (flags & ~known) return dnnl_invalid_arguments;
    if (flags & dnnl_stream_out_of_order) return dnnl_unimplemented;
    if ((flags & dnnl_stream_profiling) && engine->kind() != dnnl_gpu) {
        verbose_error("stream", "the cpu engine does not support profiling");
        return dnnl_unimplemented;
    }
    return engine->create_stream(stream, flags);
}

dnnl_status_t dnnl_stream_get_engine(const_dnnl_stream_t stream, dnnl_engine_t *engine) {
    if (!stream || !engine) return dnnl_invalid_arguments;
    *engine = stream->engine();
    return dnnl_success;
}

dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream) {
    if (!stream) return dnnl_invalid_arguments;
    return stream->wait();
}

dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream) {
    delete stream;
    return dnnl_success;
}
