// GEMM-based inner product: descriptor checks, scratchpad plan and the
// three propagation kinds.
#include "cpu/inner_product/gemm_inner_product.hpp"

#include <algorithm>
#include <cstdlib>
#include <initializer_list>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "cpu/gemm/gemm.hpp"
#include "common/ip_layout.hpp"
#include "cpu/inner_product/ip_packed_weights.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace inner_product {

namespace {

size_t align64(size_t x) { return (x + 63) / 64 * 64; }

bool one_of(data_type_t dt, std::initializer_list<data_type_t> l) {
    for (auto x : l)
        if (dt == x) return true;
    return false;
}

const dim_t *strides(const memory_desc_t &md) {
    return md.format_desc.blocking.strides;
}

struct scratch_t {
    scratch_t(void *booked, size_t booked_size, size_t need) {
        if (need == 0) return;
        if (booked && booked_size >= need) {
            ptr = (char *)booked;
            return;
        }
        owned = (char *)std::aligned_alloc(64, align64(need));
        ptr = owned;
    }
    ~scratch_t() { std::free(owned); }
    char *ptr = nullptr;
    char *owned = nullptr;
};

// Converts an f32 block into an output of type `dt` with row stride ld.
void store_block(data_type_t dt, const float *acc, dim_t ldacc, void *out,
        dim_t ldout, dim_t m, dim_t n) {
    const size_t sz = data_type_size(dt);
    for (dim_t i = 0; i < m; ++i)
        cvt_from_f32(dt, acc + i * ldacc, (char *)out + i * ldout * sz, n);
}

} // namespace

dim_t gemm_inner_product_t::pd_t::gm() const {
    return is_bwd_w() ? OC() : MB();
}
dim_t gemm_inner_product_t::pd_t::gn() const {
    return is_fwd() ? OC() : IC_total();
}
dim_t gemm_inner_product_t::pd_t::gk() const {
    return is_fwd() ? IC_total() : (is_bwd_d() ? OC() : MB());
}

bool gemm_inner_product_t::pd_t::data_types_ok() const {
    const data_type_t sdt = src_md_.data_type, wdt = weights_md_.data_type,
                      ddt = dst_md_.data_type;
    const data_type_t bdt = with_bias() ? bias_md_.data_type : dnnl_f32;
    if (is_fwd()) {
        if (is_int8_)
            return wdt == dnnl_s8
                    && one_of(ddt, {dnnl_f32, dnnl_s32, dnnl_s8, dnnl_u8, dnnl_bf16})
                    && one_of(bdt, {dnnl_f32, dnnl_s32, dnnl_s8, dnnl_u8, dnnl_bf16});
        return one_of(sdt, {dnnl_f32, dnnl_bf16, dnnl_f16}) && wdt == sdt
                && one_of(ddt, {dnnl_f32, sdt}) && one_of(bdt, {dnnl_f32, sdt});
    }
    if (is_bwd_d()) // src is diff_src, dst is diff_dst
        return one_of(ddt, {dnnl_f32, dnnl_bf16, dnnl_f16}) && wdt == ddt
                && one_of(sdt, {dnnl_f32, ddt});
    // backward weights: weights and bias are the diff_ ones
    return one_of(sdt, {dnnl_f32, dnnl_bf16, dnnl_f16}) && ddt == sdt
            && one_of(wdt, {dnnl_f32, sdt}) && one_of(bdt, {dnnl_f32, sdt});
}

// src and weights flatten the same way: equal strides over dims 1.. (both
// being dense by k_dense of src).
bool gemm_inner_product_t::pd_t::k_layout_ok() const {
    const dim_t *ss = strides(src_md_), *ws = strides(weights_md_);
    if (has_blocks(src_md_) || has_blocks(weights_md_)) {
        // Same inner blocks (none along OC) and outer strides over dims 1..
        const auto &sb = src_md_.format_desc.blocking,
                   &wb = weights_md_.format_desc.blocking;
        if (sb.inner_nblks != wb.inner_nblks) return false;
        for (int i = 0; i < sb.inner_nblks; ++i)
            if (sb.inner_blks[i] != wb.inner_blks[i]
                    || sb.inner_idxs[i] != wb.inner_idxs[i]
                    || wb.inner_idxs[i] == 0)
                return false;
        for (int d = 1; d < ndims(); ++d)
            if (ss[d] != ws[d] || weights_md_.padded_dims[d] != src_md_.dims[d])
                return false;
        return true;
    }
    for (int d = 1; d < ndims(); ++d)
        if (src_md_.dims[d] != 1 && ss[d] != ws[d]) return false;
    return true;
}

// Offsets of the weights' elements in the order src enumerates k, and of
// the weights' rows (any layouts: blocked offsets add up per dim).
void gemm_inner_product_t::pd_t::init_k_offsets() {
    const int nd = ndims();
    const dim_t K = IC_total();
    k_off_.assign(K, 0);
    dims_t pos = {};
    for (dim_t k = 0; k < K; ++k) {
        k_off_[elem_off(src_md_, pos)] = elem_off(weights_md_, pos);
        for (int d = nd - 1; d >= 1; --d) {
            if (++pos[d] < src_md_.dims[d]) break;
            pos[d] = 0;
        }
    }
    oc_off_.assign(OC(), 0);
    dims_t opos = {};
    for (dim_t oc = 0; oc < OC(); ++oc) {
        opos[0] = oc;
        oc_off_[oc] = elem_off(weights_md_, opos);
    }
}

status_t gemm_inner_product_t::pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    is_int8_ = one_of(src_md_.data_type, {dnnl_u8, dnnl_s8});
    if (!data_types_ok()) return dnnl_unimplemented;
    const bool wei_any = weights_md_.format_kind == dnnl_format_kind_any;
    DNNL_CHECK(init_formats(/* allow_blocked = */ true));
    // src (diff_src for backward data) defines the flattened K order; the
    // weights follow it directly or through a gather / scatter.
    if (!k_dense(src_md_)) return dnnl_unimplemented;
    // Backward weights writes blocked diff weights only without padding
    // (padding would have to be zeroed).
    if (is_bwd_w() && has_blocks(weights_md_)) {
        for (int d = 0; d < ndims(); ++d)
            if (weights_md_.padded_dims[d] != weights_md_.dims[d])
                return dnnl_unimplemented;
    }
    wei_gather_ = !k_layout_ok();
    if (wei_gather_) init_k_offsets();
    if (wei_any && is_fwd()) DNNL_CHECK(init_packed_weights());

    const dim_t M = gm(), N = gn(), K = gk();
    if (is_fwd()) {
        for (const auto &it : attr_.scales.items)
            if (it.e.data_type != dnnl_f32 || it.e.group_ndims != 0)
                return dnnl_unimplemented;
        for (const auto &r : attr_.rounding_modes)
            if (r.mode != (int)dnnl_rounding_mode_environment)
                return dnnl_unimplemented;
        if (!attr_.zero_points.empty()) return dnnl_unimplemented;
        // The epilogue broadcasts tensors of dst's rank: bias as (1, OC).
        memory_desc_t bias2d = zero_md();
        if (with_bias()) {
            const dim_t bs = strides(bias_md_)[0];
            const dims_t dims = {1, OC()};
            const dims_t st = {OC() * bs, bs};
            DNNL_CHECK(md_init_by_strides(bias2d, 2, dims, bias_md_.data_type, st));
            bias2d.offset0 = bias_md_.offset0;
        }
        DNNL_CHECK(epi_.init(attr_, dst_md_, with_bias() ? &bias2d : nullptr,
                is_int8_, 1, 1));
        const dim_t c_cs = strides(dst_md_)[1];
        const bool c_dt_is_acc
                = dst_md_.data_type == (is_int8_ ? dnnl_s32 : dnnl_f32);
        acc_direct_ = c_dt_is_acc && (c_cs == 1 || N == 1) && !epi_.po.has_sum();
    } else {
        if (!attr_.scales.empty() || !attr_.zero_points.empty()
                || !attr_.post_ops.entries.empty())
            return dnnl_unimplemented;
        // C is diff_src (backward data) or diff_weights (backward weights),
        // dense over the flattened K index by k_layout_ok.
        const memory_desc_t &c = is_bwd_d() ? src_md_ : weights_md_;
        acc_direct_ = c.data_type == dnnl_f32 && !(is_bwd_w() && wei_gather_);
    }
    name_ = std::string("gemm:")
            + (is_int8_ ? gemm::s32_kernel_name()
                        : gemm::f32_kernel_name(src_md_.data_type,
                                weights_md_.data_type, attr_.fpmath_mode));

    const int nthr = max_threads();
    const size_t acc_sz = 4;
    const dim_t max_rows = std::max<dim_t>(
            256, (dim_t)((8u << 20) / (acc_sz * std::max<dim_t>(N, 1))));
    chunk_ = std::max<dim_t>(1, acc_direct_ ? M : std::min(M, max_rows));
    acc_bytes_ = acc_direct_ ? 0 : (size_t)chunk_ * N * acc_sz;
    ws_bytes_ = gemm::gemm_workspace_size(chunk_, N, K, is_int8_, true, nthr);
    gather_bytes_ = wei_gather_ && !is_bwd_w()
            ? (size_t)OC() * IC_total() * data_type_size(weights_md_.data_type)
            : 0;
    book_scratchpad(align64(acc_bytes_) + align64(ws_bytes_) + align64(gather_bytes_));
    return dnnl_success;
}

// Forward weights given as `any` take the GEMM core's pre-packed B layout
// (read in place by every execution) where the kernel has one: s8 weights
// of 2D problems for the u8 x s8 quad kernels, f32 weights unless the
// minibatch is small enough for the unpacked small-M kernels.
status_t gemm_inner_product_t::pd_t::init_packed_weights() {
    if (wei_gather_) return dnnl_success;
    if (is_int8_) {
        const int nr = gemm::s32_packed_b_nr();
        if (nr == 0 || ndims() != 2) return dnnl_success;
        memory_desc_t md;
        if (packed_s8_weights_md(md, weights_md_, nr, wei_packed_k_) != dnnl_success)
            return dnnl_success;
        weights_md_ = md;
        wei_packed_ = true;
        return dnnl_success;
    }
    const int nr = gemm::f32_packed_b_nr(
            src_md_.data_type, weights_md_.data_type, attr_.fpmath_mode);
    if (nr == 0 || MB() <= 4) return dnnl_success;
    memory_desc_t md;
    if (packed_f32_weights_md(md, weights_md_, nr) != dnnl_success)
        return dnnl_success;
    weights_md_ = md;
    wei_packed_ = true;
    wei_packed_k_ = IC_total();
    return dnnl_success;
}

// Copies the weights into the scratchpad in the K order of src (rows of
// K elements), for weights whose layout differs from src's.
const char *gemm_inner_product_t::gather_weights(
        const char *wei, size_t wsz, char *scratch) const {
    const pd_t &p = *pd();
    char *out = scratch + align64(p.acc_bytes()) + align64(p.ws_bytes());
    const dim_t OC = p.OC(), K = p.IC_total();
    const dim_t *koff = p.k_offsets().data();
    const dim_t *ocoff = p.oc_offsets().data();
    parallel_chunks(OC * K > 65536 ? max_threads() : 1, OC, [&](int, dim_t oc0, dim_t oc1) {
        for (dim_t oc = oc0; oc < oc1; ++oc) {
            const char *src_row = wei + ocoff[oc] * wsz;
            char *dst_row = out + oc * K * wsz;
            if (wsz == 4)
                for (dim_t k = 0; k < K; ++k)
                    ((uint32_t *)dst_row)[k] = ((const uint32_t *)src_row)[koff[k]];
            else if (wsz == 2)
                for (dim_t k = 0; k < K; ++k)
                    ((uint16_t *)dst_row)[k] = ((const uint16_t *)src_row)[koff[k]];
            else
                for (dim_t k = 0; k < K; ++k)
                    dst_row[k] = src_row[koff[k]];
        }
    });
    return out;
}

status_t gemm_inner_product_t::execute(const exec_ctx_t &ctx) const {
    const pd_t &p = *pd();
    if (p.gm() == 0 || p.gn() == 0) {
        if (!p.is_bwd_w() || !p.with_bias() || p.OC() == 0) return dnnl_success;
    }
    const size_t need = align64(p.acc_bytes()) + align64(p.ws_bytes())
            + align64(p.gather_bytes());
    scratch_t scratch(ctx.scratchpad(), p.scratchpad_size(), need);
    if (need && !scratch.ptr) return dnnl_out_of_memory;
    if (p.is_fwd()) return execute_fwd(ctx, scratch.ptr);
    if (p.is_bwd_d()) return execute_bwd_d(ctx, scratch.ptr);
    return execute_bwd_w(ctx, scratch.ptr);
}

status_t gemm_inner_product_t::execute_fwd(const exec_ctx_t &ctx, char *scratch) const {
    const pd_t &p = *pd();
    const memory_desc_t &smd = p.src_md(), &wmd = p.weights_md(), &dmd = p.dst_md();
    const char *src = (const char *)ctx.host_ptr(DNNL_ARG_SRC);
    const char *wei = (const char *)ctx.host_ptr(DNNL_ARG_WEIGHTS);
    char *dst = (char *)ctx.host_ptr(DNNL_ARG_DST);
    if (!dst) return dnnl_invalid_arguments;
    const dim_t M = p.gm(), N = p.gn(), K = p.gk();
    if (M == 0 || N == 0) return dnnl_success;
    if (K > 0 && (!src || !wei)) return dnnl_invalid_arguments;
    const size_t ssz = data_type_size(smd.data_type), wsz = data_type_size(wmd.data_type);
    const size_t dsz = data_type_size(dmd.data_type);
    if (src) src += smd.offset0 * ssz;
    if (wei) wei += wmd.offset0 * wsz;
    dst += dmd.offset0 * dsz;
    const dim_t s0 = strides(smd)[0];
    dim_t w0 = strides(wmd)[0];
    const dim_t d0 = strides(dmd)[0], d1 = strides(dmd)[1];
    if (p.wei_gather() && wei) {
        wei = gather_weights(wei, wsz, scratch);
        w0 = K;
    }

    const postops::gemm_epilogue_t &epi = p.epilogue();
    postops::gemm_epilogue_args_t eargs;
    DNNL_CHECK(eargs.init(epi, ctx));
    const bool need_epilogue = !(p.acc_direct() && epi.is_identity());
    char *acc = scratch;
    char *ws = p.ws_bytes() ? scratch + align64(p.acc_bytes()) : nullptr;
    if (gemm::gemm_workspace_size(p.chunk(), N, K, p.is_int8(), true) > p.ws_bytes())
        ws = nullptr;

    for (dim_t r0 = 0; r0 < M; r0 += p.chunk()) {
        const dim_t rows = std::min(p.chunk(), M - r0);
        void *c = p.acc_direct() ? (void *)(dst + r0 * d0 * dsz) : (void *)acc;
        const dim_t ldc = p.acc_direct() ? d0 : N;
        auto post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n, const void *cb,
                            dim_t ldcb) {
            const dim_t pos[2] = {r0 + m0, n0};
            postops::apply(epi, eargs, cb, ldcb,
                    dst + ((r0 + m0) * d0 + n0 * d1) * dsz, d0, d1, m, n, pos, 0, 1);
        };
        status_t st;
        if (p.is_int8()) {
            gemm::gemm_s32_args_t g;
            g.M = rows;
            g.N = N;
            g.K = K;
            g.a = src ? src + r0 * s0 * ssz : nullptr;
            g.a_dt = smd.data_type;
            g.a_rs = s0;
            g.a_cs = 1;
            g.b = wei;
            g.b_dt = wmd.data_type;
            g.b_rs = 1;
            g.b_cs = w0;
            g.b_packed = p.wei_packed();
            g.b_packed_k = p.wei_packed_k();
            g.c = (int32_t *)c;
            g.ldc = ldc;
            g.workspace = ws;
            if (need_epilogue)
                g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n, int32_t *cb,
                                 dim_t ldcb) { post(m0, n0, m, n, cb, ldcb); };
            st = gemm::gemm_s32(g);
        } else {
            gemm::gemm_f32_args_t g;
            g.M = rows;
            g.N = N;
            g.K = K;
            g.a = src ? src + r0 * s0 * ssz : nullptr;
            g.a_dt = smd.data_type;
            g.a_rs = s0;
            g.a_cs = 1;
            g.b = wei;
            g.b_dt = wmd.data_type;
            g.b_rs = 1;
            g.b_cs = w0;
            g.b_packed = p.wei_packed();
            g.fpmath = p.attr()->fpmath_mode;
            g.c = (float *)c;
            g.ldc = ldc;
            g.workspace = ws;
            if (need_epilogue)
                g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n, float *cb,
                                 dim_t ldcb) { post(m0, n0, m, n, cb, ldcb); };
            st = gemm::gemm_f32(g);
        }
        DNNL_CHECK(st);
    }
    return dnnl_success;
}

status_t gemm_inner_product_t::execute_bwd_d(const exec_ctx_t &ctx, char *scratch) const {
    const pd_t &p = *pd();
    const memory_desc_t &smd = p.src_md(), &wmd = p.weights_md(), &dmd = p.dst_md();
    char *diff_src = (char *)ctx.host_ptr(DNNL_ARG_DIFF_SRC);
    const char *wei = (const char *)ctx.host_ptr(DNNL_ARG_WEIGHTS);
    const char *diff_dst = (const char *)ctx.host_ptr(DNNL_ARG_DIFF_DST);
    const dim_t M = p.gm(), N = p.gn(), K = p.gk();
    if (M == 0 || N == 0) return dnnl_success;
    if (!diff_src || (K > 0 && (!wei || !diff_dst))) return dnnl_invalid_arguments;
    const size_t ssz = data_type_size(smd.data_type), wsz = data_type_size(wmd.data_type);
    const size_t dsz = data_type_size(dmd.data_type);
    diff_src += smd.offset0 * ssz;
    if (wei) wei += wmd.offset0 * wsz;
    if (diff_dst) diff_dst += dmd.offset0 * dsz;
    const dim_t s0 = strides(smd)[0];
    dim_t w0 = strides(wmd)[0];
    const dim_t d0 = strides(dmd)[0], d1 = strides(dmd)[1];
    if (p.wei_gather() && wei) {
        wei = gather_weights(wei, wsz, scratch);
        w0 = N;
    }
    char *acc = scratch;
    char *ws = p.ws_bytes() ? scratch + align64(p.acc_bytes()) : nullptr;
    if (gemm::gemm_workspace_size(p.chunk(), N, K, false, true) > p.ws_bytes())
        ws = nullptr;
    for (dim_t r0 = 0; r0 < M; r0 += p.chunk()) {
        const dim_t rows = std::min(p.chunk(), M - r0);
        gemm::gemm_f32_args_t g;
        g.M = rows;
        g.N = N;
        g.K = K;
        g.a = diff_dst ? diff_dst + r0 * d0 * dsz : nullptr;
        g.a_dt = dmd.data_type;
        g.a_rs = d0;
        g.a_cs = d1;
        g.b = wei;
        g.b_dt = wmd.data_type;
        g.b_rs = w0;
        g.b_cs = 1;
        g.fpmath = p.attr()->fpmath_mode;
        g.workspace = ws;
        if (p.acc_direct()) {
            g.c = (float *)(diff_src + r0 * s0 * ssz);
            g.ldc = s0;
        } else {
            g.c = (float *)acc;
            g.ldc = N;
            g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n, float *cb, dim_t ldcb) {
                store_block(smd.data_type, cb, ldcb,
                        diff_src + ((r0 + m0) * s0 + n0) * ssz, s0, m, n);
            };
        }
        DNNL_CHECK(gemm::gemm_f32(g));
    }
    return dnnl_success;
}

status_t gemm_inner_product_t::execute_bwd_w(const exec_ctx_t &ctx, char *scratch) const {
    const pd_t &p = *pd();
    const memory_desc_t &smd = p.src_md(), &wmd = p.weights_md(), &dmd = p.dst_md();
    const char *src = (const char *)ctx.host_ptr(DNNL_ARG_SRC);
    char *diff_wei = (char *)ctx.host_ptr(DNNL_ARG_DIFF_WEIGHTS);
    const char *diff_dst = (const char *)ctx.host_ptr(DNNL_ARG_DIFF_DST);
    const dim_t M = p.gm(), N = p.gn(), K = p.gk();
    const size_t ssz = data_type_size(smd.data_type), wsz = data_type_size(wmd.data_type);
    const size_t dsz = data_type_size(dmd.data_type);
    if (src) src += smd.offset0 * ssz;
    if (diff_dst) diff_dst += dmd.offset0 * dsz;
    const dim_t s0 = strides(smd)[0], w0 = strides(wmd)[0];
    const dim_t d0 = strides(dmd)[0], d1 = strides(dmd)[1];

    if (M > 0 && N > 0) {
        if (!diff_wei || (K > 0 && (!src || !diff_dst))) return dnnl_invalid_arguments;
        diff_wei += wmd.offset0 * wsz;
        char *acc = scratch;
        char *ws = p.ws_bytes() ? scratch + align64(p.acc_bytes()) : nullptr;
        if (gemm::gemm_workspace_size(p.chunk(), N, K, false, true) > p.ws_bytes())
            ws = nullptr;
        for (dim_t r0 = 0; r0 < M; r0 += p.chunk()) {
            const dim_t rows = std::min(p.chunk(), M - r0);
            gemm::gemm_f32_args_t g;
            g.M = rows;
            g.N = N;
            g.K = K;
            g.a = diff_dst ? diff_dst + r0 * d1 * dsz : nullptr;
            g.a_dt = dmd.data_type;
            g.a_rs = d1;
            g.a_cs = d0;
            g.b = src;
            g.b_dt = smd.data_type;
            g.b_rs = s0;
            g.b_cs = 1;
            g.fpmath = p.attr()->fpmath_mode;
            g.workspace = ws;
            if (p.acc_direct()) {
                g.c = (float *)(diff_wei + r0 * w0 * wsz);
                g.ldc = w0;
            } else {
                g.c = (float *)acc;
                g.ldc = N;
                g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n, float *cb,
                                 dim_t ldcb) {
                    if (!p.wei_gather()) {
                        store_block(wmd.data_type, cb, ldcb,
                                diff_wei + ((r0 + m0) * w0 + n0) * wsz, w0, m, n);
                        return;
                    }
                    const dim_t *koff = p.k_offsets().data();
                    const dim_t *ocoff = p.oc_offsets().data();
                    for (dim_t i = 0; i < m; ++i)
                        for (dim_t j = 0; j < n; ++j)
                            store_f32(wmd.data_type, cb[i * ldcb + j], diff_wei,
                                    ocoff[r0 + m0 + i] + koff[n0 + j]);
                };
            }
            DNNL_CHECK(gemm::gemm_f32(g));
        }
    }

    if (p.with_bias()) {
        char *diff_bias = (char *)ctx.host_ptr(DNNL_ARG_DIFF_BIAS);
        if (!diff_bias) return dnnl_invalid_arguments;
        const memory_desc_t &bmd = p.bias_md();
        const size_t bsz = data_type_size(bmd.data_type);
        diff_bias += bmd.offset0 * bsz;
        const dim_t b0 = strides(bmd)[0];
        const dim_t OC = p.OC(), MB = p.MB();
        const data_type_t ddt = dmd.data_type;
        parallel_chunks(OC * MB > 4096 ? max_threads() : 1, OC, [&](int, dim_t oc0, dim_t oc1) {
            for (dim_t oc = oc0; oc < oc1; ++oc) {
                double s = 0;
                for (dim_t mb = 0; mb < MB; ++mb)
                    s += load_f32(ddt, diff_dst, mb * d0 + oc * d1);
                store_f32(bmd.data_type, (float)s, diff_bias, oc * b0);
            }
        });
    }
    return dnnl_success;
}

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
