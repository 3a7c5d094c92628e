// Shared driver helpers and the driver table.
#include "drivers.hpp"

#include <cctype>
#include <cmath>
#include <stdexcept>

#include "api_version.hpp"

namespace bd {

const std::vector<knob_def_t> &attr_knobs() {
    static const std::vector<knob_def_t> k = {
            {"attr-scratchpad", "library"},
            {"attr-fpmath", ""},
            {"attr-acc-mode", ""},
            {"attr-rounding-mode", ""},
            {"attr-deterministic", ""},
            {"attr-dropout", ""},
            {"attr-scales", ""},
            {"attr-zero-points", ""},
            {"attr-post-ops", ""},
            {"match", ""},
    };
    return k;
}

const std::vector<const driver_t *> &all_drivers() {
    static const std::vector<const driver_t *> d = {&conv_driver, &deconv_driver, &ip_driver,
            &matmul_driver, &eltwise_driver, &reorder_driver, &binary_driver, &softmax_driver,
            &pool_driver, &lnorm_driver, &bnorm_driver, &gnorm_driver, &lrn_driver,
            &shuffle_driver, &resampling_driver, &prelu_driver, &reduction_driver,
            &concat_driver, &sum_driver, &rnn_driver};
    return d;
}

const driver_t *find_driver(const std::string &name) {
    for (auto *d : all_drivers())
        if (name == d->name) return d;
    if (name == "inner_product") return &ip_driver;
    return nullptr;
}

bool parse_named_desc(const std::string &s, std::map<std::string, std::string> &out) {
    out.clear();
    auto is_num_start = [&](size_t v) {
        return v < s.size() && (std::isdigit((unsigned char)s[v]) || s[v] == '-' || s[v] == '.');
    };
    size_t i = 0;
    while (i < s.size()) {
        if (s[i] == '_') {
            ++i;
            continue;
        }
        size_t k = i;
        while (k < s.size() && std::isalpha((unsigned char)s[k]))
            ++k;
        if (k == i) return false;
        if (s[i] == 'n' && (k == i + 1 ? !is_num_start(k) : !is_num_start(k))) {
            // The problem name: n"text" or n followed by the rest.
            if (i + 1 < s.size() && s[i + 1] == '"') {
                auto e = s.find('"', i + 2);
                out["name"] = s.substr(i + 2, e == std::string::npos ? e : e - i - 2);
                i = e == std::string::npos ? s.size() : e + 1;
            } else {
                out["name"] = s.substr(i + 1);
                i = s.size();
            }
            continue;
        }
        const std::string key = s.substr(i, k - i);
        size_t v = k;
        while (v < s.size()
                && (std::isdigit((unsigned char)s[v]) || s[v] == '.' || s[v] == '-'
                        || ((s[v] == 'e' || s[v] == 'E') && v + 1 < s.size()
                                && (std::isdigit((unsigned char)s[v + 1]) || s[v + 1] == '-'))))
            ++v;
        if (v == k) return false;
        out[key] = s.substr(k, v - k);
        i = v;
    }
    return true;
}

bool parse_sp_desc(const std::string &str, sp_desc_t &d, bool with_kernel, bool deconv,
        std::string &why) {
    d = sp_desc_t();
    if (!parse_named_desc(str, d.kv)) return why = "bad descriptor " + str, false;
    auto geti = [&](const std::string &k, int64_t &v) {
        auto it = d.kv.find(k);
        if (it == d.kv.end()) return false;
        if (!parse_int(it->second, v)) throw std::runtime_error("bad value of " + k);
        return true;
    };
    try {
        int64_t v;
        if (geti("g", v)) d.g = v;
        if (geti("mb", v)) d.mb = v;
        if (geti("ic", v)) d.ic = v;
        if (geti("oc", v)) d.oc = v;
        if (d.kv.count("name")) d.name = d.kv["name"];
        const char sp[3] = {'d', 'h', 'w'};
        bool has[3] = {false, false, false};
        for (int s = 0; s < 3; ++s)
            for (const char *pre : {"i", "o", "k", "s", "p", "d"})
                if (d.kv.count(std::string(pre) + sp[s])) has[s] = true;
        d.nsp = has[0] ? 3 : has[1] ? 2 : has[2] ? 1 : 0;
        struct field_t {
            const char *pre;
            int64_t *v;
            bool given[3];
        } fields[] = {{"i", d.i, {}}, {"o", d.o, {}}, {"k", d.k, {}}, {"s", d.s, {}},
                {"p", d.p, {}}, {"d", d.d, {}}};
        for (auto &f : fields) {
            for (int s = 3 - d.nsp; s < 3; ++s)
                f.given[s] = geti(std::string(f.pre) + sp[s], f.v[s]);
            // Copy from the bigger dim when missing.
            for (int s = 4 - d.nsp; s < 3; ++s)
                if (!f.given[s] && f.given[s - 1]) f.v[s] = f.v[s - 1], f.given[s] = true;
        }
        if (d.ic <= 0) return why = "descriptor needs ic", false;
        if (!with_kernel) {
            for (int s = 0; s < 3; ++s)
                if (s < 3 - d.nsp) d.i[s] = 1;
            if (d.oc <= 0) d.oc = d.ic;
            return true;
        }
        if (d.oc <= 0) d.oc = d.ic;
        for (int s = 3 - d.nsp; s < 3; ++s) {
            const bool has_o = fields[1].given[s], has_p = fields[4].given[s];
            if (!fields[0].given[s]) return why = std::string("missing i") + sp[s], false;
            const int64_t ek = (d.k[s] - 1) * (d.d[s] + 1) + 1;
            if (!deconv) {
                if (!has_o) d.o[s] = (d.i[s] - ek + 2 * d.p[s]) / d.s[s] + 1;
                else if (!has_p) d.p[s] = std::max<int64_t>(0, ((d.o[s] - 1) * d.s[s] - d.i[s] + ek) / 2);
                d.r[s] = (d.o[s] - 1) * d.s[s] - d.i[s] + ek - d.p[s];
            } else {
                if (!has_o) d.o[s] = (d.i[s] - 1) * d.s[s] + ek - 2 * d.p[s];
                else if (!has_p) d.p[s] = std::max<int64_t>(0, ((d.i[s] - 1) * d.s[s] - d.o[s] + ek) / 2);
                d.r[s] = (d.i[s] - 1) * d.s[s] - d.o[s] + ek - d.p[s];
            }
            if (d.o[s] <= 0) return why = "non-positive output size", false;
        }
    } catch (const std::exception &e) {
        why = e.what();
        return false;
    }
    return true;
}

bool str2dir(const std::string &s, dir_t &d) {
    const std::string u = s;
    if (u == "FWD_D" || u == "fwd_d") return d = dir_t::fwd_d, true;
    if (u == "FWD_I" || u == "fwd_i") return d = dir_t::fwd_i, true;
    if (u == "FWD_B" || u == "fwd_b") return d = dir_t::fwd_b, true;
    if (u == "BWD_D" || u == "bwd_d") return d = dir_t::bwd_d, true;
    if (u == "BWD_W" || u == "bwd_w") return d = dir_t::bwd_w, true;
    if (u == "BWD_WB" || u == "bwd_wb") return d = dir_t::bwd_wb, true;
    if (u == "BWD_DW" || u == "bwd_dw") return d = dir_t::bwd_dw, true;
    return false;
}

dnnl::prop_kind fwd_prop(dir_t d) {
    return d == dir_t::fwd_i ? dnnl::prop_kind::forward_inference
                             : dnnl::prop_kind::forward_training;
}

bool get_tag(res_t &res, const std::string &s, int ndims, tag_t &tag) {
    if (str2tag(s, ndims, tag)) return true;
    res.skip("tag " + s + " does not fit " + std::to_string(ndims) + " dims");
    return false;
}

bool get_dt(res_t &res, const std::string &s, dt_t &dt) {
    if (str2dt(s, dt)) return true;
    const std::string why = dt_needs_api(s);
    res.skip(why.empty() ? "unsupported data type " + s : why);
    return false;
}

bool get_dts(res_t &res, const std::string &s, size_t n, std::vector<dt_t> &dts) {
    if (str2dts(s, n, dts) || cfg2dts(s, dts)) {
        if (dts.size() == 3 && n < 3) dts.resize(n);
        if (dts.size() == n) return true;
    }
    const std::string why = dt_needs_api(s);
    res.skip(why.empty() ? "unsupported data types " + s : why);
    return false;
}

bool prepare_attr(const problem_t &p, res_t &res, attr_spec_t &a, const dims_t &dst_dims,
        const mask_fn_t &mask_of, dnnl::primitive_attr &attr, bool quant_groups_ok) {
    std::string why;
    if (!parse_attr(p, a, why)) {
        res.skip(why);
        return false;
    }
    // Groups and data types other than f32 scales / s32 zero points only
    // where the driver's reference takes them.
    auto plain = [](const quant_spec_t &q, dt_t def) { return q.groups.empty() && q.dt == def; };
    for (const auto &q : a.scales)
        if (!quant_groups_ok && !plain(q, dt_t::f32))
            return res.skip("scales with groups or a data type are not supported by this driver"),
                   false;
    for (const auto &q : a.zero_points)
        if (!quant_groups_ok && !plain(q, dt_t::s32))
            return res.skip("zero points with groups or a data type are not supported by this "
                            "driver"),
                   false;
    if (!make_attr(a, dst_dims, mask_of, attr, why)) {
        res.skip(why);
        return false;
    }
    return true;
}

bool no_attr(const problem_t &p, res_t &res) {
    for (const auto &k : attr_knobs())
        if (std::string(k.name) != "match" && std::string(k.name) != "attr-scratchpad"
                && !p.is_default(k.name)) {
            res.skip(std::string("--") + k.name + " is not supported by this driver");
            return false;
        }
    return true;
}

bool defaults_only(const problem_t &p, res_t &res, std::initializer_list<const char *> knobs) {
    for (const char *k : knobs)
        if (!p.is_default(k)) {
            res.skip(std::string("--") + k + " is not supported by the driver");
            return false;
        }
    return true;
}

std::vector<float> fill_data(int64_t n, dt_t dt, uint64_t seed, bool non_negative) {
    switch (dt) {
        case dt_t::u8: return fill_int(n, 0, 10, seed);
        case dt_t::s8: return fill_int(n, non_negative ? 0 : -5, 5, seed);
        case dt_t::s32: return fill_int(n, non_negative ? 0 : -20, 20, seed);
        case (dt_t)dnnl_s4: return fill_int(n, non_negative ? 0 : -8, 7, seed);
        case (dt_t)dnnl_u4: return fill_int(n, 0, 15, seed);
        default: return fill_int(n, non_negative ? 0 : -4, 4, seed);
    }
}

ref::tolerance_t float_tolerance(dt_t dt, double ulps_f32) {
    ref::tolerance_t t;
    const double eps = std::ldexp(1.0, -23);
    if (ref::is_integral((dnnl_data_type_t)dt)) {
        t.ulps = 1;
    } else if (dt == dt_t::f32) {
        t.ulps = ulps_f32;
    } else {
        t.ulps = 1;
        t.rel = ulps_f32 * eps;
    }
    return t;
}

} // namespace bd
