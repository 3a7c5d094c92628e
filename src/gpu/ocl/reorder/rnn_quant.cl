// The int8 RNN quantizing reorders (rnn_quant_reorder.hpp): one element a
// work-item, bit for bit the CPU's rnn_quant:* results.
//   q = saturate(round_to_nearest_even(x * scale [+ shift])), NaN to 0,
// x read as SRC_DT (f32 or bf16), q stored as DST_DT (u8 or s8). The
// source and destination are plain tensors of up to five dims, given as
// five dims (leading unit dims added) with a stride each; the scale of an
// element is scales[i3 * sc3 + i4 * sc4] (one scale: both zero). Only the
// two data types are compiled in; shapes, strides, offsets, scales and the
// shift are arguments, so every reorder of a type pair shares one program.
#include "ocl_types.clh"

// x * scale + shift rounds twice, as on the CPU: no fused multiply-add.
#pragma OPENCL FP_CONTRACT OFF

typedef struct {
    long dims[5];
    long sstr[5], dstr[5];
    long s0, d0; // element offsets of the first element
    long sc3, sc4; // scale index steps along dims 3 and 4
} rq_shape_t;

#if DST_DT == DT_S8
#define Q_LO -128.f
#define Q_HI 127.f
#else
#define Q_LO 0.f
#define Q_HI 255.f
#endif

// Nearest integer (ties to even), NaN to 0, clamped to the type's range:
// the CPU's f32_to_s8 / f32_to_u8.
inline DST_T rq_quantize(float v) {
    float r = rint(v);
    r = isnan(r) ? 0.f : r;
    r = r < Q_LO ? Q_LO : r;
    r = r > Q_HI ? Q_HI : r;
    return (DST_T)convert_int(r);
}

__kernel void rnn_quant(__global const SRC_T *src, __global DST_T *dst,
        rq_shape_t sh, long n, __global const float *scales, float shift,
        int with_shift) {
    long g = (long)get_global_id(0);
    if (g >= n) return;
    long idx[5];
#pragma unroll
    for (int k = 4; k >= 0; --k) {
        idx[k] = g % sh.dims[k];
        g /= sh.dims[k];
    }
    long so = sh.s0, dof = sh.d0;
#pragma unroll
    for (int k = 0; k < 5; ++k) {
        so += idx[k] * sh.sstr[k];
        dof += idx[k] * sh.dstr[k];
    }
    float v = LOAD(SRC_DT, src, so) * scales[idx[3] * sh.sc3 + idx[4] * sh.sc4];
    if (with_shift) v = v + shift;
    dst[dof] = rq_quantize(v);
}
