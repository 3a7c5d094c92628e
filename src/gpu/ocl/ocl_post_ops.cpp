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

status_t post_ops_conf_t::init(
        const dnnl_post_ops &po, const memory_desc_t &dst_md, const char *who) {
    entries_.clear();
    has_sum_ = false;
    if (po.entries.empty()) return dnnl_success;
    if ((int)po.entries.size() > max_post_ops || dst_md.ndims > 6) {
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
            if (op.alg == dnnl_binary_select || s1.ndims != dst_md.ndims
                    || s1.format_kind != dnnl_blocked
                    || s1.format_desc.blocking.inner_nblks != 0
                    || !kernel_supports(s1.data_type)) {
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
            break;
        }
        default:
            verbose_check(who, "gpu: only eltwise, sum and binary "
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
        int kind = op.kind == post_op_kind_t::eltwise ? 1
                   : op.kind == post_op_kind_t::sum   ? 2
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
    }
}

void post_ops_conf_t::set_args(
        kernel_args_t &args, const exec_ctx_t &ctx) const {
    for (size_t i = 0; i < entries_.size(); ++i) {
        cl_mem m = nullptr;
        if (entries_[i].op.kind == post_op_kind_t::binary)
            m = mem_of(ctx,
                    DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i) | DNNL_ARG_SRC_1);
        args.mem(m);
    }
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
