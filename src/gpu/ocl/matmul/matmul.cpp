// Matmul on the gpu engine: descriptor checks, the GEMM configuration and
// plan, batch dims folded onto the GEMM kernels' four, and execution
// (shapes from the memories when the descriptor has runtime dims).
#include "gpu/ocl/matmul/matmul.hpp"

#include <algorithm>
#include <climits>

#include "common/layout_helpers.hpp"
#include "common/math/stochastic_round.hpp"
#include "common/memory.hpp"
#include "common/verbose.hpp"
#include "cpu/matmul/blocked_matmul.hpp"
#include "cpu/matmul/decompress_matmul.hpp"
#include "gpu/ocl/matmul/decompress_matmul.hpp"
#include "gpu/ocl/matmul/quant_matmul.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

constexpr dim_t rt = DNNL_RUNTIME_DIM_VAL;

bool one_of(data_type_t dt, std::initializer_list<data_type_t> l) {
    for (auto x : l)
        if (dt == x) return true;
    return false;
}

const dim_t *strides(const memory_desc_t &md) {
    return md.format_desc.blocking.strides;
}

// Which of the two last dims of `md` has unit stride.
gemm_access_t access_of(const memory_desc_t &md) {
    const int nd = md.ndims;
    const dim_t *st = strides(md);
    return gemm_access_of(
            st[nd - 2], st[nd - 1], md.dims[nd - 2], md.dims[nd - 1]);
}

struct mds_t {
    memory_desc_t src, wei, dst, bias;
};

// A batch dim: its size and the element strides of each tensor (0 where
// the tensor broadcasts along it).
struct bdim_t {
    dim_t n, a, b, c, bias;
};

// Batch dims beyond the kernels' four, innermost first: each of their
// positions is one launch with shifted offsets.
struct outer_dims_t {
    int cnt = 0;
    bdim_t d[DNNL_MAX_NDIMS];
    dim_t volume() const {
        dim_t v = 1;
        for (int i = 0; i < cnt; ++i)
            v *= d[i].n;
        return v;
    }
};

// Shapes, strides and batch dims of one execution: the innermost four
// (after folding) in `e`, the others in `outer`.
status_t make_exec(const ocl_matmul_t::pd_t &pd, const mds_t &m,
        gemm_exec_t &e, outer_dims_t &outer) {
    const int nd = m.dst.ndims, nb = nd - 2;
    const dim_t *ss = strides(m.src), *ws = strides(m.wei),
                *ds = strides(m.dst);
    const bool bias = pd.with_bias();
    const dim_t *bs = bias ? strides(m.bias) : nullptr;
    e.M = m.dst.dims[nd - 2];
    e.N = m.dst.dims[nd - 1];
    e.K = m.src.dims[nd - 1];
    e.a_off = m.src.offset0, e.a_sm = ss[nd - 2], e.a_sk = ss[nd - 1];
    e.b_off = m.wei.offset0, e.b_sk = ws[nd - 2], e.b_sn = ws[nd - 1];
    e.c_off = m.dst.offset0, e.c_sm = ds[nd - 2], e.c_sn = ds[nd - 1];
    const gemm_conf_t &c = pd.conf;
    if (!gemm_fit_access(c.a, e.M, e.K, e.a_sm, e.a_sk)
            || !gemm_fit_access(c.b, e.K, e.N, e.b_sk, e.b_sn)
            || (c.c_ncontig && e.c_sn != 1 && e.N != 1))
        return dnnl_invalid_arguments;
    if (c.c_ncontig) e.c_sn = 1;
    if (bias) {
        e.bias_off = m.bias.offset0;
        e.bias_sm = m.bias.dims[nd - 2] == 1 ? 0 : bs[nd - 2];
        e.bias_sn = m.bias.dims[nd - 1] == 1 ? 0 : bs[nd - 1];
    }

    // Batch dims (innermost first): broadcast operands get stride 0. With
    // binary or PReLU post-ops every dim keeps its place (they see dst
    // positions);
    // otherwise dims of size 1 go and neighbours that step evenly in every
    // tensor merge.
    bdim_t list[DNNL_MAX_NDIMS];
    int cnt = 0;
    const bool keep = pd.conf.post_ops.positional();
    for (int d = nb - 1; d >= 0; --d) {
        bdim_t x;
        x.n = m.dst.dims[d];
        x.a = m.src.dims[d] == 1 ? 0 : ss[d];
        x.b = m.wei.dims[d] == 1 ? 0 : ws[d];
        x.c = ds[d];
        x.bias = bias && m.bias.dims[d] != 1 ? bs[d] : 0;
        if (keep) {
            list[cnt++] = x;
            continue;
        }
        if (x.n == 1) continue;
        if (cnt > 0) {
            bdim_t &in = list[cnt - 1];
            if (x.a == in.a * in.n && x.b == in.b * in.n && x.c == in.c * in.n
                    && x.bias == in.bias * in.n) {
                in.n *= x.n;
                continue;
            }
        }
        list[cnt++] = x;
    }
    outer.cnt = 0;
    for (int i = gemm_max_batch_dims; i < cnt; ++i)
        outer.d[outer.cnt++] = list[i];
    for (int i = 0; i < std::min(cnt, gemm_max_batch_dims); ++i) {
        const int slot = gemm_max_batch_dims - 1 - i;
        e.bdims[slot] = list[i].n;
        e.a_bs[slot] = list[i].a;
        e.b_bs[slot] = list[i].b;
        e.c_bs[slot] = list[i].c;
        e.bias_bs[slot] = list[i].bias;
    }
    return dnnl_success;
}

// The descriptors of an execution with runtime dims, checked against the
// pd and the matmul shape rules.
status_t resolve_runtime(
        const ocl_matmul_t::pd_t &pd, const exec_ctx_t &ctx, mds_t &m) {
    auto get = [&](int arg, const memory_desc_t &pmd, memory_desc_t &out) {
        const memory_t *mem = ctx.memory(arg);
        if (!mem) return false;
        out = mem->md();
        if (out.ndims != pmd.ndims || out.data_type != pmd.data_type)
            return false;
        if (!layout::is_plain(out) || md_has_runtime_dims_or_strides(out))
            return false;
        for (int d = 0; d < pmd.ndims; ++d)
            if (pmd.dims[d] != rt && pmd.dims[d] != out.dims[d]) return false;
        return true;
    };
    if (!get(DNNL_ARG_SRC, pd.src_md(), m.src)
            || !get(DNNL_ARG_WEIGHTS, pd.weights_md(), m.wei)
            || !get(DNNL_ARG_DST, pd.dst_md(), m.dst))
        return dnnl_invalid_arguments;
    m.bias = zero_md();
    if (pd.with_bias() && !get(DNNL_ARG_BIAS, pd.bias_md(), m.bias))
        return dnnl_invalid_arguments;
    const int nd = m.dst.ndims;
    if (m.dst.dims[nd - 2] != m.src.dims[nd - 2]
            || m.dst.dims[nd - 1] != m.wei.dims[nd - 1]
            || m.src.dims[nd - 1] != m.wei.dims[nd - 2])
        return dnnl_invalid_arguments;
    for (int d = 0; d < nd; ++d) {
        if (d < nd - 2) {
            const dim_t s = m.src.dims[d], w = m.wei.dims[d], o = m.dst.dims[d];
            if (!((s == o || s == 1) && (w == o || w == 1)))
                return dnnl_invalid_arguments;
        }
        if (pd.with_bias() && m.bias.dims[d] != 1
                && m.bias.dims[d] != m.dst.dims[d])
            return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

// The dropout arguments of an execution: buffers, or the values of host
// scalars; the mask checked against its descriptor.
status_t dropout_args(
        const ocl_matmul_t::pd_t &pd, const exec_ctx_t &ctx, gemm_exec_t &e) {
    const gemm_conf_t &c = pd.conf;
    const int P = DNNL_ARG_ATTR_DROPOUT_PROBABILITY,
              S = DNNL_ARG_ATTR_DROPOUT_SEED, O = DNNL_ARG_ATTR_DROPOUT_OFFSET;
    bool ok = true;
    if (c.dropout_on_host) {
        const void *p = ctx.host_ptr(P), *s = ctx.host_ptr(S),
                   *o = c.dropout_offset ? ctx.host_ptr(O) : nullptr;
        ok = p && s && (o || !c.dropout_offset);
        if (ok) {
            e.drop_p_value = *static_cast<const float *>(p);
            e.drop_seed_value = c.dropout_seed_s64
                    ? *static_cast<const int64_t *>(s)
                    : *static_cast<const int32_t *>(s);
            e.drop_offset_value = o ? *static_cast<const int64_t *>(o) : 0;
        }
    } else {
        // A buffer holding at least the one value the kernels read.
        auto one_value = [&](int arg, cl_mem &out) {
            const memory_t *m = ctx.memory(arg);
            out = mem_of(ctx, arg);
            return m && out && md_nelems(m->md()) >= 1
                   && check_buffer(out, m->md(), "matmul dropout argument")
                           == dnnl_success;
        };
        ok = one_value(P, e.drop_p) && one_value(S, e.drop_seed)
             && (!c.dropout_offset || one_value(O, e.drop_offset));
    }
    if (!ok) {
        verbose_error("matmul", "gpu: dropout probability, seed or offset missing");
        return dnnl_invalid_arguments;
    }
    if (c.dropout_mask) {
        const memory_desc_t &mmd = pd.dropout_mask_md();
        e.drop_mask = mem_of(ctx, DNNL_ARG_ATTR_DROPOUT_MASK);
        DNNL_CHECK(check_buffer(e.drop_mask, mmd, "matmul dropout mask"));
        e.drop_mask_shift = mmd.offset0 - pd.dst_md().offset0;
    }
    return dnnl_success;
}

} // namespace

bool ocl_matmul_t::pd_t::decompresses() const {
    return one_of(src_md_.data_type, {dnnl_f32, dnnl_bf16, dnnl_f16})
           && one_of(weights_md_.data_type, {dnnl_s8, dnnl_u8, dnnl_s4, dnnl_u4});
}

bool ocl_matmul_t::pd_t::data_types_ok() const {
    const data_type_t sdt = src_md_.data_type, wdt = weights_md_.data_type,
                      ddt = dst_md_.data_type;
    const data_type_t bdt = with_bias() ? bias_md_.data_type : dnnl_f32;
    // Weight decompression: floating-point dst and bias.
    if (decompresses())
        return attr_.fpmath_apply_to_int
               && one_of(ddt, {dnnl_f32, dnnl_bf16, dnnl_f16})
               && one_of(bdt, {dnnl_f32, dnnl_bf16, dnnl_f16});
    // f64: every tensor f64 but an f64 or f32 bias (computed in double),
    // no attributes.
    if (one_of(dnnl_f64, {sdt, wdt, ddt, bdt}))
        return sdt == dnnl_f64 && wdt == dnnl_f64 && ddt == dnnl_f64
               && one_of(bdt, {dnnl_f64, dnnl_f32})
               && attr_.scales.empty() && attr_.zero_points.empty()
               && attr_.rounding_modes.empty()
               && attr_.post_ops.entries.empty() && !attr_.dropout.on();
    if (one_of(sdt, {dnnl_u8, dnnl_s8})) {
        const std::initializer_list<data_type_t> outs = {
                dnnl_f32, dnnl_s32, dnnl_s8, dnnl_u8, dnnl_bf16, dnnl_f16};
        return one_of(wdt, {dnnl_s8, dnnl_u8}) && one_of(ddt, outs)
               && one_of(bdt, outs);
    }
    // Floating-point inputs, computed in f32: any dst the store converts
    // to (integers saturate).
    return one_of(sdt, {dnnl_f32, dnnl_bf16, dnnl_f16})
           && one_of(wdt, {dnnl_f32, dnnl_bf16, dnnl_f16})
           && one_of(ddt,
                   {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_f8_e5m2, dnnl_f8_e4m3,
                           dnnl_s8, dnnl_u8, dnnl_s32})
           && one_of(bdt, {dnnl_f32, sdt, wdt});
}

// Scales: f32, per tensor (weights and dst also per N), in device memory
// or, per tensor, a host scalar; zero points (int8): s32, per tensor (dst
// also per N), in device memory.
bool ocl_matmul_t::pd_t::attr_ok() const {
    const int n_mask = 1 << (ndims() - 1);
    const bool dec = decompresses(); // weights' entries: init_decompression
    for (const auto &it : attr_.scales.items) {
        const quant_entry_t &e = it.e;
        if (dec && it.arg == DNNL_ARG_WEIGHTS) continue;
        if (e.data_type != dnnl_f32 || e.group_ndims != 0) return false;
        if (e.is_on_host && e.mask != 0) return false;
        if (e.mask != 0 && !(it.arg != DNNL_ARG_SRC && e.mask == n_mask))
            return false;
    }
    for (const auto &it : attr_.zero_points.items) {
        const quant_entry_t &e = it.e;
        if (dec && it.arg == DNNL_ARG_WEIGHTS) continue;
        if (!conf.acc_int() || e.data_type != dnnl_s32 || e.group_ndims != 0
                || e.is_on_host)
            return false;
        if (e.mask != 0 && !(it.arg == DNNL_ARG_DST && e.mask == n_mask))
            return false;
    }
    // Stochastic rounding of dst where the rounding defines it.
    math::sround_params_t sp;
    for (const auto &r : attr_.rounding_modes)
        if (r.mode != (int)dnnl_rounding_mode_environment
                && !(r.arg == DNNL_ARG_DST
                        && r.mode == (int)dnnl_rounding_mode_stochastic
                        && math::sround_params(dst_md_.data_type, sp)))
            return false;
    for (const auto &po : attr_.post_ops.entries)
        if (po.kind == post_op_kind_t::sum && po.sum_dt != dnnl_data_type_undef
                && po.sum_dt != dst_md_.data_type)
            return false;
    return true;
}

// Weight decompression inside the GEMV kernel: scales and zero points of
// the weights over their last two dims (per tensor, per dim, grouped), no
// runtime dims, unit stride along N or K (plan_gemm then decides: GEMV or
// unimplemented, leaving the request to ocl:decompress).
status_t ocl_matmul_t::pd_t::init_decompression() {
    cpu::matmul::wei_quant_t qs, qz;
    const memory_desc_t &w = weights_md_;
    const int nd = w.ndims;
    bool ok = !has_runtime_dims_or_strides()
              && access_of(w) != gemm_access_t::strided
              && cpu::matmul::init_wei_quant(qs, attr_, w, false)
              && cpu::matmul::init_wei_quant(qz, attr_, w, true);
    for (int d = 0; ok && d < nd - 2; ++d)
        ok = qs.group[d] == 0 && qz.group[d] == 0;
    if (!ok) {
        verbose_check("matmul", "gpu: weight decompression of this layout "
                                "or quantization in the GEMV kernel");
        return dnnl_unimplemented;
    }
    conf.b_decompress = true;
    conf.bq_scale = qs.on;
    conf.bq_scale_dt = qs.dt;
    conf.bq_zp = qz.on;
    conf.bq_zp_dt = qz.dt;
    bq_counts[0] = qs.count;
    bq_counts[1] = qz.count;
    // (group, stride) along K then N of each tensor; absent: (1, 0).
    const cpu::matmul::wei_quant_t *q[2] = {&qs, &qz};
    for (int t = 0; t < 2; ++t)
        for (int j = 0; j < 2; ++j) {
            const int d = nd - 2 + j;
            const bool in = q[t]->group[d] != 0;
            bq_groups[2 * t + j] = in ? q[t]->group[d] : 1;
            bq_strides[2 * t + j] = in ? q[t]->stride[d] : 0;
        }
    return dnnl_success;
}

status_t ocl_matmul_t::pd_t::init(engine_t *engine) {
    if (src_md_.format_kind == dnnl_format_kind_sparse
            || weights_md_.format_kind == dnnl_format_kind_sparse) {
        verbose_check("matmul", "gpu: sparse memory is supported on cpu only");
        return dnnl_unimplemented;
    }
    if (!data_types_ok()) {
        verbose_check("matmul",
                "gpu: data type combination (or f64 with attributes)");
        return dnnl_unimplemented;
    }
    if (!f64_supported(engine, "matmul", {&src_md_})) return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    if (!layout::is_plain(src_md_) || !layout::is_plain(weights_md_)
            || !layout::is_plain(dst_md_)
            || (with_bias() && !layout::is_plain(bias_md_))) {
        verbose_check("matmul", "gpu: plain layouts only");
        return dnnl_unimplemented;
    }
    conf.a_dt = src_md_.data_type;
    conf.b_dt = weights_md_.data_type;
    conf.c_dt = dst_md_.data_type;
    if (!attr_ok()) {
        verbose_check(
                "matmul", "gpu: unsupported scales, zero points or rounding");
        return dnnl_unimplemented;
    }
    DNNL_CHECK(conf.post_ops.init(attr_.post_ops, dst_md_, "matmul", true));
    const int nd = ndims();
    conf.a = access_of(src_md_);
    conf.b = access_of(weights_md_);
    conf.c_ncontig = access_of(dst_md_) == gemm_access_t::row_major;
    conf.with_bias = with_bias();
    if (conf.with_bias) conf.bias_dt = bias_md_.data_type;
    conf.src_scale = attr_.scales.has(DNNL_ARG_SRC);
    conf.wei_scale = attr_.scales.has(DNNL_ARG_WEIGHTS) && !decompresses();
    conf.dst_scale = attr_.scales.has(DNNL_ARG_DST);
    auto on_host = [&](int arg) {
        const quant_entry_t *e = attr_.scales.get(arg);
        return e && e->is_on_host;
    };
    conf.src_scale_host = on_host(DNNL_ARG_SRC);
    conf.wei_scale_host = on_host(DNNL_ARG_WEIGHTS);
    conf.dst_scale_host = on_host(DNNL_ARG_DST);
    conf.a_zp = attr_.zero_points.has(DNNL_ARG_SRC);
    conf.b_zp = attr_.zero_points.has(DNNL_ARG_WEIGHTS) && !decompresses();
    conf.dst_zp = attr_.zero_points.has(DNNL_ARG_DST);
    // Positions reach the post-ops only for binary and PReLU entries (at
    // most six dims then).
    conf.dst_ndims = conf.post_ops.positional() ? nd : 2;
    conf.sround = attr_.get_rounding(DNNL_ARG_DST)
                  == dnnl_rounding_mode_stochastic;
    const dropout_t &drop = attr_.dropout;
    if (drop.on()) {
        if (has_runtime_dims_or_strides()) {
            verbose_check("matmul", "gpu: dropout with runtime dims");
            return dnnl_unimplemented;
        }
        DNNL_CHECK(init_dropout_mask());
        conf.dropout = true;
        conf.dropout_on_host = drop.use_host_scalars != 0;
        conf.dropout_seed_s64 = drop.seed_dt == dnnl_s64;
        conf.dropout_offset = drop.use_offset != 0;
        conf.dropout_mask = !is_zero_md(dropout_mask_md_);
    }

    const device_info_t &dev = device_info_of(engine);
    if (decompresses()) DNNL_CHECK(init_decompression());
    if (has_runtime_dims_or_strides()) {
        plan = plan_gemm(dev, conf, nullptr);
        return dnnl_success;
    }
    mds_t m{src_md_, weights_md_, dst_md_, bias_md_};
    gemm_exec_t e;
    outer_dims_t outer;
    DNNL_CHECK(make_exec(*this, m, e, outer));
    if (e.M > INT_MAX || e.N > INT_MAX || e.K > INT_MAX)
        return dnnl_unimplemented;
    gemm_shape_t shape;
    shape.M = e.M, shape.N = e.N, shape.K = e.K, shape.batch = e.batch();
    plan = plan_gemm(dev, conf, &shape);
    if (conf.b_decompress && plan.kind != gemm_plan_t::kind_t::gemv) {
        verbose_check("matmul", "gpu: weight decompression in the GEMV "
                                "kernel only (at most %d rows, weights "
                                "with a unit stride)",
                gemm_gemv_max_m);
        return dnnl_unimplemented;
    }
    // The kernels keep split-K workspaces of their own unless the user
    // provides the scratchpad.
    if (attr_.scratchpad_mode == dnnl_scratchpad_mode_user)
        book_scratchpad(plan.workspace);
    return dnnl_success;
}

status_t ocl_matmul_t::init(engine_t *engine) {
    return kernels_.init(engine, pd_()->conf, pd_()->plan);
}

status_t ocl_matmul_t::execute(const exec_ctx_t &ctx) const {
    const pd_t &pd = *pd_();
    mds_t m;
    if (pd.has_runtime_dims_or_strides()) {
        DNNL_CHECK(resolve_runtime(pd, ctx, m));
    } else {
        m = {pd.src_md(), pd.weights_md(), pd.dst_md(), pd.bias_md()};
    }
    gemm_exec_t e;
    outer_dims_t outer;
    if (make_exec(pd, m, e, outer) != dnnl_success) {
        verbose_error("matmul", "gpu: memory layouts unlike the descriptor's");
        return dnnl_invalid_arguments;
    }
    if (e.M == 0 || e.N == 0 || e.batch() == 0 || outer.volume() == 0)
        return dnnl_success;

    e.a = mem_of(ctx, DNNL_ARG_SRC);
    e.b = mem_of(ctx, DNNL_ARG_WEIGHTS);
    e.c = mem_of(ctx, DNNL_ARG_DST);
    DNNL_CHECK(check_buffer(e.c, m.dst, "matmul dst"));
    if (e.K > 0) {
        DNNL_CHECK(check_buffer(e.a, m.src, "matmul src"));
        DNNL_CHECK(check_buffer(e.b, m.wei, "matmul weights"));
    }
    if (pd.with_bias()) {
        e.bias = mem_of(ctx, DNNL_ARG_BIAS);
        DNNL_CHECK(check_buffer(e.bias, m.bias, "matmul bias"));
    }
    const gemm_conf_t &c = pd.conf;
    const primitive_attr_t &attr = *pd.attr();
    // Quantization buffers, present wherever the configuration uses them.
    auto quant = [&](bool on, int kind, int arg, cl_mem &out) {
        if (!on) return true;
        out = mem_of(ctx, kind | arg);
        return out != nullptr;
    };
    // Scales on the host: the host-scalar memory's value.
    auto scale = [&](bool on, bool host, int arg, cl_mem &out, float &value) {
        if (!host) return quant(on, DNNL_ARG_ATTR_SCALES, arg, out);
        const float *p = static_cast<const float *>(
                ctx.host_ptr(DNNL_ARG_ATTR_SCALES | arg));
        if (!p) return false;
        value = *p;
        return true;
    };
    const int Z = DNNL_ARG_ATTR_ZERO_POINTS;
    if (!scale(c.src_scale, c.src_scale_host, DNNL_ARG_SRC, e.src_scale,
                e.src_scale_value)
            || !scale(c.wei_scale, c.wei_scale_host, DNNL_ARG_WEIGHTS,
                    e.wei_scale, e.wei_scale_value)
            || !scale(c.dst_scale, c.dst_scale_host, DNNL_ARG_DST,
                    e.dst_scale, e.dst_scale_value)
            || !quant(c.a_zp, Z, DNNL_ARG_SRC, e.a_zp)
            || !quant(c.b_zp, Z, DNNL_ARG_WEIGHTS, e.b_zp)
            || !quant(c.dst_zp, Z, DNNL_ARG_DST, e.dst_zp)) {
        verbose_error("matmul", "gpu: scales or zero points missing");
        return dnnl_invalid_arguments;
    }
    auto per_n = [&](const quant_map_t &q, int arg) {
        const quant_entry_t *x = q.get(arg);
        return x && x->mask != 0 ? 1 : 0;
    };
    e.wei_scale_sn = per_n(attr.scales, DNNL_ARG_WEIGHTS);
    e.dst_scale_sn = per_n(attr.scales, DNNL_ARG_DST);
    e.dst_zp_sn = per_n(attr.zero_points, DNNL_ARG_DST);
    if (c.sround) {
        e.sround_seed = mem_of(ctx, DNNL_ARG_ATTR_ROUNDING_SEED);
        const memory_t *sm = ctx.memory(DNNL_ARG_ATTR_ROUNDING_SEED);
        if (!e.sround_seed || !sm || md_size(sm->md()) < sizeof(int32_t)) {
            verbose_error("matmul", "gpu: stochastic rounding needs its seed");
            return dnnl_invalid_arguments;
        }
    }
    if (c.dropout) DNNL_CHECK(dropout_args(pd, ctx, e));
    if (c.b_decompress) {
        e.bq_scale = c.bq_scale ? mem_of(ctx, DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS)
                                : nullptr;
        e.bq_zp = c.bq_zp ? mem_of(ctx, Z | DNNL_ARG_WEIGHTS) : nullptr;
        if (c.bq_scale)
            DNNL_CHECK(check_buffer(e.bq_scale, pd.bq_counts[0], c.bq_scale_dt,
                    "matmul weight scales"));
        if (c.bq_zp)
            DNNL_CHECK(check_buffer(e.bq_zp, pd.bq_counts[1], c.bq_zp_dt,
                    "matmul weight zero points"));
        for (int i = 0; i < 4; ++i) {
            e.bq_groups[i] = pd.bq_groups[i];
            e.bq_strides[i] = pd.bq_strides[i];
        }
    }
    e.workspace = scratchpad_of(ctx);
    // Batch dims beyond four: one launch per outer position.
    const dim_t launches = outer.volume();
    for (dim_t t = 0; t < launches; ++t) {
        gemm_exec_t ei = e;
        dim_t r = t;
        for (int i = 0; i < outer.cnt; ++i) {
            const bdim_t &d = outer.d[i];
            const dim_t idx = r % d.n;
            r /= d.n;
            ei.a_off += idx * d.a;
            ei.b_off += idx * d.b;
            ei.c_off += idx * d.c;
            ei.bias_off += idx * d.bias;
        }
        DNNL_CHECK(kernels_.execute(ctx, ei));
    }
    return dnnl_success;
}

const impl_list_item_t *matmul_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_matmul_t::pd_t, matmul_desc_t>},
            // Integer weights with floating-point activations.
            {create_pd<ocl_decompress_matmul_pd_t, matmul_desc_t>},
            // Integer data with the quantization grid the GEMM kernels do
            // not take.
            {create_pd<ocl_quant_matmul_t::pd_t, matmul_desc_t>},
            // Blocked layouts: dense copies around the above (engine-neutral).
            {create_pd<cpu::matmul::blocked_matmul_pd_t, matmul_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
