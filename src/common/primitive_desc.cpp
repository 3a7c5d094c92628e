// primitive_desc_t defaults: generic queries, verbose attribute string and
// primitive creation through the global cache (and, on a miss, from a
// cache blob or the disk cache when there is one: cache/blob_create.hpp).
#include "common/primitive_desc.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

#include "common/binary_pd.hpp"
#include "common/engine.hpp"
#include "common/primitive.hpp"
#include "common/primitive_cache.hpp"
#include "common/cache/blob_create.hpp"
#include "common/cache/code_record.hpp"
#include "common/verbose.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {

primitive_desc_t::primitive_desc_t(const op_desc_t &op,
        const primitive_attr_t &attr, const primitive_desc_t *hint_fwd)
    : op_desc_(op.clone()), attr_(attr), hint_mds_(hint_mds_for(op, hint_fwd)) {}

size_t primitive_desc_t::key_content_hash() const {
    size_t h = key_content_hash_.load(std::memory_order_relaxed);
    if (h == 0) {
        // Threads racing here compute the same value.
        h = cache_key_content_hash(*op_desc_, key_attr(), hint_mds_);
        key_content_hash_.store(h, std::memory_order_relaxed);
    }
    return h;
}

std::vector<memory_desc_t> hint_mds_for(
        const op_desc_t &op, const primitive_desc_t *hint_fwd) {
    if (!hint_fwd || hint_fwd->kind() != op.primitive_kind) return {};
    auto md = [&](query_t what) {
        const memory_desc_t *m = nullptr;
        if (hint_fwd->query(what, 0, &m) == dnnl_success && m) return *m;
        return zero_md();
    };
    switch (op.primitive_kind) {
        case dnnl_pooling:
            return {md(dnnl_query_src_md), md(dnnl_query_dst_md),
                    md(dnnl_query_workspace_md)};
        case dnnl_lrn:
            return {md(dnnl_query_src_md), md(dnnl_query_workspace_md)};
        case dnnl_resampling:
            return {md(dnnl_query_src_md), md(dnnl_query_dst_md)};
        case dnnl_shuffle: {
            memory_desc_t dst = md(dnnl_query_dst_md);
            if (is_zero_md(dst)) return {};
            return {dst};
        }
        default: return {};
    }
}

static const memory_desc_t &glob_zero_md() {
    static const memory_desc_t md = zero_md();
    return md;
}

namespace {

// The layout oneDNN gives a binary post-op tensor of layout `any` once
// dst's is known; both tensors of an entry are keyed on src1's shape.
status_t post_op_layout(memory_desc_t &out, const memory_desc_t &m,
        const memory_desc_t &src1, const memory_desc_t &dst) {
    int non_unit = 0;
    for (int d = 0; d < src1.ndims; ++d)
        if (src1.dims[d] != 1) ++non_unit;
    return non_unit == 1 ? layout::plain(out, m.ndims, m.dims, m.data_type)
                         : layout::like(out, dst, m.dims, m.data_type);
}

// The tensors of an entry that the user left `any` (in the request).
template <typename F>
void for_each_any_tensor(const primitive_attr_t &request,
        primitive_attr_t &attr, const memory_desc_t &dst, F f) {
    for (size_t i = 0; i < attr.post_ops.entries.size(); ++i) {
        auto &e = attr.post_ops.entries[i];
        const auto &r = request.post_ops.entries[i];
        if (e.kind != post_op_kind_t::binary) continue;
        const memory_desc_t *req[] = {&r.src1_md, &r.src2_md};
        memory_desc_t *cur[] = {&e.src1_md, &e.src2_md};
        for (int t = 0; t < 2; ++t) {
            if (req[t]->format_kind != dnnl_format_kind_any
                    || is_zero_md(*req[t]) || req[t]->ndims != dst.ndims)
                continue;
            f(*cur[t], r.src1_md);
        }
    }
}

} // namespace

void primitive_desc_t::resolve_post_op_layouts(
        const memory_desc_t *dst_layout) {
    const memory_desc_t *dst = dst_layout ? dst_layout : arg_md(DNNL_ARG_DST);
    if (!dst || !layout::usable(*dst)) return; // dst not known yet
    const primitive_attr_t request = key_attr();
    bool changed = false;
    for_each_any_tensor(request, attr_, *dst,
            [&](memory_desc_t &m, const memory_desc_t &src1) {
                memory_desc_t r;
                if (post_op_layout(r, m, src1, *dst) != dnnl_success) return;
                m = r;
                changed = true;
            });
    if (changed && !request_attr_)
        request_attr_ = std::make_shared<primitive_attr_t>(request);
}

bool primitive_desc_t::post_op_layouts_wait_for_dst(
        memory_desc_t &plain_dst) const {
    const memory_desc_t *dst = arg_md(DNNL_ARG_DST);
    if (!dst || dst->format_kind != dnnl_format_kind_any
            || md_has_runtime_dims_or_strides(*dst))
        return false;
    bool any = false;
    primitive_attr_t scratch = attr_;
    for_each_any_tensor(attr_, scratch, *dst,
            [&](memory_desc_t &, const memory_desc_t &) { any = true; });
    return any
            && layout::plain(plain_dst, dst->ndims, dst->dims, dst->data_type)
            == dnnl_success;
}

bool primitive_desc_t::post_op_layouts_follow(const memory_desc_t &dst) const {
    bool follow = true;
    primitive_attr_t scratch = attr_;
    for_each_any_tensor(key_attr(), scratch, dst,
            [&](memory_desc_t &m, const memory_desc_t &src1) {
                memory_desc_t r;
                follow = follow
                        && post_op_layout(r, m, src1, dst) == dnnl_success
                        && md_equal(r, m);
            });
    return follow;
}

const memory_desc_t *primitive_desc_t::arg_md(int arg) const {
    if (arg == DNNL_ARG_SCRATCHPAD) return &scratchpad_md_;
    // Binary post-op tensors: src1, and select's condition.
    for (size_t i = 0; i < attr_.post_ops.entries.size(); ++i) {
        const auto &e = attr_.post_ops.entries[i];
        if (e.kind != post_op_kind_t::binary) continue;
        const int base = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        if (arg == (base | DNNL_ARG_SRC_1)) return &e.src1_md;
        if (e.alg == dnnl_binary_select && arg == (base | DNNL_ARG_SRC_2))
            return &e.src2_md;
    }
    return &glob_zero_md();
}

arg_usage_t primitive_desc_t::arg_usage(int arg) const {
    if (arg == DNNL_ARG_SCRATCHPAD && scratchpad_size_ > 0)
        return arg_usage_t::output;
    // Scales and zero points given by attributes are inputs.
    if (arg & DNNL_ARG_ATTR_SCALES) {
        if (attr_.scales.has(arg & ~DNNL_ARG_ATTR_SCALES)) return arg_usage_t::input;
    }
    if (arg & DNNL_ARG_ATTR_ZERO_POINTS) {
        if (attr_.zero_points.has(arg & ~DNNL_ARG_ATTR_ZERO_POINTS))
            return arg_usage_t::input;
    }
    if ((arg & DNNL_ARG_ATTR_PRECOMPUTED_REDUCTIONS)
            && attr_.precomputed_reductions.has(
                    arg & ~DNNL_ARG_ATTR_PRECOMPUTED_REDUCTIONS))
        return arg_usage_t::input;
    // Dropout: probability and seed always, the offset when asked for,
    // the mask when the attribute names one.
    const dropout_t &drop = attr_.dropout;
    if (drop.on()) {
        if (arg == DNNL_ARG_ATTR_DROPOUT_PROBABILITY
                || arg == DNNL_ARG_ATTR_DROPOUT_SEED
                || (arg == DNNL_ARG_ATTR_DROPOUT_OFFSET && drop.use_offset))
            return arg_usage_t::input;
        if (arg == DNNL_ARG_ATTR_DROPOUT_MASK && !is_zero_md(drop.mask_md))
            return arg_usage_t::output;
    }
    for (size_t i = 0; i < attr_.post_ops.entries.size(); ++i) {
        const auto &e = attr_.post_ops.entries[i];
        int base = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        if (e.kind == post_op_kind_t::binary && arg == (base | DNNL_ARG_SRC_1))
            return arg_usage_t::input;
        if (e.kind == post_op_kind_t::binary && e.alg == dnnl_binary_select
                && arg == (base | DNNL_ARG_SRC_2))
            return arg_usage_t::input;
        if (e.kind == post_op_kind_t::prelu && arg == (base | DNNL_ARG_WEIGHTS))
            return arg_usage_t::input;
    }
    return arg_usage_t::unused;
}

// Argument index that an indexed md query refers to.
static int query_arg(query_t what, int index, const primitive_desc_t &pd) {
    switch (what) {
        case dnnl_query_src_md: return DNNL_ARG_SRC_0 + index;
        case dnnl_query_diff_src_md: return DNNL_ARG_DIFF_SRC_0 + index;
        case dnnl_query_dst_md: return DNNL_ARG_DST_0 + index;
        case dnnl_query_diff_dst_md: return DNNL_ARG_DIFF_DST_0 + index;
        case dnnl_query_weights_md:
            if (index == 1 && pd.arg_usage(DNNL_ARG_WEIGHTS_1) == arg_usage_t::unused)
                return DNNL_ARG_BIAS;
            return DNNL_ARG_WEIGHTS_0 + index;
        case dnnl_query_diff_weights_md:
            if (index == 1
                    && pd.arg_usage(DNNL_ARG_DIFF_WEIGHTS_1) == arg_usage_t::unused)
                return DNNL_ARG_DIFF_BIAS;
            return DNNL_ARG_DIFF_WEIGHTS_0 + index;
        case dnnl_query_workspace_md: return index == 0 ? DNNL_ARG_WORKSPACE : -1;
        case dnnl_query_scratchpad_md: return index == 0 ? DNNL_ARG_SCRATCHPAD : -1;
        case dnnl_query_exec_arg_md: return index;
        default: return -1;
    }
}

status_t primitive_desc_t::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
        case dnnl_query_primitive_kind:
            *(primitive_kind_t *)result = kind();
            return dnnl_success;
        case dnnl_query_impl_info_str:
            *(const char **)result = name();
            return dnnl_success;
        case dnnl_query_memory_consumption_s64:
            *(dim_t *)result = (dim_t)scratchpad_size_;
            return dnnl_success;
        case dnnl_query_num_of_inputs_s32:
        case dnnl_query_num_of_outputs_s32: {
            int n = 0;
            const arg_usage_t want = what == dnnl_query_num_of_inputs_s32
                    ? arg_usage_t::input
                    : arg_usage_t::output;
            for (int arg : {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_SRC_2,
                         DNNL_ARG_WEIGHTS_0, DNNL_ARG_WEIGHTS_1, DNNL_ARG_BIAS,
                         DNNL_ARG_MEAN, DNNL_ARG_VARIANCE, DNNL_ARG_SCALE,
                         DNNL_ARG_SHIFT, DNNL_ARG_DST_0, DNNL_ARG_DST_1,
                         DNNL_ARG_DIFF_SRC_0, DNNL_ARG_DIFF_DST_0,
                         DNNL_ARG_DIFF_WEIGHTS_0, DNNL_ARG_DIFF_BIAS,
                         DNNL_ARG_WORKSPACE})
                if (arg_usage(arg) == want) ++n;
            *(int *)result = n;
            return dnnl_success;
        }
        case dnnl_query_src_md:
        case dnnl_query_diff_src_md:
        case dnnl_query_dst_md:
        case dnnl_query_diff_dst_md:
        case dnnl_query_weights_md:
        case dnnl_query_diff_weights_md:
        case dnnl_query_workspace_md:
        case dnnl_query_scratchpad_md:
        case dnnl_query_exec_arg_md: {
            int arg = query_arg(what, index, *this);
            if (arg < 0 || index < 0) return dnnl_invalid_arguments;
            const memory_desc_t *md = arg_md(arg);
            if (what != dnnl_query_exec_arg_md && what != dnnl_query_scratchpad_md
                    && arg_usage(arg) == arg_usage_t::unused)
                md = &glob_zero_md();
            *(const memory_desc_t **)result = md ? md : &glob_zero_md();
            return dnnl_success;
        }
        default: return dnnl_unimplemented;
    }
}

void primitive_desc_t::book_scratchpad(size_t bytes) {
    scratchpad_size_ = bytes;
    if (bytes == 0) {
        scratchpad_md_ = zero_md();
        return;
    }
    dims_t dims = {(dim_t)bytes};
    md_init_by_tag(scratchpad_md_, 1, dims, dnnl_u8, dnnl_a);
}

// A float as a C++ stream prints it by default ("0.1", "2", "1e-05"), the
// way oneDNN's verbose lines show attribute parameters.
static std::string float_str(float v) {
    std::ostringstream os;
    os << v;
    return os.str();
}

std::string primitive_desc_t::attr_str() const {
    std::string s;
    auto add = [&](const std::string &part) {
        if (!s.empty()) s += " ";
        s += part;
    };
    if (attr_.scratchpad_mode == dnnl_scratchpad_mode_user)
        add("attr-scratchpad:user");
    if (attr_.fpmath_mode != dnnl_fpmath_mode_strict || attr_.fpmath_apply_to_int)
        add(std::string("attr-fpmath:") + dnnl_fpmath_mode2str(attr_.fpmath_mode)
                + (attr_.fpmath_apply_to_int ? ":true" : ""));
    if (attr_.acc_mode != dnnl_accumulation_mode_strict)
        add(std::string("attr-acc-mode:")
                + dnnl_accumulation_mode2str(attr_.acc_mode));
    // Argument names as oneDNN's verbose spells them (sources numbered,
    // others not; arguments it has no name for as it prints them).
    auto arg_name = [](int arg) -> std::string {
        if ((arg & DNNL_ARG_MULTIPLE_SRC) && arg < 2 * DNNL_ARG_MULTIPLE_SRC)
            return "msrc" + std::to_string(arg - DNNL_ARG_MULTIPLE_SRC);
        switch (arg) {
            case DNNL_ARG_SRC: return "src0";
            case DNNL_ARG_SRC_1: return "src1";
            case DNNL_ARG_SRC_2: return "src2";
            case DNNL_ARG_DST: return "dst";
            case DNNL_ARG_WEIGHTS:
            case DNNL_ARG_WEIGHTS_1:
            case DNNL_ARG_WEIGHTS_2: return "wei";
            case DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_DST:
                return "attr_post_op_dw_dst";
            case DNNL_ARG_ATTR_POST_OP_DW | DNNL_ARG_WEIGHTS:
                return "attr_post_op_dw_wei";
            default: return "unsupported arg";
        }
    };
    if (!attr_.rounding_modes.empty()) {
        std::string r = "attr-rounding-mode:";
        for (size_t i = 0; i < attr_.rounding_modes.size(); ++i) {
            const auto &it = attr_.rounding_modes[i];
            if (i) r += "+";
            r += arg_name(it.arg) + ":"
                    + dnnl_rounding_mode2str((dnnl_rounding_mode_t)it.mode);
        }
        add(r);
    }
    if (attr_.deterministic) add("attr-deterministic:1");
    auto quant = [&](const quant_map_t &m, const char *title) {
        if (m.empty()) return;
        std::string q = title;
        bool first = true;
        for (const auto &it : m.items) {
            q += first ? ":" : "+";
            first = false;
            q += arg_name(it.arg) + ":" + std::to_string(it.e.mask) + ":"
                    + dnnl_dt2str(it.e.data_type);
            if (it.e.group_ndims > 0)
                q += ":" + std::to_string(it.e.group_dims[0]) + "x"
                        + std::to_string(it.e.group_dims[1]);
        }
        add(q);
    };
    quant(attr_.scales, "attr-scales");
    quant(attr_.zero_points, "attr-zero-points");
    if (!attr_.post_ops.entries.empty()) {
        // oneDNN's spelling of each entry: trailing parameters only as far
        // as they differ from their defaults; a binary tensor's mask of
        // non-unit dims, then its layout unless exactly one dim is not 1.
        // The request's entries: a tensor the user left `any` shows so.
        const auto &entries = key_attr().post_ops.entries;
        std::string p = "attr-post-ops:";
        for (size_t i = 0; i < entries.size(); ++i) {
            const auto &e = entries[i];
            if (i) p += "+";
            switch (e.kind) {
                case post_op_kind_t::eltwise: {
                    p += dnnl_alg_kind2str(e.alg);
                    const bool scaled = e.scale != 1.f;
                    if (e.alpha != 0.f || e.beta != 0.f || scaled)
                        p += ":" + float_str(e.alpha);
                    if (e.beta != 0.f || scaled) p += ":" + float_str(e.beta);
                    if (scaled) p += ":" + float_str(e.scale);
                    break;
                }
                case post_op_kind_t::sum: {
                    p += "sum";
                    const bool dt = e.sum_dt != dnnl_data_type_undef;
                    const bool zp = e.zero_point != 0 || dt;
                    if (e.scale != 1.f || zp) p += ":" + float_str(e.scale);
                    if (zp) p += ":" + std::to_string(e.zero_point);
                    if (dt) p += std::string(":") + dnnl_dt2str(e.sum_dt);
                    break;
                }
                case post_op_kind_t::binary: {
                    const memory_desc_t &m = e.src1_md;
                    int mask = 0, non_unit = 0;
                    for (int d = 0; d < m.ndims; ++d)
                        if (m.dims[d] != 1) {
                            mask += 1 << d;
                            ++non_unit;
                        }
                    p += dnnl_alg_kind2str(e.alg);
                    p += std::string(":") + dnnl_dt2str(m.data_type) + ":"
                            + std::to_string(mask);
                    if (m.format_kind == dnnl_format_kind_any) {
                        p += ":any";
                    } else if (m.format_kind == dnnl_blocked && non_unit != 1) {
                        p += ":" + md_layout_str(m);
                        const std::string st = md_strides_str(m);
                        if (!st.empty()) p += ":" + st;
                    }
                    break;
                }
                case post_op_kind_t::dw_conv:
                    p += "dw:k" + std::to_string(e.dw_kernel) + "s"
                            + std::to_string(e.dw_stride) + "p"
                            + std::to_string(e.dw_padding);
                    if (e.dw_wei_dt == dnnl_s8 || e.dw_dst_dt != dnnl_f32)
                        p += std::string(":") + dnnl_dt2str(e.dw_dst_dt);
                    break;
                case post_op_kind_t::prelu:
                    p += "prelu:" + std::to_string(e.prelu_mask);
                    break;
            }
        }
        add(p);
    }
    // oneDNN's "attr-dropout[:layout]:seed_dt:use_offset:use_host_scalars";
    // the layout of a plain mask as letters ordered by stride, left out
    // when exactly one dim is not 1.
    const dropout_t &drop = attr_.dropout;
    if (drop.on()) {
        std::string d = "attr-dropout";
        const memory_desc_t &m = drop.mask_md;
        if (m.format_kind == dnnl_format_kind_any) d += ":any";
        else if (m.format_kind == dnnl_format_kind_undef) d += ":undef";
        else if (m.format_kind == dnnl_blocked) {
            int non_unit = 0;
            for (int i = 0; i < m.ndims; ++i)
                non_unit += m.dims[i] != 1;
            if (non_unit != 1) {
                std::string tag;
                for (int i = 0; i < m.ndims; ++i)
                    tag += (char)('a' + i);
                const dim_t *st = m.format_desc.blocking.strides;
                std::stable_sort(tag.begin(), tag.end(),
                        [&](char x, char y) { return st[x - 'a'] > st[y - 'a']; });
                d += ":" + tag;
            }
        }
        d += std::string(":") + dnnl_dt2str(drop.seed_dt) + ":"
                + std::to_string(drop.use_offset) + ":"
                + std::to_string(drop.use_host_scalars);
        add(d);
    }
    // oneDNN prints the RNN data quantization (not the weights scales).
    const rnn_data_qparams_t &rq = attr_.rnn_data_qparams;
    if (rq.scale != 1.f || rq.shift != 0.f) {
        char buf[96];
        std::snprintf(buf, sizeof(buf), "rnn_data_qparams:%g:%g;", rq.scale, rq.shift);
        add(buf);
    }
    return s;
}

namespace {
struct create_ctx_t {
    const primitive_desc_t *pd;
    engine_t *engine;
    const uint8_t *blob;
    size_t blob_size;
    bool top_level;
};

primitive_cache_t::result_t create_uncached(void *p) {
    auto *ctx = static_cast<create_ctx_t *>(p);
    primitive_cache_t::result_t r;
    r.status = create_recorded_primitive(r.primitive, *ctx->pd, ctx->engine,
            ctx->blob, ctx->blob_size, ctx->top_level);
    if (r.status != dnnl_success) r.primitive.reset();
    return r;
}
} // namespace

status_t primitive_desc_t::create_primitive(std::shared_ptr<primitive_t> &primitive,
        engine_t *engine, bool *cache_hit, bool nested) const {
    const double t0 = verbose_on(vflag_create_profile) ? verbose_now_ms() : 0;
    cache_key_t key = make_cache_key(*this, engine);
    key.owner_pd = this;
    // The code of a nested primitive is part of its outer primitive's
    // record: restored from the outer blob's slice, noted in its record.
    creation_frame_t *outer = creation_frame_t::current();
    create_ctx_t ctx {this, engine, nullptr, 0, outer == nullptr};
    if (outer && outer->restoring())
        DNNL_CHECK(outer->next_nested(ctx.blob, ctx.blob_size));
    else if (!outer)
        restore_request_t::take(ctx.blob, ctx.blob_size);
    bool hit = false;
    auto r = primitive_cache_t::instance().get_or_create(
            key, create_uncached, &ctx, hit);
    if (cache_hit) *cache_hit = hit;
    if (r.status != dnnl_success) return r.status;
    primitive = r.primitive;
    if (outer) outer->note_nested(primitive);
    if (verbose_on(vflag_create_profile))
        verbose_print_create(
                *primitive->pd(), engine, hit, verbose_now_ms() - t0, nested);
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
