// Ordered implementation lists of the CPU engine, one per primitive kind.
// Each list is null-terminated; the first entry that accepts a problem wins
// (fastest first, the generic implementation last). A primitive family
// defines its list function in its own folder; until it lands, a weak
// empty list (cpu_impl_lists.cpp) makes creation answer dnnl_unimplemented.
#pragma once

#include "common/primitive_desc.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

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

} // namespace cpu
} // namespace impl
} // namespace dnnl
