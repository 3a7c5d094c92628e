// What makes a primitive's compiled code portable: the record of the code
// its init() obtained (compiled programs from the kernel cache, nested
// primitives), in the order it asked for it, and the creation frame that
// either records that code or, when the primitive is created from a cache
// blob, hands the blob's programs back in the same order so that nothing
// is compiled. Backend-neutral: a program is a kernel_cache value that can
// name itself (portable_id) and give its bytes (binary); the backend's
// kernel builder consults creation_frame_t::current().
//
// Primitive blob payload (after the framing of cache/blob_io.hpp and the
// id): u32 item count, then per item a tag and its data
//   1 program: bytes portable id, bytes binary
//   2 a program already listed: u32 its item index
//   3 nested primitive: bytes of its own whole primitive blob
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/cache/blob_io.hpp"
#include "common/kernel_cache.hpp"
#include "common/primitive.hpp"

namespace dnnl {
namespace impl {

struct code_record_t {
    struct item_t {
        std::shared_ptr<kernel_cache::value_impl_t> program; // or
        std::shared_ptr<primitive_t> nested;
    };
    std::vector<item_t> items;
};

// One primitive creation on this thread; frames stack up while nested
// primitives are created inside an outer init().
class creation_frame_t {
public:
    // `restore`: the checked payload of this primitive's blob, or null.
    explicit creation_frame_t(const blob::reader_t *restore);
    ~creation_frame_t();
    creation_frame_t(const creation_frame_t &) = delete;
    creation_frame_t &operator=(const creation_frame_t &) = delete;

    // The innermost creation running on this thread, or null.
    static creation_frame_t *current();
    bool restoring() const { return restoring_; }

    // Restoring: the next item must be the program `portable_id`. Gives
    // either its binary (bin, n) or, for a program listed before, that
    // program (`earlier`). A mismatch is dnnl_invalid_arguments (stale
    // blob) with a verbose line.
    status_t next_program(const std::string &portable_id, const uint8_t *&bin,
            size_t &n, std::shared_ptr<kernel_cache::value_impl_t> &earlier);
    // Restoring: the next item must be a nested primitive; its blob.
    status_t next_nested(const uint8_t *&p, size_t &n);
    // Restoring: after init(), every item must have been used.
    status_t finish_restore() const;

    void note_program(std::shared_ptr<kernel_cache::value_impl_t> program);
    void note_nested(std::shared_ptr<primitive_t> nested);
    std::shared_ptr<const code_record_t> take_record();

private:
    status_t stale(const char *why) const;
    creation_frame_t *parent_;
    bool restoring_ = false;
    blob::reader_t payload_;
    uint32_t count_ = 0, used_ = 0;
    std::shared_ptr<code_record_t> record_;
};

// Asks the next primitive creation on this thread to restore from a blob
// (the C API's dnnl_primitive_create_from_cache_blob); the creation takes
// the request, so it applies once.
class restore_request_t {
public:
    restore_request_t(const uint8_t *p, size_t n);
    ~restore_request_t();
    // The pending request of this thread, cleared; false when none.
    static bool take(const uint8_t *&p, size_t &n);
};

namespace blob {

enum item_tag_t : uint8_t { tag_program = 1, tag_repeat = 2, tag_nested = 3 };
// Nested primitives inside nested primitives: real ones go two deep.
constexpr int max_nesting = 8;

// The primitive blob of `p` created for `engine`: its id, then its record
// (nested primitives as blobs of their own). dnnl_unimplemented when a
// program cannot give its bytes.
status_t write_primitive_blob(
        const primitive_t &p, engine_t *engine, std::vector<uint8_t> &out);

// Checks a whole primitive blob's structure (framing, every item, nested
// blobs down to a bounded depth) without using anything in it; the
// creation path runs it before the first program is built. In
// primitive_blob_check.cpp, which needs nothing but the reader (the fuzz
// target tests/fuzz/fuzz_cache_blob.cpp compiles it in).
status_t check_primitive_blob(const uint8_t *p, size_t n, int depth = 0);

} // namespace blob
} // namespace impl
} // namespace dnnl
