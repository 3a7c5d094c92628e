// Staged tensors: scratchpad layout and the copy kernels (see
// ocl_staging.hpp).
#include "gpu/ocl/ocl_staging.hpp"

#include "common/binary_pd.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_layout.hpp"
#include "gpu/ocl/ocl_primitive.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {
constexpr size_t region_align = 256;
size_t align_up(size_t v) {
    return (v + region_align - 1) / region_align * region_align;
}
} // namespace

int staging_t::add(
        int arg, const memory_desc_t &md, bool in, bool out, bool native) {
    entry_t e;
    e.arg = arg;
    e.user_md = md;
    e.kernel_md = md;
    e.in = in;
    e.out = out;
    e.staged = !native;
    e.offset = 0;
    if (e.staged) {
        layout::plain(e.kernel_md, md.ndims, md.dims, md.data_type);
        e.offset = reserve(md_size(e.kernel_md));
    }
    e_.push_back(e);
    return (int)e_.size() - 1;
}

size_t staging_t::reserve(size_t bytes) {
    const size_t off = bytes_;
    bytes_ = align_up(bytes_ + bytes);
    return off;
}

bool staging_t::any_staged() const {
    for (const auto &e : e_)
        if (e.staged) return true;
    return false;
}

tensor_buf_t staging_t::buffer(const exec_ctx_t &ctx, int k) const {
    const entry_t &e = at(k);
    tensor_buf_t b;
    if (e.staged) {
        b.mem = scratchpad_of(ctx);
        b.off0 = (int64_t)(e.offset / data_type_size(e.user_md.data_type));
    } else {
        b.mem = mem_of(ctx, e.arg);
        b.off0 = e.user_md.offset0;
    }
    return b;
}

int staging_kernels_t::slot(size_t elem_bytes) {
    return elem_bytes == 1 ? 0 : elem_bytes == 2 ? 1 : elem_bytes == 4 ? 2 : 3;
}

status_t staging_kernels_t::init(engine_t *engine, const staging_t &s) {
    for (int k = 0; k < s.size(); ++k) {
        const auto &e = s.at(k);
        if (!e.staged) continue;
        const size_t bytes = data_type_size(e.user_md.data_type);
        const int i = slot(bytes);
        if (gather_[i].valid()) continue;
        kernel_options_t opts;
        opts.define("ELEM_BYTES", (int64_t)bytes);
        std::vector<ocl_kernel_t> ks;
        DNNL_CHECK(create_kernels(engine, "ocl_staging.cl", opts,
                {"staging_gather", "staging_scatter"}, ks));
        gather_[i] = ks[0];
        scatter_[i] = ks[1];
    }
    return dnnl_success;
}

status_t staging_kernels_t::gather(
        const exec_ctx_t &ctx, const staging_t &s) const {
    for (int k = 0; k < s.size(); ++k) {
        const auto &e = s.at(k);
        if (!e.staged || !e.in) continue;
        const dim_t n = md_nelems(e.user_md);
        if (n == 0) continue;
        cl_mem user = mem_of(ctx, e.arg), scratch = scratchpad_of(ctx);
        if (!user || !scratch) {
            verbose_error("ocl", "argument %d has no gpu buffer", e.arg);
            return dnnl_invalid_arguments;
        }
        const int64_t off =
                (int64_t)(e.offset / data_type_size(e.user_md.data_type));
        kernel_args_t args;
        args.mem(user)
                .value(make_layout(e.user_md))
                .mem(scratch)
                .i64(off)
                .i64(n);
        DNNL_CHECK(gather_[slot(data_type_size(e.user_md.data_type))].enqueue(
                ctx, nd_range_t({(size_t)n}, {64}), args));
    }
    return dnnl_success;
}

status_t staging_kernels_t::scatter(
        const exec_ctx_t &ctx, const staging_t &s) const {
    for (int k = 0; k < s.size(); ++k) {
        const auto &e = s.at(k);
        if (!e.staged || !e.out) continue;
        const dim_t n = md_nelems(e.user_md, true);
        if (n == 0) continue;
        cl_mem user = mem_of(ctx, e.arg), scratch = scratchpad_of(ctx);
        if (!user || !scratch) {
            verbose_error("ocl", "argument %d has no gpu buffer", e.arg);
            return dnnl_invalid_arguments;
        }
        const int64_t off =
                (int64_t)(e.offset / data_type_size(e.user_md.data_type));
        kernel_args_t args;
        args.mem(scratch)
                .i64(off)
                .mem(user)
                .value(make_layout(e.user_md))
                .i64(n);
        DNNL_CHECK(scatter_[slot(data_type_size(e.user_md.data_type))].enqueue(
                ctx, nd_range_t({(size_t)n}, {64}), args));
    }
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
