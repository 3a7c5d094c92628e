// Queries that batch, layer and group normalization descriptors answer
// alike: propagation kind, epsilon, flags, and the data, statistics and
// scale/shift descriptors. Mean and variance are src index 1 and 2 when the
// primitive reads them and dst index 1 and 2 when it writes them, as oneDNN
// reports them.
#pragma once

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {

struct norm_query_view_t {
    prop_kind_t prop;
    float epsilon;
    unsigned flags;
    const memory_desc_t *src, *dst, *stat, *ss, *diff_ss;
    bool is_fwd, stats_in, stats_out;
    bool with_ss, with_diff_ss;
    int ss_max_index; // highest index the (diff) weights queries answer
};

// dnnl_success with `result` filled, or dnnl_unimplemented for a query the
// caller answers itself.
status_t norm_query(const norm_query_view_t &v, query_t what, int index,
        void *result);

} // namespace impl
} // namespace dnnl
