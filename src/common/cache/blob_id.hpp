// Cache blob ids: bytes naming everything that makes compiled code
// unusable elsewhere, as length-prefixed parts in a fixed order:
//   1. the library build (version and source revision),
//   2. the engine's device (platform, device, driver and the kernel
//      sources, as the engine reports them: engine_t::cache_blob_device_id),
//   3. for primitives, the operation: its descriptor, attributes, hint
//      memory descriptors (derived from their field lists) and the
//      implementation id.
// An engine blob id is parts 1 and 2. Equal ids mean a blob may be used;
// a blob whose id differs is stale or foreign and is refused.
#pragma once

#include <string>

#include "common/engine.hpp"
#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {
namespace blob {

// Empty when the engine has no cache blobs (CPU).
std::string engine_blob_id(const std::string &device_part);
std::string primitive_blob_id(const primitive_desc_t &pd, engine_t *engine);

// What differs between two ids, for the error line of a refused blob:
// "another library build", "another device or driver", "another
// operation or implementation".
const char *id_difference(const std::string &have, const std::string &want);

} // namespace blob
} // namespace impl
} // namespace dnnl
