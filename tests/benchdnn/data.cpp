// Drivers of the data-combining primitives:
//   --reorder   --sdt --ddt --stag --dtag [--attr-scales/zero-points/post-ops=sum]  DIMS
//   --reduction --sdt --ddt --stag --dtag --alg --p --eps  SRC_DIMS:DST_DIMS
//   --concat    --sdt --ddt --stag=T0[:T1...] --dtag --axis  D0:D1[:...]
//   --sum       --sdt=S0:S1[:...] --ddt --stag=T0:T1[:...] --dtag --scales=F0[:F1...]  DIMS
#include <cmath>

#include "drivers.hpp"
#include "reference/concat_ref.hpp"
#include "reference/reduction_ref.hpp"
#include "reference/reorder_ref.hpp"
#include "reference/sum_ref.hpp"

namespace bd {
namespace {

// Source values for a conversion from sdt: reals (exercising rounding) for
// floating types, integers otherwise.
std::vector<float> fill_src(int64_t n, dt_t dt, uint64_t seed) {
    if (ref::is_integral((dnnl_data_type_t)dt)) return fill_data(n, dt, seed);
    return fill_real(n, -16, 16, dt, seed);
}

// ------------------------------------------------------------------ reorder

void run_reorder(const problem_t &p, res_t &res) {
    if (!defaults_only(p, res, {"oflag", "runtime-dim-mask", "cross-engine", "strides"})) return;
    dt_t sdt, ddt;
    if (!get_dt(res, p.get("sdt"), sdt) || !get_dt(res, p.get("ddt"), ddt)) return;
    dims_t dims;
    if (!str2dims(p.desc, dims)) return res.fail("bad descriptor " + p.desc);
    const int nd = (int)dims.size();
    tag_t stag, dtag;
    if (!get_tag(res, p.get("stag"), nd, stag) || !get_tag(res, p.get("dtag"), nd, dtag)) return;
    if (stag == tag_t::any || dtag == tag_t::any) return res.skip("reorder needs defined tags");
    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int arg, const std::string &pol) {
        return (arg == DNNL_ARG_SRC || arg == DNNL_ARG_DST) ? policy_mask(pol, nd) : -1;
    };
    if (!prepare_attr(p, res, as, dims, mask_of, attr)) return;
    for (const auto &po : as.post_ops)
        if (po.kind != post_ops_ref::post_op_t::sum)
            return res.skip("reorder supports the sum post-op only");

    const dnnl::memory::desc smd(dims, sdt, stag), dmd(dims, ddt, dtag);
    case_t c(p, res);
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            return dnnl::reorder::primitive_desc(c.eng, smd, c.eng, dmd, attr);
        }))
        return;
    const int64_t n = nelems(dims);
    std::vector<float> src = fill_src(n, sdt, 1);
    std::vector<float> old = fill_data(n, ddt, 2);
    c.add(DNNL_ARG_FROM, smd).write(src);
    c.add(DNNL_ARG_TO, dmd).write(old);
    attr_rt_t rt;
    setup_attr_args(c, as, {}, dims, rt);
    if (!c.execute()) return;

    reorder_ref::quant_t q;
    auto take = [&](int arg, std::vector<float> &s, int &sm, std::vector<int32_t> &z, int &zm) {
        if (rt.scales.count(arg)) s = rt.scales[arg], sm = rt.scale_mask[arg];
        if (rt.zero_points.count(arg)) {
            z.assign(rt.zero_points[arg].begin(), rt.zero_points[arg].end());
            zm = rt.zp_mask[arg];
        }
    };
    take(DNNL_ARG_SRC, q.src_scales, q.src_scale_mask, q.src_zps, q.src_zp_mask);
    take(DNNL_ARG_DST, q.dst_scales, q.dst_scale_mask, q.dst_zps, q.dst_zp_mask);
    for (const auto &po : rt.post_ops)
        q.with_sum = true, q.beta = (float)po.scale;
    std::vector<double> exp_v((size_t)n);
    std::vector<int64_t> pos(nd, 0);
    for (int64_t i = 0; i < n; ++i) {
        exp_v[i] = reorder_ref::compute(q, nd, dims.data(), pos.data(), src[i], old[i]);
        for (int d = nd - 1; d >= 0; --d) {
            if (++pos[d] < dims[d]) break;
            pos[d] = 0;
        }
    }
    // A plain conversion is exact after rounding; scales and zero points
    // may round differently by one unit.
    ref::tolerance_t tol;
    if (!as.scales.empty() || !as.zero_points.empty() || q.with_sum) tol.ulps = 1;
    c.check("dst", c[DNNL_ARG_TO].read(), exp_v, ddt, tol);
}

// ------------------------------------------------------------------ reduction

bool str2reduction(const std::string &s, dnnl::algorithm &alg) {
    std::string a = lower(s);
    if (starts_with(a, "reduction_")) a = a.substr(10);
    static const std::pair<const char *, dnnl::algorithm> t[] = {
            {"sum", dnnl::algorithm::reduction_sum}, {"max", dnnl::algorithm::reduction_max},
            {"min", dnnl::algorithm::reduction_min}, {"mul", dnnl::algorithm::reduction_mul},
            {"mean", dnnl::algorithm::reduction_mean},
            {"norm_lp_max", dnnl::algorithm::reduction_norm_lp_max},
            {"norm_lp_sum", dnnl::algorithm::reduction_norm_lp_sum},
            {"norm_lp_power_p_max", dnnl::algorithm::reduction_norm_lp_power_p_max},
            {"norm_lp_power_p_sum", dnnl::algorithm::reduction_norm_lp_power_p_sum}};
    for (const auto &e : t)
        if (a == e.first) return alg = e.second, true;
    return false;
}

reduction_ref::alg_t ref_alg(dnnl::algorithm a) {
    using A = reduction_ref::alg_t;
    switch (a) {
        case dnnl::algorithm::reduction_max: return A::max;
        case dnnl::algorithm::reduction_min: return A::min;
        case dnnl::algorithm::reduction_sum: return A::sum;
        case dnnl::algorithm::reduction_mul: return A::mul;
        case dnnl::algorithm::reduction_mean: return A::mean;
        case dnnl::algorithm::reduction_norm_lp_max: return A::norm_lp_max;
        case dnnl::algorithm::reduction_norm_lp_sum: return A::norm_lp_sum;
        case dnnl::algorithm::reduction_norm_lp_power_p_max: return A::norm_lp_power_p_max;
        default: return A::norm_lp_power_p_sum;
    }
}

void run_reduction(const problem_t &p, res_t &res) {
    dt_t sdt, ddt;
    if (!get_dt(res, p.get("sdt"), sdt) || !get_dt(res, p.get("ddt"), ddt)) return;
    dnnl::algorithm alg;
    if (!str2reduction(p.get("alg"), alg)) return res.skip("unknown --alg=" + p.get("alg"));
    double pp, eps;
    if (!parse_float(p.get("p"), pp) || !parse_float(p.get("eps"), eps))
        return res.skip("bad --p/--eps");
    auto shapes = split(p.desc, ':');
    dims_t sd, dd;
    if (shapes.size() != 2 || !str2dims(shapes[0], sd) || !str2dims(shapes[1], dd)
            || sd.size() != dd.size())
        return res.fail("bad descriptor " + p.desc);
    const int nd = (int)sd.size();
    tag_t stag, dtag;
    if (!get_tag(res, p.get("stag"), nd, stag) || !get_tag(res, p.get("dtag"), nd, dtag)) return;
    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int, const std::string &) { return -1; };
    if (!prepare_attr(p, res, as, dd, mask_of, attr)) return;
    const dnnl::memory::desc smd(sd, sdt, stag), dmd(dd, ddt, dtag);
    case_t c(p, res);
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            return dnnl::reduction::primitive_desc(c.eng, alg, smd, dmd, (float)pp, (float)eps, attr);
        }))
        return;
    const int64_t ns = nelems(sd), ndst = nelems(dd);
    std::vector<float> src;
    if (alg == dnnl::algorithm::reduction_mul) {
        // Products of many values stay finite: +-1, 2, 0.5.
        src = fill_int(ns, 0, 3, 1);
        static const float v[] = {1.f, -1.f, 2.f, 0.5f};
        for (auto &x : src)
            x = v[(int)x];
        round_to(src, sdt);
    } else {
        src = fill_data(ns, sdt, 1);
    }
    std::vector<float> old = fill_data(ndst, ddt, 3);
    c.add(DNNL_ARG_SRC, smd).write(src);
    c.add(DNNL_ARG_DST, c.pd.dst_desc()).write(old);
    attr_rt_t rt;
    setup_attr_args(c, as, {}, dd, rt);
    if (!c.execute()) return;
    std::vector<double> exp_v = reduction_ref::compute(ref_alg(alg), to_double(src), sd, dd, pp, eps);
    post_ops_ref::apply(rt.post_ops, dd, exp_v, &old);
    auto tol = float_tolerance(ddt, 8 * std::max(1.0, std::log2((double)(ns / std::max<int64_t>(ndst, 1)))));
    c.check("dst", c[DNNL_ARG_DST].read(), exp_v, ddt, tol);
}

// ------------------------------------------------------------------ concat

void run_concat(const problem_t &p, res_t &res) {
    dt_t sdt, ddt;
    if (!get_dt(res, p.get("sdt"), sdt) || !get_dt(res, p.get("ddt"), ddt)) return;
    int64_t axis;
    if (!parse_int(p.get("axis"), axis)) return res.skip("bad --axis");
    auto shapes = split(p.desc, ':');
    std::vector<dims_t> sdims(shapes.size());
    for (size_t i = 0; i < shapes.size(); ++i)
        if (!str2dims(shapes[i], sdims[i]) || sdims[i].size() != sdims[0].size())
            return res.fail("bad descriptor " + p.desc);
    const int nd = (int)sdims[0].size();
    if (axis < 0 || axis >= nd) return res.fail("axis out of range");
    dims_t dd = sdims[0];
    dd[axis] = 0;
    for (const auto &s : sdims)
        dd[axis] += s[axis];
    auto stags = split(p.get("stag"), ':');
    std::vector<dnnl::memory::desc> smds;
    for (size_t i = 0; i < sdims.size(); ++i) {
        tag_t t;
        if (!get_tag(res, stags[std::min(i, stags.size() - 1)], nd, t)) return;
        smds.emplace_back(sdims[i], sdt, t);
    }
    tag_t dtag;
    const std::string dt_s = p.get("dtag");
    if (!get_tag(res, dt_s == "undef" ? "any" : dt_s, nd, dtag)) return;
    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int arg, const std::string &pol) {
        return arg >= DNNL_ARG_MULTIPLE_SRC && pol == "common" ? 0 : -1;
    };
    if (!prepare_attr(p, res, as, dd, mask_of, attr)) return;
    if (!as.post_ops.empty()) return res.skip("concat has no post-ops");
    const dnnl::memory::desc dmd(dd, ddt, dtag);
    case_t c(p, res);
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            return dnnl::concat::primitive_desc(c.eng, dmd, (int)axis, smds, attr);
        }))
        return;
    std::vector<std::vector<double>> srcs;
    for (size_t i = 0; i < smds.size(); ++i) {
        auto v = fill_data(nelems(sdims[i]), sdt, 1 + i);
        c.add(DNNL_ARG_MULTIPLE_SRC + (int)i, smds[i]).write(v);
        srcs.push_back(to_double(v));
    }
    c.add(DNNL_ARG_DST, c.pd.dst_desc()).memset(0);
    attr_rt_t rt;
    setup_attr_args(c, as, {}, dd, rt);
    if (!c.execute()) return;
    std::vector<double> scales;
    for (size_t i = 0; i < smds.size(); ++i)
        scales.push_back(rt.scale0(DNNL_ARG_MULTIPLE_SRC + (int)i));
    std::vector<double> exp_v = concat_ref::compute(srcs, sdims, (int)axis, scales);
    c.check("dst", c[DNNL_ARG_DST].read(), exp_v, ddt, ref::exact_tolerance((dnnl_data_type_t)ddt));
}

// ------------------------------------------------------------------ sum

void run_sum(const problem_t &p, res_t &res) {
    auto sdt_s = split(p.get("sdt"), ':');
    std::vector<dt_t> sdts;
    if (!get_dts(res, p.get("sdt"), sdt_s.size(), sdts)) return;
    const size_t ns = sdts.size();
    dt_t ddt;
    if (!get_dt(res, p.get("ddt"), ddt)) return;
    dims_t dims;
    if (!str2dims(p.desc, dims)) return res.fail("bad descriptor " + p.desc);
    const int nd = (int)dims.size();
    auto stags = split(p.get("stag"), ':');
    auto sc_s = split(p.get("scales"), ':');
    std::vector<float> scales;
    for (size_t i = 0; i < ns; ++i) {
        double v;
        if (!parse_float(sc_s[std::min(i, sc_s.size() - 1)], v)) return res.skip("bad --scales");
        scales.push_back((float)v);
    }
    std::vector<dnnl::memory::desc> smds;
    for (size_t i = 0; i < ns; ++i) {
        tag_t t;
        if (!get_tag(res, stags[std::min(i, stags.size() - 1)], nd, t)) return;
        smds.emplace_back(dims, sdts[i], t);
    }
    tag_t dtag;
    const std::string dt_s = p.get("dtag");
    if (!get_tag(res, dt_s == "undef" ? "any" : dt_s, nd, dtag)) return;
    if (!no_attr(p, res)) return;
    const dnnl::memory::desc dmd(dims, ddt, dtag);
    case_t c(p, res);
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            return dnnl::sum::primitive_desc(c.eng, dmd, scales, smds);
        }))
        return;
    std::vector<std::vector<double>> srcs;
    const int64_t n = nelems(dims);
    for (size_t i = 0; i < ns; ++i) {
        auto v = fill_data(n, sdts[i], 1 + i);
        c.add(DNNL_ARG_MULTIPLE_SRC + (int)i, smds[i]).write(v);
        srcs.push_back(to_double(v));
    }
    c.add(DNNL_ARG_DST, c.pd.dst_desc()).memset(0);
    if (!c.execute()) return;
    std::vector<double> exp_v
            = sum_ref::compute(srcs, std::vector<double>(scales.begin(), scales.end()));
    c.check("dst", c[DNNL_ARG_DST].read(), exp_v, ddt, float_tolerance(ddt, 2 * (double)ns));
}

} // namespace

const driver_t reorder_driver = {"reorder",
        {{"sdt", "f32"}, {"ddt", "f32"}, {"stag", "abx"}, {"dtag", "abx"}, {"oflag", ""},
                {"runtime-dim-mask", "0"}, {"cross-engine", "none"}, {"strides", ""}},
        run_reorder};
const driver_t reduction_driver = {"reduction",
        {{"sdt", "f32"}, {"ddt", "f32"}, {"stag", "abx"}, {"dtag", "any"}, {"alg", "sum"},
                {"p", "1"}, {"eps", "0"}},
        run_reduction};
const driver_t concat_driver = {"concat",
        {{"sdt", "f32"}, {"ddt", "f32"}, {"stag", "abx"}, {"dtag", "any"}, {"axis", "1"}},
        run_concat};
const driver_t sum_driver = {"sum",
        {{"sdt", "f32:f32"}, {"ddt", "f32"}, {"stag", "abx:abx"}, {"dtag", "any"},
                {"scales", "0.25"}},
        run_sum};

} // namespace bd
