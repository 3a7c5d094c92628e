// The GEMM kernel family's host side: planning (kernel, tile and split-K
// choice per device and shape), kernel defines, and launches.
#include "gpu/ocl/gemm/gemm_kernel.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "common/utils.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_stream.hpp"
#include "gpu/ocl/ocl_types.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {

struct tile_t {
    int wg_m, wg_n, tm, tn, kb;
    int lx() const { return wg_n / tn; }
    int ly() const { return wg_m / tm; }
    // Two buffers of A and B tiles, rows padded by 4 elements.
    size_t local_bytes() const {
        return 2 * (size_t)kb * ((wg_m + 4) + (wg_n + 4)) * 4;
    }
};

// Tuned on an H100 (NVIDIA OpenCL, f32 4096^3): 128 x 128 blocks of 8 x 8
// register tiles with K steps of 16 ran at 42 TFLOP/s, 64 x 64 at 39, K
// steps of 8 at 33.
constexpr tile_t tile_big = {128, 128, 8, 8, 16};
constexpr tile_t tile_small = {64, 64, 8, 8, 16};
constexpr tile_t tile_tiny = {32, 32, 4, 4, 8};

bool tile_fits(const device_info_t &dev, const tile_t &t) {
    const size_t threads = (size_t)t.lx() * t.ly();
    return threads <= dev.max_wg_size && (size_t)t.lx() <= dev.max_wi_sizes[0]
           && (size_t)t.ly() <= dev.max_wi_sizes[1]
           && (dev.local_mem_is_global
                   || t.local_bytes() <= dev.local_mem_size);
}

dim_t div_up(dim_t a, dim_t b) {
    return (a + b - 1) / b;
}

// K slices for `blocks` work-groups on `slots` concurrent ones: the time
// model counts waves of K steps, plus the reduction pass (its bytes at
// about what one step-wave takes per 3.3 MB, and a launch). On an H100
// it picks 3 slices for 128 x 11008 x 4096 (28 -> 38 TFLOP/s) and for
// 384 x 3072 x 768, none for large squares.
int choose_split(const gemm_shape_t &s, const tile_t &t, dim_t slots) {
    const dim_t blocks = div_up(s.M, t.wg_m) * div_up(s.N, t.wg_n) * s.batch;
    if (s.K == 0 || blocks == 0) return 1;
    const double out_bytes = 4.0 * s.M * s.N * s.batch;
    double best = (double)div_up(blocks, slots) * div_up(s.K, t.kb);
    int best_n = 1;
    for (int n = 2; n <= 16; ++n) {
        const dim_t kchunk = div_up(div_up(s.K, n), t.kb) * t.kb;
        if (kchunk < 4 * t.kb) break;
        if (div_up(s.K, kchunk) != n) continue;
        if (out_bytes * n > 128.0 * (1 << 20)) break;
        const double cost = (double)div_up(blocks * n, slots) * (kchunk / t.kb)
                            + out_bytes * (n + 1) / 3.3e6 + 3;
        if (cost < 0.97 * best) {
            best = cost;
            best_n = n;
        }
    }
    return best_n;
}

std::string dt_names(const gemm_conf_t &c) {
    std::string s = dnnl_dt2str(c.a_dt);
    if (c.b_dt != c.a_dt) s += dnnl_dt2str(c.b_dt);
    return s;
}

void define_operands(kernel_options_t &o, const gemm_conf_t &c) {
    define_data_type(o, "A", c.a_dt);
    if (c.b_decompress) {
        o.define("B_DECOMPRESS");
        define_int_type(o, "B", c.b_dt);
        if (c.bq_scale) {
            o.define("WITH_BQ_SCALE");
            define_data_type(o, "BQ_S", c.bq_scale_dt);
        }
        if (c.bq_zp) {
            o.define("WITH_BQ_ZP");
            define_int_type(o, "BQ_Z", c.bq_zp_dt);
        }
    } else {
        define_data_type(o, "B", c.b_dt);
    }
    if (c.acc_int()) o.define("ACC_INT");
    if (c.a_zp) o.define("WITH_A_ZP");
    if (c.b_zp) o.define("WITH_B_ZP");
}

// C of the destination type with the whole epilogue.
void define_epilogue(kernel_options_t &o, const gemm_conf_t &c) {
    define_data_type(o, "C", c.c_dt);
    if (c.with_bias) {
        o.define("WITH_BIAS");
        define_data_type(o, "BIAS", c.bias_dt);
    }
    if (c.src_scale) o.define("WITH_SRC_SCALE");
    if (c.wei_scale) o.define("WITH_WEI_SCALE");
    if (c.dst_scale) o.define("WITH_DST_SCALE");
    if (c.src_scale_host) o.define("SRC_SCALE_ON_HOST");
    if (c.wei_scale_host) o.define("WEI_SCALE_ON_HOST");
    if (c.dst_scale_host) o.define("DST_SCALE_ON_HOST");
    if (c.dst_zp) o.define("WITH_DST_ZP");
    o.define("DST_NDIMS", (int64_t)c.dst_ndims);
    c.post_ops.define(o);
    if (c.post_ops.has_sum()) o.define("WITH_SUM");
    if (c.dropout) {
        o.define("WITH_DROPOUT");
        if (c.dropout_on_host) o.define("DROPOUT_ON_HOST");
        if (c.dropout_seed_s64) o.define("DROPOUT_SEED_T", std::string("long"));
        if (c.dropout_offset) o.define("DROPOUT_USE_OFFSET");
        if (c.dropout_mask) o.define("WITH_DROPOUT_MASK");
    }
    if (c.sround) define_stochastic_rounding(o, c.c_dt); // the pd checked
}

// C as raw accumulators (split-K workspace).
void define_raw(kernel_options_t &o, const gemm_conf_t &c) {
    define_data_type(o, "C", c.acc_int() ? dnnl_s32 : dnnl_f32);
    o.define("GEMM_RAW_OUT");
}

void define_tiling(kernel_options_t &o, const gemm_conf_t &c,
        const gemm_plan_t &p, bool c_ncontig) {
    if (p.kind == gemm_plan_t::kind_t::tiled) {
        o.define("WG_M", (int64_t)p.wg_m);
        o.define("WG_N", (int64_t)p.wg_n);
        o.define("TM", (int64_t)p.tm);
        o.define("TN", (int64_t)p.tn);
        o.define("KB", (int64_t)p.kb);
        o.define("A_TRANS", c.a == gemm_access_t::col_major ? 1 : 0);
        o.define("B_TRANS", c.b == gemm_access_t::col_major ? 1 : 0);
    } else if (p.kind == gemm_plan_t::kind_t::gemv) {
        o.define("LX", (int64_t)p.lx);
        o.define("LY", (int64_t)p.ly);
        o.define("VEC", (int64_t)p.vec);
        o.define("GEMV_MAX_M", (int64_t)p.tm);
        o.define("B_KCONTIG", c.b == gemm_access_t::col_major ? 1 : 0);
    } else {
        o.define("TM", (int64_t)p.tm);
        o.define("TN", (int64_t)p.tn);
        if (c.b == gemm_access_t::row_major) o.define("B_NCONTIG");
    }
    if (c_ncontig) o.define("C_NCONTIG");
}

cl_int4 int4_of(const dim_t *v) {
    cl_int4 r;
    for (int i = 0; i < 4; ++i) r.s[i] = (cl_int)v[i];
    return r;
}

cl_long4 long4_of(const dim_t *v) {
    cl_long4 r;
    for (int i = 0; i < 4; ++i) r.s[i] = (cl_long)v[i];
    return r;
}

} // namespace

gemm_access_t gemm_access_of(
        dim_t s_outer, dim_t s_inner, dim_t d_outer, dim_t d_inner) {
    if (s_inner == 1 || d_inner == 1) return gemm_access_t::row_major;
    if (s_outer == 1 || d_outer == 1) return gemm_access_t::col_major;
    return gemm_access_t::strided;
}

bool gemm_fit_access(gemm_access_t acc, dim_t d_outer, dim_t d_inner,
        dim_t &s_outer, dim_t &s_inner) {
    switch (acc) {
    case gemm_access_t::row_major:
        if (s_inner != 1 && d_inner != 1) return false;
        s_inner = 1;
        return true;
    case gemm_access_t::col_major:
        if (s_outer != 1 && d_outer != 1) return false;
        s_outer = 1;
        return true;
    default:
        return true;
    }
}

bool gemm_conf_t::acc_int() const {
    return a_dt == dnnl_s8 || a_dt == dnnl_u8;
}

dim_t gemm_exec_t::batch() const {
    dim_t n = 1;
    for (dim_t d : bdims) n *= d;
    return n;
}

gemm_workspace_pool_t::~gemm_workspace_pool_t() {
    for (auto &e : entries_) {
        if (e->mem) clReleaseMemObject(e->mem);
        clReleaseCommandQueue(e->queue);
    }
}

cl_mem gemm_workspace_pool_t::acquire(cl_command_queue queue, size_t bytes,
        std::unique_lock<std::mutex> &lock) {
    cl_command_queue_properties props = 0;
    if (clGetCommandQueueInfo(
                queue, CL_QUEUE_PROPERTIES, sizeof(props), &props, nullptr)
                    != CL_SUCCESS
            || (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        return nullptr;
    entry_t *e = nullptr;
    {
        std::lock_guard<std::mutex> g(mutex_);
        for (auto &x : entries_)
            if (x->queue == queue) e = x.get();
        if (!e) {
            entries_.emplace_back(new entry_t);
            e = entries_.back().get();
            e->queue = queue;
            clRetainCommandQueue(queue);
        }
    }
    lock = std::unique_lock<std::mutex>(e->mutex);
    if (e->size < bytes) {
        cl_context ctx = nullptr;
        clGetCommandQueueInfo(
                queue, CL_QUEUE_CONTEXT, sizeof(ctx), &ctx, nullptr);
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
        if (err != CL_SUCCESS) {
            lock.unlock();
            return nullptr;
        }
        if (e->mem) clReleaseMemObject(e->mem);
        e->mem = m;
        e->size = bytes;
    }
    return e->mem;
}

status_t check_buffer(cl_mem m, const memory_desc_t &md, const char *what) {
    dim_t last = md.offset0;
    for (int d = 0; d < md.ndims; ++d) {
        if (md.dims[d] == 0) return dnnl_success;
        last += (md.padded_dims[d] - 1) * md.format_desc.blocking.strides[d];
    }
    size_t size = 0;
    if (!m
            || clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(size), &size, nullptr)
                       != CL_SUCCESS) {
        verbose_error("ocl", "%s: no OpenCL buffer", what);
        return dnnl_invalid_arguments;
    }
    // Types packed several to a byte (s4, u4) hold (last + 1) elements in
    // whole bytes.
    const int bits = sub_byte_bits(md.data_type);
    const size_t need = bits ? ((size_t)(last + 1) * bits + 7) / 8
                             : (size_t)(last + 1) * data_type_size(md.data_type);
    if (need > size) {
        verbose_error(
                "ocl", "%s: buffer of %zu bytes is too small", what, size);
        return dnnl_invalid_arguments;
    }
    return dnnl_success;
}

namespace {

bool fp_type(data_type_t dt) {
    return dt == dnnl_f32 || dt == dnnl_f16 || dt == dnnl_bf16;
}

// The GEMV kernel: a few rows of floating-point A against B with a unit
// stride (along k: one row), on GPUs (or where forced).
bool use_gemv(const device_info_t &dev, const gemm_conf_t &conf,
        const gemm_shape_t *shape, const std::string &force) {
    if (!shape || shape->M > gemm_gemv_max_m || shape->M < 1
            || conf.b == gemm_access_t::strided || conf.acc_int()
            || !fp_type(conf.a_dt)
            || !(fp_type(conf.b_dt) || conf.b_decompress))
        return false;
    if (force == "gemv") return true;
    // Along k each lane loads every row of A it multiplies, value by
    // value: on an H200 one row ran 2.4x faster than the tiled kernel
    // (f16 1x4096 by 4096x4096), eight rows 1.4-2.3x slower.
    if (conf.b == gemm_access_t::col_major && shape->M > 1) return false;
    return dev.is_gpu() && force.empty()
           && dev.max_wg_size >= 256 && dev.max_wi_sizes[0] >= 32
           && dev.max_wi_sizes[1] >= 8;
}

// 32 x 8 work-items a group, 16 bytes of B a work-item and step. B with
// unit stride along n: a group takes 32 x 16 bytes of columns, its lanes
// 8 rows at a time; along k: a group takes 8 columns, 32 lanes a column
// walking its K slice. K is split until the groups fill the device about
// four times over, each slice keeping at least 64 rows (two steps of all
// lanes along k).
gemm_plan_t plan_gemv(const device_info_t &dev, const gemm_conf_t &conf,
        const gemm_shape_t &shape) {
    gemm_plan_t p;
    p.kind = gemm_plan_t::kind_t::gemv;
    p.lx = 32, p.ly = 8;
    p.vec = conf.b_dt == dnnl_f32 ? 4 : 8;
    // Accumulators for M rows, rounded up to a power of two (a program
    // per class; fewer registers than always holding the most).
    p.tm = 1;
    while (p.tm < shape.M) p.tm *= 2;
    const bool kcontig = conf.b == gemm_access_t::col_major;
    const dim_t groups = (kcontig ? div_up(shape.N, (dim_t)p.ly)
                                  : div_up(shape.N, (dim_t)p.lx * p.vec))
            * shape.batch;
    const dim_t want = div_up(4 * (dim_t)std::max(dev.compute_units, 1), groups);
    const dim_t rows = kcontig ? 2 * p.lx * p.vec : 64;
    const dim_t most = std::max<dim_t>(shape.K / rows, 1);
    p.nsplit = (int)std::max<dim_t>(1, std::min<dim_t>({want, most, 64}));
    const std::string n = getenv_string("ONEDNN_OCL_GEMM_SPLITK");
    if (!n.empty())
        p.nsplit = (int)std::max<dim_t>(1,
                std::min<dim_t>(std::atoi(n.c_str()), std::max<dim_t>(shape.K, 1)));
    if (p.nsplit > 1)
        p.workspace = (size_t)p.nsplit * shape.M * shape.N * shape.batch * 4;
    p.name = "ocl:gemm_" + dt_names(conf) + "_gemv"
             + (p.nsplit > 1 ? "_splitk" + std::to_string(p.nsplit) : "");
    return p;
}

} // namespace

status_t check_buffer(cl_mem m, dim_t count, data_type_t dt, const char *what) {
    memory_desc_t md;
    const dims_t dims = {count};
    DNNL_CHECK(md_init_by_strides(md, 1, dims, dt, nullptr));
    return check_buffer(m, md, what);
}

gemm_plan_t plan_gemm(const device_info_t &dev, const gemm_conf_t &conf,
        const gemm_shape_t *shape) {
    gemm_plan_t p;
    // The tiled kernels need a unit stride in both operands and hold
    // floats (f64, which the pd checked, takes the direct kernel).
    const bool untiled = conf.a == gemm_access_t::strided
                         || conf.b == gemm_access_t::strided
                         || conf.a_dt == dnnl_f64;
    const std::string force = getenv_string("ONEDNN_OCL_GEMM_KERNEL");
    const tile_t *tile = nullptr;
    if (!untiled && force == "tiled" && !dev.is_gpu()) {
        tile = &tile_tiny;
    } else if (!untiled && force != "direct"
               && (dev.is_gpu() || force == "tiled")) {
        const bool narrow = shape && (shape->M <= 64 || shape->N <= 64);
        for (const tile_t *t : {&tile_big, &tile_small, &tile_tiny})
            if (tile_fits(dev, *t) && !(narrow && t == &tile_big)) {
                tile = t;
                break;
            }
    }
    const std::string dts = dt_names(conf);
    if (use_gemv(dev, conf, shape, force)) return plan_gemv(dev, conf, *shape);
    if (!tile) {
        // CPU devices: wide rows of B against a few rows of A, as plain
        // loops over work-items (16 floats are one AVX-512 vector).
        p.kind = gemm_plan_t::kind_t::direct;
        if (dev.is_gpu()) {
            p.tm = 4, p.tn = 4, p.lx = 16, p.ly = 16;
        } else {
            p.tm = 8, p.tn = 16, p.lx = 4, p.ly = 4;
        }
        p.name = "ocl:gemm_" + dts + "_direct_" + std::to_string(p.tm) + "x"
                 + std::to_string(p.tn);
        return p;
    }
    p.kind = gemm_plan_t::kind_t::tiled;
    p.wg_m = tile->wg_m, p.wg_n = tile->wg_n;
    p.tm = tile->tm, p.tn = tile->tn, p.kb = tile->kb;
    p.lx = tile->lx(), p.ly = tile->ly();
    if (shape) {
        // Concurrent work-groups: one 256-wide group per compute unit (its
        // registers fill an H100 multiprocessor), four of the smaller ones.
        const dim_t slots =
                (dim_t)dev.compute_units * (tile == &tile_big ? 1 : 4);
        p.nsplit = choose_split(*shape, *tile, std::max<dim_t>(slots, 1));
        const std::string n = getenv_string("ONEDNN_OCL_GEMM_SPLITK");
        if (!n.empty()) {
            const dim_t want = std::max(1, std::min(64, std::atoi(n.c_str())));
            // As many slices as K steps allow, at most `want`.
            p.nsplit = (int)std::min<dim_t>(want, div_up(shape->K, tile->kb));
            p.nsplit = std::max(p.nsplit, 1);
        }
        if (p.nsplit > 1)
            p.workspace =
                    (size_t)p.nsplit * shape->M * shape->N * shape->batch * 4;
    }
    p.name = "ocl:gemm_" + dts + "_" + std::to_string(p.wg_m) + "x"
             + std::to_string(p.wg_n)
             + (p.nsplit > 1 ? "_splitk" + std::to_string(p.nsplit) : "");
    return p;
}

status_t gemm_kernels_t::init(
        engine_t *engine, const gemm_conf_t &conf, const gemm_plan_t &plan) {
    conf_ = conf;
    plan_ = plan;
    const bool tiled = plan.kind == gemm_plan_t::kind_t::tiled;
    const bool gemv = plan.kind == gemm_plan_t::kind_t::gemv;
    const char *src = tiled ? "gemm/gemm_tiled.cl"
                      : gemv ? "gemm/gemm_gemv.cl"
                             : "gemm/gemm_direct.cl";
    std::vector<const char *> names = tiled
            ? std::vector<const char *>{"gemm_tiled", "gemm_tiled_aligned"}
            : std::vector<const char *>{gemv ? "gemm_gemv" : "gemm_direct"};
    std::vector<ocl_kernel_t> ks;

    kernel_options_t o;
    define_operands(o, conf);
    define_tiling(o, conf, plan, conf.c_ncontig);
    define_epilogue(o, conf);
    DNNL_CHECK(create_kernels(engine, src, o, names, ks));
    main_[0] = ks[0];
    main_[1] = tiled ? ks[1] : ks[0];
    if (plan.nsplit <= 1) return dnnl_success;

    kernel_options_t r;
    define_operands(r, conf);
    define_tiling(r, conf, plan, true);
    define_raw(r, conf);
    DNNL_CHECK(create_kernels(engine, src, r, names, ks));
    raw_[0] = ks[0];
    raw_[1] = tiled ? ks[1] : ks[0];

    kernel_options_t e;
    if (conf.acc_int()) e.define("ACC_INT");
    define_epilogue(e, conf);
    return create_kernel(
            engine, "gemm/gemm_reduce.cl", e, "gemm_splitk_reduce", reduce_);
}

// Every 4-vector the tiled kernel loads or stores with 16-byte accesses is
// aligned: f32 operands with offsets and non-unit strides multiple of 4.
bool gemm_kernels_t::aligned(const gemm_exec_t &e, bool raw) const {
    auto al = [](dim_t off, dim_t s, const dim_t *bs) {
        bool ok = off % 4 == 0 && s % 4 == 0;
        for (int i = 0; i < gemm_max_batch_dims; ++i) ok = ok && bs[i] % 4 == 0;
        return ok;
    };
    const bool a_ok =
            conf_.a_dt != dnnl_f32
            || al(e.a_off,
                    conf_.a == gemm_access_t::row_major ? e.a_sm : e.a_sk,
                    e.a_bs);
    const bool b_ok =
            conf_.b_dt != dnnl_f32
            || al(e.b_off,
                    conf_.b == gemm_access_t::row_major ? e.b_sk : e.b_sn,
                    e.b_bs);
    bool c_ok;
    if (raw)
        c_ok = e.N % 4 == 0;
    else
        c_ok = conf_.c_dt != dnnl_f32 || !conf_.c_ncontig
               || al(e.c_off, e.c_sm, e.c_bs);
    return a_ok && b_ok && c_ok;
}

void gemm_kernels_t::set_epilogue_args(kernel_args_t &args,
        const exec_ctx_t &ctx, const gemm_exec_t &e) const {
    args.mem(e.bias)
            .i64(e.bias_off)
            .value(long4_of(e.bias_bs))
            .i64(e.bias_sm)
            .i64(e.bias_sn);
    auto scale = [&](bool on_host, cl_mem m, float v) {
        if (on_host)
            args.f32(v);
        else
            args.mem(m);
    };
    scale(conf_.src_scale_host, e.src_scale, e.src_scale_value);
    scale(conf_.wei_scale_host, e.wei_scale, e.wei_scale_value);
    args.i64(e.wei_scale_sn);
    scale(conf_.dst_scale_host, e.dst_scale, e.dst_scale_value);
    args.i64(e.dst_scale_sn).mem(e.dst_zp).i64(e.dst_zp_sn);
    if (conf_.dropout_on_host)
        args.f32(e.drop_p_value).i64(e.drop_seed_value).i64(e.drop_offset_value);
    else
        args.mem(e.drop_p).mem(e.drop_seed).mem(e.drop_offset);
    args.mem(e.drop_mask).i64(e.drop_mask_shift).mem(e.sround_seed);
    conf_.post_ops.set_args(args, ctx);
}

status_t gemm_kernels_t::execute(
        const exec_ctx_t &ctx, const gemm_exec_t &e) const {
    const dim_t nb = e.batch();
    if (e.M <= 0 || e.N <= 0 || nb <= 0) return dnnl_success;
    if (e.M > INT_MAX || e.N > INT_MAX || e.K > INT_MAX) {
        verbose_error("ocl", "gemm: dimensions beyond 32 bits");
        return dnnl_invalid_arguments;
    }
    if (!e.c || (e.K > 0 && (!e.a || !e.b))) {
        verbose_error("ocl", "gemm: a buffer is missing");
        return dnnl_invalid_arguments;
    }
    const bool tiled = plan_.kind == gemm_plan_t::kind_t::tiled;
    const int kb = tiled ? plan_.kb : 1;
    int nsplit = 1;
    dim_t kchunk = std::max<dim_t>(e.K, 1);
    if (plan_.nsplit > 1 && e.K > 0) {
        kchunk = div_up(div_up(e.K, plan_.nsplit), kb) * kb;
        nsplit = (int)div_up(e.K, kchunk);
    }
    const bool split = nsplit > 1;
    const dim_t mn = e.M * e.N;
    const size_t ws_bytes = (size_t)nsplit * mn * nb * 4;
    if (split && ws_bytes > plan_.workspace) {
        verbose_error("ocl", "gemm: split-K workspace beyond the plan's");
        return dnnl_invalid_arguments;
    }
    // The workspace: the user's scratchpad, the pool's for this queue, or
    // one for this execution (out-of-order queues).
    cl_mem ws = e.workspace;
    std::unique_lock<std::mutex> ws_lock;
    cl_mem ws_owned = nullptr;
    if (split && !ws) {
        ocl_stream_t *st = as_ocl_stream(ctx.stream());
        if (!st) return dnnl_invalid_arguments;
        ws = pool_.acquire(st->queue(), ws_bytes, ws_lock);
        if (!ws) {
            cl_context c = nullptr;
            clGetCommandQueueInfo(
                    st->queue(), CL_QUEUE_CONTEXT, sizeof(c), &c, nullptr);
            cl_int err = CL_SUCCESS;
            ws_owned = clCreateBuffer(
                    c, CL_MEM_READ_WRITE, ws_bytes, nullptr, &err);
            if (err != CL_SUCCESS) return dnnl_out_of_memory;
            ws = ws_owned;
        }
    }
    // Released once enqueued: OpenCL frees it after the kernels using it.
    std::unique_ptr<_cl_mem, decltype(&clReleaseMemObject)> ws_guard(
            ws_owned, &clReleaseMemObject);

    // Split: C is the workspace [slice][batch][m][n].
    dim_t c_bs[gemm_max_batch_dims];
    if (split) {
        dim_t s = mn;
        for (int i = gemm_max_batch_dims - 1; i >= 0; --i) {
            c_bs[i] = s;
            s *= e.bdims[i];
        }
    }
    const dim_t ngroups = std::min<dim_t>(nb * nsplit, 65535);
    kernel_args_t args;
    args.mem(e.a)
            .i64(e.a_off)
            .i64(e.a_sm)
            .i64(e.a_sk)
            .mem(e.b)
            .i64(e.b_off)
            .i64(e.b_sk)
            .i64(e.b_sn)
            .mem(split ? ws : e.c)
            .i64(split ? 0 : e.c_off)
            .i64(split ? e.N : e.c_sm)
            .i64(split ? 1 : e.c_sn)
            .i32((int32_t)e.M)
            .i32((int32_t)e.N)
            .i32((int32_t)e.K)
            .i32((int32_t)kchunk)
            .i32(nsplit)
            .i64(mn * nb)
            .i64(nb)
            .value(int4_of(e.bdims))
            .value(long4_of(e.a_bs))
            .value(long4_of(e.b_bs))
            .value(long4_of(split ? c_bs : e.c_bs))
            .mem(e.a_zp)
            .mem(e.b_zp)
            .mem(e.bq_scale)
            .mem(e.bq_zp)
            .value(int4_of(e.bq_groups))
            .value(long4_of(e.bq_strides));
    if (split) {
        // The raw program has no post-ops: only the fixed epilogue list.
        gemm_exec_t none;
        args.mem(nullptr).i64(0).value(long4_of(none.bias_bs)).i64(0).i64(0);
        args.mem(nullptr).mem(nullptr).i64(0).mem(nullptr).i64(0);
        args.mem(nullptr).i64(0);
        args.mem(nullptr).mem(nullptr).mem(nullptr); // dropout's values
        args.mem(nullptr).i64(0).mem(nullptr); // its mask, rounding seed
    } else {
        set_epilogue_args(args, ctx, e);
    }

    nd_range_t range;
    if (plan_.kind == gemm_plan_t::kind_t::gemv
            && conf_.b == gemm_access_t::col_major) {
        range = nd_range_t({(size_t)plan_.lx,
                                   (size_t)(div_up(e.N, plan_.ly) * plan_.ly),
                                   (size_t)ngroups},
                {(size_t)plan_.lx, (size_t)plan_.ly, 1});
    } else if (plan_.kind == gemm_plan_t::kind_t::gemv) {
        range = nd_range_t(
                {(size_t)div_up(e.N, (dim_t)plan_.lx * plan_.vec) * plan_.lx,
                        (size_t)plan_.ly, (size_t)ngroups},
                {(size_t)plan_.lx, (size_t)plan_.ly, 1});
    } else if (tiled) {
        range = nd_range_t({(size_t)div_up(e.N, plan_.wg_n) * plan_.lx,
                                   (size_t)div_up(e.M, plan_.wg_m) * plan_.ly,
                                   (size_t)ngroups},
                {(size_t)plan_.lx, (size_t)plan_.ly, 1});
    } else {
        range = nd_range_t(
                {(size_t)div_up(e.N, plan_.tn), (size_t)div_up(e.M, plan_.tm),
                        (size_t)ngroups},
                {(size_t)plan_.lx, (size_t)plan_.ly, 1});
    }
    const int al = tiled && aligned(e, split) ? 1 : 0;
    DNNL_CHECK((split ? raw_ : main_)[al].enqueue(ctx, range, args));
    if (!split) return dnnl_success;

    kernel_args_t r;
    r.mem(ws)
            .i64(mn * nb)
            .i32(nsplit)
            .mem(e.c)
            .i64(e.c_off)
            .i64(e.c_sm)
            .i64(e.c_sn)
            .i32((int32_t)e.M)
            .i32((int32_t)e.N)
            .i64(nb)
            .value(int4_of(e.bdims))
            .value(long4_of(e.c_bs));
    set_epilogue_args(r, ctx, e);
    return reduce_.enqueue(ctx,
            nd_range_t({(size_t)e.N, (size_t)e.M,
                               (size_t)std::min<dim_t>(nb, 65535)},
                    {32, 8, 1}),
            r);
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
