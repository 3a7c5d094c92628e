// Engine blob payload (after the framing of cache/blob_io.hpp and the
// engine blob id): u32 program count, then per program its portable id
// and its binary, both length-prefixed. Backend-neutral: the backend
// collects the programs and rebuilds them from the binaries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {
namespace blob {

using named_binaries_t = std::vector<std::pair<std::string, std::string>>;

std::vector<uint8_t> write_engine_blob(
        const std::string &id, const named_binaries_t &programs);

// A program of an engine blob: views into the blob.
struct program_view_t {
    const uint8_t *id, *binary;
    size_t id_size, binary_size;
};

// Checks the whole blob (framing, checksum, every entry) and returns its
// id and programs; dnnl_invalid_arguments with a verbose line otherwise.
status_t read_engine_blob(const uint8_t *p, size_t n, std::string &id,
        std::vector<program_view_t> &programs);

} // namespace blob
} // namespace impl
} // namespace dnnl
