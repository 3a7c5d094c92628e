// oneDNN 3.13's quantization grid on an integer matmul (s8 / u8 source and
// weights), as the reference implementations of both engines take it:
//   scales      src per tensor, per K in groups (of a multiple of 32), per
//               M and K (K in groups); weights per tensor, per N, per any
//               dims with K in groups; dst per tensor, per N or per any
//               dims (no groups); f32, bf16 or f16;
//   zero points src per tensor, per K, per M and K (K in groups);
//               weights per tensor, per N, per K and N (K in groups); dst
//               per tensor or per N; s32, s8 or u8;
//   precomputed source reductions per M and K (taken; an implementation
//               forms the sums itself, equal to what a correct caller
//               passes).
// An entry's value for a logical position pos of its tensor sits at
// sum_d (pos[d] / group[d]) * mul[d] (row-major over the masked dims in
// units of their groups; mul 0 elsewhere).
#pragma once

#include "common/c_types.hpp"
#include "common/matmul_pd.hpp"
#include "common/primitive_attr.hpp"

namespace dnnl {
namespace impl {

// What the reference implementations of both engines take, checked
// before matmul_pd_t::init_formats: s8 / u8 source and weights (else a
// silent dnnl_unimplemented), no runtime dims, plain layouts (or `any`),
// a dst of f32, bf16, f16, s32, s8 or u8, and attributes within the grid
// (no dynamic quantization, rounding mode or dropout). dnnl_unimplemented
// with a create:check line ("<who>: <why>") otherwise.
status_t check_matmul_quant_grid(const matmul_pd_t &pd, const char *who);

// Where an entry on a tensor of `md`'s dims finds a position's value.
struct quant_index_t {
    dim_t group[DNNL_MAX_NDIMS] = {}, mul[DNNL_MAX_NDIMS] = {};
    dim_t count = 1; // values in the entry's tensor
    void init(const quant_entry_t &e, const memory_desc_t &md);
    dim_t at(const dim_t *pos, int nd) const {
        dim_t i = 0;
        for (int d = 0; d < nd; ++d) i += pos[d] / group[d] * mul[d];
        return i;
    }
};

} // namespace impl
} // namespace dnnl
