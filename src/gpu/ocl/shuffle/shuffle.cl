// Shuffle on the gpu engine: along `axis` (size C, seen as a (C / G) x G
// matrix, G the effective group: group_size forward, C / group_size
// backward) output position c = u + v * C/G reads input position
// u * G + v. Elements are copied as raw ELEM_T (1, 2, 4 or 8 bytes), so
// every data type moves unchanged.
//
// One work-item per output element in the output's memory order, or VEC
// consecutive elements of the innermost part when that part is not the
// axis and both tensors hold it contiguously. Positions in block padding
// get zero bytes.
#include "ocl_walk.clh"

typedef struct {
    walk_t walk; // over the output
    tensor_t in, out;
    long dims[WALK_NDIMS]; // logical dims
    long axis, c, g;
} shuffle_conf_t;

#define CONCAT2_(a, b) a##b
#define CONCAT2(a, b) CONCAT2_(a, b)
#if VEC == 1
typedef ELEM_T vec_t;
#define VLOAD_RAW(p, o) ((p)[o])
#define VSTORE_RAW(v, p, o) ((p)[o] = (v))
#else
typedef CONCAT2(ELEM_T, VEC) vec_t;
#define VLOAD_RAW(p, o) CONCAT2(vload, VEC)(0, (p) + (o))
#define VSTORE_RAW(v, p, o) CONCAT2(vstore, VEC)(v, 0, (p) + (o))
#endif

__kernel void shuffle_copy(__global const ELEM_T *in, __global ELEM_T *out,
        __constant shuffle_conf_t *cf) {
    const widx_t id = get_global_id(0);
    if (id >= cf->walk.volume) return;
    widx_t pos[WALK_NDIMS];
    walk_pos(&cf->walk, id, pos);
    const widx_t ooff = tensor_off(&cf->out, pos);
    vec_t v = (vec_t)0;
    if (pos_inside(pos, cf->dims)) {
        const int axis = (int)cf->axis;
        const widx_t rows = (widx_t)(cf->c / cf->g), g = (widx_t)cf->g;
        // Replace the axis position by its source (constant indices only).
#pragma unroll
        for (int d = 0; d < WALK_NDIMS; ++d)
            if (d == axis) pos[d] = (pos[d] % rows) * g + pos[d] / rows;
        v = VLOAD_RAW(in, tensor_off(&cf->in, pos));
    }
    VSTORE_RAW(v, out, ooff);
}
