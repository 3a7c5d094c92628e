// C API: binary primitive descriptor creation (two sources, and the
// three-source select through the _v2 creator). Shape errors are
// dnnl_invalid_arguments; valid requests the library cannot serve
// (runtime dims, unsupported attributes) are dnnl_unimplemented.
#include "api/c_enum.hpp"
#include "common/binary_pd.hpp"
#include "common/engine.hpp"
#include "common/math/eltwise_math.hpp"
#include "common/primitive_iface.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

status_t check_attr(const primitive_attr_t *attr, const memory_desc_t &dst) {
    if (!attr) return dnnl_success;
    if (!attr->zero_points.empty() || !attr->rounding_modes.empty()) {
        verbose_check("binary", "unsupported attribute");
        return dnnl_unimplemented;
    }
    for (const auto &it : attr->scales.items) {
        if ((it.arg != DNNL_ARG_SRC_0 && it.arg != DNNL_ARG_SRC_1)
                || it.e.mask != 0) {
            verbose_check("binary", "unsupported scales configuration");
            return dnnl_unimplemented;
        }
    }
    const status_t po_st = po_check::check(attr->post_ops, dst,
            po_check::eltwise | po_check::sum | po_check::binary);
    if (po_st != dnnl_success) {
        verbose_check("binary", "unsupported post-op");
        return po_st;
    }
    return dnnl_success;
}

status_t create(dnnl_primitive_desc_t *pd, dnnl_engine_t engine, alg_kind_t alg,
        const memory_desc_t *src0, const memory_desc_t *src1,
        const memory_desc_t *src2, const memory_desc_t *dst,
        const primitive_attr_t *attr) {
    if (!pd || !engine) return dnnl_invalid_arguments;
    if (!math::is_binary_alg(alg)) {
        verbose_check("binary", "bad algorithm");
        return dnnl_invalid_arguments;
    }
    const bool ternary = alg == dnnl_binary_select;
    if (!src0 || !src1 || !dst || (ternary && !src2)) {
        verbose_check("binary", "null memory descriptor");
        return dnnl_invalid_arguments;
    }
    if (src0->format_kind == dnnl_format_kind_any) {
        verbose_check("binary", "src0 format_kind any is not allowed");
        return dnnl_invalid_arguments;
    }
    const int nd = dst->ndims;
    if (nd <= 0 || src0->ndims != nd || src1->ndims != nd
            || (ternary && src2->ndims != nd)) {
        verbose_check("binary", "inconsistent number of dimensions");
        return dnnl_invalid_arguments;
    }
    if (md_has_runtime_dims_or_strides(*src0)
            || md_has_runtime_dims_or_strides(*src1)
            || md_has_runtime_dims_or_strides(*dst)
            || (ternary && md_has_runtime_dims_or_strides(*src2))) {
        verbose_check("binary", "runtime dimensions are not supported");
        return dnnl_unimplemented;
    }
    if (ternary && src2->data_type != dnnl_s8) {
        verbose_check("binary", "select condition must be s8");
        return dnnl_invalid_arguments;
    }
    for (int d = 0; d < nd; ++d) {
        const dim_t n = dst->dims[d];
        const bool ok0 = src0->dims[d] == n || src0->dims[d] == 1;
        const bool ok1 = src1->dims[d] == n || src1->dims[d] == 1;
        const bool ok2 = !ternary || src2->dims[d] == n || src2->dims[d] == 1;
        // src0 and src1 never both broadcast in a dim of dst.
        const bool pair = src0->dims[d] == n || src1->dims[d] == n;
        if (!ok0 || !ok1 || !ok2 || !pair) {
            verbose_check("binary", "inconsistent dimension %d", d);
            return dnnl_invalid_arguments;
        }
    }

    binary_desc_t bd;
    bd.alg_kind = alg;
    bd.src_desc[0] = *src0;
    bd.src_desc[1] = *src1;
    bd.src_desc[2] = ternary ? *src2 : zero_md();
    bd.dst_desc = *dst;
    DNNL_CHECK(check_attr(attr, *dst));
    return dnnl_primitive_desc::create(pd, bd, attr, engine, nullptr);
}

} // namespace

dnnl_status_t dnnl_binary_primitive_desc_create(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t src0_desc,
        const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t dst_desc,
        const_dnnl_primitive_attr_t attr) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    if (alg_kind == dnnl_binary_select) {
        verbose_check("binary", "select needs a condition source (_v2)");
        return dnnl_invalid_arguments;
    }
    return create(primitive_desc, engine, alg_kind, src0_desc, src1_desc,
            nullptr, dst_desc, attr);
}

dnnl_status_t dnnl_binary_primitive_desc_create_v2(
        dnnl_primitive_desc_t *primitive_desc, dnnl_engine_t engine,
        dnnl_alg_kind_t alg_kind_arg, const_dnnl_memory_desc_t src0_desc,
        const_dnnl_memory_desc_t src1_desc, const_dnnl_memory_desc_t src2_desc,
        const_dnnl_memory_desc_t dst_desc, const_dnnl_primitive_attr_t attr) {
    const dnnl_alg_kind_t alg_kind = checked(alg_kind_arg, dnnl_alg_kind_undef);
    return create(primitive_desc, engine, alg_kind, src0_desc, src1_desc,
            src2_desc, dst_desc, attr);
}
