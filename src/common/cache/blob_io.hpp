// Cache blob framing shared by primitive and engine blobs: a writer, a
// reader that checks every read against both ends of the blob, and the
// header every blob starts with (magic, format version, kind, total
// length, checksum of what follows). A blob is untrusted input: nothing in
// it is used before open_blob() has checked its framing and checksum and
// the reader has checked each length against the bytes left.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace blob {

enum class kind_t : uint32_t { primitive = 1, engine = 2 };

// Bumped whenever the layout of anything below or of the payloads changes.
constexpr uint32_t format_version = 1;
// magic (8) + version (4) + kind (4) + length (8) + checksum (8)
constexpr size_t header_size = 32;

uint64_t fnv1a64(const uint8_t *p, size_t n);

// Appends little-endian numbers and length-prefixed byte strings.
class writer_t {
public:
    // Starts a blob: the header (length and checksum filled by finish())
    // and the id.
    writer_t(kind_t kind, const std::string &id);
    void u8(uint8_t v) { bytes_.push_back(v); }
    void u32(uint32_t v);
    void u64(uint64_t v);
    void bytes(const void *p, size_t n); // u64 length, then the bytes
    void bytes(const std::string &s) { bytes(s.data(), s.size()); }
    // Completes the header; the writer is done after it.
    std::vector<uint8_t> finish();

private:
    std::vector<uint8_t> bytes_;
};

// Reads what writer_t wrote. Every read checks that it starts and ends
// inside the blob; a failed read leaves the reader failed (ok() false) and
// every later read fails too.
class reader_t {
public:
    reader_t() = default;
    reader_t(const uint8_t *p, size_t n) : p_(p), end_(p + n) {}
    bool u8(uint8_t &v);
    bool u32(uint32_t &v);
    bool u64(uint64_t &v);
    // A length-prefixed string: a view into the blob.
    bool bytes(const uint8_t *&p, size_t &n);
    bool bytes(std::string &s);
    bool ok() const { return ok_; }
    bool at_end() const { return ok_ && p_ == end_; }
    size_t left() const { return ok_ ? (size_t)(end_ - p_) : 0; }

private:
    bool take(size_t n, const uint8_t *&at);
    const uint8_t *p_ = nullptr, *end_ = nullptr;
    bool ok_ = true;
};

// Checks the framing of the `n` bytes at `p` as a blob of `kind`: magic,
// format version, kind, the recorded length equal to n, the checksum; then
// reads the id into `id` and leaves `payload` on what follows it.
// dnnl_invalid_arguments with a verbose error line naming `what` and the
// reason when any check fails.
status_t open_blob(const uint8_t *p, size_t n, kind_t kind, const char *what,
        std::string &id, reader_t &payload);

} // namespace blob
} // namespace impl
} // namespace dnnl
