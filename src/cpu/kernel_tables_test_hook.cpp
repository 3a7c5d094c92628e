// Test hooks over every CPU kernel table (exported as dnnl_test_*, like
// the primitive cache's): tests/cpu/test_kernel_tables.cpp runs each
// entry the processor supports against naive references, whatever the
// library would pick. The structures behind the pointers are those of the
// families' headers.
#include <string>

#include "cpu/tensor_walk/rows.hpp"
#include "cpu/convolution/conv_kernels.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"
#include "cpu/gemm/gemm_pack.hpp"
#include "cpu/gemm/gemm_ukernels.hpp"
#include "cpu/lrn/lrn_kernels.hpp"
#include "cpu/matmul/brgemm_matmul_pack.hpp"
#include "cpu/norm_kernels/norm_kernels.hpp"
#include "cpu/pooling/pooling_fast.hpp"
#include "cpu/reorder/simple_exec.hpp"
#include "cpu/resampling/resampling_kernels.hpp"
#include "cpu/rnn/rnn_cells.hpp"
#include "cpu/softmax/softmax_kernels.hpp"

using namespace dnnl::impl::cpu;

namespace {

// Entry i of a table: its kernels and ISA, or null past the end. `sel`
// (when not null) gets the index select_*() picks (-1: none may run).
template <typename K>
const void *entry(const isa_table_t<K> &t, int i, unsigned *isa, int *sel) {
    if (sel) {
        const K *k = isa_select(t);
        *sel = -1;
        for (size_t j = 0; j < t.size(); ++j)
            if (t[j].kernels == k) *sel = (int)j;
    }
    if (i < 0 || (size_t)i >= t.size()) return nullptr;
    if (isa) *isa = t[(size_t)i].isa;
    return t[(size_t)i].kernels;
}

} // namespace

// Families: eltwise, softmax, lrn, resampling, norm, rows, pooling,
// reorder, conv, gemm_f32, gemm_gemv, gemm_s32, gemm_bf16, gemm_s32c4,
// gemm_s32_small_m, gemm_pack_pairs, rnn_cells, matmul_pack.
DNNL_API const void *dnnl_test_cpu_kernel_table_entry(
        const char *family, int i, unsigned *isa, int *selected);

const void *dnnl_test_cpu_kernel_table_entry(
        const char *family, int i, unsigned *isa, int *selected) {
    const std::string f(family ? family : "");
    if (f == "eltwise") return entry(eltwise::kernel_table(), i, isa, selected);
    if (f == "softmax") return entry(softmax::kernel_table(), i, isa, selected);
    if (f == "lrn") return entry(lrn::kernel_table(), i, isa, selected);
    if (f == "resampling")
        return entry(resampling::kernel_table(), i, isa, selected);
    if (f == "norm") return entry(norm::kernel_table(), i, isa, selected);
    if (f == "rows") return entry(rows::kernel_table(), i, isa, selected);
    if (f == "pooling")
        return entry(pooling::fast_kernel_table(), i, isa, selected);
    if (f == "reorder")
        return entry(reorder::exec_kernel_table(), i, isa, selected);
    if (f == "conv") return entry(conv::conv_kernel_table(), i, isa, selected);
    if (f == "gemm_f32")
        return entry(gemm::f32_ukernel_table(), i, isa, selected);
    if (f == "gemm_gemv") return entry(gemm::f32_gemv_table(), i, isa, selected);
    if (f == "gemm_s32")
        return entry(gemm::s32_ukernel_table(), i, isa, selected);
    if (f == "gemm_bf16")
        return entry(gemm::bf16_ukernel_table(), i, isa, selected);
    if (f == "gemm_s32c4")
        return entry(gemm::s32c4_ukernel_table(), i, isa, selected);
    if (f == "gemm_s32_small_m")
        return entry(gemm::s32_small_m_table(), i, isa, selected);
    if (f == "rnn_cells") return entry(rnn::cell_kernel_table(), i, isa, selected);
    if (f == "gemm_pack_pairs")
        return entry(gemm::pack_pairs_table(), i, isa, selected);
    if (f == "matmul_pack")
        return entry(matmul::pack_kernel_table(), i, isa, selected);
    return nullptr;
}

// Whether the processor (ignoring the library's limit and hints) can run
// code compiled for `isa`.
DNNL_API bool dnnl_test_cpu_isa_entry_supported(unsigned isa);

bool dnnl_test_cpu_isa_entry_supported(unsigned isa) {
    return isa_entry_may_run((cpu_isa_t)isa, /*limited=*/false, /*soft=*/true);
}
