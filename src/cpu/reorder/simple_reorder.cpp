// The fast CPU reorder: plan execution over threads, then the tail.
#include "cpu/reorder/simple_reorder.hpp"

#include "cpu/cpu_isa.hpp"
#include <cstring>
#include <string>

#include "oneapi/dnnl/dnnl_debug.h"

#include "cpu/kernel_name.hpp"

#include "cpu/reorder/reorder_layout.hpp"
#include "cpu/threading/threading.hpp"
#include "cpu/reorder/simple_exec.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

// The implementation name in kernel-name form (cpu/kernel_name.hpp): data
// types (one when the type does not change), the plan's operation with its
// tile and quantization, "_nt" when it streams the destination, the ISA:
// f32_s8_strided_quant__avx2, f32_transpose_16x16_nt__avx512_core; "any"
// for an empty tensor.
static std::string kernel_name_of(const simple_plan_t &p, const char *isa) {
    if (p.empty) return "any";
    std::string dts = dnnl_dt2str(p.sdt);
    if (p.ddt != p.sdt) dts += std::string("_") + dnnl_dt2str(p.ddt);
    std::string op = p.impl_name();
    if (p.kind == kernel_kind_t::tile)
        op += "_" + std::to_string(p.tile_a) + "x" + std::to_string(p.tile_b);
    switch (p.qmode) {
    case qmode_t::none: break;
    case qmode_t::scalar: op += "_quant"; break;
    case qmode_t::scalar_sum: op += "_quant_sum"; break;
    case qmode_t::indexed: op += "_quant_indexed"; break;
    }
    if (p.stream_dst) op += "_nt";
    return kernel_name(dts, op, isa);
}

status_t simple_reorder_t::pd_t::init(engine_t *engine) {
    if (!reorder_mds_ok(*src_md(), *dst_md())) return dnnl_unimplemented;
    DNNL_CHECK(init_quant_conf(conf, *attr(), *src_md(), *dst_md()));
    DNNL_CHECK(plan.init(*src_md(), *dst_md(), conf));
    exec = &select_exec_kernel();
    name_ = "simple:" + kernel_name_of(plan, exec->isa);
    return dnnl_success;
}

// Zeroes the destination blocks that hold padding.
static void zero_fill(const simple_plan_t &p, void *dst) {
    const size_t esz = data_type_size(p.ddt);
    char *base = static_cast<char *>(dst);
    for (const auto &box : p.zero_boxes) {
        const auto &nodes = box.nodes;
        const node_t &in = nodes.back();
        const int no = (int)nodes.size() - 1;
        dim_t work = 1;
        for (int k = 0; k < no; ++k) work *= nodes[k].n;
        const int nthr = nthr_for(work * in.n, 16 * 1024);
        parallel(nthr, [&](int ithr, int nthr_) {
            dim_t start, end;
            balance(work, nthr_, ithr, start, end);
            for (dim_t w = start; w < end; ++w) {
                dim_t off = box.base, r = w;
                for (int k = no - 1; k >= 0; --k) {
                    off += (r % nodes[k].n) * nodes[k].os;
                    r /= nodes[k].n;
                }
                if (in.os == 1) {
                    std::memset(base + off * esz, 0, in.n * esz);
                } else {
                    for (dim_t i = 0; i < in.n; ++i)
                        std::memset(base + (off + i * in.os) * esz, 0, esz);
                }
            }
        });
    }
}

status_t simple_reorder_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    const simple_plan_t &p = pd->plan;
    if (p.empty) return dnnl_success;
    const void *src = ctx.host_ptr(DNNL_ARG_FROM);
    void *dst = ctx.host_ptr(DNNL_ARG_TO);
    if (!src || !dst) return dnnl_invalid_arguments;
    quant_values_t qv;
    DNNL_CHECK(qv.init(ctx, pd->conf, *pd->src_md()));

    // Same buffer, same layout, nothing to convert: done.
    if (src == dst && p.qmode == qmode_t::none && p.sdt == p.ddt
            && md_equal(*pd->src_md(), *pd->dst_md()))
        return dnnl_success;

    const kq_t q{qv.scale[0], qv.scale[1], qv.zp[0], qv.zp[1],
            p.qidx[q_src_scale] ? 1 : 0, p.qidx[q_dst_scale] ? 1 : 0,
            p.qidx[q_src_zp] ? 1 : 0, p.qidx[q_dst_zp] ? 1 : 0, qv.beta};
    if (p.zero_first) zero_fill(p, dst);
    pd->exec->run(p, src, dst, q);

    for (const simple_plan_t &box : p.tail_boxes)
        pd->exec->run(box, src, dst, q);
    if (p.need_tail && p.tail_boxes.empty()) {
        // Boxes outside the main one: dims before k inside it, dim k past
        // it, dims after k anywhere (only up to the real dims when the
        // padding is zero already).
        const int nd = p.tail.ndims;
        for (int k = 0; k < nd; ++k) {
            const dim_t end_k = p.zero_first ? p.tail.dims[k] : p.dpad[k];
            if (p.main[k] >= end_k) continue;
            dims_t lo, hi;
            for (int d = 0; d < nd; ++d) {
                lo[d] = 0;
                hi[d] = d < k ? p.main[d]
                              : (p.zero_first ? p.tail.dims[d] : p.dpad[d]);
            }
            lo[k] = p.main[k];
            DNNL_CHECK(p.tail.run(src, dst, qv, lo, hi));
        }
    }
    return dnnl_success;
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
