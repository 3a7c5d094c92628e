// BRGEMM inner product: the matmul views of the inner product's tensors,
// the nested BRGEMM matmul descriptor, and execution through it.
#include "cpu/inner_product/brgemm_inner_product.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/matmul_pd.hpp"
#include "common/ip_layout.hpp"
#include "cpu/matmul/brgemm_matmul.hpp"
#include "cpu/matmul/brgemm_matmul_pack.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace inner_product {

namespace {

const dim_t *strides(const memory_desc_t &md) {
    return md.format_desc.blocking.strides;
}

bool plain(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked && !has_blocks(md);
}

// A 2D view (r x c, element strides sr and sc) of memory described
// elsewhere, starting at the same offset.
status_t view_2d(memory_desc_t &v, data_type_t dt, dim_t r, dim_t c,
        dim_t sr, dim_t sc, dim_t offset0) {
    const dims_t dims = {r, c}, st = {sr, sc};
    DNNL_CHECK(md_init_by_strides(v, 2, dims, dt, st));
    v.offset0 = offset0;
    return dnnl_success;
}

// The element stride along the flattened K index of plain weights that
// follow src's order over dims 1.. (src's strides `ss` are K's steps);
// 0 when they do not.
dim_t k_stride(const memory_desc_t &wei, const dim_t *ss) {
    const dim_t *ws = strides(wei);
    dim_t kst = 1;
    for (int d = 1; d < wei.ndims; ++d)
        if (wei.dims[d] != 1 && ss[d] == 1) kst = ws[d];
    for (int d = 1; d < wei.ndims; ++d)
        if (wei.dims[d] != 1 && ws[d] != ss[d] * kst) return 0;
    return kst;
}

// The inner product weights (dims and type of `like`) whose matmul view
// is `mm` (K x OC, K in the order of src's strides `ss`). False where no
// memory descriptor of the inner product's rank says it: blocks along K
// in more than two dims.
bool ip_weights_of(memory_desc_t &ip, const memory_desc_t &mm,
        const memory_desc_t &like, const dim_t *ss) {
    const auto &mb = mm.format_desc.blocking;
    const int nd = like.ndims;
    for (int i = 0; i < mb.inner_nblks; ++i)
        if (mb.inner_idxs[i] == 0 && nd > 2) return false;
    ip = like;
    ip.format_kind = dnnl_blocked;
    ip.offset0 = mm.offset0;
    auto &ib = ip.format_desc.blocking;
    ip.padded_dims[0] = mm.padded_dims[1];
    ib.strides[0] = mb.strides[1];
    for (int d = 1; d < nd; ++d) {
        ip.padded_dims[d] = nd == 2 ? mm.padded_dims[0] : like.dims[d];
        ib.strides[d] = mb.strides[0] * ss[d];
    }
    ib.inner_nblks = mb.inner_nblks;
    for (int i = 0; i < mb.inner_nblks; ++i) {
        ib.inner_blks[i] = mb.inner_blks[i];
        ib.inner_idxs[i] = mb.inner_idxs[i] == 0 ? 1 : 0;
    }
    return true;
}

} // namespace

// The nested matmul of the views, taken only where the BRGEMM matmul runs
// it (the GEMM inner product behind this one does better than a nested
// GEMM matmul); names this implementation after its ISA.
status_t brgemm_inner_product_pd_t::nest(engine_t *engine,
        const memory_desc_t &a, const memory_desc_t &b,
        const memory_desc_t *bias, const memory_desc_t &c,
        const primitive_attr_t &attr) {
    matmul_desc_t md;
    DNNL_CHECK(matmul_desc_init(md, &a, &b, bias, &c));
    if (create_nested_pd(nested_pd, md, attr, engine) != dnnl_success)
        return dnnl_unimplemented;
    const auto *brg = dynamic_cast<const matmul::brgemm_matmul_t::pd_t *>(
            nested_pd.get());
    if (!brg) return dnnl_unimplemented;
    name_ = std::string("brg_ip:") + brg->target->isa_name;
    return dnnl_success;
}

status_t brgemm_inner_product_pd_t::init(engine_t *engine) {
    if (engine->kind() != dnnl_cpu) return dnnl_unimplemented;
    if (!attr_.zero_points.empty()) return dnnl_unimplemented;
    if (!is_fwd()
            && (!attr_.scales.empty() || !attr_.post_ops.entries.empty()))
        return dnnl_unimplemented;
    const bool wei_any = weights_md_.format_kind == dnnl_format_kind_any;
    DNNL_CHECK(init_formats());
    // src (diff_src) defines K's order; it must flatten with unit steps.
    if (!plain(src_md_) || !k_dense(src_md_)) return dnnl_unimplemented;
    for (int d = 0; d < ndims(); ++d)
        if (src_md_.dims[d] == 0 || weights_md_.dims[d] == 0)
            return dnnl_unimplemented;
    if (is_bwd_w()) return init_bwd_weights(engine);
    return init_nested(engine, wei_any);
}

// Backward weights: diff_weights (OC x K) = diff_dst^T (OC x MB) x src
// (MB x K). The matmul reads A by rows, so diff_dst is first transposed
// into the scratchpad (tr_md: dense OC x MB); the bias gradient is the
// sum of each of its rows. f32, or bf16 src and diff_dst with f32 / bf16
// diff_weights and diff_bias; weights with K contiguous.
status_t brgemm_inner_product_pd_t::init_bwd_weights(engine_t *engine) {
    const dim_t M = MB(), N = OC(), K = IC_total();
    const dim_t *ss = strides(src_md_);
    const data_type_t sdt = src_md_.data_type, ddt = dst_md_.data_type;
    auto f32_or_bf16 = [](data_type_t t) {
        return t == dnnl_f32 || t == dnnl_bf16;
    };
    const bool bf16 = sdt == dnnl_bf16 && ddt == dnnl_bf16;
    if (!(bf16 || (sdt == dnnl_f32 && ddt == dnnl_f32))
            || (bf16 ? !f32_or_bf16(weights_md_.data_type)
                     : weights_md_.data_type != dnnl_f32)
            || (with_bias()
                    && (bf16 ? !f32_or_bf16(bias_md_.data_type)
                             : bias_md_.data_type != dnnl_f32)))
        return dnnl_unimplemented;
    if (!plain(weights_md_) || k_stride(weights_md_, ss) != 1)
        return dnnl_unimplemented;
    // diff_dst is transposed by rows of unit column stride.
    if (strides(dst_md_)[1] != 1 && N > 1) return dnnl_unimplemented;
    // The minibatch is the matmul's K: below 64 the GEMM is as fast
    // (mb32ic1024oc4096 1.72 ms against 1.69; mb128ic1024oc1024 1.33
    // against 1.57, two threads).
    if (M < 64) return dnnl_unimplemented;
    const dim_t ocs = strides(weights_md_)[0];
    memory_desc_t b, c;
    DNNL_CHECK(view_2d(tr_md, ddt, N, M, M, 1, 0));
    DNNL_CHECK(view_2d(b, sdt, M, K, ss[0], 1, src_md_.offset0));
    DNNL_CHECK(view_2d(c, weights_md_.data_type, N, K, ocs, 1,
            weights_md_.offset0));
    DNNL_CHECK(nest(engine, tr_md, b, nullptr, c, attr_));
    auto rounded = [](size_t bytes) { return (bytes + 63) / 64 * 64; };
    tr_bytes = rounded((size_t)(N * M) * data_type_size(ddt));
    wide_bytes = bf16 ? rounded((size_t)(N * M) * sizeof(float)) : 0;
    tf_bytes = wide_bytes;
    book_scratchpad(
            tr_bytes + wide_bytes + tf_bytes + nested_pd->scratchpad_size());
    return dnnl_success;
}

status_t brgemm_inner_product_pd_t::init_nested(engine_t *engine, bool wei_any) {
    const dim_t M = MB(), N = OC(), K = IC_total();
    const dim_t *ss = strides(src_md_);
    const data_type_t wdt = weights_md_.data_type;
    memory_desc_t a, b, c, bias = zero_md();
    DNNL_CHECK(view_2d(a, src_md_.data_type, M, K, ss[0], 1, src_md_.offset0));
    // Weights: `any` is the matmul's choice (its panels); plain ones are
    // a view when the matmul packs them fast: OC contiguous, or (f32) K.
    // (Backward data takes `any` as the plain layout it resolved to.)
    wei_any = wei_any && is_fwd();
    // bf16 weights of rank > 2: the k-pair panels cannot pair k across
    // the spatial dims, so `any` becomes plain with OC innermost, which
    // the matmul packs per execution at copy speed (mb32ic512ih7iw7oc1000
    // 12.2 ms against 16.1 on the GEMM, mb128ic256ih7iw7oc512 6.5 against
    // 11.5, two threads; u8 x s8 measured slower: it keeps the GEMM).
    if (wei_any && ndims() > 2 && wdt == dnnl_bf16) {
        auto &bk = weights_md_.format_desc.blocking;
        bk.strides[0] = 1;
        for (int d = 1; d < ndims(); ++d) bk.strides[d] = ss[d] * N;
        wei_any = false;
    }
    const bool given_blocked = !wei_any && !plain(weights_md_);
    if (given_blocked && !is_fwd()) return dnnl_unimplemented;
    if (wei_any || given_blocked) {
        b = zero_md();
        b.ndims = 2;
        b.dims[0] = K;
        b.dims[1] = N;
        b.data_type = wdt;
        b.format_kind = dnnl_format_kind_any;
    } else {
        const dim_t kst = k_stride(weights_md_, ss);
        const dim_t ocs = strides(weights_md_)[0];
        if (kst == 0) return dnnl_unimplemented;
        const bool oc_unit = ocs == 1 || N == 1;
        if (is_fwd()) {
            if (!oc_unit && !(kst == 1 && wdt == dnnl_f32))
                return dnnl_unimplemented;
            DNNL_CHECK(view_2d(b, wdt, K, N, kst, ocs, weights_md_.offset0));
        } else {
            // Backward data: (OC x K), K the columns.
            if (!(kst == 1 || K == 1) && !(oc_unit && wdt == dnnl_f32))
                return dnnl_unimplemented;
            DNNL_CHECK(view_2d(b, wdt, N, K, ocs, kst, weights_md_.offset0));
        }
    }
    if (is_fwd()) {
        c = dst_md_;
        if (with_bias()) {
            const dim_t bs = strides(bias_md_)[0];
            DNNL_CHECK(view_2d(bias, bias_md_.data_type, 1, N, N * bs, bs,
                    bias_md_.offset0));
        }
    } else {
        // diff_dst (MB x OC) times the weights into diff_src (MB x K).
        c = a;
        a = dst_md_;
    }

    // Weights scales per output channel are the matmul's per column.
    primitive_attr_t nattr = attr_;
    quant_map_t scales;
    for (const auto &it : attr_.scales.items) {
        quant_entry_t e = it.e;
        if (it.arg == DNNL_ARG_WEIGHTS && e.mask == 1) e.mask = 2;
        else if (e.mask != 0) return dnnl_unimplemented;
        scales.set(it.arg, e);
    }
    nattr.scales = scales;

    DNNL_CHECK(nest(engine, a, b, with_bias() ? &bias : nullptr, c, nattr));
    if (wei_any || given_blocked) {
        memory_desc_t w;
        if (!ip_weights_of(w, *nested_pd->arg_md(DNNL_ARG_WEIGHTS),
                    weights_md_, ss))
            return dnnl_unimplemented;
        if (given_blocked && !md_equal(w, weights_md_))
            return dnnl_unimplemented;
        weights_md_ = w;
    }
    book_scratchpad(nested_pd->scratchpad_size());
    return dnnl_success;
}

status_t brgemm_inner_product_pd_t::make_primitive(
        std::shared_ptr<primitive_t> &p) const {
    p = std::make_shared<brgemm_inner_product_t>(
            std::static_pointer_cast<const primitive_desc_t>(shared_self()));
    p->set_object_size(sizeof(brgemm_inner_product_t));
    return dnnl_success;
}

status_t brgemm_inner_product_t::execute_bwd_weights(
        const exec_ctx_t &ctx) const {
    const brgemm_inner_product_pd_t *p = pd_();
    const dim_t M = p->MB(), N = p->OC();
    char *scratch = static_cast<char *>(ctx.scratchpad());
    const char *ddst = ctx.input<char>(DNNL_ARG_DIFF_DST);
    char *dbias = p->with_bias() ? ctx.output<char>(DNNL_ARG_DIFF_BIAS)
                                 : nullptr;
    if (!scratch || !ddst || (p->with_bias() && !dbias))
        return dnnl_invalid_arguments;
    const bool bf16 = p->dst_md().data_type == dnnl_bf16;
    ddst += p->dst_md().offset0 * (bf16 ? 2 : 4);
    const dim_t lds = strides(p->dst_md())[0];
    // diff_dst^T in f32: the matmul's A itself (f32), or (bf16) the
    // transpose of a widened copy, rounded into A afterwards.
    float *tf = reinterpret_cast<float *>(
            scratch + (bf16 ? p->tr_bytes + p->wide_bytes : 0));
    float *wide = reinterpret_cast<float *>(scratch + p->tr_bytes);
    const data_type_t bias_dt = p->bias_md().data_type;
    // A block of 64 output channels per task: transposed, then each
    // channel's bias gradient from its (now contiguous) row. The team is
    // the matmul's that follows (all threads) or none: a team of another
    // size between the two regions made OpenMP regroup its threads, which
    // cost more than the transpose (16 threads on the Xeon: 128 x 1024
    // took 0.64 ms with a team of 8 here, 0.28 ms for the matmul alone).
    const dim_t nb = (N + 63) / 64;
    const int nthr = M * N < (1 << 14) ? 1 : max_threads();
    parallel_chunks(nthr, nb, [&](int, dim_t b0, dim_t b1) {
        const dim_t n0 = b0 * 64, n1 = std::min(N, b1 * 64), w = n1 - n0;
        if (bf16) {
            const uint16_t *d = reinterpret_cast<const uint16_t *>(ddst);
            for (dim_t m = 0; m < M; ++m)
                cvt_to_f32(dnnl_bf16, d + m * lds + n0, wide + m * N + n0, w);
            matmul::transpose_f32(wide + n0, N, M, w, tf + n0 * M, M);
            uint16_t *tr = reinterpret_cast<uint16_t *>(scratch);
            for (dim_t i = n0 * M; i < n1 * M; ++i) tr[i] = f32_to_bf16(tf[i]);
        } else {
            matmul::transpose_f32(reinterpret_cast<const float *>(ddst) + n0,
                    lds, M, w, tf + n0 * M, M);
        }
        if (!dbias) return;
        const dim_t bs = strides(p->bias_md())[0];
        for (dim_t n = n0; n < n1; ++n) {
            float s = 0.f;
            for (dim_t m = 0; m < M; ++m) s += tf[n * M + m];
            store_f32(bias_dt, s, dbias, p->bias_md().offset0 + n * bs);
        }
    });
    engine_t *engine = ctx.stream()->engine();
    std::unique_ptr<memory_storage_t> storage;
    DNNL_CHECK(engine->create_memory_storage(storage, scratch, p->tr_bytes));
    memory_t a(engine, p->tr_md, std::move(storage));
    std::vector<exec_arg_t> args {{DNNL_ARG_SRC, &a}};
    for (const exec_arg_t &e : ctx.args()) {
        if (e.arg == DNNL_ARG_SRC) args.push_back({DNNL_ARG_WEIGHTS, e.mem});
        if (e.arg == DNNL_ARG_DIFF_WEIGHTS) args.push_back({DNNL_ARG_DST, e.mem});
    }
    exec_ctx_t nctx(ctx.stream(), std::move(args));
    nctx.set_resources(ctx.resources());
    nctx.set_scratchpad(scratch + p->tr_bytes + p->wide_bytes + p->tf_bytes);
    return nested_->execute(nctx);
}

status_t brgemm_inner_product_t::execute(const exec_ctx_t &ctx) const {
    if (pd_()->is_bwd_w()) return execute_bwd_weights(ctx);
    const bool bwd_d = pd_()->is_bwd_d();
    // The same memory objects under the matmul's argument names: the
    // nested descriptor's views say how to read them.
    std::vector<exec_arg_t> args;
    for (const exec_arg_t &a : ctx.args()) {
        int arg = a.arg;
        if (arg == DNNL_ARG_SCRATCHPAD) continue;
        if (bwd_d && arg == DNNL_ARG_DIFF_DST) arg = DNNL_ARG_SRC;
        else if (bwd_d && arg == DNNL_ARG_DIFF_SRC) arg = DNNL_ARG_DST;
        args.push_back({arg, a.mem});
    }
    exec_ctx_t nctx(ctx.stream(), std::move(args));
    nctx.set_resources(ctx.resources());
    nctx.set_scratchpad(ctx.scratchpad());
    return nested_->execute(nctx);
}

} // namespace inner_product
} // namespace cpu
} // namespace impl
} // namespace dnnl
