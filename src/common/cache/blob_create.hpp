// Creating a primitive on a primitive-cache miss: compiled normally with its
// code recorded, or restored from a primitive blob (the user's, or the disk
// cache's entry), after the blob's structure and id have been checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/engine.hpp"
#include "common/primitive.hpp"

namespace dnnl {
namespace impl {

// `blob` (may be null): restore from these bytes; a damaged, foreign or
// stale blob is dnnl_invalid_arguments with a verbose line. `top_level`:
// a user's request, not a nested one; only those use the disk cache
// (nested primitives travel inside their outer primitive's entry).
status_t create_recorded_primitive(std::shared_ptr<primitive_t> &primitive,
        const primitive_desc_t &pd, engine_t *engine, const uint8_t *blob,
        size_t blob_size, bool top_level);

} // namespace impl
} // namespace dnnl
