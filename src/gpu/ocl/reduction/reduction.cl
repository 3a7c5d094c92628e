// Reduction on the gpu engine. A unit is one dst element (red_parts_t:
// reduction_plan.hpp); its elements are combined after an optional |x|^p
// (norms), lane partials merged by a tree, then finalized (mean, eps,
// root), followed by the post-ops and stored. Units with few siblings
// are split into chunks whose partials (f32) reduction_final combines.
// alg (a run-time argument, so every algorithm shares the program):
// 0 max, 1 min, 2 sum, 3 mul, 4 mean, 5 norm_lp_max, 6 norm_lp_sum,
// 7 norm_lp_power_p_max, 8 norm_lp_power_p_sum.
#include "ocl_types.clh"
#include "ocl_unit_loop.clh"
#include "ocl_post_ops.clh"

#define RED_MAX_PARTS 6

typedef struct {
    long nk;
    long kext[RED_MAX_PARTS], ks[RED_MAX_PARTS], kd[RED_MAX_PARTS];
    long kmembers[RED_MAX_PARTS];
    long korder[RED_MAX_PARTS];
    long nro;
    long rext[RED_MAX_PARTS], rs[RED_MAX_PARTS];
    long is;
} red_parts_t;

#define A_MAX 0
#define A_MIN 1
#define A_MUL 3
#define A_MEAN 4
#define A_LP_MAX 5
#define A_LP_SUM 6
#define A_PP_MAX 7
#define A_PP_SUM 8

inline int red_op(int alg) {
    return alg == A_MAX ? UL_MAX
            : alg == A_MIN ? UL_MIN
            : alg == A_MUL ? UL_MUL
                           : UL_SUM;
}

inline float red_init(int op) {
    return op == UL_MAX ? -INFINITY
            : op == UL_MIN ? INFINITY
            : op == UL_MUL ? 1.f
                           : 0.f;
}

inline float red_transform(int alg, float x, float p) {
    if (alg < A_LP_MAX) return x;
    const float a = fabs(x);
    return p == 1.f ? a : p == 2.f ? a * a : pow(a, p);
}

inline float red_root(float v, float p) {
    return p == 1.f ? v : p == 2.f ? sqrt(v) : pow(v, 1.f / p);
}

inline float red_finalize(int alg, float v, long n, float p, float eps) {
    switch (alg) {
        case A_MEAN: return n > 0 ? v / (float)n : 0.f;
        case A_LP_MAX: return red_root(fmax(v, eps), p);
        case A_LP_SUM: return red_root(v + eps, p);
        case A_PP_MAX: return fmax(v, eps);
        case A_PP_SUM: return v + eps;
        default: return v;
    }
}

// Offsets of unit u in src and dst (from the tensors' origins) and, for
// binary post-ops, its logical position in dst.
inline void red_unit(const red_parts_t *r, const dims6_t *dims, long u,
        long *so, long *dof, long *idx) {
    long s = 0, d = 0, end = 0;
    for (int k = 0; k < r->nk; ++k)
        end += r->kmembers[k];
    for (int k = (int)r->nk - 1; k >= 0; --k) {
        long x = u % r->kext[k];
        u /= r->kext[k];
        s += x * r->ks[k];
        d += x * r->kd[k];
#if BINARY_PO
        for (long j = 0; j < r->kmembers[k]; ++j) {
            const long dim = r->korder[end - 1 - j];
            idx[dim] = x % dims->d[dim];
            x /= dims->d[dim];
        }
#endif
        end -= r->kmembers[k];
    }
    *so = s;
    *dof = d;
}

// Offset of outer reduced element o.
inline long red_outer(const red_parts_t *r, long o) {
    long s = 0;
    for (int k = (int)r->nro - 1; k >= 0; --k) {
        s += (o % r->rext[k]) * r->rs[k];
        o /= r->rext[k];
    }
    return s;
}

// Finalizes v, applies the post-ops (sum reads dst as PREV) and stores.
#define RED_STORE(v, dof, idx) \
    do { \
        float r_ = red_finalize(alg, v, sp.o * sp.i, p, eps); \
        const float prev_ = WITH_SUM \
                ? LOAD(PREV_DT, (__global const PREV_T *)dst, dof) \
                : 0.f; \
        APPLY_POST_OPS(r_, prev_, idx); \
        STORE(DST_DT, dst, dof, r_); \
    } while (0)

__kernel void reduction_main(__global const SRC_T *src, long src_off0,
        __global DST_T *dst, long dst_off0, red_parts_t rp, dims6_t dims,
        unit_space_t sp, int alg, float p, float eps, __global float *partial,
        long partial_off, __local float *buf POST_OP_ARGS) {
    const long u = ul_unit();
    const bool valid = u < sp.units;
    long so = 0, dof = 0;
    long idx[6] = {0, 0, 0, 0, 0, 0};
    if (valid) red_unit(&rp, &dims, u, &so, &dof, idx);
    so += src_off0;
    dof += dst_off0;
    const int op = red_op(alg);
    float acc = red_init(op);
    long o0, o1, i0, i1;
    ul_chunk(&sp, &o0, &o1, &i0, &i1);
    if (valid)
        UL_FOR_EACH_O(o0, o1, i0, i1, o, i,
                const long ob = so + red_outer(&rp, o);
                , {
                    const float x = LOAD(SRC_DT, src, ob + i * rp.is);
                    acc = ul_combine(op, acc, red_transform(alg, x, p));
                });
    acc = wg_combine(acc, buf, op);
    if (!valid || ul_lane() != 0) return;
    if (ul_chunks(&sp) > 1) {
        partial[partial_off + ul_chunk_id() * sp.units + u] = acc;
        return;
    }
    RED_STORE(acc, dof, idx);
}

// One work-item per unit: combines the chunks' partials.
__kernel void reduction_final(__global DST_T *dst, long dst_off0,
        red_parts_t rp, dims6_t dims, unit_space_t sp, int alg, float p,
        float eps, __global const float *partial, long partial_off,
        long chunks POST_OP_ARGS) {
    const long u = get_global_id(0);
    if (u >= sp.units) return;
    long so = 0, dof = 0;
    long idx[6] = {0, 0, 0, 0, 0, 0};
    red_unit(&rp, &dims, u, &so, &dof, idx);
    dof += dst_off0;
    const int op = red_op(alg);
    float acc = red_init(op);
    for (long q = 0; q < chunks; ++q)
        acc = ul_combine(op, acc, partial[partial_off + q * sp.units + u]);
    RED_STORE(acc, dof, idx);
}
