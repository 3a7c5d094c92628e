// Writing and reading engine blob payloads.
#include "common/cache/engine_blob.hpp"

#include "common/cache/blob_io.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace blob {

std::vector<uint8_t> write_engine_blob(
        const std::string &id, const named_binaries_t &programs) {
    writer_t w(kind_t::engine, id);
    w.u32((uint32_t)programs.size());
    for (const auto &p : programs) {
        w.bytes(p.first);
        w.bytes(p.second);
    }
    return w.finish();
}

status_t read_engine_blob(const uint8_t *p, size_t n, std::string &id,
        std::vector<program_view_t> &programs) {
    reader_t r;
    DNNL_CHECK(open_blob(p, n, kind_t::engine, "engine blob", id, r));
    uint32_t count = 0;
    std::vector<program_view_t> out;
    bool ok = r.u32(count);
    // Each entry takes at least 16 bytes: a larger count is a lie.
    ok = ok && count <= r.left() / 16;
    if (ok) out.reserve(count);
    for (uint32_t i = 0; ok && i < count; ++i) {
        program_view_t v;
        ok = r.bytes(v.id, v.id_size) && r.bytes(v.binary, v.binary_size)
                && v.id_size > 0 && v.binary_size > 0;
        if (ok) out.push_back(v);
    }
    if (!ok || !r.at_end()) {
        verbose_error("cache_blob", "engine blob: malformed program list");
        return dnnl_invalid_arguments;
    }
    programs = std::move(out);
    return dnnl_success;
}

} // namespace blob
} // namespace impl
} // namespace dnnl
