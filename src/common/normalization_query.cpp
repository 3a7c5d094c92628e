// Queries shared by the normalization descriptors (normalization_query.hpp).
#include "common/normalization_query.hpp"

namespace dnnl {
namespace impl {

status_t norm_query(const norm_query_view_t &v, query_t what, int index,
        void *result) {
    static const memory_desc_t zmd = zero_md();
    const bool stats_index = index == 1 || index == 2;
    const bool ss_index = index >= 0 && index <= v.ss_max_index;
    const memory_desc_t *md = nullptr;
    switch (what) {
        case dnnl_query_prop_kind:
            *(prop_kind_t *)result = v.prop;
            return dnnl_success;
        case dnnl_query_epsilon_f32:
            *(float *)result = v.epsilon;
            return dnnl_success;
        case dnnl_query_flags:
            *(unsigned *)result = v.flags;
            return dnnl_success;
        case dnnl_query_src_md:
            if (stats_index) md = v.stats_in ? v.stat : &zmd;
            else if (index == 0) md = v.src;
            break;
        case dnnl_query_dst_md:
            if (stats_index) md = v.stats_out ? v.stat : &zmd;
            else if (index == 0) md = v.is_fwd ? v.dst : &zmd;
            break;
        case dnnl_query_weights_md:
            if (ss_index) md = v.with_ss ? v.ss : &zmd;
            break;
        case dnnl_query_diff_weights_md:
            if (ss_index) md = v.with_diff_ss ? v.diff_ss : &zmd;
            break;
        default: break;
    }
    if (!md) return dnnl_unimplemented;
    *(const memory_desc_t **)result = md;
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
