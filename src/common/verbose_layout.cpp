// oneDNN's verbose layout per primitive kind. The descriptor's fields are
// read through its field list (field_sink_t); each kind's auxiliary and
// problem fields are one pattern over them:
//   {name}           a scalar (enumerators by name, reals as %g)
//   {name:fmt}       dims, desc (mb/ic/spatial), dN, rtmask, nflags, rflags
//   {a:fmt|b:fmt}    the first of several fields that is present
//   {@conv} ...      the spatial problems of convolution-like kinds
//   [cond|text]      text only when cond holds: "rt" (runtime dims) or a
//                    field that is present (non-empty descriptor, non-zero)
#include "common/verbose_layout.hpp"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "common/primitive_desc.hpp"
#include "common/verbose.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {

namespace {

// Every field of one descriptor, by name.
struct desc_fields_t : public field_sink_t {
    std::map<std::string, field_scalar_t> scalars;
    std::map<std::string, const memory_desc_t *> mds_;
    std::map<std::string, std::vector<dim_t>> arrays;
    std::map<std::string, const std::vector<memory_desc_t> *> lists;

    explicit desc_fields_t(const op_desc_t &op) { op.visit_fields(*this); }

    void scalar(const char *n, const field_scalar_t &v) override {
        scalars[n] = v;
    }
    void md(const char *n, const memory_desc_t &m) override { mds_[n] = &m; }
    void dims(const char *n, const dim_t *v, int cnt) override {
        arrays[n].assign(v, v + cnt);
    }
    void mds(const char *n, const std::vector<memory_desc_t> &v) override {
        lists[n] = &v;
    }

    // A descriptor field holding a non-empty descriptor; null otherwise.
    const memory_desc_t *md_of(const std::string &n) const {
        auto it = mds_.find(n);
        return it != mds_.end() && it->second->ndims != 0 ? it->second
                                                          : nullptr;
    }
    int64_t integer(const std::string &n) const {
        auto it = scalars.find(n);
        return it == scalars.end() ? 0 : it->second.i;
    }
    dim_t at(const std::string &n, int i) const {
        auto it = arrays.find(n);
        return it == arrays.end() || i >= (int)it->second.size()
                       ? 0
                       : it->second[i];
    }
    bool present(const std::string &n) const {
        if (md_of(n)) return true;
        if (lists.count(n)) return !lists.at(n)->empty();
        auto it = scalars.find(n);
        return it != scalars.end() && (it->second.i != 0 || it->second.f != 0);
    }
    bool any_runtime() const {
        for (const auto &m : mds_)
            if (md_has_runtime_dims_or_strides(*m.second)) return true;
        return false;
    }
};

std::string num(int64_t v) {
    return std::to_string((long long)v);
}

std::string real(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", v);
    return buf;
}

std::string dim_str(dim_t v) {
    return v == DNNL_RUNTIME_DIM_VAL ? std::string("*") : num(v);
}

std::string dims_str(const memory_desc_t &md) {
    std::string s;
    for (int d = 0; d < md.ndims; ++d)
        s += (d ? "x" : "") + dim_str(md.dims[d]);
    return s;
}

// oneDNN's "descriptor style": mb, ic, then the spatial sizes.
std::string desc_str(const memory_desc_t &md) {
    const dim_t *d = md.dims;
    const int nd = md.ndims;
    if (nd >= 6) return dims_str(md);
    if (nd == 1) return "x" + num(d[0]);
    std::string s = "mb" + num(d[0]) + "ic" + num(d[1]);
    if (nd >= 5) s += "id" + num(d[nd - 3]);
    if (nd >= 4) s += "ih" + num(d[nd - 2]);
    if (nd >= 3) s += "iw" + num(d[nd - 1]);
    return s;
}

int runtime_mask(const memory_desc_t &md) {
    int mask = 0;
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == DNNL_RUNTIME_DIM_VAL) mask |= 1 << d;
    return mask;
}

std::string norm_flags(unsigned f) {
    std::string s;
    if (f & dnnl_use_global_stats) s += "G";
    if (f & dnnl_use_scale) s += "C";
    if (f & dnnl_use_shift) s += "H";
    if (f & dnnl_fuse_norm_relu) s += "R";
    if (f & dnnl_fuse_norm_add_relu) s += "A";
    if (f & dnnl_rms_norm) s += "M";
    return s;
}

std::string scalar_str(const field_scalar_t &v) {
    switch (v.kind) {
    case field_scalar_t::real:
        return real(v.f);
    case field_scalar_t::alg_kind:
        return dnnl_alg_kind2str((dnnl_alg_kind_t)v.i);
    case field_scalar_t::prop_kind:
        return dnnl_prop_kind2str((dnnl_prop_kind_t)v.i);
    case field_scalar_t::data_type:
        return dnnl_dt2str((dnnl_data_type_t)v.i);
    case field_scalar_t::rnn_direction:
        return dnnl_rnn_direction2str((dnnl_rnn_direction_t)v.i);
    default:
        return num(v.i);
    }
}

// The spatial problem of convolution-like kinds: `with_kernel` adds
// kernel, stride, dilation and padding per dimension; the kernel comes
// from the weights or (pooling) from a `kernel` field.
std::string spatial_str(const desc_fields_t &f, const memory_desc_t &src,
        const memory_desc_t &dst, const memory_desc_t *wei,
        const char *dilation, bool with_kernel) {
    const int sp = src.ndims - 2;
    std::string s;
    for (int i = 0; i < sp && sp <= 3; ++i) {
        const std::string n(1, "dhw"[3 - sp + i]);
        s += "_i" + n + num(src.dims[2 + i]) + "o" + n + num(dst.dims[2 + i]);
        if (!with_kernel) continue;
        const dim_t k =
                wei ? wei->dims[wei->ndims - sp + i] : f.at("kernel", i);
        s += "k" + n + num(k) + "s" + n + num(f.at("strides", i)) + "d" + n
             + num(f.at(dilation, i)) + "p" + n + num(f.at("padding_l", i));
    }
    return s;
}

const memory_desc_t &first_md(
        const desc_fields_t &f, std::initializer_list<const char *> names) {
    static const memory_desc_t empty = zero_md();
    for (const char *n : names)
        if (const memory_desc_t *md = f.md_of(n)) return *md;
    return empty;
}

std::string generated(const desc_fields_t &f, const std::string &what) {
    const memory_desc_t &src = first_md(f, {"src", "diff_src"});
    const memory_desc_t &dst = first_md(f, {"dst", "diff_dst"});
    if (src.ndims < 2 || dst.ndims < 2) return "";
    const std::string mb_ic = "mb" + num(src.dims[0]) + "ic" + num(src.dims[1]);
    if (what == "@conv" || what == "@conv_fused_dw") {
        const memory_desc_t &wei = first_md(f, {"weights", "diff_weights"});
        const bool groups = wei.ndims == src.ndims + 1;
        // With a depthwise post-op oneDNN prints the input's spatial
        // sizes as the output's.
        const memory_desc_t &out = what == "@conv" ? dst : src;
        return (groups ? "g" + num(wei.dims[0]) : std::string()) + "mb"
               + num(src.dims[0]) + "_ic" + num(src.dims[1]) + "oc"
               + num(dst.dims[1])
               + spatial_str(f, src, out, &wei, "dilates", true);
    }
    if (what == "@pool")
        return mb_ic + spatial_str(f, src, dst, nullptr, "dilation", true);
    if (what == "@resampling")
        return mb_ic + spatial_str(f, src, dst, nullptr, nullptr, false);
    return "";
}

// One `{...}` placeholder.
std::string value(const desc_fields_t &f, const std::string &spec) {
    if (!spec.empty() && spec[0] == '@') return generated(f, spec);
    size_t start = 0;
    while (start <= spec.size()) {
        size_t bar = spec.find('|', start);
        if (bar == std::string::npos) bar = spec.size();
        const std::string alt = spec.substr(start, bar - start);
        const size_t colon = alt.find(':');
        const std::string name = alt.substr(0, colon);
        const std::string fmt =
                colon == std::string::npos ? "" : alt.substr(colon + 1);
        start = bar + 1;
        if (f.lists.count(name)) { // a list of descriptors: their dims
            std::string s;
            for (const auto &md : *f.lists.at(name))
                s += (s.empty() ? "" : ":") + dims_str(md);
            return s;
        }
        if (const memory_desc_t *md = f.md_of(name)) {
            if (fmt.empty() || fmt == "dims") return dims_str(*md);
            if (fmt == "desc") return desc_str(*md);
            if (fmt == "rtmask") return num(runtime_mask(*md));
            if (fmt[0] == 'd')
                return dim_str(md->dims[std::stoi(fmt.substr(1))]);
            return "";
        }
        auto it = f.scalars.find(name);
        if (it == f.scalars.end()) continue;
        if (fmt == "nflags") return norm_flags((unsigned)it->second.i);
        if (fmt == "rflags")
            return (it->second.i & dnnl_rnn_flags_diff_weights_overwrite) ? "O"
                                                                          : "";
        return scalar_str(it->second);
    }
    return "";
}

std::string expand(const desc_fields_t &f, const std::string &pattern) {
    std::string out;
    for (size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '{') {
            const size_t e = pattern.find('}', i);
            out += value(f, pattern.substr(i + 1, e - i - 1));
            i = e;
        } else if (c == '[') {
            const size_t bar = pattern.find('|', i);
            const size_t e = pattern.find(']', i);
            const std::string cond = pattern.substr(i + 1, bar - i - 1);
            if (cond == "rt" ? f.any_runtime() : f.present(cond))
                out += expand(f, pattern.substr(bar + 1, e - bar - 1));
            i = e;
        } else {
            out += c;
        }
    }
    return out;
}

struct kind_patterns_t {
    primitive_kind_t kind;
    const char *aux;
    const char *problem;
};

// What oneDNN 3.13 prints in the auxiliary and problem fields per kind.
const kind_patterns_t patterns[] = {
        {dnnl_eltwise, "alg:{alg_kind} alpha:{alpha} beta:{beta}",
                "{src|dst|diff_dst}"},
        {dnnl_softmax, "alg:{alg_kind} axis:{axis}", "{src|dst}"},
        {dnnl_batch_normalization, "flags:{flags:nflags}", "{src:desc}"},
        {dnnl_layer_normalization, "flags:{flags:nflags}", "{src}"},
        {dnnl_group_normalization, "flags:{flags:nflags}",
                "g{groups}{src:desc}"},
        {dnnl_lrn, "alg:{alg_kind}", "{src:desc}ls{local_size}beta{beta}"},
        {dnnl_pooling, "alg:{alg_kind}", "{@pool}"},
        {dnnl_resampling, "alg:{alg_kind}", "{@resampling}"},
        {dnnl_convolution, "alg:{alg}", "{@conv}"},
        {dnnl_deconvolution, "alg:{alg}", "{@conv}"},
        {dnnl_inner_product, "",
                "{src:desc|diff_src:desc}oc{weights:d0|diff_weights:d0}"},
        {dnnl_matmul, "[rt|runtime_dims_masks:{src:rtmask}:{weights:rtmask}]",
                "{src}:{weights}"},
        {dnnl_reorder, "[rt|runtime-dim-mask:{src:rtmask}]", "{src}"},
        {dnnl_sum, "", "{dst}"},
        {dnnl_concat, "axis:{concat_dimension}", "{srcs}"},
        {dnnl_binary, "alg:{alg_kind}", "{src0}:{src1}[src2|:{src2}]"},
        {dnnl_prelu, "", "{src}:{weights}"},
        {dnnl_reduction, "alg:{alg_kind} p:{p} eps:{eps}", "{src}:{dst}"},
        {dnnl_shuffle, "axis:{axis} group:{group_size}", "{src|dst}"},
        {dnnl_rnn,
                "alg:{cell_kind} direction:{direction} "
                "activation:{activation_kind} flags:{flags:rflags}",
                "l{weights_layer:d0}t{src_layer:d0}mb{src_layer:d1}"
                "sic{weights_iter:d2}slc{weights_layer:d2}"
                "dhc{weights_layer:d4}"
                "dic{weights_projection:d3|weights_layer:d4}"},
};

const kind_patterns_t *patterns_of(primitive_kind_t kind) {
    for (const auto &p : patterns)
        if (p.kind == kind) return &p;
    return nullptr;
}

// One memory descriptor of the line: its label, the argument whose
// descriptor is printed, and the descriptor field of the operation that
// says whether the user left it `any` ("" for none). An entry prints the
// zero descriptor ("undef::undef:::") when the argument is not in use;
// `any_use` entries print whatever descriptor the argument has.
struct md_entry_t {
    std::string label;
    int arg;
    std::string user_field;
    bool any_use = false;
    std::string suffix;
};

const char *field_of(int arg) {
    switch (arg) {
    case DNNL_ARG_SRC:
        return "src";
    case DNNL_ARG_DST:
        return "dst";
    case DNNL_ARG_WEIGHTS:
        return "weights";
    case DNNL_ARG_BIAS:
        return "bias";
    case DNNL_ARG_DIFF_SRC:
        return "diff_src";
    case DNNL_ARG_DIFF_DST:
        return "diff_dst";
    case DNNL_ARG_DIFF_WEIGHTS:
        return "diff_weights";
    case DNNL_ARG_DIFF_BIAS:
        return "diff_bias";
    default:
        return "";
    }
}

md_entry_t e(const char *label, int arg, const char *user = nullptr) {
    return {label, arg, user ? user : field_of(arg)};
}

bool nonzero(const primitive_desc_t &pd, int arg) {
    const memory_desc_t *md = pd.arg_md(arg);
    return md && !is_zero_md(*md) && pd.arg_usage(arg) != arg_usage_t::unused;
}

bool has_dw_post_op(const primitive_desc_t &pd) {
    for (const auto &po : pd.attr()->post_ops.entries)
        if (po.kind == post_op_kind_t::dw_conv) return true;
    return false;
}

// The RNN's list: the optional states and weights only when present; the
// backward's projection and bias print the forward descriptors, as oneDNN
// prints them.
std::vector<md_entry_t> rnn_entries(const primitive_desc_t &pd, bool fwd) {
    std::vector<md_entry_t> v;
    auto add = [&](const char *label, int arg, const char *user,
                       bool optional) {
        if (!optional || nonzero(pd, arg)) v.push_back(e(label, arg, user));
    };
    add("src_layer", DNNL_ARG_SRC_LAYER, "src_layer", false);
    add("src_iter", DNNL_ARG_SRC_ITER, "src_iter", true);
    add("wei_layer", DNNL_ARG_WEIGHTS_LAYER, "weights_layer", false);
    add("wei_iter", DNNL_ARG_WEIGHTS_ITER, "weights_iter", false);
    add("wei_peephole", DNNL_ARG_WEIGHTS_PEEPHOLE, "weights_peephole", true);
    add("wei_proj", DNNL_ARG_WEIGHTS_PROJECTION, "weights_projection", true);
    add("bias", DNNL_ARG_BIAS, "bias", true);
    add("dst_layer", DNNL_ARG_DST_LAYER, "dst_layer", false);
    add("dst_iter", DNNL_ARG_DST_ITER, "dst_iter", true);
    if (fwd) return v;
    const bool iter = nonzero(pd, DNNL_ARG_SRC_ITER);
    add("diff_src_layer", DNNL_ARG_DIFF_SRC_LAYER, "diff_src_layer", false);
    if (iter)
        add("diff_src_iter", DNNL_ARG_DIFF_SRC_ITER, "diff_src_iter", false);
    add("diff_wei_layer", DNNL_ARG_DIFF_WEIGHTS_LAYER, "diff_weights_layer",
            false);
    add("diff_wei_iter", DNNL_ARG_DIFF_WEIGHTS_ITER, "diff_weights_iter",
            false);
    if (nonzero(pd, DNNL_ARG_WEIGHTS_PEEPHOLE))
        add("diff_wei_peephole", DNNL_ARG_DIFF_WEIGHTS_PEEPHOLE,
                "diff_weights_peephole", false);
    if (nonzero(pd, DNNL_ARG_WEIGHTS_PROJECTION))
        add("diff_wei_proj", DNNL_ARG_WEIGHTS_PROJECTION, "weights_projection",
                false);
    if (nonzero(pd, DNNL_ARG_BIAS))
        add("diff_bias", DNNL_ARG_BIAS, "bias", false);
    add("diff_dst_layer", DNNL_ARG_DIFF_DST_LAYER, "diff_dst_layer", false);
    if (nonzero(pd, DNNL_ARG_DST_ITER))
        add("diff_dst_iter", DNNL_ARG_DIFF_DST_ITER, "diff_dst_iter", false);
    return v;
}

// The descriptors oneDNN prints per kind, with its labels. Backward
// descriptors of the convolution-like kinds print the gradients under the
// forward labels ("src" for diff_src), as oneDNN's "invariant" ones.
std::vector<md_entry_t> md_entries(
        const primitive_desc_t &pd, const desc_fields_t &f) {
    const auto prop = (prop_kind_t)f.integer("prop_kind");
    const bool fwd =
            prop == dnnl_forward_training || prop == dnnl_forward_inference;
    const bool bwd_d = prop == dnnl_backward_data;
    const bool bwd_w = prop == dnnl_backward_weights;
    const int src = fwd ? DNNL_ARG_SRC : DNNL_ARG_DIFF_SRC;
    const int dst = fwd ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST;
    const unsigned flags = (unsigned)f.integer("flags");
    std::vector<md_entry_t> v;
    switch (pd.kind()) {
    case dnnl_eltwise: {
        // The tensor the algorithm reads: dst for *_use_dst_for_bwd.
        const int data = pd.arg_usage(DNNL_ARG_SRC) != arg_usage_t::unused
                                 ? DNNL_ARG_SRC
                                 : DNNL_ARG_DST;
        v = {e("data", data)};
        if (!fwd) v.push_back(e("diff", DNNL_ARG_DIFF_SRC));
        return v;
    }
    case dnnl_batch_normalization:
    case dnnl_lrn:
        v = {e("data", DNNL_ARG_SRC)};
        if (!fwd) v.push_back(e("diff", DNNL_ARG_DIFF_SRC));
        return v;
    case dnnl_shuffle:
        return {e("data", src)};
    case dnnl_softmax:
        v = {e("src", src), e("dst", DNNL_ARG_DST)};
        if (nonzero(pd, DNNL_ARG_DIFF_DST))
            v.push_back(e("diff_dst", DNNL_ARG_DIFF_DST));
        return v;
    case dnnl_group_normalization:
        v = {e("src", DNNL_ARG_SRC), e("dst", dst)};
        if (!fwd) v.push_back(e("diff_src", DNNL_ARG_DIFF_SRC));
        return v;
    case dnnl_layer_normalization: {
        md_entry_t stats = e("stats", DNNL_ARG_MEAN, "stat");
        v = {e("src", DNNL_ARG_SRC), e("dst", dst), stats};
        const bool scale = flags & dnnl_use_scale;
        const bool shift = flags & dnnl_use_shift;
        if (scale) v.push_back({"scale", DNNL_ARG_SCALE, "", true});
        if (shift) v.push_back({"shift", DNNL_ARG_SHIFT, "", true});
        if (fwd) return v;
        v.push_back(e("diff_src", DNNL_ARG_DIFF_SRC));
        if (scale) v.push_back(e("diff_scale", DNNL_ARG_DIFF_SCALE));
        if (shift) v.push_back(e("diff_shift", DNNL_ARG_DIFF_SHIFT));
        return v;
    }
    case dnnl_prelu:
        v = {e("data", DNNL_ARG_SRC), e("wei", DNNL_ARG_WEIGHTS)};
        if (nonzero(pd, DNNL_ARG_DIFF_SRC))
            v.push_back(e("diff", DNNL_ARG_DIFF_SRC));
        if (nonzero(pd, DNNL_ARG_DIFF_WEIGHTS))
            v.push_back(e("diff_wei", DNNL_ARG_DIFF_WEIGHTS));
        return v;
    case dnnl_pooling:
        v = {e("src", src), e("dst", dst)};
        if (nonzero(pd, DNNL_ARG_WORKSPACE))
            v.push_back(e("ws", DNNL_ARG_WORKSPACE, ""));
        return v;
    case dnnl_resampling:
        return {e("src", src), e("dst", dst)};
    case dnnl_convolution:
    case dnnl_deconvolution:
    case dnnl_inner_product: {
        v = {e("src", bwd_d ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC),
                e("wei", bwd_w ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS),
                e("bia", bwd_w ? DNNL_ARG_DIFF_BIAS : DNNL_ARG_BIAS)};
        if (!has_dw_post_op(pd)) {
            v.push_back(e("dst", dst));
            return v;
        }
        // A depthwise post-op: the intermediate tensor (flagged as
        // the user's dst), the depthwise weights and bias, then the
        // final dst, whose layout the user did not give.
        const int dw = DNNL_ARG_ATTR_POST_OP_DW;
        v.push_back({"src_fused", dw | DNNL_ARG_SRC, "dst", true});
        v.push_back({"wei_fused", dw | DNNL_ARG_WEIGHTS, ""});
        v.push_back({"bia_fused", dw | DNNL_ARG_BIAS, ""});
        v.push_back({"dst", DNNL_ARG_DST, ""});
        return v;
    }
    case dnnl_matmul: {
        v = {e("src", DNNL_ARG_SRC), e("wei", DNNL_ARG_WEIGHTS)};
        if (const memory_desc_t *b = f.md_of("bias")) {
            int mask = 0;
            for (int d = 0; d < b->ndims; ++d)
                if (b->dims[d] != 1) mask |= 1 << d;
            md_entry_t bia = e("bia", DNNL_ARG_BIAS);
            bia.suffix = "_mask" + num(mask);
            v.push_back(bia);
        }
        v.push_back(e("dst", DNNL_ARG_DST));
        return v;
    }
    case dnnl_binary:
        v = {e("src", DNNL_ARG_SRC_0, "src0"),
                e("src", DNNL_ARG_SRC_1, "src1")};
        if (f.md_of("src2")) v.push_back(e("src", DNNL_ARG_SRC_2, "src2"));
        v.push_back(e("dst", DNNL_ARG_DST));
        return v;
    case dnnl_sum:
    case dnnl_concat:
        for (int i = 0;
                pd.arg_usage(DNNL_ARG_MULTIPLE_SRC + i) != arg_usage_t::unused;
                ++i)
            v.push_back(e("src", DNNL_ARG_MULTIPLE_SRC + i, ""));
        v.push_back(e("dst", DNNL_ARG_DST));
        return v;
    case dnnl_rnn:
        return rnn_entries(pd, fwd);
    default:
        return {e("src", DNNL_ARG_SRC), e("dst", DNNL_ARG_DST)};
    }
}

} // namespace

std::string verbose_mds_str(const primitive_desc_t &pd) {
    const desc_fields_t f(*pd.op_desc());
    std::string s;
    for (const md_entry_t &m : md_entries(pd, f)) {
        // The descriptor as the user may query it (matmul's arg_md hides
        // one with runtime dims from the execution checks).
        const memory_desc_t *md = nullptr;
        if (pd.query(dnnl_query_exec_arg_md, m.arg, &md) != dnnl_success)
            md = pd.arg_md(m.arg);
        const bool used =
                m.any_use || pd.arg_usage(m.arg) != arg_usage_t::unused;
        const memory_desc_t *user =
                m.user_field.empty()
                        ? nullptr
                        : pd.op_desc()->field_md(m.user_field.c_str());
        const bool user_any = user && user->format_kind == dnnl_format_kind_any;
        if (!s.empty()) s += " ";
        s += m.label + ":"
             + (md && used ? md_verbose_str(*md, user_any)
                           : md_verbose_str(zero_md()))
             + m.suffix;
    }
    return s;
}

std::string verbose_engine_str(
        const primitive_desc_t &pd, const std::string &engine) {
    if (pd.kind() != dnnl_reorder) return engine;
    // A reorder between engines names both, "cpu2gpu", as oneDNN.
    const desc_fields_t f(*pd.op_desc());
    const auto src = (engine_kind_t)f.integer("src_engine_kind");
    const auto dst = (engine_kind_t)f.integer("dst_engine_kind");
    if (src == dst) return engine;
    return std::string(dnnl_engine_kind2str(src)) + "2"
            + dnnl_engine_kind2str(dst);
}

std::string verbose_aux_str(const primitive_desc_t &pd) {
    const kind_patterns_t *p = patterns_of(pd.kind());
    return p ? expand(desc_fields_t(*pd.op_desc()), p->aux) : "";
}

std::string verbose_problem_str(const primitive_desc_t &pd) {
    const kind_patterns_t *p = patterns_of(pd.kind());
    if (!p) return "";
    if (pd.kind() == dnnl_convolution && has_dw_post_op(pd))
        return expand(desc_fields_t(*pd.op_desc()), "{@conv_fused_dw}");
    return expand(desc_fields_t(*pd.op_desc()), p->problem);
}

} // namespace impl
} // namespace dnnl
