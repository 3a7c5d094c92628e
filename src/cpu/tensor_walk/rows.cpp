// Row kernels: the post-op chain's set-up and the dispatch of the public
// row functions to the per-ISA tables (rows_kernels.cpp, compiled once per
// ISA): plain loops over contiguous arrays, the operation chosen once per
// row, so the compiler vectorises them.
#include "cpu/tensor_walk/rows.hpp"

#include <string>

#include "common/exec_ctx.hpp"
#include "common/math/eltwise_math.hpp"
#include "cpu/kernel_name.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rows {

status_t po_chain_t::init(const post_ops_t &po, const memory_desc_t &dst) {
    entries.clear();
    mds.clear();
    for (size_t i = 0; i < po.entries.size(); ++i) {
        const post_op_t &p = po.entries[i];
        entry_t e{p.kind, p.alg, p.alpha, p.beta, p.scale, (float)p.zero_point,
                dst.data_type, -1, 0};
        const int base_arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        switch (p.kind) {
        case post_op_kind_t::eltwise:
        case post_op_kind_t::sum:
            if (p.kind == post_op_kind_t::sum
                    && p.sum_dt != dnnl_data_type_undef)
                e.sum_dt = p.sum_dt;
            break;
        case post_op_kind_t::binary:
            // Tensors of layout `any` are not resolved here.
            if (p.src1_md.format_kind != dnnl_blocked
                    || (p.alg == dnnl_binary_select
                            && p.src2_md.format_kind != dnnl_blocked))
                return dnnl_unimplemented;
            e.tensor = (int)mds.size();
            e.arg = base_arg | DNNL_ARG_SRC_1;
            mds.push_back(p.src1_md);
            if (p.alg == dnnl_binary_select) {
                e.cond = (int)mds.size();
                e.cond_arg = base_arg | DNNL_ARG_SRC_2;
                mds.push_back(p.src2_md);
            }
            break;
        case post_op_kind_t::prelu: {
            dims_t wd;
            for (int d = 0; d < dst.ndims; ++d)
                wd[d] = ((p.prelu_mask >> d) & 1) ? dst.dims[d] : 1;
            memory_desc_t w;
            DNNL_CHECK(md_init_by_strides(w, dst.ndims, wd, dnnl_f32, nullptr));
            e.tensor = (int)mds.size();
            e.arg = base_arg | DNNL_ARG_WEIGHTS;
            mds.push_back(w);
            break;
        }
        default:
            return dnnl_unimplemented;
        }
        entries.push_back(e);
    }
    return dnnl_success;
}

bool po_chain_t::has_sum() const {
    for (const auto &e : entries)
        if (e.kind == post_op_kind_t::sum) return true;
    return false;
}

status_t po_chain_t::pointers(
        const exec_ctx_t &ctx, std::vector<const void *> &ptrs) const {
    ptrs.assign(mds.size(), nullptr);
    for (const auto &e : entries) {
        if (e.tensor < 0) continue;
        ptrs[e.tensor] = ctx.host_ptr(e.arg);
        if (!ptrs[e.tensor]) return dnnl_invalid_arguments;
        if (e.cond < 0) continue;
        ptrs[e.cond] = ctx.host_ptr(e.cond_arg);
        if (!ptrs[e.cond]) return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

namespace {
const kernels_t &table() {
    static const kernels_t &k = select_kernels();
    return k;
}
} // namespace

std::string impl_name(const std::string &dt, const char *op, const char *walk) {
    return "simd:"
            + kernel_name(dt, std::string(op) + "_" + walk, table().isa);
}

const float *load(const row_t &r, dim_t n, float *buf) {
    return table().load(r, n, buf);
}
void store(const row_t &r, const float *v, dim_t n) {
    table().store(r, v, n);
}
const float *scale(
        const float *v, dim_t n, bool is_scalar, float s, float *buf) {
    return table().scale(v, n, is_scalar, s, buf);
}
void binary(alg_kind_t alg, const float *a, bool as, const float *b, bool bs,
        const float *c, bool cs, float *d, dim_t n) {
    table().binary(alg, a, as, b, bs, c, cs, d, n);
}
void binary_block(alg_kind_t alg, const float *a, dim_t sa, bool as,
        const float *b, dim_t sb, bool bs, float *d, dim_t M, dim_t L) {
    table().binary_block(alg, a, sa, as, b, sb, bs, d, M, L);
}
void prelu_block(const float *x, dim_t sx, const float *w, dim_t sw, float *y,
        dim_t M, dim_t L) {
    table().prelu_block(x, sx, w, sw, y, M, L);
}
bool binary_half(alg_kind_t alg, data_type_t dt, const void *a, bool as,
        const void *b, bool bs, void *d, dim_t n) {
    return table().binary_half(alg, dt, a, as, b, bs, d, n);
}
float reduce_run(int comb, int tr, const float *x, dim_t n, float p, float v) {
    return table().reduce_run(comb, tr, x, n, p, v);
}
void reduce_lanes(
        int comb, int tr, const float *x, dim_t n, float p, float *acc) {
    table().reduce_lanes(comb, tr, x, n, p, acc);
}
void gather32(const uint32_t *in, const int32_t *idx, uint32_t *out, dim_t n) {
    table().gather32(in, idx, out, n);
}
void prelu_fwd(
        const float *x, const float *w, bool w_scalar, float *y, dim_t n) {
    table().prelu_fwd(x, w, w_scalar, y, n);
}
void prelu_bwd(const float *x, const float *w, bool w_scalar, const float *dd,
        float *ds, float *c, dim_t n) {
    table().prelu_bwd(x, w, w_scalar, dd, ds, c, n);
}
void eltwise(alg_kind_t alg, float a, float b, float s, float *v, dim_t n) {
    table().eltwise(alg, a, b, s, v, n);
}
void apply(const po_chain_t &c, float *v, dim_t n, const row_t *t,
        const row_t &old, float *buf) {
    table().apply(c, v, n, t, old, buf);
}

} // namespace rows
} // namespace cpu
} // namespace impl
} // namespace dnnl
