// Primitive creation on a cache miss: from source with the code recorded,
// from a checked blob, or through the disk cache.
#include "common/cache/blob_create.hpp"

#include <vector>

#include "common/cache/blob_id.hpp"
#include "common/cache/code_record.hpp"
#include "common/cache/disk_cache.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {
status_t create_from(std::shared_ptr<primitive_t> &primitive,
        const primitive_desc_t &pd, engine_t *engine, const uint8_t *blob,
        size_t blob_size, const std::string &want_id) {
    blob::reader_t payload;
    if (blob) {
        // The whole structure first: nothing is built from a blob that is
        // not entirely well formed.
        DNNL_CHECK(blob::check_primitive_blob(blob, blob_size));
        std::string id;
        DNNL_CHECK(blob::open_blob(blob, blob_size, blob::kind_t::primitive,
                "primitive blob", id, payload));
        if (id != want_id) {
            verbose_error("cache_blob", "primitive blob: made for %s",
                    blob::id_difference(id, want_id));
            return dnnl_invalid_arguments;
        }
    }
    creation_frame_t frame(blob ? &payload : nullptr);
    std::shared_ptr<primitive_t> p;
    DNNL_CHECK(pd.make_primitive(p));
    DNNL_CHECK(p->init(engine));
    DNNL_CHECK(frame.finish_restore());
    p->set_code_record(frame.take_record());
    primitive = std::move(p);
    return dnnl_success;
}
} // namespace

status_t create_recorded_primitive(std::shared_ptr<primitive_t> &primitive,
        const primitive_desc_t &pd, engine_t *engine, const uint8_t *blob,
        size_t blob_size, bool top_level) {
    const bool use_disk = !blob && top_level && disk_cache::enabled();
    std::string want_id;
    if (blob || use_disk) want_id = blob::primitive_blob_id(pd, engine);
    if (blob && want_id.empty()) return dnnl_unimplemented;
    if (!use_disk || want_id.empty())
        return create_from(primitive, pd, engine, blob, blob_size, want_id);

    std::vector<uint8_t> bytes;
    if (disk_cache::load(want_id, bytes)) {
        if (create_from(primitive, pd, engine, bytes.data(), bytes.size(),
                    want_id)
                == dnnl_success)
            return dnnl_success;
        // Damaged or stale: dropped, and rebuilt below.
        verbose_warning("disk cache: entry unusable, removed and rebuilt");
        disk_cache::remove(want_id);
    }
    DNNL_CHECK(create_from(primitive, pd, engine, nullptr, 0, want_id));
    std::vector<uint8_t> out;
    if (blob::write_primitive_blob(*primitive, engine, out) == dnnl_success)
        disk_cache::store(want_id, out);
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
