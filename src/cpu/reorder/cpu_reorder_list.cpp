// The CPU reorder implementation list: the int8 RNN quantizing reorder
// (which alone takes RNN quantization parameters), the fast planner, the
// generic loop last.
#include "common/op_desc.hpp"
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/reorder/ref_reorder.hpp"
#include "cpu/reorder/rnn_quant_reorder.hpp"
#include "cpu/reorder/simple_reorder.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

const impl_list_item_t *reorder_impl_list() {
    static const impl_list_item_t list[] = {
            // Only requests with RNN quantization parameters.
            {create_pd<reorder::rnn_quant_reorder_t::pd_t, reorder_desc_t>},
            {create_pd<reorder::simple_reorder_t::pd_t, reorder_desc_t>},
            {create_pd<reorder::ref_reorder_t::pd_t, reorder_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
