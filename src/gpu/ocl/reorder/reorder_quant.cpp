// Attributes of the gpu reorder (see reorder_quant.hpp).
#include "gpu/ocl/reorder/reorder_quant.hpp"

#include <string>

#include "common/memory.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_primitive.hpp"
#include "gpu/ocl/ocl_types.hpp"
#include "gpu/ocl/ocl_utils.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

const char *const names[reorder_quant_t::count] = {"SS", "DS", "SZ", "DZ"};

bool is_int(data_type_t dt) {
    return dt == dnnl_s8 || dt == dnnl_u8 || dt == dnnl_s32;
}

status_t refuse(const char *why) {
    verbose_check("reorder", "gpu: %s", why);
    return dnnl_unimplemented;
}

dim_t masked_count(int mask, const memory_desc_t &md) {
    dim_t n = 1;
    for (int d = 0; d < md.ndims; ++d)
        if ((mask >> d) & 1) n *= md.dims[d];
    return n;
}

} // namespace

void define_raw_type(kernel_options_t &opts, const char *name, data_type_t dt) {
    define_data_type(opts, name, dt);
    const char *raw = "float";
    switch (dt) {
        case dnnl_f16:
        case dnnl_bf16: raw = "ushort"; break;
        case dnnl_s8: raw = "char"; break;
        case dnnl_u8:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3: raw = "uchar"; break;
        case dnnl_s32: raw = "int"; break;
        case dnnl_f64: raw = "double"; break;
        default: break;
    }
    opts.define((std::string(name) + "_RAW").c_str(), std::string(raw));
}

status_t reorder_quant_t::init(const primitive_attr_t &attr,
        const memory_desc_t &src, const memory_desc_t &dst) {
    *this = reorder_quant_t();
    if (attr.has_rnn_qparams())
        return refuse("RNN quantization parameters (only the quantizing "
                      "reorders, ocl:rnn_quant:*, take them)");
    // Bits past the tensor's dims select nothing (as on the CPU).
    const int dims_bits = (1 << src.ndims) - 1;
    auto take = [&](int which, const quant_entry_t &e, bool zp) {
        for (int i = 0; i < e.group_ndims; ++i)
            if (e.group_dims[i] > 1) return refuse("grouped scales or zero points");
        if (e.is_on_host) return refuse("host-side scales or zero points");
        if (e.mask < 0) return refuse("negative mask");
        const bool dt_ok = zp
                ? (e.data_type == dnnl_s32 || e.data_type == dnnl_s8
                        || e.data_type == dnnl_u8)
                : (e.data_type == dnnl_f32 || e.data_type == dnnl_bf16
                        || e.data_type == dnnl_f16);
        if (!dt_ok) return refuse("scale or zero-point data type");
        if (!zp && e.qmode != (int)dnnl_quantization_mode_undef
                && e.qmode != (int)dnnl_quantization_mode_static_sazp)
            return refuse("dynamic quantization");
        with[which] = true;
        mask[which] = e.mask & dims_bits;
        dt[which] = e.data_type;
        return dnnl_success;
    };
    for (const auto &it : attr.scales.items) {
        if (it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST)
            return refuse("scales of arguments other than src and dst");
        DNNL_CHECK(take(it.arg == DNNL_ARG_SRC ? src_scale : dst_scale, it.e,
                false));
    }
    for (const auto &it : attr.zero_points.items) {
        if (it.arg != DNNL_ARG_SRC && it.arg != DNNL_ARG_DST)
            return refuse("zero points of arguments other than src and dst");
        const memory_desc_t &md = it.arg == DNNL_ARG_SRC ? src : dst;
        if (!is_int(md.data_type)) return refuse("zero points on non-integers");
        DNNL_CHECK(take(it.arg == DNNL_ARG_SRC ? src_zp : dst_zp, it.e, true));
    }
    const auto &po = attr.post_ops.entries;
    if (po.size() > 1) return refuse("more than one post-op");
    if (po.size() == 1) {
        const post_op_t &e = po[0];
        if (e.kind != post_op_kind_t::sum)
            return refuse("post-ops other than sum");
        if (e.zero_point != 0) return refuse("sum with a zero point");
        if (e.sum_dt != dnnl_data_type_undef && e.sum_dt != dst.data_type)
            return refuse("sum data type differing from dst");
        with_sum = true;
        beta = e.scale;
    }
    for (const auto &r : attr.rounding_modes)
        if (r.mode != (int)dnnl_rounding_mode_environment)
            return refuse("rounding modes other than environment");
    return dnnl_success;
}

int reorder_quant_t::dims_mask() const {
    int m = 0;
    for (int i = 0; i < count; ++i)
        if (with[i]) m |= mask[i];
    return m;
}

bool reorder_quant_t::any() const {
    return with[0] || with[1] || with[2] || with[3] || with_sum;
}

void reorder_quant_t::map_masks(const int *dim_map, int ndims) {
    for (int i = 0; i < count; ++i) {
        kernel_mask[i] = 0;
        for (int d = 0; d < ndims; ++d)
            if (((mask[i] >> d) & 1) && dim_map[d] >= 0)
                kernel_mask[i] |= 1 << dim_map[d];
    }
}

void reorder_quant_t::define(
        kernel_options_t &opts, bool exact_division) const {
    opts.define("QUANT", any() ? 1 : 0);
    opts.define("WITH_SUM", with_sum ? 1 : 0);
    for (int i = 0; i < count; ++i) {
        const std::string n = names[i];
        opts.define(("WITH_" + n).c_str(), with[i] ? 1 : 0);
        if (with[i]) define_raw_type(opts, n.c_str(), dt[i]);
    }
    // Division by dst scales rounded correctly (through double, which is
    // exact for a quotient of floats) so results match the CPU's.
    if (with[dst_scale] && exact_division) opts.define("DIV_F64", 1);
}

status_t reorder_quant_t::set_args(kernel_args_t &args, const exec_ctx_t &ctx,
        const memory_desc_t &src) const {
    for (int i = 0; i < count; ++i) {
        if (!with[i]) continue;
        const int arg = (i < 2 ? DNNL_ARG_ATTR_SCALES : DNNL_ARG_ATTR_ZERO_POINTS)
                | (i % 2 == 0 ? DNNL_ARG_SRC : DNNL_ARG_DST);
        const memory_t *m = ctx.memory(arg);
        const cl_mem buf = mem_of(ctx, arg);
        if (!m || !buf) {
            verbose_error("reorder",
                    "gpu: quantization argument %d is missing or not a gpu "
                    "buffer",
                    arg);
            return dnnl_invalid_arguments;
        }
        const dim_t need = masked_count(mask[i], src);
        int64_t off = 0;
        const memory_desc_t &md = m->md();
        if (md.format_kind == dnnl_blocked) {
            if (md.data_type != dt[i] || md_nelems(md) < need) {
                verbose_error("reorder",
                        "gpu: quantization argument %d has another data "
                        "type or too few values",
                        arg);
                return dnnl_invalid_arguments;
            }
            off = md.offset0;
        }
        size_t bytes = 0;
        OCL_CHECK(get_info(clGetMemObjectInfo, buf, CL_MEM_SIZE, bytes));
        if ((off + need) * (int64_t)data_type_size(dt[i]) > (int64_t)bytes) {
            verbose_error("reorder",
                    "gpu: quantization argument %d: buffer too small", arg);
            return dnnl_invalid_arguments;
        }
        args.mem(buf).i64(off);
    }
    if (with_sum) args.f32(beta);
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
