// The CPU matmul implementation list (overrides the weak empty default).
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/matmul/blocked_matmul.hpp"
#include "cpu/matmul/brgemm_matmul.hpp"
#include "cpu/matmul/decompress_matmul.hpp"
#include "cpu/matmul/dropout_matmul.hpp"
#include "cpu/matmul/gemm_matmul.hpp"
#include "cpu/matmul/grouped_matmul.hpp"
#include "cpu/matmul/ref_quant_matmul.hpp"
#include "cpu/matmul/sparse_matmul.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

const impl_list_item_t *matmul_impl_list() {
    static const impl_list_item_t list[] = {
            // Only for the dropout attribute (the iterator skips the others).
            {create_pd<matmul::dropout_matmul_pd_t, matmul_desc_t>},
            // Only for a sparse source or sparse weights.
            {create_pd<matmul::sparse_matmul_t::pd_t, matmul_desc_t>},
            // Only for a grouped source and destination.
            {create_pd<matmul::grouped_matmul_t::pd_t, matmul_desc_t>},
            {create_pd<matmul::brgemm_matmul_t::pd_t, matmul_desc_t>},
            {create_pd<matmul::gemm_matmul_t::pd_t, matmul_desc_t>},
            {create_pd<matmul::decompress_matmul_pd_t, matmul_desc_t>},
            // Integer data with the quantization grid the above refuse.
            {create_pd<matmul::ref_quant_matmul_t::pd_t, matmul_desc_t>},
            // Only for blocked layouts: dense copies around the above.
            {create_pd<matmul::blocked_matmul_pd_t, matmul_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
