// GEMM-based matmul: descriptor checks, the execution plan (batch folding,
// batch parallelism, accumulator chunks, scratchpad) and the execution.
#include "cpu/matmul/gemm_matmul.hpp"

#include "cpu/threading/threading.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <vector>

#include "common/binary_pd.hpp"
#include "common/exec_ctx.hpp"
#include "common/verbose.hpp"
#include "cpu/gemm/gemm.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

memory_desc_t panel_weights_md(const memory_desc_t &wei, dim_t panel) {
    memory_desc_t r = wei;
    const dim_t K = r.dims[0], N = r.dims[1];
    auto &bk = r.format_desc.blocking;
    r.padded_dims[1] = (N + panel - 1) / panel * panel;
    bk.strides[0] = panel;
    bk.strides[1] = K * panel;
    bk.inner_nblks = 1;
    bk.inner_blks[0] = panel;
    bk.inner_idxs[0] = 1;
    return r;
}

bool rows_fold(const memory_desc_t &md, const dim_t *strides, int nd) {
    dim_t expected = strides[nd - 2] * md.dims[nd - 2];
    for (int d = nd - 3; d >= 0; --d) {
        if (md.dims[d] == 1) continue;
        if (strides[d] != expected) return false;
        expected *= md.dims[d];
    }
    return true;
}

namespace {

constexpr dim_t rt = DNNL_RUNTIME_DIM_VAL;

size_t align64(size_t x) { return (x + 63) / 64 * 64; }

bool one_of(data_type_t dt, std::initializer_list<data_type_t> l) {
    for (auto x : l)
        if (dt == x) return true;
    return false;
}

// Batch coordinates of batch index b over dims[0, nd - 2).
void batch_coords(const memory_desc_t &dst, int nd, dim_t b, dim_t *coord) {
    for (int d = nd - 3; d >= 0; --d) {
        const dim_t sz = dst.dims[d];
        coord[d] = sz > 0 ? b % sz : 0;
        b = sz > 0 ? b / sz : 0;
    }
}

// The element offset of a batch's matrix. An operand without elements (K
// = 0 empties src and weights) is never read, and its strides are free
// (any value passes the descriptor checks): its offsets stay 0 instead of
// products that may overflow.
dim_t batch_offset(const memory_desc_t &md, const dim_t *strides, int nd,
        const dim_t *coord) {
    if (layout::has_zero_dim(md)) return 0;
    dim_t off = 0;
    for (int d = 0; d < nd - 2; ++d)
        if (md.dims[d] != 1) off += coord[d] * strides[d];
    return off;
}

// Scratch memory of one execution: the booked scratchpad when large
// enough, else an allocation.
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

} // namespace

size_t mm_plan_t::total() const {
    return nbuf * (align64(acc_bytes) + align64(ws_bytes));
}

bool gemm_matmul_t::pd_t::attr_ok() const {
    const int nd = ndims();
    const int n_mask = 1 << (nd - 1);
    for (const auto &it : attr_.scales.items) {
        const auto &e = it.e;
        if (e.data_type != dnnl_f32 || e.group_ndims != 0) return false;
        if (it.arg == DNNL_ARG_SRC && e.mask != 0) return false;
        if (it.arg == DNNL_ARG_WEIGHTS && e.mask != 0 && e.mask != n_mask)
            return false;
        if (it.arg == DNNL_ARG_DST && e.mask != 0) return false;
    }
    for (const auto &it : attr_.zero_points.items) {
        const auto &e = it.e;
        if (!is_int8_) return false;
        if (e.data_type != dnnl_s32 || e.group_ndims != 0) return false;
        // Source zero points per tensor or per K (its last dim), weights
        // per tensor.
        if (it.arg == DNNL_ARG_SRC && e.mask != 0 && e.mask != n_mask)
            return false;
        if (it.arg == DNNL_ARG_WEIGHTS && e.mask != 0) return false;
        if (it.arg == DNNL_ARG_DST && e.mask != 0 && e.mask != n_mask)
            return false;
    }
    // Rounding modes: the DST one applies (the epilogue declines types
    // stochastic rounding does not define); others are kept and unused, as
    // in oneDNN's matmul.
    return true;
}

status_t gemm_matmul_t::pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    const data_type_t sdt = src_md_.data_type, wdt = weights_md_.data_type,
                      ddt = dst_md_.data_type;
    is_int8_ = one_of(sdt, {dnnl_u8, dnnl_s8});
    if (is_int8_) {
        if (!one_of(wdt, {dnnl_s8, dnnl_u8})) return dnnl_unimplemented;
        if (!one_of(ddt, {dnnl_f32, dnnl_s32, dnnl_s8, dnnl_u8, dnnl_bf16, dnnl_f16}))
            return dnnl_unimplemented;
        if (with_bias()
                && !one_of(bias_md_.data_type,
                        {dnnl_f32, dnnl_s32, dnnl_s8, dnnl_u8, dnnl_bf16, dnnl_f16}))
            return dnnl_unimplemented;
    } else {
        // Any mix of f32 / bf16 / f16 inputs (converted while packing).
        if (!one_of(sdt, {dnnl_f32, dnnl_bf16, dnnl_f16})
                || !one_of(wdt, {dnnl_f32, dnnl_bf16, dnnl_f16}))
            return dnnl_unimplemented;
        // The output stage converts to any of these (as oneDNN's reference
        // matmul does for floating-point sources).
        if (!one_of(ddt, {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_f8_e5m2,
                    dnnl_f8_e4m3, dnnl_s8, dnnl_u8}))
            return dnnl_unimplemented;
        if (with_bias() && !one_of(bias_md_.data_type, {dnnl_f32, sdt, wdt}))
            return dnnl_unimplemented;
    }
    const bool wei_any = weights_md_.format_kind == dnnl_format_kind_any;
    DNNL_CHECK(init_formats());
    if (!layout::is_plain(src_md_) || !layout::is_plain(weights_md_)
            || !layout::is_plain(dst_md_)
            || (with_bias() && !layout::is_plain(bias_md_)))
        return dnnl_unimplemented;
    if (!attr_ok()) return dnnl_unimplemented;
    init_packed_weights(wei_any);
    const int nd = ndims();
    DNNL_CHECK(epi_.init(attr_, dst_md_, with_bias() ? &bias_md_ : nullptr,
            is_int8_, nd - 1, 1 << (nd - 1)));
    name_ = std::string("gemm:")
            + (is_int8_ ? gemm::s32_kernel_name()
                        : gemm::f32_kernel_name(sdt, wdt, attr_.fpmath_mode));

    if (!has_runtime_dims_or_strides()) {
        mm_shape_t s;
        DNNL_CHECK(make_shape(s, src_md_, weights_md_, dst_md_, bias_md_));
        book_scratchpad(make_plan(s, max_threads()).total());
    }
    return dnnl_success;
}

// 2D f32 weights given as `any` take the GEMM core's pre-packed B layout
// ([N / NR][K][NR], "Ba32b" for NR 32) so that executions read them in
// place instead of packing all of B every time (for BERT-like shapes that
// packing is a quarter of the run time). Not for shapes with runtime dims
// (the layout needs N and K) nor for M <= 4, where the unpacked small-M
// kernels stream plain B faster.
void gemm_matmul_t::pd_t::init_packed_weights(bool wei_any) {
    if (!wei_any || is_int8_ || ndims() != 2 || has_runtime_dims_or_strides())
        return;
    const int nr = gemm::f32_packed_b_nr(src_md_.data_type,
            weights_md_.data_type, attr_.fpmath_mode);
    if (nr == 0 || dst_md_.dims[0] <= 4) return;
    weights_md_ = panel_weights_md(weights_md_, nr);
    wei_packed_ = true;
}

status_t gemm_matmul_t::pd_t::make_shape(mm_shape_t &s,
        const memory_desc_t &src, const memory_desc_t &wei,
        const memory_desc_t &dst, const memory_desc_t &bias) const {
    const int nd = dst.ndims;
    s.nd = nd;
    s.src = src;
    s.wei = wei;
    s.dst = dst;
    s.bias = bias;
    // Pre-packed weights have no element strides (the GEMM reads panels).
    if (!postops::plain_strides(src, s.ss)
            || (!wei_packed_ && !postops::plain_strides(wei, s.ws))
            || !postops::plain_strides(dst, s.ds))
        return dnnl_unimplemented;
    s.M = dst.dims[nd - 2];
    s.N = dst.dims[nd - 1];
    s.K = src.dims[nd - 1];
    s.nbatch = 1;
    bool wei_shared = true, src_full = true;
    for (int d = 0; d < nd - 2; ++d) {
        s.nbatch *= dst.dims[d];
        if (wei.dims[d] != 1) wei_shared = false;
        if (src.dims[d] != dst.dims[d]) src_full = false;
    }
    s.collapse = s.nbatch <= 1
            || (wei_shared && src_full && rows_fold(src, s.ss, nd)
                    && rows_fold(dst, s.ds, nd));
    return dnnl_success;
}

mm_plan_t gemm_matmul_t::pd_t::make_plan(const mm_shape_t &s, int nthr) const {
    mm_plan_t p;
    const int nd = s.nd;
    p.nthr = std::max(1, nthr);
    p.gemm_M = s.collapse ? s.nbatch * s.M : s.M;
    p.nprob = s.collapse ? 1 : s.nbatch;
    const data_type_t acc_dt = is_int8_ ? dnnl_s32 : dnnl_f32;
    const size_t acc_sz = 4;
    p.acc_direct = s.dst.data_type == acc_dt && (s.ds[nd - 1] == 1 || s.N == 1)
            && !epi_.po.has_sum();
    const double work = (double)p.gemm_M * s.N * std::max<dim_t>(s.K, 1);
    p.batch_par = p.nprob > 1 && p.nthr > 1
            && (work < (double)(1 << 22) || p.nprob % p.nthr == 0
                    || p.nprob >= 4 * p.nthr);
    if (p.batch_par) {
        p.chunk = p.gemm_M;
        p.nbuf = p.nthr;
        p.acc_bytes = p.acc_direct ? 0 : (size_t)p.gemm_M * s.N * acc_sz;
        p.ws_bytes = gemm::gemm_workspace_size(
                p.gemm_M, s.N, s.K, is_int8_, false);
    } else {
        const dim_t max_rows = std::max<dim_t>(
                256, (dim_t)((8u << 20) / (acc_sz * std::max<dim_t>(s.N, 1))));
        p.chunk = p.acc_direct ? p.gemm_M : std::min(p.gemm_M, max_rows);
        p.chunk = std::max<dim_t>(p.chunk, 1);
        p.nbuf = 1;
        p.acc_bytes = p.acc_direct ? 0 : (size_t)p.chunk * s.N * acc_sz;
        p.ws_bytes = gemm::gemm_workspace_size(
                p.chunk, s.N, s.K, is_int8_, true, p.nthr);
    }
    return p;
}

namespace {

// The actual descriptors of an execution with runtime dims: checked
// against the pd and the matmul shape rules.
status_t resolve_runtime(const gemm_matmul_t::pd_t &pd, const exec_ctx_t &ctx,
        memory_desc_t &src, memory_desc_t &wei, memory_desc_t &dst,
        memory_desc_t &bias) {
    auto get = [&](int arg, const memory_desc_t &pmd, memory_desc_t &out) {
        const memory_t *m = ctx.memory(arg);
        if (!m) return false;
        out = m->md();
        if (out.ndims != pmd.ndims || out.data_type != pmd.data_type)
            return false;
        if (!layout::is_plain(out) || md_has_runtime_dims_or_strides(out))
            return false;
        for (int d = 0; d < pmd.ndims; ++d)
            if (pmd.dims[d] != rt && pmd.dims[d] != out.dims[d]) return false;
        return true;
    };
    if (!get(DNNL_ARG_SRC, pd.src_md(), src)
            || !get(DNNL_ARG_WEIGHTS, pd.weights_md(), wei)
            || !get(DNNL_ARG_DST, pd.dst_md(), dst))
        return dnnl_invalid_arguments;
    bias = zero_md();
    if (pd.with_bias() && !get(DNNL_ARG_BIAS, pd.bias_md(), bias))
        return dnnl_invalid_arguments;
    const int nd = dst.ndims;
    if (dst.dims[nd - 2] != src.dims[nd - 2] || dst.dims[nd - 1] != wei.dims[nd - 1]
            || src.dims[nd - 1] != wei.dims[nd - 2])
        return dnnl_invalid_arguments;
    for (int d = 0; d < nd; ++d) {
        if (d < nd - 2) {
            const dim_t s = src.dims[d], w = wei.dims[d], o = dst.dims[d];
            if (!((s == o || s == 1) && (w == o || w == 1))) return dnnl_invalid_arguments;
            if (s == 1 && w == 1 && o != 1) return dnnl_invalid_arguments;
        }
        if (pd.with_bias() && bias.dims[d] != 1 && bias.dims[d] != dst.dims[d])
            return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

} // namespace

status_t gemm_matmul_t::execute(const exec_ctx_t &ctx) const {
    const pd_t &p = *pd();
    mm_shape_t s;
    postops::gemm_epilogue_t runtime_epi;
    const postops::gemm_epilogue_t *epi = &p.epilogue();
    if (p.has_runtime_dims_or_strides()) {
        memory_desc_t src, wei, dst, bias;
        DNNL_CHECK(resolve_runtime(p, ctx, src, wei, dst, bias));
        if (p.make_shape(s, src, wei, dst, bias) != dnnl_success)
            return dnnl_invalid_arguments;
        runtime_epi = p.epilogue();
        const int nd = dst.ndims;
        if (runtime_epi.init(*p.attr(), dst, p.with_bias() ? &bias : nullptr,
                    p.is_int8(), nd - 1, 1 << (nd - 1))
                != dnnl_success)
            return dnnl_invalid_arguments;
        epi = &runtime_epi;
    } else {
        DNNL_CHECK(p.make_shape(s, p.src_md(), p.weights_md(), p.dst_md(),
                p.bias_md()));
    }
    const int nd = s.nd;
    if (s.M == 0 || s.N == 0 || s.nbatch == 0) return dnnl_success;

    const char *src = (const char *)ctx.host_ptr(DNNL_ARG_SRC);
    const char *wei = (const char *)ctx.host_ptr(DNNL_ARG_WEIGHTS);
    char *dst = (char *)ctx.host_ptr(DNNL_ARG_DST);
    if (!dst || (s.K > 0 && (!src || !wei))) return dnnl_invalid_arguments;
    const size_t ssz = data_type_size(s.src.data_type);
    const size_t wsz = data_type_size(s.wei.data_type);
    const size_t dsz = data_type_size(s.dst.data_type);
    if (src) src += s.src.offset0 * ssz;
    if (wei) wei += s.wei.offset0 * wsz;
    dst += s.dst.offset0 * dsz;

    postops::gemm_epilogue_args_t eargs;
    DNNL_CHECK(eargs.init(*epi, ctx));
    int32_t src_zp = 0, wei_zp = 0;
    // Source zero points per K: the GEMM takes none, and each column's
    // sum of zp[k] * (W[k][n] - weights zero point) is subtracted from
    // the accumulator before the epilogue.
    const int32_t *src_zp_k = nullptr;
    const primitive_attr_t &attr = *p.attr();
    if (attr.zero_points.has(DNNL_ARG_SRC)) {
        const int32_t *z = (const int32_t *)ctx.host_ptr(
                DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC);
        if (!z) return dnnl_invalid_arguments;
        if (attr.zero_points.get(DNNL_ARG_SRC)->mask != 0)
            src_zp_k = z;
        else
            src_zp = z[0];
    }
    if (attr.zero_points.has(DNNL_ARG_WEIGHTS)) {
        const int32_t *z = (const int32_t *)ctx.host_ptr(
                DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_WEIGHTS);
        if (!z) return dnnl_invalid_arguments;
        wei_zp = z[0];
    }

    const mm_plan_t plan = p.make_plan(s, max_threads());
    scratch_t scratch(ctx.scratchpad(), p.scratchpad_size(), plan.total());
    if (plan.total() && !scratch.ptr) return dnnl_out_of_memory;
    const size_t buf_stride = align64(plan.acc_bytes) + align64(plan.ws_bytes);

    const bool need_epilogue
            = !(plan.acc_direct && epi->is_identity()) || src_zp_k;
    const int m_dim = nd - 2, n_dim = nd - 1;

    // Epilogue of rows [r, r + m) (GEMM row space of problem `prob`),
    // columns [n0, n0 + n); acc has row stride ldacc.
    auto epilogue_block = [&](const dim_t *prob_coord, dim_t r, dim_t n0,
                                  dim_t m, dim_t n, const void *acc,
                                  dim_t ldacc) {
        const size_t asz = 4;
        dim_t i = 0;
        dims_t pos = {};
        while (i < m) {
            const dim_t row = r + i;
            dim_t mrow = row, seg = m - i;
            if (s.collapse) {
                mrow = row % s.M;
                seg = std::min(seg, s.M - mrow);
                batch_coords(s.dst, nd, row / s.M, pos);
            } else {
                for (int d = 0; d < nd - 2; ++d)
                    pos[d] = prob_coord[d];
            }
            pos[m_dim] = mrow;
            pos[n_dim] = n0;
            dim_t off = mrow * s.ds[m_dim] + n0 * s.ds[n_dim];
            for (int d = 0; d < nd - 2; ++d)
                off += pos[d] * s.ds[d];
            postops::apply(*epi, eargs, (const char *)acc + i * ldacc * asz,
                    ldacc, dst + off * dsz, s.ds[m_dim], s.ds[n_dim], seg, n,
                    pos, m_dim, n_dim);
            i += seg;
        }
    };

    // One GEMM problem (a batch, or everything when folded).
    auto run_problem = [&](dim_t prob, bool parallel, char *buf) -> status_t {
        dims_t coord = {};
        if (!s.collapse) batch_coords(s.dst, nd, prob, coord);
        const dim_t src_off = s.collapse ? 0 : batch_offset(s.src, s.ss, nd, coord);
        const dim_t wei_off = s.collapse ? 0 : batch_offset(s.wei, s.ws, nd, coord);
        const dim_t dst_off = s.collapse ? 0 : batch_offset(s.dst, s.ds, nd, coord);
        char *acc_buf = buf;
        char *ws = plan.ws_bytes ? buf + align64(plan.acc_bytes) : nullptr;
        const size_t ws_need = gemm::gemm_workspace_size(plan.chunk, s.N, s.K,
                p.is_int8(), parallel, plan.nthr);
        if (ws_need > plan.ws_bytes) ws = nullptr;
        // Per-K source zero points: this problem's column corrections, once
        // for all its row chunks.
        std::vector<int32_t> comp;
        if (src_zp_k && wei) {
            const char *b = wei + wei_off * wsz;
            comp.assign((size_t)s.N, 0);
            for (dim_t k = 0; k < s.K; ++k)
                for (dim_t n = 0; n < s.N; ++n) {
                    const dim_t o = k * s.ws[m_dim] + n * s.ws[n_dim];
                    const int32_t w = s.wei.data_type == dnnl_s8
                            ? ((const int8_t *)b)[o]
                            : ((const uint8_t *)b)[o];
                    comp[n] += src_zp_k[k] * (w - wei_zp);
                }
        }
        for (dim_t r0 = 0; r0 < plan.gemm_M; r0 += plan.chunk) {
            const dim_t rows = std::min(plan.chunk, plan.gemm_M - r0);
            const dim_t a_row = layout::has_zero_dim(s.src) ? 0 : r0 * s.ss[m_dim];
            const char *a = src ? src + (src_off + a_row) * ssz : nullptr;
            const char *b = wei ? wei + wei_off * wsz : nullptr;
            void *c;
            dim_t ldc;
            if (plan.acc_direct) {
                c = dst + (dst_off + r0 * s.ds[m_dim]) * dsz;
                ldc = s.ds[m_dim];
            } else {
                c = acc_buf;
                ldc = s.N;
            }
            status_t st;
            if (p.is_int8()) {
                gemm::gemm_s32_args_t g;
                g.M = rows;
                g.N = s.N;
                g.K = s.K;
                g.a = a;
                g.a_dt = s.src.data_type;
                g.a_rs = s.ss[m_dim];
                g.a_cs = s.ss[n_dim];
                g.a_zp = src_zp;
                g.b = b;
                g.b_dt = s.wei.data_type;
                g.b_rs = s.ws[m_dim];
                g.b_cs = s.ws[n_dim];
                g.b_zp = wei_zp;
                g.c = (int32_t *)c;
                g.ldc = ldc;
                g.parallel = parallel;
                g.nthr = plan.nthr;
                g.workspace = ws;
                if (need_epilogue)
                    g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n,
                                     int32_t *cb, dim_t ldcb) {
                        if (!comp.empty())
                            for (dim_t i = 0; i < m; ++i)
                                for (dim_t j = 0; j < n; ++j)
                                    cb[i * ldcb + j] -= comp[n0 + j];
                        epilogue_block(coord, r0 + m0, n0, m, n, cb, ldcb);
                    };
                st = gemm::gemm_s32(g);
            } else {
                gemm::gemm_f32_args_t g;
                g.M = rows;
                g.N = s.N;
                g.K = s.K;
                g.a = a;
                g.a_dt = s.src.data_type;
                g.a_rs = s.ss[m_dim];
                g.a_cs = s.ss[n_dim];
                g.b = b;
                g.b_dt = s.wei.data_type;
                g.b_rs = s.ws[m_dim];
                g.b_cs = s.ws[n_dim];
                g.b_packed = p.wei_packed();
                g.fpmath = attr.fpmath_mode;
                g.c = (float *)c;
                g.ldc = ldc;
                g.parallel = parallel;
                g.nthr = plan.nthr;
                g.workspace = ws;
                if (need_epilogue)
                    g.post = [&](dim_t m0, dim_t n0, dim_t m, dim_t n,
                                     float *cb, dim_t ldcb) {
                        epilogue_block(coord, r0 + m0, n0, m, n, cb, ldcb);
                    };
                st = gemm::gemm_f32(g);
            }
            if (st != dnnl_success) return st;
        }
        return dnnl_success;
    };

    if (!plan.batch_par) {
        for (dim_t prob = 0; prob < plan.nprob; ++prob)
            DNNL_CHECK(run_problem(prob, true, scratch.ptr));
        return dnnl_success;
    }
    std::atomic<int> status {(int)dnnl_success};
    parallel_claim(plan.nthr, plan.nprob, [&](int ithr, dim_t prob) {
        char *buf = scratch.ptr ? scratch.ptr + ithr * buf_stride : nullptr;
        const status_t st = run_problem(prob, false, buf);
        if (st != dnnl_success) status = (int)st;
    });
    return (status_t)status.load();
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
