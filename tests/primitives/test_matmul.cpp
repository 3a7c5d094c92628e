// Matmul primitive tests against the naive double-precision reference
// (tests/reference/matmul_ref.*): 2D and batched shapes with broadcast,
// transposed and strided layouts, every data type combination, bias
// shapes, scales and zero points, each post-op kind, runtime dims,
// format `any`, user scratchpad, queries, rejected requests and the GPU
// engine. Inputs are small multiples of 1/4 (or small integers) so that
// f32 accumulation is exact and tolerances only cover output rounding and
// transcendental post-ops.
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/matmul_ref.hpp"
#include "reference/reorder_ref.hpp"

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;
namespace rr = reorder_ref;
namespace por = post_ops_ref;

namespace {

engine &cpu_engine() {
    static engine eng(engine::kind::cpu, 0);
    return eng;
}

rr::dtype ref_dt(dt d) {
    switch (d) {
        case dt::f32: return rr::dtype::f32;
        case dt::bf16: return rr::dtype::bf16;
        case dt::f16: return rr::dtype::f16;
        case dt::s32: return rr::dtype::s32;
        case dt::s8: return rr::dtype::s8;
        case dt::u8: return rr::dtype::u8;
        default: ADD_FAILURE() << "unexpected data type"; return rr::dtype::f32;
    }
}

// Any blocked layout (plain, strided, or with inner blocks as other
// implementations may choose for `any`).
rr::layout_t layout_of(const memory::desc &md) {
    rr::layout_t l;
    l.ndims = md.get_ndims();
    const auto dims = md.get_dims();
    const auto padded = md.get_padded_dims();
    const auto poffs = md.get_padded_offsets();
    const auto strides = md.get_strides();
    for (int d = 0; d < l.ndims; ++d) {
        l.dims[d] = dims[d];
        l.padded[d] = padded[d];
        l.padded_offsets[d] = poffs[d];
        l.strides[d] = strides[d];
    }
    l.offset0 = md.get_submemory_offset();
    l.nblks = md.get_inner_nblks();
    const auto blks = md.get_inner_blks();
    const auto idxs = md.get_inner_idxs();
    for (int k = 0; k < l.nblks; ++k) {
        l.blks[k] = blks[k];
        l.idxs[k] = (int)idxs[k];
    }
    return l;
}

// Dense strides with the last two dims swapped in memory when `trans`.
memory::dims plain_strides(const memory::dims &dims, bool trans) {
    const int nd = (int)dims.size();
    std::vector<int> order(nd);
    for (int d = 0; d < nd; ++d)
        order[d] = d;
    if (trans && nd >= 2) std::swap(order[nd - 1], order[nd - 2]);
    memory::dims s(nd);
    memory::dim stride = 1;
    for (int i = nd - 1; i >= 0; --i) {
        s[order[i]] = stride;
        stride *= std::max<memory::dim>(dims[order[i]], 1);
    }
    return s;
}

memory::desc make_md(const memory::dims &dims, dt d, bool trans = false) {
    return memory::desc(dims, d, plain_strides(dims, trans));
}

struct tensor_t {
    memory::desc md;
    std::vector<uint8_t> buf;
    memory mem;
    std::vector<float> vals; // logical row-major values as stored
};

// Small exactly-representable values: integers for integer types,
// multiples of 1/4 in [-2, 2] for floating types.
tensor_t make_tensor(const memory::desc &md, std::mt19937 &gen, int lo = -8,
        int hi = 8, double step = 0.25) {
    tensor_t t;
    t.md = md;
    t.buf.assign(std::max<size_t>(md.get_size(), 1), 0);
    const dt d = md.get_data_type();
    const bool is_int = d == dt::s8 || d == dt::u8 || d == dt::s32;
    if (d == dt::u8 && lo < 0) {
        hi -= lo;
        lo = 0;
    }
    std::uniform_int_distribution<int> dist(lo, hi);
    const rr::layout_t l = layout_of(md);
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        const double v = is_int ? dist(gen) : dist(gen) * step;
        rr::store(ref_dt(d), t.buf.data(), rr::offset(l, pos), v);
        t.vals.push_back((float)v);
    });
    t.mem = memory(md, cpu_engine(), t.buf.data());
    return t;
}

std::vector<double> read_values(const tensor_t &t) {
    const rr::layout_t l = layout_of(t.md);
    std::vector<double> v;
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        v.push_back(rr::load(ref_dt(t.md.get_data_type()), t.buf.data(),
                rr::offset(l, pos)));
    });
    return v;
}

void expect_close(const std::vector<double> &got, const std::vector<double> &exp,
        dt d, double abs_tol, double rel_tol, const std::string &what) {
    ASSERT_EQ(got.size(), exp.size()) << what;
    int errors = 0;
    for (size_t i = 0; i < got.size() && errors < 5; ++i) {
        const double e = rr::round_to(ref_dt(d), exp[i]);
        const double diff = std::fabs(got[i] - e);
        if (diff <= abs_tol + rel_tol * std::fabs(e)) continue;
        ++errors;
        ADD_FAILURE() << what << ": element " << i << " got " << got[i]
                      << " expected " << e << " (exact " << exp[i] << ")";
    }
}

// ---- one configurable matmul case -------------------------------------------

struct po_cfg_t {
    por::post_op_t::kind_t kind;
    algorithm alg = algorithm::undef;
    float alpha = 0, beta = 0, scale = 1;
    int32_t zp = 0;
    dt sum_dt = dt::undef;
    memory::dims src1_dims; // binary / prelu (empty: per tensor)
    dt src1_dt = dt::f32;
    int prelu_mask = 0;
};

struct mm_cfg_t {
    memory::dims src, wei, dst, bias; // bias empty: none
    dt sdt = dt::f32, wdt = dt::f32, ddt = dt::f32, bdt = dt::f32;
    bool trans_src = false, trans_wei = false, trans_dst = false;
    bool src_scale = false, dst_scale = false;
    int dst_scale_mask = 0; // with dst_scale: 0 or per N
    int wei_scale_mask = -1; // -1: none
    bool src_zp = false, wei_zp = false;
    int dst_zp_mask = -1;
    std::vector<po_cfg_t> post_ops;
    fpmath_mode fpmath = fpmath_mode::strict;
    bool user_scratchpad = false;
    double abs_tol = -1, rel_tol = -1; // -1: by data type
};

std::string describe(const mm_cfg_t &c) {
    auto dims = [](const memory::dims &d) {
        std::string s;
        for (size_t i = 0; i < d.size(); ++i)
            s += (i ? "x" : "") + std::to_string(d[i]);
        return s;
    };
    return "src " + dims(c.src) + (c.trans_src ? "T" : "") + " wei " + dims(c.wei)
            + (c.trans_wei ? "T" : "") + " dst " + dims(c.dst) + " bias "
            + dims(c.bias) + " dt " + std::to_string((int)c.sdt) + "/"
            + std::to_string((int)c.wdt) + "/" + std::to_string((int)c.ddt);
}

void run_case(const mm_cfg_t &c) {
    SCOPED_TRACE(describe(c));
    std::mt19937 gen(1234);
    const int nd = (int)c.dst.size();
    const memory::dim N = c.dst[nd - 1];
    const bool int8 = c.sdt == dt::s8 || c.sdt == dt::u8;
    tensor_t src = make_tensor(make_md(c.src, c.sdt, c.trans_src), gen);
    tensor_t wei = make_tensor(make_md(c.wei, c.wdt, c.trans_wei), gen);
    tensor_t dst = make_tensor(make_md(c.dst, c.ddt, c.trans_dst), gen);
    const std::vector<float> old_dst = dst.vals;
    tensor_t bias;
    if (!c.bias.empty()) bias = make_tensor(make_md(c.bias, c.bdt), gen);

    primitive_attr attr;
    matmul_ref::quant_t q;
    std::unordered_map<int, memory> args;
    std::vector<std::vector<float>> keep_f;
    std::vector<std::vector<int32_t>> keep_i;
    auto f32_arg = [&](int arg, std::vector<float> v) {
        keep_f.push_back(v);
        memory::desc md({(memory::dim)v.size()}, dt::f32, tag::a);
        args[arg] = memory(md, cpu_engine(), keep_f.back().data());
        return v;
    };
    auto s32_arg = [&](int arg, std::vector<int32_t> v) {
        keep_i.push_back(v);
        memory::desc md({(memory::dim)v.size()}, dt::s32, tag::a);
        args[arg] = memory(md, cpu_engine(), keep_i.back().data());
        return v;
    };
    keep_f.reserve(16);
    keep_i.reserve(16);
    if (c.src_scale) {
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        q.src_scale = f32_arg(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, {0.5f});
    }
    if (c.wei_scale_mask >= 0) {
        attr.set_scales_mask(DNNL_ARG_WEIGHTS, c.wei_scale_mask);
        std::vector<float> ws(c.wei_scale_mask ? N : 1);
        for (size_t i = 0; i < ws.size(); ++i)
            ws[i] = 0.25f * (1 + i % 5);
        q.wei_scale = f32_arg(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, ws);
    }
    if (c.dst_scale) {
        attr.set_scales_mask(DNNL_ARG_DST, c.dst_scale_mask);
        std::vector<float> ds(c.dst_scale_mask ? N : 1, 2.f);
        for (size_t i = 0; i < ds.size(); ++i)
            ds[i] = i % 2 ? 0.5f : 2.f;
        q.dst_scale = f32_arg(DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, ds);
    }
    if (c.src_zp) {
        attr.set_zero_points_mask(DNNL_ARG_SRC, 0);
        q.src_zp = s32_arg(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, {3})[0];
    }
    if (c.wei_zp) {
        attr.set_zero_points_mask(DNNL_ARG_WEIGHTS, 0);
        q.wei_zp = s32_arg(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS, {-2})[0];
    }
    if (c.dst_zp_mask >= 0) {
        attr.set_zero_points_mask(DNNL_ARG_DST, c.dst_zp_mask);
        std::vector<int32_t> z(c.dst_zp_mask ? N : 1);
        for (size_t i = 0; i < z.size(); ++i)
            z[i] = 5 - (int)(i % 7);
        q.dst_zp = s32_arg(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, z);
    }

    post_ops po;
    std::vector<por::post_op_t> ref_ops;
    std::vector<tensor_t> po_tensors;
    po_tensors.reserve(c.post_ops.size());
    bool transcendental = false;
    for (size_t i = 0; i < c.post_ops.size(); ++i) {
        const po_cfg_t &p = c.post_ops[i];
        por::post_op_t r;
        r.kind = p.kind;
        r.alg = (dnnl_alg_kind_t)p.alg;
        r.alpha = p.alpha;
        r.beta = p.beta;
        const int arg_base = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        switch (p.kind) {
            case por::post_op_t::eltwise:
                po.append_eltwise(p.alg, p.alpha, p.beta);
                transcendental = transcendental
                        || !(p.alg == algorithm::eltwise_relu
                                || p.alg == algorithm::eltwise_linear
                                || p.alg == algorithm::eltwise_clip
                                || p.alg == algorithm::eltwise_abs
                                || p.alg == algorithm::eltwise_square);
                break;
            case por::post_op_t::sum:
                po.append_sum(p.scale, p.zp, p.sum_dt);
                r.scale = p.scale;
                r.zero_point = p.zp;
                break;
            case por::post_op_t::binary: {
                memory::dims d1 = p.src1_dims.empty() ? memory::dims(nd, 1) : p.src1_dims;
                po_tensors.push_back(make_tensor(make_md(d1, p.src1_dt), gen, 1, 8));
                po.append_binary(p.alg, po_tensors.back().md);
                args[arg_base | DNNL_ARG_SRC_1] = po_tensors.back().mem;
                r.operand = po_tensors.back().vals;
                r.operand_dims.assign(d1.begin(), d1.end());
                if (p.alg == algorithm::binary_div) transcendental = true;
                break;
            }
            case por::post_op_t::prelu: {
                memory::dims d1(nd, 1);
                for (int d = 0; d < nd; ++d)
                    if (p.prelu_mask & (1 << d)) d1[d] = c.dst[d];
                po_tensors.push_back(make_tensor(make_md(d1, dt::f32), gen));
                po.append_prelu(p.prelu_mask);
                args[arg_base | DNNL_ARG_WEIGHTS] = po_tensors.back().mem;
                r.operand = po_tensors.back().vals;
                r.operand_dims.assign(d1.begin(), d1.end());
                break;
            }
        }
        ref_ops.push_back(r);
    }
    attr.set_post_ops(po);
    attr.set_fpmath_mode(c.fpmath);
    if (c.user_scratchpad) attr.set_scratchpad_mode(scratchpad_mode::user);

    matmul::primitive_desc pd;
    if (c.bias.empty())
        pd = matmul::primitive_desc(cpu_engine(), src.md, wei.md, dst.md, attr);
    else
        pd = matmul::primitive_desc(cpu_engine(), src.md, wei.md, bias.md, dst.md, attr);
    EXPECT_TRUE(pd.src_desc() == src.md);
    EXPECT_TRUE(pd.dst_desc() == dst.md);

    args[DNNL_ARG_SRC] = src.mem;
    args[DNNL_ARG_WEIGHTS] = wei.mem;
    args[DNNL_ARG_DST] = dst.mem;
    if (!c.bias.empty()) args[DNNL_ARG_BIAS] = bias.mem;
    std::vector<uint8_t> scratch;
    if (c.user_scratchpad) {
        const memory::desc smd = pd.scratchpad_desc();
        scratch.assign(std::max<size_t>(smd.get_size(), 1), 0);
        args[DNNL_ARG_SCRATCHPAD] = memory(smd, cpu_engine(), scratch.data());
    }
    stream s(cpu_engine());
    matmul(pd).execute(s, args);
    s.wait();

    matmul_ref::problem_t p;
    p.src_dims.assign(c.src.begin(), c.src.end());
    p.wei_dims.assign(c.wei.begin(), c.wei.end());
    p.dst_dims.assign(c.dst.begin(), c.dst.end());
    p.bias_dims.assign(c.bias.begin(), c.bias.end());
    const auto exp = matmul_ref::compute(p, src.vals, wei.vals, bias.vals, q,
            ref_ops, &old_dst);
    double abs_tol = c.abs_tol, rel_tol = c.rel_tol;
    if (abs_tol < 0) {
        switch (c.ddt) {
            case dt::f32: abs_tol = 1e-5, rel_tol = transcendental ? 2e-5 : 1e-6; break;
            case dt::bf16: abs_tol = 1e-6, rel_tol = 1.0 / 128; break;
            case dt::f16: abs_tol = 1e-6, rel_tol = 1.0 / 1024; break;
            default: abs_tol = transcendental ? 1 : 0, rel_tol = 0; break;
        }
        if (int8 && c.ddt == dt::s32 && transcendental) rel_tol = 1e-6;
    }
    expect_close(read_values(dst), exp, c.ddt, abs_tol, rel_tol, "dst");
}

mm_cfg_t cfg2d(memory::dim M, memory::dim N, memory::dim K) {
    mm_cfg_t c;
    c.src = {M, K};
    c.wei = {K, N};
    c.dst = {M, N};
    return c;
}

// ---- f32 shapes and layouts --------------------------------------------------

TEST(Matmul, F32ShapesAndTransposes) {
    const memory::dim shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {17, 33, 9},
            {64, 48, 130}, {1, 100, 37}, {129, 1, 65}, {13, 70, 1}};
    for (const auto &sh : shapes)
        for (int t = 0; t < 8; ++t) {
            mm_cfg_t c = cfg2d(sh[0], sh[1], sh[2]);
            c.trans_src = t & 1;
            c.trans_wei = t & 2;
            c.trans_dst = t & 4;
            run_case(c);
        }
}

TEST(Matmul, F32LargeBlocked) {
    // Larger than one cache block in every dimension.
    mm_cfg_t c = cfg2d(13, 3100, 400);
    c.bias = {1, 3100};
    run_case(c);
    c = cfg2d(260, 70, 1000);
    c.trans_wei = true;
    run_case(c);
}

TEST(Matmul, BiasShapes) {
    for (auto b : std::vector<memory::dims> {{1, 1}, {1, 24}, {15, 1}, {15, 24}}) {
        mm_cfg_t c = cfg2d(15, 24, 10);
        c.bias = b;
        run_case(c);
        c.bdt = dt::bf16;
        c.sdt = c.wdt = dt::bf16;
        run_case(c);
    }
}

TEST(Matmul, BatchedBroadcast) {
    struct bc_t {
        memory::dims src, wei, dst, bias;
    };
    const bc_t cases[] = {
            {{4, 5, 6}, {4, 6, 7}, {4, 5, 7}, {}},
            {{4, 5, 6}, {1, 6, 7}, {4, 5, 7}, {1, 1, 7}}, // folded into M
            {{1, 5, 6}, {3, 6, 7}, {3, 5, 7}, {3, 1, 7}},
            {{2, 1, 5, 6}, {1, 3, 6, 7}, {2, 3, 5, 7}, {2, 3, 5, 7}},
            {{2, 3, 4, 3, 5}, {2, 1, 4, 5, 2}, {2, 3, 4, 3, 2}, {1, 3, 1, 1, 2}},
            {{64, 8, 8}, {64, 8, 8}, {64, 8, 8}, {}}, // many small problems
    };
    for (const auto &bc : cases)
        for (int t = 0; t < 4; ++t) {
            mm_cfg_t c;
            c.src = bc.src;
            c.wei = bc.wei;
            c.dst = bc.dst;
            c.bias = bc.bias;
            c.trans_src = t & 1;
            c.trans_wei = t & 2;
            run_case(c);
        }
    // 12 dims (the maximum).
    mm_cfg_t c;
    c.src = {2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4};
    c.wei = {1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 5};
    c.dst = {2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 5};
    run_case(c);
}

TEST(Matmul, StridedSubmemory) {
    // A view into a bigger buffer: rows padded, offset into the buffer.
    std::mt19937 gen(7);
    const memory::dim M = 9, N = 11, K = 13;
    memory::desc big_src({M + 2, K + 5}, dt::f32, tag::ab);
    memory::desc src_md = big_src.submemory_desc({M, K}, {1, 3});
    tensor_t src_big = make_tensor(big_src, gen);
    tensor_t wei = make_tensor(make_md({K, N}, dt::f32), gen);
    memory::desc dst_md({M, N}, dt::f32, memory::dims {1, M}); // column-major
    tensor_t dst = make_tensor(dst_md, gen);
    matmul::primitive_desc pd(cpu_engine(), src_md, wei.md, dst_md);
    memory src_mem(src_md, cpu_engine(), src_big.buf.data());
    stream s(cpu_engine());
    matmul(pd).execute(s, {{DNNL_ARG_SRC, src_mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                                  {DNNL_ARG_DST, dst.mem}});
    s.wait();
    std::vector<float> sv;
    for (memory::dim i = 0; i < M; ++i)
        for (memory::dim k = 0; k < K; ++k)
            sv.push_back(src_big.vals[(i + 1) * (K + 5) + k + 3]);
    matmul_ref::problem_t p {{M, K}, {K, N}, {M, N}, {}};
    const auto exp = matmul_ref::compute(p, sv, wei.vals, {}, {}, {}, nullptr);
    expect_close(read_values(dst), exp, dt::f32, 1e-6, 1e-6, "dst");
}

// ---- data types --------------------------------------------------------------

TEST(Matmul, FloatingDataTypes) {
    for (dt d : {dt::bf16, dt::f16})
        for (dt out : {d, dt::f32})
            for (dt b : {d, dt::f32}) {
                mm_cfg_t c = cfg2d(23, 45, 67);
                c.sdt = c.wdt = d;
                c.ddt = out;
                c.bias = {1, 45};
                c.bdt = b;
                c.trans_wei = true;
                run_case(c);
                c.src = {3, 7, 9};
                c.wei = {1, 9, 5};
                c.dst = {3, 7, 5};
                c.bias = {};
                run_case(c);
            }
}

TEST(Matmul, Int8DataTypes) {
    for (dt s : {dt::u8, dt::s8})
        for (dt w : {dt::s8, dt::u8})
            for (dt out : {dt::s32, dt::f32, dt::s8, dt::u8, dt::bf16, dt::f16}) {
                mm_cfg_t c = cfg2d(19, 37, 41);
                c.sdt = s;
                c.wdt = w;
                c.ddt = out;
                c.bias = {1, 37};
                c.bdt = out == dt::s32 ? dt::s32 : dt::f32;
                run_case(c);
            }
}

TEST(Matmul, Int8ScalesAndZeroPoints) {
    for (int variant = 0; variant < 6; ++variant) {
        mm_cfg_t c = cfg2d(21, 34, 50);
        c.sdt = dt::u8;
        c.wdt = dt::s8;
        c.ddt = variant % 2 ? dt::s8 : dt::f32;
        c.src_scale = true;
        c.wei_scale_mask = variant < 3 ? 0 : 2;
        c.dst_scale = variant % 3 == 1;
        c.src_zp = true;
        c.wei_zp = variant >= 2;
        c.dst_zp_mask = variant == 4 ? 2 : (variant == 5 ? 0 : -1);
        c.bias = {1, 34};
        c.trans_src = variant == 3;
        run_case(c);
    }
    // Batched int8 with zero points, s8 source.
    mm_cfg_t c;
    c.src = {3, 6, 20};
    c.wei = {1, 20, 9};
    c.dst = {3, 6, 9};
    c.sdt = dt::s8;
    c.wdt = dt::s8;
    c.ddt = dt::u8;
    c.src_zp = c.wei_zp = true;
    c.dst_zp_mask = 0;
    run_case(c);
}

TEST(Matmul, FloatScales) {
    mm_cfg_t c = cfg2d(10, 20, 30);
    c.src_scale = true;
    c.wei_scale_mask = 2;
    c.dst_scale = true;
    c.bias = {1, 20};
    run_case(c);
    c.sdt = c.wdt = c.ddt = dt::bf16;
    run_case(c);
}

TEST(Matmul, MixedFloatingTypes) {
    const dt types[] = {dt::f32, dt::bf16, dt::f16};
    for (dt s : types)
        for (dt w : types) {
            mm_cfg_t c = cfg2d(11, 13, 17);
            c.sdt = s;
            c.wdt = w;
            c.ddt = dt::f32;
            c.bias = {1, 13};
            c.bdt = w;
            run_case(c);
        }
}

TEST(Matmul, FpmathMode) {
    for (auto m : {fpmath_mode::bf16, fpmath_mode::f16, fpmath_mode::tf32,
                 fpmath_mode::any}) {
        mm_cfg_t c = cfg2d(33, 40, 50);
        c.fpmath = m; // inputs are exact in every reduced format
        run_case(c);
    }
}

// ---- post-ops ----------------------------------------------------------------

TEST(Matmul, EltwisePostOps) {
    const std::pair<algorithm, std::pair<float, float>> algs[] = {
            {algorithm::eltwise_relu, {0.f, 0.f}},
            {algorithm::eltwise_relu, {0.25f, 0.f}},
            {algorithm::eltwise_linear, {2.f, 0.5f}},
            {algorithm::eltwise_clip, {-1.f, 2.f}},
            {algorithm::eltwise_tanh, {0.f, 0.f}},
            {algorithm::eltwise_logistic, {0.f, 0.f}},
            {algorithm::eltwise_gelu_erf, {0.f, 0.f}},
            {algorithm::eltwise_gelu_tanh, {0.f, 0.f}},
            {algorithm::eltwise_swish, {1.f, 0.f}},
            {algorithm::eltwise_elu, {0.5f, 0.f}},
            {algorithm::eltwise_square, {0.f, 0.f}},
            {algorithm::eltwise_abs, {0.f, 0.f}},
    };
    for (const auto &a : algs) {
        mm_cfg_t c = cfg2d(7, 19, 5);
        c.post_ops.push_back({por::post_op_t::eltwise, a.first, a.second.first,
                a.second.second});
        run_case(c);
        c.sdt = c.wdt = c.ddt = dt::bf16;
        run_case(c);
    }
    // Int8 with relu into u8.
    mm_cfg_t c = cfg2d(8, 16, 12);
    c.sdt = dt::s8;
    c.wdt = dt::s8;
    c.ddt = dt::u8;
    c.post_ops.push_back({por::post_op_t::eltwise, algorithm::eltwise_relu});
    run_case(c);
}

TEST(Matmul, SumPostOp) {
    mm_cfg_t c = cfg2d(12, 20, 8);
    c.post_ops.push_back({por::post_op_t::sum});
    run_case(c);
    c.post_ops[0].scale = 0.5f;
    c.trans_dst = true;
    run_case(c);
    // Sum first, then relu; bf16 dst.
    c = cfg2d(12, 20, 8);
    c.sdt = c.wdt = c.ddt = dt::bf16;
    c.post_ops.push_back({por::post_op_t::sum, algorithm::undef, 0, 0, 2.f});
    c.post_ops.push_back({por::post_op_t::eltwise, algorithm::eltwise_relu});
    run_case(c);
    // Int8: sum with zero point and a data type of the same size.
    for (dt sdt : {dt::undef, dt::s8}) {
        c = cfg2d(12, 20, 8);
        c.sdt = dt::u8;
        c.wdt = dt::s8;
        c.ddt = dt::u8;
        po_cfg_t s {por::post_op_t::sum, algorithm::undef, 0, 0, 1.f, 2};
        s.sum_dt = sdt;
        c.post_ops.push_back(s);
        c.dst_scale = true;
        run_case(c);
    }
    // Batched with broadcast weights (folded rows).
    c = mm_cfg_t();
    c.src = {3, 4, 6};
    c.wei = {1, 6, 5};
    c.dst = {3, 4, 5};
    c.post_ops.push_back({por::post_op_t::sum, algorithm::undef, 0, 0, 1.5f});
    run_case(c);
}

TEST(Matmul, BinaryPostOps) {
    const memory::dims src1_shapes[] = {{1, 1}, {1, 21}, {14, 1}, {14, 21}};
    const algorithm algs[] = {algorithm::binary_add, algorithm::binary_mul,
            algorithm::binary_max, algorithm::binary_min, algorithm::binary_sub,
            algorithm::binary_div, algorithm::binary_ge, algorithm::binary_ne};
    for (const auto &sh : src1_shapes)
        for (algorithm a : algs) {
            mm_cfg_t c = cfg2d(14, 21, 9);
            po_cfg_t b {por::post_op_t::binary, a};
            b.src1_dims = sh;
            c.post_ops.push_back(b);
            run_case(c);
        }
    for (dt d1 : {dt::bf16, dt::s8, dt::u8, dt::s32, dt::f16}) {
        mm_cfg_t c = cfg2d(14, 21, 9);
        po_cfg_t b {por::post_op_t::binary, algorithm::binary_add};
        b.src1_dims = {14, 21};
        b.src1_dt = d1;
        c.post_ops.push_back(b);
        run_case(c);
    }
    // A batched case with one binary operand of shape sh.
    auto batched = [](memory::dims src, memory::dims wei, memory::dims dst,
                           memory::dims sh, algorithm alg) {
        mm_cfg_t c;
        c.src = src;
        c.wei = wei;
        c.dst = dst;
        po_cfg_t b {por::post_op_t::binary, alg};
        b.src1_dims = sh;
        c.post_ops.push_back(b);
        run_case(c);
    };
    // Batched dst with per-batch and per-N operands; a full operand
    // broadcast over the batch ({1, 5, 6}) keeps the batches apart where
    // the weights' would fold them into M.
    for (auto sh : std::vector<memory::dims> {
                 {2, 1, 1}, {1, 1, 6}, {2, 5, 6}, {2, 5, 1}, {1, 5, 6}}) {
        const auto mul = algorithm::binary_mul;
        batched({2, 5, 4}, {1, 4, 6}, {2, 5, 6}, sh, mul);
        batched({2, 5, 4}, {2, 4, 6}, {2, 5, 6}, sh, mul); // not folded
    }
    // Folded batches whose M tiles straddle batch ends (10 rows each, 6-
    // and 14-row tiles), with a full operand per batch or shared.
    for (auto sh : std::vector<memory::dims> {{3, 10, 24}, {1, 10, 24}})
        batched({3, 10, 8}, {1, 8, 24}, {3, 10, 24}, sh,
                algorithm::binary_add);
}

TEST(Matmul, PreluPostOp) {
    for (int mask : {0, 1, 2, 3}) {
        mm_cfg_t c = cfg2d(10, 12, 6);
        po_cfg_t p {por::post_op_t::prelu};
        p.prelu_mask = mask;
        c.post_ops.push_back(p);
        run_case(c);
    }
}

TEST(Matmul, PostOpChain) {
    mm_cfg_t c = cfg2d(33, 47, 29);
    c.bias = {1, 47};
    c.post_ops.push_back({por::post_op_t::sum, algorithm::undef, 0, 0, 0.5f});
    c.post_ops.push_back({por::post_op_t::eltwise, algorithm::eltwise_relu, 0.1f});
    po_cfg_t b {por::post_op_t::binary, algorithm::binary_add};
    b.src1_dims = {33, 1};
    c.post_ops.push_back(b);
    po_cfg_t p {por::post_op_t::prelu};
    p.prelu_mask = 2;
    c.post_ops.push_back(p);
    c.post_ops.push_back({por::post_op_t::eltwise, algorithm::eltwise_linear, 0.5f, -1.f});
    run_case(c);
    c.sdt = dt::u8;
    c.wdt = dt::s8;
    c.ddt = dt::s8;
    c.src_zp = true;
    c.wei_scale_mask = 2;
    c.abs_tol = 1; // inexact alpha: f32 and double may round apart
    c.rel_tol = 0;
    run_case(c);
}

// GEMV-like problems (M <= 4: the GEMM's small-M path streams plain B)
// on shapes whose threads split N only, N in ranges of whole rows, and K
// with per-thread partial sums; bias and a post-op chain after the sum;
// transposed weights; batches sharing or not sharing the weights.
TEST(Matmul, SmallMStreamsWeights) {
    const memory::dim shapes[][2] = {{300, 1000}, {4100, 260}, {8300, 200}};
    for (memory::dim M = 1; M <= 4; ++M)
        for (const auto &sh : shapes) {
            mm_cfg_t c = cfg2d(M, sh[0], sh[1]);
            c.bias = {1, sh[0]};
            c.post_ops.push_back(
                    {por::post_op_t::eltwise, algorithm::eltwise_relu, 0.1f});
            po_cfg_t b{por::post_op_t::binary, algorithm::binary_add};
            b.src1_dims = {1, sh[0]};
            c.post_ops.push_back(b);
            run_case(c);
            c.post_ops.insert(c.post_ops.begin(),
                    {por::post_op_t::sum, algorithm::undef, 0, 0, 0.5f});
            run_case(c);
            c.trans_wei = true;
            run_case(c);
        }
    mm_cfg_t c;
    c.src = {3, 1, 700};
    c.wei = {3, 700, 300};
    c.dst = {3, 1, 300};
    c.bias = {1, 1, 300};
    run_case(c);
    c.wei = {1, 700, 300}; // shared weights: folded into M = 3
    run_case(c);
}

// ---- runtime dims, any, scratchpad ------------------------------------------

TEST(Matmul, RuntimeDims) {
    const memory::dim R = DNNL_RUNTIME_DIM_VAL;
    memory::desc src_rt({R, R}, dt::f32, memory::dims {R, 1});
    memory::desc wei_rt({R, R}, dt::f32, memory::dims {R, 1});
    memory::desc dst_rt({R, R}, dt::f32, memory::dims {R, 1});
    memory::desc bias_rt({1, R}, dt::f32, memory::dims {R, 1});
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    primitive_attr attr;
    attr.set_post_ops(po);
    matmul::primitive_desc pd(cpu_engine(), src_rt, wei_rt, bias_rt, dst_rt, attr);
    EXPECT_EQ(pd.src_desc().get_dims()[0], R);
    matmul prim(pd);
    stream s(cpu_engine());
    std::mt19937 gen(3);
    const memory::dim shapes[][3] = {{5, 7, 3}, {40, 3, 70}, {1, 1, 1}};
    for (const auto &sh : shapes) {
        const memory::dim M = sh[0], N = sh[1], K = sh[2];
        tensor_t src = make_tensor(make_md({M, K}, dt::f32), gen);
        tensor_t wei = make_tensor(make_md({K, N}, dt::f32, true), gen);
        tensor_t bias = make_tensor(make_md({1, N}, dt::f32), gen);
        tensor_t dst = make_tensor(make_md({M, N}, dt::f32), gen);
        prim.execute(s, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                                {DNNL_ARG_BIAS, bias.mem}, {DNNL_ARG_DST, dst.mem}});
        s.wait();
        matmul_ref::problem_t p {{M, K}, {K, N}, {M, N}, {1, N}};
        por::post_op_t relu;
        relu.alg = dnnl_eltwise_relu;
        const auto exp = matmul_ref::compute(
                p, src.vals, wei.vals, bias.vals, {}, {relu}, nullptr);
        expect_close(read_values(dst), exp, dt::f32, 1e-6, 1e-6, "runtime dst");
    }
    // Runtime batch and M, int8.
    // (A runtime batch dim must be runtime in src, weights and dst; the
    // actual weights broadcast over it.)
    memory::desc s3({R, R, 8}, dt::u8, memory::dims {R, 8, 1});
    memory::desc w3({R, 8, 6}, dt::s8, memory::dims {48, 6, 1});
    memory::desc d3({R, R, 6}, dt::s32, memory::dims {R, 6, 1});
    matmul::primitive_desc pd3(cpu_engine(), s3, w3, d3);
    tensor_t src = make_tensor(make_md({3, 4, 8}, dt::u8), gen);
    tensor_t wei = make_tensor(make_md({1, 8, 6}, dt::s8), gen);
    tensor_t dst = make_tensor(make_md({3, 4, 6}, dt::s32), gen);
    matmul(pd3).execute(s, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                                   {DNNL_ARG_DST, dst.mem}});
    s.wait();
    matmul_ref::problem_t p {{3, 4, 8}, {1, 8, 6}, {3, 4, 6}, {}};
    const auto exp = matmul_ref::compute(p, src.vals, wei.vals, {}, {}, {}, nullptr);
    expect_close(read_values(dst), exp, dt::s32, 0, 0, "runtime int8 dst");
}

TEST(Matmul, RuntimeDimsMismatchRejected) {
    const memory::dim R = DNNL_RUNTIME_DIM_VAL;
    memory::desc src_rt({R, 8}, dt::f32, memory::dims {8, 1});
    memory::desc wei({8, 4}, dt::f32, tag::ab);
    memory::desc dst_rt({R, 4}, dt::f32, memory::dims {4, 1});
    matmul::primitive_desc pd(cpu_engine(), src_rt, wei, dst_rt);
    matmul prim(pd);
    std::vector<float> a(5 * 9), w(8 * 4), c(6 * 4);
    memory src(memory::desc({5, 9}, dt::f32, tag::ab), cpu_engine(), a.data());
    memory wm(wei, cpu_engine(), w.data());
    memory dst(memory::desc({6, 4}, dt::f32, tag::ab), cpu_engine(), c.data());
    stream s(cpu_engine());
    dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, src.get()},
            {DNNL_ARG_WEIGHTS, wm.get()}, {DNNL_ARG_DST, dst.get()}};
    EXPECT_EQ(dnnl_primitive_execute(prim.get(), s.get(), 3, args),
            dnnl_invalid_arguments);
}

TEST(Matmul, AnyFormats) {
    std::mt19937 gen(11);
    memory::desc src_any({2, 6, 10}, dt::f32, tag::any);
    memory::desc wei_any({2, 10, 7}, dt::f32, tag::any);
    memory::desc bias_any({1, 1, 7}, dt::f32, tag::any);
    memory::desc dst_any({2, 6, 7}, dt::f32, tag::any);
    matmul::primitive_desc pd(cpu_engine(), src_any, wei_any, bias_any, dst_any);
    // Plain layouts for src, dst and bias; the weights layout is the
    // implementation's choice (plain here).
    for (const memory::desc &md : {pd.src_desc(), pd.bias_desc(), pd.dst_desc()}) {
        EXPECT_EQ(md.get_format_kind(), memory::format_kind::blocked);
        EXPECT_EQ(md.get_inner_nblks(), 0);
    }
    EXPECT_EQ(pd.weights_desc().get_format_kind(), memory::format_kind::blocked);
    tensor_t src = make_tensor(pd.src_desc(), gen);
    tensor_t wei = make_tensor(pd.weights_desc(), gen);
    tensor_t bias = make_tensor(pd.bias_desc(), gen);
    tensor_t dst = make_tensor(pd.dst_desc(), gen);
    stream s(cpu_engine());
    matmul(pd).execute(s, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                                  {DNNL_ARG_BIAS, bias.mem}, {DNNL_ARG_DST, dst.mem}});
    s.wait();
    matmul_ref::problem_t p {{2, 6, 10}, {2, 10, 7}, {2, 6, 7}, {1, 1, 7}};
    const auto exp = matmul_ref::compute(p, src.vals, wei.vals, bias.vals, {}, {}, nullptr);
    expect_close(read_values(dst), exp, dt::f32, 1e-6, 1e-6, "any dst");
}

// 2D f32 weights given as `any` resolve to the GEMM core's pre-packed
// panel layout (one inner block along N) when M > 4; results must match
// the reference for shapes spanning several K and N blocks, partial panels
// and a bias. M <= 4 and fpmath down-conversion keep plain weights.
TEST(Matmul, AnyWeightsPrePacked) {
    std::mt19937 gen(17);
    const memory::dim shapes[][3] = {{37, 70, 45}, {8, 33, 900}, {6, 3100, 20},
            {130, 64, 64}, {5, 1, 3}};
    for (const auto &sh : shapes) {
        const memory::dim M = sh[0], N = sh[1], K = sh[2];
        memory::desc src_md({M, K}, dt::f32, tag::ab);
        memory::desc wei_any({K, N}, dt::f32, tag::any);
        memory::desc bias_md({1, N}, dt::f32, tag::ab);
        memory::desc dst_md({M, N}, dt::f32, tag::ab);
        matmul::primitive_desc pd(cpu_engine(), src_md, wei_any, bias_md, dst_md);
        const memory::desc wmd = pd.weights_desc();
        EXPECT_EQ(wmd.get_inner_nblks(), 1) << "M=" << M;
        if (wmd.get_inner_nblks() == 1) {
            EXPECT_EQ(wmd.get_inner_idxs()[0], 1);
            EXPECT_EQ(wmd.get_padded_dims()[1] % wmd.get_inner_blks()[0], 0);
        }
        tensor_t src = make_tensor(src_md, gen);
        tensor_t wei = make_tensor(wmd, gen);
        tensor_t bias = make_tensor(bias_md, gen);
        tensor_t dst = make_tensor(dst_md, gen);
        stream s(cpu_engine());
        matmul(pd).execute(s, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                                      {DNNL_ARG_BIAS, bias.mem}, {DNNL_ARG_DST, dst.mem}});
        s.wait();
        matmul_ref::problem_t p {{M, K}, {K, N}, {M, N}, {1, N}};
        const auto exp = matmul_ref::compute(
                p, src.vals, wei.vals, bias.vals, {}, {}, nullptr);
        expect_close(read_values(dst), exp, dt::f32, 1e-5, 1e-6, "packed dst");
    }
    // Small M and bf16 fpmath: plain weights.
    {
        memory::desc wei_any({20, 30}, dt::f32, tag::any);
        matmul::primitive_desc pd(cpu_engine(),
                memory::desc({3, 20}, dt::f32, tag::ab), wei_any,
                memory::desc({3, 30}, dt::f32, tag::ab));
        EXPECT_EQ(pd.weights_desc().get_inner_nblks(), 0);
        primitive_attr attr;
        attr.set_fpmath_mode(fpmath_mode::bf16);
        matmul::primitive_desc pd2(cpu_engine(),
                memory::desc({30, 20}, dt::f32, tag::ab), wei_any,
                memory::desc({30, 30}, dt::f32, tag::ab), attr);
        if (std::string(pd2.impl_info_str()).find("bf16") != std::string::npos)
            EXPECT_EQ(pd2.weights_desc().get_inner_nblks(), 0);
    }
}

TEST(Matmul, UserScratchpad) {
    mm_cfg_t c = cfg2d(70, 90, 300);
    c.sdt = c.wdt = dt::bf16;
    c.ddt = dt::bf16;
    c.user_scratchpad = true;
    run_case(c);
    c = cfg2d(20, 30, 40);
    c.user_scratchpad = true;
    c.post_ops.push_back({por::post_op_t::sum});
    run_case(c);
}

TEST(Matmul, ZeroSizedDims) {
    mm_cfg_t c = cfg2d(0, 5, 4);
    run_case(c);
    c = cfg2d(3, 5, 0); // K == 0: dst = bias (+ post-ops)
    c.bias = {1, 5};
    c.post_ops.push_back({por::post_op_t::eltwise, algorithm::eltwise_linear, 1.f, 1.f});
    run_case(c);
    // Tall enough for the BRGEMM matmul to be asked (more than 4 rows per
    // panel) with no columns (it divided by the zero panel count: a
    // fuzzer finding) or no depth.
    for (const auto &mnk : {std::vector<memory::dim>{16, 0, 8},
                 std::vector<memory::dim>{16, 40, 0}}) {
        c = cfg2d(mnk[0], mnk[1], mnk[2]);
        run_case(c);
        c.sdt = c.wdt = dt::bf16;
        run_case(c);
    }
    c = cfg2d(3, 5, 0);
    c.sdt = dt::u8;
    c.wdt = dt::s8;
    c.ddt = dt::s32;
    run_case(c);
}

// ---- queries and rejected requests ------------------------------------------

TEST(Matmul, Queries) {
    memory::desc a({4, 5}, dt::f32, tag::ab), b({5, 6}, dt::f32, tag::ba);
    memory::desc bias({1, 6}, dt::f32, tag::ab), c({4, 6}, dt::f32, tag::ab);
    matmul::primitive_desc pd(cpu_engine(), a, b, bias, c);
    EXPECT_TRUE(pd.src_desc() == a);
    EXPECT_TRUE(pd.weights_desc() == b);
    EXPECT_TRUE(pd.bias_desc() == bias);
    EXPECT_TRUE(pd.dst_desc() == c);
    EXPECT_TRUE(pd.query_md(query::exec_arg_md, DNNL_ARG_BIAS) == bias);
    EXPECT_FALSE(std::string(pd.impl_info_str()).empty());
    EXPECT_EQ(pd.get_kind(), primitive::kind::matmul);
    const_dnnl_memory_desc_t scratch = dnnl_primitive_desc_query_md(
            pd.get(), dnnl_query_scratchpad_md, 0);
    ASSERT_NE(scratch, nullptr);
    matmul::primitive_desc no_bias(cpu_engine(), a, b, c);
    EXPECT_EQ(no_bias.bias_desc().get_ndims(), 0);
}

dnnl_status_t try_create(const memory::desc &a, const memory::desc &b,
        const memory::desc *bias, const memory::desc &c,
        const primitive_attr *attr = nullptr, engine *eng = nullptr) {
    dnnl_primitive_desc_t pd = nullptr;
    const dnnl_status_t st = dnnl_matmul_primitive_desc_create(&pd,
            (eng ? *eng : cpu_engine()).get(), a.get(), b.get(),
            bias ? bias->get() : nullptr, c.get(), attr ? attr->get() : nullptr);
    if (pd) dnnl_primitive_desc_destroy(pd);
    return st;
}

TEST(Matmul, InvalidArguments) {
    memory::desc a({4, 5}, dt::f32, tag::ab), b({5, 6}, dt::f32, tag::ab),
            c({4, 6}, dt::f32, tag::ab);
    EXPECT_EQ(try_create(a, b, nullptr, c), dnnl_success);
    // K mismatch, M mismatch, N mismatch.
    EXPECT_EQ(try_create(a, memory::desc({4, 6}, dt::f32, tag::ab), nullptr, c),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_create(a, b, nullptr, memory::desc({3, 6}, dt::f32, tag::ab)),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_create(a, b, nullptr, memory::desc({4, 7}, dt::f32, tag::ab)),
            dnnl_invalid_arguments);
    // ndims mismatch and 1D.
    EXPECT_EQ(try_create(memory::desc({1, 4, 5}, dt::f32, tag::abc), b, nullptr, c),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_create(memory::desc({5}, dt::f32, tag::a),
                      memory::desc({5}, dt::f32, tag::a), nullptr,
                      memory::desc({5}, dt::f32, tag::a)),
            dnnl_invalid_arguments);
    // Bad bias.
    memory::desc bad_bias({1, 5}, dt::f32, tag::ab);
    EXPECT_EQ(try_create(a, b, &bad_bias, c), dnnl_invalid_arguments);
    memory::desc bias3({1, 1, 6}, dt::f32, tag::abc);
    EXPECT_EQ(try_create(a, b, &bias3, c), dnnl_invalid_arguments);
    // Bad batch broadcast.
    EXPECT_EQ(try_create(memory::desc({2, 4, 5}, dt::f32, tag::abc),
                      memory::desc({3, 5, 6}, dt::f32, tag::abc), nullptr,
                      memory::desc({3, 4, 6}, dt::f32, tag::abc)),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_create(memory::desc({1, 4, 5}, dt::f32, tag::abc),
                      memory::desc({3, 5, 6}, dt::f32, tag::abc), nullptr,
                      memory::desc({1, 4, 6}, dt::f32, tag::abc)),
            dnnl_invalid_arguments);
    // Null descriptors.
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(&pd, cpu_engine().get(), nullptr,
                      b.get(), nullptr, c.get(), nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_matmul_primitive_desc_create(
                      nullptr, cpu_engine().get(), a.get(), b.get(), nullptr, c.get(), nullptr),
            dnnl_invalid_arguments);
    // Mismatched K in the C++ API throws.
    EXPECT_THROW(matmul::primitive_desc(cpu_engine(), a,
                         memory::desc({7, 6}, dt::f32, tag::ab), c),
            dnnl::error);
}

TEST(Matmul, UnimplementedRequests) {
    memory::desc a({4, 5}, dt::f32, tag::ab), b({5, 6}, dt::f32, tag::ab),
            c({4, 6}, dt::f32, tag::ab);
    // Zero points with floating-point data.
    primitive_attr zp;
    zp.set_zero_points_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(try_create(a, b, nullptr, c, &zp), dnnl_unimplemented);
    // Per-row or per-column dst scales (only a common dst scale).
    primitive_attr ds;
    ds.set_scales_mask(DNNL_ARG_DST, 1);
    EXPECT_EQ(try_create(a, b, nullptr, c, &ds), dnnl_unimplemented);
    ds.set_scales_mask(DNNL_ARG_DST, 2);
    EXPECT_EQ(try_create(a, b, nullptr, c, &ds), dnnl_unimplemented);
    // Per-K weights scales.
    primitive_attr wk;
    wk.set_scales_mask(DNNL_ARG_WEIGHTS, 1);
    EXPECT_EQ(try_create(a, b, nullptr, c, &wk), dnnl_unimplemented);
    // f32 source with int8 weights (weights decompression) is not offered.
    EXPECT_EQ(try_create(a, memory::desc({5, 6}, dt::s8, tag::ab), nullptr, c),
            dnnl_unimplemented);
    // Dropout into a blocked dst (dropout needs a dense row-major dst;
    // blocked layouts themselves: test_matmul_blocked.cpp).
    memory::desc blocked({16, 16}, dt::f32, tag::AB16b16a);
    memory::desc b16({16, 16}, dt::f32, tag::ab);
    primitive_attr drop;
    drop.set_dropout(memory::desc({16, 16}, dt::u8, tag::ab));
    EXPECT_EQ(try_create(b16, b16, nullptr, blocked, &drop), dnnl_unimplemented);
    // A depthwise post-op.
    primitive_attr dw;
    post_ops po;
    po.append_dw(dt::f32, dt::f32, dt::f32, 3, 1, 1);
    dw.set_post_ops(po);
    EXPECT_EQ(try_create(a, b, nullptr, c, &dw), dnnl_unimplemented);
}

// The gpu engine has its own matmul (tests/ocl/test_ocl_matmul.cpp);
// blocked layouts go through dense copies there too.
TEST(Matmul, GpuEngineBlockedLayouts) {
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no GPU engine";
    engine gpu(engine::kind::gpu, 0);
    memory::desc a({4, 5}, dt::f32, tag::ab), b({5, 6}, dt::f32, tag::ab),
            c({4, 6}, dt::f32, tag::ab);
    EXPECT_EQ(try_create(a, b, nullptr, c, nullptr, &gpu), dnnl_success);
    memory::desc blocked({16, 16}, dt::f32, tag::AB16b16a);
    EXPECT_EQ(try_create(blocked, blocked, nullptr, blocked, nullptr, &gpu),
            dnnl_success);
}

TEST(Matmul, PrimitiveReuseAcrossThreads) {
    // One primitive executed repeatedly gives identical results (the
    // scratchpad is per execution).
    std::mt19937 gen(5);
    mm_cfg_t c = cfg2d(40, 50, 60);
    tensor_t src = make_tensor(make_md(c.src, dt::f32), gen);
    tensor_t wei = make_tensor(make_md(c.wei, dt::f32), gen);
    tensor_t d1 = make_tensor(make_md(c.dst, dt::f32), gen);
    tensor_t d2 = make_tensor(make_md(c.dst, dt::f32), gen);
    matmul::primitive_desc pd(cpu_engine(), src.md, wei.md, d1.md);
    matmul prim(pd);
    stream s(cpu_engine());
    prim.execute(s, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                            {DNNL_ARG_DST, d1.mem}});
    prim.execute(s, {{DNNL_ARG_SRC, src.mem}, {DNNL_ARG_WEIGHTS, wei.mem},
                            {DNNL_ARG_DST, d2.mem}});
    s.wait();
    EXPECT_EQ(d1.buf, d2.buf);
}

} // namespace
