// --conv and --deconv: forward (FWD_B with bias, FWD_D, FWD_I), backward by
// data (BWD_D) and by weights (BWD_W, BWD_WB).
//   --dir --dt=S[:W:D] (or --cfg) --stag --wtag --dtag --bia-dt --alg=DIRECT|WINO|AUTO --mb
//   gXmbX_icXidXihXiwX_ocXodXohXowX_kdXkhXkwX_sdXshXswX_pdXphXpwX_ddXdhXdwX_nS
#include <cmath>

#include "drivers.hpp"
#include "reference/conv_ref.hpp"

namespace bd {
namespace {

void run(bool deconv, const problem_t &p, res_t &res) {
    if (!defaults_only(p, res, {"strides"})) return;
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    std::vector<dt_t> dts;
    if (!get_dts(res, p.get("dt"), 3, dts)) return;
    const std::string a = lower(p.get("alg"));
    dnnl::algorithm alg;
    if (a == "direct") alg = deconv ? dnnl::algorithm::deconvolution_direct
                                    : dnnl::algorithm::convolution_direct;
    else if (a == "wino") alg = deconv ? dnnl::algorithm::deconvolution_winograd
                                       : dnnl::algorithm::convolution_winograd;
    else if (a == "auto" && !deconv) alg = dnnl::algorithm::convolution_auto;
    else return res.skip("unknown --alg=" + p.get("alg"));
    sp_desc_t d;
    std::string why;
    if (!parse_sp_desc(p.desc, d, true, deconv, why)) return res.fail(why);
    int64_t mb;
    if (parse_int(p.get("mb"), mb) && mb > 0) d.mb = mb;
    if (d.nsp < 1) return res.fail("convolution needs spatial dims");
    if (d.ic % d.g || d.oc % d.g) return res.fail("channels must divide into groups");
    dims_t sd = {d.mb, d.ic}, dd = {d.mb, d.oc}, wd;
    if (d.g > 1) wd = {d.g, d.oc / d.g, d.ic / d.g};
    else wd = {d.oc, d.ic};
    for (auto v : d.in_sp())
        sd.push_back(v);
    for (auto v : d.out_sp())
        dd.push_back(v);
    for (auto v : d.vec(d.k))
        wd.push_back(v);
    const int nd = (int)sd.size();
    tag_t st, wt, dtg;
    if (!get_tag(res, p.get("stag"), nd, st) || !get_tag(res, p.get("wtag"), (int)wd.size(), wt)
            || !get_tag(res, p.get("dtag"), nd, dtg))
        return;
    dt_t bdt;
    if (!get_dt(res, p.get("bia-dt"), bdt)) return;
    const bool with_bias = bdt != dt_t::undef || dir == dir_t::fwd_b || dir == dir_t::bwd_wb;
    if (bdt == dt_t::undef) bdt = dt_t::f32;
    const bool fwd = is_fwd(dir);
    if (dir == dir_t::bwd_dw) return res.skip("--dir=BWD_DW is not a convolution direction");

    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int arg, const std::string &pol) {
        if (pol == "common") return 0;
        if (arg == DNNL_ARG_WEIGHTS && (pol == "per_oc" || pol == "per_dim_0"))
            return d.g > 1 ? 3 : 1;
        if (arg == DNNL_ARG_DST && (pol == "per_oc" || pol == "per_dim_1")) return 2;
        return -1;
    };
    if (!prepare_attr(p, res, as, dd, mask_of, attr)) return;
    if (as.zero_point(DNNL_ARG_SRC) || as.zero_point(DNNL_ARG_WEIGHTS))
        return res.skip("src/weights zero points are not supported by the driver");
    if (!fwd && !(as.post_ops.empty() && as.scales.empty() && as.zero_points.empty()))
        return res.skip("attributes on backward are not supported by the driver");

    const dnnl::memory::desc smd(sd, dts[0], st), wmd(wd, dts[1], wt), dmd(dd, dts[2], dtg);
    const dnnl::memory::desc bmd({d.oc}, bdt, tag_t::a);
    const dims_t strides = d.vec(d.s), dil = d.vec(d.d), pl = d.vec(d.p), pr = d.vec(d.r);
    case_t c(p, res);
    auto &eng = c.eng;

    // Forward pd (also the hint of backward passes), typed per primitive.
    std::unique_ptr<dnnl::convolution_forward::primitive_desc> cf;
    std::unique_ptr<dnnl::deconvolution_forward::primitive_desc> df;
    auto make_fwd = [&](dnnl::prop_kind prop, const dnnl::primitive_attr &at) -> dnnl::primitive_desc_base {
        if (deconv) {
            df.reset(with_bias ? new dnnl::deconvolution_forward::primitive_desc(eng, prop, alg,
                                     smd, wmd, bmd, dmd, strides, dil, pl, pr, at)
                               : new dnnl::deconvolution_forward::primitive_desc(eng, prop, alg,
                                       smd, wmd, dmd, strides, dil, pl, pr, at));
            return *df;
        }
        cf.reset(with_bias ? new dnnl::convolution_forward::primitive_desc(eng, prop, alg, smd,
                                 wmd, bmd, dmd, strides, dil, pl, pr, at)
                           : new dnnl::convolution_forward::primitive_desc(eng, prop, alg, smd,
                                   wmd, dmd, strides, dil, pl, pr, at));
        return *cf;
    };

    conv_ref::prb_t r;
    r.mb = d.mb, r.g = d.g, r.ic = d.ic, r.oc = d.oc;
    for (int s = 0; s < 3; ++s) {
        r.i[s] = d.i[s], r.o[s] = d.o[s], r.k[s] = d.k[s], r.s[s] = d.s[s];
        r.d[s] = d.d[s], r.pl[s] = d.p[s];
    }
    // Multiply-adds: every (output point, kernel point, input channel of the group).
    const double macs = (double)d.mb * d.oc * (d.ic / d.g) * nelems(d.vec(d.k))
            * (double)(deconv ? nelems(d.in_sp()) : nelems(d.out_sp()));
    res.ops = 2 * macs;
    const double k_acc = (double)(d.ic / d.g) * nelems(d.vec(d.k));

    std::vector<float> src = fill_data(nelems(sd), dts[0], 1);
    std::vector<float> wei = fill_data(nelems(wd), dts[1], 2);
    std::vector<float> bias = fill_data(d.oc, bdt, 3);

    if (fwd) {
        if (!c.create([&]() { return make_fwd(fwd_prop(dir), attr); })) return;
        c.add(DNNL_ARG_SRC, c.pd.src_desc()).write(src);
        c.add(DNNL_ARG_WEIGHTS, c.pd.weights_desc()).write(wei);
        if (with_bias) c.add(DNNL_ARG_BIAS, c.pd.weights_desc(1)).write(bias);
        std::vector<float> old = fill_data(nelems(dd), dts[2], 4);
        c.add(DNNL_ARG_DST, c.pd.dst_desc()).write(old);
        attr_rt_t rt;
        setup_attr_args(c, as, {{DNNL_ARG_SRC, sd}, {DNNL_ARG_WEIGHTS, wd}}, dd, rt);
        if (!c.execute()) return;
        std::vector<double> v;
        if (deconv) conv_ref::deconv_fwd(r, to_double(src), to_double(wei), v);
        else conv_ref::conv_fwd(r, to_double(src), to_double(wei), v);
        conv_ref::quant_t q;
        q.src_scale = rt.scale0(DNNL_ARG_SRC);
        if (rt.scales.count(DNNL_ARG_WEIGHTS))
            q.wei_scale.assign(rt.scales[DNNL_ARG_WEIGHTS].begin(), rt.scales[DNNL_ARG_WEIGHTS].end());
        if (rt.scales.count(DNNL_ARG_DST))
            q.dst_scale.assign(rt.scales[DNNL_ARG_DST].begin(), rt.scales[DNNL_ARG_DST].end());
        if (rt.zero_points.count(DNNL_ARG_DST))
            q.dst_zp.assign(rt.zero_points[DNNL_ARG_DST].begin(), rt.zero_points[DNNL_ARG_DST].end());
        std::vector<conv_ref::post_op_t> po;
        for (const auto &e : rt.post_ops) {
            conv_ref::post_op_t x;
            x.alg = e.alg, x.alpha = e.alpha, x.beta = e.beta, x.zero_point = e.zero_point;
            x.scale = e.kind == post_ops_ref::post_op_t::sum ? e.scale : 1.0;
            switch (e.kind) {
                case post_ops_ref::post_op_t::sum: x.kind = conv_ref::post_op_t::sum; break;
                case post_ops_ref::post_op_t::eltwise: x.kind = conv_ref::post_op_t::eltwise; break;
                case post_ops_ref::post_op_t::binary: x.kind = conv_ref::post_op_t::binary; break;
                case post_ops_ref::post_op_t::prelu: x.kind = conv_ref::post_op_t::prelu; break;
            }
            for (size_t i = 0; i < e.operand_dims.size(); ++i)
                if (e.operand_dims[i] != 1 || dd[i] == 1) x.mask |= 1 << i;
            x.data = to_double(e.operand);
            po.push_back(x);
        }
        std::vector<double> bias_d = to_double(bias);
        conv_ref::finish(v, nd, dd.data(), q, with_bias ? &bias_d : nullptr, po, to_double(old));
        // Integer data: accumulation is exact; scales and post-ops may round.
        auto tol = acc_tolerance(dts[2], k_acc);
        if (ref::is_integral((dnnl_data_type_t)dts[2]) && !(as.scales.empty() && as.post_ops.empty()))
            tol.ulps = 1;
        for (const auto &e : as.post_ops)
            if (e.kind == post_ops_ref::post_op_t::eltwise) tol.abs = 1e-5, tol.rel = std::max(tol.rel, 1e-5);
        c.check("dst", c[DNNL_ARG_DST].read(), v, dts[2], tol);
        return;
    }

    std::vector<float> ddst = fill_data(nelems(dd), dts[2], 5);
    if (dir == dir_t::bwd_d) {
        if (!c.create([&]() -> dnnl::primitive_desc_base {
                make_fwd(dnnl::prop_kind::forward_training, dnnl::primitive_attr());
                if (deconv)
                    return dnnl::deconvolution_backward_data::primitive_desc(
                            eng, alg, smd, wmd, dmd, strides, dil, pl, pr, *df, attr);
                return dnnl::convolution_backward_data::primitive_desc(
                        eng, alg, smd, wmd, dmd, strides, dil, pl, pr, *cf, attr);
            }))
            return;
        c.add(DNNL_ARG_DIFF_DST, c.pd.diff_dst_desc()).write(ddst);
        c.add(DNNL_ARG_WEIGHTS, c.pd.weights_desc()).write(wei);
        c.add(DNNL_ARG_DIFF_SRC, c.pd.diff_src_desc()).memset(0);
        if (!c.execute()) return;
        std::vector<double> v;
        if (deconv) conv_ref::deconv_bwd_data(r, to_double(ddst), to_double(wei), v);
        else conv_ref::conv_bwd_data(r, to_double(ddst), to_double(wei), v);
        c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), v, dts[0],
                acc_tolerance(dts[0], (double)(d.oc / d.g) * nelems(d.vec(d.k))));
        return;
    }
    if (dir != dir_t::bwd_w && dir != dir_t::bwd_wb)
        return res.skip("--dir=" + p.get("dir") + " not supported");
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            make_fwd(dnnl::prop_kind::forward_training, dnnl::primitive_attr());
            if (deconv) {
                if (with_bias)
                    return dnnl::deconvolution_backward_weights::primitive_desc(
                            eng, alg, smd, wmd, bmd, dmd, strides, dil, pl, pr, *df, attr);
                return dnnl::deconvolution_backward_weights::primitive_desc(
                        eng, alg, smd, wmd, dmd, strides, dil, pl, pr, *df, attr);
            }
            if (with_bias)
                return dnnl::convolution_backward_weights::primitive_desc(
                        eng, alg, smd, wmd, bmd, dmd, strides, dil, pl, pr, *cf, attr);
            return dnnl::convolution_backward_weights::primitive_desc(
                    eng, alg, smd, wmd, dmd, strides, dil, pl, pr, *cf, attr);
        }))
        return;
    c.add(DNNL_ARG_SRC, c.pd.src_desc()).write(src);
    c.add(DNNL_ARG_DIFF_DST, c.pd.diff_dst_desc()).write(ddst);
    c.add(DNNL_ARG_DIFF_WEIGHTS, c.pd.diff_weights_desc()).memset(0);
    if (with_bias) c.add(DNNL_ARG_DIFF_BIAS, c.pd.diff_weights_desc(1)).memset(0);
    if (!c.execute()) return;
    std::vector<double> dw, db;
    if (deconv) conv_ref::deconv_bwd_weights(r, to_double(src), to_double(ddst), dw, &db);
    else conv_ref::conv_bwd_weights(r, to_double(src), to_double(ddst), dw, &db);
    const double terms = (double)d.mb * nelems(deconv ? d.in_sp() : d.out_sp());
    c.check("diff_weights", c[DNNL_ARG_DIFF_WEIGHTS].read(), dw, dts[1], acc_tolerance(dts[1], terms));
    if (with_bias)
        c.check("diff_bias", c[DNNL_ARG_DIFF_BIAS].read(), db, bdt, acc_tolerance(bdt, terms));
}

void run_conv(const problem_t &p, res_t &r) { run(false, p, r); }
void run_deconv(const problem_t &p, res_t &r) { run(true, p, r); }

const std::vector<knob_def_t> conv_knobs = {{"dir", "FWD_B"}, {"dt", "f32"}, {"stag", "any"},
        {"wtag", "any"}, {"dtag", "any"}, {"bia-dt", "undef"}, {"alg", "direct"}, {"mb", "0"},
        {"strides", ""}};

} // namespace

const driver_t conv_driver = {"conv", conv_knobs, run_conv};
const driver_t deconv_driver = {"deconv", conv_knobs, run_deconv};

} // namespace bd
