// Fuzz target: memory descriptor creation and arithmetic. A small pool of
// descriptors is grown by the creators (tag, strides, blob, submemory,
// reshape, permute_axes, clone) with parameters read from the input; every
// descriptor handed out must keep the invariants of fuzz::check_md, a
// refused call must leave its output handle alone, and queries, equality
// and sizes must agree with each other.

#include "fuzz/fuzz_input.hpp"

namespace {

using fuzz::md_t;

void check_pair(const_dnnl_memory_desc_t a, const_dnnl_memory_desc_t b) {
    const int eq = dnnl_memory_desc_equal(a, b);
    FUZZ_CHECK(eq == dnnl_memory_desc_equal(b, a));
    if (eq)
        FUZZ_CHECK(dnnl_memory_desc_get_size(a) == dnnl_memory_desc_get_size(b));
}

void check_queries(const_dnnl_memory_desc_t md, FuzzedDataProvider &in) {
    int nd = -1;
    FUZZ_CHECK(dnnl_memory_desc_query(md, dnnl_query_ndims_s32, &nd)
            == dnnl_success);
    FUZZ_CHECK(nd >= 0 && nd <= DNNL_MAX_NDIMS);
    // An arbitrary in-range query: answered or refused, never a crash.
    uint8_t buf[64];
    const auto q = (dnnl_query_t)in.ConsumeIntegralInRange(0, 300);
    dnnl_memory_desc_query(md, q, buf);
    dnnl_memory_desc_query_v2(md, q, in.ConsumeIntegralInRange(-1, 2), buf);
    dnnl_memory_desc_get_size_v2(md, in.ConsumeIntegralInRange(-1, 2));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzedDataProvider in(data, size);
    std::vector<md_t> pool;
    while (in.remaining_bytes() > 0 && pool.size() < 8) {
        dnnl_memory_desc_t out = fuzz::marker<dnnl_memory_desc_t>();
        dnnl_status_t st;
        const int op = pool.empty() ? 0 : in.ConsumeIntegralInRange(0, 5);
        const_dnnl_memory_desc_t src = pool.empty()
                ? nullptr
                : pool[in.ConsumeIntegralInRange<size_t>(0, pool.size() - 1)].p;
        int nd = 0;
        if (src) dnnl_memory_desc_query(src, dnnl_query_ndims_s32, &nd);
        switch (op) {
            case 0: st = fuzz::read_md(in, &out); break;
            case 1: {
                dnnl_dims_t dims = {}, offs = {};
                const dnnl_dims_t *pd = nullptr;
                dnnl_memory_desc_query(src, dnnl_query_dims, &pd);
                for (int d = 0; d < DNNL_MAX_NDIMS; ++d) {
                    const dnnl_dim_t full = pd ? (*pd)[d] : 0;
                    dims[d] = in.ConsumeBool()
                            ? in.ConsumeIntegralInRange<dnnl_dim_t>(
                                    0, full > 0 ? full : 0)
                            : fuzz::read_dim(in, true);
                    offs[d] = in.ConsumeBool()
                            ? in.ConsumeIntegralInRange<dnnl_dim_t>(
                                    0, full > 0 ? full : 0)
                            : fuzz::read_dim(in, true);
                }
                st = dnnl_memory_desc_create_submemory(&out, src, dims, offs);
                break;
            }
            case 2: {
                const int ndims = in.ConsumeIntegralInRange(-1, 13);
                dnnl_dims_t dims = {};
                for (int d = 0; d < DNNL_MAX_NDIMS; ++d)
                    dims[d] = fuzz::read_dim(in);
                st = dnnl_memory_desc_reshape(&out, src, ndims, dims);
                break;
            }
            case 3: {
                int perm[DNNL_MAX_NDIMS];
                for (int d = 0; d < DNNL_MAX_NDIMS; ++d)
                    perm[d] = in.ConsumeBool() ? (nd - 1 - d)
                                               : in.ConsumeIntegralInRange(-1, 12);
                st = dnnl_memory_desc_permute_axes(&out, src, perm);
                break;
            }
            case 4: st = dnnl_memory_desc_clone(&out, src); break;
            default: {
                const auto &other = pool[in.ConsumeIntegralInRange<size_t>(
                        0, pool.size() - 1)];
                check_pair(src, other.p);
                check_queries(src, in);
                continue;
            }
        }
        out = fuzz::checked_out(st, out);
        if (!out) continue;
        fuzz::check_md(out);
        if (op == 4) FUZZ_CHECK(dnnl_memory_desc_equal(out, src) == 1);
        pool.emplace_back();
        pool.back().reset(out);
    }
    return 0;
}
