// Microkernel tables of the GEMM core, best first (cpu/isa_table.hpp), and
// the choice among them.
#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"


namespace dnnl {
namespace impl {
namespace cpu {
namespace gemm {

namespace {

// mc, kc, nc: A block (mc x kc) stays in L2, B micro-panel (kc x nr) in L1.
const f32_ukernel_desc_t f32_12x32__avx512f = {"f32_gemm_12x32__avx512f", 12,
        32, 120, 384, 3072, f32_gemm_12x32__avx512f};
const f32_ukernel_desc_t f32_6x16__avx2_fma = {"f32_gemm_6x16__avx2_fma", 6,
        16, 120, 256, 3072, f32_gemm_6x16__avx2_fma};
const f32_ukernel_desc_t f32_4x8__generic = {"f32_gemm_4x8__generic", 4, 8, 64,
        256, 1024, f32_gemm_4x8__generic};

const s32_ukernel_desc_t s32_12x32c2__avx512vnni = {
        "s32_gemm_12x32c2__avx512vnni", 12, 32, 120, 768, 3072,
        s32_gemm_12x32c2__avx512vnni};
const s32_ukernel_desc_t s32_12x32c2__avx512bw = {"s32_gemm_12x32c2__avx512bw",
        12, 32, 120, 768, 3072, s32_gemm_12x32c2__avx512bw};
const s32_ukernel_desc_t s32_6x16c2__avx2 = {"s32_gemm_6x16c2__avx2", 6, 16,
        120, 512, 3072, s32_gemm_6x16c2__avx2};
const s32_ukernel_desc_t s32_4x8c2__generic = {"s32_gemm_4x8c2__generic", 4, 8,
        64, 256, 1024, s32_gemm_4x8c2__generic};

const bf16_ukernel_desc_t f32_12x32c2__avx512bf16 = {
        "f32_gemm_12x32c2__avx512bf16", 12, 32, 120, 768, 3072,
        f32_gemm_12x32c2__avx512bf16};

// u8 x s8 quads: the AVX-512 kernel where the 512-bit ISA with VNNI is
// allowed, the VEX one on AVX-VNNI (which AVX-512 VNNI does not imply).
const s32c4_ukernel_desc_t s32_12x32c4__avx512vnni = {
        "s32_gemm_12x32c4__avx512vnni", 12, 32, 120, 768, 3072,
        s32_gemm_12x32c4__avx512vnni};
const s32c4_ukernel_desc_t s32_6x16c4__avx2vnni = {"s32_gemm_6x16c4__avx2vnni",
        6, 16, 120, 1024, 3072, s32_gemm_6x16c4__avx2vnni};

} // namespace

// Each entry's ISA is that of the kernel file's flags
// (gemm_ukernels_<isa>.cpp).
const isa_table_t<f32_ukernel_desc_t> &f32_ukernel_table() {
    static const isa_table_t<f32_ukernel_desc_t> t {
            {avx512_core, &f32_12x32__avx512f}, {avx2, &f32_6x16__avx2_fma},
            {isa_undef, &f32_4x8__generic}};
    return t;
}

const isa_table_t<f32_gemv_desc_t> &f32_gemv_table() {
    static const isa_table_t<f32_gemv_desc_t> t {
            {avx512_core, &f32_gemv__avx512f}, {avx2, &f32_gemv__avx2_fma},
            {isa_undef, &f32_gemv__generic}};
    return t;
}

const isa_table_t<s32_ukernel_desc_t> &s32_ukernel_table() {
    static const isa_table_t<s32_ukernel_desc_t> t {
            {avx512_core_vnni, &s32_12x32c2__avx512vnni},
            {avx512_core, &s32_12x32c2__avx512bw}, {avx2, &s32_6x16c2__avx2},
            {isa_undef, &s32_4x8c2__generic}};
    return t;
}

const isa_table_t<bf16_ukernel_desc_t> &bf16_ukernel_table() {
    static const isa_table_t<bf16_ukernel_desc_t> t {
            {avx512_core_bf16, &f32_12x32c2__avx512bf16}};
    return t;
}

const isa_table_t<s32c4_ukernel_desc_t> &s32c4_ukernel_table() {
    static const isa_table_t<s32c4_ukernel_desc_t> t {
            {avx512_core_vnni, &s32_12x32c4__avx512vnni},
            {avx2_vnni, &s32_6x16c4__avx2vnni}};
    return t;
}

const isa_table_t<s32_small_m_desc_t> &s32_small_m_table() {
    static const isa_table_t<s32_small_m_desc_t> t {
            {avx512_core, &s32_small_m_avx512_core()},
            {avx2, &s32_small_m_avx2()}, {isa_undef, &s32_small_m_base()}};
    return t;
}

// Picked once per process: the ISA limit is fixed by its first read.
const f32_ukernel_desc_t &select_f32_ukernel() {
    static const f32_ukernel_desc_t *k = isa_select(f32_ukernel_table());
    return *k;
}

const s32_small_m_desc_t &select_s32_small_m() {
    static const s32_small_m_desc_t *k = isa_select(s32_small_m_table());
    return *k;
}

const f32_gemv_desc_t &select_f32_gemv() {
    static const f32_gemv_desc_t *k = isa_select(f32_gemv_table());
    return *k;
}

const bf16_ukernel_desc_t *select_bf16_ukernel() {
    static const bf16_ukernel_desc_t *k = isa_select(bf16_ukernel_table());
    return k;
}

const s32c4_ukernel_desc_t *select_s32c4_ukernel() {
    static const s32c4_ukernel_desc_t *k = isa_select(s32c4_ukernel_table());
    return k;
}

const isa_table_t<pack_pairs_kernels_t> &pack_pairs_table() {
    static const isa_table_t<pack_pairs_kernels_t> table {
            {avx2, &pack_pairs_kernels_avx2()}};
    return table;
}

bool pack_rows_s16(const void *src, bool is_signed, dim_t ld, dim_t nrows,
        dim_t kc, int32_t zp, int width, int16_t *out) {
    static const pack_pairs_kernels_t *k = isa_select(pack_pairs_table());
    if (!k) return false;
    k->rows(src, is_signed, ld, nrows, kc, zp, width, out);
    return true;
}

const s32_ukernel_desc_t &select_s32_ukernel() {
    static const s32_ukernel_desc_t *k = isa_select(s32_ukernel_table());
    return *k;
}

} // namespace gemm
} // namespace cpu
} // namespace impl
} // namespace dnnl
