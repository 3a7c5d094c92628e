// Host side of ocl_post_ops.clh: checks a post-op chain, turns it into
// kernel defines, and passes the binary entries' second sources (and
// select's conditions).
#pragma once

#include <vector>

#include "common/exec_ctx.hpp"
#include "common/primitive_attr.hpp"
#include "gpu/ocl/ocl_kernel.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

constexpr int max_post_ops = 6;

class post_ops_conf_t {
public:
    // dnnl_unimplemented (with a create:check line naming `who`) for
    // chains kernels cannot apply: other kinds than eltwise, sum, binary
    // and prelu, more than max_post_ops entries, a destination of more
    // than six dims, blocked or unsupported second sources. `any_rank`:
    // the caller passes no positions to a chain without binary or PReLU
    // entries (positional() false), which then takes any rank.
    status_t init(const dnnl_post_ops &po, const memory_desc_t &dst_md,
            const char *who, bool any_rank = false);
    // True when an entry reads a second tensor at the destination's
    // position (binary, PReLU).
    bool positional() const;
    void define(kernel_options_t &opts) const;
    // Appends two buffer arguments per entry: binary src1 (prelu: its
    // weights) and select's condition (null where the entry has none).
    void set_args(kernel_args_t &args, const exec_ctx_t &ctx) const;
    bool has_sum() const { return has_sum_; }
    int count() const { return (int)entries_.size(); }

private:
    struct entry_t {
        post_op_t op;
        int64_t strides[6] = {0, 0, 0, 0, 0, 0};
        int64_t cond_strides[6] = {0, 0, 0, 0, 0, 0}; // select's condition
    };
    static status_t condition_strides(const memory_desc_t &cond,
            const memory_desc_t &dst_md, const char *who, entry_t &e);
    std::vector<entry_t> entries_;
    bool has_sum_ = false;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
