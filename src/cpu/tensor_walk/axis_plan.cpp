// Axis plans: construction and offset helpers.
#include "cpu/tensor_walk/axis_plan.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace axis {

void rows_plan_t::init(const memory_desc_t &ref, int ax,
        const std::vector<const memory_desc_t *> &tensors) {
    ndims = ref.ndims;
    axis = ax;
    dim_t vol = 1;
    for (int d = 0; d < ndims; ++d) {
        dims[d] = ref.dims[d];
        vol *= dims[d];
    }
    C = dims[axis];
    nrows = C ? vol / C : 0;
    tabs.resize(tensors.size());
    st.assign(tensors.size(), -1);
    for (size_t t = 0; t < tensors.size(); ++t) {
        tabs[t].init(*tensors[t], dims, true);
        const dim_t *a = tabs[t].dim(axis);
        if (C <= 1) {
            st[t] = 1;
            continue;
        }
        const dim_t s = a[1] - a[0];
        bool even = a[0] == 0;
        for (dim_t c = 1; c < C && even; ++c) even = a[c] == c * s;
        if (even) st[t] = s;
    }
    // Row r at r * C from row 0 in every tensor?
    contiguous = true;
    for (size_t t = 0; t < tensors.size() && contiguous; ++t) {
        contiguous = st[t] == 1;
        dim_t step = C;
        for (int d = ndims - 1; d >= 0 && contiguous; --d) {
            if (d == axis) continue;
            const dim_t *a = tabs[t].dim(d);
            for (dim_t i = 0; i < dims[d] && contiguous; ++i)
                contiguous = a[i] == i * step;
            step *= dims[d];
        }
    }
}

dim_t lanes_plan_t::outer() const {
    dim_t o = 1;
    for (int p = 0; p < nouter; ++p) o *= oext[p];
    return o;
}

bool lanes_plan_t::init(const memory_desc_t &master, int axis,
        const std::vector<const memory_desc_t *> &tensors) {
    if (master.dims[axis] <= 1 || tensors.size() > 3) return false;
    nest::nest_t n;
    if (!nest::build(n, master, tensors, -1, false)) return false;
    const int np = n.nparts;
    int pa = -1, count = 0;
    for (int p = 0; p < np; ++p)
        if (n.part[p].dim == axis) {
            pa = p;
            ++count;
        }
    if (count != 1 || n.part[pa].mult != 1 || n.extent[pa] != master.dims[axis])
        return false;
    ntensors = n.ntensors;
    bool used[nest::max_parts] = {};
    int p = np - 1;
    if (p == pa) return false;
    for (int t = 0; t < ntensors; ++t)
        if (n.stride(t, p) != 1) return false;
    L = n.extent[p];
    used[p] = true;
    for (int q = p - 1; q >= 0 && q != pa; --q) {
        bool ok = true;
        for (int t = 0; t < ntensors; ++t) ok = ok && n.stride(t, q) == L;
        if (!ok) break;
        L *= n.extent[q];
        used[q] = true;
    }
    if (L < 8) return false;
    C = n.extent[pa];
    used[pa] = true;
    nouter = 0;
    for (int q = 0; q < np; ++q) {
        if (used[q]) continue;
        oext[nouter] = n.extent[q];
        for (int t = 0; t < ntensors; ++t) ost[t][nouter] = n.stride(t, q);
        ++nouter;
    }
    for (int t = 0; t < ntensors; ++t) {
        sa[t] = n.stride(t, pa);
        base[t] = n.base[t];
    }
    return true;
}

void row_bases(const rows_plan_t &p, dim_t r, dim_t *base) {
    const int nt = (int)p.tabs.size();
    for (int t = 0; t < nt; ++t) base[t] = p.tabs[t].base;
    for (int d = p.ndims - 1; d >= 0; --d) {
        if (d == p.axis) continue;
        const dim_t i = r % p.dims[d];
        r /= p.dims[d];
        if (i)
            for (int t = 0; t < nt; ++t) base[t] += p.tabs[t].dim(d)[i];
    }
}

row_cursor_t::row_cursor_t(const rows_plan_t &p, dim_t r, dim_t *base)
    : p(p), base(base) {
    row_bases(p, r, base);
    for (int d = p.ndims - 1; d >= 0; --d) {
        if (d == p.axis) continue;
        idx[d] = r % p.dims[d];
        r /= p.dims[d];
    }
}

void row_cursor_t::next() {
    const int nt = (int)p.tabs.size();
    if (p.contiguous) {
        for (int t = 0; t < nt; ++t) base[t] += p.C;
        return;
    }
    for (int d = p.ndims - 1; d >= 0; --d) {
        if (d == p.axis) continue;
        const dim_t i = idx[d], j = i + 1 < p.dims[d] ? i + 1 : 0;
        for (int t = 0; t < nt; ++t)
            base[t] += p.tabs[t].dim(d)[j] - p.tabs[t].dim(d)[i];
        idx[d] = j;
        if (j) return; // no carry into the next dim out
    }
}

rows::row_t axis_row(const rows_plan_t &p, int t, const void *ptr,
        data_type_t dt, dim_t base) {
    rows::row_t r;
    r.base = ptr;
    r.dt = dt;
    r.off = base;
    if (p.st[t] >= 0)
        r.st = p.st[t];
    else
        r.idx = p.tabs[t].dim(p.axis);
    return r;
}

void lane_offsets(const lanes_plan_t &p, dim_t o, dim_t l0, dim_t *off) {
    for (int t = 0; t < p.ntensors; ++t) off[t] = p.base[t] + l0;
    for (int q = p.nouter - 1; q >= 0; --q) {
        const dim_t i = o % p.oext[q];
        o /= p.oext[q];
        for (int t = 0; t < p.ntensors; ++t) off[t] += i * p.ost[t][q];
    }
}

} // namespace axis
} // namespace cpu
} // namespace impl
} // namespace dnnl
