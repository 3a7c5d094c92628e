// User handles: the implementation iterator behind primitive descriptor
// creation and next_impl (served from the cache first, rfcs/02), and
// primitive execution with argument checks.
#include "common/primitive_iface.hpp"

#include <cstdlib>
#include <new>

#include "common/cache/blob_id.hpp"
#include "common/exec_ctx.hpp"
#include "common/host_scalar.hpp"
#include "common/host_scratch.hpp"
#include "common/primitive_cache.hpp"
#include "common/sparse_md.hpp"
#include "common/verbose.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

using namespace dnnl::impl;

namespace {
// The request's attributes. Attributes with nothing set (the common case)
// are one shared object rather than a copy per request; it is handed out
// without a reference count (never destroyed), so that threads creating
// primitives at once do not all update one counter.
std::shared_ptr<const primitive_attr_t> request_attr(const primitive_attr_t *attr) {
    static const primitive_attr_t *plain = [] {
        auto *a = new primitive_attr_t();
        a->fpmath_mode = dnnl_fpmath_mode_strict;
        return a;
    }();
    const bool strict = default_fpmath_mode() == dnnl_fpmath_mode_strict;
    if (strict && (!attr || attr->has_default_values()))
        return std::shared_ptr<const primitive_attr_t>(
                std::shared_ptr<const primitive_attr_t>(), plain);
    return attr ? std::make_shared<primitive_attr_t>(*attr)
                : std::make_shared<primitive_attr_t>();
}
} // namespace

status_t dnnl_primitive_desc::create(dnnl_primitive_desc **out,
        const op_desc_t &op, const primitive_attr_t *attr, engine_t *engine,
        const dnnl_primitive_desc *hint_fwd) {
    return create(out, std::shared_ptr<const op_desc_t>(op.clone()), attr,
            engine, hint_fwd);
}

status_t dnnl_primitive_desc::create(dnnl_primitive_desc **out,
        std::shared_ptr<const op_desc_t> op_ptr, const primitive_attr_t *attr,
        engine_t *engine, const dnnl_primitive_desc *hint_fwd) {
    if (!out || !engine || !op_ptr) return dnnl_invalid_arguments;
    const op_desc_t &op = *op_ptr;
    // RNN quantization parameters mean nothing to other primitives than
    // RNN and the reorders of its data and weights; oneDNN refuses them
    // there rather than ignore them.
    if (attr && attr->has_rnn_qparams() && op.primitive_kind != dnnl_rnn
            && op.primitive_kind != dnnl_reorder) {
        verbose_error("primitive", "RNN quantization parameters on a %s primitive",
                dnnl_prim_kind2str(op.primitive_kind));
        return dnnl_unimplemented;
    }
    std::unique_ptr<dnnl_primitive_desc> iface(new (std::nothrow) dnnl_primitive_desc());
    if (!iface) return dnnl_out_of_memory;
    iface->engine_ = engine_ref_t(engine);
    iface->op_ = std::move(op_ptr);
    iface->attr_ = request_attr(attr);
    if (hint_fwd) iface->hint_fwd_ = hint_fwd->pd_;
    iface->hint_mds_ = hint_mds_for(op, iface->hint_fwd_.get());
    iface->list_ = engine->get_implementation_list(op);
    if (!iface->list_) return dnnl_unimplemented;
    status_t st = iface->find_from(0, 0);
    if (st != dnnl_success) return st;
    *out = iface.release();
    return dnnl_success;
}

status_t dnnl_primitive_desc::find_from(size_t pos, int impl_id) {
    // A primitive already cached for this request and implementation id
    // carries the descriptor we would build: take it instead (rfcs/02).
    {
        cache_key_t key = make_cache_key(*op_, *attr_, impl_id, hint_mds_, engine());
        auto cached = primitive_cache_t::instance().peek(key);
        if (cached) {
            pd_ = std::const_pointer_cast<primitive_desc_t>(std::move(cached));
            return dnnl_success;
        }
    }
    status_t last = dnnl_unimplemented;
    bool skipped_for_dropout = false, skipped_for_reductions = false;
    for (size_t i = pos; list_ && list_[i].create; ++i) {
        primitive_desc_t *raw = nullptr;
        status_t st = list_[i].create(
                &raw, *op_, *attr_, engine(), hint_fwd_.get());
        if (st != dnnl_success) {
            if (st != dnnl_unimplemented) last = st;
            continue;
        }
        std::shared_ptr<primitive_desc_t> pd(raw);
        // An implementation that would ignore the dropout attribute is no
        // answer to the request.
        if (attr_->dropout.on() && !pd->handles_dropout()) {
            skipped_for_dropout = true;
            continue;
        }
        // Likewise one that would not read precomputed reductions.
        if (!attr_->precomputed_reductions.empty()
                && !pd->handles_precomputed_reductions()) {
            skipped_for_reductions = true;
            continue;
        }
        pd->set_impl_id(impl_id);
        pd->set_impl_list_pos(i);
        pd->set_self(pd);
        pd_ = pd;
        return dnnl_success;
    }
    if (skipped_for_dropout)
        verbose_check("primitive", "no implementation of %s applies the dropout "
                "attribute to this problem", dnnl_prim_kind2str(op_->primitive_kind));
    if (skipped_for_reductions)
        verbose_check("primitive", "no %s implementation takes precomputed "
                "reductions for this problem",
                dnnl_prim_kind2str(op_->primitive_kind));
    return last;
}

status_t dnnl_primitive_desc::next_impl(bool every_kind) {
    if (!list_ || !pd_) return dnnl_last_impl_reached;
    // oneDNN makes reorder, sum and concat descriptors without an
    // implementation iterator: next_impl ends at once, and programs (its own
    // tests among them) rely on that.
    switch (pd_->kind()) {
        case dnnl_reorder:
        case dnnl_sum:
        case dnnl_concat:
            if (!every_kind) return dnnl_last_impl_reached;
            break;
        default: break;
    }
    auto current = pd_;
    status_t st = find_from(current->impl_list_pos() + 1, current->impl_id() + 1);
    if (st != dnnl_success) {
        pd_ = current;
        return dnnl_last_impl_reached;
    }
    blob_id_.reset(); // another implementation, another id
    return dnnl_success;
}

status_t dnnl_primitive_desc::query(query_t what, int index, void *result) const {
    if (!result) return dnnl_invalid_arguments;
    switch (what) {
        case dnnl_query_engine:
            *(dnnl_engine_t *)result = engine();
            return dnnl_success;
        case dnnl_query_scratchpad_engine:
            *(dnnl_engine_t *)result = engine();
            return dnnl_success;
        case dnnl_query_reorder_src_engine:
        case dnnl_query_reorder_dst_engine: {
            if (pd_->kind() != dnnl_reorder) return dnnl_unimplemented;
            const engine_ref_t &e = what == dnnl_query_reorder_src_engine
                    ? reorder_src_engine_
                    : reorder_dst_engine_;
            *(dnnl_engine_t *)result = e.get() ? e.get() : engine();
            return dnnl_success;
        }
        case dnnl_query_cache_blob_id_size_s64:
            *(dim_t *)result = (dim_t)blob_id().size();
            return dnnl_success;
        case dnnl_query_cache_blob_id:
            // Empty (CPU): a null pointer, as oneDNN answers.
            *(const uint8_t **)result = blob_id().empty()
                    ? nullptr
                    : reinterpret_cast<const uint8_t *>(blob_id().data());
            return dnnl_success;
        default: return pd_->query(what, index, result);
    }
}

const std::string &dnnl_primitive_desc::blob_id() const {
    auto id = std::atomic_load(&blob_id_);
    if (!id) {
        // Threads racing here make equal ids; the first stored one stays.
        std::shared_ptr<const std::string> made
                = std::make_shared<std::string>(
                        blob::primitive_blob_id(*pd_, engine()));
        std::shared_ptr<const std::string> none;
        if (!std::atomic_compare_exchange_strong(&blob_id_, &none, made))
            made = none;
        id = made;
    }
    return *id;
}

status_t dnnl_primitive_desc::create_primitive(dnnl_primitive **out) const {
    if (!out) return dnnl_invalid_arguments;
    std::shared_ptr<primitive_t> p;
    DNNL_CHECK(pd_->create_primitive(p, engine()));
    std::unique_ptr<dnnl_primitive> iface(new (std::nothrow) dnnl_primitive(p, *this));
    if (!iface) return dnnl_out_of_memory;
    DNNL_CHECK(iface->init());
    *out = iface.release();
    return dnnl_success;
}

// ---- primitive handle ----

dnnl_primitive::dnnl_primitive(
        std::shared_ptr<primitive_t> p, const dnnl_primitive_desc &pd)
    : primitive_(std::move(p)) {
    pd_.reset(new dnnl_primitive_desc(pd));
    // A cached primitive may bring its own descriptor, equal to pd's.
    if (pd_->pd_.get() != primitive_->pd())
        pd_->pd_ = std::const_pointer_cast<primitive_desc_t>(
                primitive_->shared_pd());
}

dnnl_primitive::~dnnl_primitive() = default;

status_t dnnl_primitive::init() {
    return primitive_->create_resource(engine(), resources_);
}

namespace {
// Arguments whose presence execute() checks when the descriptor uses them.
const int checked_args[] = {DNNL_ARG_SRC_0, DNNL_ARG_SRC_1, DNNL_ARG_SRC_2,
        DNNL_ARG_WEIGHTS_0, DNNL_ARG_WEIGHTS_1, DNNL_ARG_BIAS, DNNL_ARG_MEAN,
        DNNL_ARG_VARIANCE, DNNL_ARG_SCALE, DNNL_ARG_SHIFT, DNNL_ARG_DST_0,
        DNNL_ARG_DST_1, DNNL_ARG_DST_2, DNNL_ARG_WORKSPACE, DNNL_ARG_DIFF_SRC_0,
        DNNL_ARG_DIFF_SRC_1, DNNL_ARG_DIFF_DST_0, DNNL_ARG_DIFF_WEIGHTS_0,
        DNNL_ARG_DIFF_BIAS, DNNL_ARG_DIFF_SCALE, DNNL_ARG_DIFF_SHIFT};

} // namespace

namespace {
// Whether `arg` is a scale or zero point the attributes declare host-side,
// of the scalar's data type.
bool host_scalar_arg_ok(
        const primitive_desc_t &pd, int arg, const memory_desc_t &md) {
    const primitive_attr_t &a = *pd.attr();
    // Dropout's single values, when the attribute says they are host-side.
    if (a.dropout.on() && a.dropout.use_host_scalars) {
        switch (arg) {
            case DNNL_ARG_ATTR_DROPOUT_PROBABILITY: return md.data_type == dnnl_f32;
            case DNNL_ARG_ATTR_DROPOUT_SEED: return md.data_type == a.dropout.seed_dt;
            case DNNL_ARG_ATTR_DROPOUT_OFFSET:
                return a.dropout.use_offset && md.data_type == dnnl_s64;
            default: break;
        }
    }
    const quant_entry_t *e = nullptr;
    if (arg & DNNL_ARG_ATTR_SCALES)
        e = a.scales.get(arg & ~DNNL_ARG_ATTR_SCALES);
    else if (arg & DNNL_ARG_ATTR_ZERO_POINTS)
        e = a.zero_points.get(arg & ~DNNL_ARG_ATTR_ZERO_POINTS);
    return e && e->is_on_host && e->data_type == md.data_type;
}
} // namespace

status_t dnnl_primitive::execute(
        stream_t *stream, int nargs, const dnnl_exec_arg_t *args) const {
    if (!stream || nargs < 0 || (nargs > 0 && !args))
        return dnnl_invalid_arguments;
    if (!(stream->engine()->engine_id() == engine()->engine_id())) {
        verbose_error("primitive", "stream and primitive engines differ");
        return dnnl_invalid_arguments;
    }
    const primitive_desc_t &pd = *primitive_->pd();
    std::vector<exec_arg_t> list;
    list.reserve(nargs);
    for (int i = 0; i < nargs; ++i) {
        for (const auto &seen : list)
            if (seen.arg == args[i].arg) {
                verbose_error("primitive", "duplicate execution argument %d",
                        args[i].arg);
                return dnnl_invalid_arguments;
            }
        memory_t *mem = args[i].memory;
        if (mem && is_host_scalar(mem->md())) {
            // A host scalar (no engine) only where the attributes declare
            // a host-side scale or zero point.
            if (!host_scalar_arg_ok(pd, args[i].arg, mem->md())) {
                verbose_error("primitive",
                        "argument %d: unexpected host-scalar memory", args[i].arg);
                return dnnl_invalid_arguments;
            }
        } else if (mem && pd.arg_usage(args[i].arg) != arg_usage_t::unused) {
            // Each argument belongs to the primitive's engine, except the
            // source and destination of a cpu <-> gpu reorder, which belong
            // to the engines the reorder was created between.
            engine_t *want = engine();
            if (pd.kind() == dnnl_reorder) {
                engine_t *se = pd_->reorder_src_engine_.get();
                engine_t *de = pd_->reorder_dst_engine_.get();
                if (args[i].arg == DNNL_ARG_FROM && se) want = se;
                if (args[i].arg == DNNL_ARG_TO && de) want = de;
            }
            if (mem->engine()->kind() != want->kind()) {
                verbose_error("primitive", "argument %d is on another engine kind",
                        args[i].arg);
                return dnnl_invalid_arguments;
            }
            // OpenCL buffers are usable only in their own context.
            const engine_id_t mid = mem->engine()->engine_id();
            const engine_id_t pid = want->engine_id();
            if (mid.runtime != pid.runtime || mid.device != pid.device
                    || mid.context != pid.context) {
                verbose_error("primitive",
                        "argument %d is on another device or context",
                        args[i].arg);
                return dnnl_invalid_arguments;
            }
            const memory_desc_t *md = pd.arg_md(args[i].arg);
            // Sparse memory: its own nnz counts (the implementation reads
            // it from the memory), but every buffer of its encoding must be
            // there.
            if (md && md_is_sparse(*md)) {
                const memory_desc_t &mmd = mem->md();
                bool buffers_ok = md_is_sparse(mmd)
                        && mem->nhandles() >= md_num_handles(mmd);
                for (int b = 0; buffers_ok && b < md_num_handles(mmd); ++b)
                    buffers_ok = md_buffer_size(mmd, b) == 0
                            || mem->host_ptr(b) != nullptr;
                if (!buffers_ok) {
                    verbose_error("primitive",
                            "argument %d: sparse memory lacks a buffer",
                            args[i].arg);
                    return dnnl_invalid_arguments;
                }
            }
            // Runtime dims are resolved by the implementation at execution,
            // which checks the memory itself.
            else if (md && !is_zero_md(*md)
                    && !md_has_runtime_dims_or_strides(*md)
                    && md_size(*md) > md_size(mem->md())) {
                verbose_error("primitive",
                        "argument %d: memory is smaller than the descriptor needs",
                        args[i].arg);
                return dnnl_invalid_arguments;
            }
        }
        list.push_back({args[i].arg, mem});
    }
    auto present = [&](int arg) {
        for (const auto &a : list)
            if (a.arg == arg && a.mem && a.mem->storage()
                    && a.mem->storage()->data_handle())
                return true;
        return false;
    };
    for (int arg : checked_args) {
        if (pd.arg_usage(arg) == arg_usage_t::unused) continue;
        const memory_desc_t *md = pd.arg_md(arg);
        if (!md || is_zero_md(*md) || md_size(*md) == 0) continue;
        if (!present(arg)) {
            verbose_error("primitive", "execution argument %d is missing", arg);
            return dnnl_invalid_arguments;
        }
    }
    // The post-ops' own tensors (binary operands, select conditions,
    // PReLU weights): missing ones are refused here, before a backend
    // hands a null buffer to a kernel.
    const auto &post_ops = pd.attr()->post_ops.entries;
    for (size_t i = 0; i < post_ops.size(); ++i) {
        const int base = DNNL_ARG_ATTR_MULTIPLE_POST_OP((int)i);
        for (int arg : {base | DNNL_ARG_SRC_1, base | DNNL_ARG_SRC_2,
                     base | DNNL_ARG_WEIGHTS}) {
            if (pd.arg_usage(arg) != arg_usage_t::input || present(arg))
                continue;
            verbose_error("primitive",
                    "post-op %zu: execution argument %d is missing", i, arg);
            return dnnl_invalid_arguments;
        }
    }

    exec_ctx_t ctx(stream, std::move(list));
    ctx.set_resources(&resources_);
    // The scratchpad is per execution so that one primitive may run on many
    // threads at once (DNNL_ENABLE_CONCURRENT_EXEC semantics).
    // On CPU it is a host pointer lent by the calling thread's kept buffer;
    // on other engines the runtime's buffer handle (a cl_mem) this
    // primitive keeps for the stream (device_scratch.hpp).
    host_scratch_lease_t host_scratch;
    device_scratch_cache_t::lease_t device_scratch;
    if (pd.scratchpad_size() > 0) {
        if (pd.attr()->scratchpad_mode == dnnl_scratchpad_mode_user) {
            memory_t *m = ctx.memory(DNNL_ARG_SCRATCHPAD);
            if (!m || !m->host_ptr() || md_size(m->md()) < pd.scratchpad_size()
                    || !(m->engine()->engine_id() == engine()->engine_id())) {
                verbose_error("primitive", "user scratchpad is missing or too small");
                return dnnl_invalid_arguments;
            }
            ctx.set_scratchpad(m->host_ptr());
        } else if (engine()->kind() != dnnl_cpu) {
            DNNL_CHECK(device_scratch_.acquire(
                    stream, engine(), pd.scratchpad_size(), device_scratch));
            ctx.set_scratchpad(device_scratch.handle());
        } else {
            void *ptr = host_scratch.acquire(pd.scratchpad_size());
            if (!ptr) return dnnl_out_of_memory;
            ctx.set_scratchpad(ptr);
        }
    }
    const bool profile = verbose_on(vflag_exec_profile);
    const double t0 = profile ? verbose_now_ms() : 0;
    status_t st = primitive_->execute(ctx);
    if (profile && st == dnnl_success) {
        stream->wait();
        verbose_print_exec(pd, engine(), verbose_now_ms() - t0);
    }
    return st;
}

namespace dnnl {
namespace impl {

status_t create_nested_pd(std::shared_ptr<primitive_desc_t> &pd,
        const op_desc_t &op, const primitive_attr_t &attr, engine_t *engine) {
    dnnl_primitive_desc *iface = nullptr;
    DNNL_CHECK(dnnl_primitive_desc::create(&iface, op, &attr, engine, nullptr));
    pd = iface->impl();
    delete iface;
    return dnnl_success;
}

} // namespace impl
} // namespace dnnl
