// The BRGEMM (batch-reduce GEMM) microkernel on generated code:
//   C[m x n] (+)= sum over i < bs of A_i[m x k] * B_i[k x n],
// then bias and a post-op chain (eltwise, sum, binary) applied once to
// the finished tile. A is row-major (any row stride; f32 A may instead be
// column-major, `a_kmajor`), B_i is a packed
// panel (k rows of `b_vecs` vectors each, the tile's columns first),
// C is row-major. f32 inputs run FMAs; bf16 inputs run vdpbf16ps over
// pairs of k, B's panel rows interleaved in pairs (VNNI layout: row p of
// the panel holds, per column j, B[2p][j] then B[2p + 1][j]), into f32;
// u8 x s8 run vpdpbusd over quads of k into s32, converted and scaled in
// the epilogue. C is stored f32, bf16, or (u8 x s8) s8 / u8. The code
// depends only on the kernel configuration (ISA, data types, tile, tails,
// K unroll, beta, scales, post-op chain), never on M, N, K or strides, so
// kernels live in the global kernel cache and primitives of any shape
// share them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/c_types.hpp"
#include "common/kernel_cache.hpp"
#include "common/primitive_attr.hpp"
#include "cpu/cpu_isa.hpp"
#include "cpu/isa_table.hpp"
#include "cpu/jit/jit_kernel.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

// A vector level the generator emits for, with the tile it runs best:
// tile_m rows by tile_nv vectors (the accumulators fill the register
// file but leave room for the B vectors and a broadcast).
// Each target runs one input data type (`in_dt`: A and B; u8 means
// u8 x s8).
// Whether kernels for `isa` run on AMX tiles.
inline bool brgemm_is_amx(cpu_isa_t isa) {
    return (isa & avx512_core_amx) == avx512_core_amx;
}

struct brgemm_target_t {
    cpu_isa_t isa;
    const char *isa_name;
    bool zmm;
    int tile_m, tile_nv;
    data_type_t in_dt = dnnl_f32;
    int lanes() const { return zmm ? 16 : 8; }
};

// The targets, best first, and the pick for an input data type
// (ONEDNN_MAX_CPU_ISA, the prefer_ymm hint): the ISA dispatch every CPU
// kernel table uses, among the entries of that type.
const isa_table_t<brgemm_target_t> &brgemm_table();
const brgemm_target_t *select_brgemm_target(data_type_t in_dt = dnnl_f32);
// `t`, or where `t` is AMX and a batch element's K is under 32 bytes of A
// (half a tile step), the vector target of the same input type: every
// such call would be one partial step through the kernel's stack copies
// (a first layer's 3 bf16 channels, 7x7: 13.6x oneDNN's time on the
// Xeon). Null stays null.
const brgemm_target_t *brgemm_target_for_k(
        const brgemm_target_t *t, dim_t k_bytes);

// Where a binary post-op's second operand varies over the tile.
enum class brgemm_bcast_t : int { scalar, per_n, full };

struct brgemm_post_op_t {
    enum kind_t : int { eltwise, sum, binary } kind = eltwise;
    alg_kind_t alg = dnnl_alg_kind_undef; // eltwise or binary algorithm
    float alpha = 0.f, beta = 0.f;        // eltwise parameters
    float scale = 1.f;                    // eltwise output scale, sum scale
    brgemm_bcast_t bcast = brgemm_bcast_t::scalar; // binary
};

// The kernel's form of an attribute's eltwise or sum post-op (sum: f32 or
// undefined data type, no zero point); false for any other. Binary
// post-ops are each primitive's to map: their operand's broadcast
// follows its layout.
bool brgemm_post_op_of(const post_op_t &p, brgemm_post_op_t &q);

// How u8 x s8 sums are scaled (after the conversion to f32, before the
// bias): not, by one factor, or by one per column.
enum class brgemm_scale_t : int { none, common, per_n };

// Binary post-ops one kernel takes at most.
constexpr int brgemm_max_binary = 8;

struct brgemm_config_t {
    cpu_isa_t isa = isa_undef;
    const char *isa_name = "";
    bool zmm = true;
    // A's and B's types (f32; bf16 with B in pairs of rows; u8 x s8 with
    // B in quads of rows, s32 sums, on avx512_core_vnni), C's stored type
    // (f32 or bf16; for u8 x s8 also s8 / u8, and s32 for K blocks'
    // unscaled sums) and the bias's (f32 or bf16); bf16 needs
    // avx512_core_bf16.
    data_type_t a_dt = dnnl_f32, b_dt = dnnl_f32;
    data_type_t c_dt = dnnl_f32, bias_dt = dnnl_f32;
    brgemm_scale_t scale = brgemm_scale_t::none; // u8 x s8 only
    int m = 1;      // rows of the tile
    int nv = 1;     // vectors of the tile
    int n_tail = 0; // lanes kept in the last vector (0: all)
    int b_vecs = 1; // vectors per packed B row (>= nv)
    int k_unroll = 4;
    // 0: C = product; 1: C += product. Where the partial sums are not in
    // C's type (a bf16 C; any C of u8 x s8 but s32) the product is added
    // to those at brgemm_args_t::acc (f32; s32 for u8 x s8), which keep
    // K blocks exact or from being rounded to bf16 in between.
    int beta = 0;
    bool bias = false; // add bias[n] before the post-ops
    // u8 x s8 only. a_s8: A holds s8 values, read as u8 after adding 128
    // (each byte's sign bit flipped), so each column's sum is 128 times
    // its B column sum too large; on AMX multiplied as s8, exactly. comp:
    // add brgemm_args_t::comp[n] (s32) to the sums before the conversion
    // (the epilogue), which undoes that and any source zero point.
    bool a_s8 = false;
    bool comp = false;
    // u8 x s8 only: after the post-ops, multiply by *dst_scale (1 / the
    // destination scale) and add *dst_zp (the destination zero point).
    bool dst_scale = false, dst_zp = false;
    // f32 only, not AMX: A by columns, element (m, k) at a + k * lda + m
    // floats (a tile's m rows are consecutive floats, one k step lda
    // bytes on): a channels-last tensor read in place as the transpose
    // of its points x channels.
    bool a_kmajor = false;
    std::vector<brgemm_post_op_t> post_ops;

    // Whether the generator emits this configuration (algorithms, sizes).
    bool supported() const;
    int n_binary() const;
};

// The configuration for target `t` with an m-row, n-column tile.
brgemm_config_t brgemm_config(const brgemm_target_t &t, int m, int n);

// `full` (a tile's configuration, its epilogue included) for an m-row,
// n-column tile of a K loop: `accumulate` adds to C (beta 1: a K block
// after the first), `epilogue` applies bias and post-ops (the last block);
// a block without the epilogue stores f32 partial sums whatever C's type.
brgemm_config_t brgemm_tile_config(
        const brgemm_config_t &full, int m, int n, bool accumulate, bool epilogue);

// One batch element: A_i at the tile's first row, B_i at the first row
// of the tile's panel. Pointers are to the configuration's data types
// (bf16 ones cast to these).
struct brgemm_batch_t {
    const float *a;
    const float *b;
};

// The kernel's single argument (offsets are fixed by the generator).
struct brgemm_args_t {
    const brgemm_batch_t *batch;
    size_t bs;  // batch elements
    size_t k;   // rows of every B_i, columns of every A_i
    size_t lda; // A row stride in bytes
    float *c;
    size_t ldc;        // C row stride in bytes
    const float *bias; // at the tile's first column
    // Each binary post-op's operand at the tile's origin (element [0][0]
    // of the tile), and its row stride in bytes (full broadcast only).
    const float *binary[brgemm_max_binary];
    size_t binary_ld[brgemm_max_binary];
    // beta 1 where C does not hold the partial sums: those of the tile
    // (f32, or s32 for u8 x s8) and their row stride in bytes.
    const float *acc;
    size_t ld_acc;
    // The scale (common) or the tile's first column's (per_n).
    const float *scales;
    // With comp: the tile's first column's s32 correction.
    const int32_t *comp;
    const float *dst_scale, *dst_zp;
};

using brgemm_fn = void (*)(const brgemm_args_t *);

using brgemm_kernel_t = generated_kernel_t<brgemm_fn>;

// <dts>_brgemm_<m>x<n>_k<unroll>[_beta1][_bias[bf16]][_scale[n]][_comp]
// [_po<n>][_dscale][_dzp]__<isa>; n counts lanes (the tail's included); <dts> is the
// input type (u8s8 for u8 x s8, s8s8 with a_s8), and the output type
// where it differs (bf16_f32, u8s8_s8).
std::string brgemm_kernel_name(const brgemm_config_t &cfg);

// Generates the kernel (no cache).
status_t generate_brgemm_kernel(
        const brgemm_config_t &cfg, std::shared_ptr<brgemm_kernel_t> &out);

// The kernel for `cfg` through the kernel cache; `hit` tells whether it
// was reused. Prints create:kernel_cache_hit/miss under verbose.
status_t get_brgemm_kernel(const brgemm_config_t &cfg,
        std::shared_ptr<const brgemm_kernel_t> &out, bool &hit);

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
