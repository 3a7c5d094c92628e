// The CPU eltwise implementation list: generated code for dense f32
// forward first, the compiled vectorised dense kernels next, the generic
// walk over any layouts last.
#include "cpu/cpu_impl_lists.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/eltwise/eltwise_jit.hpp"
#include "cpu/eltwise/eltwise_ref.hpp"
#include "cpu/eltwise/eltwise_simd.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

const impl_list_item_t *eltwise_impl_list() {
    using namespace eltwise;
    static const impl_list_item_t list[] = {
            {create_pd<jit_eltwise_fwd_t::pd_t, eltwise_desc_t>},
            {create_pd<simd_eltwise_fwd_t::pd_t, eltwise_desc_t>},
            {create_pd<simd_eltwise_bwd_t::pd_t, eltwise_desc_t>},
            {create_pd<ref_eltwise_fwd_t::pd_t, eltwise_desc_t>},
            {create_pd<ref_eltwise_bwd_t::pd_t, eltwise_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
