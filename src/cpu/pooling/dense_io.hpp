// Shared by the pooling, normalization, LRN and resampling CPU
// implementations: a view of a tensor as a dense row-major f32 array.
// Dense row-major f32 tensors are used in place (fast path); any other
// layout or data type is gathered into / scattered from a buffer.
#pragma once

#include <vector>

#include "common/float_convert.hpp"
#include "common/memory_desc.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace io {

inline bool is_rowmajor_dense(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked) return false;
    if (md.format_desc.blocking.inner_nblks != 0) return false;
    dim_t s = 1;
    for (int d = md.ndims - 1; d >= 0; --d) {
        if (md.dims[d] != 1 && md.format_desc.blocking.strides[d] != s) return false;
        s *= md.dims[d];
    }
    return true;
}

inline dim_t nelems(const memory_desc_t &md) {
    dim_t n = 1;
    for (int d = 0; d < md.ndims; ++d)
        n *= md.dims[d];
    return md.ndims ? n : 0;
}

// Element offset (in elements) of logical row-major index l.
inline dim_t off(const memory_desc_t &md, bool dense, dim_t l) {
    return dense ? md.offset0 + l : md_off_l(md, l);
}

inline const float *in_view(
        const memory_desc_t &md, const void *data, std::vector<float> &buf) {
    if (!data) return nullptr;
    const bool dense = is_rowmajor_dense(md);
    if (dense && md.data_type == dnnl_f32)
        return static_cast<const float *>(data) + md.offset0;
    const dim_t n = nelems(md);
    buf.resize((size_t)n);
    float *b = buf.data();
    const data_type_t dt = md.data_type;
    parallel_chunks(max_threads(), n, [&](int, dim_t l0, dim_t l1) {
        for (dim_t l = l0; l < l1; ++l) {
            b[l] = load_f32(dt, data, off(md, dense, l));
        }
    });
    return b;
}

inline float *out_view(const memory_desc_t &md, void *data, std::vector<float> &buf) {
    if (!data) return nullptr;
    if (is_rowmajor_dense(md) && md.data_type == dnnl_f32)
        return static_cast<float *>(data) + md.offset0;
    buf.resize((size_t)nelems(md));
    return buf.data();
}

// Writes the buffer back when out_view handed one out.
inline void commit(const memory_desc_t &md, void *data, const std::vector<float> &buf,
        const float *p) {
    if (!data || buf.empty() || p != buf.data()) return;
    const bool dense = is_rowmajor_dense(md);
    const dim_t n = nelems(md);
    const data_type_t dt = md.data_type;
    parallel_chunks(max_threads(), n, [&](int, dim_t l0, dim_t l1) {
        for (dim_t l = l0; l < l1; ++l) {
            store_f32(dt, p[l], data, off(md, dense, l));
        }
    });
}

inline bool float_dt(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16;
}

} // namespace io
} // namespace cpu
} // namespace impl
} // namespace dnnl
