// The plan of the fast reorder: both layouts are split into a common set of
// loop "nodes" (a count and the strides it moves in source, destination and
// quantization arrays), sorted in destination order and merged where
// contiguous. The innermost nodes go to a kernel: a 1-D loop (contiguous
// copy/convert, or strided), or a 2-D tiled transpose when the source's and
// the destination's contiguous dims differ. Dims whose size is not a
// multiple of the blocks (padded channels) leave a tail that the generic
// loop finishes, zero-filling the destination's padding.
#pragma once

#include <vector>

#include "common/memory_desc.hpp"
#include "cpu/reorder/ref_reorder_engine.hpp"
#include "cpu/reorder/reorder_quant.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

struct node_t {
    dim_t n;      // count
    dim_t is, os; // strides in source and destination elements
    dim_t qs;     // stride in the quantization arrays of the common mask
};

enum class qmode_t {
    none,       // plain conversion
    scalar,     // scales/zero points with mask 0, no sum
    scalar_sum, // same, with a sum
    indexed,    // arrays indexed along the common mask (sum allowed)
};

enum class kernel_kind_t { linear, tile };

struct simple_plan_t {
    // Returns dnnl_unimplemented when the fast reorder does not apply.
    status_t init(const memory_desc_t &src, const memory_desc_t &dst,
            const quant_conf_t &conf);

    bool empty = false;        // a zero-size tensor: nothing to do
    std::vector<node_t> outer; // loops around the kernel, outermost first
    kernel_kind_t kind = kernel_kind_t::linear;
    node_t k1{};           // linear: the kernel's node
    node_t k2{1, 0, 0, 0}; // linear: a loop around k1 when k1 is short
    node_t k3{1, 0, 0, 0}; // linear: a loop around k2 when both are short
    node_t ka{}, kb{};     // tile: ka contiguous in dst, kb contiguous in src
    // linear: work items take `chunk` steps of the outermost kernel loop
    // (k3, k2 or k1).
    dim_t chunk = 0;
    dim_t tile_a = 0, tile_b = 0; // tile: tile sizes
    dim_t s0 = 0, d0 = 0;         // base offsets
    dim_t q0 = 0; // index of the first position in the quantization arrays
    qmode_t qmode = qmode_t::none;
    bool qidx[q_count] = {}; // indexed: arrays that follow the common mask
    data_type_t sdt = dnnl_f32, ddt = dnnl_f32;
    dim_t elems = 0; // elements the nodes cover
    // The kernels write whole destination lines with non-temporal stores:
    // a destination this large is out of the caches by the time anything
    // reads it, and streaming it keeps the source there and saves reading
    // each line before writing it. Not with a sum or indexed values.
    bool stream_dst = false;
    static constexpr size_t stream_min_bytes = size_t(16) << 20;

    // Tail: positions outside the main box (index < main[d] in every dim)
    // done by the generic loop (`tail`, set only when tail_boxes is empty).
    bool need_tail = false;
    dims_t main{}, dpad{};
    ref_tables_t tail;
    // Without a sum, the destination blocks that hold padding are zeroed
    // first (whole blocks, fast), and the generic loop then only writes the
    // real elements of the tail.
    bool zero_first = false;
    struct fill_box_t {
        dim_t base;                // element offset of the box's first element
        std::vector<node_t> nodes; // n and os used, outermost first
    };
    std::vector<fill_box_t> zero_boxes;
    // With zero_first, the tail as plans of the same kernels (boxes of the
    // partial blocks, plan_tail_boxes), where every box splits into
    // factors; empty: the generic loop runs the tail.
    std::vector<simple_plan_t> tail_boxes;

    // A short description for the implementation name.
    const char *impl_name() const;

private:
    status_t plan_box(const memory_desc_t &src, const memory_desc_t &dst,
            const dim_t *qstr, const dim_t *lo, const dim_t *ext);
    void plan_tail_boxes(const memory_desc_t &src, const memory_desc_t &dst,
            const dim_t *qstr);
};

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
