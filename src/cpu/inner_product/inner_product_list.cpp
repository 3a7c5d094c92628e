// The CPU inner product implementation list (overrides the weak empty
// default).
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/inner_product/blocked_inner_product.hpp"
#include "cpu/inner_product/brgemm_inner_product.hpp"
#include "cpu/inner_product/gemm_inner_product.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

const impl_list_item_t *inner_product_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<inner_product::brgemm_inner_product_pd_t,
                    inner_product_desc_t>},
            {create_pd<inner_product::gemm_inner_product_t::pd_t,
                    inner_product_desc_t>},
            // Blocked tensors the above refuse: dense copies around them.
            {create_pd<inner_product::blocked_inner_product_pd_t,
                    inner_product_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
