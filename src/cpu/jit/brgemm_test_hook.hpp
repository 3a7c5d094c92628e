// Test hook of the BRGEMM microkernels (brgemm_test_hook.cpp), declared
// once for the library, tests/cpu/test_brgemm.cpp and
// tools/bench_brgemm_kernel.cpp.
#pragma once

#include <cstddef>

#include "cpu/jit/brgemm_kernel.hpp"
#include "oneapi/dnnl/dnnl_config.h"

// The kernel of brgemm table entry `entry` for an m x n tile (n lanes,
// tail included) reading B panels of b_vecs vectors a row (0: the entry's
// own panel), with the given unroll, beta, bias and post-ops, C and bias
// of data types c_dt and bias_dt (dnnl_data_type_t; 0: f32), scales
// (brgemm_scale_t), A by columns or not (a_kmajor), A and B of the
// entry's input type (u8: u8 x s8): a
// handle for dnnl_test_brgemm_release, with the
// entry's ISA and input type, its panel width in columns, its full
// tile's rows, the function and its code. Null past the table's end or for a
// configuration the generator does not take (in_dt still says the entry's
// type).
DNNL_API const void *dnnl_test_brgemm_kernel(int entry, int m, int n,
        int b_vecs, int k_unroll, int beta, int bias, int c_dt, int bias_dt,
        int scale, int a_kmajor,
        const dnnl::impl::cpu::jit::brgemm_post_op_t *po, int n_po,
        int through_cache, unsigned *isa, int *in_dt, int *panel, int *tile_m,
        dnnl::impl::cpu::jit::brgemm_fn *fn, const unsigned char **code,
        size_t *code_size);
DNNL_API void dnnl_test_brgemm_release(const void *handle);

// Whether this processor runs entries of `isa` (kernel_tables_test_hook.cpp).
DNNL_API bool dnnl_test_cpu_isa_entry_supported(unsigned isa);
