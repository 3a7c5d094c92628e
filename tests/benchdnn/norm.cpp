// --lnorm, --bnorm, --gnorm: layer, batch and group normalization, forward
// (FWD_D, FWD_I) and backward (BWD_D, BWD_DW).
//   --lnorm --dir --dt=SRC[:DST] --tag --stat_tag --ss_dt --flags=[G][C][H][M] --inplace  TxNxC
//   --bnorm --dir --dt --tag --flags=[G][C][H][R][A] --mb --inplace  mbXicX_idXihXiwX_epsY
//   --gnorm --dir --dt --tag --flags=[G][C][H] --mb --inplace  gXmbXicX_idXihXiwX_epsY
#include <cmath>

#include "api_compat.hpp"
#include "drivers.hpp"
#include "reference/bnorm_ref.hpp"
#include "reference/gnorm_ref.hpp"
#include "reference/lnorm_ref.hpp"

namespace bd {
namespace {

enum class kind_t { lnorm, bnorm, gnorm };

struct flags_t {
    bool G = false, C = false, H = false, R = false, A = false, M = false;
};

bool parse_flags(const std::string &s, flags_t &f) {
    for (char ch : s) {
        switch (ch) {
            case 'G': f.G = true; break;
            case 'C': f.C = true; break;
            case 'H': f.H = true; break;
            case 'S': f.C = f.H = true; break; // old "scale and shift"
            case 'R': f.R = true; break;
            case 'A': f.A = true; break;
            case 'M': f.M = true; break;
            default: return false;
        }
    }
    return true;
}

// False (with the reason) when the API lacks a flag.
bool to_dnnl(const flags_t &f, dnnl::normalization_flags &r, std::string &why) {
    using nf = dnnl::normalization_flags;
    r = nf::none;
    if (f.G) r = r | nf::use_global_stats;
    if (f.C) r = r | nf::use_scale;
    if (f.H) r = r | nf::use_shift;
    if (f.R) r = r | nf::fuse_norm_relu;
    if (f.A) r = r | nf::fuse_norm_add_relu;
    if (f.M) {
        nf rms;
        if (!rms_norm_flag(rms, why)) return false;
        r = r | rms;
    }
    return true;
}

void run(kind_t kind, const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    std::vector<dt_t> dts;
    if (!get_dts(res, p.get("dt"), 2, dts)) return;
    flags_t fl;
    if (!parse_flags(p.get("flags"), fl)) return res.skip("bad --flags=" + p.get("flags"));
    dnnl::normalization_flags nflags;
    std::string why;
    if (!to_dnnl(fl, nflags, why)) return res.skip(why);
    if (kind == kind_t::gnorm && !has_group_normalization(why)) return res.skip(why);
    bool inplace;
    if (!parse_bool(p.get("inplace"), inplace)) return res.skip("bad --inplace");
    if (inplace && dts[0] != dts[1]) return res.skip("in-place needs equal data types");

    dims_t dims, stat_dims;
    double eps = 1.0 / 16;
    int64_t groups = 1;
    if (kind == kind_t::lnorm) {
        if (!str2dims(p.desc, dims)) return res.fail("bad descriptor " + p.desc);
        stat_dims.assign(dims.begin(), dims.end() - 1);
        if (stat_dims.empty()) return res.fail("lnorm needs at least 2 dims");
    } else {
        sp_desc_t d;
        if (!parse_sp_desc(p.desc, d, false, false, why)) return res.fail(why);
        int64_t mb;
        if (parse_int(p.get("mb"), mb) && mb > 0) d.mb = mb;
        if (d.kv.count("eps") && !parse_float(d.kv["eps"], eps)) return res.fail("bad eps");
        dims = {d.mb, d.ic};
        for (auto v : d.in_sp())
            dims.push_back(v);
        if (kind == kind_t::bnorm) {
            stat_dims = {d.ic};
        } else {
            groups = d.g;
            if (groups < 1 || d.ic % groups) return res.fail("ic must divide into groups");
            stat_dims = {d.mb, groups};
        }
    }
    const int nd = (int)dims.size();
    auto tags = split(p.get("tag"), ':');
    tag_t stag, dtag, stat_tag = tag_t::any;
    if (!get_tag(res, tags[0], nd, stag)) return;
    if (!get_tag(res, tags.size() > 1 ? tags[1] : (kind == kind_t::lnorm ? "any" : tags[0]),
                nd, dtag))
        return;
    if (dtag == tag_t::any) dtag = stag;
    if (kind == kind_t::lnorm && !get_tag(res, p.get("stat-tag"), nd - 1, stat_tag)) return;
    if (stat_tag == tag_t::any) str2tag("abx", (int)stat_dims.size(), stat_tag);
    if (kind == kind_t::lnorm && p.get("ss-dt") != "f32")
        return res.skip("--ss_dt other than f32 is not supported by the driver");
    const bool fwd = is_fwd(dir);
    if (!fwd && dir != dir_t::bwd_d && dir != dir_t::bwd_dw)
        return res.skip("--dir=" + p.get("dir") + " not supported");
    if (!fwd && (fl.R || fl.A)) return res.skip("backward with fused relu is not supported");

    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int, const std::string &pol) { return pol == "common" ? 0 : -1; };
    if (!prepare_attr(p, res, as, dims, mask_of, attr)) return;

    const dnnl::memory::desc smd(dims, dts[0], stag), dmd(dims, dts[1], dtag);
    const dnnl::memory::desc stat_md(stat_dims, dt_t::f32, stat_tag);
    case_t c(p, res);
    auto &eng = c.eng;
    auto fwd_attr = fwd ? attr : dnnl::primitive_attr();
    auto fprop = fwd ? fwd_prop(dir) : dnnl::prop_kind::forward_training;
    auto make_fwd = [&]() -> dnnl::primitive_desc_base {
        switch (kind) {
            case kind_t::lnorm:
                return dnnl::layer_normalization_forward::primitive_desc(
                        eng, fprop, smd, dmd, stat_md, (float)eps, nflags, fwd_attr);
            case kind_t::bnorm:
                return dnnl::batch_normalization_forward::primitive_desc(
                        eng, fprop, smd, dmd, (float)eps, nflags, fwd_attr);
            default:
                return gnorm_fwd_pd(eng, fprop, smd, dmd, groups, (float)eps, nflags, fwd_attr);
        }
    };
    const auto bprop = dir == dir_t::bwd_dw ? dnnl::prop_kind::backward
                                            : dnnl::prop_kind::backward_data;
    auto make_bwd = [&]() -> dnnl::primitive_desc_base {
        switch (kind) {
            case kind_t::lnorm: {
                dnnl::layer_normalization_forward::primitive_desc h(
                        eng, fprop, smd, dmd, stat_md, (float)eps, nflags, fwd_attr);
                return dnnl::layer_normalization_backward::primitive_desc(eng, bprop, smd, dmd,
                        smd, stat_md, (float)eps, nflags, h, attr);
            }
            case kind_t::bnorm: {
                dnnl::batch_normalization_forward::primitive_desc h(
                        eng, fprop, smd, dmd, (float)eps, nflags, fwd_attr);
                return dnnl::batch_normalization_backward::primitive_desc(
                        eng, bprop, smd, dmd, smd, (float)eps, nflags, h, attr);
            }
            default:
                return gnorm_bwd_pd(eng, bprop, smd, dmd, smd, groups, (float)eps, nflags,
                        fprop, fwd_attr, attr);
        }
    };
    if (!(fwd ? c.create(make_fwd) : c.create(make_bwd))) return;

    // Geometry for the references.
    const int64_t n = nelems(dims), nstat = nelems(stat_dims);
    const int64_t C = kind == kind_t::lnorm ? dims.back() : dims[1];
    int64_t sp = 1;
    for (int i = 2; i < nd; ++i)
        sp *= dims[i];
    lnorm_ref::desc_t ld;
    ld.rows = nstat, ld.c = C, ld.eps = eps, ld.global_stats = fl.G, ld.scale = fl.C;
    ld.shift = fl.H, ld.rms = fl.M;
    bnorm_ref::desc_t bd_;
    bd_.mb = dims[0], bd_.c = C, bd_.sp = sp, bd_.eps = eps, bd_.global_stats = fl.G;
    bd_.scale = fl.C, bd_.shift = fl.H, bd_.relu = fl.R, bd_.add_relu = fl.A;
    gnorm_ref::desc_t gd;
    gd.mb = dims[0], gd.c = C, gd.sp = sp, gd.groups = groups, gd.eps = eps;
    gd.global_stats = fl.G, gd.scale = fl.C, gd.shift = fl.H;

    std::vector<float> src = fill_data(n, dts[0], 1);
    std::vector<float> scale = fill_real(C, 0.25, 2, dt_t::bf16, 4);
    std::vector<float> shift = fill_int(C, -2, 2, 5);
    std::vector<float> mean_in = fill_int(nstat, -1, 1, 6), var_in = fill_int(nstat, 1, 4, 7);
    if (fl.M) std::fill(mean_in.begin(), mean_in.end(), 0.f);
    const dims_t cdims = {C};
    const int64_t group_size = n / nstat; // elements sharing one mean/variance

    auto ref_fwd = [&](const float *s, const float *s1, const float *mi, const float *vi,
                           double *dst, double *mo, double *vo) {
        switch (kind) {
            case kind_t::lnorm:
                lnorm_ref::forward(ld, s, scale.data(), shift.data(), mi, vi, dst, mo, vo);
                break;
            case kind_t::bnorm:
                bnorm_ref::forward(bd_, s, s1, scale.data(), shift.data(), mi, vi, dst, mo, vo);
                break;
            case kind_t::gnorm:
                gnorm_ref::forward(gd, s, scale.data(), shift.data(), mi, vi, dst, mo, vo);
                break;
        }
    };

    if (fwd) {
        c.add(DNNL_ARG_SRC, smd).write(src);
        if (inplace)
            c.add_alias(DNNL_ARG_DST, DNNL_ARG_SRC, smd);
        else
            c.add(DNNL_ARG_DST, dmd).memset(0);
        if (fl.C) c.add(DNNL_ARG_SCALE, dnnl::memory::desc(cdims, dt_t::f32, tag_t::a)).write(scale);
        if (fl.H) c.add(DNNL_ARG_SHIFT, dnnl::memory::desc(cdims, dt_t::f32, tag_t::a)).write(shift);
        std::vector<float> src1;
        if (fl.A) {
            src1 = fill_data(n, dts[0], 8);
            c.add(DNNL_ARG_SRC_1, smd).write(src1);
        }
        const bool stats_out = !fl.G && dir != dir_t::fwd_i;
        if (fl.G) {
            c.add(DNNL_ARG_MEAN, stat_md).write(mean_in);
            c.add(DNNL_ARG_VARIANCE, stat_md).write(var_in);
        } else if (stats_out) {
            c.add(DNNL_ARG_MEAN, stat_md).memset(0);
            c.add(DNNL_ARG_VARIANCE, stat_md).memset(0);
        }
        auto ws = c.pd.workspace_desc();
        if (ws.get_size()) c.add(DNNL_ARG_WORKSPACE, ws);
        attr_rt_t rt;
        setup_attr_args(c, as, {}, dims, rt);
        if (!c.execute()) return;
        std::vector<double> dst((size_t)n), mean((size_t)nstat), var((size_t)nstat);
        ref_fwd(src.data(), src1.empty() ? nullptr : src1.data(), mean_in.data(),
                var_in.data(), dst.data(), mean.data(), var.data());
        // src scale, post-ops, then dst scale (oneDNN's order).
        for (auto &v : dst)
            v *= rt.scale0(DNNL_ARG_SRC);
        post_ops_ref::apply(rt.post_ops, dims, dst, nullptr);
        for (auto &v : dst)
            v /= rt.scale0(DNNL_ARG_DST);
        // Statistics are sums over a group: allow the error bound of a naive
        // f32 summation (n * eps relative), at least 64 f32 ULPs.
        const double eps32 = std::ldexp(1.0, -24);
        auto tol = float_tolerance(dts[1], 64);
        // |src| <= 5 and |scale| <= 2: the mean's summation error, scaled.
        tol.abs = std::max(1e-5, 4 * (double)group_size * eps32);
        tol.rel = std::max(tol.rel, 0.5 * (double)group_size * eps32);
        c.check("dst", c[DNNL_ARG_DST].read(), dst, dts[1], tol);
        if (stats_out) {
            auto st = float_tolerance(dt_t::f32, 64);
            st.abs = 1e-6;
            st.rel = (double)group_size * eps32;
            c.check("mean", c[DNNL_ARG_MEAN].read(), mean, dt_t::f32, st);
            c.check("var", c[DNNL_ARG_VARIANCE].read(), var, dt_t::f32, st);
        }
        return;
    }

    // Backward: statistics of a forward pass over src, rounded to f32.
    std::vector<double> fdst((size_t)n), mean_d((size_t)nstat), var_d((size_t)nstat);
    ref_fwd(src.data(), nullptr, mean_in.data(), var_in.data(), fdst.data(), mean_d.data(),
            var_d.data());
    std::vector<float> mean(mean_d.begin(), mean_d.end()), var(var_d.begin(), var_d.end());
    if (fl.G) mean = mean_in, var = var_in;
    std::vector<float> dd = fill_real(n, -2, 2, dts[1], 2);
    c.add(DNNL_ARG_SRC, smd).write(src);
    c.add(DNNL_ARG_MEAN, stat_md).write(mean);
    c.add(DNNL_ARG_VARIANCE, stat_md).write(var);
    c.add(DNNL_ARG_DIFF_DST, dmd).write(dd);
    if (inplace)
        c.add_alias(DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_DST, dmd);
    else
        c.add(DNNL_ARG_DIFF_SRC, smd).memset(0);
    const dnnl::memory::desc cmd(cdims, dt_t::f32, tag_t::a);
    if (fl.C) c.add(DNNL_ARG_SCALE, cmd).write(scale);
    if (kind == kind_t::lnorm && fl.H && lnorm_bwd_takes_shift())
        c.add(DNNL_ARG_SHIFT, cmd).write(shift);
    const bool dw = dir == dir_t::bwd_dw;
    // Some libraries also produce diff_scale/diff_shift for BWD_D.
    if (fl.C && (dw || c.expects(DNNL_ARG_DIFF_SCALE))) c.add(DNNL_ARG_DIFF_SCALE, cmd).memset(0);
    if (fl.H && (dw || c.expects(DNNL_ARG_DIFF_SHIFT))) c.add(DNNL_ARG_DIFF_SHIFT, cmd).memset(0);
    if (!c.execute()) return;
    std::vector<double> dsrc((size_t)n), dscale((size_t)C), dshift((size_t)C);
    switch (kind) {
        case kind_t::lnorm:
            lnorm_ref::backward(ld, src.data(), mean.data(), var.data(), dd.data(), scale.data(),
                    dsrc.data(), dscale.data(), dshift.data());
            break;
        case kind_t::bnorm:
            bnorm_ref::backward(bd_, src.data(), mean.data(), var.data(), dd.data(),
                    scale.data(), dsrc.data(), dscale.data(), dshift.data());
            break;
        case kind_t::gnorm:
            gnorm_ref::backward(gd, src.data(), mean.data(), var.data(), dd.data(), scale.data(),
                    dsrc.data(), dscale.data(), dshift.data());
            break;
    }
    auto tol = float_tolerance(dts[0], 64);
    tol.abs = std::max(1e-5, 4 * (double)group_size * std::ldexp(1.0, -24));
    tol.rel = std::max(tol.rel, (double)group_size * std::ldexp(1.0, -24));
    c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), dsrc, dts[0], tol);
    auto wt = float_tolerance(dt_t::f32, 64);
    wt.abs = 1e-6 * (double)(n / C);
    if (fl.C && dw) c.check("diff_scale", c[DNNL_ARG_DIFF_SCALE].read(), dscale, dt_t::f32, wt);
    if (fl.H && dw) c.check("diff_shift", c[DNNL_ARG_DIFF_SHIFT].read(), dshift, dt_t::f32, wt);
}

void run_lnorm(const problem_t &p, res_t &r) { run(kind_t::lnorm, p, r); }
void run_bnorm(const problem_t &p, res_t &r) { run(kind_t::bnorm, p, r); }
void run_gnorm(const problem_t &p, res_t &r) { run(kind_t::gnorm, p, r); }

} // namespace

const driver_t lnorm_driver = {"lnorm",
        {{"dir", "FWD_D"}, {"dt", "f32"}, {"tag", "abx"}, {"stat-tag", "any"}, {"ss-dt", "f32"},
                {"flags", ""}, {"inplace", "false"}},
        run_lnorm};
const driver_t bnorm_driver = {"bnorm",
        {{"dir", "FWD_D"}, {"dt", "f32"}, {"tag", "abx"}, {"flags", ""}, {"mb", "0"},
                {"inplace", "false"}},
        run_bnorm};
const driver_t gnorm_driver = {"gnorm",
        {{"dir", "FWD_D"}, {"dt", "f32"}, {"tag", "abx"}, {"flags", ""}, {"mb", "0"},
                {"inplace", "false"}},
        run_gnorm};

} // namespace bd
