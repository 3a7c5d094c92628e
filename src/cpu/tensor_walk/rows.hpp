// Row kernels shared by the tensor-wide primitives: reading a row of any
// data type into f32 (in place when it already is contiguous f32),
// writing f32 rows back, the binary operations on rows (with broadcast
// scalars, blocks of short rows, bf16/f16 in registers), eltwise on rows,
// the post-op chain applied to a row, reductions, gathers and PReLU rows.
// The loops live in rows_kernels.cpp, compiled once per ISA; the functions
// below call the widest table the processor and the ISA limit allow.
//
// A row is `n` elements of one tensor: element i at off + i * st, or at
// off + idx[i] when an index table is given (generic layouts).
#pragma once

#include <string>
#include <vector>

#include "common/float_convert.hpp"
#include "common/memory_desc.hpp"
#include "common/primitive_attr.hpp"
#include "cpu/isa_table.hpp"
#include "cpu/kernel_name.hpp"

namespace dnnl {
namespace impl {
struct exec_ctx_t;
namespace cpu {
namespace rows {

// Elements per row chunk: f32 staging buffers of this size live on the
// stack of each thread.
constexpr dim_t chunk = 512;

struct row_t {
    const void *base = nullptr;
    data_type_t dt = dnnl_f32;
    dim_t off = 0;
    dim_t st = 1;
    const dim_t *idx = nullptr;
    bool scalar() const { return idx == nullptr && st == 0; }
};

// n elements of `r` as f32; points into the tensor for contiguous f32,
// otherwise into `buf` (a broadcast row yields buf[0] only).
const float *load(const row_t &r, dim_t n, float *buf);
// Writes n f32 values into the row.
void store(const row_t &r, const float *v, dim_t n);
// Scales a loaded row (or scalar) into buf; returns buf.
const float *scale(
        const float *v, dim_t n, bool is_scalar, float s, float *buf);

// d[i] = op(a[i], b[i]) (select: c[i] != 0 ? a[i] : b[i]); a scalar
// operand is read at index 0 only.
void binary(alg_kind_t alg, const float *a, bool a_scalar, const float *b,
        bool b_scalar, const float *c, bool c_scalar, float *d, dim_t n);

// Rows m < M of L elements: d[m * L + l] = op(a[m * sa + l], b[m * sb + l])
// (sa, sb: L for a block of rows, 0 for one row repeated); with `as` set
// a contributes one value a row, a[m * sa] (b likewise); f32 only.
void binary_block(alg_kind_t alg, const float *a, dim_t sa, bool as,
        const float *b, dim_t sb, bool bs, float *d, dim_t M, dim_t L);
// The same for PReLU: y = x > 0 ? x : w * x.
void prelu_block(const float *x, dim_t sx, const float *w, dim_t sw, float *y,
        dim_t M, dim_t L);

// d = op(a, b) on rows that are all bf16 or all f16 (contiguous, or a
// broadcast scalar), converted in registers; false when not applicable.
bool binary_half(alg_kind_t alg, data_type_t dt, const void *a, bool a_scalar,
        const void *b, bool b_scalar, void *d, dim_t n);

// Reductions of contiguous f32 values: comb 0 sum (of x, |x|, x^2 or
// |x|^p for tr 0..3), 1 max, 2 min, 3 product. reduce_run combines v with
// the reduction of x[0..n); reduce_lanes combines acc[i] with x[i].
float reduce_run(int comb, int tr, const float *x, dim_t n, float p, float v);
void reduce_lanes(
        int comb, int tr, const float *x, dim_t n, float p, float *acc);

// out[i] = in[idx[i]] for 4-byte elements.
void gather32(const uint32_t *in, const int32_t *idx, uint32_t *out, dim_t n);

// PReLU rows: y = x > 0 ? x : w * x (w[0] only when w_scalar); backward
// ds = x > 0 ? dd : w * dd and the diff_weights terms c = x > 0 ? 0 : x * dd.
void prelu_fwd(
        const float *x, const float *w, bool w_scalar, float *y, dim_t n);
void prelu_bwd(const float *x, const float *w, bool w_scalar, const float *dd,
        float *ds, float *c, dim_t n);

// v[i] = eltwise(alg, v[i]) * scale.
void eltwise(alg_kind_t alg, float alpha, float beta, float scale, float *v,
        dim_t n);

// A post-op chain checked against a destination (po_check::check), with
// the descriptors of the tensors it reads (binary sources and select
// conditions; prelu weights as dense f32 tensors of the dims in their
// mask).
struct po_chain_t {
    struct entry_t {
        post_op_kind_t kind;
        alg_kind_t alg;
        float alpha, beta, scale;
        float zero_point;
        data_type_t sum_dt;
        int tensor; // index in `mds` (binary, prelu), -1 otherwise
        int arg;    // execution argument of the tensor
        int cond = -1; // binary select: its condition's index in `mds`
        int cond_arg = 0; // and execution argument
    };
    std::vector<entry_t> entries;
    std::vector<memory_desc_t> mds;

    status_t init(const post_ops_t &po, const memory_desc_t &dst);
    bool empty() const { return entries.empty(); }
    bool has_sum() const;
    // Pointers of the chain's tensors from the execution context;
    // dnnl_invalid_arguments when one is missing.
    status_t pointers(
            const exec_ctx_t &ctx, std::vector<const void *> &ptrs) const;
};

// Applies the chain to v[0..n). `t` holds the rows of the chain's tensors
// (in `mds` order); `old` the destination row before the write (sum).
void apply(const po_chain_t &c, float *v, dim_t n, const row_t *t,
        const row_t &old, float *buf);

// The row kernels above compiled per ISA (rows_kernels.cpp); the public
// functions call the widest table allowed.
struct kernels_t {
    const char *isa;
    const float *(*load)(const row_t &r, dim_t n, float *buf);
    void (*store)(const row_t &r, const float *v, dim_t n);
    const float *(*scale)(
            const float *v, dim_t n, bool is_scalar, float s, float *buf);
    void (*binary)(alg_kind_t alg, const float *a, bool a_scalar,
            const float *b, bool b_scalar, const float *c, bool c_scalar,
            float *d, dim_t n);
    void (*binary_block)(alg_kind_t alg, const float *a, dim_t sa, bool as,
            const float *b, dim_t sb, bool bs, float *d, dim_t M, dim_t L);
    void (*prelu_block)(const float *x, dim_t sx, const float *w, dim_t sw,
            float *y, dim_t M, dim_t L);
    bool (*binary_half)(alg_kind_t alg, data_type_t dt, const void *a,
            bool a_scalar, const void *b, bool b_scalar, void *d, dim_t n);
    float (*reduce_run)(
            int comb, int tr, const float *x, dim_t n, float p, float v);
    void (*reduce_lanes)(
            int comb, int tr, const float *x, dim_t n, float p, float *acc);
    void (*gather32)(
            const uint32_t *in, const int32_t *idx, uint32_t *out, dim_t n);
    void (*prelu_fwd)(
            const float *x, const float *w, bool w_scalar, float *y, dim_t n);
    void (*prelu_bwd)(const float *x, const float *w, bool w_scalar,
            const float *dd, float *ds, float *c, dim_t n);
    void (*eltwise)(alg_kind_t alg, float alpha, float beta, float scale,
            float *v, dim_t n);
    void (*apply)(const po_chain_t &c, float *v, dim_t n, const row_t *t,
            const row_t &old, float *buf);
};
// One kernel set per ISA that rows_kernels.cpp is compiled for, and
// the table of them, best first (cpu/isa_table.hpp), that a primitive
// descriptor picks from once (select_kernels: the first that may run).
const kernels_t &kernels_avx512_core();
const kernels_t &kernels_avx2();
const kernels_t &kernels_base();
const isa_table_t<kernels_t> &kernel_table();
const kernels_t &select_kernels();

// The implementation name of a tensor-wide primitive on these kernels
// (cpu/kernel_name.hpp): the stored types (dt_pair_name of the first
// input and the output; shuffle, which copies elements bit-exactly,
// x8 to x64), the family's operation and its walk ("nest" the loop nest,
// "walk" the general row walk, "lanes" shuffle's lanes), and the kernels'
// ISA: "simd:f32_binary_nest__avx512_core",
// "simd:s8_f32_reduction_walk__avx2". The row functions above use the
// kernels picked at their first call (the ISA limit is fixed by then), so
// the ISA is the same for every primitive descriptor.
std::string impl_name(const std::string &dt, const char *op, const char *walk);

} // namespace rows
} // namespace cpu
} // namespace impl
} // namespace dnnl
