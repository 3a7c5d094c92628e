// Fuzz target: primitive descriptor creation for every primitive kind from
// parameters and attributes read from the input (post-op chains, scales and
// zero points with masks and groups, fpmath, accumulation and scratchpad
// modes), on the cpu engine. An accepted descriptor is walked through its
// implementation iterator to the end; every implementation's memory
// descriptors must keep fuzz::check_md; the first one is executed when its
// buffers are small, on buffers of exactly the queried sizes, so that
// AddressSanitizer sees any access outside them. A refusal must leave the
// output handle alone.

#include <cmath>
#include <functional>

#include "fuzz/fuzz_input.hpp"

namespace {

using fuzz::md_t;

dnnl_engine_t engine() {
    static dnnl_engine_t eng = [] {
        dnnl_engine_t e;
        dnnl_engine_create(&e, dnnl_cpu, 0);
        return e;
    }();
    return eng;
}

// Data types primitives work in: mostly f32, sometimes others.
dnnl_data_type_t compute_dt(FuzzedDataProvider &in) {
    static const dnnl_data_type_t dts[] = {dnnl_f32, dnnl_f32, dnnl_f32,
            dnnl_bf16, dnnl_f16, dnnl_s8, dnnl_u8, dnnl_s32};
    if (in.ConsumeIntegralInRange(0, 15) == 0) return fuzz::read_dt(in);
    return dts[in.ConsumeIntegralInRange(0, 7)];
}

// A descriptor of given dims: usually plain or `any`, sometimes anything.
md_t make_md(FuzzedDataProvider &in, int nd, const dnnl_dim_t *dims) {
    md_t m;
    dnnl_memory_desc_t out = fuzz::marker<dnnl_memory_desc_t>();
    dnnl_status_t st;
    const int mode = in.ConsumeIntegralInRange(0, 7);
    if (mode <= 4) {
        static const dnnl_format_tag_t plain[] = {dnnl_format_tag_undef,
                dnnl_a, dnnl_ab, dnnl_abc, dnnl_abcd, dnnl_abcde};
        const dnnl_format_tag_t tag = mode == 4 ? dnnl_format_tag_any
                : nd >= 1 && nd <= 5            ? plain[nd]
                                                : dnnl_format_tag_any;
        st = dnnl_memory_desc_create_with_tag(&out, nd, dims, compute_dt(in), tag);
    } else {
        st = fuzz::read_md(in, &out, nd, dims);
    }
    m.p = fuzz::checked_out(st, out);
    return m;
}

void read_dims(FuzzedDataProvider &in, int nd, dnnl_dims_t dims) {
    for (int d = 0; d < nd; ++d)
        dims[d] = in.ConsumeIntegralInRange(0, 15) == 0
                ? fuzz::read_dim(in, true)
                : in.ConsumeIntegralInRange<dnnl_dim_t>(1, 6);
}

float read_float(FuzzedDataProvider &in) {
    switch (in.ConsumeIntegralInRange(0, 5)) {
        case 0: return in.ConsumeFloatingPoint<float>();
        case 1: return NAN;
        default: return (float)in.ConsumeIntegralInRange(-4, 4) * 0.5f;
    }
}

dnnl_alg_kind_t read_alg(FuzzedDataProvider &in, int lo, int hi) {
    if (in.ConsumeIntegralInRange(0, 15) == 0)
        return (dnnl_alg_kind_t)in.ConsumeIntegralInRange(0, 0x7fff);
    return (dnnl_alg_kind_t)in.ConsumeIntegralInRange(lo, hi);
}

dnnl_prop_kind_t read_prop(FuzzedDataProvider &in) {
    static const dnnl_prop_kind_t props[] = {dnnl_forward_inference,
            dnnl_forward_training, dnnl_backward_data, dnnl_backward,
            dnnl_backward_weights, dnnl_prop_kind_undef};
    if (in.ConsumeIntegralInRange(0, 3) != 0) return dnnl_forward_inference;
    return props[in.ConsumeIntegralInRange(0, 5)];
}

// Attributes: post-ops, quantization, modes. Setter failures are fine.
dnnl_primitive_attr_t make_attr(FuzzedDataProvider &in, int nd,
        const dnnl_dim_t *dst_dims) {
    if (in.ConsumeIntegralInRange(0, 2) == 0) return nullptr;
    dnnl_primitive_attr_t attr;
    if (dnnl_primitive_attr_create(&attr) != dnnl_success) return nullptr;
    dnnl_post_ops_t po;
    dnnl_post_ops_create(&po);
    const int npo = in.ConsumeIntegralInRange(0, 3);
    for (int i = 0; i < npo; ++i) {
        switch (in.ConsumeIntegralInRange(0, 3)) {
            case 0:
                dnnl_post_ops_append_eltwise(
                        po, read_alg(in, 0x20, 0x40), read_float(in), read_float(in));
                break;
            case 1: {
                dnnl_dims_t d1 = {};
                for (int d = 0; d < nd; ++d)
                    d1[d] = in.ConsumeBool() ? dst_dims[d] : 1;
                md_t m = make_md(in, nd, d1);
                if (m.p) dnnl_post_ops_append_binary(po, read_alg(in, 0x1fff0, 0x20000), m.p);
                break;
            }
            case 2:
                dnnl_post_ops_append_sum(po, read_float(in),
                        in.ConsumeIntegralInRange(-2, 2),
                        in.ConsumeBool() ? dnnl_data_type_undef : compute_dt(in));
                break;
            default:
                dnnl_post_ops_append_prelu(po, in.ConsumeIntegralInRange(-1, 3));
        }
    }
    dnnl_primitive_attr_set_post_ops(attr, po);
    dnnl_post_ops_destroy(po);
    static const int args[] = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST,
            DNNL_ARG_SRC_1, DNNL_ARG_BIAS, 12345};
    const int nq = in.ConsumeIntegralInRange(0, 3);
    for (int i = 0; i < nq; ++i) {
        const int arg = args[in.ConsumeIntegralInRange(0, 5)];
        const int mask = in.ConsumeIntegralInRange(-1, 7);
        const int gnd = in.ConsumeIntegralInRange(0, 3) == 0
                ? in.ConsumeIntegralInRange(-1, 3)
                : 0;
        dnnl_dims_t groups = {};
        for (int d = 0; d < 3; ++d) groups[d] = in.ConsumeIntegralInRange(-1, 4);
        const dnnl_data_type_t dt = compute_dt(in);
        if (in.ConsumeBool())
            dnnl_primitive_attr_set_scales(attr, arg, mask, gnd, groups, dt);
        else
            dnnl_primitive_attr_set_zero_points(attr, arg, mask, gnd, groups, dt);
    }
    if (in.ConsumeBool())
        dnnl_primitive_attr_set_fpmath_mode_v2(attr,
                (dnnl_fpmath_mode_t)in.ConsumeIntegralInRange(0, 7),
                in.ConsumeBool());
    if (in.ConsumeBool())
        dnnl_primitive_attr_set_accumulation_mode(attr,
                (dnnl_accumulation_mode_t)in.ConsumeIntegralInRange(0, 7));
    if (in.ConsumeBool())
        dnnl_primitive_attr_set_scratchpad_mode(attr,
                (dnnl_scratchpad_mode_t)in.ConsumeIntegralInRange(0, 1));
    // One byte picks the rarer settings (added without consuming more, so
    // the committed seeds keep their meaning).
    switch (in.ConsumeIntegralInRange(0, 7)) {
        case 0: dnnl_primitive_attr_set_deterministic(attr, 1); break;
        case 1:
            dnnl_primitive_attr_set_rounding(
                    attr, DNNL_ARG_DST, dnnl_rounding_mode_stochastic);
            break;
        default: break;
    }
    return attr;
}

// The recurrent kinds (forward; backward needs a forward hint and adds no
// new descriptor checks). Dimensions are consistent for a cell and
// direction most of the time; one of them is sometimes any dnnl_dim_t.
// Optional states and peephole/projection are absent, zero, or present.
dnnl_status_t create_rnn(FuzzedDataProvider &in, dnnl_primitive_desc_t *pd,
        dnnl_prop_kind_t prop, dnnl_primitive_attr_t attr,
        const std::function<const_dnnl_memory_desc_t(const dnnl_dim_t *, int)>
                &md) {
    const int cell = in.ConsumeIntegralInRange(0, 5);
    static const int gates[] = {1, 4, 3, 3, 3, 3};
    const bool lbr = cell == 3 || cell == 5;
    const auto dir = (dnnl_rnn_direction_t)in.ConsumeIntegralInRange(
            (int)dnnl_unidirectional_left2right, (int)dnnl_bidirectional_sum);
    const dnnl_dim_t dirs = dir == dnnl_bidirectional_concat
                    || dir == dnnl_bidirectional_sum
            ? 2 : 1;
    auto small = [&] { return in.ConsumeIntegralInRange<dnnl_dim_t>(1, 4); };
    dnnl_dim_t T = small(), N = small(), L = in.ConsumeIntegralInRange(1, 2),
               SLC = small(), DHC = small();
    const bool proj = cell == 1 && in.ConsumeIntegralInRange(0, 3) == 0;
    const dnnl_dim_t DIC = proj ? small() : DHC;
    const dnnl_dim_t SIC = in.ConsumeIntegralInRange(0, 3) == 0 ? small() : DIC;
    const dnnl_dim_t G = gates[cell];
    const dnnl_dim_t DLC = dir == dnnl_bidirectional_concat ? 2 * DIC : DIC;
    dnnl_dims_t src_layer = {T, N, SLC}, src_iter = {L, dirs, N, SIC},
                iter_c = {L, dirs, N, DHC}, w_layer = {L, dirs, SLC, G, DHC},
                w_iter = {L, dirs, SIC, G, DHC}, peephole = {L, dirs, 3, DHC},
                projection = {L, dirs, DHC, DIC},
                bias = {L, dirs, G + (lbr ? 1 : 0), DHC}, dst_layer = {T, N, DLC},
                dst_iter = {L, dirs, N, DIC}, attention = {T, N, 1};
    if (in.ConsumeIntegralInRange(0, 7) == 0) {
        dnnl_dim_t *all[] = {src_layer, src_iter, w_layer, w_iter, bias,
                dst_layer, dst_iter};
        const int which = in.ConsumeIntegralInRange(0, 6);
        all[which][in.ConsumeIntegralInRange(0, 2)] = fuzz::read_dim(in, true);
    }
    // An optional tensor: absent (null), all-zero (absent by oneDNN's rule)
    // or described.
    auto optional = [&](const dnnl_dim_t *dims, int n) -> const_dnnl_memory_desc_t {
        switch (in.ConsumeIntegralInRange(0, 3)) {
            case 0: return nullptr;
            case 1: {
                static const dnnl_dims_t zero = {};
                return md(zero, 0);
            }
            default: return md(dims, n);
        }
    };
    const auto flags = (unsigned)in.ConsumeIntegralInRange(0, 3);
    const_dnnl_memory_desc_t sl = md(src_layer, 3), si = optional(src_iter, 4);
    const_dnnl_memory_desc_t wl = md(w_layer, 5), wi = md(w_iter, 5);
    const_dnnl_memory_desc_t b = optional(bias, 4), dl = md(dst_layer, 3);
    const_dnnl_memory_desc_t di = optional(dst_iter, 4);
    switch (cell) {
        case 0:
            return dnnl_vanilla_rnn_forward_primitive_desc_create(pd, engine(),
                    prop, read_alg(in, 0x20, 0x2f), dir, sl, si, wl, wi, b, dl,
                    di, flags, read_float(in), read_float(in), attr);
        case 1: {
            const_dnnl_memory_desc_t sc = optional(iter_c, 4);
            const_dnnl_memory_desc_t wp = optional(peephole, 4);
            const_dnnl_memory_desc_t wpr = proj ? md(projection, 4) : nullptr;
            const_dnnl_memory_desc_t dc = optional(iter_c, 4);
            return dnnl_lstm_forward_primitive_desc_create(pd, engine(), prop,
                    dir, sl, si, sc, wl, wi, wp, wpr, b, dl, di, dc, flags, attr);
        }
        case 2:
            return dnnl_gru_forward_primitive_desc_create(pd, engine(), prop,
                    dir, sl, si, wl, wi, b, dl, di, flags, attr);
        case 3:
            return dnnl_lbr_gru_forward_primitive_desc_create(pd, engine(),
                    prop, dir, sl, si, wl, wi, b, dl, di, flags, attr);
        case 4:
            return dnnl_augru_forward_primitive_desc_create(pd, engine(), prop,
                    dir, sl, si, md(attention, 3), wl, wi, b, dl, di, flags,
                    attr);
        default:
            return dnnl_lbr_augru_forward_primitive_desc_create(pd, engine(),
                    prop, dir, sl, si, md(attention, 3), wl, wi, b, dl, di,
                    flags, attr);
    }
}

// Creates the descriptor of one kind; returns the status, *pd the handle.
dnnl_status_t create(FuzzedDataProvider &in, dnnl_primitive_desc_t *pd,
        std::vector<md_t> &keep) {
    dnnl_engine_t eng = engine();
    const int kind = in.ConsumeIntegralInRange(0, 18);
    const int nd = in.ConsumeIntegralInRange(0, 7) == 0
            ? in.ConsumeIntegralInRange(0, 6)
            : (kind >= 3 && kind <= 5 ? 4 : in.ConsumeIntegralInRange(1, 4));
    dnnl_dims_t sd = {}, dd = {}, wd = {};
    read_dims(in, nd, sd);
    std::memcpy(dd, sd, sizeof(dd));
    if (in.ConsumeIntegralInRange(0, 7) == 0) read_dims(in, nd, dd);
    auto md = [&](const dnnl_dim_t *dims, int n = -1) {
        keep.push_back(make_md(in, n < 0 ? nd : n, dims));
        return keep.back().p;
    };
    dnnl_primitive_attr_t attr = make_attr(in, nd, dd);
    const dnnl_prop_kind_t prop = read_prop(in);
    dnnl_status_t st = dnnl_invalid_arguments;
    switch (kind) {
        case 0:
            st = dnnl_eltwise_forward_primitive_desc_create(pd, eng, prop,
                    read_alg(in, 0x20, 0x40), md(sd), md(dd), read_float(in),
                    read_float(in), attr);
            break;
        case 1: {
            dnnl_dims_t s1 = {};
            for (int d = 0; d < nd; ++d) s1[d] = in.ConsumeBool() ? sd[d] : 1;
            st = dnnl_binary_primitive_desc_create(pd, eng,
                    read_alg(in, 0x1fff0, 0x20000), md(sd), md(s1), md(dd), attr);
            break;
        }
        case 2:
            st = dnnl_softmax_forward_primitive_desc_create(pd, eng, prop,
                    read_alg(in, 0x30000, 0x30002), md(sd), md(dd),
                    in.ConsumeIntegralInRange(-1, 6), attr);
            break;
        case 3: case 4: case 5: {
            // Convolution, deconvolution, pooling over 2 spatial dims.
            dnnl_dims_t str = {}, ker = {}, dil = {}, pl = {}, pr = {};
            for (int i = 0; i < 2; ++i) {
                str[i] = in.ConsumeIntegralInRange(0, 7) == 0 ? fuzz::read_dim(in) : in.ConsumeIntegralInRange(1, 2);
                ker[i] = in.ConsumeIntegralInRange(1, 3);
                dil[i] = in.ConsumeIntegralInRange(0, 7) == 0 ? fuzz::read_dim(in) : in.ConsumeIntegralInRange(0, 1);
                pl[i] = in.ConsumeIntegralInRange(0, 7) == 0 ? fuzz::read_dim(in) : in.ConsumeIntegralInRange(0, 1);
                pr[i] = in.ConsumeIntegralInRange(0, 7) == 0 ? fuzz::read_dim(in) : in.ConsumeIntegralInRange(0, 1);
                // The matching output length, mostly.
                const dnnl_dim_t in_len = kind == 4 ? dd[2 + i] : sd[2 + i];
                // Checked: the fuzzed values may be any dnnl_dim_t.
                dnnl_dim_t out = -1, span = 0;
                const bool fits = !__builtin_add_overflow(in_len, pl[i], &out)
                        && !__builtin_add_overflow(out, pr[i], &out)
                        && !__builtin_add_overflow(dil[i], 1, &span)
                        && !__builtin_mul_overflow(ker[i] - 1, span, &span)
                        && !__builtin_sub_overflow(out, span, &out)
                        && !__builtin_sub_overflow(out, 1, &out);
                if (!fits) out = -1;
                if (str[i] > 0 && out >= 0 && out < 64 && in.ConsumeIntegralInRange(0, 7) != 0) {
                    out = out / str[i] + 1;
                    if (kind == 4) sd[2 + i] = out; else dd[2 + i] = out;
                }
            }
            if (kind == 5) {
                dd[1] = sd[1];
                dd[0] = sd[0];
                st = dnnl_pooling_forward_primitive_desc_create(pd, eng, prop,
                        read_alg(in, 0x1ff, 0x3ff), md(sd), md(dd), str, ker,
                        dil, pl, pr, attr);
                break;
            }
            dd[0] = sd[0];
            wd[0] = kind == 4 ? dd[1] : dd[1];
            wd[1] = kind == 4 ? sd[1] : sd[1];
            wd[2] = ker[0];
            wd[3] = ker[1];
            if (kind == 4) { wd[0] = dd[1]; wd[1] = sd[1]; }
            dnnl_dims_t bd = {dd[1]};
            const_dnnl_memory_desc_t bias = in.ConsumeBool() ? md(bd, 1) : nullptr;
            if (kind == 3)
                st = dnnl_convolution_forward_primitive_desc_create(pd, eng, prop,
                        read_alg(in, 1, 3), md(sd), md(wd), bias, md(dd), str,
                        dil, pl, pr, attr);
            else
                st = dnnl_deconvolution_forward_primitive_desc_create(pd, eng,
                        prop, read_alg(in, 10, 11), md(sd), md(wd), bias,
                        md(dd), str, dil, pl, pr, attr);
            break;
        }
        case 6: {
            dnnl_dims_t w2 = {dd[1]}, d2 = {sd[0], dd[1]};
            for (int d = 1; d < nd; ++d) w2[d] = sd[d];
            dnnl_dims_t bd = {dd[1]};
            st = dnnl_inner_product_forward_primitive_desc_create(pd, eng, prop,
                    md(sd), md(w2), in.ConsumeBool() ? md(bd, 1) : nullptr,
                    md(d2, 2), attr);
            break;
        }
        case 7: {
            dnnl_dims_t w2 = {}, d2 = {};
            std::memcpy(w2, sd, sizeof(w2));
            std::memcpy(d2, sd, sizeof(d2));
            if (nd >= 2) {
                w2[nd - 2] = sd[nd - 1];
                w2[nd - 1] = dd[nd - 1];
                d2[nd - 1] = dd[nd - 1];
            }
            st = dnnl_matmul_primitive_desc_create(pd, eng, md(sd), md(w2),
                    in.ConsumeBool() ? md(d2) : nullptr, md(d2), attr);
            break;
        }
        case 8:
            st = dnnl_batch_normalization_forward_primitive_desc_create(pd, eng,
                    prop, md(sd), md(sd), read_float(in),
                    in.ConsumeIntegralInRange(0u, 0x3fu), attr);
            break;
        case 9:
            st = dnnl_layer_normalization_forward_primitive_desc_create(pd, eng,
                    prop, md(sd), md(sd), in.ConsumeBool() ? md(sd, nd - 1) : nullptr,
                    read_float(in), in.ConsumeIntegralInRange(0u, 0x3fu), attr);
            break;
        case 10:
            st = dnnl_group_normalization_forward_primitive_desc_create(pd, eng,
                    prop, md(sd), md(sd), fuzz::read_dim(in, true),
                    read_float(in), in.ConsumeIntegralInRange(0u, 0x3fu), attr);
            break;
        case 11:
            st = dnnl_lrn_forward_primitive_desc_create(pd, eng, prop,
                    read_alg(in, 0xaff, 0xbff), md(sd), md(sd),
                    fuzz::read_dim(in, true), read_float(in), read_float(in),
                    read_float(in), attr);
            break;
        case 12: {
            dnnl_dims_t w2 = {};
            for (int d = 0; d < nd; ++d) w2[d] = in.ConsumeBool() ? sd[d] : 1;
            st = dnnl_prelu_forward_primitive_desc_create(pd, eng, prop, md(sd),
                    md(w2), md(sd), attr);
            break;
        }
        case 13: {
            dnnl_dims_t d2 = {};
            for (int d = 0; d < nd; ++d) d2[d] = in.ConsumeBool() ? sd[d] : 1;
            st = dnnl_reduction_primitive_desc_create(pd, eng,
                    read_alg(in, 0x2fff0, 0x30000), md(sd), md(d2),
                    read_float(in), read_float(in), attr);
            break;
        }
        case 14: {
            float factors[DNNL_MAX_NDIMS];
            for (int i = 0; i < DNNL_MAX_NDIMS; ++i) factors[i] = read_float(in);
            st = dnnl_resampling_forward_primitive_desc_create(pd, eng, prop,
                    read_alg(in, 0x2fff0, 0x2fff2), in.ConsumeBool() ? factors : nullptr,
                    md(sd), md(dd), attr);
            break;
        }
        case 15:
            st = dnnl_shuffle_forward_primitive_desc_create(pd, eng, prop,
                    md(sd), md(sd), in.ConsumeIntegralInRange(-1, 6),
                    fuzz::read_dim(in, true), attr);
            break;
        case 16: case 17: {
            const int n = in.ConsumeIntegralInRange(1, 4);
            std::vector<const_dnnl_memory_desc_t> srcs;
            const int axis = in.ConsumeIntegralInRange(-1, nd);
            dnnl_dims_t total = {};
            std::memcpy(total, sd, sizeof(total));
            if (axis >= 0 && axis < nd) total[axis] = 0;
            for (int i = 0; i < n; ++i) {
                dnnl_dims_t d1 = {};
                std::memcpy(d1, sd, sizeof(d1));
                if (kind == 16 && axis >= 0 && axis < nd) {
                    d1[axis] = in.ConsumeIntegralInRange(0, 3);
                    total[axis] += d1[axis];
                }
                srcs.push_back(md(d1));
            }
            float scales[4];
            for (auto &s : scales) s = read_float(in);
            if (kind == 16)
                st = dnnl_concat_primitive_desc_create(pd, eng,
                        in.ConsumeBool() ? md(total) : nullptr, n, axis,
                        srcs.data(), attr);
            else
                st = dnnl_sum_primitive_desc_create(pd, eng,
                        in.ConsumeBool() ? md(sd) : nullptr, n, scales,
                        srcs.data(), attr);
            break;
        }
        case 18:
            st = create_rnn(in, pd, prop, attr,
                    [&](const dnnl_dim_t *dims, int n) { return md(dims, n); });
            break;
    }
    dnnl_primitive_attr_destroy(attr);
    return st;
}

// Arguments an execution may take, and the memory every one needs.
void execute(dnnl_primitive_desc_t pd) {
    static dnnl_stream_t strm = [] {
        dnnl_stream_t s;
        dnnl_stream_create(&s, engine(), dnnl_stream_default_flags);
        return s;
    }();
    std::vector<int> cand = {DNNL_ARG_SRC, DNNL_ARG_SRC_1, DNNL_ARG_SRC_2,
            DNNL_ARG_DST, DNNL_ARG_WEIGHTS, DNNL_ARG_BIAS, DNNL_ARG_MEAN,
            DNNL_ARG_VARIANCE, DNNL_ARG_SCALE, DNNL_ARG_SHIFT,
            DNNL_ARG_WORKSPACE, DNNL_ARG_SCRATCHPAD,
            // the recurrent kinds' further tensors
            DNNL_ARG_AUGRU_ATTENTION, DNNL_ARG_DST_ITER, DNNL_ARG_DST_ITER_C,
            DNNL_ARG_WEIGHTS_ITER, DNNL_ARG_WEIGHTS_PEEPHOLE,
            DNNL_ARG_WEIGHTS_PROJECTION};
    for (int i = 0; i < 4; ++i) cand.push_back(DNNL_ARG_MULTIPLE_SRC + i);
    for (int i = 0; i < 4; ++i) {
        cand.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1);
        cand.push_back(DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_WEIGHTS);
    }
    for (int a : {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST, DNNL_ARG_SRC_1}) {
        cand.push_back(DNNL_ARG_ATTR_SCALES | a);
        cand.push_back(DNNL_ARG_ATTR_ZERO_POINTS | a);
    }
    std::vector<fuzz::guarded_buffer_t> bufs;
    std::vector<dnnl_exec_arg_t> args;
    size_t total = 0;
    for (int arg : cand) {
        const_dnnl_memory_desc_t m
                = dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg);
        if (!m) continue;
        size_t n = dnnl_memory_desc_get_size(m);
        if (n == 0) continue;
        // As in oneDNN, the size leaves out offset0: the first element
        // sits offset0 elements past the handle, so the buffer is that
        // much longer (a byte an element covers the 4-bit types too).
        dnnl_dim_t off0 = 0;
        dnnl_data_type_t dt = dnnl_data_type_undef;
        dnnl_memory_desc_query(m, dnnl_query_submemory_offset_s64, &off0);
        dnnl_memory_desc_query(m, dnnl_query_data_type, &dt);
        const size_t esz = dnnl_data_type_size(dt);
        if (n != DNNL_RUNTIME_SIZE_VAL && off0 > 0)
            n += (size_t)off0 * (esz ? esz : 1);
        total += n;
        if (n == DNNL_RUNTIME_SIZE_VAL || total > (1 << 20)) break;
        bufs.emplace_back(n, esz ? esz : 1);
        // Small finite values of every type (0x3c is 1.0 in f16's high byte).
        uint8_t *b = bufs.back().data();
        for (size_t i = 0; i < n; ++i) b[i] = (uint8_t)(0x3c ^ (i & 3));
        dnnl_memory_t mem;
        if (dnnl_memory_create(&mem, m, engine(), bufs.back().data())
                != dnnl_success)
            continue;
        args.push_back({arg, mem});
    }
    // The stochastic rounding seed (ignored by primitives that do not round).
    {
        const dnnl_dims_t one = {1};
        dnnl_memory_desc_t sm;
        if (dnnl_memory_desc_create_with_tag(&sm, 1, one, dnnl_s32, dnnl_a)
                == dnnl_success) {
            bufs.emplace_back(4, 4);
            std::memset(bufs.back().data(), 0x5a, 4);
            dnnl_memory_t mem;
            if (dnnl_memory_create(&mem, sm, engine(), bufs.back().data())
                    == dnnl_success)
                args.push_back({DNNL_ARG_ATTR_ROUNDING_SEED, mem});
            dnnl_memory_desc_destroy(sm);
        }
    }
    if (total <= (1 << 20)) {
        dnnl_primitive_t prim = fuzz::marker<dnnl_primitive_t>();
        prim = fuzz::checked_out(dnnl_primitive_create(&prim, pd), prim);
        if (prim) {
            dnnl_primitive_execute(prim, strm, (int)args.size(), args.data());
            dnnl_stream_wait(strm);
            dnnl_primitive_destroy(prim);
        }
    }
    for (auto &a : args) dnnl_memory_destroy(a.memory);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzedDataProvider in(data, size);
    std::vector<md_t> keep;
    dnnl_primitive_desc_t pd = fuzz::marker<dnnl_primitive_desc_t>();
    pd = fuzz::checked_out(create(in, &pd, keep), pd);
    if (!pd) return 0;
    const bool run = in.ConsumeIntegralInRange(0, 3) != 0;
    for (int impl = 0; impl < 64; ++impl) {
        for (int i = 0; i < 16; ++i) {
            const_dnnl_memory_desc_t m = dnnl_primitive_desc_query_md(
                    pd, dnnl_query_exec_arg_md, i);
            if (m) fuzz::check_md(m);
        }
        for (auto q : {dnnl_query_src_md, dnnl_query_dst_md,
                     dnnl_query_weights_md, dnnl_query_scratchpad_md,
                     dnnl_query_workspace_md})
            if (auto m = dnnl_primitive_desc_query_md(pd, q, 0)) fuzz::check_md(m);
        const char *name = nullptr;
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &name);
        if (impl == 0 && run) execute(pd);
        const dnnl_status_t st = dnnl_primitive_desc_next_impl(pd);
        if (st == dnnl_last_impl_reached) break;
        FUZZ_CHECK(st == dnnl_success);
    }
    dnnl_primitive_desc_destroy(pd);
    return 0;
}
