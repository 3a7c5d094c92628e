// The dropout attribute: setters and getters validate as oneDNN 3.13's do;
// matmul applies it before its post-ops with oneDNN's random numbers (the
// masks below were produced by oneDNN 3.13.2 itself on the same problem),
// on every engine present;
// primitives without an implementation that applies it answer
// dnnl_unimplemented; missing arguments are refused.
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

// The engines present: cpu, and gpu where there is one.
std::vector<engine> engines() {
    std::vector<engine> v = {eng()};
    if (engine::get_count(engine::kind::gpu) > 0)
        v.emplace_back(engine::kind::gpu, 0);
    return v;
}

const char *name_of(const engine &e) {
    return e.get_kind() == engine::kind::cpu ? "cpu" : "gpu";
}

// Copies `size` bytes between the host and memory of any engine.
void write_mem(const memory &m, const void *v, size_t size) {
    void *p = m.map_data();
    std::memcpy(p, v, size);
    m.unmap_data(p);
}
void read_mem(const memory &m, void *v, size_t size) {
    void *p = m.map_data();
    std::memcpy(v, p, size);
    m.unmap_data(p);
}

// The problem the known masks come from: 5 x 3 by 3 x 7, p = 0.4.
constexpr memory::dim M = 5, K = 3, N = 7;
constexpr float P = 0.4f;

struct variant_t {
    const char *name;
    dt seed_dt;
    bool use_offset;
    int64_t seed;
    const char *mask; // oneDNN 3.13.2, row-major
};

// Offset 77 where use_offset is set.
const variant_t variants[] = {
        {"s32 seed, no offset", dt::s32, false, 987654321,
                "00001111111100000000111100001111111"},
        {"s64 seed, offset", dt::s64, true, 0x123456789abLL,
                "00111110110110110101111110101011101"},
        {"s32 seed, offset", dt::s32, true, 987654321,
                "11001011010100100011010000010101010"},
};

memory scalar_mem(const engine &e, dt t, const void *v, size_t size) {
    memory m({{1}, t, tag::x}, e);
    write_mem(m, v, size);
    return m;
}

struct result_t {
    std::vector<float> dst;
    std::string mask;
};

// Runs the problem with the given attribute pieces; `plain` holds the
// matmul without dropout.
result_t run(const engine &e, const variant_t &v, const post_ops &po,
        dt dst_dt, std::vector<float> *plain = nullptr, bool with_mask = true) {
    memory::desc a({M, K}, dt::f32, tag::ab), b({K, N}, dt::f32, tag::ab),
            d({M, N}, dst_dt, tag::ab);
    memory::desc mk = with_mask ? memory::desc({M, N}, dt::u8, tag::any)
                                : memory::desc();
    primitive_attr attr;
    attr.set_dropout(mk, v.seed_dt, v.use_offset, false);
    attr.set_post_ops(po);
    matmul::primitive_desc pd(e, a, b, d, attr);
    memory A(a, e), B(b, e), D(pd.dst_desc(), e);
    std::vector<float> pa(M * K), pb(K * N);
    for (int i = 0; i < M * K; ++i)
        pa[i] = 1.f + i % 3;
    for (int i = 0; i < K * N; ++i)
        pb[i] = 0.5f + i % 5;
    write_mem(A, pa.data(), pa.size() * 4);
    write_mem(B, pb.data(), pb.size() * 4);
    std::unordered_map<int, memory> args {{DNNL_ARG_SRC, A},
            {DNNL_ARG_WEIGHTS, B}, {DNNL_ARG_DST, D},
            {DNNL_ARG_ATTR_DROPOUT_PROBABILITY, scalar_mem(e, dt::f32, &P, 4)}};
    const int32_t seed32 = (int32_t)v.seed;
    args.insert({DNNL_ARG_ATTR_DROPOUT_SEED,
            v.seed_dt == dt::s32 ? scalar_mem(e, dt::s32, &seed32, 4)
                                 : scalar_mem(e, dt::s64, &v.seed, 8)});
    const int64_t offset = 77;
    if (v.use_offset)
        args.insert({DNNL_ARG_ATTR_DROPOUT_OFFSET, scalar_mem(e, dt::s64, &offset, 8)});
    memory MK;
    if (with_mask) {
        EXPECT_EQ(pd.query_md(query::exec_arg_md, DNNL_ARG_ATTR_DROPOUT_MASK),
                memory::desc({M, N}, dt::u8, tag::ab));
        MK = memory(pd.query_md(query::exec_arg_md, DNNL_ARG_ATTR_DROPOUT_MASK), e);
        args.insert({DNNL_ARG_ATTR_DROPOUT_MASK, MK});
    }
    stream s(e);
    matmul(pd).execute(s, args);
    s.wait();

    result_t r;
    memory F({{M, N}, dt::f32, tag::ab}, e);
    reorder(D, F).execute(s, D, F);
    s.wait();
    r.dst.resize(M * N);
    read_mem(F, r.dst.data(), M * N * 4);
    if (with_mask) {
        std::vector<uint8_t> mk(M * N);
        read_mem(MK, mk.data(), mk.size());
        for (int i = 0; i < M * N; ++i)
            r.mask += mk[i] ? '1' : '0';
    }
    if (plain) {
        plain->assign(M * N, 0.f);
        for (int i = 0; i < M; ++i)
            for (int j = 0; j < N; ++j)
                for (int k = 0; k < K; ++k)
                    (*plain)[i * N + j] += pa[i * K + k] * pb[k * N + j];
    }
    return r;
}

TEST(Dropout, MatmulMatchesOneDnnMasks) {
    for (const engine &e : engines())
    for (const auto &v : variants) {
        SCOPED_TRACE(std::string(name_of(e)) + ": " + v.name);
        std::vector<float> plain;
        const result_t r = run(e, v, post_ops(), dt::f32, &plain);
        EXPECT_EQ(r.mask, v.mask);
        for (int i = 0; i < M * N; ++i) {
            const float want = v.mask[i] == '1' ? plain[i] * (1.f / (1.f - P)) : 0.f;
            EXPECT_FLOAT_EQ(r.dst[i], want) << i;
        }
        // Without a mask output the kept values are the same.
        const result_t nomask = run(e, v, post_ops(), dt::f32, nullptr, false);
        EXPECT_EQ(nomask.dst, r.dst);
    }
}

// Dropout comes before the post-ops: linear(x) = 2x + 1 makes dropped
// values 1, kept ones 2 * v / (1 - p) + 1; bf16 dst rounds once at the end.
TEST(Dropout, BeforePostOps) {
    post_ops po;
    po.append_eltwise(algorithm::eltwise_linear, 2.f, 1.f);
    const variant_t &v = variants[1];
    std::vector<float> plain;
    for (const engine &e : engines())
    for (dt d : {dt::f32, dt::bf16}) {
        SCOPED_TRACE(name_of(e));
        const result_t r = run(e, v, po, d, &plain);
        EXPECT_EQ(r.mask, v.mask);
        for (int i = 0; i < M * N; ++i) {
            const float want = v.mask[i] == '1'
                    ? 2.f * plain[i] * (1.f / (1.f - P)) + 1.f
                    : 1.f;
            EXPECT_NEAR(r.dst[i], want, d == dt::f32 ? 1e-5f : want / 128.f) << i;
        }
    }
}

TEST(Dropout, AttributeValidation) {
    primitive_attr attr;
    memory::desc mk;
    dt seed_dt = dt::undef;
    bool off = true, host = true;
    attr.get_dropout(mk, seed_dt, off, host);
    EXPECT_EQ(seed_dt, dt::undef);
    EXPECT_FALSE(off);
    EXPECT_FALSE(host);

    const memory::desc u8({2, 3}, dt::u8, tag::ab), f32({2, 3}, dt::f32, tag::ab);
    dnnl_primitive_attr_t a = attr.get();
    EXPECT_EQ(dnnl_primitive_attr_set_dropout(a, f32.get()), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_dropout(a, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_dropout(nullptr, u8.get()), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_dropout_v2(a, u8.get(), dnnl_f32, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_dropout_v2(a, u8.get(), (dnnl_data_type_t)12345, 0, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_primitive_attr_set_dropout_v2(a, u8.get(), dnnl_s64, 1, 1), dnnl_success);
    attr.get_dropout(mk, seed_dt, off, host);
    EXPECT_EQ(mk, u8);
    EXPECT_EQ(seed_dt, dt::s64);
    EXPECT_TRUE(off);
    EXPECT_TRUE(host);
    // The v1 setter: s32 seed, no offset, device memory.
    attr.set_dropout(memory::desc());
    attr.get_dropout(mk, seed_dt, off, host);
    EXPECT_EQ(seed_dt, dt::s32);
    EXPECT_FALSE(off);
    EXPECT_FALSE(host);
    EXPECT_EQ(mk, memory::desc());
}

// Kinds with no implementation applying dropout refuse the attribute
// rather than ignoring it.
TEST(Dropout, OtherKindsUnimplemented) {
    primitive_attr attr;
    attr.set_dropout(memory::desc());
    const memory::desc md({2, 8}, dt::f32, tag::ab);
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_eltwise_forward_primitive_desc_create(&pd, eng().get(),
                      dnnl_forward_training, dnnl_eltwise_relu, md.get(), md.get(),
                      0.f, 0.f, attr.get()),
            dnnl_unimplemented);
    EXPECT_EQ(dnnl_binary_primitive_desc_create(&pd, eng().get(), dnnl_binary_add,
                      md.get(), md.get(), md.get(), attr.get()),
            dnnl_unimplemented);
    // A blocked or transposed dst is not dense row-major: refused too.
    const memory::desc a({2, 4}, dt::f32, tag::ab), b({4, 8}, dt::f32, tag::ab),
            dt_ba({2, 8}, dt::f32, tag::ba);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, eng().get(), a.get(), b.get(),
                      nullptr, dt_ba.get(), attr.get()),
            dnnl_unimplemented);
}

TEST(Dropout, MissingArgumentsRefused) {
    for (const engine &e : engines()) {
    SCOPED_TRACE(name_of(e));
    memory::desc a({2, 4}, dt::f32, tag::ab), b({4, 8}, dt::f32, tag::ab),
            d({2, 8}, dt::f32, tag::ab);
    primitive_attr attr;
    attr.set_dropout(memory::desc({2, 8}, dt::u8, tag::ab), dt::s32, true, false);
    matmul::primitive_desc pd(e, a, b, d, attr);
    if (e.get_kind() == engine::kind::cpu)
        EXPECT_EQ(std::string(pd.impl_info_str()).rfind("dropout:", 0), 0u);
    memory A(a, e), B(b, e), D(d, e);
    memory Mk({{2, 8}, dt::u8, tag::ab}, e);
    const float p = 0.5f;
    const int32_t seed = 1;
    const int64_t offset = 3;
    std::unordered_map<int, memory> full {{DNNL_ARG_SRC, A}, {DNNL_ARG_WEIGHTS, B},
            {DNNL_ARG_DST, D}, {DNNL_ARG_ATTR_DROPOUT_MASK, Mk},
            {DNNL_ARG_ATTR_DROPOUT_PROBABILITY, scalar_mem(e, dt::f32, &p, 4)},
            {DNNL_ARG_ATTR_DROPOUT_SEED, scalar_mem(e, dt::s32, &seed, 4)},
            {DNNL_ARG_ATTR_DROPOUT_OFFSET, scalar_mem(e, dt::s64, &offset, 8)}};
    stream s(e);
    matmul prim(pd);
    prim.execute(s, full);
    s.wait();
    for (int missing : {DNNL_ARG_ATTR_DROPOUT_MASK, DNNL_ARG_ATTR_DROPOUT_PROBABILITY,
                 DNNL_ARG_ATTR_DROPOUT_SEED, DNNL_ARG_ATTR_DROPOUT_OFFSET}) {
        auto args = full;
        args.erase(missing);
        std::vector<dnnl_exec_arg_t> c;
        for (auto &kv : args)
            c.push_back({kv.first, kv.second.get()});
        EXPECT_EQ(dnnl_primitive_execute(prim.get(), s.get(), (int)c.size(), c.data()),
                dnnl_invalid_arguments)
                << missing;
    }
    // A probability memory without elements holds no value either.
    auto args = full;
    args[DNNL_ARG_ATTR_DROPOUT_PROBABILITY] = memory({{0}, dt::f32, tag::x}, e);
    std::vector<dnnl_exec_arg_t> c;
    for (auto &kv : args)
        c.push_back({kv.first, kv.second.get()});
    EXPECT_EQ(dnnl_primitive_execute(prim.get(), s.get(), (int)c.size(), c.data()),
            dnnl_invalid_arguments);
    }
}

// With use_host_scalars the single values come as host-scalar memory.
TEST(Dropout, HostScalars) {
    const variant_t &v = variants[1];
    for (const engine &e : engines()) {
    SCOPED_TRACE(name_of(e));
    memory::desc a({M, K}, dt::f32, tag::ab), b({K, N}, dt::f32, tag::ab),
            d({M, N}, dt::f32, tag::ab), mk({M, N}, dt::u8, tag::ab);
    primitive_attr attr;
    attr.set_dropout(mk, dt::s64, true, true);
    matmul::primitive_desc pd(e, a, b, d, attr);
    memory A(a, e), B(b, e), D(d, e), Mk(mk, e);
    std::vector<float> pa(M * K), pb(K * N);
    for (int i = 0; i < M * K; ++i)
        pa[i] = 1.f + i % 3;
    for (int i = 0; i < K * N; ++i)
        pb[i] = 0.5f + i % 5;
    write_mem(A, pa.data(), pa.size() * 4);
    write_mem(B, pb.data(), pb.size() * 4);
    const int64_t offset = 77;
    stream s(e);
    matmul(pd).execute(s,
            {{DNNL_ARG_SRC, A}, {DNNL_ARG_WEIGHTS, B}, {DNNL_ARG_DST, D},
                    {DNNL_ARG_ATTR_DROPOUT_MASK, Mk},
                    {DNNL_ARG_ATTR_DROPOUT_PROBABILITY,
                            memory(memory::desc::host_scalar(dt::f32), P)},
                    {DNNL_ARG_ATTR_DROPOUT_SEED,
                            memory(memory::desc::host_scalar(dt::s64), v.seed)},
                    {DNNL_ARG_ATTR_DROPOUT_OFFSET,
                            memory(memory::desc::host_scalar(dt::s64), offset)}});
    s.wait();
    std::vector<uint8_t> bytes(M * N);
    read_mem(Mk, bytes.data(), bytes.size());
    std::string mask;
    for (int i = 0; i < M * N; ++i)
        mask += bytes[i] ? '1' : '0';
    EXPECT_EQ(mask, v.mask);
    }
}

} // namespace
