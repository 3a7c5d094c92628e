// Cache blob framing: writer, bounds-checked reader, header checks.
#include "common/cache/blob_io.hpp"

#include <cstring>

#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace blob {

namespace {
const uint8_t magic[8] = {'D', 'N', 'N', 'L', 'B', 'L', 'O', 'B'};

void put_le(uint8_t *at, uint64_t v, int n) {
    for (int i = 0; i < n; ++i) at[i] = (uint8_t)(v >> (8 * i));
}
uint64_t get_le(const uint8_t *at, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= (uint64_t)at[i] << (8 * i);
    return v;
}
} // namespace

uint64_t fnv1a64(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

writer_t::writer_t(kind_t kind, const std::string &id) {
    bytes_.resize(header_size, 0);
    std::memcpy(bytes_.data(), magic, sizeof(magic));
    put_le(bytes_.data() + 8, format_version, 4);
    put_le(bytes_.data() + 12, (uint32_t)kind, 4);
    bytes(id);
}

void writer_t::u32(uint32_t v) {
    uint8_t b[4];
    put_le(b, v, 4);
    bytes_.insert(bytes_.end(), b, b + 4);
}

void writer_t::u64(uint64_t v) {
    uint8_t b[8];
    put_le(b, v, 8);
    bytes_.insert(bytes_.end(), b, b + 8);
}

void writer_t::bytes(const void *p, size_t n) {
    u64(n);
    const auto *b = static_cast<const uint8_t *>(p);
    bytes_.insert(bytes_.end(), b, b + n);
}

std::vector<uint8_t> writer_t::finish() {
    put_le(bytes_.data() + 16, bytes_.size(), 8);
    put_le(bytes_.data() + 24,
            fnv1a64(bytes_.data() + header_size, bytes_.size() - header_size),
            8);
    return std::move(bytes_);
}

bool reader_t::take(size_t n, const uint8_t *&at) {
    // Compares against the bytes left, so that no pointer past the end is
    // ever formed.
    if (!ok_ || n > (size_t)(end_ - p_)) {
        ok_ = false;
        return false;
    }
    at = p_;
    p_ += n;
    return true;
}

bool reader_t::u8(uint8_t &v) {
    const uint8_t *at;
    if (!take(1, at)) return false;
    v = *at;
    return true;
}

bool reader_t::u32(uint32_t &v) {
    const uint8_t *at;
    if (!take(4, at)) return false;
    v = (uint32_t)get_le(at, 4);
    return true;
}

bool reader_t::u64(uint64_t &v) {
    const uint8_t *at;
    if (!take(8, at)) return false;
    v = get_le(at, 8);
    return true;
}

bool reader_t::bytes(const uint8_t *&p, size_t &n) {
    uint64_t len = 0;
    if (!u64(len)) return false;
    if (len > (uint64_t)left()) {
        ok_ = false;
        return false;
    }
    n = (size_t)len;
    return take(n, p);
}

bool reader_t::bytes(std::string &s) {
    const uint8_t *p;
    size_t n;
    if (!bytes(p, n)) return false;
    s.assign(reinterpret_cast<const char *>(p), n);
    return true;
}

status_t open_blob(const uint8_t *p, size_t n, kind_t kind, const char *what,
        std::string &id, reader_t &payload) {
    auto refuse = [&](const char *why) {
        verbose_error("cache_blob", "%s: %s", what, why);
        return dnnl_invalid_arguments;
    };
    if (!p || n < header_size) return refuse("truncated (shorter than a header)");
    if (std::memcmp(p, magic, sizeof(magic)) != 0)
        return refuse("not a cache blob (bad magic)");
    if (get_le(p + 8, 4) != format_version)
        return refuse("written by another blob format version");
    if (get_le(p + 12, 4) != (uint64_t)kind)
        return refuse(kind == kind_t::primitive ? "not a primitive blob"
                                                : "not an engine blob");
    const uint64_t len = get_le(p + 16, 8);
    if (len > n) return refuse("truncated (shorter than its recorded length)");
    if (len < n) return refuse("longer than its recorded length");
    if (get_le(p + 24, 8) != fnv1a64(p + header_size, n - header_size))
        return refuse("corrupted (checksum mismatch)");
    payload = reader_t(p + header_size, n - header_size);
    if (!payload.bytes(id)) return refuse("malformed id");
    return dnnl_success;
}

} // namespace blob
} // namespace impl
} // namespace dnnl
