// The automatic on-disk cache of cache blobs (our extension; oneDNN has
// none): with ONEDNN_DISK_CACHE_DIR (or DNNL_DISK_CACHE_DIR) naming a
// directory, primitive blobs (and engine blobs) are stored there by blob id
// and reused by later processes, so an unchanged program's second run
// compiles nothing. The directory is created if missing; one that cannot
// be written disables the cache with one verbose warning.
//
// * Files are named by a 128-bit hash of the blob id; the blob inside
//   carries the full id, which the reader compares, so a name collision or
//   a stale file is detected, removed and rebuilt.
// * Writes go to a temporary file of the same directory, then rename():
//   readers and other processes see a whole entry or none, also when the
//   writer is killed (its temporary file is swept later).
// * Size limit: ONEDNN_DISK_CACHE_CAPACITY_MB (or DNNL_...; default 512,
//   0 keeps no entry). After a write, the least recently used files
//   (modification time, touched by every read) are evicted until the
//   directory fits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dnnl {
namespace impl {
namespace disk_cache {

bool enabled();
// The entry for `id`; false when there is none.
bool load(const std::string &id, std::vector<uint8_t> &bytes);
// Best effort: a failed write leaves the cache as it was.
void store(const std::string &id, const std::vector<uint8_t> &bytes);
void remove(const std::string &id);

} // namespace disk_cache
} // namespace impl
} // namespace dnnl
