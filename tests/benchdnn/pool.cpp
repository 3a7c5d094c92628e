// --pool: max and average pooling, forward and backward.
//   --dir --dt=SRC[:DST] --tag --alg=max|avg_np|avg_p --mb
//   mbXicX_idXihXiwX_odXohXowX_kdXkhXkwX_sdXshXswX_pdXphXpwX_ddXdhXdwX
#include "drivers.hpp"
#include "reference/pool_ref.hpp"

namespace bd {
namespace {

bool str2alg(const std::string &s, dnnl::algorithm &alg) {
    const std::string a = lower(s);
    if (a == "max" || a == "pooling_max") return alg = dnnl::algorithm::pooling_max, true;
    if (a == "avg_np" || a == "pooling_avg_exclude_padding" || a == "pooling_avg")
        return alg = dnnl::algorithm::pooling_avg_exclude_padding, true;
    if (a == "avg_p" || a == "pooling_avg_include_padding")
        return alg = dnnl::algorithm::pooling_avg_include_padding, true;
    return false;
}

void run(const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    std::vector<dt_t> dts;
    if (!get_dts(res, p.get("dt"), 2, dts)) return;
    dnnl::algorithm alg;
    if (!str2alg(p.get("alg"), alg)) return res.skip("unknown --alg=" + p.get("alg"));
    sp_desc_t d;
    std::string why;
    if (!parse_sp_desc(p.desc, d, true, false, why)) return res.fail(why);
    int64_t mb;
    if (parse_int(p.get("mb"), mb) && mb > 0) d.mb = mb;
    if (d.nsp < 1) return res.fail("pooling needs spatial dims");
    dims_t sdims = {d.mb, d.ic}, ddims = {d.mb, d.ic};
    for (auto v : d.in_sp())
        sdims.push_back(v);
    for (auto v : d.out_sp())
        ddims.push_back(v);
    const int nd = (int)sdims.size();
    tag_t tag;
    if (!get_tag(res, p.get("tag"), nd, tag)) return;
    const bool fwd = is_fwd(dir);
    if (!fwd && dir != dir_t::bwd_d) return res.skip("--dir=" + p.get("dir") + " not supported");

    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int, const std::string &) { return -1; };
    if (!prepare_attr(p, res, as, ddims, mask_of, attr)) return;

    const dnnl::memory::desc smd(sdims, dts[0], tag), dmd(ddims, dts[1], tag);
    const dims_t strides = d.vec(d.s), kernel = d.vec(d.k), dil = d.vec(d.d),
                 pl = d.vec(d.p), pr = d.vec(d.r);
    case_t c(p, res);
    auto make_fwd = [&](dnnl::prop_kind prop, const dnnl::primitive_attr &a) {
        return dnnl::pooling_forward::primitive_desc(
                c.eng, prop, alg, smd, dmd, strides, kernel, dil, pl, pr, a);
    };

    pool_ref::desc_t r;
    r.alg = (dnnl_alg_kind_t)alg;
    r.mb = d.mb;
    r.c = d.ic;
    r.nsp = d.nsp;
    for (int s = 0; s < d.nsp; ++s) {
        const int k = 3 - d.nsp + s;
        r.in[s] = d.i[k], r.out[s] = d.o[k], r.k[s] = d.k[k], r.stride[s] = d.s[k];
        r.pad[s] = d.p[k], r.dil[s] = d.d[k];
    }
    // Max pooling: distinct-ish real values (no ties between neighbours);
    // average: integers.
    const bool is_max = alg == dnnl::algorithm::pooling_max;
    const int64_t ns = nelems(sdims), ndst = nelems(ddims);
    std::vector<float> src = is_max && !ref::is_integral((dnnl_data_type_t)dts[0])
            ? fill_real(ns, -64, 64, dts[0], 1)
            : fill_data(ns, dts[0], 1);

    if (fwd) {
        if (!c.create([&]() -> dnnl::primitive_desc_base { return make_fwd(fwd_prop(dir), attr); }))
            return;
        c.add(DNNL_ARG_SRC, smd).write(src);
        std::vector<float> old = fill_data(ndst, dts[1], 3);
        c.add(DNNL_ARG_DST, c.pd.dst_desc()).write(old);
        auto ws = c.pd.workspace_desc();
        if (ws.get_size()) c.add(DNNL_ARG_WORKSPACE, ws);
        attr_rt_t rt;
        setup_attr_args(c, as, {}, ddims, rt);
        if (!c.execute()) return;
        std::vector<double> exp_v((size_t)ndst);
        pool_ref::forward(r, src.data(), exp_v.data());
        post_ops_ref::apply(rt.post_ops, ddims, exp_v, &old);
        c.check("dst", c[DNNL_ARG_DST].read(), exp_v, dts[1],
                is_max ? ref::exact_tolerance((dnnl_data_type_t)dts[1]) : float_tolerance(dts[1], 4));
        return;
    }
    // Backward: max pooling needs the workspace of a forward pass.
    std::unique_ptr<dnnl::pooling_forward::primitive_desc> hint;
    if (!c.create([&]() -> dnnl::primitive_desc_base {
            hint.reset(new dnnl::pooling_forward::primitive_desc(
                    make_fwd(dnnl::prop_kind::forward_training, dnnl::primitive_attr())));
            return dnnl::pooling_backward::primitive_desc(
                    c.eng, alg, smd, dmd, strides, kernel, dil, pl, pr, *hint, attr);
        }))
        return;
    std::vector<float> dd = fill_data(ndst, dts[1], 2);
    c.add(DNNL_ARG_DIFF_DST, dmd).write(dd);
    c.add(DNNL_ARG_DIFF_SRC, c.pd.diff_src_desc()).memset(0);
    if (is_max) {
        dnnl::pooling_forward fwd_prim(*hint);
        tensor_t s_t(hint->src_desc(), c.eng), d_t(hint->dst_desc(), c.eng);
        s_t.write(src);
        auto &ws = c.add(DNNL_ARG_WORKSPACE, hint->workspace_desc());
        fwd_prim.execute(c.strm, {{DNNL_ARG_SRC, s_t.mem}, {DNNL_ARG_DST, d_t.mem},
                                         {DNNL_ARG_WORKSPACE, ws.mem}});
        c.strm.wait();
    }
    if (!c.execute()) return;
    std::vector<double> exp_v((size_t)ns);
    pool_ref::backward(r, src.data(), dd.data(), exp_v.data());
    // Sums of a few terms of size ~1 with cancellation: absolute accuracy.
    // Low precision types may accumulate in their own precision.
    auto tol = float_tolerance(dts[0], 4);
    tol.abs = dts[0] == dt_t::f32 ? 1e-6 : 2 * ref::ulp(2.0, (dnnl_data_type_t)dts[0]);
    if (dts[0] != dt_t::f32) tol.ulps = 4;
    c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), exp_v, dts[0], tol);
}

} // namespace

const driver_t pool_driver = {"pool",
        {{"dir", "FWD_D"}, {"dt", "f32"}, {"tag", "abx"}, {"alg", "max"}, {"mb", "0"}},
        run};

} // namespace bd
