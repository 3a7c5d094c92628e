// --attr-* knobs: benchdnn's grammar, the library attribute, runtime data.
#include "attr.hpp"

#include <cmath>
#include <cstring>

#include "api_compat.hpp"
#include "api_version.hpp"
#include "execute.hpp"

namespace bd {

using post_op_t = post_ops_ref::post_op_t;

namespace {

struct alg_name_t {
    const char *name;
    dnnl::algorithm alg;
};

const alg_name_t eltwise_algs[] = {
        {"relu", dnnl::algorithm::eltwise_relu},
        {"tanh", dnnl::algorithm::eltwise_tanh},
        {"elu", dnnl::algorithm::eltwise_elu},
        {"square", dnnl::algorithm::eltwise_square},
        {"abs", dnnl::algorithm::eltwise_abs},
        {"sqrt", dnnl::algorithm::eltwise_sqrt},
        {"linear", dnnl::algorithm::eltwise_linear},
        {"soft_relu", dnnl::algorithm::eltwise_soft_relu},
        {"hardsigmoid", dnnl::algorithm::eltwise_hardsigmoid},
        {"logistic", dnnl::algorithm::eltwise_logistic},
        {"exp", dnnl::algorithm::eltwise_exp},
        {"gelu_tanh", dnnl::algorithm::eltwise_gelu_tanh},
        {"gelu", dnnl::algorithm::eltwise_gelu_tanh},
        {"swish", dnnl::algorithm::eltwise_swish},
        {"log", dnnl::algorithm::eltwise_log},
        {"clip", dnnl::algorithm::eltwise_clip},
        {"clip_v2", dnnl::algorithm::eltwise_clip_v2},
        {"pow", dnnl::algorithm::eltwise_pow},
        {"gelu_erf", dnnl::algorithm::eltwise_gelu_erf},
        {"round", dnnl::algorithm::eltwise_round},
        {"mish", dnnl::algorithm::eltwise_mish},
        {"hardswish", dnnl::algorithm::eltwise_hardswish},
        {"relu_dst", dnnl::algorithm::eltwise_relu_use_dst_for_bwd},
        {"tanh_dst", dnnl::algorithm::eltwise_tanh_use_dst_for_bwd},
        {"elu_dst", dnnl::algorithm::eltwise_elu_use_dst_for_bwd},
        {"sqrt_dst", dnnl::algorithm::eltwise_sqrt_use_dst_for_bwd},
        {"logistic_dst", dnnl::algorithm::eltwise_logistic_use_dst_for_bwd},
        {"exp_dst", dnnl::algorithm::eltwise_exp_use_dst_for_bwd},
        {"clip_v2_dst", dnnl::algorithm::eltwise_clip_v2_use_dst_for_bwd},
};

const alg_name_t binary_algs[] = {
        {"add", dnnl::algorithm::binary_add},
        {"mul", dnnl::algorithm::binary_mul},
        {"max", dnnl::algorithm::binary_max},
        {"min", dnnl::algorithm::binary_min},
        {"div", dnnl::algorithm::binary_div},
        {"sub", dnnl::algorithm::binary_sub},
        {"ge", dnnl::algorithm::binary_ge},
        {"gt", dnnl::algorithm::binary_gt},
        {"le", dnnl::algorithm::binary_le},
        {"lt", dnnl::algorithm::binary_lt},
        {"eq", dnnl::algorithm::binary_eq},
        {"ne", dnnl::algorithm::binary_ne},
};

bool find_alg(const alg_name_t *b, const alg_name_t *e, std::string s, const char *prefix,
        dnnl::algorithm &alg) {
    s = lower(s);
    if (starts_with(s, prefix)) s = s.substr(std::strlen(prefix));
    for (; b != e; ++b)
        if (s == b->name) return alg = b->alg, true;
    return false;
}

int arg_of(const std::string &s) {
    if (s == "src" || s == "src0") return DNNL_ARG_SRC;
    if (s == "src1") return DNNL_ARG_SRC_1;
    if (s == "wei") return DNNL_ARG_WEIGHTS;
    if (s == "dst") return DNNL_ARG_DST;
    if (starts_with(s, "msrc")) {
        int64_t i;
        if (parse_int(s.substr(4), i) && i >= 0) return DNNL_ARG_MULTIPLE_SRC + (int)i;
    }
    return -1;
}

bool parse_quant(const std::string &knob, const std::string &v, bool is_zp,
        std::vector<quant_spec_t> &out, std::string &why) {
    out.clear();
    if (v.empty()) return true;
    for (const auto &entry : split(v, '+')) {
        auto f = split(entry, ':');
        quant_spec_t q;
        q.value = is_zp ? 0 : 1;
        q.dt = is_zp ? dt_t::s32 : dt_t::f32;
        q.arg = arg_of(f[0]);
        if (q.arg < 0 || f.size() < 2) {
            why = "bad --" + knob + " entry '" + entry + "'";
            return false;
        }
        q.policy = f[1];
        size_t i = 2;
        if (i < f.size()) {
            std::string val = f[i];
            if (!val.empty() && val.back() == '*') val.pop_back();
            double x;
            if (parse_float(val, x)) {
                q.value = x;
                ++i;
            }
        }
        if (i < f.size()) {
            if (!str2dt(f[i], q.dt)) {
                why = "bad data type in --" + knob + " '" + entry + "'";
                return false;
            }
            ++i;
        }
        if (i < f.size()) { // groups: GKxGN over the last two dims
            dims_t g;
            if (!str2dims(f[i], g) || g.size() != 2 || g[0] < 1 || g[1] < 1) {
                why = "bad groups in --" + knob + " '" + entry + "'";
                return false;
            }
            q.groups = g;
            ++i;
        }
        if (i < f.size()) {
            why = "bad --" + knob + " entry '" + entry + "'";
            return false;
        }
        if (q.policy == "host_scalar") {
            why = "host_scalar policy is not supported";
            return false;
        }
        out.push_back(q);
    }
    return true;
}

bool parse_post_ops(const std::string &v, std::vector<post_op_spec_t> &out, std::string &why) {
    out.clear();
    if (v.empty()) return true;
    for (const auto &entry : split(v, '+')) {
        auto f = split(entry, ':');
        post_op_spec_t po;
        const std::string k = lower(f[0]);
        double x;
        if (k == "sum") {
            po.kind = post_op_t::sum;
            if (f.size() > 1 && parse_float(f[1], x)) po.scale = (float)x;
            if (f.size() > 2) {
                int64_t z;
                if (!parse_int(f[2], z)) return why = "bad sum zero point", false;
                po.zero_point = (int)z;
            }
            if (f.size() > 3 && !str2dt(f[3], po.dt)) return why = "bad sum data type", false;
        } else if (find_alg(std::begin(eltwise_algs), std::end(eltwise_algs), k, "eltwise_",
                           po.alg)) {
            po.kind = post_op_t::eltwise;
            if (f.size() > 1 && parse_float(f[1], x)) po.alpha = (float)x;
            if (f.size() > 2 && parse_float(f[2], x)) po.beta = (float)x;
            if (f.size() > 3 && parse_float(f[3], x)) po.scale = (float)x;
            if (po.scale != 1) return why = "eltwise post-op scale is not supported", false;
        } else if (find_alg(std::begin(binary_algs), std::end(binary_algs), k, "binary_",
                           po.alg)) {
            po.kind = post_op_t::binary;
            if (f.size() < 2 || !str2dt(f[1], po.dt))
                return why = "binary post-op needs a data type", false;
            if (f.size() > 2) po.policy = f[2];
            if (f.size() > 3) po.tag = f[3];
        } else if (k == "prelu") {
            po.kind = post_op_t::prelu;
            if (f.size() > 1) po.policy = f[1];
        } else if (starts_with(k, "dw")) {
            return why = "depthwise post-op is not supported", false;
        } else if (k == "select") {
            return why = "select post-op is not supported", false;
        } else {
            return why = "unknown post-op '" + f[0] + "'", false;
        }
        out.push_back(po);
    }
    return true;
}

// Index into a quantization array of `mask` for position `pos`.
// The group of dim d (1 without groups).
int64_t group_of(const dims_t &groups, size_t d) {
    return d < groups.size() ? groups[d] : 1;
}

// Quantization tensors are dense over the dims `mask` selects, each
// divided by its group.
int64_t quant_index(int mask, const dims_t &dims, const int64_t *pos, const dims_t &groups) {
    int64_t idx = 0;
    for (size_t d = 0; d < dims.size(); ++d)
        if (mask & (1 << d)) {
            const int64_t g = group_of(groups, d);
            idx = idx * (dims[d] / g) + pos[d] / g;
        }
    return idx;
}

int64_t quant_count(int mask, const dims_t &dims, const dims_t &groups) {
    int64_t n = 1;
    for (size_t d = 0; d < dims.size(); ++d)
        if (mask & (1 << d)) n *= dims[d] / group_of(groups, d);
    return n;
}

// The groups of a spec as per-dim values for a tensor of `dims`.
dims_t groups_for(const quant_spec_t &q, const dims_t &dims) {
    dims_t g(dims.size(), 1);
    if (q.groups.size() == 2 && dims.size() >= 2) {
        g[dims.size() - 2] = q.groups[0];
        g[dims.size() - 1] = q.groups[1];
    }
    return g;
}

} // namespace

bool str2eltwise_alg(const std::string &s, dnnl::algorithm &alg) {
    return find_alg(std::begin(eltwise_algs), std::end(eltwise_algs), s, "eltwise_", alg);
}

bool str2binary_alg(const std::string &s, dnnl::algorithm &alg) {
    return find_alg(std::begin(binary_algs), std::end(binary_algs), s, "binary_", alg);
}

bool attr_spec_t::empty() const {
    return scales.empty() && zero_points.empty() && post_ops.empty() && !fpmath_set
            && !user_scratchpad && acc_mode.empty() && deterministic < 0;
}

const quant_spec_t *attr_spec_t::scale(int arg) const {
    for (const auto &q : scales)
        if (q.arg == arg) return &q;
    return nullptr;
}

const quant_spec_t *attr_spec_t::zero_point(int arg) const {
    for (const auto &q : zero_points)
        if (q.arg == arg) return &q;
    return nullptr;
}

bool attr_spec_t::has_sum() const {
    for (const auto &po : post_ops)
        if (po.kind == post_op_t::sum) return true;
    return false;
}

bool parse_attr(const problem_t &p, attr_spec_t &a, std::string &why) {
    a = attr_spec_t();
    if (!parse_quant("attr-scales", p.get("attr-scales"), false, a.scales, why)) return false;
    if (!parse_quant("attr-zero-points", p.get("attr-zero-points"), true, a.zero_points, why))
        return false;
    if (!parse_post_ops(p.get("attr-post-ops"), a.post_ops, why)) return false;

    const std::string fm = p.get("attr-fpmath");
    if (!fm.empty()) {
        auto f = split(fm, ':');
        static const std::pair<const char *, dnnl::fpmath_mode> modes[] = {
                {"strict", dnnl::fpmath_mode::strict}, {"bf16", dnnl::fpmath_mode::bf16},
                {"f16", dnnl::fpmath_mode::f16}, {"tf32", dnnl::fpmath_mode::tf32},
                {"any", dnnl::fpmath_mode::any}};
        bool ok = false;
        for (const auto &m : modes)
            if (f[0] == m.first) a.fpmath = m.second, ok = true;
        if (!ok) return why = "bad --attr-fpmath", false;
        a.fpmath_set = true;
        a.fpmath_apply_to_int = f.size() > 1 && (f[1] == "true" || f[1] == "1");
    }
    const std::string sp = p.get("attr-scratchpad");
    if (sp == "user")
        a.user_scratchpad = true;
    else if (sp != "library" && !sp.empty())
        return why = "bad --attr-scratchpad", false;
    a.acc_mode = p.get("attr-acc-mode"); // checked by set_accumulation_mode
    const std::string det = p.get("attr-deterministic");
    if (!det.empty()) {
        bool b;
        if (!parse_bool(det, b)) return why = "bad --attr-deterministic", false;
        a.deterministic = b;
    }
    for (const char *k : {"attr-rounding-mode", "attr-dropout"})
        if (!p.get(k).empty()) return why = std::string("--") + k + " is not supported", false;
    return true;
}

int policy_mask(const std::string &policy, int ndims) {
    if (policy == "common") return 0;
    if (policy == "per_oc" || policy == "per_dim_1") return ndims > 1 ? 2 : -1;
    if (policy == "per_dim_0") return 1;
    if (policy == "per_dim_01") return ndims > 1 ? 3 : -1;
    if (policy == "per_dim_2") return ndims > 2 ? 4 : -1;
    if (policy == "per_dim_3") return ndims > 3 ? 8 : -1;
    if (policy == "per_tensor") return (1 << ndims) - 1;
    if (policy == "per_w") return ndims > 0 ? 1 << (ndims - 1) : -1;
    if (policy == "per_hw")
        return ndims > 2 ? (1 << (ndims - 1)) | (1 << (ndims - 2)) : -1;
    int64_t m;
    if (parse_int(policy, m) && m >= 0 && m < (1 << ndims)) return (int)m;
    return -1;
}

namespace {
dims_t operand_dims(const dims_t &dst_dims, int mask) {
    dims_t d = dst_dims;
    for (size_t i = 0; i < d.size(); ++i)
        if (!(mask & (1 << i))) d[i] = 1;
    return d;
}

bool operand_md(const post_op_spec_t &po, const dims_t &dst_dims, dnnl::memory::desc &md) {
    const dims_t d = operand_dims(dst_dims, po.mask);
    tag_t tag;
    const std::string t = po.tag == "any" ? "abx" : po.tag;
    if (!str2tag(t, (int)d.size(), tag)) return false;
    md = dnnl::memory::desc(d, po.kind == post_op_t::prelu ? dt_t::f32 : po.dt, tag);
    return true;
}
} // namespace

bool make_attr(attr_spec_t &a, const dims_t &dst_dims, const mask_fn_t &mask_of,
        dnnl::primitive_attr &attr, std::string &why) {
    attr = dnnl::primitive_attr();
    const int nd = (int)dst_dims.size();
    for (auto &q : a.scales) {
        q.mask = mask_of(q.arg, q.policy);
        if (q.mask < 0) return why = "scales policy " + q.policy + " is not supported", false;
        if (q.groups.empty() && q.dt == dt_t::f32)
            attr.set_scales_mask(q.arg, q.mask);
        else if (!set_scales_full(attr, q.arg, q.mask, q.groups, q.dt, why))
            return false;
    }
    for (auto &q : a.zero_points) {
        q.mask = mask_of(q.arg, q.policy);
        if (q.mask < 0)
            return why = "zero-points policy " + q.policy + " is not supported", false;
        if (q.groups.empty() && q.dt == dt_t::s32)
            attr.set_zero_points_mask(q.arg, q.mask);
        else if (!set_zero_points_full(attr, q.arg, q.mask, q.groups, q.dt, why))
            return false;
    }
    if (!a.post_ops.empty()) {
        dnnl::post_ops ops;
        for (auto &po : a.post_ops) {
            switch (po.kind) {
                case post_op_t::sum: ops.append_sum(po.scale, po.zero_point, po.dt); break;
                case post_op_t::eltwise: ops.append_eltwise(po.alg, po.alpha, po.beta); break;
                case post_op_t::binary:
                case post_op_t::prelu: {
                    po.mask = policy_mask(po.policy, nd);
                    dnnl::memory::desc md;
                    if (po.mask < 0 || !operand_md(po, dst_dims, md))
                        return why = "post-op policy/tag " + po.policy + "/" + po.tag
                                       + " is not supported",
                               false;
                    if (po.kind == post_op_t::binary)
                        ops.append_binary(po.alg, md);
                    else
                        ops.append_prelu(po.mask);
                    break;
                }
            }
        }
        attr.set_post_ops(ops);
    }
    if (a.fpmath_set && !set_fpmath_mode(attr, a.fpmath, a.fpmath_apply_to_int, why))
        return false;
    if (!a.acc_mode.empty() && !set_accumulation_mode(attr, a.acc_mode, why)) return false;
    if (a.deterministic >= 0 && !set_deterministic(attr, a.deterministic != 0, why))
        return false;
    if (a.user_scratchpad) attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return true;
}

namespace {
// Scale factors for non-common policies: powers of two around the value,
// so that scaling stays exact.
float scale_value(double base, int64_t i) {
    static const float f[] = {1.f, 0.5f, 2.f, 0.25f, 4.f};
    return (float)(base * f[i % 5]);
}
} // namespace

void setup_attr_args(case_t &c, const attr_spec_t &a, const std::map<int, dims_t> &arg_dims,
        const dims_t &dst_dims, attr_rt_t &rt) {
    auto dims_of = [&](int arg) -> dims_t {
        auto it = arg_dims.find(arg);
        return it == arg_dims.end() ? dst_dims : it->second;
    };
    for (const auto &q : a.scales) {
        const dims_t g = groups_for(q, dims_of(q.arg));
        const int64_t n = quant_count(q.mask, dims_of(q.arg), g);
        std::vector<float> v((size_t)n);
        for (int64_t i = 0; i < n; ++i)
            v[i] = q.mask == 0 ? (float)q.value : scale_value(q.value, i);
        auto &t = c.add(DNNL_ARG_ATTR_SCALES | q.arg, dnnl::memory::desc({n}, q.dt, tag_t::a));
        t.write(v);
        rt.scales[q.arg] = v;
        rt.scale_mask[q.arg] = q.mask;
        rt.scale_groups[q.arg] = g;
    }
    for (const auto &q : a.zero_points) {
        const dims_t g = groups_for(q, dims_of(q.arg));
        const int64_t n = quant_count(q.mask, dims_of(q.arg), g);
        // Unsigned types get non-negative values.
        const bool is_unsigned = q.dt == dt_t::u8 || q.dt == (dt_t)dnnl_u4;
        std::vector<float> v((size_t)n);
        for (int64_t i = 0; i < n; ++i)
            v[i] = (float)(q.mask == 0 ? q.value : q.value + (i % 5) - (is_unsigned ? 0 : 2));
        auto &t = c.add(DNNL_ARG_ATTR_ZERO_POINTS | q.arg,
                dnnl::memory::desc({n}, q.dt, tag_t::a));
        t.write(v);
        rt.zero_points[q.arg] = v;
        rt.zp_mask[q.arg] = q.mask;
        rt.zp_groups[q.arg] = g;
    }
    rt.post_ops.clear();
    for (size_t i = 0; i < a.post_ops.size(); ++i) {
        const auto &po = a.post_ops[i];
        post_op_t r;
        r.kind = po.kind;
        r.alg = (dnnl_alg_kind_t)po.alg;
        r.alpha = po.alpha;
        r.beta = po.beta;
        r.scale = po.scale;
        r.zero_point = po.zero_point;
        if (po.kind == post_op_t::binary || po.kind == post_op_t::prelu) {
            dnnl::memory::desc md;
            operand_md(po, dst_dims, md);
            const int arg = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i)
                    | (po.kind == post_op_t::binary ? DNNL_ARG_SRC_1 : DNNL_ARG_WEIGHTS);
            auto &t = c.add(arg, md);
            r.operand_dims = operand_dims(dst_dims, po.mask);
            const int64_t n = nelems(r.operand_dims);
            const uint64_t seed = 1000 + i;
            if (po.kind == post_op_t::prelu) {
                r.operand = fill_real(n, -1, 1, dt_t::bf16, seed);
            } else if (po.alg == dnnl::algorithm::binary_div) {
                r.operand = fill_int(n, 1, 4, seed);
                for (auto &x : r.operand)
                    x = x == 3 ? 2 : x; // 1, 2, 4: exact division
            } else {
                r.operand = fill_int(n, po.dt == dt_t::u8 ? 0 : -4, 4, seed);
            }
            round_to(r.operand, md.get_data_type());
            t.write(r.operand);
        }
        rt.post_ops.push_back(r);
    }
}

namespace {
double pick(const std::map<int, std::vector<float>> &vals, const std::map<int, int> &masks,
        const std::map<int, dims_t> &groups, int arg, const dims_t &dims, const int64_t *pos,
        double def) {
    auto it = vals.find(arg);
    if (it == vals.end()) return def;
    const int mask = masks.at(arg);
    auto g = groups.find(arg);
    return it->second[(size_t)quant_index(
            mask, dims, pos, g == groups.end() ? dims_t() : g->second)];
}
} // namespace

double attr_rt_t::scale(int arg, const dims_t &dims, const int64_t *pos) const {
    return pick(scales, scale_mask, scale_groups, arg, dims, pos, 1.0);
}
double attr_rt_t::zero_point(int arg, const dims_t &dims, const int64_t *pos) const {
    return pick(zero_points, zp_mask, zp_groups, arg, dims, pos, 0.0);
}
double attr_rt_t::scale0(int arg) const {
    auto it = scales.find(arg);
    return it == scales.end() ? 1.0 : it->second[0];
}
double attr_rt_t::zero_point0(int arg) const {
    auto it = zero_points.find(arg);
    return it == zero_points.end() ? 0.0 : it->second[0];
}

} // namespace bd
