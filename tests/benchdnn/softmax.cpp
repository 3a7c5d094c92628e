// --softmax: softmax and logsoftmax, forward and backward.
//   --dir --sdt --ddt (or --dt) --stag --dtag (or --tag) --alg=SOFTMAX|LOGSOFTMAX
//   --axis --mb --inplace  DIMS
#include <cmath>

#include "drivers.hpp"
#include "reference/softmax_ref.hpp"

namespace bd {
namespace {

void run(const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    dt_t sdt, ddt;
    const std::string dt_knob = p.get("dt");
    if (!dt_knob.empty()) {
        std::vector<dt_t> v;
        if (!get_dts(res, dt_knob, 2, v)) return;
        sdt = v[0], ddt = v[1];
    } else if (!get_dt(res, p.get("sdt"), sdt) || !get_dt(res, p.get("ddt"), ddt)) {
        return;
    }
    const std::string a = lower(p.get("alg"));
    bool log_sm;
    if (a == "softmax" || a == "softmax_accurate") log_sm = false;
    else if (a == "logsoftmax" || a == "softmax_log") log_sm = true;
    else return res.skip("unknown --alg=" + p.get("alg"));
    int64_t axis, mb;
    bool inplace;
    if (!parse_int(p.get("axis"), axis) || !parse_bool(p.get("inplace"), inplace))
        return res.skip("bad --axis/--inplace");
    dims_t dims;
    if (!str2dims(p.desc, dims)) return res.fail("bad descriptor " + p.desc);
    if (parse_int(p.get("mb"), mb) && mb > 0) dims[0] = mb;
    const int nd = (int)dims.size();
    if (axis < 0 || axis >= nd) return res.skip("axis out of range");
    std::string st = p.get("stag"), dtg = p.get("dtag");
    if (!p.get("tag").empty()) st = dtg = p.get("tag");
    tag_t stag, dtag;
    if (!get_tag(res, st, nd, stag) || !get_tag(res, dtg, nd, dtag)) return;
    const bool fwd = is_fwd(dir);
    if (!fwd && dir != dir_t::bwd_d) return res.skip("--dir=" + p.get("dir") + " not supported");
    if (inplace && (sdt != ddt || (dtag != stag && dtag != tag_t::any)))
        return res.skip("in-place needs equal src and dst");
    if (inplace || (!fwd && dtag == tag_t::any)) dtag = stag;

    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int, const std::string &pol) { return pol == "common" ? 0 : -1; };
    if (!prepare_attr(p, res, as, dims, mask_of, attr)) return;

    const auto alg = log_sm ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate;
    const dnnl::memory::desc smd(dims, sdt, stag), dmd(dims, ddt, dtag);
    case_t c(p, res);
    auto make_fwd = [&]() {
        return dnnl::softmax_forward::primitive_desc(c.eng,
                fwd ? fwd_prop(dir) : dnnl::prop_kind::forward_training, alg, smd, dmd,
                (int)axis, fwd ? attr : dnnl::primitive_attr());
    };
    const int64_t n = nelems(dims);
    std::vector<double> exp_v((size_t)n);
    if (fwd) {
        if (!c.create([&]() -> dnnl::primitive_desc_base { return make_fwd(); })) return;
        std::vector<float> src = fill_real(n, -8, 8, sdt, 1);
        if (ref::is_integral((dnnl_data_type_t)sdt)) src = fill_data(n, sdt, 1);
        c.add(DNNL_ARG_SRC, smd).write(src);
        std::vector<float> old = fill_real(n, 0, 1, ddt, 3);
        if (inplace) {
            c.add_alias(DNNL_ARG_DST, DNNL_ARG_SRC, smd);
            old = src;
        } else {
            c.add(DNNL_ARG_DST, c.pd.dst_desc()).write(old);
        }
        attr_rt_t rt;
        setup_attr_args(c, as, {}, dims, rt);
        if (!c.execute()) return;
        exp_v = softmax_ref::forward(to_double(src), dims, (int)axis, log_sm);
        const double scale = rt.scale0(DNNL_ARG_SRC) / rt.scale0(DNNL_ARG_DST);
        for (auto &v : exp_v)
            v *= scale;
        post_ops_ref::apply(rt.post_ops, dims, exp_v, &old);
        auto tol = float_tolerance(ddt, 32);
        tol.abs = 1e-6; // probabilities: absolute accuracy near zero
        if (log_sm) tol.abs = 1e-5 * std::max(1.0, std::log((double)dims[axis]));
        c.check("dst", c[DNNL_ARG_DST].read(), exp_v, ddt, tol);
    } else {
        if (!c.create([&]() -> dnnl::primitive_desc_base {
                auto hint = make_fwd();
                return dnnl::softmax_backward::primitive_desc(
                        c.eng, alg, smd, dmd, dmd, (int)axis, hint, attr);
            }))
            return;
        // dst of a forward pass, rounded to its type.
        std::vector<float> src = fill_real(n, -8, 8, dt_t::f32, 1);
        std::vector<double> dst_d = softmax_ref::forward(to_double(src), dims, (int)axis, log_sm);
        std::vector<float> dst(dst_d.begin(), dst_d.end());
        round_to(dst, ddt);
        std::vector<float> dd = fill_real(n, -2, 2, ddt, 2);
        c.add(DNNL_ARG_DST, dmd).write(dst);
        c.add(DNNL_ARG_DIFF_DST, dmd).write(dd);
        if (inplace)
            c.add_alias(DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_DST, dmd);
        else
            c.add(DNNL_ARG_DIFF_SRC, c.pd.diff_src_desc()).memset(0);
        if (!c.execute()) return;
        exp_v = softmax_ref::backward(to_double(dst), to_double(dd), dims, (int)axis, log_sm);
        auto tol = float_tolerance(sdt, 32);
        tol.abs = 1e-5;
        c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), exp_v, sdt, tol);
    }
}

} // namespace

const driver_t softmax_driver = {"softmax",
        {{"dir", "FWD_D"}, {"sdt", "f32"}, {"ddt", "f32"}, {"dt", ""}, {"stag", "abx"},
                {"dtag", "any"}, {"tag", ""}, {"alg", "SOFTMAX"}, {"axis", "1"}, {"mb", "0"},
                {"inplace", "false"}},
        run};

} // namespace bd
