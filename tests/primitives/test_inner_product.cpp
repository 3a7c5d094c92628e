// Inner product primitive tests against the naive double-precision
// reference (tests/reference/ip_ref.*): forward (training and inference)
// for 2D to 5D sources in plain and channels-last layouts, f32 / bf16 /
// f16 / int8, bias, scales and post-ops; backward data; backward weights
// with bias; format `any`; queries; rejected requests and the GPU engine.
// Inputs are small multiples of 1/4 (or small integers) so that f32
// accumulation is exact.
#include <cmath>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "reference/ip_ref.hpp"
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

struct tensor_t {
    memory::desc md;
    std::vector<uint8_t> buf;
    memory mem;
    std::vector<float> vals; // logical row-major values as stored
};

tensor_t make_tensor(const memory::desc &md, std::mt19937 &gen) {
    tensor_t t;
    t.md = md;
    t.buf.assign(std::max<size_t>(md.get_size(), 1), 0);
    const dt d = md.get_data_type();
    const bool is_int = d == dt::s8 || d == dt::u8 || d == dt::s32;
    std::uniform_int_distribution<int> dist(d == dt::u8 ? 0 : -8, 8);
    const rr::layout_t l = layout_of(md);
    rr::for_each_pos(l.ndims, l.dims, [&](const int64_t *pos) {
        const double v = is_int ? dist(gen) : dist(gen) * 0.25;
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
        dt d, const std::string &what, double extra_rel = 0) {
    ASSERT_EQ(got.size(), exp.size()) << what;
    double abs_tol = 0, rel_tol = 0;
    switch (d) {
        case dt::f32: abs_tol = 1e-5, rel_tol = 1e-6 + extra_rel; break;
        case dt::bf16: abs_tol = 1e-6, rel_tol = 1.0 / 128; break;
        case dt::f16: abs_tol = 1e-6, rel_tol = 1.0 / 1024; break;
        default: abs_tol = extra_rel > 0 ? 1 : 0; break;
    }
    int errors = 0;
    for (size_t i = 0; i < got.size() && errors < 5; ++i) {
        const double e = rr::round_to(ref_dt(d), exp[i]);
        if (std::fabs(got[i] - e) <= abs_tol + rel_tol * std::fabs(e)) continue;
        ++errors;
        ADD_FAILURE() << what << ": element " << i << " got " << got[i]
                      << " expected " << e << " (exact " << exp[i] << ")";
    }
}

// Source / weights layouts: plain (nchw-like) or channels-last.
memory::desc data_md(const memory::dims &dims, dt d, bool channels_last) {
    const int nd = (int)dims.size();
    static const tag plain[] = {tag::undef, tag::undef, tag::ab, tag::abc,
            tag::abcd, tag::abcde};
    static const tag cl[] = {tag::undef, tag::undef, tag::ab, tag::acb,
            tag::acdb, tag::acdeb};
    return memory::desc(dims, d, channels_last ? cl[nd] : plain[nd]);
}

memory::dims spatial_dims(memory::dim lead, memory::dim ic, int nd) {
    memory::dims d {lead, ic};
    const memory::dim sp[] = {3, 2, 5};
    for (int i = 0; i < nd - 2; ++i)
        d.push_back(sp[3 - (nd - 2) + i]);
    return d;
}

memory::dim flat(const memory::dims &d) {
    memory::dim k = 1;
    for (size_t i = 1; i < d.size(); ++i)
        k *= d[i];
    return k;
}

// Logical values of a (lead, IC, spatial...) tensor in the reference's
// (lead, K) order: K enumerates IC and spatial dims row-major, i.e. the
// logical order, which is what vals already holds.

struct fwd_cfg_t {
    memory::dim MB = 3, IC = 4, OC = 5;
    int nd = 2;
    bool channels_last = false;
    int wei_cl = -1; // -1: like the source
    dt sdt = dt::f32, wdt = dt::f32, ddt = dt::f32, bdt = dt::f32;
    bool bias = true;
    bool src_scale = false, dst_scale = false;
    int wei_scale_mask = -1;
    std::vector<por::post_op_t> ops; // binary/prelu operands filled here
    std::vector<memory::dims> op_dims; // per op: binary src1 dims or prelu
    prop_kind prop = prop_kind::forward_inference;
    tag wei_tag = tag::undef; // overrides the weights' layout
    bool wei_any = false; // weights `any`, reordered into the pd's layout
    std::string impl;     // expected implementation name prefix, if any
};

// The implementation name starts with `prefix` (empty: anything).
void expect_impl(const char *impl, const std::string &prefix) {
    if (!prefix.empty())
        EXPECT_EQ(std::string(impl).substr(0, prefix.size()), prefix) << impl;
}

bool isa_at_least(cpu_isa isa) {
    return (int)get_effective_cpu_isa() >= (int)isa;
}

void run_fwd(const fwd_cfg_t &c) {
    SCOPED_TRACE("fwd MB=" + std::to_string(c.MB) + " IC=" + std::to_string(c.IC)
            + " OC=" + std::to_string(c.OC) + " nd=" + std::to_string(c.nd)
            + (c.channels_last ? " cl" : "") + " dt " + std::to_string((int)c.sdt)
            + "/" + std::to_string((int)c.ddt));
    std::mt19937 gen(99);
    const memory::dims sd = spatial_dims(c.MB, c.IC, c.nd);
    const memory::dims wd = spatial_dims(c.OC, c.IC, c.nd);
    tensor_t src = make_tensor(data_md(sd, c.sdt, c.channels_last), gen);
    tensor_t wei = make_tensor(c.wei_tag != tag::undef
                    ? memory::desc(wd, c.wdt, c.wei_tag)
                    : data_md(wd, c.wdt,
                            c.wei_cl < 0 ? c.channels_last : c.wei_cl == 1),
            gen);
    tensor_t dst = make_tensor(memory::desc({c.MB, c.OC}, c.ddt, tag::ab), gen);
    const std::vector<float> old = dst.vals;
    tensor_t bias;
    if (c.bias) bias = make_tensor(memory::desc({c.OC}, c.bdt, tag::a), gen);

    primitive_attr attr;
    ip_ref::quant_t q;
    std::unordered_map<int, memory> args;
    std::vector<std::vector<float>> keep;
    keep.reserve(8);
    auto f32_arg = [&](int arg, std::vector<float> v) {
        keep.push_back(v);
        args[arg] = memory(memory::desc({(memory::dim)v.size()}, dt::f32, tag::a),
                cpu_engine(), keep.back().data());
        return v;
    };
    if (c.src_scale) {
        attr.set_scales_mask(DNNL_ARG_SRC, 0);
        q.src_scale = f32_arg(DNNL_ARG_ATTR_SCALES | DNNL_ARG_SRC, {0.5f});
    }
    if (c.wei_scale_mask >= 0) {
        attr.set_scales_mask(DNNL_ARG_WEIGHTS, c.wei_scale_mask);
        std::vector<float> ws(c.wei_scale_mask ? c.OC : 1);
        for (size_t i = 0; i < ws.size(); ++i)
            ws[i] = 0.25f * (1 + i % 3);
        q.wei_scale = f32_arg(DNNL_ARG_ATTR_SCALES | DNNL_ARG_WEIGHTS, ws);
    }
    if (c.dst_scale) {
        attr.set_scales_mask(DNNL_ARG_DST, 0);
        q.dst_scale = f32_arg(DNNL_ARG_ATTR_SCALES | DNNL_ARG_DST, {4.f});
    }
    post_ops po;
    std::vector<por::post_op_t> ops = c.ops;
    std::vector<tensor_t> operands;
    operands.reserve(ops.size());
    bool transcendental = false;
    for (size_t i = 0; i < ops.size(); ++i) {
        auto &op = ops[i];
        const int base = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        switch (op.kind) {
            case por::post_op_t::eltwise:
                po.append_eltwise((algorithm)op.alg, (float)op.alpha, (float)op.beta);
                transcendental = transcendental || op.alg != dnnl_eltwise_relu;
                break;
            case por::post_op_t::sum:
                po.append_sum((float)op.scale, op.zero_point);
                break;
            case por::post_op_t::binary:
            case por::post_op_t::prelu: {
                const memory::dims d = c.op_dims[i];
                operands.push_back(make_tensor(memory::desc(d, dt::f32, tag::ab), gen));
                if (op.kind == por::post_op_t::binary) {
                    po.append_binary((algorithm)op.alg, operands.back().md);
                    args[base | DNNL_ARG_SRC_1] = operands.back().mem;
                } else {
                    po.append_prelu((d[0] > 1 ? 1 : 0) | (d[1] > 1 ? 2 : 0));
                    args[base | DNNL_ARG_WEIGHTS] = operands.back().mem;
                }
                op.operand = operands.back().vals;
                op.operand_dims.assign(d.begin(), d.end());
                break;
            }
        }
    }
    attr.set_post_ops(po);

    const memory::desc wei_req = c.wei_any
            ? memory::desc(wei.md.get_dims(), c.wdt, tag::any)
            : wei.md;
    inner_product_forward::primitive_desc pd = c.bias
            ? inner_product_forward::primitive_desc(cpu_engine(), c.prop, src.md,
                    wei_req, bias.md, dst.md, attr)
            : inner_product_forward::primitive_desc(
                    cpu_engine(), c.prop, src.md, wei_req, dst.md, attr);
    expect_impl(pd.impl_info_str(), c.impl);
    stream s(cpu_engine());
    memory wei_mem = wei.mem;
    if (c.wei_any && pd.weights_desc() != wei.md) {
        wei_mem = memory(pd.weights_desc(), cpu_engine());
        reorder(wei.mem, wei_mem).execute(s, wei.mem, wei_mem);
    }
    args[DNNL_ARG_SRC] = src.mem;
    args[DNNL_ARG_WEIGHTS] = wei_mem;
    args[DNNL_ARG_DST] = dst.mem;
    if (c.bias) args[DNNL_ARG_BIAS] = bias.mem;
    inner_product_forward(pd).execute(s, args);
    s.wait();
    const auto exp = ip_ref::fwd(c.MB, c.OC, flat(sd), src.vals, wei.vals,
            bias.vals, q, ops, &old);
    expect_close(read_values(dst), exp, c.ddt, "dst", transcendental ? 2e-5 : 0);
}

TEST(InnerProduct, ForwardShapesAndLayouts) {
    const memory::dim sizes[][3] = {{1, 1, 1}, {3, 4, 5}, {17, 9, 33}, {64, 40, 70}};
    for (int nd = 2; nd <= 5; ++nd)
        for (const auto &sz : sizes)
            for (bool cl : {false, true}) {
                if (cl && nd == 2) continue;
                fwd_cfg_t c;
                c.MB = sz[0];
                c.IC = sz[1];
                c.OC = sz[2];
                c.nd = nd;
                c.channels_last = cl;
                c.bias = (sz[0] + nd) % 2 == 0;
                c.prop = cl ? prop_kind::forward_training : prop_kind::forward_inference;
                run_fwd(c);
            }
}

TEST(InnerProduct, ForwardLarge) {
    fwd_cfg_t c;
    c.MB = 300;
    c.IC = 700;
    c.OC = 250;
    run_fwd(c);
}

TEST(InnerProduct, ForwardDataTypes) {
    for (dt d : {dt::bf16, dt::f16})
        for (dt out : {d, dt::f32})
            for (dt b : {d, dt::f32}) {
                fwd_cfg_t c;
                c.MB = 9;
                c.IC = 6;
                c.OC = 11;
                c.nd = 4;
                c.sdt = c.wdt = d;
                c.ddt = out;
                c.bdt = b;
                run_fwd(c);
            }
    for (dt s : {dt::u8, dt::s8})
        for (dt out : {dt::s32, dt::f32, dt::s8, dt::u8, dt::bf16}) {
            fwd_cfg_t c;
            c.MB = 7;
            c.IC = 13;
            c.OC = 10;
            c.nd = 3;
            c.sdt = s;
            c.wdt = dt::s8;
            c.ddt = out;
            c.bdt = out == dt::s32 ? dt::s32 : dt::f32;
            c.src_scale = out != dt::s32;
            c.wei_scale_mask = out == dt::s32 ? -1 : 1;
            c.dst_scale = out == dt::s8 || out == dt::u8;
            run_fwd(c);
        }
}

TEST(InnerProduct, ForwardPostOps) {
    auto elt = [](dnnl_alg_kind_t a, double alpha = 0, double beta = 0) {
        por::post_op_t p;
        p.kind = por::post_op_t::eltwise;
        p.alg = a;
        p.alpha = alpha;
        p.beta = beta;
        return p;
    };
    por::post_op_t sum;
    sum.kind = por::post_op_t::sum;
    sum.scale = 0.5;
    por::post_op_t bin;
    bin.kind = por::post_op_t::binary;
    bin.alg = dnnl_binary_add;
    por::post_op_t prelu;
    prelu.kind = por::post_op_t::prelu;

    for (auto e : {elt(dnnl_eltwise_relu), elt(dnnl_eltwise_tanh),
                 elt(dnnl_eltwise_gelu_erf), elt(dnnl_eltwise_linear, 2, 1)}) {
        fwd_cfg_t c;
        c.MB = 6;
        c.IC = 8;
        c.OC = 10;
        c.ops = {e};
        c.op_dims = {{}};
        run_fwd(c);
    }
    for (memory::dims d : {memory::dims {1, 10}, memory::dims {6, 1},
                 memory::dims {6, 10}, memory::dims {1, 1}}) {
        fwd_cfg_t c;
        c.MB = 6;
        c.IC = 8;
        c.OC = 10;
        c.ops = {sum, bin, prelu};
        c.op_dims = {{}, d, d};
        run_fwd(c);
    }
    fwd_cfg_t c;
    c.MB = 6;
    c.IC = 8;
    c.OC = 10;
    c.sdt = dt::u8;
    c.wdt = dt::s8;
    c.ddt = dt::s8;
    c.src_scale = true;
    c.wei_scale_mask = 1;
    c.ops = {sum, elt(dnnl_eltwise_relu)};
    c.op_dims = {{}, {}};
    run_fwd(c);
}

void run_bwd_data(memory::dim MB, memory::dim IC, memory::dim OC, int nd, bool cl,
        dt d, dt diff_src_dt, int wei_cl = -1, const std::string &impl = "") {
    SCOPED_TRACE("bwd_d MB=" + std::to_string(MB) + " nd=" + std::to_string(nd));
    std::mt19937 gen(5);
    const memory::dims sd = spatial_dims(MB, IC, nd), wd = spatial_dims(OC, IC, nd);
    tensor_t diff_src = make_tensor(data_md(sd, diff_src_dt, cl), gen);
    tensor_t wei = make_tensor(data_md(wd, d, wei_cl < 0 ? cl : wei_cl == 1), gen);
    tensor_t diff_dst = make_tensor(memory::desc({MB, OC}, d, tag::ab), gen);
    inner_product_forward::primitive_desc fwd(cpu_engine(), prop_kind::forward_training,
            memory::desc(sd, d, tag::any), wei.md, diff_dst.md);
    inner_product_backward_data::primitive_desc pd(
            cpu_engine(), diff_src.md, wei.md, diff_dst.md, fwd);
    expect_impl(pd.impl_info_str(), impl);
    stream s(cpu_engine());
    inner_product_backward_data(pd).execute(s, {{DNNL_ARG_DIFF_SRC, diff_src.mem},
            {DNNL_ARG_WEIGHTS, wei.mem}, {DNNL_ARG_DIFF_DST, diff_dst.mem}});
    s.wait();
    const auto exp = ip_ref::bwd_data(MB, OC, flat(sd), diff_dst.vals, wei.vals);
    expect_close(read_values(diff_src), exp, diff_src_dt, "diff_src");
}

void run_bwd_weights(memory::dim MB, memory::dim IC, memory::dim OC, int nd,
        bool cl, dt d, dt diff_wei_dt, bool with_bias, int wei_cl = -1,
        const std::string &impl = "", tag diff_dst_tag = tag::ab);

// The BRGEMM implementation (a nested BRGEMM matmul over views of the
// tensors): f32 of every rank and layout with `any` weights (the matmul's
// panels, reordered into) and plain ones (K or OC contiguous), row and
// column tails of the tiles, bias, scales and post-ops; bf16 and u8 x s8
// where the machine has the instructions; small minibatches stay on the
// GEMM. Backward data and (f32) backward weights likewise.
TEST(InnerProduct, BrgemmForwardAndBackwardData) {
    const bool f32_brg = isa_at_least(cpu_isa::avx512_core)
            || isa_at_least(cpu_isa::avx2);
    auto brg = [](bool on) { return on ? std::string("brg_ip:") : std::string(); };
    for (int nd = 2; nd <= 5; ++nd)
        for (bool cl : {false, true})
            for (bool any : {false, true}) {
                if (cl && nd == 2) continue;
                fwd_cfg_t c;
                c.MB = 29;
                c.IC = nd == 2 ? 37 : 5;
                c.OC = 70;
                c.nd = nd;
                c.channels_last = cl;
                c.wei_any = any;
                c.bias = nd % 2 == 0;
                c.impl = brg(f32_brg);
                run_fwd(c);
            }
    {
        // Weights with K contiguous (OC, IC) and with OC contiguous.
        for (tag t : {tag::ab, tag::ba}) {
            fwd_cfg_t c;
            c.MB = 40;
            c.IC = 2100; // K in two blocks of 1050
            c.OC = 33;
            c.wei_tag = t;
            c.impl = brg(f32_brg);
            run_fwd(c);
        }
        fwd_cfg_t c;
        c.MB = 3; // too few rows per weights panel
        c.IC = 64;
        c.OC = 64;
        c.wei_any = true;
        c.impl = "gemm:";
        run_fwd(c);
    }
    {
        fwd_cfg_t c; // post-ops and scales on the matmul's epilogue
        c.MB = 31;
        c.IC = 50;
        c.OC = 77;
        c.wei_any = true;
        c.ops.resize(2);
        c.ops[0].kind = por::post_op_t::binary;
        c.ops[0].alg = dnnl_binary_add;
        c.op_dims = {{1, c.OC}, {}};
        c.ops[1].kind = por::post_op_t::eltwise;
        c.ops[1].alg = dnnl_eltwise_relu;
        c.impl = brg(f32_brg);
        run_fwd(c);
    }
    const bool bf16 = isa_at_least(cpu_isa::avx512_core_bf16);
    for (dt out : {dt::bf16, dt::f32}) {
        fwd_cfg_t c;
        c.MB = 24;
        c.IC = 101; // odd: the last k pair half empty
        c.OC = 70;
        c.sdt = c.wdt = dt::bf16;
        c.ddt = out;
        c.wei_any = true;
        c.impl = brg(bf16);
        run_fwd(c);
    }
    {
        // bf16 of rank 4 with `any`: plain weights with OC innermost.
        fwd_cfg_t c;
        c.MB = 20;
        c.IC = 6;
        c.OC = 70;
        c.nd = 4;
        c.sdt = c.wdt = dt::bf16;
        c.wei_any = true;
        c.impl = brg(bf16);
        run_fwd(c);
    }
    const bool vnni = isa_at_least(cpu_isa::avx512_core_vnni);
    for (dt out : {dt::f32, dt::u8, dt::s8}) {
        fwd_cfg_t c;
        c.MB = 24;
        c.IC = 70;
        c.OC = 40;
        c.sdt = dt::u8;
        c.wdt = dt::s8;
        c.ddt = out;
        c.src_scale = true;
        c.wei_scale_mask = 1;
        c.wei_any = true;
        c.impl = brg(vnni);
        run_fwd(c);
    }
    run_bwd_data(29, 37, 70, 2, false, dt::f32, dt::f32, -1, brg(f32_brg));
    run_bwd_data(13, 6, 40, 4, true, dt::f32, dt::f32, -1, brg(f32_brg));
    run_bwd_data(13, 6, 40, 4, false, dt::f32, dt::f32, -1, brg(f32_brg));
    run_bwd_data(24, 101, 70, 2, false, dt::bf16, dt::bf16, -1, brg(bf16));
    // Backward weights (f32, 64 rows or more): diff_dst transposed in
    // 16 x 16 blocks with row and column tails, the bias from its rows.
    run_bwd_weights(67, 37, 70, 2, false, dt::f32, dt::f32, true, -1, brg(f32_brg));
    run_bwd_weights(64, 5, 33, 4, true, dt::f32, dt::f32, false, -1, brg(f32_brg));
    run_bwd_weights(80, 6, 17, 3, false, dt::f32, dt::f32, true, -1, brg(f32_brg));
    run_bwd_weights(40, 6, 17, 3, false, dt::f32, dt::f32, true, -1, "gemm:");
    // bf16 (diff_dst widened, transposed in f32, rounded back; the bias
    // summed in f32) into bf16 and f32 diff_weights and diff_bias.
    run_bwd_weights(67, 37, 70, 2, false, dt::bf16, dt::bf16, true, -1, brg(bf16));
    run_bwd_weights(80, 6, 17, 3, true, dt::bf16, dt::f32, true, -1, brg(bf16));
    // diff_dst with the minibatch innermost: not transposed by rows.
    run_bwd_weights(70, 64, 100, 2, false, dt::f32, dt::f32, true, -1, "gemm:",
            tag::ba);
}

TEST(InnerProduct, BackwardData) {
    run_bwd_data(5, 3, 7, 2, false, dt::f32, dt::f32);
    run_bwd_data(1, 1, 1, 2, false, dt::f32, dt::f32);
    run_bwd_data(33, 8, 40, 4, false, dt::f32, dt::f32);
    run_bwd_data(12, 5, 9, 4, true, dt::f32, dt::f32);
    run_bwd_data(6, 4, 20, 5, true, dt::f32, dt::f32);
    run_bwd_data(10, 6, 8, 3, false, dt::bf16, dt::bf16);
    run_bwd_data(10, 6, 8, 3, false, dt::bf16, dt::f32);
    run_bwd_data(10, 6, 8, 2, false, dt::f16, dt::f16);
}

void run_bwd_weights(memory::dim MB, memory::dim IC, memory::dim OC, int nd,
        bool cl, dt d, dt diff_wei_dt, bool with_bias, int wei_cl,
        const std::string &impl, tag diff_dst_tag) {
    SCOPED_TRACE("bwd_w MB=" + std::to_string(MB) + " nd=" + std::to_string(nd));
    std::mt19937 gen(6);
    const memory::dims sd = spatial_dims(MB, IC, nd), wd = spatial_dims(OC, IC, nd);
    tensor_t src = make_tensor(data_md(sd, d, cl), gen);
    tensor_t diff_wei = make_tensor(
            data_md(wd, diff_wei_dt, wei_cl < 0 ? cl : wei_cl == 1), gen);
    tensor_t diff_bias = make_tensor(memory::desc({OC}, diff_wei_dt, tag::a), gen);
    tensor_t diff_dst = make_tensor(memory::desc({MB, OC}, d, diff_dst_tag), gen);
    inner_product_forward::primitive_desc fwd(cpu_engine(), prop_kind::forward_training,
            src.md, memory::desc(wd, d, tag::any), diff_dst.md);
    inner_product_backward_weights::primitive_desc pd = with_bias
            ? inner_product_backward_weights::primitive_desc(cpu_engine(), src.md,
                    diff_wei.md, diff_bias.md, diff_dst.md, fwd)
            : inner_product_backward_weights::primitive_desc(
                    cpu_engine(), src.md, diff_wei.md, diff_dst.md, fwd);
    expect_impl(pd.impl_info_str(), impl);
    std::unordered_map<int, memory> args {{DNNL_ARG_SRC, src.mem},
            {DNNL_ARG_DIFF_WEIGHTS, diff_wei.mem}, {DNNL_ARG_DIFF_DST, diff_dst.mem}};
    if (with_bias) args[DNNL_ARG_DIFF_BIAS] = diff_bias.mem;
    stream s(cpu_engine());
    inner_product_backward_weights(pd).execute(s, args);
    s.wait();
    std::vector<double> ew, eb;
    ip_ref::bwd_weights(MB, OC, flat(sd), src.vals, diff_dst.vals, ew, eb);
    expect_close(read_values(diff_wei), ew, diff_wei_dt, "diff_weights");
    if (with_bias) expect_close(read_values(diff_bias), eb, diff_wei_dt, "diff_bias");
}

TEST(InnerProduct, BackwardWeights) {
    run_bwd_weights(5, 3, 7, 2, false, dt::f32, dt::f32, true);
    run_bwd_weights(1, 1, 1, 2, false, dt::f32, dt::f32, true);
    run_bwd_weights(40, 8, 30, 4, false, dt::f32, dt::f32, true);
    run_bwd_weights(12, 5, 9, 4, true, dt::f32, dt::f32, false);
    run_bwd_weights(7, 4, 6, 5, true, dt::f32, dt::f32, true);
    run_bwd_weights(10, 6, 8, 3, false, dt::bf16, dt::bf16, true);
    run_bwd_weights(10, 6, 8, 3, false, dt::bf16, dt::f32, true);
    run_bwd_weights(10, 6, 8, 2, false, dt::f16, dt::f16, true);
}

TEST(InnerProduct, MixedLayouts) {
    // Weights in another channel order than the source: gathered.
    for (int nd = 3; nd <= 5; ++nd)
        for (bool cl : {false, true}) {
            fwd_cfg_t c;
            c.MB = 5;
            c.IC = 3;
            c.OC = 7;
            c.nd = nd;
            c.channels_last = cl;
            c.wei_cl = !cl;
            run_fwd(c);
            c.sdt = c.wdt = c.ddt = dt::bf16;
            run_fwd(c);
            c.sdt = dt::u8;
            c.wdt = dt::s8;
            c.ddt = dt::s32;
            c.bdt = dt::s32;
            run_fwd(c);
            run_bwd_data(6, 3, 5, nd, cl, dt::f32, dt::f32, !cl);
            run_bwd_weights(6, 3, 5, nd, cl, dt::f32, dt::f32, true, !cl);
            run_bwd_weights(6, 3, 5, nd, cl, dt::bf16, dt::bf16, false, !cl);
        }
}

TEST(InnerProduct, AnyFormats) {
    for (bool cl : {false, true}) {
        memory::desc src({4, 3, 5, 5}, dt::f32, cl ? tag::acdb : tag::abcd);
        inner_product_forward::primitive_desc pd(cpu_engine(),
                prop_kind::forward_inference, src,
                memory::desc({6, 3, 5, 5}, dt::f32, tag::any),
                memory::desc({6}, dt::f32, tag::any),
                memory::desc({4, 6}, dt::f32, tag::any));
        // Weights follow the source's channel order.
        EXPECT_TRUE(pd.weights_desc()
                == memory::desc({6, 3, 5, 5}, dt::f32, cl ? tag::acdb : tag::abcd));
        EXPECT_TRUE(pd.dst_desc() == memory::desc({4, 6}, dt::f32, tag::ab));
        EXPECT_TRUE(pd.bias_desc() == memory::desc({6}, dt::f32, tag::a));
        EXPECT_FALSE(std::string(pd.impl_info_str()).empty());
    }
    // Everything any.
    inner_product_forward::primitive_desc pd(cpu_engine(),
            prop_kind::forward_training, memory::desc({2, 3, 4}, dt::f32, tag::any),
            memory::desc({5, 3, 4}, dt::f32, tag::any),
            memory::desc({2, 5}, dt::f32, tag::any));
    EXPECT_TRUE(pd.src_desc() == memory::desc({2, 3, 4}, dt::f32, tag::abc));
}

TEST(InnerProduct, Queries) {
    memory::desc src({2, 3}, dt::f32, tag::ab), wei({4, 3}, dt::f32, tag::ab),
            bias({4}, dt::f32, tag::a), dst({2, 4}, dt::f32, tag::ab);
    inner_product_forward::primitive_desc pd(
            cpu_engine(), prop_kind::forward_training, src, wei, bias, dst);
    EXPECT_TRUE(pd.src_desc() == src);
    EXPECT_TRUE(pd.weights_desc() == wei);
    EXPECT_TRUE(pd.bias_desc() == bias);
    EXPECT_TRUE(pd.dst_desc() == dst);
    EXPECT_EQ(pd.get_prop_kind(), prop_kind::forward_training);
    inner_product_backward_weights::primitive_desc bw(
            cpu_engine(), src, wei, bias, dst, pd);
    EXPECT_TRUE(bw.diff_weights_desc() == wei);
    EXPECT_TRUE(bw.diff_bias_desc() == bias);
    EXPECT_TRUE(bw.diff_dst_desc() == dst);
    inner_product_backward_data::primitive_desc bd(cpu_engine(), src, wei, dst, pd);
    EXPECT_TRUE(bd.diff_src_desc() == src);
}

dnnl_status_t try_fwd(const memory::desc &s, const memory::desc &w,
        const memory::desc *b, const memory::desc &d,
        const primitive_attr *attr = nullptr, engine *eng = nullptr) {
    dnnl_primitive_desc_t pd = nullptr;
    const dnnl_status_t st = dnnl_inner_product_forward_primitive_desc_create(&pd,
            (eng ? *eng : cpu_engine()).get(), dnnl_forward_inference, s.get(),
            w.get(), b ? b->get() : nullptr, d.get(), attr ? attr->get() : nullptr);
    if (pd) dnnl_primitive_desc_destroy(pd);
    return st;
}

TEST(InnerProduct, RejectedRequests) {
    memory::desc src({2, 3}, dt::f32, tag::ab), wei({4, 3}, dt::f32, tag::ab),
            dst({2, 4}, dt::f32, tag::ab);
    EXPECT_EQ(try_fwd(src, wei, nullptr, dst), dnnl_success);
    // Inconsistent shapes.
    EXPECT_EQ(try_fwd(src, memory::desc({4, 5}, dt::f32, tag::ab), nullptr, dst),
            dnnl_invalid_arguments);
    EXPECT_EQ(try_fwd(src, wei, nullptr, memory::desc({3, 4}, dt::f32, tag::ab)),
            dnnl_invalid_arguments);
    memory::desc bad_bias({5}, dt::f32, tag::a);
    EXPECT_EQ(try_fwd(src, wei, &bad_bias, dst), dnnl_invalid_arguments);
    EXPECT_EQ(try_fwd(memory::desc({2, 3, 4, 4, 4, 4}, dt::f32, tag::abcdef),
                      memory::desc({4, 3, 4, 4, 4, 4}, dt::f32, tag::abcdef), nullptr,
                      dst),
            dnnl_invalid_arguments);
    // Bad propagation kind.
    dnnl_primitive_desc_t pd = nullptr;
    EXPECT_EQ(dnnl_inner_product_forward_primitive_desc_create(&pd,
                      cpu_engine().get(), dnnl_backward_data, src.get(), wei.get(),
                      nullptr, dst.get(), nullptr),
            dnnl_invalid_arguments);
    // Zero points are not supported; per-MB weights scales neither.
    primitive_attr zp;
    zp.set_zero_points_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(try_fwd(src, wei, nullptr, dst, &zp), dnnl_unimplemented);
    primitive_attr sc;
    sc.set_scales_mask(DNNL_ARG_WEIGHTS, 2);
    EXPECT_EQ(try_fwd(src, wei, nullptr, dst, &sc), dnnl_unimplemented);
    // Runtime dims.
    memory::desc rt_src({DNNL_RUNTIME_DIM_VAL, 3}, dt::f32, tag::ab);
    memory::desc rt_dst({DNNL_RUNTIME_DIM_VAL, 4}, dt::f32, tag::ab);
    EXPECT_EQ(try_fwd(rt_src, wei, nullptr, rt_dst), dnnl_unimplemented);
    // A source that is not dense over its IC and spatial dims: taken
    // through a dense copy (the blocked:<impl> wrapper).
    memory::desc s4 = memory::desc({2, 3, 6, 6}, dt::f32, tag::abcd)
                              .submemory_desc({2, 3, 4, 4}, {0, 0, 1, 1});
    memory::desc w4({4, 3, 4, 4}, dt::f32, tag::abcd);
    EXPECT_EQ(try_fwd(s4, w4, nullptr, dst), dnnl_success);
    // Backward with post-ops.
    primitive_attr po_attr;
    post_ops po;
    po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    po_attr.set_post_ops(po);
    EXPECT_EQ(dnnl_inner_product_backward_data_primitive_desc_create(&pd,
                      cpu_engine().get(), src.get(), wei.get(), dst.get(), nullptr,
                      po_attr.get()),
            dnnl_unimplemented);
}

// The gpu engine has its own inner product
// (tests/ocl/test_ocl_inner_product.cpp); what it lacks, such as zero
// points, is unimplemented there too.
TEST(InnerProduct, GpuEngineZeroPointsUnimplemented) {
    if (engine::get_count(engine::kind::gpu) == 0) GTEST_SKIP() << "no GPU engine";
    engine gpu(engine::kind::gpu, 0);
    memory::desc src({2, 3}, dt::f32, tag::ab), wei({4, 3}, dt::f32, tag::ab),
            dst({2, 4}, dt::f32, tag::ab);
    EXPECT_EQ(try_fwd(src, wei, nullptr, dst, nullptr, &gpu), dnnl_success);
    primitive_attr zp;
    zp.set_zero_points_mask(DNNL_ARG_SRC, 0);
    EXPECT_EQ(try_fwd(src, wei, nullptr, dst, &zp, &gpu), dnnl_unimplemented);
}

} // namespace
