// primitive_t defaults.
#include "common/primitive.hpp"

namespace dnnl {
namespace impl {

size_t primitive_t::footprint() const {
    const primitive_attr_t *attr = pd_->attr();
    return object_size_ + pd_->object_size() + pd_->op_desc()->size()
            + attr->post_ops.entries.capacity() * sizeof(post_op_t)
            + attr->scales.items.capacity() * sizeof(quant_map_t::item_t)
            + attr->zero_points.items.capacity() * sizeof(quant_map_t::item_t)
            + attr->rounding_modes.capacity() * sizeof(rounding_item_t)
            + pd_->hint_mds().capacity() * sizeof(memory_desc_t);
}

} // namespace impl
} // namespace dnnl
