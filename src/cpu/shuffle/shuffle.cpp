// CPU shuffle: checks, the two copy drivers and the implementation list.
#include "cpu/shuffle/shuffle.hpp"

#include <cstdint>
#include <cstring>

#include "common/exec_ctx.hpp"
#include "cpu/tensor_walk/rows.hpp"
#include "cpu/tensor_walk/walk.hpp"
#include "cpu/cpu_impl_lists.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace shuffle {

namespace {

template <typename T>
void permute_row(const T *in, const dim_t *in_idx, T *out, const dim_t *out_idx,
        dim_t n) {
    for (dim_t c = 0; c < n; ++c) out[out_idx[c]] = in[in_idx[c]];
}

} // namespace

template <bool lanes>
status_t shuffle_t<lanes>::pd_t::init(engine_t *) {
    if (!this->attr()->computes_as_default()) {
        const auto &a = *this->attr();
        if (!a.scales.empty() || !a.zero_points.empty()
                || !a.post_ops.entries.empty() || !a.rounding_modes.empty())
            return dnnl_unimplemented;
    }
    DNNL_CHECK(this->init_formats());
    const memory_desc_t &in = *this->in_md(), &out = *this->out_md();
    if (in.data_type != out.data_type) return dnnl_unimplemented;
    const size_t esz = data_type_size(in.data_type);
    if (esz != 1 && esz != 2 && esz != 4 && esz != 8) return dnnl_unimplemented;
    const int ax = this->axis();
    const dim_t C = in.dims[ax];
    perm.resize((size_t)C);
    for (dim_t c = 0; c < C; ++c) perm[(size_t)c] = this->source_of(c);
    if (lanes) {
        if (!lplan.init(in, ax, {&in, &out})) return dnnl_unimplemented;
    } else {
        rplan.init(in, ax, {&in, &out});
        // Read the input's axis table through the permutation once.
        auto &t = rplan.tabs[0];
        std::vector<dim_t> v(t.dim(ax), t.dim(ax) + C);
        for (dim_t c = 0; c < C; ++c)
            t.values[(size_t)(t.start[ax] + c)] = v[(size_t)perm[(size_t)c]];
        const dim_t *oax = rplan.tabs[1].dim(ax);
        bool ok = esz == 4;
        for (dim_t c = 0; c < C && ok; ++c)
            ok = oax[c] == c && t.dim(ax)[c] >= 0 && t.dim(ax)[c] <= INT32_MAX;
        if (ok) gather_idx.assign(t.dim(ax), t.dim(ax) + C);
    }
    name_ = rows::impl_name("x" + std::to_string(8 * esz), "shuffle",
            lanes ? "lanes" : "walk");
    return dnnl_success;
}

template <bool lanes>
status_t shuffle_t<lanes>::execute(const exec_ctx_t &ctx) const {
    const pd_t *pd = pd_();
    if (md_nelems(*pd->out_md()) == 0) return dnnl_success;
    const char *in = static_cast<const char *>(ctx.host_ptr(pd->in_arg()));
    char *out = static_cast<char *>(ctx.host_ptr(pd->out_arg()));
    if (!in || !out) return dnnl_invalid_arguments;
    const memory_desc_t &omd = *pd->out_md();
    const size_t esz = data_type_size(omd.data_type);

    if (lanes) {
        const axis::lanes_plan_t &p = pd->lplan;
        const dim_t units = p.outer() * p.C;
        const int nthr = nthr_for(units * p.L, 64 * 1024);
        parallel_chunks(nthr, units, [&](int, dim_t u0, dim_t u1) {
            dim_t off[3];
            for (dim_t u = u0; u < u1; ++u) {
                const dim_t o = u / p.C, c = u % p.C;
                axis::lane_offsets(p, o, 0, off);
                const dim_t so = off[0] + pd->perm[(size_t)c] * p.sa[0];
                const dim_t doff = off[1] + c * p.sa[1];
                std::memcpy(out + doff * esz, in + so * esz, p.L * esz);
            }
        });
    } else {
        const axis::rows_plan_t &p = pd->rplan;
        const int nthr = nthr_for(p.nrows * p.C, 64 * 1024);
        const dim_t *iax = p.tabs[0].dim(p.axis), *oax = p.tabs[1].dim(p.axis);
        parallel_chunks(nthr, p.nrows, [&](int, dim_t r0, dim_t r1) {
            dim_t base[2];
            for (dim_t r = r0; r < r1; ++r) {
                axis::row_bases(p, r, base);
                const char *ip = in + base[0] * esz;
                char *op = out + base[1] * esz;
                if (!pd->gather_idx.empty()) {
                    rows::gather32((const uint32_t *)ip, pd->gather_idx.data(),
                            (uint32_t *)op, p.C);
                    continue;
                }
                switch (esz) {
                case 1:
                    permute_row(
                            (const uint8_t *)ip, iax, (uint8_t *)op, oax, p.C);
                    break;
                case 2:
                    permute_row((const uint16_t *)ip, iax, (uint16_t *)op, oax,
                            p.C);
                    break;
                case 4:
                    permute_row((const uint32_t *)ip, iax, (uint32_t *)op, oax,
                            p.C);
                    break;
                default:
                    permute_row((const uint64_t *)ip, iax, (uint64_t *)op, oax,
                            p.C);
                    break;
                }
            }
        });
    }
    walk::zero_pad(omd, out);
    return dnnl_success;
}

template struct shuffle_t<true>;
template struct shuffle_t<false>;

} // namespace shuffle

const impl_list_item_t *shuffle_impl_list() {
    static const impl_list_item_t list[] = {
            {create_pd<shuffle::shuffle_t<true>::pd_t, shuffle_desc_t>},
            {create_pd<shuffle::shuffle_t<false>::pd_t, shuffle_desc_t>},
            {nullptr},
    };
    return list;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
