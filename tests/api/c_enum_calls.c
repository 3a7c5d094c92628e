/* Every entry point that takes an enum by value, called with an arbitrary
 * integer in it (see c_enum_calls.h). Outputs are preset to a marker so
 * that the caller can tell whether a refused call wrote anything. */
#include "c_enum_calls.h"

#include <string.h>

#define MARK ((void *)0x1)

typedef struct {
    dnnl_engine_t eng;
    dnnl_memory_desc_t md;
    dnnl_primitive_desc_t pd;
    dnnl_primitive_attr_t attr;
    dnnl_post_ops_t po;
} ctx_t;

static const char *names[] = {"primitive_desc_query", "primitive_desc_query_md",
        "primitive_desc_query_s32", "memory_desc_query", "eltwise_fwd alg",
        "eltwise_fwd prop", "post_ops_append_eltwise", "set_fpmath_mode",
        "set_scratchpad_mode", "binary alg", "softmax_fwd alg",
        "set_accumulation_mode", "set_rounding", "set_default_fpmath_mode",
        "engine_create", "memory_desc_create_with_tag dt",
        "memory_desc_create_with_tag tag", "pooling_fwd alg", "lrn_fwd alg",
        "post_ops_append_binary", "post_ops_append_sum dt", "set_scales dt",
        "reduction alg", "set_max_cpu_isa", "batch_normalization_fwd prop",
        "memory_desc_query_v2", "set_scales_v3 qmode", "engine_get_count",
        "set_zero_points dt", "set_scales_v2 dt"};

int c_enum_call_count(void) {
    return (int)(sizeof(names) / sizeof(names[0]));
}

const char *c_enum_call_name(int which) {
    return which >= 0 && which < c_enum_call_count() ? names[which] : "";
}

static int run(ctx_t *c, int which, int v, dnnl_status_t *st) {
    dnnl_primitive_desc_t pd = MARK;
    dnnl_memory_desc_t md = MARK;
    char buf[64];
    memset(buf, 0x5a, sizeof(buf));
    int touched = 0;
    switch (which) {
        case 0:
            *st = dnnl_primitive_desc_query(c->pd, (dnnl_query_t)v, 0, buf);
            break;
        case 1:
            touched = dnnl_primitive_desc_query_md(c->pd, (dnnl_query_t)v, 0)
                    != NULL;
            *st = touched ? dnnl_success : dnnl_invalid_arguments;
            return touched;
        case 2:
            touched = dnnl_primitive_desc_query_s32(c->pd, (dnnl_query_t)v, 0)
                    != 0;
            *st = touched ? dnnl_success : dnnl_invalid_arguments;
            return touched;
        case 3:
            *st = dnnl_memory_desc_query(c->md, (dnnl_query_t)v, buf);
            break;
        case 4:
            *st = dnnl_eltwise_forward_primitive_desc_create(&pd, c->eng,
                    dnnl_forward_inference, (dnnl_alg_kind_t)v, c->md, c->md,
                    0.f, 0.f, NULL);
            break;
        case 5:
            *st = dnnl_eltwise_forward_primitive_desc_create(&pd, c->eng,
                    (dnnl_prop_kind_t)v, dnnl_eltwise_relu, c->md, c->md, 0.f,
                    0.f, NULL);
            break;
        case 6:
            *st = dnnl_post_ops_append_eltwise(
                    c->po, (dnnl_alg_kind_t)v, 0.f, 0.f);
            touched = dnnl_post_ops_len(c->po) != 0;
            break;
        case 7:
            *st = dnnl_primitive_attr_set_fpmath_mode(
                    c->attr, (dnnl_fpmath_mode_t)v);
            break;
        case 8:
            *st = dnnl_primitive_attr_set_scratchpad_mode(
                    c->attr, (dnnl_scratchpad_mode_t)v);
            break;
        case 9:
            *st = dnnl_binary_primitive_desc_create(&pd, c->eng,
                    (dnnl_alg_kind_t)v, c->md, c->md, c->md, NULL);
            break;
        case 10:
            *st = dnnl_softmax_forward_primitive_desc_create(&pd, c->eng,
                    dnnl_forward_inference, (dnnl_alg_kind_t)v, c->md, c->md,
                    1, NULL);
            break;
        case 11:
            *st = dnnl_primitive_attr_set_accumulation_mode(
                    c->attr, (dnnl_accumulation_mode_t)v);
            break;
        case 12:
            *st = dnnl_primitive_attr_set_rounding(
                    c->attr, DNNL_ARG_DST, (dnnl_rounding_mode_t)v);
            break;
        case 13: {
            dnnl_fpmath_mode_t before, after;
            dnnl_get_default_fpmath_mode(&before);
            *st = dnnl_set_default_fpmath_mode((dnnl_fpmath_mode_t)v);
            dnnl_get_default_fpmath_mode(&after);
            touched = before != after;
            if (touched) dnnl_set_default_fpmath_mode(before);
            return touched;
        }
        case 14: {
            dnnl_engine_t e = MARK;
            *st = dnnl_engine_create(&e, (dnnl_engine_kind_t)v, 0);
            touched = e != MARK;
            if (*st == dnnl_success) dnnl_engine_destroy(e);
            return touched;
        }
        case 15: {
            dnnl_dims_t d = {2, 8};
            *st = dnnl_memory_desc_create_with_tag(
                    &md, 2, d, (dnnl_data_type_t)v, dnnl_ab);
            break;
        }
        case 16: {
            dnnl_dims_t d = {2, 8};
            *st = dnnl_memory_desc_create_with_tag(
                    &md, 2, d, dnnl_f32, (dnnl_format_tag_t)v);
            break;
        }
        case 17: {
            dnnl_dims_t d = {1, 1, 4}, s = {1}, k = {2}, dil = {0}, p = {0};
            dnnl_memory_desc_t src, dst;
            dnnl_memory_desc_create_with_tag(&src, 3, d, dnnl_f32, dnnl_abc);
            d[2] = 3;
            dnnl_memory_desc_create_with_tag(&dst, 3, d, dnnl_f32, dnnl_abc);
            *st = dnnl_pooling_forward_primitive_desc_create(&pd, c->eng,
                    dnnl_forward_inference, (dnnl_alg_kind_t)v, src, dst, s,
                    k, dil, p, p, NULL);
            dnnl_memory_desc_destroy(src);
            dnnl_memory_desc_destroy(dst);
            break;
        }
        case 18: {
            dnnl_dims_t d = {1, 4, 2, 2};
            dnnl_memory_desc_t src;
            dnnl_memory_desc_create_with_tag(&src, 4, d, dnnl_f32, dnnl_nchw);
            *st = dnnl_lrn_forward_primitive_desc_create(&pd, c->eng,
                    dnnl_forward_inference, (dnnl_alg_kind_t)v, src, src, 3,
                    1e-4f, 0.75f, 1.f, NULL);
            dnnl_memory_desc_destroy(src);
            break;
        }
        case 19:
            *st = dnnl_post_ops_append_binary(c->po, (dnnl_alg_kind_t)v, c->md);
            touched = dnnl_post_ops_len(c->po) != 0;
            break;
        case 20:
            *st = dnnl_post_ops_append_sum(c->po, 1.f, 0, (dnnl_data_type_t)v);
            touched = dnnl_post_ops_len(c->po) != 0;
            break;
        case 21:
            *st = dnnl_primitive_attr_set_scales(
                    c->attr, DNNL_ARG_SRC, 0, 0, NULL, (dnnl_data_type_t)v);
            break;
        case 22: {
            dnnl_dims_t d = {2, 1};
            dnnl_memory_desc_t dst;
            dnnl_memory_desc_create_with_tag(&dst, 2, d, dnnl_f32, dnnl_ab);
            *st = dnnl_reduction_primitive_desc_create(&pd, c->eng,
                    (dnnl_alg_kind_t)v, c->md, dst, 0.f, 0.f, NULL);
            dnnl_memory_desc_destroy(dst);
            break;
        }
        case 23: *st = dnnl_set_max_cpu_isa((dnnl_cpu_isa_t)v); break;
        case 24:
            *st = dnnl_batch_normalization_forward_primitive_desc_create(&pd,
                    c->eng, (dnnl_prop_kind_t)v, c->md, c->md, 1e-5f, 0u,
                    NULL);
            break;
        case 25:
            *st = dnnl_memory_desc_query_v2(c->md, (dnnl_query_t)v, 0, buf);
            break;
        case 26:
            *st = dnnl_primitive_attr_set_scales_v3(c->attr, DNNL_ARG_SRC, 0,
                    0, NULL, dnnl_f32, 0, (dnnl_quantization_mode_t)v);
            break;
        case 27:
            touched = dnnl_engine_get_count((dnnl_engine_kind_t)v) != 0;
            *st = touched ? dnnl_success : dnnl_invalid_arguments;
            return touched;
        case 28:
            *st = dnnl_primitive_attr_set_zero_points(
                    c->attr, DNNL_ARG_SRC, 0, 0, NULL, (dnnl_data_type_t)v);
            break;
        case 29:
            *st = dnnl_primitive_attr_set_scales_v2(c->attr, DNNL_ARG_SRC, 0,
                    0, NULL, (dnnl_data_type_t)v, 0);
            break;
        default: return 0;
    }
    if (pd != MARK) {
        touched = 1;
        if (*st == dnnl_success) dnnl_primitive_desc_destroy(pd);
    }
    if (md != MARK) {
        touched = 1;
        if (*st == dnnl_success) dnnl_memory_desc_destroy(md);
    }
    for (size_t i = 0; i < sizeof(buf); ++i)
        if ((unsigned char)buf[i] != 0x5a) touched = 1;
    return touched;
}

int c_enum_call(int which, int value, dnnl_status_t *status, int *touched) {
    if (which < 0 || which >= c_enum_call_count()) return 0;
    ctx_t c;
    dnnl_dims_t d = {2, 8};
    dnnl_engine_create(&c.eng, dnnl_cpu, 0);
    dnnl_memory_desc_create_with_tag(&c.md, 2, d, dnnl_f32, dnnl_ab);
    dnnl_eltwise_forward_primitive_desc_create(&c.pd, c.eng,
            dnnl_forward_inference, dnnl_eltwise_relu, c.md, c.md, 0.f, 0.f,
            NULL);
    dnnl_primitive_attr_create(&c.attr);
    dnnl_post_ops_create(&c.po);
    *touched = run(&c, which, value, status);
    dnnl_post_ops_destroy(c.po);
    dnnl_primitive_attr_destroy(c.attr);
    dnnl_primitive_desc_destroy(c.pd);
    dnnl_memory_desc_destroy(c.md);
    dnnl_engine_destroy(c.eng);
    return 1;
}
