// Dense copies of tensors a kernel cannot address natively. A family's
// kernels see every tensor as a few merged strides (ocl_unit_plan.hpp);
// a tensor whose layout does not merge (blocked, padded, permuted dims
// that must stay apart) is "staged": gathered into a dense row-major copy
// of the same data type in the scratchpad before the kernels run, and
// scattered back (its padding zeroed) after, so every kernel has one
// addressing scheme and blocked layouts still work everywhere.
//
// staging_t lives in the primitive descriptor (what is staged, where in
// the scratchpad, plus extra regions the family reserves for partial
// results); staging_kernels_t lives in the primitive (the copy kernels).
#pragma once

#include <CL/cl.h>

#include <vector>

#include "common/exec_ctx.hpp"
#include "common/memory_desc.hpp"
#include "gpu/ocl/ocl_kernel.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// A tensor as kernels get it: its buffer and the element offset of its
// logical origin (the view strides come from staging_t::kernel_md).
struct tensor_buf_t {
    cl_mem mem = nullptr;
    int64_t off0 = 0;
};

class staging_t {
public:
    struct entry_t {
        int arg;
        memory_desc_t user_md; // as the user gives it
        memory_desc_t kernel_md; // what kernels address
        bool in, out, staged;
        size_t offset; // bytes into the scratchpad (staged)
    };

    // Registers argument `arg` of descriptor `md` (read when `in`,
    // written when `out`); it is staged unless `native`. Returns its
    // index.
    int add(int arg, const memory_desc_t &md, bool in, bool out, bool native);
    // A scratchpad region of `bytes` for the family's own use; returns
    // its byte offset.
    size_t reserve(size_t bytes);
    size_t scratch_bytes() const { return bytes_; }
    const entry_t &at(int k) const { return e_[(size_t)k]; }
    const memory_desc_t &kernel_md(int k) const { return at(k).kernel_md; }
    int size() const { return (int)e_.size(); }
    bool any_staged() const;

    // The buffer of entry k at execution (mem null when the argument has
    // no gpu buffer).
    tensor_buf_t buffer(const exec_ctx_t &ctx, int k) const;

private:
    std::vector<entry_t> e_;
    size_t bytes_ = 0;
};

class staging_kernels_t {
public:
    status_t init(engine_t *engine, const staging_t &s);
    // Copies staged inputs into the scratchpad.
    status_t gather(const exec_ctx_t &ctx, const staging_t &s) const;
    // Copies staged outputs back, zeroing their padding.
    status_t scatter(const exec_ctx_t &ctx, const staging_t &s) const;

private:
    static int slot(size_t elem_bytes);
    ocl_kernel_t gather_[4], scatter_[4]; // 1, 2, 4 and 8-byte elements
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
