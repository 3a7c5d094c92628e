// The BRGEMM kernels' configurations: the ISA table and the pick per
// input type, a tile's configuration (and its K phase's), the post-op
// mapping, kernel names, and the kernel-cache key and lookup. What the
// generator emits (brgemm_config_t::supported) and the generator itself
// are in brgemm_kernel.cpp.
#include "cpu/jit/brgemm_kernel.hpp"

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

const isa_table_t<brgemm_target_t> &brgemm_table() {
    // AVX-512: 6 x 4 zmm accumulators (24) + 4 B vectors + 2 broadcasts,
    // for f32 FMAs and for bf16 pairs (vdpbf16ps: 16 columns x 2 k per B
    // vector); AVX2: 6 x 2 ymm accumulators (12) + 2 B vectors + 1
    // broadcast. (4 x 3 on AVX2, the same 12 accumulators with 7 loads
    // for 12 FMAs instead of 8, ran 10-12% slower on 2 EPYC cores: ResNet-50
    // 3x3 and 1x1 convolutions and 3136x256:256x128 matmul, 2026-11-29.)
    // AMX: 2 x 2 tiles of 16 x 16 sums (32 rows, panels of 32 columns).
    static const brgemm_target_t amx_bf16{
            avx512_core_amx, "avx512_core_amx", true, 32, 2, dnnl_bf16};
    static const brgemm_target_t amx_int8{
            avx512_core_amx, "avx512_core_amx", true, 32, 2, dnnl_u8};
    static const brgemm_target_t avx512_bf16{
            avx512_core_bf16, "avx512_core_bf16", true, 6, 4, dnnl_bf16};
    // u8 x s8 (vpdpbusd: 16 columns x 4 k per B vector), the same tile.
    static const brgemm_target_t avx512_vnni{
            avx512_core_vnni, "avx512_core_vnni", true, 6, 4, dnnl_u8};
    static const brgemm_target_t avx512{avx512_core, "avx512_core", true, 6, 4};
    static const brgemm_target_t avx2_{avx2, "avx2", false, 6, 2};
    static const isa_table_t<brgemm_target_t> table{
            {avx512_core_amx, &amx_bf16}, {avx512_core_amx, &amx_int8},
            {avx512_core_bf16, &avx512_bf16}, {avx512_core_vnni, &avx512_vnni},
            {avx512_core, &avx512}, {avx2, &avx2_}};
    return table;
}

namespace {

// isa_select over the entries of this input type (AMX ones if `amx`).
const brgemm_target_t *select_target(data_type_t in_dt, bool amx) {
    for (const auto &e : brgemm_table())
        if (e.kernels->in_dt == in_dt && isa_entry_may_run(e.isa)
                && (amx || !brgemm_is_amx(e.isa)))
            return e.kernels;
    return nullptr;
}

} // namespace

const brgemm_target_t *select_brgemm_target(data_type_t in_dt) {
    return select_target(in_dt, true);
}

const brgemm_target_t *brgemm_target_for_k(
        const brgemm_target_t *t, dim_t k_bytes) {
    if (!t || !brgemm_is_amx(t->isa) || k_bytes >= 32) return t;
    return select_target(t->in_dt, false);
}

namespace {

uint32_t bits_of(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
}

// The configuration as a kernel-cache key (floats compared bitwise).
struct brgemm_key_t : public kernel_cache::key_impl_t {
    std::vector<uint32_t> words;

    explicit brgemm_key_t(const brgemm_config_t &c) {
        words = {0xb59e33u, (uint32_t)c.isa, (uint32_t)c.zmm, (uint32_t)c.m,
                (uint32_t)c.nv, (uint32_t)c.n_tail, (uint32_t)c.b_vecs,
                (uint32_t)c.k_unroll, (uint32_t)c.beta, (uint32_t)c.bias,
                (uint32_t)c.a_dt, (uint32_t)c.b_dt, (uint32_t)c.c_dt,
                (uint32_t)c.bias_dt, (uint32_t)c.scale, (uint32_t)c.a_s8,
                (uint32_t)c.comp, (uint32_t)c.dst_scale, (uint32_t)c.dst_zp,
                (uint32_t)c.a_kmajor};
        for (const auto &p : c.post_ops)
            for (uint32_t w : {(uint32_t)p.kind, (uint32_t)p.alg,
                         bits_of(p.alpha), bits_of(p.beta), bits_of(p.scale),
                         (uint32_t)p.bcast})
                words.push_back(w);
    }
    bool equal(const kernel_cache::key_impl_t &o) const override {
        return words == static_cast<const brgemm_key_t &>(o).words;
    }
    size_t hash() const override {
        size_t h = 0;
        for (uint32_t w : words) h = h * 1000003u ^ std::hash<uint32_t>()(w);
        return h;
    }
};

} // namespace

int brgemm_config_t::n_binary() const {
    int n = 0;
    for (const auto &p : post_ops) n += p.kind == brgemm_post_op_t::binary;
    return n;
}

bool brgemm_post_op_of(const post_op_t &p, brgemm_post_op_t &q) {
    if (p.kind == post_op_kind_t::eltwise) {
        q.kind = brgemm_post_op_t::eltwise;
        q.alg = p.alg;
        q.alpha = p.alpha;
        q.beta = p.beta;
        q.scale = p.scale;
        return true;
    }
    if (p.kind != post_op_kind_t::sum || p.zero_point != 0
            || (p.sum_dt != dnnl_data_type_undef && p.sum_dt != dnnl_f32))
        return false;
    q.kind = brgemm_post_op_t::sum;
    q.scale = p.scale;
    return true;
}

brgemm_config_t brgemm_tile_config(const brgemm_config_t &full, int m, int n,
        bool accumulate, bool epilogue) {
    const int lanes = full.zmm ? 16 : 8;
    brgemm_config_t c = full;
    c.m = m;
    c.nv = (n + lanes - 1) / lanes;
    c.n_tail = n % lanes;
    c.beta = accumulate ? 1 : 0;
    if (!epilogue) {
        c.bias = false;
        c.bias_dt = dnnl_f32;
        c.post_ops.clear();
        // Partial sums: f32, or int8's s32 unscaled (exact).
        c.c_dt = c.a_dt == dnnl_u8 ? dnnl_s32 : dnnl_f32;
        if (c.a_dt == dnnl_u8) c.scale = brgemm_scale_t::none;
        c.comp = false; // added once, by the last block
        c.dst_scale = c.dst_zp = false;
    }
    return c;
}

brgemm_config_t brgemm_config(const brgemm_target_t &t, int m, int n) {
    brgemm_config_t c;
    c.isa = t.isa;
    c.isa_name = t.isa_name;
    c.zmm = t.zmm;
    c.m = m;
    c.nv = (n + t.lanes() - 1) / t.lanes();
    c.n_tail = n % t.lanes();
    c.b_vecs = t.tile_nv;
    c.a_dt = t.in_dt;
    c.b_dt = t.in_dt == dnnl_u8 ? dnnl_s8 : t.in_dt;
    return c;
}

std::string brgemm_kernel_name(const brgemm_config_t &c) {
    const int lanes = c.zmm ? 16 : 8;
    const int n = (c.nv - 1) * lanes + (c.n_tail ? c.n_tail : lanes);
    auto dt = [](data_type_t t) {
        switch (t) {
        case dnnl_bf16:
            return "bf16";
        case dnnl_u8:
            return "u8";
        case dnnl_s8:
            return "s8";
        case dnnl_s32:
            return "s32";
        default:
            return "f32";
        }
    };
    std::string s = c.a_s8 ? "s8" : dt(c.a_dt);
    if (c.b_dt != c.a_dt || c.a_s8) s += dt(c.b_dt);
    if (c.c_dt != c.a_dt) s = s + "_" + dt(c.c_dt);
    s += "_brgemm_" + std::to_string(c.m) + "x" + std::to_string(n) + "_k"
         + std::to_string(c.k_unroll);
    if (c.beta) s += "_beta1";
    if (c.bias) s += c.bias_dt == dnnl_bf16 ? "_biasbf16" : "_bias";
    if (c.scale != brgemm_scale_t::none)
        s += c.scale == brgemm_scale_t::common ? "_scale" : "_scalen";
    if (c.comp) s += "_comp";
    if (!c.post_ops.empty()) s += "_po" + std::to_string(c.post_ops.size());
    if (c.dst_scale) s += "_dscale";
    if (c.dst_zp) s += "_dzp";
    if (c.a_kmajor) s += "_acol";
    return s + "__" + c.isa_name;
}

status_t get_brgemm_kernel(const brgemm_config_t &cfg,
        std::shared_ptr<const brgemm_kernel_t> &out, bool &hit) {
    if (!cfg.supported()) return dnnl_unimplemented;
    return get_cached_kernel<brgemm_key_t>(
            cfg, generate_brgemm_kernel, out, hit);
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
