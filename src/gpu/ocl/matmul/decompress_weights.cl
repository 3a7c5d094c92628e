// Weight decompression for matmul on the gpu engine: dense f32 weights
// from integer ones, w = (q - zp) * scale, one work-item an element
// (global id 0 along N, id 1 over the other dims as one row index).
//
// Defines: NDIMS; the quantized weights' type as Q_DT / Q_T
// (ocl_types.clh), or Q_T uchar and Q_INT4 for 4-bit ones (define_int_type,
// int4_to_f32); WITH_SCALE with S_DT / S_T; WITH_ZP with Z_DT / Z_T or
// Z_T and Z_INT4 as for the weights.
#include "ocl_types.clh"

#define MAX_NDIMS 12

typedef struct {
    long dims[MAX_NDIMS];
    long q_stride[MAX_NDIMS];
    long q_off;
    // Scale and zero point: the group along each dim (0 where the mask
    // leaves the dim out) and the element stride of a group.
    long s_group[MAX_NDIMS], s_stride[MAX_NDIMS];
    long z_group[MAX_NDIMS], z_stride[MAX_NDIMS];
} decompress_conf_t;

#ifdef Q_INT4
#define LOAD_Q(p, i) int4_to_f32((p), (i), Q_INT4)
#else
#define LOAD_Q(p, i) LOAD(Q_DT, (p), (i))
#endif
#ifndef S_T
#define S_T float
#endif
#ifdef Z_INT4
#define LOAD_Z(p, i) int4_to_f32((p), (i), Z_INT4)
#else
#ifndef Z_T
#define Z_T int
#define Z_DT DT_S32
#endif
#define LOAD_Z(p, i) LOAD(Z_DT, (p), (i))
#endif

kernel void decompress_weights(const global Q_T *q, const global S_T *scale,
        const global Z_T *zp, global float *w, constant decompress_conf_t *cf,
        long rows) {
    const long n = get_global_id(0), r = get_global_id(1);
    const long N = cf->dims[NDIMS - 1];
    if (n >= N || r >= rows) return;
    long pos[NDIMS];
    pos[NDIMS - 1] = n;
    long rem = r;
    for (int d = NDIMS - 2; d > 0; --d) {
        pos[d] = rem % cf->dims[d];
        rem /= cf->dims[d];
    }
    if (NDIMS > 1) pos[0] = rem;
    long qo = cf->q_off, so = 0, zo = 0;
    for (int d = 0; d < NDIMS; ++d) {
        qo += pos[d] * cf->q_stride[d];
        if (cf->s_group[d]) so += pos[d] / cf->s_group[d] * cf->s_stride[d];
        if (cf->z_group[d]) zo += pos[d] / cf->z_group[d] * cf->z_stride[d];
    }
    float v = LOAD_Q(q, qo);
#ifdef WITH_ZP
    v -= LOAD_Z(zp, zo);
#endif
#ifdef WITH_SCALE
    v *= LOAD(S_DT, scale, so);
#endif
    w[r * N + n] = v;
}
