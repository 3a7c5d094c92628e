// The byte layout of the memory descriptor struct, asserted field by field
// against the offsets of oneDNN 3.13's own struct (x86-64, LP64): programs
// compiled against oneDNN's internal headers read our descriptors through
// its definition. A descriptor made through the C API is then read back
// through a struct written here with oneDNN's layout.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include "common/memory_desc.hpp"
#include "oneapi/dnnl/dnnl.h"

namespace {

using md_t = dnnl::impl::memory_desc_t;

// The offsets are facts of oneDNN's ABI: a 4-byte slot (its base class's
// bool and padding), then the fields in declaration order.
static_assert(offsetof(md_t, ndims) == 4, "ndims");
static_assert(offsetof(md_t, dims) == 8, "dims");
static_assert(offsetof(md_t, data_type) == 104, "data_type");
static_assert(offsetof(md_t, padded_dims) == 112, "padded_dims");
static_assert(offsetof(md_t, padded_offsets) == 208, "padded_offsets");
static_assert(offsetof(md_t, offset0) == 304, "offset0");
static_assert(offsetof(md_t, format_kind) == 312, "format_kind");
static_assert(offsetof(md_t, format_desc) == 320, "format_desc");
static_assert(offsetof(md_t, format_desc.blocking.strides) == 320, "strides");
static_assert(offsetof(md_t, format_desc.blocking.inner_nblks) == 416,
        "inner_nblks");
static_assert(offsetof(md_t, format_desc.blocking.inner_blks) == 424,
        "inner_blks");
static_assert(offsetof(md_t, format_desc.blocking.inner_idxs) == 520,
        "inner_idxs");
static_assert(offsetof(md_t, format_desc.sparse_desc.encoding) == 320,
        "sparse encoding");
static_assert(offsetof(md_t, format_desc.sparse_desc.nnz) == 328, "nnz");
static_assert(offsetof(md_t, format_desc.sparse_desc.metadata_types) == 336,
        "metadata_types");
static_assert(offsetof(md_t, format_desc.sparse_desc.packed_desc) == 344,
        "packed_desc");
static_assert(offsetof(md_t, extra) == 640, "extra");
static_assert(offsetof(md_t, extra.flags) == 640, "extra.flags");
static_assert(offsetof(md_t, extra.compensation_mask) == 648,
        "compensation_mask");
static_assert(offsetof(md_t, extra.scale_adjust) == 652, "scale_adjust");
static_assert(offsetof(md_t, extra.asymm_compensation_mask) == 656,
        "asymm_compensation_mask");
static_assert(offsetof(md_t, extra.idhw) == 664, "idhw");
static_assert(offsetof(md_t, extra.odhw) == 688, "odhw");
static_assert(offsetof(md_t, extra.pdhw) == 712, "pdhw");
static_assert(offsetof(md_t, extra.ddhw) == 736, "ddhw");
static_assert(offsetof(md_t, extra.dst_size) == 760, "dst_size");
static_assert(sizeof(md_t) == 768, "size");
static_assert(alignof(md_t) == 8, "alignment");

// oneDNN's layout, as a reader compiled against its headers sees it.
struct foreign_md_t {
    bool base_flag;
    int ndims;
    int64_t dims[12];
    int data_type;
    int64_t padded_dims[12];
    int64_t padded_offsets[12];
    int64_t offset0;
    int format_kind;
    struct {
        int64_t strides[12];
        int inner_nblks;
        int64_t inner_blks[12];
        int64_t inner_idxs[12];
    } blocking; // first member of the format union
    char rest_of_union[24];
    uint64_t extra_flags;
};
static_assert(offsetof(foreign_md_t, extra_flags) == 640, "mirror");

TEST(MemoryDescLayout, ReadThroughOneDnnLayout) {
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t dims = {2, 17, 3, 5};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(
                      &md, 4, dims, dnnl_f32, dnnl_nChw16c),
            dnnl_success);
    foreign_md_t f;
    static_assert(sizeof(f) <= sizeof(md_t), "mirror fits");
    std::memcpy(&f, md, sizeof(f));
    EXPECT_TRUE(f.base_flag); // oneDNN keeps its base flag true
    EXPECT_EQ(f.ndims, 4);
    EXPECT_EQ(f.dims[1], 17);
    EXPECT_EQ(f.data_type, dnnl_f32);
    EXPECT_EQ(f.padded_dims[1], 32);
    EXPECT_EQ(f.offset0, 0);
    EXPECT_EQ(f.format_kind, dnnl_blocked);
    EXPECT_EQ(f.blocking.inner_nblks, 1);
    EXPECT_EQ(f.blocking.inner_blks[0], 16);
    EXPECT_EQ(f.blocking.inner_idxs[0], 1);
    EXPECT_EQ(f.blocking.strides[0], 32 * 3 * 5);
    EXPECT_EQ(f.extra_flags, 0u);
    dnnl_memory_desc_destroy(md);
}

// The slot is no field of the descriptor: equality ignores it.
TEST(MemoryDescLayout, SlotIgnoredByEquality) {
    dnnl_memory_desc_t a = nullptr, b = nullptr;
    const dnnl_dims_t dims = {3, 4};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&a, 2, dims, dnnl_f32, dnnl_ab),
            dnnl_success);
    ASSERT_EQ(dnnl_memory_desc_clone(&b, a), dnnl_success);
    reinterpret_cast<foreign_md_t *>(b)->base_flag = false;
    EXPECT_EQ(dnnl_memory_desc_equal(a, b), 1);
    dnnl_memory_desc_destroy(a);
    dnnl_memory_desc_destroy(b);
}

} // namespace
