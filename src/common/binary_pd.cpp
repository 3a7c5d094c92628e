// binary_pd_t (argument mapping, queries, `any` resolution) and the post-op
// checks shared by the tensor-wide primitives.
#include "common/binary_pd.hpp"

#include <algorithm>

#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {

namespace po_check {

status_t check(
        const post_ops_t &po, const memory_desc_t &dst, unsigned allowed) {
    int n_sum = 0;
    for (const auto &e : po.entries) {
        switch (e.kind) {
        case post_op_kind_t::eltwise:
            if (!(allowed & eltwise)) return dnnl_unimplemented;
            if (!math::eltwise_is_known_alg(e.alg)
                    || math::eltwise_is_use_dst_alg(e.alg))
                return dnnl_unimplemented;
            break;
        case post_op_kind_t::sum: {
            if (!(allowed & sum) || ++n_sum > 1) return dnnl_unimplemented;
            const data_type_t sdt =
                    e.sum_dt == dnnl_data_type_undef ? dst.data_type : e.sum_dt;
            if (!is_f32_convertible(sdt)
                    || data_type_size(sdt) != data_type_size(dst.data_type))
                return dnnl_unimplemented;
            break;
        }
        case post_op_kind_t::binary: {
            if (!(allowed & binary)) return dnnl_unimplemented;
            if (!math::is_binary_alg(e.alg)) return dnnl_unimplemented;
            // src1, and select's condition: dst's number of dims (else
            // dnnl_invalid_arguments, as oneDNN), each dim dst's or 1.
            for (const memory_desc_t *m : {&e.src1_md, &e.src2_md}) {
                if (m == &e.src2_md && e.alg != dnnl_binary_select) break;
                if (m->ndims != dst.ndims) return dnnl_invalid_arguments;
                // `any` is resolved when the implementation is created.
                if ((m->format_kind != dnnl_format_kind_any
                            && !layout::usable(*m))
                        || !is_f32_convertible(m->data_type))
                    return dnnl_unimplemented;
                for (int d = 0; d < m->ndims; ++d)
                    if (m->dims[d] != 1 && m->dims[d] != dst.dims[d])
                        return dnnl_unimplemented;
            }
            break;
        }
        case post_op_kind_t::prelu:
            if (!(allowed & prelu)) return dnnl_unimplemented;
            break;
        default:
            return dnnl_unimplemented;
        }
    }
    return dnnl_success;
}

int n_binary(const post_ops_t &po) {
    int n = 0;
    for (const auto &e : po.entries)
        if (e.kind == post_op_kind_t::binary) ++n;
    return n;
}

} // namespace po_check

binary_pd_t::binary_pd_t(const binary_desc_t &d, const primitive_attr_t &attr,
        const primitive_desc_t *)
    : primitive_desc_t(d, attr), dst_md_(d.dst_desc) {
    for (int i = 0; i < 3; ++i) src_md_[i] = d.src_desc[i];
}

bool binary_pd_t::with_scale(int i) const {
    return attr_.scales.has(DNNL_ARG_SRC_0 + i);
}

const memory_desc_t *binary_pd_t::arg_md(int arg) const {
    switch (arg) {
    case DNNL_ARG_SRC_0:
        return &src_md_[0];
    case DNNL_ARG_SRC_1:
        return &src_md_[1];
    case DNNL_ARG_SRC_2:
        if (is_ternary()) return &src_md_[2];
        break;
    case DNNL_ARG_DST:
        return &dst_md_;
    default:
        break;
    }
    for (size_t i = 0; i < attr_.post_ops.entries.size(); ++i) {
        const auto &e = attr_.post_ops.entries[i];
        if (e.kind == post_op_kind_t::binary
                && arg
                           == (DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i)
                                   | DNNL_ARG_SRC_1))
            return &e.src1_md;
    }
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t binary_pd_t::arg_usage(int arg) const {
    if (arg == DNNL_ARG_SRC_0 || arg == DNNL_ARG_SRC_1)
        return arg_usage_t::input;
    if (arg == DNNL_ARG_SRC_2 && is_ternary()) return arg_usage_t::input;
    if (arg == DNNL_ARG_DST) return arg_usage_t::output;
    return primitive_desc_t::arg_usage(arg);
}

status_t binary_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
    case dnnl_query_alg_kind:
        *(alg_kind_t *)result = alg();
        return dnnl_success;
    case dnnl_query_num_of_inputs_s32:
        *(int *)result = n_srcs() + po_check::n_binary(attr_.post_ops);
        return dnnl_success;
    case dnnl_query_num_of_outputs_s32:
        *(int *)result = 1;
        return dnnl_success;
    default:
        return primitive_desc_t::query(what, index, result);
    }
}

status_t binary_pd_t::init_formats() {
    if (!layout::usable(src_md_[0])) return dnnl_unimplemented;
    for (int i = 1; i < n_srcs(); ++i)
        if (src_md_[i].format_kind == dnnl_format_kind_any)
            DNNL_CHECK(layout::like(src_md_[i], src_md_[0], src_md_[i].dims,
                    src_md_[i].data_type));
    if (dst_md_.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(layout::like(
                dst_md_, src_md_[0], dst_md_.dims, dst_md_.data_type));
    for (int i = 1; i < n_srcs(); ++i)
        if (!layout::usable(src_md_[i])) return dnnl_unimplemented;
    if (!layout::usable(dst_md_)) return dnnl_unimplemented;
    return dnnl_success;
}

bool binary_pd_t::attr_ok() const {
    const primitive_attr_t &a = attr_;
    if (!a.zero_points.empty() || !a.rounding_modes.empty()) return false;
    for (const auto &it : a.scales.items)
        if ((it.arg != DNNL_ARG_SRC_0 && it.arg != DNNL_ARG_SRC_1)
                || it.e.mask != 0 || it.e.group_ndims != 0
                || !is_f32_convertible(it.e.data_type))
            return false;
    return po_check::check(a.post_ops, dst_md_,
                   po_check::eltwise | po_check::sum | po_check::binary)
           == dnnl_success;
}

} // namespace impl
} // namespace dnnl
