// Inner product descriptor validation, attribute check and the primitive
// descriptor base: argument mapping, queries and `any`
// resolution.
#include "common/inner_product_pd.hpp"

#include <algorithm>

#include "common/binary_pd.hpp" // layout::like
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {

bool is_int8(data_type_t dt) { return dt == dnnl_s8 || dt == dnnl_u8; }
bool is_fp(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16
            || dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3 || dt == dnnl_f64;
}

bool md_ok(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked || md.format_kind == dnnl_format_kind_any;
}

// Dense layout of `md`'s dims with dim 0 outermost and dims 1.. ordered
// like `ref` (largest stride first; ties keep the logical order).
status_t order_like(memory_desc_t &md, const memory_desc_t &ref) {
    int order[DNNL_MAX_NDIMS];
    const int nd = md.ndims;
    for (int d = 0; d < nd; ++d)
        order[d] = d;
    const auto &rs = ref.format_desc.blocking.strides;
    std::stable_sort(order + 1, order + nd,
            [&](int a, int b) { return rs[a] > rs[b]; });
    dims_t strides;
    dim_t s = 1;
    for (int i = nd - 1; i >= 0; --i) {
        strides[order[i]] = s;
        s *= std::max<dim_t>(md.dims[order[i]], 1);
    }
    memory_desc_t r;
    DNNL_CHECK(md_init_by_strides(r, nd, md.dims, md.data_type, strides));
    md = r;
    return dnnl_success;
}

// Whether an inner block of `md` splits dim `d`.
bool blocked_along(const memory_desc_t &md, int d) {
    const auto &b = md.format_desc.blocking;
    for (int i = 0; i < b.inner_nblks; ++i)
        if (b.inner_idxs[i] == d) return true;
    return false;
}

} // namespace

status_t ip_desc_init(inner_product_desc_t &out, prop_kind_t prop,
        const memory_desc_t *src, const memory_desc_t *wei,
        const memory_desc_t *bias, const memory_desc_t *dst) {
    if (!src || !wei || !dst) {
        verbose_check("inner_product", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    if (prop != dnnl_forward_training && prop != dnnl_forward_inference
            && prop != dnnl_backward_data && prop != dnnl_backward_weights) {
        verbose_check("inner_product", "bad propagation kind");
        return dnnl_invalid_arguments;
    }
    const bool with_bias = bias && bias->ndims != 0 && prop != dnnl_backward_data;
    const int nd = src->ndims;
    if (nd < 2 || nd > 5 || wei->ndims != nd || dst->ndims != 2) {
        verbose_check("inner_product", "bad ndims");
        return dnnl_invalid_arguments;
    }
    if (with_bias && bias->ndims != 1) {
        verbose_check("inner_product", "bad bias ndims");
        return dnnl_invalid_arguments;
    }
    if (!md_ok(*src) || !md_ok(*wei) || !md_ok(*dst) || (with_bias && !md_ok(*bias))) {
        verbose_check("inner_product", "bad memory descriptor");
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(*src) || md_has_runtime_dims_or_strides(*wei)
            || md_has_runtime_dims_or_strides(*dst)
            || (with_bias && md_has_runtime_dims_or_strides(*bias))) {
        verbose_check("inner_product", "runtime dimensions are not supported");
        return dnnl_unimplemented;
    }
    for (int d = 0; d < nd; ++d)
        if (src->dims[d] < 0 || wei->dims[d] < 0) {
            verbose_check("inner_product", "negative dimension");
            return dnnl_invalid_arguments;
        }
    // As oneDNN: weights without elements (OC, IC or a spatial dim of 0)
    // are an error, not an empty problem.
    if (md_nelems(*wei) == 0) {
        verbose_check("inner_product", "weights have no elements");
        return dnnl_invalid_arguments;
    }
    if (dst->dims[0] != src->dims[0] || dst->dims[1] != wei->dims[0]
            || (with_bias && bias->dims[0] != dst->dims[1])) {
        verbose_check("inner_product", "inconsistent MB or OC");
        return dnnl_invalid_arguments;
    }
    for (int d = 1; d < nd; ++d)
        if (src->dims[d] != wei->dims[d]) {
            verbose_check("inner_product", "inconsistent IC or spatial dims");
            return dnnl_invalid_arguments;
        }

    const data_type_t sdt = src->data_type, wdt = wei->data_type;
    data_type_t acc = dnnl_data_type_undef;
    if (is_int8(sdt) && is_int8(wdt))
        acc = (prop == dnnl_forward_training || prop == dnnl_forward_inference)
                ? dnnl_s32
                : dnnl_data_type_undef;
    else if (sdt == dnnl_f64 && wdt == dnnl_f64)
        acc = dnnl_f64;
    else if (is_fp(sdt) && is_fp(wdt) && is_fp(dst->data_type))
        acc = dnnl_f32;
    if (acc == dnnl_data_type_undef) {
        verbose_check("inner_product", "unsupported data type combination");
        return dnnl_invalid_arguments;
    }

    out = inner_product_desc_t();
    out.prop_kind = prop;
    out.accum_data_type = acc;
    const memory_desc_t zero = zero_md();
    const memory_desc_t &b = with_bias ? *bias : zero;
    switch (prop) {
        case dnnl_backward_data:
            out.diff_src_desc = *src;
            out.weights_desc = *wei;
            out.diff_dst_desc = *dst;
            break;
        case dnnl_backward_weights:
            out.src_desc = *src;
            out.diff_weights_desc = *wei;
            out.diff_bias_desc = b;
            out.diff_dst_desc = *dst;
            break;
        default:
            out.src_desc = *src;
            out.weights_desc = *wei;
            out.bias_desc = b;
            out.dst_desc = *dst;
            break;
    }
    return dnnl_success;
}

status_t ip_attr_check(const inner_product_desc_t &d, const primitive_attr_t *attr,
        engine_kind_t engine_kind) {
    if (!attr) return dnnl_success;
    const bool fwd = d.prop_kind == dnnl_forward_training
            || d.prop_kind == dnnl_forward_inference;
    if (!fwd) {
        if (!attr->scales.empty() || !attr->zero_points.empty()
                || !attr->post_ops.entries.empty() || !attr->rounding_modes.empty()) {
            verbose_check("inner_product", "unsupported attribute for backward");
            return dnnl_unimplemented;
        }
        return dnnl_success;
    }
    if (!attr->zero_points.empty() || !attr->rounding_modes.empty()) {
        verbose_check("inner_product", "zero points and rounding modes are not supported");
        return dnnl_unimplemented;
    }
    // Scales belong to integer computations, as in oneDNN: an int8 source
    // (on gpu also an integer destination); a floating-point inner product
    // with scales is refused rather than silently given a meaning.
    auto is_int8 = [](data_type_t dt) { return dt == dnnl_s8 || dt == dnnl_u8; };
    const data_type_t ddt = d.dst_desc.data_type;
    const bool int8 = is_int8(d.src_desc.data_type)
            || (engine_kind == dnnl_gpu && (is_int8(ddt) || ddt == dnnl_s32));
    for (const auto &e : attr->post_ops.entries)
        if (e.kind == post_op_kind_t::sum && e.zero_point != 0
                && !is_int8(d.src_desc.data_type)) {
            verbose_check("inner_product", "sum zero point needs an int8 source");
            return dnnl_unimplemented;
        }
    if (!int8 && !attr->scales.empty()) {
        verbose_check("inner_product", "scales need an int8 source");
        return dnnl_unimplemented;
    }
    for (const auto &it : attr->scales.items) {
        // Host-side scalars reach no gpu kernel (oneDNN refuses them here).
        if (engine_kind == dnnl_gpu && it.e.is_on_host) {
            verbose_check("inner_product", "host-side scales on gpu");
            return dnnl_unimplemented;
        }
        const int arg = it.arg, mask = it.e.mask;
        const bool ok = (arg == DNNL_ARG_SRC && mask == 0)
                || (arg == DNNL_ARG_WEIGHTS && (mask == 0 || mask == 1))
                || (arg == DNNL_ARG_DST && mask == 0);
        if (!ok) {
            verbose_check("inner_product", "unsupported scales");
            return dnnl_unimplemented;
        }
    }
    for (const auto &e : attr->post_ops.entries) {
        if (e.kind == post_op_kind_t::dw_conv) {
            verbose_check("inner_product", "unsupported post-op");
            return dnnl_unimplemented;
        }
        if (e.kind == post_op_kind_t::sum && e.sum_dt != dnnl_data_type_undef
                && data_type_size(e.sum_dt) != data_type_size(d.dst_desc.data_type)) {
            verbose_check("inner_product", "sum data type size differs from dst's");
            return dnnl_unimplemented;
        }
    }
    return dnnl_success;
}

inner_product_pd_t::inner_product_pd_t(
        const inner_product_desc_t &d, const primitive_attr_t &attr)
    : primitive_desc_t(d, attr) {
    switch (d.prop_kind) {
        case dnnl_backward_data:
            src_md_ = d.diff_src_desc;
            weights_md_ = d.weights_desc;
            bias_md_ = zero_md();
            dst_md_ = d.diff_dst_desc;
            break;
        case dnnl_backward_weights:
            src_md_ = d.src_desc;
            weights_md_ = d.diff_weights_desc;
            bias_md_ = d.diff_bias_desc;
            dst_md_ = d.diff_dst_desc;
            break;
        default:
            src_md_ = d.src_desc;
            weights_md_ = d.weights_desc;
            bias_md_ = d.bias_desc;
            dst_md_ = d.dst_desc;
            break;
    }
}

dim_t inner_product_pd_t::IC_total() const {
    dim_t k = 1;
    for (int d = 1; d < ndims(); ++d)
        k *= src_md_.dims[d];
    return k;
}

const memory_desc_t *inner_product_pd_t::arg_md(int arg) const {
    const bool fwd = is_fwd(), bd = is_bwd_d(), bw = is_bwd_w();
    switch (arg) {
        case DNNL_ARG_SRC:
            if (!bd) return &src_md_;
            break;
        case DNNL_ARG_DIFF_SRC:
            if (bd) return &src_md_;
            break;
        case DNNL_ARG_WEIGHTS:
            if (!bw) return &weights_md_;
            break;
        case DNNL_ARG_DIFF_WEIGHTS:
            if (bw) return &weights_md_;
            break;
        case DNNL_ARG_BIAS:
            if (fwd) return &bias_md_;
            break;
        case DNNL_ARG_DIFF_BIAS:
            if (bw) return &bias_md_;
            break;
        case DNNL_ARG_DST:
            if (fwd) return &dst_md_;
            break;
        case DNNL_ARG_DIFF_DST:
            if (!fwd) return &dst_md_;
            break;
        default: break;
    }
    const auto &po = attr_.post_ops.entries;
    for (size_t i = 0; i < po.size(); ++i) {
        if (po[i].kind != post_op_kind_t::binary) continue;
        const int base = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        if (arg == (base | DNNL_ARG_SRC_1)) return &po[i].src1_md;
        if (arg == (base | DNNL_ARG_SRC_2) && po[i].alg == dnnl_binary_select)
            return &po[i].src2_md;
    }
    return primitive_desc_t::arg_md(arg);
}

arg_usage_t inner_product_pd_t::arg_usage(int arg) const {
    const bool fwd = is_fwd(), bd = is_bwd_d(), bw = is_bwd_w();
    switch (arg) {
        case DNNL_ARG_SRC: return fwd || bw ? arg_usage_t::input : arg_usage_t::unused;
        case DNNL_ARG_DIFF_SRC: return bd ? arg_usage_t::output : arg_usage_t::unused;
        case DNNL_ARG_WEIGHTS: return fwd || bd ? arg_usage_t::input : arg_usage_t::unused;
        case DNNL_ARG_DIFF_WEIGHTS: return bw ? arg_usage_t::output : arg_usage_t::unused;
        case DNNL_ARG_BIAS:
            return fwd && with_bias() ? arg_usage_t::input : arg_usage_t::unused;
        case DNNL_ARG_DIFF_BIAS:
            return bw && with_bias() ? arg_usage_t::output : arg_usage_t::unused;
        case DNNL_ARG_DST: return fwd ? arg_usage_t::output : arg_usage_t::unused;
        case DNNL_ARG_DIFF_DST: return fwd ? arg_usage_t::unused : arg_usage_t::input;
        default: return primitive_desc_t::arg_usage(arg);
    }
}

status_t inner_product_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    if (what == dnnl_query_prop_kind) {
        *(prop_kind_t *)result = prop();
        return dnnl_success;
    }
    return primitive_desc_t::query(what, index, result);
}

status_t inner_product_pd_t::init_formats(bool allow_blocked) {
    if (allow_blocked
            && (src_md_.format_kind == dnnl_format_kind_any)
                    != (weights_md_.format_kind == dnnl_format_kind_any)) {
        const bool src_any = src_md_.format_kind == dnnl_format_kind_any;
        // One side given blocked: the other follows its blocking.
        memory_desc_t &any = src_any ? src_md_ : weights_md_;
        const memory_desc_t &given = src_any ? weights_md_ : src_md_;
        if (!layout::is_plain(given) && !blocked_along(given, 0)) {
            memory_desc_t r;
            DNNL_CHECK(layout::like(r, given, any.dims, any.data_type));
            any = r;
        }
    }
    const bool src_any = src_md_.format_kind == dnnl_format_kind_any;
    const bool wei_any = weights_md_.format_kind == dnnl_format_kind_any;
    if (src_any && !wei_any && layout::is_plain(weights_md_)) {
        DNNL_CHECK(order_like(src_md_, weights_md_));
    } else if (src_any) {
        memory_desc_t r;
        DNNL_CHECK(md_init_by_strides(r, src_md_.ndims, src_md_.dims,
                src_md_.data_type, nullptr));
        src_md_ = r;
    }
    if (wei_any) {
        if (!layout::is_plain(src_md_)) return dnnl_unimplemented;
        DNNL_CHECK(order_like(weights_md_, src_md_));
    }
    auto plain_any = [](memory_desc_t &md) -> status_t {
        if (md.format_kind != dnnl_format_kind_any) return dnnl_success;
        memory_desc_t r;
        DNNL_CHECK(md_init_by_strides(r, md.ndims, md.dims, md.data_type, nullptr));
        md = r;
        return dnnl_success;
    };
    DNNL_CHECK(plain_any(dst_md_));
    if (with_bias()) DNNL_CHECK(plain_any(bias_md_));
    if (!layout::is_plain(dst_md_)
            || (with_bias() && !layout::is_plain(bias_md_)))
        return dnnl_unimplemented;
    // Rows of src are read with one stride: src may not be blocked along
    // the minibatch; weights may be blocked along OC too.
    for (const memory_desc_t *md : {&src_md_, &weights_md_})
        if (!layout::is_plain(*md)
                && (!allow_blocked || md->format_kind != dnnl_blocked
                        || (md == &src_md_ && blocked_along(*md, 0))))
            return dnnl_unimplemented;
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
