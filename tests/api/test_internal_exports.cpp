// The entry points outside the documented API that oneDNN's own test
// programs (benchdnn, the gtests) declare themselves and call, declared
// here the same way, so the test also proves libdnnl.so.3 exports them:
// descriptors from tag strings, retyping a descriptor, zeroing a memory's
// padding, the end of a profiling round, and the Intel GPU queries; and
// the C++-linkage entries the gtests reach through oneDNN's internal
// headers (bf16 conversions, the zero descriptor, CPU platform queries).
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.h"
#include "oneapi/dnnl/dnnl.hpp"

extern "C" {
dnnl_status_t dnnl_memory_desc_create_with_string_tag(dnnl_memory_desc_t *md,
        int ndims, const dnnl_dims_t dims, dnnl_data_type_t data_type,
        const char *tag);
dnnl_status_t dnnl_memory_desc_set_data_type(
        dnnl_memory_desc_t md, dnnl_data_type_t data_type);
dnnl_status_t dnnl_impl_zero_pad(const_dnnl_memory_t memory, dnnl_stream_t stream);
dnnl_status_t dnnl_impl_notify_profiling_complete(dnnl_stream_t stream);
dnnl_status_t dnnl_impl_gpu_fill_random(dnnl_stream_t stream, size_t size,
        dnnl_memory_t memory, int buffer_index, uint32_t seed);
void dnnl_impl_gpu_intel_clear_device_info_cache();
const char *dnnl_impl_gpu_intel_get_isa_name(dnnl_engine_t engine);
bool dnnl_impl_gpu_intel_mayiuse_ngen_kernels(dnnl_engine_t engine);
}

// Declared as oneDNN's internal headers declare them (same namespaces and
// parameter types, so the same symbol names).
namespace dnnl {
namespace impl {
struct bfloat16_t {
    uint16_t raw_bits_;
    bfloat16_t &operator=(float f);
    operator float() const;
};
// The descriptor is an incomplete type outside the library: its bytes
// (ndims is the int at offset 4, as in oneDNN's layout).
extern const unsigned char glob_zero_md[];
namespace cpu {
namespace platform {
bool prefer_ymm_requested();
bool has_data_type_support(dnnl_data_type_t data_type);
bool has_training_support(dnnl_data_type_t data_type);
} // namespace platform
namespace x64 {
unsigned get_max_cpu_isa_mask(bool soft);
dnnl_cpu_isa_hints_t get_cpu_isa_hints(bool soft);
namespace amx {
bool is_available();
}
} // namespace x64
} // namespace cpu
} // namespace impl
} // namespace dnnl

namespace {

using dnnl::memory;

TEST(InternalExports, CxxEntriesOfTheGtests) {
    namespace impl = dnnl::impl;
    impl::bfloat16_t b;
    b = 1.00390625f; // halfway between two bf16 values: rounds to even
    EXPECT_EQ(b.raw_bits_, 0x3f80);
    EXPECT_EQ((float)b, 1.f);
    b = 3.5f;
    EXPECT_EQ((float)b, 3.5f);
    int32_t zero_ndims = -1;
    std::memcpy(&zero_ndims, impl::glob_zero_md + 4, sizeof zero_ndims);
    EXPECT_EQ(zero_ndims, 0);

    EXPECT_TRUE(impl::cpu::platform::has_data_type_support(dnnl_f32));
    EXPECT_TRUE(impl::cpu::platform::has_data_type_support(dnnl_bf16));
    EXPECT_FALSE(impl::cpu::platform::has_data_type_support(dnnl_f64));
    EXPECT_TRUE(impl::cpu::platform::has_training_support(dnnl_f32));
    EXPECT_FALSE(impl::cpu::platform::has_training_support(dnnl_s8));
    EXPECT_EQ(impl::cpu::platform::prefer_ymm_requested(),
            dnnl_get_cpu_isa_hints() == dnnl_cpu_isa_prefer_ymm);
    EXPECT_EQ(impl::cpu::x64::get_cpu_isa_hints(true), dnnl_get_cpu_isa_hints());

    // oneDNN's internal ISA bits: without a limit every bit but the hint.
    const unsigned mask = impl::cpu::x64::get_max_cpu_isa_mask(true);
    EXPECT_EQ(mask & (1u << 31), 0u);
    if (dnnl_get_effective_cpu_isa() >= dnnl_cpu_isa_avx2) {
        const unsigned avx2_bits = (1u << 4) | (1u << 5) | (1u << 9);
        EXPECT_EQ(mask & avx2_bits, avx2_bits);
    }
    if (impl::cpu::x64::amx::is_available())
        EXPECT_GE(dnnl_get_effective_cpu_isa(), dnnl_cpu_isa_avx512_core_amx);
}

// The string tag and the format tag give equal descriptors.
void expect_same(const memory::dims &dims, const char *str, memory::format_tag tag) {
    dnnl_memory_desc_t md = nullptr;
    ASSERT_EQ(dnnl_memory_desc_create_with_string_tag(&md, (int)dims.size(),
                      dims.data(), dnnl_f32, str),
            dnnl_success)
            << str;
    memory::desc want(dims, memory::data_type::f32, tag);
    EXPECT_EQ(dnnl_memory_desc_equal(md, want.get()), 1) << str;
    dnnl_memory_desc_destroy(md);
}

TEST(InternalExports, StringTagsMatchFormatTags) {
    using tag = memory::format_tag;
    expect_same({2, 3, 4, 5}, "abcd", tag::abcd);
    expect_same({2, 3, 4, 5}, "acdb", tag::acdb);
    expect_same({2, 20, 4, 5}, "aBcd16b", tag::aBcd16b);
    expect_same({20, 20, 3, 3}, "ABcd16b16a", tag::ABcd16b16a);
    expect_same({20, 20, 3, 3}, "ABcd8b16a2b", tag::ABcd8b16a2b);
    // oneDNN's looser spellings: a block of one, any case for outer dims.
    expect_same({2, 3, 4, 5}, "ab1bcd", tag::abcd);
    expect_same({2, 20, 4, 5}, "abcd16b", tag::aBcd16b);
}

TEST(InternalExports, StringTagRefusals) {
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t d = {2, 3, 4, 5};
    // Letters that do not match ndims, unknown characters, empty, null.
    EXPECT_EQ(dnnl_memory_desc_create_with_string_tag(&md, 4, d, dnnl_f32, "abc"),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_string_tag(&md, 3, d, dnnl_f32, "abcd"),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_string_tag(&md, 4, d, dnnl_f32, "ab?d"),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_string_tag(&md, 4, d, dnnl_f32, "abcd0b"),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_string_tag(&md, 4, d, dnnl_f32, ""),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_string_tag(&md, 4, d, dnnl_f32, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_memory_desc_create_with_string_tag(nullptr, 4, d, dnnl_f32, "abcd"),
            dnnl_invalid_arguments);
    EXPECT_EQ(md, nullptr);
}

TEST(InternalExports, SetDataType) {
    dnnl_memory_desc_t md = nullptr;
    const dnnl_dims_t d = {4, 6};
    ASSERT_EQ(dnnl_memory_desc_create_with_tag(&md, 2, d, dnnl_f32, dnnl_ab),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(md), 4u * 6 * 4);
    ASSERT_EQ(dnnl_memory_desc_set_data_type(md, dnnl_bf16), dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_get_size(md), 4u * 6 * 2);
    dnnl_data_type_t dt = dnnl_data_type_undef;
    dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
    EXPECT_EQ(dt, dnnl_bf16);
    EXPECT_EQ(dnnl_memory_desc_set_data_type(nullptr, dnnl_f32), dnnl_invalid_arguments);
    dnnl_memory_desc_destroy(md);

    // A 4-bit type cannot sit at an odd stride: refused, descriptor kept.
    const dnnl_dims_t d3 = {3, 3};
    const dnnl_dims_t odd = {3, 1};
    ASSERT_EQ(dnnl_memory_desc_create_with_strides(&md, 2, d3, dnnl_u8, odd),
            dnnl_success);
    EXPECT_EQ(dnnl_memory_desc_set_data_type(md, dnnl_u4), dnnl_invalid_arguments);
    dnnl_memory_desc_query(md, dnnl_query_data_type, &dt);
    EXPECT_EQ(dt, dnnl_u8);
    dnnl_memory_desc_destroy(md);
}

// The padding of a blocked memory filled with garbage, zeroed; the data
// itself untouched.
TEST(InternalExports, ZeroPad) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    const memory::dims dims = {2, 5, 3, 3}; // C = 5 padded to 16
    memory::desc md(dims, memory::data_type::f32, memory::format_tag::aBcd16b);
    memory m(md, eng);
    float *p = (float *)m.get_data_handle();
    const size_t n = md.get_size() / sizeof(float);
    for (size_t i = 0; i < n; ++i) p[i] = 7.f;
    ASSERT_EQ(dnnl_impl_zero_pad(m.get(), s.get()), dnnl_success);
    // aBcd16b: offset = ((n * 1 + cb) * H * W + h * W + w) * 16 + c % 16
    for (int i = 0; i < 2; ++i)
        for (int h = 0; h < 3; ++h)
            for (int w = 0; w < 3; ++w)
                for (int c = 0; c < 16; ++c) {
                    const size_t off = ((size_t)(i * 3 + h) * 3 + w) * 16 + c;
                    EXPECT_EQ(p[off], c < 5 ? 7.f : 0.f) << i << h << w << c;
                }
    // A plain memory has no padding; nulls are refused.
    memory plain({dims, memory::data_type::f32, memory::format_tag::abcd}, eng);
    EXPECT_EQ(dnnl_impl_zero_pad(plain.get(), s.get()), dnnl_success);
    EXPECT_EQ(dnnl_impl_zero_pad(nullptr, s.get()), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_impl_zero_pad(m.get(), nullptr), dnnl_invalid_arguments);
}

TEST(InternalExports, ProfilingAndIntelGpuQueries) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    // Profiling is a gpu feature, as oneDNN says.
    EXPECT_EQ(dnnl_impl_notify_profiling_complete(s.get()), dnnl_unimplemented);
    EXPECT_EQ(dnnl_impl_notify_profiling_complete(nullptr), dnnl_invalid_arguments);
    memory m({{16}, memory::data_type::u8, memory::format_tag::a}, eng);
    EXPECT_EQ(dnnl_impl_gpu_fill_random(s.get(), 16, m.get(), 0, 1),
            dnnl_invalid_arguments);
    dnnl_impl_gpu_intel_clear_device_info_cache();
    EXPECT_FALSE(dnnl_impl_gpu_intel_mayiuse_ngen_kernels(eng.get()));
    EXPECT_NE(dnnl_impl_gpu_intel_get_isa_name(eng.get()), nullptr);
}

#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
TEST(InternalExports, GpuFillRandomAndZeroPad) {
    if (dnnl::engine::get_count(dnnl::engine::kind::gpu) == 0) GTEST_SKIP();
    dnnl::engine eng(dnnl::engine::kind::gpu, 0);
    dnnl::stream s(eng);
    memory::desc md({1, 3, 2, 2}, memory::data_type::f32, memory::format_tag::aBcd16b);
    memory m(md, eng);
    const size_t bytes = md.get_size();
    ASSERT_EQ(dnnl_impl_gpu_fill_random(s.get(), bytes, m.get(), 0, 42), dnnl_success);
    std::vector<uint8_t> img(bytes);
    {
        void *p = m.map_data();
        std::memcpy(img.data(), p, bytes);
        m.unmap_data(p);
    }
    int distinct = 0;
    for (size_t i = 1; i < bytes; ++i) distinct += img[i] != img[i - 1];
    EXPECT_GT(distinct, (int)bytes / 2);
    ASSERT_EQ(dnnl_impl_zero_pad(m.get(), s.get()), dnnl_success);
    const float *f = (const float *)m.map_data();
    for (int hw = 0; hw < 4; ++hw)
        for (int c = 3; c < 16; ++c)
            EXPECT_EQ(f[hw * 16 + c], 0.f) << hw << " " << c;
    m.unmap_data((void *)f);
    EXPECT_EQ(dnnl_impl_notify_profiling_complete(s.get()), dnnl_success);
}
#endif

} // namespace
