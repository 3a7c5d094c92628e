// Forward eltwise on generated code: descriptor checks, the kernel taken
// from the kernel cache, and the threaded driver (bf16 / f16 data
// converted by the kernel, on AVX-512).
#include "cpu/eltwise/eltwise_jit.hpp"

#include "common/exec_ctx.hpp"
#include "common/math/eltwise_math.hpp"
#include "common/verbose.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"
#include "cpu/eltwise/eltwise_work.hpp"
#include "cpu/jit/eltwise_injector.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace eltwise {

using namespace eltwise_md_utils;

status_t jit_eltwise_fwd_t::pd_t::init(engine_t *) {
    if (!is_fwd() || !attr_ok(false) || !attr()->post_ops.entries.empty())
        return dnnl_unimplemented;
    DNNL_CHECK(init_formats());
    const memory_desc_t &s = *src_md(), &d = *dst_md();
    if (!same_layout(s, d) || !is_dense_padded(s)) return dnnl_unimplemented;
    if (!jit::eltwise_injector_t::supports(alg(), alpha(), beta()))
        return dnnl_unimplemented;
    // Padding is processed as data: only where f(0) == 0 keeps it zero.
    if (has_padding(s)
            && !(math::eltwise_fwd(alg(), 0.f, alpha(), beta()) == 0.f))
        return dnnl_unimplemented;
    target = select_jit_target();
    if (!target) return dnnl_unimplemented;
    work = has_zero_dim() ? 0 : md_nelems(s, true);
    // f32, and bf16 / f16 where the kernel converts them (AVX-512);
    // other types and AVX2's bf16 / f16 go to the compiled kernels.
    if (!jit_converts(*target, s.data_type, d.data_type))
        return dnnl_unimplemented;
    // The generated kernel's own name: what runs (verbose, perf maps).
    name_ = "jit:" + jit_kernel_name(kernel_config());
    return dnnl_success;
}

jit_kernel_config_t jit_eltwise_fwd_t::pd_t::kernel_config() const {
    jit_kernel_config_t cfg{target, alg(), alpha(), beta()};
    cfg.sdt = src_md()->data_type;
    cfg.ddt = dst_md()->data_type;
    return cfg;
}

status_t jit_eltwise_fwd_t::init(engine_t *) {
    const pd_t *pd = pd_();
    bool hit = false;
    return get_jit_kernel(pd->kernel_config(), kernel_, hit);
}

status_t jit_eltwise_fwd_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const dim_t n = pd->work;
    if (n == 0) return dnnl_success;
    const memory_desc_t &smd = *pd->src_md(), &dmd = *pd->dst_md();
    const size_t ssz = data_type_size(smd.data_type),
                 dsz = data_type_size(dmd.data_type);
    const char *src = ctx.input<char>(DNNL_ARG_SRC);
    char *dst = ctx.output<char>(DNNL_ARG_DST);
    if (!src || !dst) return dnnl_invalid_arguments;
    src += smd.offset0 * ssz;
    dst += dmd.offset0 * dsz;
    const jit_fwd_fn fn = kernel_->fn;
    const int nthr = nthr_for(n, min_per_thread(pd->alg()));
    parallel(nthr, [&](int ithr, int nt) {
        dim_t start, end;
        balance(n, nt, ithr, start, end, 16);
        if (start < end)
            fn(src + start * ssz, dst + start * dsz, (size_t)(end - start));
    });
    return dnnl_success;
}

} // namespace eltwise
} // namespace cpu
} // namespace impl
} // namespace dnnl
