// Glue of the gpu convolution and deconvolution tests
// (test_ocl_convolution.cpp, test_ocl_deconvolution.cpp): a problem
// description covering both operations and the three propagation kinds,
// layouts, data types, quantization and post-ops; run_case() creates the
// primitive on the gpu engine, feeds it values exact in every data type,
// and compares with the naive double-precision reference of
// tests/reference/conv_ref.*.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_primitive_fixture.hpp"
#include "oneapi/dnnl/dnnl.hpp"
#include "primitives/tensor_glue.hpp"
#include "reference/conv_ref.hpp"

namespace ocl_conv_glue {

using namespace tensor_glue;
using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;

inline bool have_gpu() {
    return dnnl_engine_get_count(dnnl_gpu) > 0;
}
inline dnnl::engine &gpu() {
    static dnnl::engine e(dnnl::engine::kind::gpu, 0);
    return e;
}
inline dnnl::stream &gpu_stream() {
    static dnnl::stream s(gpu());
    return s;
}

#define SKIP_WITHOUT_GPU()                                                     \
    do {                                                                       \
        if (!ocl_conv_glue::have_gpu())                                        \
            GTEST_SKIP() << "no OpenCL device for the gpu engine";             \
    } while (0)

// Sizes as oneDNN's deconvolution / convolution take them: `in` are the
// source's spatial sizes, ic / oc the source's / destination's channels.
struct shape_t {
    std::string name;
    int64_t mb = 1, g = 1, ic = 1, oc = 1;
    std::vector<int64_t> in, k, s, d, pl, pr;
};

inline shape_t shp(const char *name, int64_t mb, int64_t g, int64_t ic,
        int64_t oc, std::vector<int64_t> in, std::vector<int64_t> k,
        std::vector<int64_t> st = {}, std::vector<int64_t> dl = {},
        std::vector<int64_t> pl = {}, std::vector<int64_t> pr = {}) {
    shape_t s;
    s.name = name;
    s.mb = mb, s.g = g, s.ic = ic, s.oc = oc;
    s.in = in, s.k = k;
    const size_t n = in.size();
    s.s = st.empty() ? std::vector<int64_t>(n, 1) : st;
    s.d = dl.empty() ? std::vector<int64_t>(n, 0) : dl;
    s.pl = pl.empty() ? std::vector<int64_t>(n, 0) : pl;
    s.pr = pr.empty() ? s.pl : pr;
    return s;
}

enum class fmt_t { plain, cl, blocked, any };
enum class kind_t { fwd, bwd_d, bwd_w };

struct po_t {
    enum what_t { eltwise, sum, binary } what = eltwise;
    algorithm alg = algorithm::eltwise_relu;
    float alpha = 0.f, beta = 0.f, scale = 1.f;
    int32_t zp = 0;
    int mask = 0; // binary: the destination dims src1 varies over
};

struct quant_t {
    float src_scale = 0.f;                   // 0: none
    std::vector<float> wei_scale, dst_scale; // one: common, else per channel
    std::vector<int32_t> src_zp, dst_zp;     // one: common, else per channel
    std::vector<int32_t> wei_zp;             // empty or one (common)
};

struct case_t {
    shape_t sh;
    bool deconv = false;
    kind_t kind = kind_t::fwd;
    fmt_t act = fmt_t::plain, wei = fmt_t::plain;
    memory::data_type src = memory::data_type::f32,
                      weights = memory::data_type::f32,
                      dst = memory::data_type::f32,
                      bias_dt = memory::data_type::f32;
    bool bias = true;
    quant_t q;
    std::vector<po_t> po;
    bool user_scratchpad = false; // pass the pd's scratchpad as an argument
    bool winograd = false; // forward with convolution_winograd
};

// Spatial sizes of the destination.
std::vector<int64_t> out_sp(const shape_t &s, bool deconv);
conv_ref::prb_t to_prb(const shape_t &s, bool deconv);
memory::desc act_md(const memory::dims &d, memory::data_type t, fmt_t f);
memory::desc wei_md(
        const memory::dims &d, memory::data_type t, fmt_t f, bool groups);

// Creates, runs and checks one case (propagation kind c.kind).
void run_case(const case_t &c);

// f64 (the device must have cl_khr_fp64): every propagation kind over
// `shapes` in plain and channels-last layouts, computed in double (f64
// values below f32's precision, a 1e-13 tolerance); a post-op and an f32
// dst are refused.
void run_f64_sweep(const std::vector<shape_t> &shapes, bool deconv);

// The status of creating the primitive descriptor of `c` (no execution).
dnnl_status_t create_status(const case_t &c);

} // namespace ocl_conv_glue
