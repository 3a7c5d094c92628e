// Cache blobs on the gpu engine: a primitive created from its blob gives
// bit-identical results and compiles nothing, for a spread of primitive
// kinds; every kind of damaged, foreign or stale blob is refused with
// dnnl_invalid_arguments; an engine made from an engine blob starts with a
// warm kernel cache; the CPU engine answers dnnl_unimplemented.
#include "oneapi/dnnl/dnnl_config.h"
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL

#include <CL/cl.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"
#include "oneapi/dnnl/dnnl_ext.hpp"
#include "oneapi/dnnl/dnnl_ocl.hpp"

using namespace dnnl;
using bytes_t = std::vector<uint8_t>;

namespace {

struct counts_t {
    int64_t compiled = 0, loaded = 0;
};
counts_t counts() {
    counts_t c;
    EXPECT_EQ(dnnl_ext_ocl_get_program_counts(&c.compiled, &c.loaded),
            dnnl_success);
    return c;
}

// Empties both caches (so that a creation must build or load its code).
void drop_caches() {
    const int p = get_primitive_cache_capacity();
    const int k = get_kernel_cache_capacity();
    set_primitive_cache_capacity(0);
    set_kernel_cache_capacity(0);
    set_primitive_cache_capacity(p);
    set_kernel_cache_capacity(k);
}

// The blob framing, as the library writes it: bytes 16..23 the length,
// 24..31 the FNV-1a checksum of what follows the 32-byte header, then the
// length-prefixed id.
uint64_t fnv1a64(const uint8_t *p, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
uint64_t u64_at(const bytes_t &b, size_t at) {
    uint64_t v = 0;
    std::memcpy(&v, &b[at], 8);
    return v;
}
void fix_checksum(bytes_t &b) {
    const uint64_t len = b.size();
    std::memcpy(&b[16], &len, 8);
    const uint64_t h = fnv1a64(b.data() + 32, b.size() - 32);
    std::memcpy(&b[24], &h, 8);
}

// Fills every input of `pd` with a fixed pattern, runs `p` and returns the
// bytes of its destination.
bytes_t run(const primitive &p, const primitive_desc_base &pd,
        const engine &eng) {
    stream s(eng);
    std::unordered_map<int, memory> args;
    const int inputs[] = {DNNL_ARG_SRC, DNNL_ARG_SRC_1, DNNL_ARG_WEIGHTS,
            DNNL_ARG_BIAS, DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS,
            DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_BIAS};
    for (int arg : inputs) {
        memory::desc md = pd.query_md(query::exec_arg_md, arg);
        if (md.get_size() == 0) continue;
        memory m(md, eng);
        auto *h = static_cast<uint8_t *>(m.map_data());
        for (size_t i = 0; i < md.get_size(); ++i)
            h[i] = (uint8_t)(((i * 37 + arg * 11) % 61) + 1); // small values
        m.unmap_data(h);
        args.emplace(arg, m);
    }
    memory::desc dmd = pd.query_md(query::exec_arg_md, DNNL_ARG_DST);
    memory dst(dmd, eng);
    args.emplace(DNNL_ARG_DST, dst);
    memory::desc smd = pd.query_md(query::exec_arg_md, DNNL_ARG_SCRATCHPAD);
    if (smd.get_size() != 0)
        args.emplace(DNNL_ARG_SCRATCHPAD, memory(smd, eng));
    p.execute(s, args);
    s.wait();
    auto *h = static_cast<uint8_t *>(dst.map_data());
    bytes_t out(h, h + dmd.get_size());
    dst.unmap_data(h);
    return out;
}

class ocl_cache_blob : public ::testing::Test {
protected:
    void SetUp() override {
        if (dnnl_engine_get_count(dnnl_gpu) == 0)
            GTEST_SKIP() << "no OpenCL device";
        eng = engine(engine::kind::gpu, 0);
    }
    static void TearDownTestSuite() { drop_caches(); }

    // Creates from `make` normally, then from its blob with both caches
    // empty: no program compiled, at least one loaded, same bytes out.
    template <typename P, typename PD>
    void round_trip(const std::function<PD()> &make) {
        PD pd = make();
        P p1(pd);
        const bytes_t want = run(p1, pd, eng);
        const bytes_t blob = p1.get_cache_blob();
        ASSERT_FALSE(blob.empty());
        EXPECT_FALSE(pd.get_cache_blob_id().empty());
        drop_caches();
        const counts_t before = counts();
        PD pd2 = make();
        EXPECT_EQ(pd2.get_cache_blob_id(), pd.get_cache_blob_id());
        P p2(pd2, blob);
        const counts_t after = counts();
        EXPECT_EQ(after.compiled, before.compiled) << "compiled from source";
        EXPECT_GT(after.loaded, before.loaded);
        EXPECT_EQ(run(p2, pd2, eng), want);
        // A primitive made from a blob gives the same blob again.
        EXPECT_EQ(p2.get_cache_blob(), blob);
    }

    eltwise_forward::primitive_desc relu_pd(memory::dim n = 64) {
        memory::desc md({n, 32}, memory::data_type::f32, memory::format_tag::ab);
        return eltwise_forward::primitive_desc(eng, prop_kind::forward_inference,
                algorithm::eltwise_relu, md, md, 0.25f, 0.f);
    }

    engine eng;
};

} // namespace

TEST_F(ocl_cache_blob, eltwise_round_trip) {
    round_trip<eltwise_forward, eltwise_forward::primitive_desc>(
            [&] { return relu_pd(); });
}

TEST_F(ocl_cache_blob, matmul_round_trip) {
    round_trip<matmul, matmul::primitive_desc>([&] {
        memory::desc a({17, 24}, memory::data_type::f32, memory::format_tag::ab);
        memory::desc b({24, 9}, memory::data_type::f32, memory::format_tag::ab);
        memory::desc c({17, 9}, memory::data_type::f32, memory::format_tag::ab);
        post_ops po;
        po.append_eltwise(algorithm::eltwise_tanh, 0.f, 0.f);
        primitive_attr attr;
        attr.set_post_ops(po);
        return matmul::primitive_desc(eng, a, b, c, attr);
    });
}

TEST_F(ocl_cache_blob, convolution_round_trip) {
    round_trip<convolution_forward, convolution_forward::primitive_desc>([&] {
        using tag = memory::format_tag;
        const auto f32 = memory::data_type::f32;
        memory::desc src({2, 8, 10, 10}, f32, tag::nchw);
        memory::desc wei({16, 8, 3, 3}, f32, tag::oihw);
        memory::desc bia({16}, f32, tag::x);
        memory::desc dst({2, 16, 8, 8}, f32, tag::nchw);
        return convolution_forward::primitive_desc(eng,
                prop_kind::forward_inference, algorithm::convolution_direct,
                src, wei, bia, dst, {1, 1}, {0, 0}, {0, 0});
    });
}

// Convolution with a depthwise post-op: two nested gpu convolutions, each
// restored from its own slice of the outer blob.
convolution_forward::primitive_desc conv_dw_pd(const engine &eng) {
    using tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    memory::desc src({1, 8, 12, 12}, f32, tag::nchw);
    memory::desc wei({16, 8, 1, 1}, f32, tag::oihw);
    memory::desc dst({1, 16, 12, 12}, f32, tag::nchw);
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po.append_dw(memory::data_type::f32, memory::data_type::f32,
            memory::data_type::f32, 3, 2, 1);
    primitive_attr attr;
    attr.set_post_ops(po);
    return convolution_forward::primitive_desc(eng,
            prop_kind::forward_inference, algorithm::convolution_direct, src,
            wei, dst, {1, 1}, {0, 0}, {0, 0}, attr);
}

TEST_F(ocl_cache_blob, nested_primitives_round_trip) {
    auto pd = conv_dw_pd(eng);
    ASSERT_STREQ(pd.impl_info_str(), "fused:dw");
    round_trip<convolution_forward, convolution_forward::primitive_desc>(
            [&] { return conv_dw_pd(eng); });
    // The values of the CPU engine's fused convolution, up to the order of
    // summation (the inputs are small positive floats).
    engine cpu(engine::kind::cpu, 0);
    auto cpd = conv_dw_pd(cpu);
    const bytes_t g = run(convolution_forward(pd), pd, eng);
    const bytes_t c = run(convolution_forward(cpd), cpd, cpu);
    ASSERT_EQ(g.size(), c.size());
    std::vector<float> gf(g.size() / 4), cf(c.size() / 4);
    std::memcpy(gf.data(), g.data(), g.size());
    std::memcpy(cf.data(), c.data(), c.size());
    for (size_t i = 0; i < gf.size(); ++i)
        ASSERT_NEAR(gf[i], cf[i], 1e-5f * std::fabs(cf[i]) + 1e-30f) << i;
}

TEST_F(ocl_cache_blob, softmax_round_trip) {
    round_trip<softmax_forward, softmax_forward::primitive_desc>([&] {
        memory::desc md({6, 40}, memory::data_type::f32, memory::format_tag::ab);
        return softmax_forward::primitive_desc(eng, prop_kind::forward_inference,
                algorithm::softmax_log, md, md, 1);
    });
}

TEST_F(ocl_cache_blob, reorder_round_trip) {
    round_trip<reorder, reorder::primitive_desc>([&] {
        memory::desc a({2, 16, 5, 5}, memory::data_type::f32,
                memory::format_tag::nchw);
        memory::desc b({2, 16, 5, 5}, memory::data_type::f16,
                memory::format_tag::nChw16c);
        return reorder::primitive_desc(eng, a, eng, b);
    });
}

TEST_F(ocl_cache_blob, layer_normalization_round_trip) {
    // One of the unit-kernel families (ocl_unit_loop.clh).
    round_trip<layer_normalization_forward,
            layer_normalization_forward::primitive_desc>([&] {
        memory::desc md({4, 6, 32}, memory::data_type::f32,
                memory::format_tag::abc);
        return layer_normalization_forward::primitive_desc(eng,
                prop_kind::forward_inference, md, md, 1e-5f,
                normalization_flags::none);
    });
}

TEST_F(ocl_cache_blob, creation_from_blob_hits_the_primitive_cache) {
    auto pd = relu_pd(3);
    eltwise_forward p1(pd);
    const bytes_t blob = p1.get_cache_blob();
    // Cached already: the request is served without reading the blob.
    eltwise_forward p2(pd, blob);
    EXPECT_EQ(p2.get_cache_blob(), blob);
}

TEST_F(ocl_cache_blob, threads_restore_at_once) {
    // Creation frames are per thread: four threads restoring different
    // primitives (and two the same one) at once each get their own code.
    const memory::dim sizes[] = {21, 22, 23, 23};
    std::vector<eltwise_forward::primitive_desc> pds;
    std::vector<bytes_t> blobs, wants;
    for (memory::dim n : sizes) {
        pds.push_back(relu_pd(n));
        eltwise_forward p(pds.back());
        blobs.push_back(p.get_cache_blob());
        wants.push_back(run(p, pds.back(), eng));
    }
    drop_caches();
    const counts_t before = counts();
    std::vector<bytes_t> got(pds.size());
    std::vector<std::thread> threads;
    for (size_t i = 0; i < pds.size(); ++i)
        threads.emplace_back([&, i] {
            eltwise_forward p(pds[i], blobs[i]);
            got[i] = run(p, pds[i], eng);
        });
    for (auto &t : threads)
        t.join();
    EXPECT_EQ(counts().compiled, before.compiled);
    for (size_t i = 0; i < pds.size(); ++i)
        EXPECT_EQ(got[i], wants[i]) << i;
}

TEST_F(ocl_cache_blob, damaged_blobs_are_refused) {
    auto pd = relu_pd(5);
    const bytes_t good = eltwise_forward(pd).get_cache_blob();
    drop_caches();
    auto refused = [&](const bytes_t &b, const char *what) {
        dnnl_primitive_t p = nullptr;
        EXPECT_EQ(dnnl_primitive_create_from_cache_blob(
                          &p, pd.get(), b.size(), b.data()),
                dnnl_invalid_arguments)
                << what;
        if (p) dnnl_primitive_destroy(p);
    };
    const size_t id_len = u64_at(good, 32);
    ASSERT_GT(good.size(), 40 + id_len);
    refused(bytes_t(good.begin(), good.begin() + 10), "shorter than a header");
    refused(bytes_t(good.begin(), good.end() - 1), "truncated");
    {
        bytes_t b = good;
        b.push_back(0);
        refused(b, "longer than recorded");
    }
    {
        bytes_t b = good;
        b[0] ^= 1;
        refused(b, "bad magic");
    }
    {
        bytes_t b = good;
        b[8] += 1;
        refused(b, "other format version");
    }
    {
        bytes_t b = good;
        b[12] = 2;
        refused(b, "engine blob given as a primitive blob");
    }
    {
        bytes_t b = good;
        b[b.size() - 3] ^= 0x40;
        refused(b, "corrupted binary");
    }
    {
        // Well framed but cut after the id: the item count is missing.
        bytes_t b(good.begin(), good.begin() + 40 + id_len);
        fix_checksum(b);
        refused(b, "truncated payload with a valid checksum");
    }
    {
        // A length prefix pointing past the end, checksum fixed up.
        bytes_t b = good;
        const size_t count_at = 40 + id_len;
        b[count_at + 4 + 1 + 7] = 0x7f; // top byte of the first id length
        fix_checksum(b);
        refused(b, "length past the end");
    }
    {
        // Another library build: the first id part (version and
        // revision) changed, checksum fixed up.
        bytes_t b = good;
        b[40 + 8] ^= 1;
        fix_checksum(b);
        refused(b, "another library build");
    }
    {
        // Another device or driver: a byte of the device part.
        bytes_t b = good;
        const size_t build_len = u64_at(b, 40);
        b[40 + 8 + build_len + 8 + 1] ^= 1;
        fix_checksum(b);
        refused(b, "another device");
    }
    // Stale: the blob of another operation.
    const bytes_t other = eltwise_forward(relu_pd(7)).get_cache_blob();
    refused(other, "another operation");
    // Nothing above was kept: the good blob still works.
    dnnl_primitive_t p = nullptr;
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(
                      &p, pd.get(), good.size(), good.data()),
            dnnl_success);
    dnnl_primitive_destroy(p);
}

TEST_F(ocl_cache_blob, bad_arguments) {
    auto pd = relu_pd(9);
    eltwise_forward p(pd);
    size_t size = 0;
    EXPECT_EQ(dnnl_primitive_get_cache_blob(p.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_get_cache_blob(nullptr, &size, nullptr),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_primitive_get_cache_blob(p.get(), &size, nullptr),
            dnnl_success);
    bytes_t small(size - 1);
    size_t small_size = small.size();
    EXPECT_EQ(dnnl_primitive_get_cache_blob(p.get(), &small_size, small.data()),
            dnnl_invalid_arguments);
    dnnl_primitive_t q = nullptr;
    const uint8_t one = 0;
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&q, pd.get(), 0, &one),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&q, pd.get(), 1, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(nullptr, pd.get(), 1, &one),
            dnnl_invalid_arguments);
}

TEST_F(ocl_cache_blob, engine_blob_starts_a_warm_kernel_cache) {
    cl_device_id dev = ocl_interop::get_device(eng);
    const bytes_t id = ocl_interop::get_engine_cache_blob_id(dev);
    EXPECT_FALSE(id.empty());
    EXPECT_EQ(ocl_interop::get_engine_cache_blob_id(dev), id);
    drop_caches();
    auto pd = relu_pd(11);
    const bytes_t want = run(eltwise_forward(pd), pd, eng);
    const bytes_t blob = ocl_interop::get_engine_cache_blob(eng);
    ASSERT_FALSE(blob.empty());
    drop_caches();

    // A new context: nothing compiled for it yet.
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    const counts_t c0 = counts();
    engine e2 = ocl_interop::make_engine(dev, ctx, blob);
    const counts_t c1 = counts();
    EXPECT_GT(c1.loaded, c0.loaded);
    auto pd2 = eltwise_forward::primitive_desc(e2, prop_kind::forward_inference,
            algorithm::eltwise_relu, pd.src_desc(), pd.dst_desc(),
            0.25f, 0.f);
    eltwise_forward p2(pd2);
    const counts_t c2 = counts();
    EXPECT_EQ(c2.compiled, c1.compiled);
    EXPECT_EQ(c2.loaded, c1.loaded); // a kernel-cache hit
    EXPECT_EQ(run(p2, pd2, e2), want);
    clReleaseContext(ctx);
}

TEST_F(ocl_cache_blob, damaged_engine_blobs_are_refused) {
    cl_device_id dev = ocl_interop::get_device(eng);
    cl_context ctx = ocl_interop::get_context(eng);
    eltwise_forward(relu_pd(13));
    const bytes_t good = ocl_interop::get_engine_cache_blob(eng);
    auto refused = [&](const bytes_t &b, const char *what) {
        dnnl_engine_t e = nullptr;
        EXPECT_EQ(dnnl_ocl_interop_engine_create_from_cache_blob(
                          &e, dev, ctx, b.size(), b.data()),
                dnnl_invalid_arguments)
                << what;
        if (e) dnnl_engine_destroy(e);
    };
    refused(bytes_t(good.begin(), good.end() - 1), "truncated");
    {
        bytes_t b = good;
        b[b.size() / 2] ^= 4;
        refused(b, "corrupted");
    }
    {
        bytes_t b = good;
        b[12] = 1;
        refused(b, "primitive kind");
    }
    {
        bytes_t b = good;
        const size_t build_len = u64_at(b, 40);
        b[40 + 8 + build_len + 8] ^= 1;
        fix_checksum(b);
        refused(b, "another device");
    }
    // A primitive blob is not an engine blob, nor the reverse.
    refused(eltwise_forward(relu_pd(13)).get_cache_blob(), "primitive blob");
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_ocl_interop_engine_create_from_cache_blob(
                      &e, dev, ctx, good.size(), good.data()),
            dnnl_success);
    dnnl_engine_destroy(e);
    size_t size = 0;
    EXPECT_EQ(dnnl_ocl_interop_engine_get_cache_blob_id(nullptr, &size, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_ocl_interop_engine_get_cache_blob(eng.get(), nullptr, nullptr),
            dnnl_invalid_arguments);
    engine cpu(engine::kind::cpu, 0);
    EXPECT_EQ(dnnl_ocl_interop_engine_get_cache_blob(cpu.get(), &size, nullptr),
            dnnl_invalid_arguments);
}

TEST(ocl_cache_blob_cpu, cpu_primitives_have_no_blobs) {
    engine cpu(engine::kind::cpu, 0);
    memory::desc md({4, 4}, memory::data_type::f32, memory::format_tag::ab);
    eltwise_forward::primitive_desc pd(cpu, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f);
    EXPECT_TRUE(pd.get_cache_blob_id().empty());
    eltwise_forward p(pd);
    size_t size = 0;
    EXPECT_EQ(dnnl_primitive_get_cache_blob(p.get(), &size, nullptr),
            dnnl_unimplemented);
    const uint8_t one = 0;
    dnnl_primitive_t q = nullptr;
    EXPECT_EQ(dnnl_primitive_create_from_cache_blob(&q, pd.get(), 1, &one),
            dnnl_unimplemented);
}

#endif // DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
