// Drivers of the data-movement and simple primitives:
//   --lrn        --dir --dt --tag --alg=ACROSS|WITHIN --mb  mbXicX_ihXiwX_lsXalphaYbetaYkY
//   --shuffle    --dir --dt --tag --axis --group  DIMS
//   --resampling --dir --sdt --ddt --tag --alg=nearest|linear --mb  mbXicX_ihXiwX_ohXowX
//   --prelu      --dir --sdt=S:W --stag=S:W  DIMS:WEI_DIMS
#include <cmath>

#include "drivers.hpp"
#include "reference/lrn_ref.hpp"
#include "reference/prelu_ref.hpp"
#include "reference/resampling_ref.hpp"
#include "reference/shuffle_ref.hpp"

namespace bd {
namespace {

dims_t sp_dims(const sp_desc_t &d, bool out) {
    dims_t v = {d.mb, d.ic};
    for (auto x : out ? d.out_sp() : d.in_sp())
        v.push_back(x);
    return v;
}

// ------------------------------------------------------------------ lrn

void run_lrn(const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    dt_t dt;
    if (!get_dt(res, p.get("dt"), dt)) return;
    const std::string a = lower(p.get("alg"));
    dnnl::algorithm alg;
    if (a == "across" || a == "lrn_across_channels") alg = dnnl::algorithm::lrn_across_channels;
    else if (a == "within" || a == "lrn_within_channel") alg = dnnl::algorithm::lrn_within_channel;
    else return res.skip("unknown --alg=" + p.get("alg"));
    sp_desc_t d;
    std::string why;
    if (!parse_sp_desc(p.desc, d, false, false, why)) return res.fail(why);
    int64_t mb;
    if (parse_int(p.get("mb"), mb) && mb > 0) d.mb = mb;
    lrn_ref::desc_t r;
    r.alg = (dnnl_alg_kind_t)alg;
    r.alpha = 1.0 / 8192, r.beta = 0.75, r.k = 1, r.size = 5;
    int64_t ls = 5;
    if (d.kv.count("ls") && !parse_int(d.kv["ls"], ls)) return res.fail("bad ls");
    r.size = ls;
    if ((d.kv.count("alpha") && !parse_float(d.kv["alpha"], r.alpha))
            || (d.kv.count("beta") && !parse_float(d.kv["beta"], r.beta))
            || (d.kv.count("k") && !parse_float(d.kv["k"], r.k)))
        return res.fail("bad lrn parameters");
    const dims_t dims = sp_dims(d, false);
    const int nd = (int)dims.size();
    tag_t tag;
    if (!get_tag(res, p.get("tag"), nd, tag)) return;
    if (!no_attr(p, res)) return;
    const bool fwd = is_fwd(dir);
    if (!fwd && dir != dir_t::bwd_d) return res.skip("--dir=" + p.get("dir") + " not supported");
    r.mb = d.mb, r.c = d.ic, r.nsp = d.nsp;
    for (int s = 0; s < d.nsp; ++s)
        r.sp[s] = d.i[3 - d.nsp + s];

    const dnnl::memory::desc md(dims, dt, tag);
    case_t c(p, res);
    auto make_fwd = [&](dnnl::prop_kind prop) {
        return dnnl::lrn_forward::primitive_desc(c.eng, prop, alg, md, md, r.size,
                (float)r.alpha, (float)r.beta, (float)r.k);
    };
    const int64_t n = nelems(dims);
    std::vector<float> src = fill_real(n, -4, 4, dt, 1);
    std::vector<double> exp_v((size_t)n);
    auto tol = float_tolerance(dt, 64);
    tol.abs = 1e-6;
    if (fwd) {
        if (!c.create([&]() -> dnnl::primitive_desc_base { return make_fwd(fwd_prop(dir)); })) return;
        c.add(DNNL_ARG_SRC, md).write(src);
        c.add(DNNL_ARG_DST, c.pd.dst_desc()).memset(0);
        auto ws = c.pd.workspace_desc();
        if (ws.get_size()) c.add(DNNL_ARG_WORKSPACE, ws);
        if (!c.execute()) return;
        lrn_ref::forward(r, src.data(), exp_v.data());
        c.check("dst", c[DNNL_ARG_DST].read(), exp_v, dt, tol);
        return;
    }
    std::unique_ptr<dnnl::lrn_forward::primitive_desc> hint;
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            hint.reset(new dnnl::lrn_forward::primitive_desc(
                    make_fwd(dnnl::prop_kind::forward_training)));
            return dnnl::lrn_backward::primitive_desc(c.eng, alg, md, md, md, r.size,
                    (float)r.alpha, (float)r.beta, (float)r.k, *hint);
        }))
        return;
    std::vector<float> dd = fill_real(n, -2, 2, dt, 2);
    c.add(DNNL_ARG_SRC, md).write(src);
    c.add(DNNL_ARG_DIFF_DST, md).write(dd);
    c.add(DNNL_ARG_DIFF_SRC, c.pd.diff_src_desc()).memset(0);
    auto ws_md = hint->workspace_desc();
    if (ws_md.get_size()) {
        // The workspace comes from a forward training pass.
        dnnl::lrn_forward fprim(*hint);
        tensor_t dst(hint->dst_desc(), c.eng);
        auto &ws = c.add(DNNL_ARG_WORKSPACE, ws_md);
        fprim.execute(c.strm, {{DNNL_ARG_SRC, c[DNNL_ARG_SRC].mem}, {DNNL_ARG_DST, dst.mem},
                                      {DNNL_ARG_WORKSPACE, ws.mem}});
        c.strm.wait();
    }
    if (!c.execute()) return;
    lrn_ref::backward(r, src.data(), dd.data(), exp_v.data());
    c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), exp_v, dt, tol);
}

// ------------------------------------------------------------------ shuffle

void run_shuffle(const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    dt_t dt;
    if (!get_dt(res, p.get("dt"), dt)) return;
    int64_t axis, group;
    if (!parse_int(p.get("axis"), axis) || !parse_int(p.get("group"), group))
        return res.skip("bad --axis/--group");
    dims_t dims;
    if (!str2dims(p.desc, dims)) return res.fail("bad descriptor " + p.desc);
    const int nd = (int)dims.size();
    if (axis < 0 || axis >= nd || group <= 0 || dims[axis] % group)
        return res.fail("group must divide the axis");
    tag_t tag;
    if (!get_tag(res, p.get("tag"), nd, tag)) return;
    if (!no_attr(p, res)) return;
    const bool fwd = is_fwd(dir);
    if (!fwd && dir != dir_t::bwd_d) return res.skip("--dir=" + p.get("dir") + " not supported");
    const dnnl::memory::desc md(dims, dt, tag);
    case_t c(p, res);
    auto make_fwd = [&](dnnl::prop_kind prop) {
        return dnnl::shuffle_forward::primitive_desc(c.eng, prop, md, md, (int)axis, group);
    };
    if (fwd) {
        if (!c.create([&]() -> dnnl::primitive_desc_base { return make_fwd(fwd_prop(dir)); })) return;
    } else if (!c.create([&]() -> dnnl::primitive_desc_base {
                   auto hint = make_fwd(dnnl::prop_kind::forward_training);
                   return dnnl::shuffle_backward::primitive_desc(c.eng, md, md, (int)axis, group, hint);
               })) {
        return;
    }
    const int64_t n = nelems(dims);
    std::vector<float> src = fill_data(n, dt, 1);
    for (int64_t i = 0; i < n; ++i) // distinct values where the type allows
        if (!ref::is_integral((dnnl_data_type_t)dt)) src[i] = (float)(i % 251 - 125);
    round_to(src, dt);
    c.add(fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_DST, md).write(src);
    c.add(fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC, md).memset(0);
    if (!c.execute()) return;
    // Backward applies the inverse permutation: a shuffle with C / group.
    std::vector<double> exp_v = shuffle_ref::compute(
            to_double(src), dims, (int)axis, fwd ? group : dims[axis] / group);
    c.check(fwd ? "dst" : "diff_src", c[fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_SRC].read(), exp_v, dt,
            ref::exact_tolerance((dnnl_data_type_t)dt));
}

// ------------------------------------------------------------------ resampling

void run_resampling(const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    dt_t sdt, ddt;
    if (!p.get("dt").empty()) {
        std::vector<dt_t> v;
        if (!get_dts(res, p.get("dt"), 2, v)) return;
        sdt = v[0], ddt = v[1];
    } else if (!get_dt(res, p.get("sdt"), sdt) || !get_dt(res, p.get("ddt"), ddt)) {
        return;
    }
    const std::string a = lower(p.get("alg"));
    dnnl::algorithm alg;
    if (a == "nearest" || a == "resampling_nearest") alg = dnnl::algorithm::resampling_nearest;
    else if (a == "linear" || a == "resampling_linear") alg = dnnl::algorithm::resampling_linear;
    else return res.skip("unknown --alg=" + p.get("alg"));
    sp_desc_t d;
    std::string why;
    if (!parse_sp_desc(p.desc, d, true, false, why)) return res.fail(why);
    int64_t mb;
    if (parse_int(p.get("mb"), mb) && mb > 0) d.mb = mb;
    if (d.nsp < 1) return res.fail("resampling needs spatial dims");
    const dims_t sdims = sp_dims(d, false), ddims = sp_dims(d, true);
    const int nd = (int)sdims.size();
    tag_t tag;
    if (!get_tag(res, p.get("tag"), nd, tag)) return;
    const bool fwd = is_fwd(dir);
    if (!fwd && dir != dir_t::bwd_d) return res.skip("--dir=" + p.get("dir") + " not supported");
    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int, const std::string &) { return -1; };
    if (!prepare_attr(p, res, as, ddims, mask_of, attr)) return;

    resampling_ref::desc_t r;
    r.alg = (dnnl_alg_kind_t)alg;
    r.mb = d.mb, r.c = d.ic, r.nsp = d.nsp;
    for (int s = 0; s < d.nsp; ++s)
        r.in[s] = d.i[3 - d.nsp + s], r.out[s] = d.o[3 - d.nsp + s];
    const dnnl::memory::desc smd(sdims, sdt, tag), dmd(ddims, ddt, tag);
    case_t c(p, res);
    auto make_fwd = [&](dnnl::prop_kind prop, const dnnl::primitive_attr &at) {
        return dnnl::resampling_forward::primitive_desc(c.eng, prop, alg, smd, dmd, at);
    };
    const int64_t ns = nelems(sdims), ndst = nelems(ddims);
    if (fwd) {
        if (!c.create([&]() -> dnnl::primitive_desc_base { return make_fwd(fwd_prop(dir), attr); }))
            return;
        std::vector<float> src = fill_data(ns, sdt, 1);
        std::vector<float> old = fill_data(ndst, ddt, 3);
        c.add(DNNL_ARG_SRC, smd).write(src);
        c.add(DNNL_ARG_DST, dmd).write(old);
        attr_rt_t rt;
        setup_attr_args(c, as, {}, ddims, rt);
        if (!c.execute()) return;
        std::vector<double> exp_v((size_t)ndst);
        resampling_ref::forward(r, src.data(), exp_v.data());
        post_ops_ref::apply(rt.post_ops, ddims, exp_v, &old);
        // Linear blends of up to 8 taps: absolute accuracy near zero.
        auto tol = float_tolerance(ddt, 32);
        tol.abs = 1e-6;
        c.check("dst", c[DNNL_ARG_DST].read(), exp_v, ddt, tol);
        return;
    }
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            auto hint = make_fwd(dnnl::prop_kind::forward_training, dnnl::primitive_attr());
            return dnnl::resampling_backward::primitive_desc(c.eng, alg, smd, dmd, hint, attr);
        }))
        return;
    std::vector<float> dd = fill_data(ndst, ddt, 2);
    c.add(DNNL_ARG_DIFF_DST, dmd).write(dd);
    c.add(DNNL_ARG_DIFF_SRC, smd).memset(0);
    if (!c.execute()) return;
    std::vector<double> exp_v((size_t)ns);
    resampling_ref::backward(r, dd.data(), exp_v.data());
    auto tol = float_tolerance(sdt, 32);
    tol.abs = 1e-6;
    c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), exp_v, sdt, tol);
}

// ------------------------------------------------------------------ prelu

void run_prelu(const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    std::vector<dt_t> dts;
    if (!get_dts(res, p.get("sdt"), 2, dts)) return;
    auto shapes = split(p.desc, ':');
    dims_t dims, wdims;
    if (shapes.size() != 2 || !str2dims(shapes[0], dims) || !str2dims(shapes[1], wdims)
            || wdims.size() > dims.size())
        return res.fail("bad descriptor " + p.desc);
    wdims.resize(dims.size(), 1);
    const int nd = (int)dims.size();
    auto tags = split(p.get("stag"), ':');
    if (tags.size() == 1) tags.push_back("any");
    tag_t stag, wtag;
    if (!get_tag(res, tags[0], nd, stag) || !get_tag(res, tags[1], nd, wtag)) return;
    if (!no_attr(p, res)) return;
    const bool fwd = is_fwd(dir);
    if (!fwd && dir != dir_t::bwd_dw && dir != dir_t::bwd_d)
        return res.skip("--dir=" + p.get("dir") + " not supported");
    const dnnl::memory::desc smd(dims, dts[0], stag), wmd(wdims, dts[1], wtag);
    case_t c(p, res);
    auto make_fwd = [&](dnnl::prop_kind prop) {
        return dnnl::prelu_forward::primitive_desc(c.eng, prop, smd, wmd, smd);
    };
    if (fwd) {
        if (!c.create([&]() -> dnnl::primitive_desc_base { return make_fwd(fwd_prop(dir)); })) return;
    } else if (!c.create([&]() -> dnnl::primitive_desc_base {
                   auto hint = make_fwd(dnnl::prop_kind::forward_training);
                   return dnnl::prelu_backward::primitive_desc(
                           c.eng, smd, wmd, smd, wmd, smd, hint);
               })) {
        return;
    }
    const int64_t n = nelems(dims), nw = nelems(wdims);
    std::vector<float> src = fill_data(n, dts[0], 1);
    std::vector<float> wei = fill_real(nw, -2, 2, dts[1], 2);
    if (ref::is_integral((dnnl_data_type_t)dts[1])) wei = fill_data(nw, dts[1], 2);
    c.add(DNNL_ARG_SRC, smd).write(src);
    c.add(DNNL_ARG_WEIGHTS, c.pd.weights_desc()).write(wei);
    std::vector<double> exp_v((size_t)n);
    if (fwd) {
        c.add(DNNL_ARG_DST, c.pd.dst_desc()).memset(0);
        if (!c.execute()) return;
        exp_v = prelu_ref::forward(to_double(src), dims, to_double(wei), wdims);
        c.check("dst", c[DNNL_ARG_DST].read(), exp_v, dts[0], float_tolerance(dts[0], 1));
        return;
    }
    std::vector<float> dd = fill_real(n, -2, 2, dts[0], 3);
    c.add(DNNL_ARG_DIFF_DST, c.pd.diff_dst_desc()).write(dd);
    c.add(DNNL_ARG_DIFF_SRC, c.pd.diff_src_desc()).memset(0);
    c.add(DNNL_ARG_DIFF_WEIGHTS, c.pd.diff_weights_desc()).memset(0);
    if (!c.execute()) return;
    std::vector<double> dw;
    prelu_ref::backward(to_double(src), dims, to_double(wei), wdims, to_double(dd), wdims, exp_v, dw);
    c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), exp_v, dts[0], float_tolerance(dts[0], 1));
    auto wt = float_tolerance(dts[1], 64);
    wt.abs = 1e-6 * (double)(n / nw);
    c.check("diff_weights", c[DNNL_ARG_DIFF_WEIGHTS].read(), dw, dts[1], wt);
}

} // namespace

const driver_t lrn_driver = {"lrn",
        {{"dir", "FWD_D"}, {"dt", "f32"}, {"tag", "abx"}, {"alg", "ACROSS"}, {"mb", "0"}},
        run_lrn};
const driver_t shuffle_driver = {"shuffle",
        {{"dir", "FWD_D"}, {"dt", "f32"}, {"tag", "abx"}, {"axis", "1"}, {"group", "1"}},
        run_shuffle};
const driver_t resampling_driver = {"resampling",
        {{"dir", "FWD_D"}, {"sdt", "f32"}, {"ddt", "f32"}, {"dt", ""}, {"tag", "abx"},
                {"alg", "nearest"}, {"mb", "0"}},
        run_resampling};
const driver_t prelu_driver = {"prelu",
        {{"dir", "FWD_D"}, {"sdt", "f32:f32"}, {"stag", "abx:any"}}, run_prelu};

} // namespace bd
