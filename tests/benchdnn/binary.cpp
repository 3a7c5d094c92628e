// --binary: dst = op(src0, src1) with broadcasting.
//   --sdt=S0:S1 --ddt --stag=T0:T1 --dtag --alg --inplace  D0:D1 (8x8x3x5:8x1x1x5)
#include <algorithm>

#include "drivers.hpp"
#include "reference/binary_ref.hpp"

namespace bd {
namespace {

binary_ref::alg_t ref_alg(dnnl::algorithm a) {
    using A = binary_ref::alg_t;
    switch (a) {
        case dnnl::algorithm::binary_add: return A::add;
        case dnnl::algorithm::binary_mul: return A::mul;
        case dnnl::algorithm::binary_max: return A::max;
        case dnnl::algorithm::binary_min: return A::min;
        case dnnl::algorithm::binary_div: return A::div;
        case dnnl::algorithm::binary_sub: return A::sub;
        case dnnl::algorithm::binary_ge: return A::ge;
        case dnnl::algorithm::binary_gt: return A::gt;
        case dnnl::algorithm::binary_le: return A::le;
        case dnnl::algorithm::binary_lt: return A::lt;
        case dnnl::algorithm::binary_eq: return A::eq;
        default: return A::ne;
    }
}

void run(const problem_t &p, res_t &res) {
    if (!defaults_only(p, res, {"strides"})) return;
    std::vector<dt_t> sdt;
    dt_t ddt;
    if (!get_dts(res, p.get("sdt"), 2, sdt) || !get_dt(res, p.get("ddt"), ddt)) return;
    dnnl::algorithm alg;
    if (lower(p.get("alg")) == "select") return res.skip("select is not supported by the driver");
    if (!str2binary_alg(p.get("alg"), alg)) return res.skip("unknown --alg=" + p.get("alg"));
    bool inplace;
    if (!parse_bool(p.get("inplace"), inplace)) return res.skip("bad --inplace");
    auto shapes = split(p.desc, ':');
    if (shapes.size() != 2) return res.fail("binary needs two shapes: " + p.desc);
    dims_t d0, d1;
    if (!str2dims(shapes[0], d0) || !str2dims(shapes[1], d1) || d1.size() > d0.size())
        return res.fail("bad descriptor " + p.desc);
    d1.resize(d0.size(), 1); // trailing dims of src1 default to 1
    for (size_t i = 0; i < d0.size(); ++i)
        if (d0[i] != d1[i] && d0[i] != 1 && d1[i] != 1)
            return res.fail("shapes do not broadcast: " + p.desc);
    dims_t dd = d0;
    for (size_t i = 0; i < d0.size(); ++i)
        dd[i] = std::max(d0[i], d1[i]);
    const int nd = (int)d0.size();
    auto stags = split(p.get("stag"), ':');
    if (stags.size() == 1) stags.push_back(stags[0]);
    tag_t t0, t1, td;
    if (!get_tag(res, stags[0], nd, t0) || !get_tag(res, stags[1], nd, t1)
            || !get_tag(res, p.get("dtag"), nd, td))
        return;
    if (inplace && (dd != d0 || ddt != sdt[0] || (td != t0 && td != tag_t::any)))
        return res.skip("in-place needs dst equal to src0");

    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int, const std::string &pol) { return pol == "common" ? 0 : -1; };
    if (!prepare_attr(p, res, as, dd, mask_of, attr)) return;

    const dnnl::memory::desc md0(d0, sdt[0], t0), md1(d1, sdt[1], t1);
    const dnnl::memory::desc mdd(dd, ddt, inplace ? t0 : td);
    case_t c(p, res);
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            return dnnl::binary::primitive_desc(c.eng, alg, md0, md1, mdd, attr);
        }))
        return;

    const bool nonzero = alg == dnnl::algorithm::binary_div;
    std::vector<float> s0 = fill_data(nelems(d0), sdt[0], 1);
    std::vector<float> s1 = fill_data(nelems(d1), sdt[1], 2, nonzero);
    if (nonzero)
        for (auto &x : s1)
            x = x <= 0 ? 1 : (x == 3 ? 2 : x);
    c.add(DNNL_ARG_SRC_0, md0).write(s0);
    c.add(DNNL_ARG_SRC_1, md1).write(s1);
    std::vector<float> old;
    if (inplace) {
        c.add_alias(DNNL_ARG_DST, DNNL_ARG_SRC_0, c.pd.dst_desc());
        old = s0;
    } else {
        auto &dst = c.add(DNNL_ARG_DST, c.pd.dst_desc());
        old = fill_data(nelems(dd), ddt, 3);
        dst.write(old);
    }
    attr_rt_t rt;
    setup_attr_args(c, as, {}, dd, rt);
    if (!c.execute()) return;

    std::vector<double> exp_v = binary_ref::compute(ref_alg(alg), dd, to_double(s0), d0,
            to_double(s1), d1, nullptr, nullptr, rt.scale0(DNNL_ARG_SRC_0),
            rt.scale0(DNNL_ARG_SRC_1));
    post_ops_ref::apply(rt.post_ops, dd, exp_v, &old);
    c.check("dst", c[DNNL_ARG_DST].read(), exp_v, ddt, float_tolerance(ddt, 2));
}

} // namespace

const driver_t binary_driver = {"binary",
        {{"sdt", "f32:f32"}, {"ddt", "f32"}, {"stag", "abx:abx"}, {"dtag", "any"},
                {"alg", "ADD"}, {"inplace", "false"}, {"strides", ""}},
        run};

} // namespace bd
