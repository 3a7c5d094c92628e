// Offset tables of blocked layouts and their device buffers.
#include "gpu/ocl/ocl_offset_table.hpp"

#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_utils.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

table_space_t make_table_space(const memory_desc_t &md, bool with_padding) {
    table_space_t s = {};
    s.ndims = md.ndims;
    for (int d = 0; d < table_max_ndims; ++d) {
        s.dims[d] = d < md.ndims ? md.dims[d] : 1;
        s.pdims[d] = d >= md.ndims  ? 1
                     : with_padding ? md.padded_dims[d]
                                    : md.dims[d];
    }
    return s;
}

int64_t table_space_volume(const table_space_t &s) {
    int64_t v = 1;
    for (int d = 0; d < s.ndims; ++d) v *= s.pdims[d];
    return v;
}

int64_t table_length(const table_space_t &s) {
    int64_t n = 1;
    for (int d = 0; d < s.ndims; ++d) n += s.pdims[d];
    return n;
}

void append_offset_table(std::vector<int64_t> &out, const memory_desc_t &md,
        const table_space_t &space, int shift_dim, dim_t shift) {
    dim_t pos[max_ndims] = {0};
    const dim_t base = md_off_v(md, pos);
    out.push_back(base);
    for (int d = 0; d < space.ndims; ++d) {
        const bool bcast = md.dims[d] == 1 && space.dims[d] != 1;
        for (int64_t i = 0; i < space.pdims[d]; ++i) {
            const dim_t p = i + (d == shift_dim ? shift : 0);
            if (bcast || p >= md.padded_dims[d]) {
                out.push_back(0);
                continue;
            }
            pos[d] = p;
            out.push_back(md_off_v(md, pos) - base);
            pos[d] = 0;
        }
    }
}

status_t device_table_t::create(
        engine_t *engine, const std::vector<int64_t> &values) {
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!e || values.empty()) return dnnl_invalid_arguments;
    bytes_ = values.size() * sizeof(int64_t);
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(e->context(),
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes_,
            const_cast<int64_t *>(values.data()), &err);
    if (err != CL_SUCCESS) return check_cl(err, "clCreateBuffer");
    mem_.reset(m, [](cl_mem x) { clReleaseMemObject(x); });
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
