// The structural check of a primitive blob (see code_record.hpp for the
// payload): depends on the blob reader and verbose_error only.
#include "common/cache/blob_io.hpp"
#include "common/cache/code_record.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace blob {

status_t check_primitive_blob(const uint8_t *p, size_t n, int depth) {
    std::string id;
    reader_t r;
    DNNL_CHECK(open_blob(p, n, kind_t::primitive, "primitive blob", id, r));
    auto malformed = [](const char *why) {
        verbose_error("cache_blob", "primitive blob: malformed (%s)", why);
        return dnnl_invalid_arguments;
    };
    uint32_t count = 0;
    if (!r.u32(count)) return malformed("no item count");
    for (uint32_t i = 0; i < count; ++i) {
        uint8_t tag = 0;
        if (!r.u8(tag)) return malformed("fewer items than counted");
        const uint8_t *a, *b;
        size_t an, bn;
        uint32_t j;
        switch (tag) {
            case tag_program:
                if (!r.bytes(a, an) || !r.bytes(b, bn) || an == 0 || bn == 0)
                    return malformed("program entry");
                break;
            case tag_repeat:
                if (!r.u32(j) || j >= i) return malformed("program reference");
                break;
            case tag_nested:
                if (depth + 1 >= max_nesting) return malformed("nested too deep");
                if (!r.bytes(a, an)) return malformed("nested entry");
                DNNL_CHECK(check_primitive_blob(a, an, depth + 1));
                break;
            default: return malformed("unknown item");
        }
    }
    if (!r.at_end()) return malformed("bytes after the last item");
    return dnnl_success;
}

} // namespace blob
} // namespace impl
} // namespace dnnl
