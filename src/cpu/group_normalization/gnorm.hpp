// CPU group normalization: the primitive, its descriptor and the plan it
// executes. Tensors are walked in one of two orders:
//  ncsp: rows of the spatial points of one (n, c), e.g. nchw; a group is
//        C/G such rows;
//  nxc:  rows of the C channels of one (n, spatial point), e.g. nhwc;
//        statistics then accumulate per channel across rows.
// A tensor that fits neither (blocked layouts, strides that do not merge)
// is converted to a dense ncsp f32 copy and the ncsp order is used.
#pragma once

#include <string>
#include <vector>

#include "common/group_normalization_pd.hpp"
#include "cpu/cpu_primitive.hpp"
#include "cpu/eltwise/eltwise_kernels.hpp"
#include "cpu/norm_kernels/norm_kernels.hpp"
#include "cpu/postops/postops.hpp"

namespace dnnl {
namespace impl {
struct exec_ctx_t;
namespace cpu {
namespace gnorm {

// Element offset of (n, c, sp) = off0 + n * sn + c * sc + sp * ssp.
struct view_t {
    data_type_t dt = dnnl_f32;
    dim_t off0 = 0, sn = 0, sc = 0, ssp = 0;
    bool direct = true; // false: read / written through a dense f32 copy
};

struct plan_t {
    bool nxc = false;
    dim_t N = 0, C = 0, SP = 0, G = 0, cpg = 0;
    // Forward: src, dst. Backward: src, diff_dst, diff_src.
    view_t v[3];
    int nt = 0;
    status_t init(const memory_desc_t *const *mds, int n, dim_t groups);
};

// Conversions between stored data types and f32 rows.
struct cvt_t {
    const eltwise::kernel_table_t *k = nullptr;
    void to_f32(data_type_t dt, const void *src, float *dst, dim_t n) const;
    void from_f32(data_type_t dt, const float *src, void *dst, dim_t n) const;
};

// Pointer to element (n, c, sp) of tensor `t` in its storage.
inline char *at(const view_t &v, void *base, dim_t n, dim_t c, dim_t sp) {
    return static_cast<char *>(base)
           + (v.off0 + n * v.sn + c * v.sc + sp * v.ssp)
                     * (dim_t)data_type_size(v.dt);
}

// Row (n, c, sp) of `len` elements as f32: the tensor itself when it is
// f32, else converted into `buf`.
inline const float *read_row(const cvt_t &cv, const view_t &v, const void *base,
        dim_t n, dim_t c, dim_t sp, dim_t len, float *buf) {
    const char *p = at(v, const_cast<void *>(base), n, c, sp);
    if (v.dt == dnnl_f32) return reinterpret_cast<const float *>(p);
    cv.to_f32(v.dt, p, buf, len);
    return buf;
}

// Where an output row is computed: in the tensor when it is f32, else in
// `buf` (then stored with write_row).
inline float *out_row(
        const view_t &v, void *base, dim_t n, dim_t c, dim_t sp, float *buf) {
    return v.dt == dnnl_f32 ? reinterpret_cast<float *>(at(v, base, n, c, sp))
                            : buf;
}
inline void write_row(const cvt_t &cv, const view_t &v, void *base, dim_t n,
        dim_t c, dim_t sp, dim_t len, const float *y) {
    if (v.dt != dnnl_f32) cv.from_f32(v.dt, y, at(v, base, n, c, sp), len);
}

// Threads for a tensor of `nelems` elements (at least 16K elements each).
int nthr_for(dim_t nelems);

template <bool fwd>
struct gnorm_t : public primitive_t {
    struct pd_t : public cpu_pd_t<group_normalization_pd_t, gnorm_t> {
        using cpu_pd_t<group_normalization_pd_t, gnorm_t>::cpu_pd_t;
        // Binary select post-ops go through the shared post-op code.
        bool handles_select_post_op() const override { return true; }
        const char *name() const override { return name_.c_str(); }
        status_t init(engine_t *);

        plan_t plan;
        postops::postops_t po;
        const norm::kernels_t *k = nullptr;
        cvt_t cvt;
        std::string name_;
    };
    using primitive_t::primitive_t;
    status_t execute(const exec_ctx_t &ctx) const override;

private:
    const pd_t *pd_() const { return static_cast<const pd_t *>(pd()); }
};

// Defined in gnorm_fwd.cpp and gnorm_bwd.cpp.
template <>
status_t gnorm_t<true>::execute(const exec_ctx_t &ctx) const;
template <>
status_t gnorm_t<false>::execute(const exec_ctx_t &ctx) const;

} // namespace gnorm
} // namespace cpu
} // namespace impl
} // namespace dnnl
