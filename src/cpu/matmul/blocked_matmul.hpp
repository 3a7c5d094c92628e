// Matmul over blocked layouts (any of src, weights, bias, dst with inner
// blocks, e.g. weights in AB16b64a), which oneDNN's reference matmul
// takes and the GEMM implementations here do not: each blocked input is
// reordered into a dense row-major copy in the scratchpad, the first
// implementation that takes the plain problem runs it with every
// attribute, and a blocked dst is reordered back (after being reordered
// in first when a sum post-op reads it). Every step is a nested primitive
// of the engine's own lists, so the same implementation serves the cpu
// and the gpu engine.
#pragma once

#include <memory>
#include <string>

#include "common/matmul_pd.hpp"
#include "common/primitive.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

struct blocked_matmul_pd_t : public matmul_pd_t {
    blocked_matmul_pd_t(const matmul_desc_t &d, const primitive_attr_t &attr,
            const primitive_desc_t *)
        : matmul_pd_t(d, attr) {}
    const char *name() const override { return name_.c_str(); }
    // The nested matmul checks select post-ops (and refuses what it must).
    bool handles_select_post_op() const override { return true; }
    status_t init(engine_t *engine);
    status_t make_primitive(std::shared_ptr<primitive_t> &p) const override;

    // Per tensor (src, weights, bias, dst): the dense copy's descriptor
    // (its offset0 places it in the scratchpad), whether it is converted,
    // and the reorders to it and (dst) back.
    enum { src, wei, bias, dst, count };
    static int arg_of(int t);
    memory_desc_t plain_md[count] {};
    bool converted[count] = {};
    std::shared_ptr<primitive_desc_t> to_plain[count], dst_back;
    std::shared_ptr<primitive_desc_t> matmul;
    // Scratchpad bytes: the nested primitives' (shared: they run one
    // after another) from the start, then the copies.
    size_t scratch_bytes = 0;
    std::string name_;

private:
    // The copies from byte `base` of the scratchpad and the nested
    // descriptors over them; `nested_bytes`: the largest nested scratchpad.
    status_t build(engine_t *engine, size_t base, size_t &nested_bytes);
    status_t add_reorder(std::shared_ptr<primitive_desc_t> &out,
            const memory_desc_t &from, const memory_desc_t &to,
            engine_t *engine);
};

struct blocked_matmul_t : public primitive_t {
    using primitive_t::primitive_t;
    status_t init(engine_t *engine) override;
    status_t create_resource(
            engine_t *engine, resource_mapper_t &mapper) const override;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const blocked_matmul_pd_t *pd_() const {
        return static_cast<const blocked_matmul_pd_t *>(pd());
    }
    std::shared_ptr<primitive_t> to_plain_[blocked_matmul_pd_t::count],
            matmul_, dst_back_;
};

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
