// Zeroes the padding of a blocked output (the elements between its
// logical and padded dims), which oneDNN's outputs always carry as zeros;
// the convolution kernels write logical elements only. One work-item per
// element of the padded volume. Z_DT / Z_T: the tensor's data type.
#include "ocl_layout.clh"
#include "ocl_types.clh"

typedef struct {
    long d[LAYOUT_MAX_NDIMS];
} conv_dims_t;

kernel void conv_zero_pad(
        global Z_T *z, layout_t l, conv_dims_t padded, long n) {
    long i = get_global_id(0);
    if (i >= n) return;
    long idx[LAYOUT_MAX_NDIMS];
    bool pad = false;
    for (int k = LAYOUT_MAX_NDIMS - 1; k >= 0; --k) {
        idx[k] = i % padded.d[k];
        i /= padded.d[k];
        pad = pad || (k < l.ndims && idx[k] >= l.dims[k]);
    }
    if (pad) STORE(Z_DT, z, layout_off(&l, idx), 0.f);
}
