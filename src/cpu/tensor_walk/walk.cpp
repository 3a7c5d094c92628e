// Generic walk tables and zero padding of outputs.
#include "cpu/tensor_walk/walk.hpp"

#include <cstring>

namespace dnnl {
namespace impl {
namespace cpu {
namespace walk {

void walk_t::init(int nd, const dim_t *extent,
        const std::vector<const memory_desc_t *> &tensors) {
    ndims = nd;
    for (int d = 0; d < nd; ++d) dims[d] = extent[d];
    tabs.resize(tensors.size());
    for (size_t t = 0; t < tensors.size(); ++t)
        tabs[t].init(*tensors[t], dims, true);
}

dim_t walk_t::volume() const {
    dim_t v = ndims > 0 ? 1 : 0;
    for (int d = 0; d < ndims; ++d) v *= dims[d];
    return v;
}

void zero_pad(const memory_desc_t &md, void *ptr) {
    if (md.format_kind != dnnl_blocked || md.ndims <= 0 || !ptr) return;
    const int nd = md.ndims;
    bool padded = false;
    for (int d = 0; d < nd; ++d)
        padded = padded || md.padded_dims[d] > md.dims[d];
    if (!padded) return;
    const size_t esz = data_type_size(md.data_type);
    eltwise::offset_table_t tab;
    tab.init(md, md.padded_dims);
    char *base = static_cast<char *>(ptr);
    // For every dim with padding: all positions whose index in that dim is
    // in the padding, any index in the other dims.
    for (int pd = 0; pd < nd; ++pd) {
        if (md.padded_dims[pd] <= md.dims[pd]) continue;
        dim_t lo[max_ndims], hi[max_ndims];
        dim_t count = 1;
        for (int d = 0; d < nd; ++d) {
            lo[d] = d == pd ? md.dims[d] : 0;
            hi[d] = md.padded_dims[d];
            count *= hi[d] - lo[d];
        }
        const int nthr = nthr_for(count, 64 * 1024);
        parallel_chunks(nthr, count, [&](int, dim_t s, dim_t e) {
            for (dim_t k = s; k < e; ++k) {
                dim_t r = k, off = tab.base;
                for (int d = nd - 1; d >= 0; --d) {
                    const dim_t ext = hi[d] - lo[d];
                    off += tab.dim(d)[lo[d] + r % ext];
                    r /= ext;
                }
                std::memset(base + off * (dim_t)esz, 0, esz);
            }
        });
    }
}

} // namespace walk
} // namespace cpu
} // namespace impl
} // namespace dnnl
