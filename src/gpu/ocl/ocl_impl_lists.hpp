// The OpenCL engine's implementation lists, one per primitive kind, each
// ordered and null-terminated (first match wins). A primitive family
// defines its list function in its own folder (src/gpu/ocl/<family>/);
// families not written yet keep a weak empty list, so creation on the gpu
// engine answers dnnl_unimplemented with a create:check verbose line.
#pragma once

#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

const impl_list_item_t *reorder_impl_list();
const impl_list_item_t *concat_impl_list();
const impl_list_item_t *sum_impl_list();
const impl_list_item_t *eltwise_impl_list();
const impl_list_item_t *binary_impl_list();
const impl_list_item_t *softmax_impl_list();
const impl_list_item_t *pooling_impl_list();
const impl_list_item_t *lrn_impl_list();
const impl_list_item_t *batch_normalization_impl_list();
const impl_list_item_t *layer_normalization_impl_list();
const impl_list_item_t *group_normalization_impl_list();
const impl_list_item_t *shuffle_impl_list();
const impl_list_item_t *resampling_impl_list();
const impl_list_item_t *prelu_impl_list();
const impl_list_item_t *reduction_impl_list();
const impl_list_item_t *matmul_impl_list();
const impl_list_item_t *inner_product_impl_list();
const impl_list_item_t *convolution_impl_list();
const impl_list_item_t *deconvolution_impl_list();
const impl_list_item_t *rnn_impl_list();

// The list for a primitive kind (an empty list for unknown kinds).
const impl_list_item_t *impl_list_for(primitive_kind_t kind);

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
