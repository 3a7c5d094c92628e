// --matmul and --ip (inner product).
//   --matmul --dt=S[:W:D] --stag --wtag --dtag --bia-dt --bia_mask  [B..x]MxK:[B..x]KxN[:[B..x]MxN]
//            (integer W with a floating-point S and --attr-fpmath=MODE:true:
//            weight decompression, the weights' --attr-scales / --attr-zero-points
//            with data types and groups, e.g. wei:per_ocic:f16:32x1)
//   --ip --dir=FWD_B|FWD_D|FWD_I|BWD_D|BWD_W|BWD_WB --dt --stag --wtag --dtag --bia-dt --mb
//        mbXicX_idXihXiwX_ocX
#include <cmath>

#include "drivers.hpp"
#include "api_version.hpp"
#include "reference/ip_ref.hpp"
#include "reference/matmul_ref.hpp"

namespace bd {
namespace {

// Drops a trailing n"name" from a descriptor.
std::string strip_name(const std::string &s) {
    auto n = s.find('n');
    return n == std::string::npos ? s : s.substr(0, n);
}

// Tolerance of a GEMM-like result: exact integer accumulation, plus the
// post-ops' own error.
ref::tolerance_t gemm_tolerance(dt_t ddt, double k, const attr_spec_t &as) {
    auto t = acc_tolerance(ddt, k);
    if (ref::is_integral((dnnl_data_type_t)ddt) && !(as.scales.empty() && as.post_ops.empty()))
        t.ulps = 1;
    for (const auto &po : as.post_ops)
        if (po.kind == post_ops_ref::post_op_t::eltwise) {
            t.rel = std::max(t.rel, 64 * std::ldexp(1.0, -23));
            t.abs = std::max(t.abs, 1e-5);
        }
    return t;
}

std::vector<float> quant_vec(const attr_rt_t &rt, int arg) {
    auto it = rt.scales.find(arg);
    return it == rt.scales.end() ? std::vector<float>() : it->second;
}

// ------------------------------------------------------------------ matmul

void run_matmul(const problem_t &p, res_t &res) {
    if (!defaults_only(p, res, {"runtime-dims-masks", "strides", "encoding"})) return;
    std::vector<dt_t> dts;
    if (!get_dts(res, p.get("dt"), 3, dts)) return;
    auto shapes = split(strip_name(p.desc), ':');
    dims_t sd, wd, dd;
    if (shapes.size() < 2 || !str2dims(shapes[0], sd) || !str2dims(shapes[1], wd)
            || sd.size() < 2 || sd.size() != wd.size())
        return res.fail("bad descriptor " + p.desc);
    const int nd = (int)sd.size();
    if (sd[nd - 1] != wd[nd - 2]) return res.fail("K of src and weights differ");
    dd = sd;
    for (int i = 0; i < nd - 2; ++i)
        dd[i] = std::max(sd[i], wd[i]);
    dd[nd - 1] = wd[nd - 1];
    if (shapes.size() > 2 && (!str2dims(shapes[2], dd) || (int)dd.size() != nd))
        return res.fail("bad dst dims in " + p.desc);
    auto tag_of = [&](const std::string &s, tag_t &t) {
        return get_tag(res, s == "ab" && nd != 2 ? "abx" : s, nd, t);
    };
    tag_t st, wt, dtg;
    if (!tag_of(p.get("stag"), st) || !tag_of(p.get("wtag"), wt) || !tag_of(p.get("dtag"), dtg))
        return;
    dt_t bdt;
    if (!get_dt(res, p.get("bia-dt"), bdt)) return;
    int64_t bmask;
    if (!parse_int(p.get("bia-mask"), bmask)) return res.skip("bad --bia_mask");

    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int arg, const std::string &pol) {
        if (pol == "common") return 0;
        if ((arg == DNNL_ARG_WEIGHTS || arg == DNNL_ARG_DST) && (pol == "per_oc"))
            return 1 << (nd - 1);
        if (arg == DNNL_ARG_WEIGHTS && pol == "per_dim_1" && nd == 2) return 2;
        if (arg == DNNL_ARG_WEIGHTS && pol == "per_ocic") return 3 << (nd - 2);
        return -1;
    };
    if (!prepare_attr(p, res, as, dd, mask_of, attr, true)) return;
    // Weight decompression: integer weights, floating-point source; the
    // weights' scales and zero points may then have groups, data types and
    // any mask (the reference dequantizes the weights first).
    auto is_int = [](dt_t t) {
        return t == dt_t::s8 || t == dt_t::u8 || t == (dt_t)dnnl_s4 || t == (dt_t)dnnl_u4;
    };
    const bool decompress = !is_int(dts[0]) && is_int(dts[1]);
    auto plain = [](const quant_spec_t &q, dt_t def) { return q.groups.empty() && q.dt == def; };
    for (const auto &q : as.zero_points) {
        if (decompress && q.arg == DNNL_ARG_WEIGHTS) continue;
        if (!plain(q, dt_t::s32) || (q.arg != DNNL_ARG_DST && q.mask != 0))
            return res.skip("per-channel or grouped src/weights zero points are not supported "
                            "by the driver");
    }
    for (const auto &q : as.scales) {
        if (decompress && q.arg == DNNL_ARG_WEIGHTS) continue;
        if (!plain(q, dt_t::f32) || (q.arg != DNNL_ARG_WEIGHTS && q.mask != 0))
            return res.skip("per-channel or grouped src/dst scales are not supported by the "
                            "driver");
    }

    dims_t bd_dims;
    if (bdt != dt_t::undef) {
        bd_dims = dd;
        for (int i = 0; i < nd; ++i)
            if (!(bmask & (1 << i))) bd_dims[i] = 1;
    }
    const dnnl::memory::desc smd(sd, dts[0], st), wmd(wd, dts[1], wt), dmd(dd, dts[2], dtg);
    dnnl::memory::desc bmd;
    if (bdt != dt_t::undef) {
        tag_t bt;
        str2tag("abx", nd, bt);
        bmd = dnnl::memory::desc(bd_dims, bdt, bt);
    }
    case_t c(p, res);
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            if (bdt != dt_t::undef) return dnnl::matmul::primitive_desc(c.eng, smd, wmd, bmd, dmd, attr);
            return dnnl::matmul::primitive_desc(c.eng, smd, wmd, dmd, attr);
        }))
        return;
    const int64_t K = sd[nd - 1];
    res.ops = 2.0 * nelems(dd) * K;
    std::vector<float> src = fill_data(nelems(sd), dts[0], 1);
    std::vector<float> wei = fill_data(nelems(wd), dts[1], 2);
    std::vector<float> bias;
    c.add(DNNL_ARG_SRC, c.pd.src_desc()).write(src);
    c.add(DNNL_ARG_WEIGHTS, c.pd.weights_desc()).write(wei);
    if (bdt != dt_t::undef) {
        bias = fill_data(nelems(bd_dims), bdt, 3);
        c.add(DNNL_ARG_BIAS, c.pd.weights_desc(1)).write(bias);
    }
    std::vector<float> old = fill_data(nelems(dd), dts[2], 4);
    c.add(DNNL_ARG_DST, c.pd.dst_desc()).write(old);
    attr_rt_t rt;
    setup_attr_args(c, as, {{DNNL_ARG_SRC, sd}, {DNNL_ARG_WEIGHTS, wd}}, dd, rt);
    if (!c.execute()) return;

    matmul_ref::problem_t mp;
    mp.src_dims = sd, mp.wei_dims = wd, mp.dst_dims = dd, mp.bias_dims = bd_dims;
    matmul_ref::quant_t q;
    q.src_scale = quant_vec(rt, DNNL_ARG_SRC);
    q.wei_scale = quant_vec(rt, DNNL_ARG_WEIGHTS);
    if (decompress) {
        // The logical weights: (q - zp) * scale at every position.
        std::vector<int64_t> pos(nd, 0);
        for (size_t i = 0; i < wei.size(); ++i) {
            int64_t r = (int64_t)i;
            for (int d = nd - 1; d >= 0; --d) {
                pos[d] = r % wd[d];
                r /= wd[d];
            }
            wei[i] = (float)((wei[i] - rt.zero_point(DNNL_ARG_WEIGHTS, wd, pos.data()))
                    * rt.scale(DNNL_ARG_WEIGHTS, wd, pos.data()));
        }
        q.wei_scale.clear();
        rt.zero_points.erase(DNNL_ARG_WEIGHTS);
    }
    q.dst_scale = quant_vec(rt, DNNL_ARG_DST);
    q.src_zp = (int32_t)rt.zero_point0(DNNL_ARG_SRC);
    q.wei_zp = (int32_t)rt.zero_point0(DNNL_ARG_WEIGHTS);
    if (rt.zero_points.count(DNNL_ARG_DST))
        q.dst_zp.assign(rt.zero_points[DNNL_ARG_DST].begin(), rt.zero_points[DNNL_ARG_DST].end());
    auto exp_v = matmul_ref::compute(mp, src, wei, bias, q, rt.post_ops, &old);
    c.check("dst", c[DNNL_ARG_DST].read(), exp_v, dts[2], gemm_tolerance(dts[2], (double)K, as));
}

// ------------------------------------------------------------------ ip

void run_ip(const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    std::vector<dt_t> dts;
    if (!get_dts(res, p.get("dt"), 3, dts)) return;
    sp_desc_t d;
    std::string why;
    if (!parse_sp_desc(p.desc, d, false, false, why)) return res.fail(why);
    int64_t mb;
    if (parse_int(p.get("mb"), mb) && mb > 0) d.mb = mb;
    if (!d.kv.count("oc")) return res.fail("ip needs oc");
    dims_t sd = {d.mb, d.ic}, wd = {d.oc, d.ic}, dd = {d.mb, d.oc}, bdims = {d.oc};
    for (auto v : d.in_sp())
        sd.push_back(v), wd.push_back(v);
    const int nd = (int)sd.size();
    tag_t st, wt, dtg;
    if (!get_tag(res, p.get("stag"), nd, st) || !get_tag(res, p.get("wtag"), nd, wt)
            || !get_tag(res, p.get("dtag"), 2, dtg))
        return;
    dt_t bdt;
    if (!get_dt(res, p.get("bia-dt"), bdt)) return;
    const bool with_bias = bdt != dt_t::undef || dir == dir_t::fwd_b || dir == dir_t::bwd_wb;
    if (bdt == dt_t::undef) bdt = dt_t::f32;
    const bool fwd = is_fwd(dir);

    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int arg, const std::string &pol) {
        if (pol == "common") return 0;
        if (arg == DNNL_ARG_WEIGHTS && (pol == "per_oc" || pol == "per_dim_0")) return 1;
        return -1;
    };
    if (!prepare_attr(p, res, as, dd, mask_of, attr)) return;
    if (!as.zero_points.empty()) return res.skip("inner product zero points are not supported");
    if (!fwd && !(as.empty() || (as.post_ops.empty() && as.scales.empty()
                                        && as.zero_points.empty())))
        return res.skip("attributes on backward are not supported by the driver");

    const dnnl::memory::desc smd(sd, dts[0], st), wmd(wd, dts[1], wt), dmd(dd, dts[2], dtg);
    const dnnl::memory::desc bmd(bdims, bdt, tag_t::a);
    case_t c(p, res);
    auto make_fwd = [&](dnnl::prop_kind prop, const dnnl::primitive_attr &a) {
        if (with_bias)
            return dnnl::inner_product_forward::primitive_desc(c.eng, prop, smd, wmd, bmd, dmd, a);
        return dnnl::inner_product_forward::primitive_desc(c.eng, prop, smd, wmd, dmd, a);
    };
    const int64_t K = nelems(sd) / d.mb;
    res.ops = 2.0 * d.mb * d.oc * K;
    std::vector<float> src = fill_data(nelems(sd), dts[0], 1);
    std::vector<float> wei = fill_data(nelems(wd), dts[1], 2);
    std::vector<float> bias = fill_data(d.oc, bdt, 3);
    if (fwd) {
        if (!c.create([&]() -> dnnl::primitive_desc_base {
                return make_fwd(fwd_prop(dir), attr);
            }))
            return;
        c.add(DNNL_ARG_SRC, c.pd.src_desc()).write(src);
        c.add(DNNL_ARG_WEIGHTS, c.pd.weights_desc()).write(wei);
        if (with_bias) c.add(DNNL_ARG_BIAS, c.pd.weights_desc(1)).write(bias);
        std::vector<float> old = fill_data(nelems(dd), dts[2], 4);
        c.add(DNNL_ARG_DST, c.pd.dst_desc()).write(old);
        attr_rt_t rt;
        setup_attr_args(c, as, {{DNNL_ARG_SRC, sd}, {DNNL_ARG_WEIGHTS, wd}}, dd, rt);
            if (!c.execute()) return;
        ip_ref::quant_t q;
        q.src_scale = quant_vec(rt, DNNL_ARG_SRC);
        q.wei_scale = quant_vec(rt, DNNL_ARG_WEIGHTS);
        q.dst_scale = quant_vec(rt, DNNL_ARG_DST);
        auto exp_v = ip_ref::fwd(d.mb, d.oc, K, src, wei, with_bias ? bias : std::vector<float>(),
                q, rt.post_ops, &old);
        c.check("dst", c[DNNL_ARG_DST].read(), exp_v, dts[2], gemm_tolerance(dts[2], (double)K, as));
        return;
    }
    std::vector<float> dd_v = fill_data(nelems(dd), dts[2], 5);
    if (dir == dir_t::bwd_d) {
        if (!c.create([&]() -> dnnl::primitive_desc_base {
                auto hint = make_fwd(dnnl::prop_kind::forward_training, dnnl::primitive_attr());
                return dnnl::inner_product_backward_data::primitive_desc(
                        c.eng, smd, wmd, dmd, hint, attr);
            }))
            return;
        c.add(DNNL_ARG_DIFF_DST, c.pd.diff_dst_desc()).write(dd_v);
        c.add(DNNL_ARG_WEIGHTS, c.pd.weights_desc()).write(wei);
        c.add(DNNL_ARG_DIFF_SRC, c.pd.diff_src_desc()).memset(0);
            if (!c.execute()) return;
        auto exp_v = ip_ref::bwd_data(d.mb, d.oc, K, dd_v, wei);
        c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), exp_v, dts[0],
                acc_tolerance(dts[0], (double)d.oc));
        return;
    }
    if (dir != dir_t::bwd_w && dir != dir_t::bwd_wb)
        return res.skip("--dir=" + p.get("dir") + " not supported");
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            auto hint = make_fwd(dnnl::prop_kind::forward_training, dnnl::primitive_attr());
            if (with_bias)
                return dnnl::inner_product_backward_weights::primitive_desc(
                        c.eng, smd, wmd, bmd, dmd, hint, attr);
            return dnnl::inner_product_backward_weights::primitive_desc(
                    c.eng, smd, wmd, dmd, hint, attr);
        }))
        return;
    c.add(DNNL_ARG_SRC, c.pd.src_desc()).write(src);
    c.add(DNNL_ARG_DIFF_DST, c.pd.diff_dst_desc()).write(dd_v);
    c.add(DNNL_ARG_DIFF_WEIGHTS, c.pd.diff_weights_desc()).memset(0);
    if (with_bias) c.add(DNNL_ARG_DIFF_BIAS, c.pd.diff_weights_desc(1)).memset(0);
    if (!c.execute()) return;
    std::vector<double> dw, db;
    ip_ref::bwd_weights(d.mb, d.oc, K, src, dd_v, dw, db);
    c.check("diff_weights", c[DNNL_ARG_DIFF_WEIGHTS].read(), dw, dts[1],
            acc_tolerance(dts[1], (double)d.mb));
    if (with_bias)
        c.check("diff_bias", c[DNNL_ARG_DIFF_BIAS].read(), db, bdt, acc_tolerance(bdt, (double)d.mb));
}

} // namespace

const driver_t matmul_driver = {"matmul",
        {{"dt", "f32"}, {"stag", "abx"}, {"wtag", "abx"}, {"dtag", "abx"}, {"bia-dt", "undef"},
                {"bia-mask", "2"}, {"runtime-dims-masks", "0"}, {"strides", ""},
                {"encoding", ""}},
        run_matmul};
const driver_t ip_driver = {"ip",
        {{"dir", "FWD_B"}, {"dt", "f32"}, {"stag", "any"}, {"wtag", "any"}, {"dtag", "any"},
                {"bia-dt", "undef"}, {"mb", "0"}},
        run_ip};

} // namespace bd
