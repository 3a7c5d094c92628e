// Binary select post-ops on every CPU primitive kind oneDNN 3.13 applies
// them to (eltwise, binary, convolution, deconvolution, pooling, layer and
// group normalization, resampling, softmax, reduction): the primitive run
// without the post-op gives `acc`, and with it the result must be
//   dst = cond > 0 ? acc : src1
// with src1 and the condition broadcast per dimension (an f32 condition
// too; a negative condition selects src1, as oneDNN 3.13 computes it on
// CPU). The creation-time rules oneDNN applies to every kind: a post-op
// tensor with another number of dims than dst is dnnl_invalid_arguments;
// batch normalization and prelu refuse select (dnnl_unimplemented).
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;
using args_t = std::unordered_map<int, memory>;

engine &eng() {
    static engine e(engine::kind::cpu, 0);
    return e;
}

// One primitive kind: its primitive descriptor for given attributes, and
// its inputs (the destination is added by the test).
struct kind_case_t {
    std::string name;
    std::function<primitive_desc(const primitive_attr &)> make_pd;
    std::function<void(const primitive_desc &, args_t &)> inputs;
};

void fill(memory &m, int seed) {
    const memory::desc d = m.get_desc();
    const size_t n = d.get_size() / 4;
    float *p = static_cast<float *>(m.get_data_handle());
    for (size_t i = 0; i < n; ++i)
        p[i] = (float)((int)((i * 7 + (size_t)seed * 13) % 11) - 5) * 0.5f;
}

memory input(const memory::desc &d, int seed) {
    memory m(d, eng());
    fill(m, seed);
    return m;
}

std::vector<float> run(const kind_case_t &k, const primitive_attr &attr,
        args_t extra) {
    primitive_desc pd = k.make_pd(attr);
    args_t args = std::move(extra);
    k.inputs(pd, args);
    memory dst(pd.dst_desc(), eng());
    args[DNNL_ARG_DST] = dst;
    stream s(eng());
    primitive(pd).execute(s, args);
    s.wait();
    const float *p = static_cast<const float *>(dst.get_data_handle());
    return std::vector<float>(p, p + pd.dst_desc().get_size() / 4);
}

std::vector<kind_case_t> kinds() {
    const memory::dims d4 = {2, 3, 4, 5};
    const memory::desc f4(d4, dt::f32, tag::nchw);
    std::vector<kind_case_t> v;
    auto src_only = [](const primitive_desc &pd, args_t &a) {
        a[DNNL_ARG_SRC] = input(pd.src_desc(), 1);
    };
    v.push_back({"eltwise",
            [=](const primitive_attr &at) -> primitive_desc {
                return eltwise_forward::primitive_desc(eng(),
                        prop_kind::forward_inference, algorithm::eltwise_tanh,
                        f4, f4, 0.f, 0.f, at);
            },
            src_only});
    v.push_back({"binary",
            [=](const primitive_attr &at) -> primitive_desc {
                return binary::primitive_desc(
                        eng(), algorithm::binary_add, f4, f4, f4, at);
            },
            [](const primitive_desc &pd, args_t &a) {
                a[DNNL_ARG_SRC_0] = input(pd.src_desc(0), 1);
                a[DNNL_ARG_SRC_1] = input(pd.src_desc(1), 2);
            }});
    v.push_back({"binary_select",
            [=](const primitive_attr &at) -> primitive_desc {
                const memory::desc c(d4, dt::s8, tag::nchw);
                return binary::primitive_desc(
                        eng(), algorithm::binary_select, f4, f4, c, f4, at);
            },
            [](const primitive_desc &pd, args_t &a) {
                a[DNNL_ARG_SRC_0] = input(pd.src_desc(0), 1);
                a[DNNL_ARG_SRC_1] = input(pd.src_desc(1), 2);
                memory c(pd.src_desc(2), eng());
                auto *p = static_cast<int8_t *>(c.get_data_handle());
                for (size_t i = 0; i < pd.src_desc(2).get_size(); ++i)
                    p[i] = (int8_t)(i % 3 == 0);
                a[DNNL_ARG_SRC_2] = c;
            }});
    const memory::desc cs({2, 3, 6, 6}, dt::f32, tag::nchw),
            cw({4, 3, 3, 3}, dt::f32, tag::oihw),
            cd({2, 4, 4, 4}, dt::f32, tag::nchw), cb({4}, dt::f32, tag::a);
    v.push_back({"convolution",
            [=](const primitive_attr &at) -> primitive_desc {
                return convolution_forward::primitive_desc(eng(),
                        prop_kind::forward_inference,
                        algorithm::convolution_direct, cs, cw, cb, cd, {1, 1},
                        {0, 0}, {0, 0}, at);
            },
            [](const primitive_desc &pd, args_t &a) {
                a[DNNL_ARG_SRC] = input(pd.src_desc(), 1);
                a[DNNL_ARG_WEIGHTS] = input(pd.weights_desc(), 2);
                a[DNNL_ARG_BIAS] = input(pd.weights_desc(1), 3);
            }});
    const memory::desc ds({2, 4, 4, 4}, dt::f32, tag::nchw),
            dw({3, 4, 3, 3}, dt::f32, tag::oihw),
            dd({2, 3, 6, 6}, dt::f32, tag::nchw);
    v.push_back({"deconvolution",
            [=](const primitive_attr &at) -> primitive_desc {
                return deconvolution_forward::primitive_desc(eng(),
                        prop_kind::forward_inference,
                        algorithm::deconvolution_direct, ds, dw, dd, {1, 1},
                        {0, 0}, {0, 0}, at);
            },
            [](const primitive_desc &pd, args_t &a) {
                a[DNNL_ARG_SRC] = input(pd.src_desc(), 1);
                a[DNNL_ARG_WEIGHTS] = input(pd.weights_desc(), 2);
            }});
    const memory::desc pdst({2, 3, 2, 2}, dt::f32, tag::nchw);
    v.push_back({"pooling",
            [=](const primitive_attr &at) -> primitive_desc {
                return pooling_forward::primitive_desc(eng(),
                        prop_kind::forward_inference, algorithm::pooling_max,
                        f4, pdst, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {0, 0}, at);
            },
            src_only});
    v.push_back({"layer_normalization",
            [=](const primitive_attr &at) -> primitive_desc {
                return layer_normalization_forward::primitive_desc(eng(),
                        prop_kind::forward_inference, f4, f4, 1e-5f,
                        normalization_flags::none, at);
            },
            src_only});
    v.push_back({"group_normalization",
            [=](const primitive_attr &at) -> primitive_desc {
                return group_normalization_forward::primitive_desc(eng(),
                        prop_kind::forward_inference, f4, f4, 3, 1e-5f,
                        normalization_flags::none, at);
            },
            src_only});
    const memory::desc rdst({2, 3, 8, 10}, dt::f32, tag::nchw);
    v.push_back({"resampling",
            [=](const primitive_attr &at) -> primitive_desc {
                return resampling_forward::primitive_desc(eng(),
                        prop_kind::forward_inference,
                        algorithm::resampling_linear, f4, rdst, at);
            },
            src_only});
    v.push_back({"softmax",
            [=](const primitive_attr &at) -> primitive_desc {
                return softmax_forward::primitive_desc(eng(),
                        prop_kind::forward_inference,
                        algorithm::softmax_accurate, f4, f4, 3, at);
            },
            src_only});
    const memory::desc red({2, 3, 1, 1}, dt::f32, tag::nchw);
    v.push_back({"reduction",
            [=](const primitive_attr &at) -> primitive_desc {
                return reduction::primitive_desc(eng(),
                        algorithm::reduction_sum, f4, red, 0.f, 0.f, at);
            },
            src_only});
    return v;
}

// The post-op's tensors: src1 over all of dst or per channel, the
// condition over all of dst or per spatial point, s8 or f32.
struct shape_case_t {
    bool src1_per_channel, cond_spatial, cond_f32, relu_first;
};

class PostOpSelectKinds
    : public ::testing::TestWithParam<std::tuple<int, shape_case_t>> {};

TEST_P(PostOpSelectKinds, MatchesPlainRun) {
    const auto all = kinds();
    const kind_case_t &k = all[std::get<0>(GetParam())];
    const shape_case_t sc = std::get<1>(GetParam());
    SCOPED_TRACE(k.name);
    const memory::desc dmd = k.make_pd(primitive_attr()).dst_desc();
    const memory::dims dims = dmd.get_dims();
    const int nd = (int)dims.size();
    memory::dims d1 = dims, dc = dims;
    for (int i = 0; i < nd; ++i) {
        if (sc.src1_per_channel && i != 1) d1[i] = 1;
        if (sc.cond_spatial && i < 2) dc[i] = 1;
    }
    const memory::desc s1_md(d1, dt::f32, tag::abcd),
            c_md(dc, sc.cond_f32 ? dt::f32 : dt::s8, tag::abcd);
    memory s1 = input(s1_md, 3), cond(c_md, eng());
    const memory::dim nc = c_md.get_size() / (sc.cond_f32 ? 4 : 1);
    std::vector<int> cv(nc);
    // Conditions zero, positive and negative: only positive ones keep the
    // primitive's value (oneDNN 3.13's CPU post-op, unlike the select
    // primitive's non-zero test).
    for (memory::dim i = 0; i < nc; ++i) {
        const int kind = (int)((i * 5 + 4) % 3);
        cv[i] = kind == 1;
        if (sc.cond_f32)
            static_cast<float *>(cond.get_data_handle())[i]
                    = kind == 0 ? 0.f : kind == 1 ? 0.5f : -2.f;
        else
            static_cast<int8_t *>(cond.get_data_handle())[i]
                    = (int8_t)(kind == 0 ? 0 : kind == 1 ? 3 : -1);
    }

    post_ops base_po, po;
    if (sc.relu_first) {
        base_po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
        po.append_eltwise(algorithm::eltwise_relu, 0.f, 0.f);
    }
    po.append_binary(algorithm::binary_select, s1_md, c_md);
    primitive_attr base_attr, attr;
    base_attr.set_post_ops(base_po);
    attr.set_post_ops(po);
    const int idx = sc.relu_first ? 1 : 0;
    if (k.name == "eltwise" && sc.relu_first) {
        // Eltwise takes binary post-ops only, as in oneDNN.
        try {
            k.make_pd(attr);
            FAIL() << "eltwise accepted an eltwise post-op";
        } catch (const error &e) {
            EXPECT_EQ(e.status, dnnl_unimplemented);
        }
        return;
    }
    const auto acc = run(k, base_attr, {});
    const auto got = run(k, attr,
            {{DNNL_ARG_ATTR_MULTIPLE_POST_OP(idx) | DNNL_ARG_SRC_1, s1},
                    {DNNL_ARG_ATTR_MULTIPLE_POST_OP(idx) | DNNL_ARG_SRC_2,
                            cond}});
    ASSERT_EQ(acc.size(), got.size());
    const float *src1 = static_cast<const float *>(s1.get_data_handle());
    memory::dims pos(nd, 0);
    for (size_t i = 0; i < got.size(); ++i) {
        memory::dim rem = (memory::dim)i, o1 = 0, oc = 0, st1 = 1, stc = 1;
        for (int d = nd - 1; d >= 0; --d) {
            pos[d] = rem % dims[d];
            rem /= dims[d];
        }
        for (int d = nd - 1; d >= 0; --d) {
            o1 += (d1[d] == 1 ? 0 : pos[d]) * st1;
            oc += (dc[d] == 1 ? 0 : pos[d]) * stc;
            st1 *= d1[d];
            stc *= dc[d];
        }
        const float want = cv[oc] ? acc[i] : src1[o1];
        ASSERT_NEAR(got[i], want, 1e-5f) << i;
    }
}

INSTANTIATE_TEST_SUITE_P(AllKinds, PostOpSelectKinds,
        ::testing::Combine(::testing::Range(0, 11),
                ::testing::Values(shape_case_t{false, false, false, false},
                        shape_case_t{true, false, false, false},
                        shape_case_t{false, true, true, false},
                        shape_case_t{true, true, false, true})));

TEST(PostOpSelectKindsRules, NdimsMismatchIsInvalid) {
    const memory::desc f4({2, 3, 4, 5}, dt::f32, tag::nchw),
            s1({2, 3, 4, 5}, dt::f32, tag::nchw),
            c3({2, 3, 4}, dt::s8, tag::abc), s1_3({2, 3, 4}, dt::f32, tag::abc);
    for (int which = 0; which < 2; ++which) {
        post_ops po;
        if (which == 0)
            po.append_binary(algorithm::binary_select, s1, c3);
        else
            po.append_binary(algorithm::binary_add, s1_3);
        primitive_attr attr;
        attr.set_post_ops(po);
        for (const auto &k : kinds()) {
            if (k.name == "pooling" || k.name == "resampling"
                    || k.name == "reduction")
                continue; // other destination shapes
            SCOPED_TRACE(k.name + (which ? " add" : " select"));
            try {
                k.make_pd(attr);
                ADD_FAILURE() << "accepted";
            } catch (const error &e) {
                EXPECT_EQ(e.status, dnnl_invalid_arguments);
            }
        }
    }
}

TEST(PostOpSelectKindsRules, BatchNormAndPreluRefuse) {
    const memory::desc f4({2, 3, 4, 5}, dt::f32, tag::nchw),
            c({2, 3, 4, 5}, dt::s8, tag::nchw);
    post_ops po;
    po.append_binary(algorithm::binary_select, f4, c);
    primitive_attr attr;
    attr.set_post_ops(po);
    try {
        batch_normalization_forward::primitive_desc(eng(),
                prop_kind::forward_inference, f4, f4, 1e-5f,
                normalization_flags::none, attr);
        ADD_FAILURE() << "batch normalization accepted select";
    } catch (const error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
    try {
        prelu_forward::primitive_desc(
                eng(), prop_kind::forward_inference, f4, f4, f4, attr);
        ADD_FAILURE() << "prelu accepted select";
    } catch (const error &e) {
        EXPECT_EQ(e.status, dnnl_unimplemented);
    }
}

// Binary post-op tensors of layout `any` (src1 and select's condition)
// take a layout when the primitive descriptor is made, as in oneDNN 3.13
// (layouts recorded from it): plain when src1 has one non-unit dim, dst's
// layout otherwise (blocked ones padded as dst is).
TEST(PostOpAnyLayouts, ResolvedFromDst) {
    const memory::dims d4 = {2, 16, 3, 5};
    struct case_t {
        tag dst_tag;
        memory::dims s1;
        memory::dims strides;
        int inner_nblks;
    };
    const case_t cases[] = {
            {tag::nhwc, {2, 16, 3, 5}, {240, 1, 80, 16}, 0},
            {tag::nhwc, {1, 16, 1, 1}, {16, 1, 1, 1}, 0},
            {tag::nhwc, {2, 1, 3, 5}, {15, 1, 5, 1}, 0},
            {tag::nChw16c, {2, 16, 3, 5}, {240, 240, 80, 16}, 1},
            {tag::nChw16c, {1, 16, 1, 1}, {16, 1, 1, 1}, 0},
            {tag::nChw16c, {2, 1, 3, 5}, {240, 240, 80, 16}, 1},
    };
    for (const auto &c : cases) {
        const memory::desc dst(d4, dt::f32, c.dst_tag),
                a(c.s1, dt::f32, tag::any), cond(c.s1, dt::s8, tag::any);
        post_ops po;
        po.append_binary(algorithm::binary_add, a);
        po.append_binary(algorithm::binary_select, a, cond);
        primitive_attr attr;
        attr.set_post_ops(po);
        const auto check = [&](const primitive_desc &pd, const char *who) {
            for (int arg : {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1,
                         DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_1,
                         DNNL_ARG_ATTR_MULTIPLE_POST_OP(1) | DNNL_ARG_SRC_2}) {
                SCOPED_TRACE(std::string(who) + " arg " + std::to_string(arg));
                const memory::desc md = pd.query_md(query::exec_arg_md, arg);
                EXPECT_EQ(md.get_format_kind(), memory::format_kind::blocked);
                EXPECT_EQ(md.get_strides(), c.strides);
                EXPECT_EQ(md.get_inner_nblks(), c.inner_nblks);
            }
        };
        check(eltwise_forward::primitive_desc(eng(),
                      prop_kind::forward_inference, algorithm::eltwise_relu,
                      dst, dst, 0.f, 0.f, attr),
                "eltwise");
        check(binary::primitive_desc(
                      eng(), algorithm::binary_mul, dst, dst, dst, attr),
                "binary");
    }
}

// dst `any` too: the tensors follow the layout dst resolves to (strides
// recorded from oneDNN 3.13.2 with the same descriptors).
TEST(PostOpAnyLayouts, DstAnyToo) {
    const memory::dims d4 = {2, 16, 3, 5};
    using dims = memory::dims;
    struct want_t {
        dims strides;
        int inner_nblks;
    };
    struct case_t {
        tag src_tag;
        want_t dst, full, per_channel, select;
    };
    const case_t cases[] = {
            {tag::nhwc, {{240, 1, 80, 16}, 0}, {{240, 1, 80, 16}, 0},
                    {{16, 1, 1, 1}, 0}, {{15, 1, 5, 1}, 0}},
            {tag::nChw16c, {{240, 240, 80, 16}, 1}, {{240, 240, 80, 16}, 1},
                    {{16, 1, 1, 1}, 0}, {{240, 240, 80, 16}, 1}},
            {tag::nchw, {{240, 15, 5, 1}, 0}, {{240, 15, 5, 1}, 0},
                    {{16, 1, 1, 1}, 0}, {{15, 15, 5, 1}, 0}},
    };
    const auto any = [](const dims &d, dt t) {
        return memory::desc(d, t, tag::any);
    };
    post_ops po;
    po.append_binary(algorithm::binary_add, any(d4, dt::f32));
    po.append_binary(algorithm::binary_mul, any({1, 16, 1, 1}, dt::f32));
    po.append_binary(algorithm::binary_select, any({2, 1, 3, 5}, dt::f32),
            any({2, 1, 3, 5}, dt::s8));
    primitive_attr attr;
    attr.set_post_ops(po);
    const auto expect = [](const memory::desc &md, const want_t &w) {
        EXPECT_EQ(md.get_format_kind(), memory::format_kind::blocked);
        EXPECT_EQ(md.get_strides(), w.strides);
        EXPECT_EQ(md.get_inner_nblks(), w.inner_nblks);
    };
    for (const auto &c : cases) {
        const memory::desc src(d4, dt::f32, c.src_tag), dst = any(d4, dt::f32);
        const auto check = [&](const primitive_desc &pd, const char *who) {
            SCOPED_TRACE(who);
            const auto arg = [&](int i, int which) {
                return pd.query_md(query::exec_arg_md,
                        DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | which);
            };
            expect(pd.dst_desc(), c.dst);
            expect(arg(0, DNNL_ARG_SRC_1), c.full);
            expect(arg(1, DNNL_ARG_SRC_1), c.per_channel);
            expect(arg(2, DNNL_ARG_SRC_1), c.select);
            expect(arg(2, DNNL_ARG_SRC_2), c.select);
        };
        check(eltwise_forward::primitive_desc(eng(),
                      prop_kind::forward_inference, algorithm::eltwise_relu,
                      src, dst, 0.f, 0.f, attr),
                "eltwise");
        check(binary::primitive_desc(
                      eng(), algorithm::binary_add, src, src, dst, attr),
                "binary");
    }
    // Matmul: dst `any` resolves to plain, the tensors with it.
    post_ops mpo;
    mpo.append_binary(algorithm::binary_add, any({4, 5}, dt::f32));
    mpo.append_binary(algorithm::binary_mul, any({1, 5}, dt::f32));
    primitive_attr mattr;
    mattr.set_post_ops(mpo);
    matmul::primitive_desc mpd(eng(), memory::desc({4, 6}, dt::f32, tag::ab),
            memory::desc({6, 5}, dt::f32, tag::ab), any({4, 5}, dt::f32),
            mattr);
    for (int i : {0, 1})
        expect(mpd.query_md(query::exec_arg_md,
                       DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1),
                {{5, 1}, 0});
    // A convolution choosing its own dst layout: the full-size tensor
    // takes it, element for element.
    const memory::desc c_src({2, 16, 7, 7}, dt::f32, tag::any),
            c_wei({16, 16, 3, 3}, dt::f32, tag::any),
            c_dst({2, 16, 5, 5}, dt::f32, tag::any);
    post_ops cpo;
    cpo.append_binary(algorithm::binary_add, c_dst);
    primitive_attr cattr;
    cattr.set_post_ops(cpo);
    convolution_forward::primitive_desc cpd(eng(),
            prop_kind::forward_inference, algorithm::convolution_direct, c_src,
            c_wei, c_dst, {1, 1}, {0, 0}, {0, 0}, cattr);
    EXPECT_EQ(cpd.query_md(query::exec_arg_md,
                      DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1),
            cpd.dst_desc());
}

// dst `any` with a post-op tensor `any`: executes on the resolved layouts.
TEST(PostOpAnyLayouts, DstAnyExecutes) {
    const memory::desc src({2, 16, 3, 5}, dt::f32, tag::nChw16c),
            a({2, 16, 3, 5}, dt::f32, tag::any);
    post_ops po;
    po.append_binary(algorithm::binary_add, a);
    primitive_attr attr;
    attr.set_post_ops(po);
    eltwise_forward::primitive_desc pd(eng(), prop_kind::forward_inference,
            algorithm::eltwise_relu, src, a, 0.f, 0.f, attr);
    const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
    const memory::desc s1_md = pd.query_md(query::exec_arg_md, arg);
    ASSERT_EQ(pd.dst_desc(), src);
    ASSERT_EQ(s1_md, src);
    memory x = input(src, 1), s1 = input(s1_md, 2), y(pd.dst_desc(), eng());
    stream s(eng());
    eltwise_forward(pd).execute(
            s, {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, y}, {arg, s1}});
    s.wait();
    const float *px = static_cast<const float *>(x.get_data_handle());
    const float *p1 = static_cast<const float *>(s1.get_data_handle());
    const float *py = static_cast<const float *>(y.get_data_handle());
    for (size_t i = 0; i < src.get_size() / 4; ++i)
        ASSERT_FLOAT_EQ(py[i], (px[i] > 0.f ? px[i] : 0.f) + p1[i]) << i;
}

// With `any` resolved, the post-op runs on the user's data in that layout.
TEST(PostOpAnyLayouts, Executes) {
    const memory::desc dst({2, 8, 3, 5}, dt::f32, tag::nhwc),
            a({2, 8, 3, 5}, dt::f32, tag::any);
    post_ops po;
    po.append_binary(algorithm::binary_add, a);
    primitive_attr attr;
    attr.set_post_ops(po);
    eltwise_forward::primitive_desc pd(eng(), prop_kind::forward_inference,
            algorithm::eltwise_relu, dst, dst, 0.f, 0.f, attr);
    const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1;
    const memory::desc s1_md = pd.query_md(query::exec_arg_md, arg);
    ASSERT_EQ(s1_md, dst); // dst's layout, element for element
    memory x = input(dst, 1), s1 = input(s1_md, 2), y(dst, eng());
    stream s(eng());
    eltwise_forward(pd).execute(
            s, {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, y}, {arg, s1}});
    s.wait();
    const float *px = static_cast<const float *>(x.get_data_handle());
    const float *p1 = static_cast<const float *>(s1.get_data_handle());
    const float *py = static_cast<const float *>(y.get_data_handle());
    for (size_t i = 0; i < dst.get_size() / 4; ++i)
        ASSERT_FLOAT_EQ(py[i], (px[i] > 0.f ? px[i] : 0.f) + p1[i]) << i;
}

} // namespace
