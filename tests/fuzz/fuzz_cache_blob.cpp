// libFuzzer target over the cache blob readers: the framing checks
// (open_blob), the structural check of primitive blobs (nested blobs
// included) and the engine blob reader. Each input is tried as it is, and
// again with its header made valid (magic, version, length, checksum
// recomputed), so that mutations reach the payload parsers behind the
// checksum. Invariants: no read outside the input (ASan), a blob the
// engine reader accepts is written back byte for byte by the writer, and
// every program view lies inside the input.
//
// The readers are internal (not exported by libdnnl.so.3): their sources
// are compiled into this target below, with verbose output stubbed out.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/cache/blob_io.cpp"
#include "common/cache/engine_blob.cpp"
#include "common/cache/primitive_blob_check.cpp"

namespace dnnl {
namespace impl {
void verbose_error(const char *, const char *, ...) {}
} // namespace impl
} // namespace dnnl

#define FUZZ_CHECK(cond) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "invariant failed: %s (%s:%d)\n", #cond, \
                    __FILE__, __LINE__); \
            std::abort(); \
        } \
    } while (0)

using namespace dnnl::impl;

namespace {

void try_blob(const uint8_t *data, size_t size) {
    // The input in a buffer of its own size: ASan sees any read past it.
    std::vector<uint8_t> buf(data, data + size);
    const uint8_t *p = buf.empty() ? nullptr : buf.data();
    blob::check_primitive_blob(p, buf.size());

    std::string id;
    std::vector<blob::program_view_t> programs;
    if (blob::read_engine_blob(p, buf.size(), id, programs) == dnnl_success) {
        blob::named_binaries_t named;
        for (const auto &v : programs) {
            FUZZ_CHECK(v.id >= p && v.id + v.id_size <= p + buf.size());
            FUZZ_CHECK(v.binary >= p
                    && v.binary + v.binary_size <= p + buf.size());
            named.emplace_back(
                    std::string(reinterpret_cast<const char *>(v.id), v.id_size),
                    std::string(reinterpret_cast<const char *>(v.binary),
                            v.binary_size));
        }
        FUZZ_CHECK(blob::write_engine_blob(id, named) == buf);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    try_blob(data, size);
    if (size < blob::header_size) return 0;
    // The same bytes with a valid header; byte 12's low bit picks the kind.
    std::vector<uint8_t> b(data, data + size);
    std::memcpy(b.data(), "DNNLBLOB", 8);
    const uint32_t version = blob::format_version;
    const uint32_t kind = (data[12] & 1) ? 1 : 2;
    const uint64_t len = size;
    std::memcpy(&b[8], &version, 4);
    std::memcpy(&b[12], &kind, 4);
    std::memcpy(&b[16], &len, 8);
    const uint64_t sum = blob::fnv1a64(b.data() + 32, size - 32);
    std::memcpy(&b[24], &sum, 8);
    try_blob(b.data(), b.size());
    return 0;
}
