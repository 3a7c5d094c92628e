// The OpenCL engine's table from primitive kind to implementation list,
// and weak empty lists for the families that have none yet.
#include "gpu/ocl/ocl_impl_lists.hpp"

#include "common/verbose.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

static const impl_list_item_t empty_list[] = {{nullptr}};

#define DNNL_OCL_WEAK_EMPTY_LIST(name) \
    __attribute__((weak)) const impl_list_item_t *name() { return empty_list; }
DNNL_OCL_WEAK_EMPTY_LIST(reorder_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(concat_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(sum_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(eltwise_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(binary_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(softmax_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(pooling_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(lrn_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(batch_normalization_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(layer_normalization_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(group_normalization_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(shuffle_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(resampling_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(prelu_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(reduction_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(matmul_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(inner_product_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(convolution_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(deconvolution_impl_list)
DNNL_OCL_WEAK_EMPTY_LIST(rnn_impl_list)
#undef DNNL_OCL_WEAK_EMPTY_LIST

const impl_list_item_t *impl_list_for(primitive_kind_t kind) {
    using list_f = const impl_list_item_t *(*)();
    static const struct {
        primitive_kind_t kind;
        list_f list;
    } table[] = {
            {dnnl_reorder, reorder_impl_list},
            {dnnl_concat, concat_impl_list},
            {dnnl_sum, sum_impl_list},
            {dnnl_eltwise, eltwise_impl_list},
            {dnnl_binary, binary_impl_list},
            {dnnl_softmax, softmax_impl_list},
            {dnnl_pooling, pooling_impl_list},
            {dnnl_lrn, lrn_impl_list},
            {dnnl_batch_normalization, batch_normalization_impl_list},
            {dnnl_layer_normalization, layer_normalization_impl_list},
            {dnnl_group_normalization, group_normalization_impl_list},
            {dnnl_shuffle, shuffle_impl_list},
            {dnnl_resampling, resampling_impl_list},
            {dnnl_prelu, prelu_impl_list},
            {dnnl_reduction, reduction_impl_list},
            {dnnl_matmul, matmul_impl_list},
            {dnnl_inner_product, inner_product_impl_list},
            {dnnl_convolution, convolution_impl_list},
            {dnnl_deconvolution, deconvolution_impl_list},
            {dnnl_rnn, rnn_impl_list},
    };
    for (const auto &t : table)
        if (t.kind == kind) {
            const impl_list_item_t *list = t.list();
            if (!list[0].create)
                verbose_check(dnnl_prim_kind2str(kind),
                        "gpu engine: no OpenCL implementation of this "
                        "primitive kind yet (unimplemented)");
            return list;
        }
    return empty_list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
