// Gpu int8 RNN inference: the dequantized weights' place and launches,
// the scales' device buffer, the copies' quantization and the states'
// grid (see rnn_int8.hpp).
#include "gpu/ocl/rnn/rnn_int8.hpp"

#include <vector>

#include "common/rnn_qparams.hpp"
#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_utils.hpp"
#include "gpu/ocl/rnn/rnn_exec.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

// A set of weights scales as rnn_dequant_w reads it: one scale (also
// when the attribute gives none, which means 1) or one per column.
bool per_col(const rnn_weights_qparams_t &q) {
    return !q.scales.empty() && q.mask != 0;
}

void append_scales(std::vector<float> &out, const rnn_weights_qparams_t &q) {
    if (q.scales.empty())
        out.push_back(1.f);
    else if (q.mask == 0)
        out.push_back(q.scales[0]);
    else
        out.insert(out.end(), q.scales.begin(), q.scales.end());
}

} // namespace

status_t rnn_int8_weights_mds(const rnn_plan_t &p, memory_desc_t mds[3]) {
    const rnn_dims_t &d = p.dims;
    const dim_t L = d.L, D = d.D;
    const dims_t wl = {L, D, d.SLC, d.G, d.DHC}, wi = {L, D, d.SIC, d.G, d.DHC},
                 wp = {L, D, d.DHC, d.DIC};
    // The same order as the CPU's copies: layer, iteration, projection.
    dim_t off = (dim_t)(p.wdeq_off / sizeof(float));
    DNNL_CHECK(md_init_by_tag(mds[0], 5, wl, dnnl_f32, dnnl_ldigo));
    mds[0].offset0 = off;
    off += L * D * d.SLC * d.ldg();
    DNNL_CHECK(md_init_by_tag(mds[1], 5, wi, dnnl_f32, dnnl_ldigo));
    mds[1].offset0 = off;
    off += L * D * d.SIC * d.ldg();
    mds[2] = zero_md();
    if (!d.projection) return dnnl_success;
    DNNL_CHECK(md_init_by_tag(mds[2], 4, wp, dnnl_f32, dnnl_ldio));
    mds[2].offset0 = off;
    return dnnl_success;
}

status_t rnn_int8_scales_t::create(
        engine_t *engine, const primitive_attr_t &attr, const rnn_dims_t &d) {
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!e) return dnnl_invalid_arguments;
    std::vector<float> v;
    append_scales(v, attr.rnn_weights_qparams);
    proj_off = (dim_t)v.size();
    if (d.projection) append_scales(v, attr.rnn_weights_projection_qparams);
    w_per_col = per_col(attr.rnn_weights_qparams);
    p_per_col = per_col(attr.rnn_weights_projection_qparams);
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(e->context(),
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(float),
            v.data(), &err);
    if (err != CL_SUCCESS) return check_cl(err, "clCreateBuffer");
    mem_.reset(m, [](cl_mem x) { clReleaseMemObject(x); });
    return dnnl_success;
}

cl_float2 rnn_copy_quant(const primitive_attr_t &attr) {
    cl_float2 q;
    q.s[0] = attr.rnn_data_qparams.scale;
    q.s[1] = attr.rnn_data_qparams.shift;
    return q;
}

cl_float4 rnn_state_qgrid(
        const primitive_attr_t &attr, bool int8, data_type_t dt) {
    cl_float4 g = {{0.f, 0.f, 0.f, 0.f}};
    if (!int8) return g;
    const rnn_state_grid_t q = rnn_state_grid(attr, dt);
    g.s[0] = q.scale;
    g.s[1] = q.shift;
    g.s[2] = q.lo;
    g.s[3] = q.hi;
    return g;
}

status_t rnn_exec_t::qgrid_rows(
        const rnn_loc_t &at, dim_t rows, dim_t cols, dim_t ld) const {
    kernel_args_t a;
    a.mem(at.m).i64(at.off).i64(ld).value(qgrid);
    a.i32((int32_t)rows).i32((int32_t)cols);
    return prim->kernel(ocl_rnn_t::k_qgrid_rows)
            .enqueue(ctx, nd_range_t({(size_t)cols, (size_t)rows}), a);
}

status_t rnn_exec_t::prepare_int8() {
    const rnn_int8_scales_t &sc = prim->int8_scales();
    // f32 copy of s8 weights with `rows` = L x D x K rows of G x C
    // columns; `w` 5-D (ldigo-like) or, with G = 1, 4-D (ldio-like).
    auto dequantize = [&](const rnn_tensor_t &w, const memory_desc_t &to,
                              dim_t K, dim_t G, dim_t C, dim_t sc_off,
                              bool per_col) {
        const dim_t *s = w.st();
        const dim_t rows = dm.L * dm.D * K;
        cl_long4 rs = {{s[0], s[1], s[2], 0}};
        kernel_args_t a;
        a.mem(w.m).i64(w.off(0)).value(rs);
        a.i64(G > 1 ? s[3] : 0).i64(G > 1 ? s[4] : s[3]);
        a.i32((int32_t)dm.D).i32((int32_t)K).i32((int32_t)G).i32((int32_t)C);
        a.mem(sc.mem()).i64(sc_off).i32(per_col ? 1 : 0);
        a.mem(scratch).i64(to.offset0).i64(rows);
        return prim->kernel(ocl_rnn_t::k_dequant_w)
                .enqueue(ctx, nd_range_t({(size_t)(G * C), (size_t)rows}), a);
    };
    // The scales buffer holds the projection's after the weights'.
    const memory_desc_t *mds = pd->int8_weights_mds();
    DNNL_CHECK(
            dequantize(w_layer, mds[0], dm.SLC, dm.G, dm.DHC, 0, sc.w_per_col));
    DNNL_CHECK(
            dequantize(w_iter, mds[1], dm.SIC, dm.G, dm.DHC, 0, sc.w_per_col));
    if (dm.projection)
        DNNL_CHECK(dequantize(
                w_proj, mds[2], dm.DHC, 1, dm.DIC, sc.proj_off, sc.p_per_col));
    // From here on the GEMMs read the f32 copies.
    w_layer = {scratch, &mds[0]};
    w_iter = {scratch, &mds[1]};
    if (dm.projection) w_proj = {scratch, &mds[2]};
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
