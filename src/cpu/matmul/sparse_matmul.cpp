// Matmul with a CSR or COO operand: the checks oneDNN makes for its sparse
// matmul, and the row-wise kernels.
#include "cpu/matmul/sparse_matmul.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>

#include "common/exec_ctx.hpp"
#include "common/float_convert.hpp"
#include "common/layout_helpers.hpp"
#include "common/sparse_md.hpp"
#include "common/verbose.hpp"
#include "cpu/matmul/sparse_rows.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace matmul {

namespace {

status_t refuse(const char *why) {
    verbose_check("matmul", "sparse: %s", why);
    return dnnl_unimplemented;
}

// CSR with s32 indices and pointers, or COO with s32 indices.
bool sparse_md_ok(const memory_desc_t &md) {
    const auto &s = md.format_desc.sparse_desc;
    if (s.encoding == dnnl_csr)
        return s.metadata_types[0] == dnnl_s32
               && s.metadata_types[1] == dnnl_s32;
    return s.encoding == dnnl_coo && s.metadata_types[0] == dnnl_s32;
}

// Whether the memory given for a sparse argument has the pd's encoding,
// shape and types (its nnz may differ: it is read from the memory).
bool same_sparse_kind(const memory_desc_t &mem, const memory_desc_t &pd) {
    if (!md_is_sparse(mem) || mem.ndims != pd.ndims
            || mem.data_type != pd.data_type)
        return false;
    for (int d = 0; d < pd.ndims; ++d)
        if (mem.dims[d] != pd.dims[d]) return false;
    const auto &a = mem.format_desc.sparse_desc;
    const auto &b = pd.format_desc.sparse_desc;
    return a.encoding == b.encoding
           && a.metadata_types[0] == b.metadata_types[0]
           && a.metadata_types[1] == b.metadata_types[1];
}

// A 2D dense matrix: element (i, j) at i * s0 + j * s1.
struct dense_t {
    const void *data;
    data_type_t dt;
    dim_t s0, s1;
    float at(dim_t i, dim_t j) const {
        return load_f32(dt, data, i * s0 + j * s1);
    }
};

dense_t dense_of(const void *data, const memory_desc_t &md) {
    const auto &st = md.format_desc.blocking.strides;
    return {data, md.data_type, st[0], st[1]};
}

} // namespace

status_t sparse_matmul_t::pd_t::init(engine_t *engine) {
    const bool src_sp = md_is_sparse(src_md_);
    const bool wei_sp = md_is_sparse(weights_md_);
    if (!src_sp && !wei_sp) return dnnl_unimplemented; // not sparse at all
    if (md_is_grouped(src_md_)) return dnnl_unimplemented; // grouped_matmul
    if (engine->kind() != dnnl_cpu) return refuse("cpu engine only");
    if (src_sp && wei_sp) return refuse("both operands sparse");
    const memory_desc_t &sp = src_sp ? src_md_ : weights_md_;
    if (md_sparse_encoding(sp) == dnnl_packed)
        return refuse("no implementation takes packed-encoded operands");
    if (!sparse_md_ok(sp))
        return refuse("csr or coo encoding with s32 metadata only");
    if (ndims() != 2) return refuse("2D only");
    const data_type_t dt = src_md_.data_type;
    if ((dt != dnnl_f32 && dt != dnnl_f16) || weights_md_.data_type != dt
            || dst_md_.data_type != dt)
        return refuse("f32 or f16 source, weights and destination only");
    if (with_bias()) return refuse("bias is not supported");
    if (!attr_.computes_as_default())
        return refuse("attributes are not supported");
    if (has_runtime_dims_or_strides()) return refuse("runtime dims");
    DNNL_CHECK(init_formats());
    const memory_desc_t &dense = src_sp ? weights_md_ : src_md_;
    if (!layout::is_plain(dense) || !layout::is_plain(dst_md_))
        return refuse("dense operand and destination must be plain");
    if (sp.format_desc.sparse_desc.nnz > INT32_MAX)
        return refuse("nnz does not fit the s32 indices");
    src_sparse_ = src_sp;
    name_ = std::string("ref:sparse_")
            + (md_sparse_encoding(sp) == dnnl_csr ? "csr" : "coo")
            + (src_sp ? "_src" : "_wei");
    return dnnl_success;
}

status_t sparse_matmul_t::execute(const exec_ctx_t &ctx) const {
    const pd_t *p = pd();
    const dim_t M = p->M(), N = p->N(), K = p->K();
    const int sparse_arg = p->src_sparse() ? DNNL_ARG_SRC : DNNL_ARG_WEIGHTS;
    const int dense_arg = p->src_sparse() ? DNNL_ARG_WEIGHTS : DNNL_ARG_SRC;
    const memory_desc_t &sparse_md =
            p->src_sparse() ? p->src_md() : p->weights_md();
    const memory_t *sparse_mem = ctx.memory(sparse_arg);
    void *dst = ctx.host_ptr(DNNL_ARG_DST);
    if (M == 0 || N == 0) return dnnl_success;
    if (!sparse_mem || !dst) {
        verbose_error("matmul", "sparse: an argument is missing");
        return dnnl_invalid_arguments;
    }
    if (!same_sparse_kind(sparse_mem->md(), sparse_md)) {
        verbose_error("matmul",
                "sparse: the memory's encoding, shape or types differ from "
                "the primitive descriptor's");
        return dnnl_invalid_arguments;
    }
    const memory_desc_t &dst_md = p->dst_md();
    const dense_t dense = dense_of(ctx.host_ptr(dense_arg),
            p->src_sparse() ? p->weights_md() : p->src_md());
    const data_type_t dst_dt = dst_md.data_type;
    const dim_t ds0 = dst_md.format_desc.blocking.strides[0];
    const dim_t ds1 = dst_md.format_desc.blocking.strides[1];

    sparse_rows_t rows;
    if (K > 0) {
        if (!dense.data) {
            verbose_error("matmul", "sparse: the dense operand is missing");
            return dnnl_invalid_arguments;
        }
        DNNL_CHECK(rows.init(
                *sparse_mem, p->src_sparse() ? M : K, p->src_sparse() ? K : N));
    }

    // One destination row at a time, accumulated in f32 in a row of the
    // thread's own; the rows are allocated here, outside the parallel
    // region, so that a failure is a status.
    const int nthr = nthr_for(M * (K + N), 4096);
    size_t acc_elems = 0;
    std::unique_ptr<float[]> acc_rows;
    if (!__builtin_mul_overflow((size_t)nthr, (size_t)N, &acc_elems)
            && acc_elems <= (SIZE_MAX / sizeof(float)))
        acc_rows.reset(new (std::nothrow) float[acc_elems]);
    if (!acc_rows) {
        verbose_error("matmul",
                "sparse: no memory for %d accumulation rows of %lld values",
                nthr, (long long)N);
        return dnnl_out_of_memory;
    }
    parallel_chunks(nthr, M, [&](int ithr, dim_t m0, dim_t m1) {
        float *acc = acc_rows.get() + (size_t)ithr * (size_t)N;
        for (dim_t m = m0; m < m1; ++m) {
            std::fill(acc, acc + N, 0.f);
            if (K > 0 && p->src_sparse()) {
                // dst(m, :) += src(m, k) * wei(k, :) per entry.
                for (dim_t q = rows.ptr[m]; q < rows.ptr[m + 1]; ++q) {
                    const dim_t e = rows.entry(q);
                    const float v = load_f32(rows.dt, rows.values, e);
                    const dim_t k = rows.col[e];
                    for (dim_t n = 0; n < N; ++n)
                        acc[n] += v * dense.at(k, n);
                }
            } else if (K > 0) {
                // dst(m, n) += src(m, k) * wei(k, n) per entry of
                // weights row k.
                for (dim_t k = 0; k < K; ++k) {
                    const float a = dense.at(m, k);
                    for (dim_t q = rows.ptr[k]; q < rows.ptr[k + 1];
                            ++q) {
                        const dim_t e = rows.entry(q);
                        acc[rows.col[e]] +=
                                a * load_f32(rows.dt, rows.values, e);
                    }
                }
            }
            for (dim_t n = 0; n < N; ++n)
                store_f32(dst_dt, acc[n], dst, m * ds0 + n * ds1);
        }
    });
    return dnnl_success;
}

} // namespace matmul
} // namespace cpu
} // namespace impl
} // namespace dnnl
