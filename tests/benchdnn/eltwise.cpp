// --eltwise: element-wise forward (FWD_D, FWD_I) and backward (BWD_D).
//   --dir --dt --tag --alg --alpha --beta --mb --inplace  DIMS (64x256x56x56)
#include <cmath>

#include "drivers.hpp"
#include "reference/eltwise_ref.hpp"

namespace bd {
namespace {

using alg_t = dnnl::algorithm;

bool is_transcendental(alg_t a) {
    switch (a) {
        case alg_t::eltwise_relu:
        case alg_t::eltwise_relu_use_dst_for_bwd:
        case alg_t::eltwise_abs:
        case alg_t::eltwise_linear:
        case alg_t::eltwise_square:
        case alg_t::eltwise_clip:
        case alg_t::eltwise_clip_v2:
        case alg_t::eltwise_clip_v2_use_dst_for_bwd:
        case alg_t::eltwise_round:
        case alg_t::eltwise_hardsigmoid:
        case alg_t::eltwise_hardswish: return false;
        default: return true;
    }
}

// Source values inside the algorithm's domain and its interesting range.
std::vector<float> fill_src(alg_t a, int64_t n, dt_t dt, uint64_t seed) {
    switch (a) {
        case alg_t::eltwise_log:
        case alg_t::eltwise_sqrt:
        case alg_t::eltwise_sqrt_use_dst_for_bwd:
        case alg_t::eltwise_pow: return fill_real(n, 0.0625, 8, dt, seed);
        case alg_t::eltwise_exp:
        case alg_t::eltwise_exp_use_dst_for_bwd: return fill_real(n, -20, 20, dt, seed);
        case alg_t::eltwise_relu:
        case alg_t::eltwise_abs:
        case alg_t::eltwise_linear:
        case alg_t::eltwise_square:
        case alg_t::eltwise_clip:
        case alg_t::eltwise_clip_v2:
        case alg_t::eltwise_clip_v2_use_dst_for_bwd:
        case alg_t::eltwise_relu_use_dst_for_bwd:
            return ref::is_integral((dnnl_data_type_t)dt) ? fill_data(n, dt, seed)
                                                          : fill_real(n, -8, 8, dt, seed);
        default: return fill_real(n, -8, 8, dt, seed);
    }
}

void run(const problem_t &p, res_t &res) {
    dir_t dir;
    if (!str2dir(p.get("dir"), dir)) return res.skip("bad --dir");
    dt_t dt;
    if (!get_dt(res, p.get("dt"), dt)) return;
    alg_t alg;
    if (!str2eltwise_alg(p.get("alg"), alg)) return res.skip("unknown --alg=" + p.get("alg"));
    double alpha, beta;
    if (!parse_float(p.get("alpha"), alpha) || !parse_float(p.get("beta"), beta))
        return res.skip("bad --alpha/--beta");
    bool inplace;
    if (!parse_bool(p.get("inplace"), inplace)) return res.skip("bad --inplace");
    dims_t dims;
    if (!str2dims(p.desc, dims)) return res.fail("bad descriptor " + p.desc);
    int64_t mb;
    if (parse_int(p.get("mb"), mb) && mb > 0) dims[0] = mb;
    const int nd = (int)dims.size();
    tag_t tag;
    if (!get_tag(res, p.get("tag"), nd, tag)) return;
    if (dir != dir_t::fwd_d && dir != dir_t::fwd_i && dir != dir_t::bwd_d)
        return res.skip("--dir=" + p.get("dir") + " is not supported for eltwise");

    attr_spec_t as;
    dnnl::primitive_attr attr;
    auto mask_of = [&](int, const std::string &pol) { return policy_mask(pol, nd); };
    if (!prepare_attr(p, res, as, dims, mask_of, attr)) return;

    const dnnl::memory::desc md(dims, dt, tag);
    case_t c(p, res);
    auto &eng = c.eng;
    const bool fwd = is_fwd(dir);
    const bool use_dst = eltwise_ref::use_dst((dnnl_alg_kind_t)alg);
    auto make_fwd = [&]() {
        return dnnl::eltwise_forward::primitive_desc(eng, fwd ? fwd_prop(dir)
                                                              : dnnl::prop_kind::forward_training,
                alg, md, md, (float)alpha, (float)beta, fwd ? attr : dnnl::primitive_attr());
    };
    if (fwd) {
        if (!c.create([&]() -> dnnl::primitive_desc_base { return make_fwd(); })) return;
    } else {
        if (!c.create([&]() -> dnnl::primitive_desc_base {
                auto hint = make_fwd();
                return dnnl::eltwise_backward::primitive_desc(
                        eng, alg, md, md, md, (float)alpha, (float)beta, hint, attr);
            }))
            return;
    }

    const int64_t n = nelems(dims);
    std::vector<float> src = fill_src(alg, n, dt, 1);
    std::vector<double> exp_v((size_t)n);
    attr_rt_t rt;
    if (fwd) {
        c.add(DNNL_ARG_SRC, md).write(src);
        if (inplace)
            c.add_alias(DNNL_ARG_DST, DNNL_ARG_SRC, md);
        else
            c.add(DNNL_ARG_DST, md).memset(0);
        setup_attr_args(c, as, {}, dims, rt);
        if (!c.execute()) return;
        for (int64_t i = 0; i < n; ++i)
            exp_v[i] = eltwise_ref::fwd((dnnl_alg_kind_t)alg, src[i], alpha, beta);
        post_ops_ref::apply(rt.post_ops, dims, exp_v, nullptr);
        auto tol = is_transcendental(alg) ? float_tolerance(dt, 64) : float_tolerance(dt, 1);
        // Approximations of transcendental functions are accurate to a few
        // f32 ULPs of the function's scale (about 1), not of tiny results.
        if (is_transcendental(alg)) tol.abs = 1e-5;
        c.check("dst", c[DNNL_ARG_DST].read(), exp_v, dt, tol);
    } else {
        // Backward reads the source, or the destination of the forward pass.
        std::vector<float> v = src;
        if (use_dst) {
            for (auto &x : v)
                x = (float)eltwise_ref::fwd((dnnl_alg_kind_t)alg, x, alpha, beta);
            round_to(v, dt);
        }
        std::vector<float> dd = fill_real(n, -2, 2, dt, 2);
        c.add(use_dst ? DNNL_ARG_DST : DNNL_ARG_SRC, md).write(v);
        c.add(DNNL_ARG_DIFF_DST, md).write(dd);
        if (inplace)
            c.add_alias(DNNL_ARG_DIFF_SRC, DNNL_ARG_DIFF_DST, md);
        else
            c.add(DNNL_ARG_DIFF_SRC, md).memset(0);
        if (!c.execute()) return;
        for (int64_t i = 0; i < n; ++i)
            exp_v[i] = eltwise_ref::bwd((dnnl_alg_kind_t)alg, dd[i], v[i], alpha, beta);
        auto tol = float_tolerance(dt, 64);
        tol.abs = 1e-5;
        c.check("diff_src", c[DNNL_ARG_DIFF_SRC].read(), exp_v, dt, tol);
    }
}

} // namespace

const driver_t eltwise_driver = {"eltwise",
        {{"dir", "FWD_D"}, {"dt", "f32"}, {"tag", "abx"}, {"alg", "relu"}, {"alpha", "0"},
                {"beta", "0"}, {"mb", "0"}, {"inplace", "false"}},
        run};

} // namespace bd
