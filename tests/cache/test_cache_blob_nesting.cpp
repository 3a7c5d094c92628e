// Cache blobs of primitives with nested primitives, on fake primitives and
// a fake engine (no device needed): the creation frame records an outer
// primitive's programs and its nested primitive in order, the blob holds
// the nested primitive as a slice of its own, and restoring builds every
// program from the blob (the nested one from its slice, checked against
// its own descriptor), also when the nested primitive is already cached.
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/cache/blob_id.hpp"
#include "common/cache/code_record.hpp"
#include "common/primitive_cache.hpp"

using namespace dnnl::impl;

namespace {

std::atomic<int> g_compiled {0}, g_loaded {0};
// The fake kernel cache: programs by name (tests run on one thread).
std::map<std::string, std::shared_ptr<kernel_cache::value_impl_t>> g_programs;

// An engine whose primitives have blobs.
struct fake_engine_t : public engine_t {
    fake_engine_t() : engine_t(dnnl_gpu, runtime_kind_t::ocl, 7) {}
    status_t create_stream(stream_t **, unsigned) override {
        return dnnl_unimplemented;
    }
    status_t create_memory_storage(std::unique_ptr<memory_storage_t> &, void *,
            size_t) override {
        return dnnl_unimplemented;
    }
    const impl_list_item_t *get_implementation_list(
            const op_desc_t &) const override {
        return nullptr;
    }
    std::string cache_blob_device_id() const override { return "fake device"; }
};

struct fake_program_t : public kernel_cache::value_impl_t {
    explicit fake_program_t(std::string n) : name(std::move(n)) {}
    std::string portable_id() const override { return name; }
    status_t binary(std::string &out) const override {
        out = "BIN:" + name;
        return dnnl_success;
    }
    std::string name;
};

// What a backend's kernel builder does with the creation frame.
status_t get_program(const std::string &name) {
    creation_frame_t *frame = creation_frame_t::current();
    std::shared_ptr<kernel_cache::value_impl_t> v;
    const uint8_t *bin = nullptr;
    size_t n = 0;
    if (frame && frame->restoring())
        DNNL_CHECK(frame->next_program(name, bin, n, v));
    if (!v && g_programs.count(name)) v = g_programs[name];
    if (!v) {
        if (bin) {
            if (std::string((const char *)bin, n) != "BIN:" + name)
                return dnnl_invalid_arguments;
            ++g_loaded;
        } else {
            ++g_compiled;
        }
        v = std::make_shared<fake_program_t>(name);
        g_programs[name] = v;
    }
    if (frame) frame->note_program(v);
    return dnnl_success;
}

reorder_desc_t op_of(dim_t id) {
    reorder_desc_t op;
    dims_t dims = {id};
    md_init_by_tag(op.src_md, 1, dims, dnnl_f32, dnnl_a);
    op.dst_md = op.src_md;
    return op;
}

// Inner: two programs, the first asked for twice.
struct inner_pd_t : public primitive_desc_t {
    explicit inner_pd_t(dim_t id) : primitive_desc_t(op_of(id), primitive_attr_t()) {}
    const char *name() const override { return "fake:inner"; }
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;
};
struct inner_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t init(engine_t *) override {
        DNNL_CHECK(get_program("inner_a"));
        DNNL_CHECK(get_program("inner_b"));
        return get_program("inner_a");
    }
    status_t execute(const exec_ctx_t &) const override { return dnnl_success; }
};
status_t inner_pd_t::make_primitive(std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<inner_t>(shared_self());
    return dnnl_success;
}

// Outer: a program, the nested inner primitive, another program.
struct outer_pd_t : public primitive_desc_t {
    outer_pd_t(dim_t id, std::shared_ptr<primitive_desc_t> in)
        : primitive_desc_t(op_of(id), primitive_attr_t()), inner(std::move(in)) {}
    const char *name() const override { return "fake:outer"; }
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;
    std::shared_ptr<primitive_desc_t> inner;
};
struct outer_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override {
        DNNL_CHECK(get_program("outer"));
        const auto *pd = static_cast<const outer_pd_t *>(this->pd());
        DNNL_CHECK(pd->inner->create_primitive(nested, engine, nullptr, true));
        return get_program("outer_tail");
    }
    status_t execute(const exec_ctx_t &) const override { return dnnl_success; }
    std::shared_ptr<primitive_t> nested;
};
status_t outer_pd_t::make_primitive(std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<outer_t>(shared_self());
    return dnnl_success;
}

template <typename T>
std::shared_ptr<T> own(std::shared_ptr<T> pd) {
    pd->set_self(pd);
    return pd;
}

// Empties both fake caches: the primitive cache and the programs.
void clear_cache() {
    g_programs.clear();
    auto &c = primitive_cache_t::instance();
    const int cap = c.capacity();
    c.set_capacity(0);
    c.set_capacity(cap > 0 ? cap : 1024);
}

class blob_nesting : public ::testing::Test {
protected:
    void SetUp() override {
        engine = new fake_engine_t;
        inner = own(std::make_shared<inner_pd_t>(3));
        outer = own(std::make_shared<outer_pd_t>(1000, inner));
        clear_cache();
    }
    void TearDown() override {
        clear_cache();
        engine->release();
    }
    status_t restore(const std::vector<uint8_t> &blob,
            std::shared_ptr<primitive_t> &p) {
        restore_request_t req(blob.data(), blob.size());
        return outer->create_primitive(p, engine);
    }
    fake_engine_t *engine = nullptr;
    std::shared_ptr<inner_pd_t> inner;
    std::shared_ptr<outer_pd_t> outer;
};

} // namespace

TEST_F(blob_nesting, nested_primitive_travels_in_its_own_slice) {
    std::shared_ptr<primitive_t> p;
    g_compiled = g_loaded = 0;
    ASSERT_EQ(outer->create_primitive(p, engine), dnnl_success);
    EXPECT_EQ(g_compiled.load(), 4); // outer, inner_a, inner_b, outer_tail
    std::vector<uint8_t> blob;
    ASSERT_EQ(blob::write_primitive_blob(*p, engine, blob), dnnl_success);
    EXPECT_EQ(blob::check_primitive_blob(blob.data(), blob.size()), dnnl_success);

    clear_cache();
    g_compiled = g_loaded = 0;
    std::shared_ptr<primitive_t> q;
    ASSERT_EQ(restore(blob, q), dnnl_success);
    EXPECT_EQ(g_compiled.load(), 0);
    EXPECT_EQ(g_loaded.load(), 4); // inner_a once: its repeat is a reference
    std::vector<uint8_t> again;
    ASSERT_EQ(blob::write_primitive_blob(*q, engine, again), dnnl_success);
    EXPECT_EQ(again, blob);
}

TEST_F(blob_nesting, cached_nested_primitive_skips_its_slice) {
    std::shared_ptr<primitive_t> p, in, q;
    ASSERT_EQ(outer->create_primitive(p, engine), dnnl_success);
    std::vector<uint8_t> blob;
    ASSERT_EQ(blob::write_primitive_blob(*p, engine, blob), dnnl_success);
    clear_cache();
    ASSERT_EQ(inner->create_primitive(in, engine), dnnl_success);
    g_compiled = g_loaded = 0;
    ASSERT_EQ(restore(blob, q), dnnl_success);
    EXPECT_EQ(g_compiled.load(), 0);
    EXPECT_EQ(g_loaded.load(), 2); // outer and outer_tail only
}

TEST_F(blob_nesting, stale_nested_slice_is_refused) {
    std::shared_ptr<primitive_t> p, other_inner, q;
    ASSERT_EQ(outer->create_primitive(p, engine), dnnl_success);
    // The same outer blob with the nested slice of another inner operation.
    auto other = own(std::make_shared<inner_pd_t>(5));
    ASSERT_EQ(other->create_primitive(other_inner, engine), dnnl_success);
    std::vector<uint8_t> nested;
    ASSERT_EQ(blob::write_primitive_blob(*other_inner, engine, nested),
            dnnl_success);
    blob::writer_t w(blob::kind_t::primitive,
            blob::primitive_blob_id(*outer, engine));
    w.u32(3);
    w.u8(blob::tag_program);
    w.bytes(std::string("outer"));
    w.bytes(std::string("BIN:outer"));
    w.u8(blob::tag_nested);
    w.bytes(nested.data(), nested.size());
    w.u8(blob::tag_program);
    w.bytes(std::string("outer_tail"));
    w.bytes(std::string("BIN:outer_tail"));
    const std::vector<uint8_t> blob = w.finish();
    ASSERT_EQ(blob::check_primitive_blob(blob.data(), blob.size()), dnnl_success);
    clear_cache();
    EXPECT_EQ(restore(blob, q), dnnl_invalid_arguments);
    // A blob whose programs are in another order is stale too.
    blob::writer_t w2(blob::kind_t::primitive,
            blob::primitive_blob_id(*outer, engine));
    w2.u32(1);
    w2.u8(blob::tag_program);
    w2.bytes(std::string("outer_tail"));
    w2.bytes(std::string("BIN:outer_tail"));
    const std::vector<uint8_t> b2 = w2.finish();
    EXPECT_EQ(restore(b2, q), dnnl_invalid_arguments);
    // No primitive was cached by the refused requests (the programs they
    // loaded may stay, as in the kernel cache: they matched their names).
    g_programs.clear();
    g_compiled = 0;
    ASSERT_EQ(outer->create_primitive(q, engine), dnnl_success);
    EXPECT_EQ(g_compiled.load(), 4);
}
