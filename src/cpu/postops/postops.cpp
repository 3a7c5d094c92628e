// The post-op chain: validation against dst, argument lookup and the
// block loops (one tight loop per post-op kind and common algorithm).
#include "cpu/postops/postops.hpp"

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/math/eltwise_math.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace postops {

bool plain_strides(const memory_desc_t &md, dim_t *strides) {
    if (md.format_kind != dnnl_blocked) return false;
    if (md.format_desc.blocking.inner_nblks != 0) return false;
    for (int d = 0; d < md.ndims; ++d)
        strides[d] = md.format_desc.blocking.strides[d];
    return true;
}

status_t bcast_tensor_t::init(const memory_desc_t &md, const memory_desc_t &dst_md) {
    if (md.ndims != dst_md.ndims) return dnnl_unimplemented;
    dims_t s;
    if (!plain_strides(md, s)) return dnnl_unimplemented;
    if (!is_f32_convertible(md.data_type)) return dnnl_unimplemented;
    dt = md.data_type;
    ndims = md.ndims;
    offset0 = md.offset0;
    // Runtime shapes: only the kind of tensor is checked now; the user of
    // the module initialises again with the actual descriptors.
    resolved = !md_has_runtime_dims_or_strides(md)
            && !md_has_runtime_dims_or_strides(dst_md);
    if (!resolved) return dnnl_success;
    for (int d = 0; d < ndims; ++d) {
        if (md.dims[d] == dst_md.dims[d] && md.dims[d] != 1)
            strides[d] = s[d];
        else if (md.dims[d] == 1)
            strides[d] = 0;
        else
            return dnnl_unimplemented;
    }
    return dnnl_success;
}

void bcast_tensor_t::init_by_mask(
        int mask, const memory_desc_t &dst_md, data_type_t data_type) {
    dt = data_type;
    ndims = dst_md.ndims;
    offset0 = 0;
    resolved = !md_has_runtime_dims_or_strides(dst_md);
    dim_t stride = 1;
    for (int d = ndims - 1; d >= 0; --d) {
        const bool on = (mask >> d) & 1;
        strides[d] = on && dst_md.dims[d] != 1 ? stride : 0;
        if (on) stride *= dst_md.dims[d];
    }
}

status_t postops_t::init(const post_ops_t &po, const memory_desc_t &dst_md) {
    entries.clear();
    dst_dt = dst_md.data_type;
    ndims = dst_md.ndims;
    for (size_t i = 0; i < po.entries.size(); ++i) {
        const post_op_t &p = po.entries[i];
        entry_t e;
        e.kind = p.kind;
        e.alg = p.alg;
        e.alpha = p.alpha;
        e.beta = p.beta;
        e.scale = p.scale;
        e.zero_point = p.zero_point;
        const int base = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        switch (p.kind) {
            case post_op_kind_t::eltwise:
                if (!math::eltwise_is_known_alg(p.alg)
                        || math::eltwise_is_use_dst_alg(p.alg))
                    return dnnl_unimplemented;
                break;
            case post_op_kind_t::sum:
                e.sum_dt = p.sum_dt == dnnl_data_type_undef ? dst_dt : p.sum_dt;
                if (!is_f32_convertible(e.sum_dt)
                        || data_type_size(e.sum_dt) != data_type_size(dst_dt))
                    return dnnl_unimplemented;
                break;
            case post_op_kind_t::binary:
                if (!math::is_binary_alg(p.alg)) return dnnl_unimplemented;
                DNNL_CHECK(e.t.init(p.src1_md, dst_md));
                e.arg = base | DNNL_ARG_SRC_1;
                if (p.alg == dnnl_binary_select) {
                    DNNL_CHECK(e.cond.init(p.src2_md, dst_md));
                    e.cond_arg = base | DNNL_ARG_SRC_2;
                }
                break;
            case post_op_kind_t::prelu:
                e.t.init_by_mask(p.prelu_mask, dst_md, dnnl_f32);
                e.arg = base | DNNL_ARG_WEIGHTS;
                break;
            default: return dnnl_unimplemented;
        }
        entries.push_back(e);
    }
    return dnnl_success;
}

bool postops_t::has_sum() const { return sum_index() >= 0; }

int postops_t::sum_index() const {
    for (size_t i = 0; i < entries.size(); ++i)
        if (entries[i].kind == post_op_kind_t::sum) return (int)i;
    return -1;
}

status_t postops_args_t::init(const postops_t &p, const exec_ctx_t &ctx) {
    data.assign(p.entries.size(), nullptr);
    cond.assign(p.entries.size(), nullptr);
    for (size_t i = 0; i < p.entries.size(); ++i) {
        const entry_t &e = p.entries[i];
        if (e.kind != post_op_kind_t::binary && e.kind != post_op_kind_t::prelu)
            continue;
        data[i] = ctx.host_ptr(e.arg);
        if (!data[i]) return dnnl_invalid_arguments;
        if (e.cond_arg == 0) continue;
        cond[i] = ctx.host_ptr(e.cond_arg);
        if (!cond[i]) return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

namespace {

template <typename F>
inline void map_row(float *v, dim_t n, F f) {
    for (dim_t j = 0; j < n; ++j)
        v[j] = f(v[j]);
}

void eltwise_row(const entry_t &e, float *v, dim_t n) {
    using namespace math;
    const float a = e.alpha, b = e.beta;
    switch (eltwise_base_alg(e.alg)) {
        case dnnl_eltwise_relu:
            if (a == 0.f)
                map_row(v, n, [](float x) { return x > 0.f ? x : 0.f; });
            else
                map_row(v, n, [=](float x) { return relu_fwd(x, a); });
            break;
        case dnnl_eltwise_linear:
            map_row(v, n, [=](float x) { return linear_fwd(x, a, b); });
            break;
        case dnnl_eltwise_clip:
            map_row(v, n, [=](float x) { return clip_fwd(x, a, b); });
            break;
        case dnnl_eltwise_clip_v2:
            map_row(v, n, [=](float x) { return clip_v2_fwd(x, a, b); });
            break;
        case dnnl_eltwise_tanh: map_row(v, n, [](float x) { return tanh_fwd(x); }); break;
        case dnnl_eltwise_logistic:
            map_row(v, n, [](float x) { return logistic_fwd(x); });
            break;
        case dnnl_eltwise_gelu_tanh:
            map_row(v, n, [](float x) { return gelu_tanh_fwd(x); });
            break;
        case dnnl_eltwise_gelu_erf:
            map_row(v, n, [](float x) { return gelu_erf_fwd(x); });
            break;
        case dnnl_eltwise_swish:
            map_row(v, n, [=](float x) { return swish_fwd(x, a); });
            break;
        case dnnl_eltwise_elu:
            map_row(v, n, [=](float x) { return elu_fwd(x, a); });
            break;
        case dnnl_eltwise_exp: map_row(v, n, [](float x) { return exp_fwd(x); }); break;
        default:
            map_row(v, n, [&](float x) { return eltwise_fwd(e.alg, x, a, b); });
            break;
    }
    if (e.scale != 1.f)
        for (dim_t j = 0; j < n; ++j)
            v[j] *= e.scale;
}

// v[j] = op(v[j], src1[off + j * step])
void binary_row(alg_kind_t alg, float *v, dim_t n, data_type_t dt,
        const void *src1, dim_t off, dim_t step) {
    using namespace math;
    if (dt == dnnl_f32 && step <= 1) {
        const float *s = static_cast<const float *>(src1) + off;
        if (step == 0) {
            const float b = s[0];
            switch (alg) {
                case dnnl_binary_add: map_row(v, n, [=](float x) { return x + b; }); return;
                case dnnl_binary_mul: map_row(v, n, [=](float x) { return x * b; }); return;
                case dnnl_binary_sub: map_row(v, n, [=](float x) { return x - b; }); return;
                default:
                    map_row(v, n, [&](float x) { return binary_op(alg, x, b); });
                    return;
            }
        }
        switch (alg) {
            case dnnl_binary_add:
                for (dim_t j = 0; j < n; ++j)
                    v[j] += s[j];
                return;
            case dnnl_binary_mul:
                for (dim_t j = 0; j < n; ++j)
                    v[j] *= s[j];
                return;
            default:
                for (dim_t j = 0; j < n; ++j)
                    v[j] = binary_op(alg, v[j], s[j]);
                return;
        }
    }
    for (dim_t j = 0; j < n; ++j)
        v[j] = binary_op(alg, v[j], load_f32(dt, src1, off + j * step));
}

// v[j] = cond[j] > 0 ? v[j] : src1[j] (math::post_op_select).
void select_row(float *v, dim_t n, const bcast_tensor_t &t, const void *src1,
        dim_t off, dim_t step, const bcast_tensor_t &c, const void *cond,
        dim_t coff, dim_t cstep) {
    for (dim_t j = 0; j < n; ++j)
        v[j] = math::post_op_select(v[j],
                load_f32(t.dt, src1, off + j * step),
                load_f32(c.dt, cond, coff + j * cstep));
}

void prelu_row(float *v, dim_t n, const float *w, dim_t off, dim_t step) {
    for (dim_t j = 0; j < n; ++j) {
        const float x = v[j];
        const float neg = x * w[off + j * step];
        v[j] = x > 0.f ? x : neg;
    }
}

void sum_row(const entry_t &e, float *v, dim_t n, const void *old, dim_t cs) {
    const float zp = (float)e.zero_point, sc = e.scale;
    if (e.sum_dt == dnnl_f32 && cs == 1) {
        const float *o = static_cast<const float *>(old);
        for (dim_t j = 0; j < n; ++j)
            v[j] += sc * (o[j] - zp);
        return;
    }
    for (dim_t j = 0; j < n; ++j)
        v[j] += sc * (load_f32(e.sum_dt, old, j * cs) - zp);
}

} // namespace

void apply(const postops_t &p, const postops_args_t &a, float *v, dim_t ldv,
        dim_t m, dim_t n, const dim_t *pos, int row_dim, int col_dim,
        const void *old_dst, dim_t dst_rs, dim_t dst_cs) {
    for (size_t k = 0; k < p.entries.size(); ++k) {
        const entry_t &e = p.entries[k];
        switch (e.kind) {
            case post_op_kind_t::eltwise:
                for (dim_t i = 0; i < m; ++i)
                    eltwise_row(e, v + i * ldv, n);
                break;
            case post_op_kind_t::sum: {
                const size_t esz = data_type_size(e.sum_dt);
                for (dim_t i = 0; i < m; ++i)
                    sum_row(e, v + i * ldv, n,
                            static_cast<const char *>(old_dst)
                                    + i * dst_rs * (dim_t)esz,
                            dst_cs);
                break;
            }
            case post_op_kind_t::binary:
            case post_op_kind_t::prelu: {
                const dim_t off0 = e.t.offset(pos);
                const dim_t rstep = e.t.step(row_dim), cstep = e.t.step(col_dim);
                if (e.cond_arg != 0) {
                    const dim_t coff0 = e.cond.offset(pos);
                    const dim_t crstep = e.cond.step(row_dim);
                    const dim_t ccstep = e.cond.step(col_dim);
                    for (dim_t i = 0; i < m; ++i)
                        select_row(v + i * ldv, n, e.t, a.data[k],
                                off0 + i * rstep, cstep, e.cond, a.cond[k],
                                coff0 + i * crstep, ccstep);
                    break;
                }
                for (dim_t i = 0; i < m; ++i) {
                    if (e.kind == post_op_kind_t::binary)
                        binary_row(e.alg, v + i * ldv, n, e.t.dt, a.data[k],
                                off0 + i * rstep, cstep);
                    else
                        prelu_row(v + i * ldv, n,
                                static_cast<const float *>(a.data[k]),
                                off0 + i * rstep, cstep);
                }
                break;
            }
            default: break;
        }
    }
}

} // namespace postops
} // namespace cpu
} // namespace impl
} // namespace dnnl
