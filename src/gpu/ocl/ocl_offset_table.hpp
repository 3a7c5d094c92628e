// Per-dim offset tables: how kernels address tensors of any blocked
// layouts (different per tensor, broadcasts, padding) without one layout
// description per tensor in their argument list.
//
// A blocked layout's element offset is a sum of one term per dim (the
// outer stride times the block index plus that dim's positions inside the
// inner blocks), so off(idx) = base + sum_d table_d[idx_d]. The host
// writes, for each tensor, its base and then, per dim of an iteration
// space, one entry per index; the tables of a primitive go to one
// read-only device buffer made once in primitive::init, and a kernel
// adds ndims entries per element (ocl_offset_table.clh).
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "common/memory_desc.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

constexpr int table_max_ndims = 6;

// Twin of table_space_t in ocl_offset_table.clh: the iteration space
// (pdims, row-major) and which of its positions hold elements (< dims);
// the rest is padding of the destination.
struct table_space_t {
    int64_t ndims;
    int64_t dims[table_max_ndims];
    int64_t pdims[table_max_ndims];
};

// The space of `md`'s padded dims (with_padding) or of its dims.
table_space_t make_table_space(const memory_desc_t &md, bool with_padding);
int64_t table_space_volume(const table_space_t &s);
// Entries one tensor's table takes.
int64_t table_length(const table_space_t &s);

// Appends the table of `md` over `space`: its base, then for each dim d
// space.pdims[d] entries. A dim of size 1 where the space is larger
// broadcasts (entries 0); indices past md's padded dims read 0. `shift`
// is added to the index of dim `shift_dim` (a concat source's position).
void append_offset_table(std::vector<int64_t> &out, const memory_desc_t &md,
        const table_space_t &space, int shift_dim = -1, dim_t shift = 0);

// A read-only device buffer of int64 values (the tables of a primitive),
// shared by copies, released with the last one.
class device_table_t {
public:
    status_t create(engine_t *engine, const std::vector<int64_t> &values);
    cl_mem mem() const { return mem_ ? mem_.get() : nullptr; }
    size_t bytes() const { return bytes_; }

private:
    std::shared_ptr<std::remove_pointer<cl_mem>::type> mem_;
    size_t bytes_ = 0;
};

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
