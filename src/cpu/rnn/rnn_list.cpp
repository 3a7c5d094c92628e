// The CPU RNN implementation list (overrides the weak empty default).
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/rnn/gemm_rnn.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

const impl_list_item_t *rnn_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<rnn::gemm_rnn_t::pd_t, rnn_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
