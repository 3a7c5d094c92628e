// Reorder attributes: checks at creation, argument values at execution.
#include "cpu/reorder/reorder_quant.hpp"

#include "common/memory.hpp"
#include "common/verbose.hpp"
#include "cpu/reorder/reorder_cvt.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace reorder {

int quant_conf_t::common_mask() const {
    int m = 0;
    for (int i = 0; i < q_count; ++i) {
        if (!with[i] || mask[i] == 0) continue;
        if (m != 0 && m != mask[i]) return -1;
        m = mask[i];
    }
    return m;
}

void quant_conf_t::index_strides(
        int mask, int ndims, const dim_t *dims, dim_t *strides) {
    dim_t s = 1;
    for (int d = ndims - 1; d >= 0; --d) {
        if (mask & (1 << d)) {
            strides[d] = s;
            s *= dims[d];
        } else {
            strides[d] = 0;
        }
    }
}

static bool is_int_dt(data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8 || dt == dnnl_s32;
}

status_t init_quant_conf(quant_conf_t &conf, const primitive_attr_t &attr,
        const memory_desc_t &src, const memory_desc_t &dst) {
    conf = quant_conf_t();
    // RNN quantization parameters belong to rnn_quant_reorder_t alone.
    if (attr.has_rnn_qparams()) return dnnl_unimplemented;
    const int nd = src.ndims;
    // Bits past ndims mean nothing (as in the pinned library).
    const int dims_bits = nd >= 31 ? ~0 : (1 << nd) - 1;
    auto mask_ok = [&](int mask) { return mask >= 0; };
    for (const auto &it : attr.scales.items) {
        const int which = it.arg == DNNL_ARG_SRC   ? q_src_scale
                          : it.arg == DNNL_ARG_DST ? q_dst_scale
                                                   : -1;
        if (which < 0) return dnnl_unimplemented;
        const quant_entry_t &e = it.e;
        for (int i = 0; i < e.group_ndims; ++i)
            if (e.group_dims[i] > 1) return dnnl_unimplemented;
        if (e.data_type != dnnl_f32 && e.data_type != dnnl_bf16
                && e.data_type != dnnl_f16)
            return dnnl_unimplemented;
        if (e.qmode != (int)dnnl_quantization_mode_undef
                && e.qmode != (int)dnnl_quantization_mode_static_sazp)
            return dnnl_unimplemented;
        if (!mask_ok(e.mask)) return dnnl_unimplemented;
        if (e.is_on_host && e.mask != 0) return dnnl_unimplemented;
        conf.with[which] = true;
        conf.mask[which] = e.mask & dims_bits;
        conf.dt[which] = e.data_type;
    }
    for (const auto &it : attr.zero_points.items) {
        const int which = it.arg == DNNL_ARG_SRC   ? q_src_zp
                          : it.arg == DNNL_ARG_DST ? q_dst_zp
                                                   : -1;
        if (which < 0) return dnnl_unimplemented;
        const quant_entry_t &e = it.e;
        for (int i = 0; i < e.group_ndims; ++i)
            if (e.group_dims[i] > 1) return dnnl_unimplemented;
        if (e.data_type != dnnl_s32 && e.data_type != dnnl_s8
                && e.data_type != dnnl_u8)
            return dnnl_unimplemented;
        if (!mask_ok(e.mask)) return dnnl_unimplemented;
        if (e.is_on_host && e.mask != 0) return dnnl_unimplemented;
        const data_type_t dt =
                which == q_src_zp ? src.data_type : dst.data_type;
        if (!is_int_dt(dt)) return dnnl_unimplemented;
        conf.with[which] = true;
        conf.mask[which] = e.mask & dims_bits;
        conf.dt[which] = e.data_type;
    }
    const auto &po = attr.post_ops.entries;
    if (po.size() > 1) return dnnl_unimplemented;
    if (po.size() == 1) {
        const post_op_t &e = po[0];
        if (e.kind != post_op_kind_t::sum || e.zero_point != 0)
            return dnnl_unimplemented;
        if (e.sum_dt != dnnl_data_type_undef && e.sum_dt != dst.data_type)
            return dnnl_unimplemented;
        conf.with_sum = true;
        conf.beta = e.scale;
    }
    for (const auto &r : attr.rounding_modes)
        if (r.mode != (int)dnnl_rounding_mode_environment)
            return dnnl_unimplemented;
    return dnnl_success;
}

namespace {

dim_t masked_count(int mask, const memory_desc_t &md) {
    dim_t n = 1;
    for (int d = 0; d < md.ndims; ++d)
        if (mask & (1 << d)) n *= md.dims[d];
    return n;
}

// The memory of a quantization argument and the number of values it has.
status_t get_arg(const exec_ctx_t &ctx, int arg, dim_t need, const void *&ptr,
        data_type_t &dt) {
    memory_t *m = ctx.memory(arg);
    if (!m || !m->host_ptr()) {
        verbose_error("reorder", "quantization argument %d is missing", arg);
        return dnnl_invalid_arguments;
    }
    const memory_desc_t &md = m->md();
    if (md.format_kind == dnnl_blocked) {
        if (md_nelems(md) < need) {
            verbose_error(
                    "reorder", "quantization argument %d is too small", arg);
            return dnnl_invalid_arguments;
        }
        if (md.data_type != dnnl_data_type_undef) dt = md.data_type;
        // Values are read densely from the start of the buffer.
        ptr = static_cast<const char *>(m->host_ptr())
              + md.offset0 * data_type_size(md.data_type);
    } else {
        ptr = m->host_ptr();
    }
    return dnnl_success;
}

} // namespace

status_t quant_values_t::init(const exec_ctx_t &ctx, const quant_conf_t &conf,
        const memory_desc_t &src) {
    beta = conf.with_sum ? conf.beta : 0.f;
    for (int i = 0; i < 2; ++i) {
        scale[i] = &one_;
        zp[i] = &zero_;
        const int io = i == 0 ? DNNL_ARG_SRC : DNNL_ARG_DST;
        if (conf.with[q_src_scale + i]) {
            const dim_t n = masked_count(conf.mask[q_src_scale + i], src);
            const void *p = nullptr;
            data_type_t dt = conf.dt[q_src_scale + i];
            DNNL_CHECK(get_arg(ctx, DNNL_ARG_ATTR_SCALES | io, n, p, dt));
            if (dt == dnnl_f32) {
                scale[i] = static_cast<const float *>(p);
            } else if (dt == dnnl_bf16 || dt == dnnl_f16) {
                scale_buf_[i].resize(n);
                const uint16_t *r = static_cast<const uint16_t *>(p);
                for (dim_t k = 0; k < n; ++k)
                    scale_buf_[i][k] = dt == dnnl_bf16 ? to_f32(bf16_t{r[k]})
                                                       : to_f32(f16_t{r[k]});
                scale[i] = scale_buf_[i].data();
            } else {
                return dnnl_invalid_arguments;
            }
        }
        if (conf.with[q_src_zp + i]) {
            const dim_t n = masked_count(conf.mask[q_src_zp + i], src);
            const void *p = nullptr;
            data_type_t dt = conf.dt[q_src_zp + i];
            DNNL_CHECK(get_arg(ctx, DNNL_ARG_ATTR_ZERO_POINTS | io, n, p, dt));
            if (dt == dnnl_s32) {
                zp[i] = static_cast<const int32_t *>(p);
            } else if (dt == dnnl_s8 || dt == dnnl_u8) {
                zp_buf_[i].resize(n);
                for (dim_t k = 0; k < n; ++k)
                    zp_buf_[i][k] =
                            dt == dnnl_s8
                                    ? (int32_t) static_cast<const int8_t *>(
                                            p)[k]
                                    : (int32_t) static_cast<const uint8_t *>(
                                            p)[k];
                zp[i] = zp_buf_[i].data();
            } else {
                return dnnl_invalid_arguments;
            }
        }
    }
    return dnnl_success;
}

} // namespace reorder
} // namespace cpu
} // namespace impl
} // namespace dnnl
