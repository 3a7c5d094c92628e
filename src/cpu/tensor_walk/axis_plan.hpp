// Two ways to walk a tensor (or several) around one "axis" dim, shared by
// softmax and shuffle:
//  - rows_plan_t: one row per position of the other dims; per-tensor offset
//    tables over all dims (any layouts), the axis table giving the row's
//    elements (`st` when they are evenly spaced);
//  - lanes_plan_t: for layouts where the axis is an unblocked dim with a
//    contiguous run of other dims inside it: tiles of C axis positions
//    (stride sa) by L contiguous lanes, the remaining parts outside.
#pragma once

#include <vector>

#include "common/memory_desc.hpp"
#include "cpu/tensor_walk/nest.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/eltwise/eltwise_utils.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace axis {

// Rows along the axis: per-tensor offset tables over all dims; the axis
// table gives a row's elements (`st` when they are evenly spaced).
struct rows_plan_t {
    int ndims = 0, axis = 0;
    dim_t dims[max_ndims] = {};
    dim_t C = 0, nrows = 0;
    std::vector<eltwise::offset_table_t> tabs;
    std::vector<dim_t> st; // axis stride per tensor, -1 when uneven
    bool contiguous = false; // rows one after another in every tensor
    void init(const memory_desc_t &ref, int axis,
            const std::vector<const memory_desc_t *> &tensors);
};

// Tiles of the lanes layout: C values along the axis (stride sa[t]), L
// contiguous lanes, the other parts outside.
struct lanes_plan_t {
    dim_t C = 0, L = 0;
    int ntensors = 0;
    dim_t sa[3] = {}, base[3] = {}; // at most 3 tensors
    int nouter = 0;
    dim_t oext[nest::max_parts] = {};
    dim_t ost[3][nest::max_parts] = {};
    dim_t outer() const;
    bool init(const memory_desc_t &master, int axis,
            const std::vector<const memory_desc_t *> &tensors);
};

// Row r's offsets (element 0 of the axis) for every tensor.
void row_bases(const rows_plan_t &p, dim_t r, dim_t *base);
// Rows r, r + 1, ... in turn: row_bases without its divisions, for
// walks whose rows are short.
struct row_cursor_t {
    row_cursor_t(const rows_plan_t &p, dim_t r, dim_t *base);
    // Moves `base` to the next row.
    void next();

private:
    const rows_plan_t &p;
    dim_t *base;
    dim_t idx[max_ndims] = {};
};
// Row of tensor t at `base` along the axis.
rows::row_t axis_row(const rows_plan_t &p, int t, const void *ptr,
        data_type_t dt, dim_t base);
// Offsets of lane l0 of the tile at outer index o.
void lane_offsets(const lanes_plan_t &p, dim_t o, dim_t l0, dim_t *off);

} // namespace axis
} // namespace cpu
} // namespace impl
} // namespace dnnl
