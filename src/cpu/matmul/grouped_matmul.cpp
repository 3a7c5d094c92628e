// Grouped matmul: the checks of oneDNN's reference grouped GEMM for the
// cases taken here, and the per-group row loops.
#include "cpu/matmul/grouped_matmul.hpp"

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/sparse_md.hpp"
#include "common/verbose.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

status_t refuse(const char *why) {
    verbose_check("matmul", "grouped: %s", why);
    return dnnl_unimplemented;
}

bool fp(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

// The group boundaries of one grouped memory: group g holds rows
// [begin(g), end(g)).
struct groups_t {
    const int32_t *end_ = nullptr;
    dim_t begin(dim_t g) const { return g == 0 ? 0 : end_[g - 1]; }
    dim_t end(dim_t g) const { return end_[g]; }
};

// Offsets that stay within [0, rows] and never decrease.
bool groups_ok(const groups_t &gr, dim_t ngroups, dim_t rows) {
    for (dim_t g = 0; g < ngroups; ++g)
        if (gr.begin(g) < 0 || gr.end(g) < gr.begin(g) || gr.end(g) > rows)
            return false;
    return true;
}

} // namespace

status_t grouped_matmul_t::pd_t::init(engine_t *engine) {
    if (!md_is_grouped(src_md_)) return dnnl_unimplemented; // not grouped
    if (engine->kind() != dnnl_cpu) return refuse("cpu engine only");
    if (!fp(src_md_.data_type) || !fp(weights_md_.data_type)
            || !fp(dst_md_.data_type)
            || (with_bias() && !fp(bias_md_.data_type)))
        return refuse("f32, bf16 or f16 data only");
    primitive_attr_t plain_attr = attr_;
    const primitive_attr_t defaults;
    plain_attr.fpmath_mode = defaults.fpmath_mode; // f32 math either way
    plain_attr.fpmath_apply_to_int = defaults.fpmath_apply_to_int;
    if (!plain_attr.computes_as_default())
        return refuse("attributes are not supported");
    if (with_bias()) {
        if (bias_md_.format_kind == dnnl_format_kind_any) {
            memory_desc_t r;
            DNNL_CHECK(md_init_by_strides(
                    r, 2, bias_md_.dims, bias_md_.data_type, nullptr));
            bias_md_ = r;
        }
        if (bias_md_.format_kind != dnnl_blocked
                || bias_md_.format_desc.blocking.inner_nblks != 0)
            return refuse("bias must be plain");
    }
    return dnnl_success;
}

status_t grouped_matmul_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd();
    const memory_desc_t &src_md = p->src_md(), &wei_md = p->weights_md(),
                        &dst_md = p->dst_md(), &bia_md = p->bias_md();
    const dim_t rows = src_md.dims[0], K = src_md.dims[1], N = dst_md.dims[1];
    const dim_t ngroups =
            src_md.format_desc.sparse_desc.grouped_desc.group_count;
    const memory_t *src_mem = ctx.memory(DNNL_ARG_SRC);
    const memory_t *dst_mem = ctx.memory(DNNL_ARG_DST);
    const void *wei = ctx.host_ptr(DNNL_ARG_WEIGHTS);
    const void *bias = p->with_bias() ? ctx.host_ptr(DNNL_ARG_BIAS) : nullptr;
    if (!src_mem || !dst_mem || !wei || (p->with_bias() && !bias)) {
        verbose_error("matmul", "grouped: an argument is missing");
        return dnnl_invalid_arguments;
    }
    const void *src = src_mem->host_ptr(0);
    void *dst = dst_mem->host_ptr(0);
    const groups_t sg{static_cast<const int32_t *>(src_mem->host_ptr(1))};
    const groups_t dg{static_cast<const int32_t *>(dst_mem->host_ptr(1))};
    if (!src || !dst || !sg.end_ || !dg.end_) {
        verbose_error(
                "matmul", "grouped: a values or offsets buffer is missing");
        return dnnl_invalid_arguments;
    }
    if (!groups_ok(sg, ngroups, rows) || !groups_ok(dg, ngroups, rows)) {
        verbose_error("matmul", "grouped: offsets decrease or leave [0, %lld]",
                (long long)rows);
        return dnnl_invalid_arguments;
    }
    for (dim_t g = 0; g < ngroups; ++g)
        if (sg.end(g) - sg.begin(g) != dg.end(g) - dg.begin(g)) {
            verbose_error("matmul",
                    "grouped: group %lld has different sizes in the source "
                    "and the destination",
                    (long long)g);
            return dnnl_invalid_arguments;
        }
    const auto &ws = wei_md.format_desc.blocking.strides;
    const dim_t bs0 =
            p->with_bias() ? bia_md.format_desc.blocking.strides[0] : 0;
    const dim_t bs1 =
            p->with_bias() ? bia_md.format_desc.blocking.strides[1] : 0;
    const data_type_t sdt = src_md.data_type, wdt = wei_md.data_type,
                      ddt = dst_md.data_type, bdt = bia_md.data_type;
    // One unit per group and destination row: row m of group g.
    parallel_nd(ngroups, rows, [&](dim_t g, dim_t r) {
        const dim_t m = sg.begin(g) + r;
        if (m >= sg.end(g)) return;
        const dim_t out_row = dg.begin(g) + r;
        for (dim_t n = 0; n < N; ++n) {
            float acc = bias ? load_f32(bdt, bias, g * bs0 + n * bs1) : 0.f;
            for (dim_t k = 0; k < K; ++k)
                acc += load_f32(sdt, src, m * K + k)
                       * load_f32(wdt, wei, g * ws[0] + k * ws[1] + n * ws[2]);
            store_f32(ddt, acc, dst, out_row * N + n);
        }
    });
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
