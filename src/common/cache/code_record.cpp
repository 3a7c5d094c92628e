// Recording compiled code during primitive creation, restoring it from a
// primitive blob, and writing primitive blobs (their structural check is
// in primitive_blob_check.cpp).
#include "common/cache/code_record.hpp"

#include "common/cache/blob_id.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

using namespace blob;

namespace {
thread_local creation_frame_t *tl_frame = nullptr;
thread_local const uint8_t *tl_request = nullptr;
thread_local size_t tl_request_size = 0;
} // namespace

creation_frame_t::creation_frame_t(const blob::reader_t *restore)
    : parent_(tl_frame), record_(std::make_shared<code_record_t>()) {
    if (restore) {
        restoring_ = true;
        payload_ = *restore;
        payload_.u32(count_); // checked by check_primitive_blob
    }
    tl_frame = this;
}

creation_frame_t::~creation_frame_t() {
    tl_frame = parent_;
}

creation_frame_t *creation_frame_t::current() {
    return tl_frame;
}

status_t creation_frame_t::stale(const char *why) const {
    verbose_error("cache_blob",
            "primitive blob: stale (%s); the blob was made by other code", why);
    return dnnl_invalid_arguments;
}

status_t creation_frame_t::next_program(const std::string &portable_id,
        const uint8_t *&bin, size_t &n,
        std::shared_ptr<kernel_cache::value_impl_t> &earlier) {
    uint8_t tag = 0;
    if (used_ >= count_ || !payload_.u8(tag))
        return stale("the primitive asks for more programs than it holds");
    ++used_;
    bin = nullptr;
    n = 0;
    earlier.reset();
    if (tag == tag_program) {
        const uint8_t *idp;
        size_t idn;
        if (!payload_.bytes(idp, idn) || !payload_.bytes(bin, n))
            return stale("malformed program entry");
        if (std::string(reinterpret_cast<const char *>(idp), idn) != portable_id)
            return stale("another program at this position");
        return dnnl_success;
    }
    if (tag == tag_repeat) {
        uint32_t j = 0;
        if (!payload_.u32(j) || j >= record_->items.size()
                || !record_->items[j].program)
            return stale("malformed program reference");
        earlier = record_->items[j].program;
        if (earlier->portable_id() != portable_id)
            return stale("another program at this position");
        return dnnl_success;
    }
    return stale("a nested primitive where a program was expected");
}

status_t creation_frame_t::next_nested(const uint8_t *&p, size_t &n) {
    uint8_t tag = 0;
    if (used_ >= count_ || !payload_.u8(tag))
        return stale("the primitive has more nested primitives than it holds");
    ++used_;
    if (tag != tag_nested || !payload_.bytes(p, n))
        return stale("a program where a nested primitive was expected");
    return dnnl_success;
}

status_t creation_frame_t::finish_restore() const {
    if (!restoring_) return dnnl_success;
    if (used_ != count_ || !payload_.at_end())
        return stale("the blob holds code the primitive did not ask for");
    return dnnl_success;
}

void creation_frame_t::note_program(
        std::shared_ptr<kernel_cache::value_impl_t> program) {
    record_->items.push_back({std::move(program), nullptr});
}

void creation_frame_t::note_nested(std::shared_ptr<primitive_t> nested) {
    record_->items.push_back({nullptr, std::move(nested)});
}

std::shared_ptr<const code_record_t> creation_frame_t::take_record() {
    return std::move(record_);
}

restore_request_t::restore_request_t(const uint8_t *p, size_t n) {
    tl_request = p;
    tl_request_size = n;
}

restore_request_t::~restore_request_t() {
    tl_request = nullptr;
    tl_request_size = 0;
}

bool restore_request_t::take(const uint8_t *&p, size_t &n) {
    if (!tl_request) return false;
    p = tl_request;
    n = tl_request_size;
    tl_request = nullptr;
    tl_request_size = 0;
    return true;
}

namespace blob {

status_t write_primitive_blob(
        const primitive_t &p, engine_t *engine, std::vector<uint8_t> &out) {
    const std::string id = primitive_blob_id(*p.pd(), engine);
    if (id.empty()) return dnnl_unimplemented;
    writer_t w(kind_t::primitive, id);
    static const code_record_t none;
    const code_record_t &rec = p.code_record() ? *p.code_record() : none;
    w.u32((uint32_t)rec.items.size());
    for (size_t i = 0; i < rec.items.size(); ++i) {
        const auto &item = rec.items[i];
        if (item.nested) {
            std::vector<uint8_t> sub;
            DNNL_CHECK(write_primitive_blob(*item.nested, engine, sub));
            w.u8(tag_nested);
            w.bytes(sub.data(), sub.size());
            continue;
        }
        size_t j = 0;
        while (j < i && rec.items[j].program != item.program) ++j;
        if (j < i) {
            w.u8(tag_repeat);
            w.u32((uint32_t)j);
            continue;
        }
        const std::string pid = item.program->portable_id();
        std::string bin;
        if (pid.empty()
                || item.program->binary(bin) != dnnl_success || bin.empty()) {
            verbose_error("cache_blob", "a program of %s cannot give its binary",
                    p.pd()->name());
            return dnnl_unimplemented;
        }
        w.u8(tag_program);
        w.bytes(pid);
        w.bytes(bin);
    }
    out = w.finish();
    return dnnl_success;
}

} // namespace blob
} // namespace impl
} // namespace dnnl
