// Inner product on the gpu engine: checks, the GEMM of each propagation
// kind (which tensor is A, B and C, with which strides), and execution.
#include "gpu/ocl/inner_product/inner_product.hpp"

#include <algorithm>
#include <climits>

#include "common/ip_layout.hpp"
#include "common/verbose.hpp"
#include "cpu/inner_product/blocked_inner_product.hpp"
#include "gpu/ocl/ocl_impl_lists.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

bool one_of(data_type_t dt, std::initializer_list<data_type_t> l) {
    for (auto x : l)
        if (dt == x) return true;
    return false;
}

const dim_t *strides(const memory_desc_t &md) {
    return md.format_desc.blocking.strides;
}

// Weights flatten like src: equal strides over dims 1.. .
bool k_like(const memory_desc_t &src, const memory_desc_t &wei) {
    for (int d = 1; d < src.ndims; ++d)
        if (src.dims[d] != 1 && strides(src)[d] != strides(wei)[d])
            return false;
    return true;
}

} // namespace

bool ocl_inner_product_t::pd_t::data_types_ok() const {
    const data_type_t sdt = src_md_.data_type, wdt = weights_md_.data_type,
                      ddt = dst_md_.data_type;
    const data_type_t bdt = with_bias() ? bias_md_.data_type : dnnl_f32;
    // f64: every tensor f64 but an f64 or f32 bias (computed in double),
    // no attributes (attr_ok).
    if (one_of(dnnl_f64, {sdt, wdt, ddt, bdt}))
        return sdt == dnnl_f64 && wdt == dnnl_f64 && ddt == dnnl_f64
               && one_of(bdt, {dnnl_f64, dnnl_f32});
    if (is_fwd()) {
        if (one_of(sdt, {dnnl_u8, dnnl_s8})) {
            const std::initializer_list<data_type_t> outs = {
                    dnnl_f32, dnnl_s32, dnnl_s8, dnnl_u8, dnnl_bf16};
            return wdt == dnnl_s8 && one_of(ddt, outs) && one_of(bdt, outs);
        }
        return one_of(sdt, {dnnl_f32, dnnl_bf16, dnnl_f16}) && wdt == sdt
               && one_of(ddt, {dnnl_f32, sdt}) && one_of(bdt, {dnnl_f32, sdt});
    }
    if (is_bwd_d()) // src is diff_src, dst diff_dst
        return one_of(ddt, {dnnl_f32, dnnl_bf16, dnnl_f16}) && wdt == ddt
               && one_of(sdt, {dnnl_f32, ddt});
    // backward weights: weights and bias are the diff_ ones
    return one_of(sdt, {dnnl_f32, dnnl_bf16, dnnl_f16}) && ddt == sdt
           && one_of(wdt, {dnnl_f32, sdt}) && one_of(bdt, {dnnl_f32, sdt});
}

// Forward: f32 scales in device memory (src and dst per tensor, weights
// per tensor or per OC), environment rounding; backward: nothing.
bool ocl_inner_product_t::pd_t::attr_ok() const {
    if (!attr_.zero_points.empty()) return false;
    if (src_md_.data_type == dnnl_f64
            && !(attr_.scales.empty() && attr_.rounding_modes.empty()
                    && attr_.post_ops.entries.empty()))
        return false;
    for (const auto &r : attr_.rounding_modes)
        if (r.mode != (int)dnnl_rounding_mode_environment) return false;
    if (!is_fwd())
        return attr_.scales.empty() && attr_.post_ops.entries.empty();
    for (const auto &it : attr_.scales.items) {
        const quant_entry_t &e = it.e;
        if (e.data_type != dnnl_f32 || e.group_ndims != 0 || e.is_on_host)
            return false;
        if (e.mask != 0 && !(it.arg == DNNL_ARG_WEIGHTS && e.mask == 1))
            return false;
    }
    for (const auto &po : attr_.post_ops.entries)
        if (po.kind == post_op_kind_t::sum && po.sum_dt != dnnl_data_type_undef
                && po.sum_dt != dst_md_.data_type)
            return false;
    return true;
}

status_t ocl_inner_product_t::pd_t::init(engine_t *engine) {
    if (!data_types_ok()) {
        verbose_check("inner_product", "gpu: data type combination");
        return dnnl_unimplemented;
    }
    if (!f64_supported(engine, "inner_product", {&src_md_}))
        return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    if (!k_dense(src_md_) || !k_like(src_md_, weights_md_)) {
        verbose_check("inner_product",
                "gpu: src must be dense over IC and spatial dims, weights "
                "ordered like it");
        return dnnl_unimplemented;
    }
    if (!attr_ok()) {
        verbose_check("inner_product", "gpu: unsupported attributes");
        return dnnl_unimplemented;
    }
    const dim_t MB = this->MB(), OC = this->OC(), IC = IC_total();
    const dim_t *ds = strides(dst_md_);
    gemm_shape_t shape;
    if (is_fwd()) {
        conf.a_dt = src_md_.data_type;
        conf.b_dt = weights_md_.data_type;
        conf.c_dt = dst_md_.data_type;
        conf.a = gemm_access_t::row_major; // src rows, k-dense
        conf.b = gemm_access_t::col_major; // weights^T: k-dense columns
        conf.c_ncontig = ds[1] == 1 || OC == 1;
        conf.with_bias = with_bias();
        if (conf.with_bias) conf.bias_dt = bias_md_.data_type;
        conf.src_scale = attr_.scales.has(DNNL_ARG_SRC);
        conf.wei_scale = attr_.scales.has(DNNL_ARG_WEIGHTS);
        conf.dst_scale = attr_.scales.has(DNNL_ARG_DST);
        conf.dst_ndims = 2;
        DNNL_CHECK(
                conf.post_ops.init(attr_.post_ops, dst_md_, "inner_product"));
        shape.M = MB, shape.N = OC, shape.K = IC;
    } else if (is_bwd_d()) {
        conf.a_dt = dst_md_.data_type; // diff_dst
        conf.b_dt = weights_md_.data_type;
        conf.c_dt = src_md_.data_type; // diff_src
        conf.a = gemm_access_of(ds[0], ds[1], MB, OC);
        conf.b = gemm_access_t::row_major; // weights: (oc, k) k-dense
        conf.c_ncontig = true;
        shape.M = MB, shape.N = IC, shape.K = OC;
    } else {
        conf.a_dt = dst_md_.data_type; // diff_dst^T
        conf.b_dt = src_md_.data_type;
        conf.c_dt = weights_md_.data_type; // diff_weights
        conf.a = gemm_access_of(ds[1], ds[0], OC, MB);
        conf.b = gemm_access_t::row_major; // src: (mb, k) k-dense
        conf.c_ncontig = true;
        shape.M = OC, shape.N = IC, shape.K = MB;
    }
    if (shape.M > INT_MAX || shape.N > INT_MAX || shape.K > INT_MAX)
        return dnnl_unimplemented;
    plan = plan_gemm(device_info_of(engine), conf, &shape);
    // The kernels keep split-K workspaces of their own unless the user
    // provides the scratchpad.
    if (attr_.scratchpad_mode == dnnl_scratchpad_mode_user)
        book_scratchpad(plan.workspace);
    return dnnl_success;
}

status_t ocl_inner_product_t::init(engine_t *engine) {
    const pd_t &pd = *pd_();
    DNNL_CHECK(kernels_.init(engine, pd.conf, pd.plan));
    if (!pd.is_bwd_w() || !pd.with_bias()) return dnnl_success;
    kernel_options_t o;
    define_data_type(o, "DD", pd.dst_md().data_type);
    define_data_type(o, "DB", pd.bias_md().data_type);
    return create_kernel(engine, "inner_product/ip_bias.cl", o, "ip_diff_bias",
            bias_kernel_);
}

status_t ocl_inner_product_t::execute(const exec_ctx_t &ctx) const {
    const pd_t &pd = *pd_();
    const memory_desc_t &src = pd.src_md(), &wei = pd.weights_md(),
                        &dst = pd.dst_md();
    const dim_t MB = pd.MB(), OC = pd.OC(), IC = pd.IC_total();
    const dim_t *ss = strides(src), *ws = strides(wei), *ds = strides(dst);
    const int src_arg = pd.is_bwd_d() ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC;
    const int wei_arg =
            pd.is_bwd_w() ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS;
    const int dst_arg = pd.is_fwd() ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
    const cl_mem src_m = mem_of(ctx, src_arg), wei_m = mem_of(ctx, wei_arg),
                 dst_m = mem_of(ctx, dst_arg);
    DNNL_CHECK(check_buffer(src_m, src, "inner_product src"));
    DNNL_CHECK(check_buffer(wei_m, wei, "inner_product weights"));
    DNNL_CHECK(check_buffer(dst_m, dst, "inner_product dst"));

    gemm_exec_t e;
    if (pd.is_fwd()) {
        e.M = MB, e.N = OC, e.K = IC;
        e.a = src_m, e.a_off = src.offset0, e.a_sm = ss[0], e.a_sk = 1;
        e.b = wei_m, e.b_off = wei.offset0, e.b_sk = 1, e.b_sn = ws[0];
        e.c = dst_m, e.c_off = dst.offset0, e.c_sm = ds[0];
        e.c_sn = pd.conf.c_ncontig ? 1 : ds[1];
        if (pd.with_bias()) {
            e.bias = mem_of(ctx, DNNL_ARG_BIAS);
            DNNL_CHECK(
                    check_buffer(e.bias, pd.bias_md(), "inner_product bias"));
            e.bias_off = pd.bias_md().offset0;
            e.bias_sn = strides(pd.bias_md())[0];
        }
        const gemm_conf_t &c = pd.conf;
        const int S = DNNL_ARG_ATTR_SCALES;
        if (c.src_scale) e.src_scale = mem_of(ctx, S | DNNL_ARG_SRC);
        if (c.wei_scale) e.wei_scale = mem_of(ctx, S | DNNL_ARG_WEIGHTS);
        if (c.dst_scale) e.dst_scale = mem_of(ctx, S | DNNL_ARG_DST);
        if ((c.src_scale && !e.src_scale) || (c.wei_scale && !e.wei_scale)
                || (c.dst_scale && !e.dst_scale)) {
            verbose_error("inner_product", "gpu: scales missing");
            return dnnl_invalid_arguments;
        }
        const quant_entry_t *w = pd.attr()->scales.get(DNNL_ARG_WEIGHTS);
        e.wei_scale_sn = w && w->mask != 0 ? 1 : 0;
    } else if (pd.is_bwd_d()) {
        e.M = MB, e.N = IC, e.K = OC;
        e.a = dst_m, e.a_off = dst.offset0, e.a_sm = ds[0], e.a_sk = ds[1];
        e.b = wei_m, e.b_off = wei.offset0, e.b_sk = ws[0], e.b_sn = 1;
        e.c = src_m, e.c_off = src.offset0, e.c_sm = ss[0], e.c_sn = 1;
    } else {
        e.M = OC, e.N = IC, e.K = MB;
        e.a = dst_m, e.a_off = dst.offset0, e.a_sm = ds[1], e.a_sk = ds[0];
        e.b = src_m, e.b_off = src.offset0, e.b_sk = ss[0], e.b_sn = 1;
        e.c = wei_m, e.c_off = wei.offset0, e.c_sm = ws[0], e.c_sn = 1;
    }
    if (!gemm_fit_access(pd.conf.a, e.M, e.K, e.a_sm, e.a_sk))
        return dnnl_runtime_error; // the pd chose the access from these
    e.workspace = scratchpad_of(ctx);
    DNNL_CHECK(kernels_.execute(ctx, e));
    if (!bias_kernel_.valid() || OC == 0) return dnnl_success;

    const memory_desc_t &bias = pd.bias_md();
    const cl_mem db = mem_of(ctx, DNNL_ARG_DIFF_BIAS);
    DNNL_CHECK(check_buffer(db, bias, "inner_product diff_bias"));
    kernel_args_t args;
    args.mem(dst_m)
            .i64(dst.offset0)
            .i64(ds[0])
            .i64(ds[1])
            .i32((int32_t)MB)
            .i32((int32_t)OC)
            .mem(db)
            .i64(bias.offset0)
            .i64(strides(bias)[0]);
    return bias_kernel_.enqueue(ctx, nd_range_t({(size_t)OC}, {64}), args);
}

const impl_list_item_t *inner_product_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<ocl_inner_product_t::pd_t, inner_product_desc_t>},
            // Blocked tensors the above refuse: dense copies around it (the
            // engine-neutral wrapper of the cpu list).
            {create_pd<cpu::inner_product::blocked_inner_product_pd_t,
                    inner_product_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
