// The quantization grid of an integer matmul (matmul_quant_grid.hpp).
#include "common/matmul_quant_grid.hpp"

#include "common/layout_helpers.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {

status_t refuse(const char *who, const char *why) {
    verbose_check("matmul", "%s: %s", who, why);
    return dnnl_unimplemented;
}

bool is_x8(data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8;
}

// Group sizes of an entry per dim of an nd tensor: the two group dims
// apply to the last two dims.
void group_sizes(const quant_entry_t &e, int nd, dim_t *g) {
    for (int d = 0; d < nd; ++d) g[d] = 1;
    if (e.group_ndims == 2) {
        g[nd - 2] = e.group_dims[0];
        g[nd - 1] = e.group_dims[1];
    }
}

// Whether `e` on a tensor of `md`'s dims is taken: a mask within the dims,
// groups only with their dims in the mask, dividing them, with `k_dim`
// (the reduction dim, -1 for dst) grouped by a multiple of 32 and every
// other dim ungrouped (as oneDNN's CPU matmul).
bool entry_ok(const quant_entry_t &e, const memory_desc_t &md, int k_dim) {
    const int nd = md.ndims;
    if (e.mask < 0 || e.mask >= (1 << nd)) return false;
    if (e.group_ndims != 0 && e.group_ndims != 2) return false;
    dim_t g[DNNL_MAX_NDIMS];
    group_sizes(e, nd, g);
    for (int d = 0; d < nd; ++d) {
        if (g[d] == 1) continue;
        if (d != k_dim || !(e.mask & (1 << d))) return false;
        if (g[d] % 32 != 0 || md.dims[d] % g[d] != 0) return false;
    }
    return true;
}

} // namespace

status_t check_matmul_quant_grid(const matmul_pd_t &pd, const char *who) {
    const memory_desc_t &src = pd.src_md(), &wei = pd.weights_md(),
                        &dst = pd.dst_md();
    const primitive_attr_t &attr = *pd.attr();
    if (!is_x8(src.data_type) || !is_x8(wei.data_type))
        return dnnl_unimplemented;
    if (pd.has_runtime_dims_or_strides()) return refuse(who, "runtime dims");
    // `any` becomes plain (matmul_pd_t::init_formats); given layouts must
    // be plain already.
    for (const memory_desc_t *md : {&src, &wei, &dst, &pd.bias_md()})
        if (md->format_kind != dnnl_format_kind_any && md->ndims != 0
                && !layout::is_plain(*md))
            return refuse(who, "plain layouts only");
    const data_type_t ddt = dst.data_type;
    if (ddt != dnnl_f32 && ddt != dnnl_bf16 && ddt != dnnl_f16
            && ddt != dnnl_s32 && !is_x8(ddt))
        return refuse(who, "dst data type");
    if (attr.get_rounding(DNNL_ARG_DST) != dnnl_rounding_mode_environment)
        return refuse(who, "rounding mode");
    if (attr.dropout.on()) return refuse(who, "dropout");
    const int nd = dst.ndims, k_src = nd - 1, k_wei = nd - 2;
    for (const auto &it : attr.scales.items) {
        const quant_entry_t &e = it.e;
        if (e.qmode > dnnl_quantization_mode_static_sazp)
            return refuse(who, "dynamic quantization");
        if (e.data_type != dnnl_f32 && e.data_type != dnnl_bf16
                && e.data_type != dnnl_f16)
            return refuse(who, "scales data type");
        if (it.arg == DNNL_ARG_SRC) {
            if (!entry_ok(e, src, k_src)) return refuse(who, "src scales");
            // Per K without groups is not oneDNN's on CPU either.
            if ((e.mask & (1 << k_src)) && e.group_ndims == 0)
                return refuse(who, "src scales per K need groups");
        } else if (it.arg == DNNL_ARG_WEIGHTS) {
            if (!entry_ok(e, wei, k_wei)) return refuse(who, "weights scales");
        } else if (it.arg == DNNL_ARG_DST) {
            if (!entry_ok(e, dst, -1)) return refuse(who, "dst scales");
        } else {
            return refuse(who, "scales argument");
        }
    }
    for (const auto &it : attr.zero_points.items) {
        const quant_entry_t &e = it.e;
        if (e.data_type != dnnl_s32 && !is_x8(e.data_type))
            return refuse(who, "zero points data type");
        const int n_bit = 1 << (nd - 1);
        if (it.arg == DNNL_ARG_SRC) {
            if (!entry_ok(e, src, k_src)) return refuse(who, "src zero points");
        } else if (it.arg == DNNL_ARG_WEIGHTS) {
            if (!entry_ok(e, wei, k_wei))
                return refuse(who, "weights zero points");
        } else if (it.arg == DNNL_ARG_DST) {
            if (e.group_ndims != 0 || (e.mask != 0 && e.mask != n_bit))
                return refuse(who, "dst zero points per tensor or per N only");
        } else {
            return refuse(who, "zero points argument");
        }
    }
    for (const auto &it : attr.precomputed_reductions.items)
        if (it.arg != DNNL_ARG_SRC || !entry_ok(it.e, src, k_src)
                || it.e.mask != (1 << k_src | 1 << (nd - 2)))
            return refuse(who, "precomputed reductions: src, per M and K only");
    return dnnl_success;
}

void quant_index_t::init(const quant_entry_t &e, const memory_desc_t &md) {
    const int nd = md.ndims;
    group_sizes(e, nd, group);
    count = 1;
    for (int d = DNNL_MAX_NDIMS - 1; d >= 0; --d) {
        mul[d] = 0;
        if (d >= nd) {
            group[d] = 1;
            continue;
        }
        if (!(e.mask & (1 << d))) continue;
        // A dim of size 1 holds one value: positions of a broadcast
        // (batch) dim all find it.
        if (md.dims[d] > 1) mul[d] = count;
        count *= md.dims[d] / group[d];
    }
}

} // namespace impl
} // namespace dnnl
