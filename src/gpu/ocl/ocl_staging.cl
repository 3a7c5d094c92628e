// Dense copies of staged tensors (host side: ocl_staging.hpp): a gather
// from any blocked layout into a dense row-major buffer and the scatter
// back, which also writes zeros into the destination's padding. Elements
// move as raw bits of ELEM_BYTES bytes, so one program serves every data
// type of that size.
#include "ocl_layout.clh"

#if ELEM_BYTES == 1
typedef uchar elem_t;
#elif ELEM_BYTES == 2
typedef ushort elem_t;
#elif ELEM_BYTES == 4
typedef uint elem_t;
#else
typedef ulong elem_t; // f64
#endif

__kernel void staging_gather(__global const elem_t *src, layout_t l,
        __global elem_t *dst, long off, long n) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[LAYOUT_MAX_NDIMS];
    layout_unravel(&l, i, idx);
    dst[off + i] = src[layout_off(&l, idx)];
}

// One work-item per element of the destination's padded volume.
__kernel void staging_scatter(__global const elem_t *src, long off,
        __global elem_t *dst, layout_t l, long n) {
    const long i = get_global_id(0);
    if (i >= n) return;
    long idx[LAYOUT_MAX_NDIMS];
    const bool inside = layout_unravel_padded(&l, i, idx);
    const long o = layout_off(&l, idx);
    if (!inside) {
        dst[o] = 0;
        return;
    }
    long lin = 0;
    for (int d = 0; d < l.ndims; ++d)
        lin = lin * l.dims[d] + idx[d];
    dst[o] = src[off + lin];
}
