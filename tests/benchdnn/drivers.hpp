// Helpers shared by the primitive drivers (one file per driver family):
// descriptor parsing, directions, attribute setup, the driver table.
#pragma once

#include <initializer_list>
#include <map>
#include <string>

#include "attr.hpp"
#include "common.hpp"
#include "dnn_mem.hpp"
#include "execute.hpp"

namespace bd {

// "mb2ic16ih7oc16oh7kh3ph1n\"name\"" -> {mb:2, ic:16, ...}; '_' separators
// allowed; values may be reals ("eps1e-5"). The name goes to "name".
bool parse_named_desc(const std::string &s, std::map<std::string, std::string> &out);

// Descriptors of convolution-like problems ("g2mb1ic16ih7oc32oh7kh3ph1"):
// spatial values in order (d, h, w); only the last `nsp` are used, the
// others stay 1 (sizes, kernel, stride) or 0 (padding, dilation). Smaller
// spatial dims copy the bigger ones when missing (ih -> iw), output sizes
// and padding are deduced from each other (benchdnn's rules).
struct sp_desc_t {
    int64_t g = 1, mb = 2, ic = 0, oc = 0;
    int nsp = 0;
    int64_t i[3] = {1, 1, 1}, o[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1};
    int64_t p[3] = {0, 0, 0}, r[3] = {0, 0, 0}, d[3] = {0, 0, 0};
    std::string name;
    std::map<std::string, std::string> kv; // all parsed fields
    // The spatial dims in use, e.g. {ih, iw} for 2D.
    dims_t in_sp() const { return dims_t(i + 3 - nsp, i + 3); }
    dims_t out_sp() const { return dims_t(o + 3 - nsp, o + 3); }
    dims_t vec(const int64_t *v) const { return dims_t(v + 3 - nsp, v + 3); }
};
// `deconv`: the output is the deconvolution's (larger) output.
// `with_kernel`: the descriptor has output sizes/kernel (conv, pool); false for
// problems with only input sizes (bnorm, lrn).
bool parse_sp_desc(const std::string &str, sp_desc_t &d, bool with_kernel, bool deconv,
        std::string &why);

// --dir values.
enum class dir_t { fwd_d, fwd_i, fwd_b, bwd_d, bwd_w, bwd_wb, bwd_dw };
bool str2dir(const std::string &s, dir_t &d);
inline bool is_fwd(dir_t d) { return d == dir_t::fwd_d || d == dir_t::fwd_i || d == dir_t::fwd_b; }
dnnl::prop_kind fwd_prop(dir_t d); // forward_training or forward_inference

// Tag knob for a tensor: "any" or a named layout valid for ndims. Sets a
// skip reason when not valid.
bool get_tag(res_t &res, const std::string &s, int ndims, tag_t &tag);
bool get_dt(res_t &res, const std::string &s, dt_t &dt);
bool get_dts(res_t &res, const std::string &s, size_t n, std::vector<dt_t> &dts);

// Parses the attribute knobs and builds the library attribute (skipping the
// problem when something is not supported). quant_groups_ok: the driver's
// reference takes scales and zero points with groups and data types other
// than f32 / s32 (attr_rt_t::scale and zero_point index them).
bool prepare_attr(const problem_t &p, res_t &res, attr_spec_t &a, const dims_t &dst_dims,
        const mask_fn_t &mask_of, dnnl::primitive_attr &attr,
        bool quant_groups_ok = false);
// Fails-over to "skip" when attributes are given to a driver that has none.
bool no_attr(const problem_t &p, res_t &res);

// Skips the problem when one of `knobs` (accepted for compatibility, not
// implemented) has a value other than its default.
bool defaults_only(const problem_t &p, res_t &res, std::initializer_list<const char *> knobs);

// Typical fill ranges for "data" tensors by data type: small integers that
// keep sums exact in f32.
std::vector<float> fill_data(int64_t n, dt_t dt, uint64_t seed, bool non_negative = false);

inline std::vector<double> to_double(const std::vector<float> &v) {
    return std::vector<double>(v.begin(), v.end());
}

// A tolerance for `dt` of a value computed by a few f32 operations.
ref::tolerance_t float_tolerance(dt_t dt, double ulps_f32 = 8);

// Driver objects, one per --DRIVER.
extern const driver_t conv_driver, deconv_driver, ip_driver, matmul_driver, eltwise_driver,
        reorder_driver, binary_driver, softmax_driver, pool_driver, lnorm_driver,
        bnorm_driver, gnorm_driver, lrn_driver, shuffle_driver, resampling_driver,
        prelu_driver, reduction_driver, concat_driver, sum_driver, rnn_driver;

} // namespace bd
