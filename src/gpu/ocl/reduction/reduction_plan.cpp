// Parts of a reduction (see reduction_plan.hpp).
#include "gpu/ocl/reduction/reduction_plan.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "common/binary_pd.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

bool plain(const memory_desc_t &md) {
    return layout::is_plain(md) && !layout::has_padding(md)
           && !md_has_runtime_dims_or_strides(md);
}

struct part_t {
    bool kept;
    int64_t ext, ss, ds;
    std::vector<int> dims;
};

} // namespace

bool build_red_plan(
        const memory_desc_t &src, const memory_desc_t &dst, red_plan_t &plan) {
    if (!plain(src) || !plain(dst) || src.ndims != dst.ndims) return false;
    const auto &ss = src.format_desc.blocking.strides;
    const auto &ds = dst.format_desc.blocking.strides;
    std::vector<int> order;
    for (int d = 0; d < src.ndims; ++d)
        if (src.dims[d] != 1) order.push_back(d);
    std::stable_sort(order.begin(), order.end(),
            [&](int a, int b) { return ss[a] > ss[b]; });
    std::vector<part_t> parts;
    for (int d : order) {
        const bool kept = dst.dims[d] == src.dims[d];
        part_t p{kept, src.dims[d], ss[d], kept ? ds[d] : 0, {d}};
        if (!parts.empty()) {
            part_t &q = parts.back();
            if (q.kept == kept && q.ss == p.ss * p.ext
                    && (!kept || q.ds == p.ds * p.ext)) {
                q.ext *= p.ext;
                q.ss = p.ss;
                q.ds = p.ds;
                q.dims.push_back(d);
                continue;
            }
        }
        parts.push_back(p);
    }
    red_parts_t &r = plan.parts;
    std::memset(&r, 0, sizeof(r));
    std::vector<const part_t *> kept, red;
    for (const auto &p : parts) (p.kept ? kept : red).push_back(&p);
    if ((int)kept.size() > red_max_parts || (int)red.size() > red_max_parts)
        return false;
    plan.units = 1;
    int m = 0;
    for (const part_t *p : kept) {
        r.kext[r.nk] = p->ext;
        r.ks[r.nk] = p->ss;
        r.kd[r.nk] = p->ds;
        r.kmembers[r.nk] = (int64_t)p->dims.size();
        for (int d : p->dims) r.korder[m++] = d;
        plan.units *= p->ext;
        ++r.nk;
    }
    plan.o = plan.i = 1;
    r.is = 0;
    for (size_t k = 0; k < red.size(); ++k) {
        if (k + 1 == red.size()) {
            plan.i = red[k]->ext;
            r.is = red[k]->ss;
        } else {
            r.rext[r.nro] = red[k]->ext;
            r.rs[r.nro] = red[k]->ss;
            plan.o *= red[k]->ext;
            ++r.nro;
        }
    }
    plan.units_inner =
            r.is != 1 && r.nk > 0 && r.ks[r.nk - 1] == 1 && plan.units > 1;
    return true;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
