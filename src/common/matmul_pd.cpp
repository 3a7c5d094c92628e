// Matmul descriptor validation (shapes, broadcast, data types, attribute
// kinds) and the primitive descriptor base: argument mapping, queries
// and `any` resolution.
#include "common/matmul_pd.hpp"

#include "common/sparse_md.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {

constexpr dim_t rt = DNNL_RUNTIME_DIM_VAL;

bool is_int8(data_type_t dt) { return dt == dnnl_s8 || dt == dnnl_u8; }

// oneDNN's default accumulation type of a forward matmul.
data_type_t matmul_accum_type(data_type_t src, data_type_t wei) {
    if (is_int8(src) && is_int8(wei)) return dnnl_s32;
    if (src == dnnl_f64 && wei == dnnl_f64) return dnnl_f64;
    auto fp = [](data_type_t dt) {
        return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16
                || dt == dnnl_f8_e5m2 || dt == dnnl_f8_e4m3;
    };
    if (fp(src) && (fp(wei) || is_int8(wei) || wei == dnnl_s4 || wei == dnnl_u4))
        return dnnl_f32;
    return dnnl_data_type_undef;
}

bool known_dt(data_type_t dt) {
    switch (dt) {
        case dnnl_f32:
        case dnnl_bf16:
        case dnnl_f16:
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_s32:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3:
        case dnnl_s4:
        case dnnl_u4:
        case dnnl_f64: return true;
        default: return false;
    }
}

// Source and weights may be sparse (CSR, COO or packed); implementations
// decide which sparse cases they take.
bool md_ok(const memory_desc_t &md, bool sparse_ok = false) {
    return md.ndims >= 0 && md.ndims <= DNNL_MAX_NDIMS && known_dt(md.data_type)
            && (md.format_kind == dnnl_blocked
                    || md.format_kind == dnnl_format_kind_any
                    || (sparse_ok && md.format_kind == dnnl_format_kind_sparse));
}

status_t grouped_refuse(const char *why) {
    verbose_check("matmul", "grouped: %s", why);
    return dnnl_unimplemented;
}

// oneDNN 3.13's grouped GEMM (its experimental mixture-of-experts
// matmul): a grouped source [total_M, K] and destination [total_M, N]
// split into the same groups along M, dense weights [G, K, N] (abc or
// acb), an optional dense bias [G, N]. Every refusal is unimplemented, as
// oneDNN answers.
status_t grouped_matmul_desc_init(matmul_desc_t &out,
        const memory_desc_t &src, const memory_desc_t &wei,
        const memory_desc_t *bias, const memory_desc_t &dst) {
    if (src.format_kind == dnnl_format_kind_host_scalar
            || wei.format_kind == dnnl_format_kind_host_scalar
            || dst.format_kind == dnnl_format_kind_host_scalar) {
        verbose_check("matmul", "grouped: host-scalar memory descriptor");
        return dnnl_invalid_arguments;
    }
    if (!md_is_grouped(dst))
        return grouped_refuse("the destination must be grouped too");
    if (wei.format_kind == dnnl_format_kind_sparse)
        return grouped_refuse("the weights must be dense");
    if (!md_matches_tag(wei, dnnl_abc) && !md_matches_tag(wei, dnnl_acb))
        return grouped_refuse("weights must be abc or acb");
    const auto &gs = src.format_desc.sparse_desc;
    const auto &gd = dst.format_desc.sparse_desc;
    const dim_t groups = gs.grouped_desc.group_count;
    if (gd.grouped_desc.group_count != groups
            || gd.grouped_desc.variable_dim_idx
                    != gs.grouped_desc.variable_dim_idx)
        return grouped_refuse("source and destination groups differ");
    if (wei.ndims != 3 || wei.dims[0] != groups)
        return grouped_refuse("weights must be [groups, K, N]");
    if (gs.metadata_types[0] != dnnl_s32 || gd.metadata_types[0] != dnnl_s32)
        return grouped_refuse("offsets must be s32");
    if (src.ndims != 2 || dst.ndims != 2)
        return grouped_refuse("source and destination must be 2D");
    if (src.dims[0] != dst.dims[0] || src.dims[1] != wei.dims[1]
            || dst.dims[1] != wei.dims[2])
        return grouped_refuse("inconsistent M, K or N");
    const bool with_bias = bias && bias->ndims != 0;
    if (with_bias
            && (bias->format_kind == dnnl_format_kind_sparse
                    || bias->ndims != 2 || bias->dims[0] != groups
                    || bias->dims[1] != dst.dims[1]))
        return grouped_refuse("bias must be dense [groups, N]");
    const data_type_t acc = matmul_accum_type(src.data_type, wei.data_type);
    if (acc == dnnl_data_type_undef)
        return grouped_refuse("unsupported data type combination");
    out.src_desc = src;
    out.weights_desc = wei;
    if (with_bias) out.bias_desc = *bias;
    out.dst_desc = dst;
    out.accum_data_type = acc;
    return dnnl_success;
}

} // namespace

status_t matmul_desc_init(matmul_desc_t &out, const memory_desc_t *src,
        const memory_desc_t *wei, const memory_desc_t *bias,
        const memory_desc_t *dst) {
    if (!src || !wei || !dst) {
        verbose_check("matmul", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    const bool with_bias = bias && bias->ndims != 0;
    if (md_is_grouped(*src))
        return grouped_matmul_desc_init(out, *src, *wei, bias, *dst);
    for (const memory_desc_t *md : {wei, dst, bias})
        if (md && md_is_grouped(*md)) {
            verbose_check("matmul",
                    "grouped memory: only a grouped source and "
                    "destination are supported");
            return dnnl_unimplemented;
        }
    const int nd = dst->ndims;
    if (nd < 2 || nd > DNNL_MAX_NDIMS) {
        verbose_check("matmul", "bad dst ndims %d", nd);
        return dnnl_invalid_arguments;
    }
    if (src->ndims != nd || wei->ndims != nd) {
        verbose_check("matmul", "inconsistent ndims of src, weights and dst");
        return dnnl_invalid_arguments;
    }
    if (with_bias && bias->ndims != nd) {
        verbose_check("matmul", "bad bias ndims %d", bias->ndims);
        return dnnl_invalid_arguments;
    }
    if (!md_ok(*src, true) || !md_ok(*wei, true) || !md_ok(*dst)
            || (with_bias && !md_ok(*bias))) {
        verbose_check("matmul", "bad memory descriptor");
        return dnnl_invalid_arguments;
    }
    const int m = nd - 2, n = nd - 1;
    if (dst->dims[m] != src->dims[m] || dst->dims[n] != wei->dims[n]
            || src->dims[n] != wei->dims[m]) {
        verbose_check("matmul", "inconsistent M, N or K");
        return dnnl_invalid_arguments;
    }
    if (with_bias
            && ((bias->dims[n] != 1 && bias->dims[n] != dst->dims[n])
                    || (bias->dims[m] != 1 && bias->dims[m] != dst->dims[m]))) {
        verbose_check("matmul", "bias does not broadcast to dst");
        return dnnl_invalid_arguments;
    }
    for (int d = 0; d < nd; ++d) {
        const dim_t dims[] = {src->dims[d], wei->dims[d], dst->dims[d]};
        for (dim_t v : dims)
            if (v < 0 && v != rt) {
                verbose_check("matmul", "negative dimension");
                return dnnl_invalid_arguments;
            }
        if (with_bias && bias->dims[d] < 0 && bias->dims[d] != rt) {
            verbose_check("matmul", "negative bias dimension");
            return dnnl_invalid_arguments;
        }
    }
    for (int d = 0; d < nd - 2; ++d) {
        const dim_t s = src->dims[d], w = wei->dims[d], o = dst->dims[d];
        const dim_t b = with_bias ? bias->dims[d] : 0;
        if (s == rt || w == rt || o == rt || b == rt) {
            const bool bias_bcast = with_bias && b != 1;
            if (!(s == rt && w == rt && o == rt) || (bias_bcast && b != rt)) {
                verbose_check("matmul", "inconsistent runtime dim %d", d);
                return dnnl_invalid_arguments;
            }
            continue;
        }
        if (!(s == w && w == o) && s != 1 && w != 1) {
            verbose_check("matmul", "invalid broadcast of dim %d", d);
            return dnnl_invalid_arguments;
        }
        if ((s == 1 && o != w) || (w == 1 && o != s)) {
            verbose_check("matmul", "invalid broadcast of dim %d", d);
            return dnnl_invalid_arguments;
        }
        if (with_bias && b != 1 && b != o) {
            verbose_check("matmul", "bias does not broadcast to dst");
            return dnnl_invalid_arguments;
        }
    }
    const data_type_t acc = matmul_accum_type(src->data_type, wei->data_type);
    if (acc == dnnl_data_type_undef) {
        verbose_check("matmul", "unsupported data type combination");
        return dnnl_invalid_arguments;
    }
    // `out` is fresh: its bias descriptor is zero already.
    out.src_desc = *src;
    out.weights_desc = *wei;
    if (with_bias) out.bias_desc = *bias;
    out.dst_desc = *dst;
    out.accum_data_type = acc;
    return dnnl_success;
}

status_t matmul_attr_check(const matmul_desc_t &md, const primitive_attr_t *attr) {
    if (!attr) return dnnl_success;
    const int nd = md.dst_desc.ndims;
    const bool int8 = is_int8(md.src_desc.data_type);
    const int src_k = 1 << (nd - 1), src_m = 1 << (nd - 2);
    for (const auto &it : attr->scales.items) {
        const int arg = it.arg;
        if (arg != DNNL_ARG_SRC && arg != DNNL_ARG_WEIGHTS && arg != DNNL_ARG_DST) {
            verbose_check("matmul", "scales for an unsupported argument");
            return dnnl_unimplemented;
        }
        if (arg == DNNL_ARG_SRC && it.e.mask != 0 && it.e.mask != src_k
                && it.e.mask != (src_k | src_m)) {
            verbose_check("matmul", "unsupported src scales mask");
            return dnnl_unimplemented;
        }
    }
    // As oneDNN: a sum post-op's zero point belongs to int8 computations.
    for (const auto &e : attr->post_ops.entries)
        if (e.kind == post_op_kind_t::sum && e.zero_point != 0 && !int8) {
            verbose_check("matmul", "sum zero point needs an int8 source");
            return dnnl_unimplemented;
        }
    for (const auto &it : attr->zero_points.items) {
        const int arg = it.arg;
        const bool wei_int = is_int8(md.weights_desc.data_type)
                || md.weights_desc.data_type == dnnl_s4
                || md.weights_desc.data_type == dnnl_u4;
        if (!int8 && !(arg == DNNL_ARG_WEIGHTS && wei_int)) {
            verbose_check("matmul", "zero points need integer data");
            return dnnl_unimplemented;
        }
        if (arg != DNNL_ARG_SRC && arg != DNNL_ARG_WEIGHTS && arg != DNNL_ARG_DST) {
            verbose_check("matmul", "zero points for an unsupported argument");
            return dnnl_unimplemented;
        }
        if (arg == DNNL_ARG_SRC && it.e.mask != 0 && it.e.mask != src_k
                && it.e.mask != (src_k | src_m)) {
            verbose_check("matmul", "unsupported src zero points mask");
            return dnnl_unimplemented;
        }
    }
    for (const auto &e : attr->post_ops.entries) {
        if (e.kind == post_op_kind_t::dw_conv) {
            verbose_check("matmul", "unsupported post-op");
            return dnnl_unimplemented;
        }
        if (e.kind == post_op_kind_t::sum && e.sum_dt != dnnl_data_type_undef
                && data_type_size(e.sum_dt) != data_type_size(md.dst_desc.data_type)) {
            verbose_check("matmul", "sum data type size differs from dst's");
            return dnnl_unimplemented;
        }
    }
    return dnnl_success;
}

bool matmul_pd_t::has_runtime_dims_or_strides() const {
    return md_has_runtime_dims_or_strides(src_md_)
            || md_has_runtime_dims_or_strides(weights_md_)
            || md_has_runtime_dims_or_strides(dst_md_)
            || (with_bias() && md_has_runtime_dims_or_strides(bias_md_));
}

// Runtime descriptors are reported by queries but hidden from the
// generic execute-time size checks (which cannot size them); the
// implementation checks the actual memories itself.
const memory_desc_t *matmul_pd_t::arg_md(int arg) const {
    static const memory_desc_t zero = zero_md();
    const memory_desc_t *md = declared_arg_md(arg);
    if (md && md_has_runtime_dims_or_strides(*md)) return &zero;
    return md;
}

const memory_desc_t *matmul_pd_t::declared_arg_md(int arg) const {
    switch (arg) {
        case DNNL_ARG_SRC: return &src_md_;
        case DNNL_ARG_WEIGHTS: return &weights_md_;
        case DNNL_ARG_BIAS: return &bias_md_;
        case DNNL_ARG_DST: return &dst_md_;
        case DNNL_ARG_ATTR_DROPOUT_MASK:
            if (!is_zero_md(dropout_mask_md_)) return &dropout_mask_md_;
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

arg_usage_t matmul_pd_t::arg_usage(int arg) const {
    switch (arg) {
        case DNNL_ARG_SRC:
        case DNNL_ARG_WEIGHTS: return arg_usage_t::input;
        case DNNL_ARG_BIAS:
            return with_bias() ? arg_usage_t::input : arg_usage_t::unused;
        case DNNL_ARG_DST: return arg_usage_t::output;
        default: return primitive_desc_t::arg_usage(arg);
    }
}

status_t matmul_pd_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    static const memory_desc_t zero = zero_md();
    auto ret_md = [&](const memory_desc_t *md) {
        *(const memory_desc_t **)result = md ? md : &zero;
        return dnnl_success;
    };
    switch (what) {
        // No propagation kind (as in oneDNN): the prop_kind query stays
        // unimplemented, which the C++ wrappers read as `undef`.
        case dnnl_query_src_md:
            return ret_md(index == 0 ? &src_md_ : nullptr);
        case dnnl_query_weights_md:
            return ret_md(index == 0 ? &weights_md_
                                     : (index == 1 ? &bias_md_ : nullptr));
        case dnnl_query_dst_md:
            return ret_md(index == 0 ? &dst_md_ : nullptr);
        case dnnl_query_exec_arg_md:
            if (index == DNNL_ARG_SCRATCHPAD) break;
            return ret_md(arg_usage(index) == arg_usage_t::unused
                            ? nullptr
                            : declared_arg_md(index));
        default: break;
    }
    return primitive_desc_t::query(what, index, result);
}

status_t matmul_pd_t::init_formats() {
    auto resolve = [](memory_desc_t &md) -> status_t {
        if (md.format_kind != dnnl_format_kind_any) return dnnl_success;
        memory_desc_t r;
        DNNL_CHECK(md_init_by_strides(r, md.ndims, md.dims, md.data_type, nullptr));
        md = r;
        return dnnl_success;
    };
    DNNL_CHECK(resolve(src_md_));
    DNNL_CHECK(resolve(weights_md_));
    DNNL_CHECK(resolve(dst_md_));
    if (with_bias()) DNNL_CHECK(resolve(bias_md_));
    return dnnl_success;
}

namespace {

// Dense row-major (oneDNN's nc, ncw, nchw, ncdhw).
bool dense_row_major(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked || md.format_desc.blocking.inner_nblks != 0)
        return false;
    dim_t stride = 1;
    for (int d = md.ndims - 1; d >= 0; --d) {
        if (md.dims[d] != 1 && md.format_desc.blocking.strides[d] != stride)
            return false;
        stride *= md.dims[d];
    }
    return true;
}

} // namespace

status_t matmul_pd_t::init_dropout_mask() {
    dropout_mask_md_ = zero_md();
    if (!dense_row_major(dst_md_)) {
        verbose_check("matmul", "dropout needs a dense row-major destination");
        return dnnl_unimplemented;
    }
    const memory_desc_t &um = attr_.dropout.mask_md;
    if (is_zero_md(um)) return dnnl_success;
    bool same = um.ndims == dst_md_.ndims;
    for (int d = 0; same && d < um.ndims; ++d)
        same = um.dims[d] == dst_md_.dims[d];
    if (!same) {
        verbose_check("matmul", "dropout mask dims differ from dst");
        return dnnl_unimplemented;
    }
    memory_desc_t mask = um;
    if (um.format_kind == dnnl_format_kind_any)
        DNNL_CHECK(md_init_by_strides(mask, um.ndims, um.dims, dnnl_u8, nullptr));
    if (!dense_row_major(mask)) {
        verbose_check("matmul", "dropout mask must have dst's layout");
        return dnnl_unimplemented;
    }
    dropout_mask_md_ = mask;
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
