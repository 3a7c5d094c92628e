// Post-op chains as kernel defines and arguments.
#include "gpu/ocl/ocl_post_ops.hpp"

#include <string>

#include "common/verbose.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_types.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// Strides of a select post-op's s8 condition over the destination's
// logical dims (0 where it broadcasts); plain layouts only.
status_t post_ops_conf_t::condition_strides(const memory_desc_t &cond,
        const memory_desc_t &dst_md, const char *who, entry_t &e) {
    if (cond.ndims != dst_md.ndims || cond.format_kind != dnnl_blocked
            || cond.format_desc.blocking.inner_nblks != 0
            || cond.data_type != dnnl_s8) {
        verbose_check(who, "gpu: select post-op condition not a plain s8 "
                           "tensor of the destination's rank");
        return dnnl_unimplemented;
    }
    for (int d = 0; d < cond.ndims; ++d) {
        if (cond.dims[d] != 1 && cond.dims[d] != dst_md.dims[d]) {
            verbose_check(who, "gpu: select post-op condition shape");
            return dnnl_unimplemented;
        }
        e.cond_strides[d] = cond.dims[d] == 1
                ? 0
                : cond.format_desc.blocking.strides[d];
    }
    return dnnl_success;
}

bool post_ops_conf_t::positional() const {
    for (const entry_t &e : entries_)
        if (e.op.kind == post_op_kind_t::binary
                || e.op.kind == post_op_kind_t::prelu)
            return true;
    return false;
}

status_t post_ops_conf_t::init(const dnnl_post_ops &po,
        const memory_desc_t &dst_md, const char *who, bool any_rank) {
    entries_.clear();
    has_sum_ = false;
    if (po.entries.empty()) return dnnl_success;
    bool position_free = true;
    for (const post_op_t &op : po.entries)
        position_free = position_free && op.kind != post_op_kind_t::binary
                        && op.kind != post_op_kind_t::prelu;
    if ((int)po.entries.size() > max_post_ops
            || (dst_md.ndims > 6 && !(any_rank && position_free))) {
        verbose_check(who, "gpu: at most %d post-ops on at most 6 dims",
                max_post_ops);
        return dnnl_unimplemented;
    }
    for (const post_op_t &op : po.entries) {
        entry_t e;
        e.op = op;
        switch (op.kind) {
        case post_op_kind_t::eltwise:
            break;
        case post_op_kind_t::sum:
            // Kernels read the previous destination in its own type.
            if (op.sum_dt != dnnl_data_type_undef
                    && op.sum_dt != dst_md.data_type) {
                verbose_check(who, "gpu: sum post-op of another type");
                return dnnl_unimplemented;
            }
            has_sum_ = true;
            break;
        case post_op_kind_t::binary: {
            const memory_desc_t &s1 = op.src1_md;
            if (s1.ndims != dst_md.ndims
                    || s1.format_kind != dnnl_blocked
                    || s1.format_desc.blocking.inner_nblks != 0
                    || !kernel_converts(s1.data_type)) {
                verbose_check(who, "gpu: binary post-op with a blocked, "
                                   "mis-shaped or unsupported second source");
                return dnnl_unimplemented;
            }
            for (int d = 0; d < s1.ndims; ++d) {
                if (s1.dims[d] != 1 && s1.dims[d] != dst_md.dims[d]) {
                    verbose_check(who, "gpu: binary post-op shape");
                    return dnnl_unimplemented;
                }
                e.strides[d] = s1.dims[d] == 1
                                       ? 0
                                       : s1.format_desc.blocking.strides[d];
            }
            if (op.alg == dnnl_binary_select)
                DNNL_CHECK(condition_strides(op.src2_md, dst_md, who, e));
            break;
        }
        case post_op_kind_t::prelu: {
            // f32 weights over the dims in the mask, dense and plain in
            // their logical order (oneDNN's layout for them).
            int64_t stride = 1;
            for (int d = dst_md.ndims - 1; d >= 0; --d) {
                if (!((op.prelu_mask >> d) & 1) || dst_md.dims[d] == 1)
                    continue;
                e.strides[d] = stride;
                stride *= dst_md.dims[d];
            }
            break;
        }
        default:
            verbose_check(who, "gpu: only eltwise, sum, binary and prelu "
                               "post-ops are fused");
            return dnnl_unimplemented;
        }
        entries_.push_back(e);
    }
    return dnnl_success;
}

void post_ops_conf_t::define(kernel_options_t &opts) const {
    opts.define("PO_COUNT", (int64_t)entries_.size());
    for (size_t i = 0; i < entries_.size(); ++i) {
        const post_op_t &op = entries_[i].op;
        const std::string p = "PO_" + std::to_string(i) + "_";
        const bool select = op.kind == post_op_kind_t::binary
                && op.alg == dnnl_binary_select;
        int kind = op.kind == post_op_kind_t::eltwise ? 1
                   : op.kind == post_op_kind_t::sum   ? 2
                   : op.kind == post_op_kind_t::prelu ? 5
                   : select                           ? 4
                                                      : 3;
        opts.define((p + "KIND").c_str(), kind);
        opts.define((p + "ALG").c_str(), (int64_t)op.alg);
        opts.define_float((p + "ALPHA").c_str(), op.alpha);
        opts.define_float((p + "BETA").c_str(), op.beta);
        opts.define_float((p + "SCALE").c_str(), op.scale);
        opts.define_float((p + "ZP").c_str(), (float)op.zero_point);
        // PO_<i>_DT and PO_<i>_T: the second source's type (binary).
        define_data_type(opts, ("PO_" + std::to_string(i)).c_str(),
                op.kind == post_op_kind_t::binary ? op.src1_md.data_type
                                                  : dnnl_f32);
        std::string strides;
        for (int d = 0; d < 6; ++d) {
            if (d) strides += ",";
            strides += std::to_string(entries_[i].strides[d]);
        }
        opts.define((p + "S").c_str(), strides);
        std::string cond_strides;
        for (int d = 0; d < 6; ++d) {
            if (d) cond_strides += ",";
            cond_strides += std::to_string(entries_[i].cond_strides[d]);
        }
        opts.define((p + "CS").c_str(), cond_strides);
    }
}

void post_ops_conf_t::set_args(
        kernel_args_t &args, const exec_ctx_t &ctx) const {
    for (size_t i = 0; i < entries_.size(); ++i) {
        const post_op_t &op = entries_[i].op;
        const int base = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        cl_mem src1 = nullptr, cond = nullptr;
        if (op.kind == post_op_kind_t::binary)
            src1 = mem_of(ctx, base | DNNL_ARG_SRC_1);
        if (op.kind == post_op_kind_t::prelu)
            src1 = mem_of(ctx, base | DNNL_ARG_WEIGHTS);
        if (op.kind == post_op_kind_t::binary && op.alg == dnnl_binary_select)
            cond = mem_of(ctx, base | DNNL_ARG_SRC_2);
        args.mem(src1);
        args.mem(cond);
    }
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
