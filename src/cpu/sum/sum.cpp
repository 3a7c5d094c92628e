// CPU sum: checks, the accumulation of one row chunk, the two drivers and
// the implementation list.
#include "cpu/sum/sum.hpp"

#include "common/exec_ctx.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/cpu_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace sum {

namespace {

std::vector<const memory_desc_t *> tensor_list(const sum_pd_t &pd) {
    std::vector<const memory_desc_t *> v{pd.dst_md()};
    for (int i = 0; i < pd.n_inputs(); ++i) v.push_back(pd.src_md(i));
    return v;
}

// r[0] dst, r[1 + i] source i.
void compute_row(const sum_pd_t &pd, const rows::row_t *r, dim_t n) {
    float acc[rows::chunk], buf[rows::chunk];
    const int ns = pd.n_inputs();
    for (int i = 0; i < ns; ++i) {
        const float s = pd.scale(i);
        const bool sc = r[1 + i].scalar();
        const float *x = rows::load(r[1 + i], n, buf);
        if (i == 0) {
            if (sc)
                for (dim_t j = 0; j < n; ++j) acc[j] = s * x[0];
            else
                for (dim_t j = 0; j < n; ++j) acc[j] = s * x[j];
        } else if (i + 1 < ns && !sc && !r[2 + i].scalar()) {
            // Two sources per pass.
            const float s2 = pd.scale(i + 1);
            float buf2[rows::chunk];
            const float *y = rows::load(r[2 + i], n, buf2);
            for (dim_t j = 0; j < n; ++j) acc[j] += s * x[j] + s2 * y[j];
            ++i;
        } else if (sc) {
            for (dim_t j = 0; j < n; ++j) acc[j] += s * x[0];
        } else {
            for (dim_t j = 0; j < n; ++j) acc[j] += s * x[j];
        }
    }
    rows::store(r[0], acc, n);
}

} // namespace

template <bool nested>
status_t sum_t<nested>::pd_t::init(engine_t *) {
    DNNL_CHECK(this->init_formats());
    name_ = rows::impl_name(dt_pair_name(this->src_md(0)->data_type,
                                    this->dst_md()->data_type),
            "sum", nested ? "nest" : "walk");
    for (int i = 0; i < this->n_inputs(); ++i)
        if (!is_f32_convertible(this->src_md(i)->data_type))
            return dnnl_unimplemented;
    if (!is_f32_convertible(this->dst_md()->data_type))
        return dnnl_unimplemented;
    const auto tensors = tensor_list(*this);
    if (nested) {
        if (!nest::build(nest, *this->dst_md(), tensors))
            return dnnl_unimplemented;
    } else {
        walk.init(this->dst_md()->ndims, this->dst_md()->dims, tensors);
    }
    return dnnl_success;
}

template <bool nested>
status_t sum_t<nested>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (md_nelems(*pd->dst_md()) == 0) return dnnl_success;
    const int nt = pd->n_inputs() + 1;
    std::vector<const void *> ptrs(nt);
    std::vector<data_type_t> dts(nt);
    ptrs[0] = ctx.host_ptr(DNNL_ARG_DST);
    dts[0] = pd->dst_md()->data_type;
    for (int i = 0; i < pd->n_inputs(); ++i) {
        ptrs[1 + i] = ctx.host_ptr(DNNL_ARG_MULTIPLE_SRC + i);
        dts[1 + i] = pd->src_md(i)->data_type;
    }
    for (const void *p : ptrs)
        if (!p) return dnnl_invalid_arguments;

    if (nested) {
        const nest::nest_t &n = pd->nest;
        const int nthr = nthr_for(n.volume(), 32 * 1024);
        nest::for_each_block(
                n, nthr, [&](const dim_t *off, dim_t mcnt, dim_t len) {
                    std::vector<rows::row_t> r(nt);
                    for (int t = 0; t < nt; ++t) {
                        r[t].base = ptrs[t];
                        r[t].dt = dts[t];
                        r[t].st = n.sL(t);
                    }
                    for (dim_t m = 0; m < mcnt; ++m)
                        for (dim_t l0 = 0; l0 < len; l0 += rows::chunk) {
                            const dim_t cnt = len - l0 < rows::chunk
                                                      ? len - l0
                                                      : rows::chunk;
                            for (int t = 0; t < nt; ++t)
                                r[t].off = off[t] + m * n.sM(t) + l0 * n.sL(t);
                            compute_row(*pd, r.data(), cnt);
                        }
                });
    } else {
        const walk::walk_t &w = pd->walk;
        const int nthr = nthr_for(w.volume(), 16 * 1024);
        walk::for_each_row(w, nthr,
                [&](const dim_t *base, const dim_t *const *idx, dim_t cnt) {
                    std::vector<rows::row_t> r(nt);
                    for (int t = 0; t < nt; ++t) {
                        r[t].base = ptrs[t];
                        r[t].dt = dts[t];
                        r[t].off = base[t];
                        r[t].idx = idx[t];
                    }
                    compute_row(*pd, r.data(), cnt);
                });
    }
    walk::zero_pad(*pd->dst_md(), const_cast<void *>(ptrs[0]));
    return dnnl_success;
}

template struct sum_t<true>;
template struct sum_t<false>;

} // namespace sum

const impl_list_item_t *sum_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<sum::sum_t<true>::pd_t, sum_desc_t>},
            {create_pd<sum::sum_t<false>::pd_t, sum_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
