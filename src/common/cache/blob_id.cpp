// Cache blob ids from the build, the engine's device and the primitive
// descriptor's field lists.
#include "common/cache/blob_id.hpp"

#include <cstdint>

#include "common/cache/blob_io.hpp"
#include "oneapi/dnnl/dnnl_version.h"
#include "oneapi/dnnl/dnnl_version_hash.h"

namespace dnnl {
namespace impl {
namespace blob {

namespace {
void add_part(std::string &id, const std::string &part) {
    const uint64_t n = part.size();
    id.append(reinterpret_cast<const char *>(&n), sizeof(n));
    id += part;
}

const std::string &build_part() {
    static const std::string part = std::to_string(DNNL_VERSION_MAJOR) + "."
            + std::to_string(DNNL_VERSION_MINOR) + "."
            + std::to_string(DNNL_VERSION_PATCH) + ":" + DNNL_VERSION_HASH;
    return part;
}

// Splits `id` into its parts; false when it is not a sequence of parts.
bool split(const std::string &id, std::vector<std::string> &parts) {
    reader_t r(reinterpret_cast<const uint8_t *>(id.data()), id.size());
    while (r.ok() && !r.at_end()) {
        std::string p;
        if (!r.bytes(p)) return false;
        parts.push_back(std::move(p));
    }
    return r.ok();
}
} // namespace

std::string engine_blob_id(const std::string &device_part) {
    if (device_part.empty()) return {};
    std::string id;
    add_part(id, build_part());
    add_part(id, device_part);
    return id;
}

std::string primitive_blob_id(const primitive_desc_t &pd, engine_t *engine) {
    std::string id = engine_blob_id(engine->cache_blob_device_id());
    if (id.empty()) return id;
    std::string op;
    pd.op_desc()->append_bytes(op);
    append_field_bytes(op, *pd.attr());
    field_bytes_t b {op};
    b.put(pd.hint_mds());
    b.put((int64_t)pd.impl_id());
    add_part(id, op);
    return id;
}

const char *id_difference(const std::string &have, const std::string &want) {
    std::vector<std::string> h, w;
    if (!split(have, h) || !split(want, w) || h.size() != w.size())
        return "an id of another kind";
    static const char *what[] = {"another library build",
            "another device or driver", "another operation or implementation"};
    for (size_t i = 0; i < h.size() && i < 3; ++i)
        if (h[i] != w[i]) return what[i];
    return "the same id";
}

} // namespace blob
} // namespace impl
} // namespace dnnl
