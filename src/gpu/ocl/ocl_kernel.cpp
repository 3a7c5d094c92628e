// Kernel building through the kernel cache, and launches.
#include "gpu/ocl/ocl_kernel.hpp"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "common/kernel_cache.hpp"
#include "common/utils.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_kernel_sources.hpp"
#include "gpu/ocl/ocl_stream.hpp"
#include "gpu/ocl/ocl_utils.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

// ---- options and arguments ----

void kernel_options_t::define(const char *name) {
    text_ += " -D";
    text_ += name;
}

void kernel_options_t::define(const char *name, int64_t value) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "=%" PRId64, value);
    text_ += " -D";
    text_ += name;
    text_ += buf;
}

void kernel_options_t::define(const char *name, const std::string &value) {
    text_ += " -D";
    text_ += name;
    text_ += "=";
    text_ += value;
}

void kernel_options_t::define_float(const char *name, float value) {
    char buf[64];
    // Hexadecimal float literals are exact; OpenCL C accepts them.
    std::snprintf(buf, sizeof(buf), "(%af)", (double)value);
    if (value != value) std::snprintf(buf, sizeof(buf), "(NAN)");
    else if (value == __builtin_inff()) std::snprintf(buf, sizeof(buf), "(INFINITY)");
    else if (value == -__builtin_inff()) std::snprintf(buf, sizeof(buf), "(-INFINITY)");
    define(name, std::string(buf));
}

void kernel_options_t::add_option(const std::string &option) {
    text_ += " ";
    text_ += option;
}

kernel_args_t &kernel_args_t::raw(const void *p, size_t size) {
    args_.push_back({size, false, bytes_.size()});
    const auto *b = static_cast<const unsigned char *>(p);
    bytes_.insert(bytes_.end(), b, b + size);
    return *this;
}

kernel_args_t &kernel_args_t::mem(cl_mem m) {
    return raw(&m, sizeof(m));
}

kernel_args_t &kernel_args_t::local(size_t bytes) {
    args_.push_back({bytes, true, 0});
    return *this;
}

nd_range_t::nd_range_t(std::initializer_list<size_t> g,
        std::initializer_list<size_t> l) {
    ndims = (int)g.size();
    int i = 0;
    for (size_t v : g) global[i++] = v;
    i = 0;
    for (size_t v : l) local[i++] = v;
}

bool nd_range_t::empty() const {
    for (int i = 0; i < ndims; ++i)
        if (global[i] == 0) return true;
    return false;
}

// ---- the program cache entry ----

namespace {

std::atomic<int64_t> g_program_builds {0};

struct program_key_t : public kernel_cache::key_impl_t {
    std::string source, options;
    cl_device_id device;
    cl_context context;

    bool equal(const kernel_cache::key_impl_t &o) const override {
        const auto &k = static_cast<const program_key_t &>(o);
        return device == k.device && context == k.context
                && source == k.source && options == k.options;
    }
    size_t hash() const override {
        size_t h = std::hash<std::string>()(source);
        h = hash_combine(h, std::hash<std::string>()(options));
        h = hash_combine(h, (size_t)(uintptr_t)device);
        return hash_combine(h, (size_t)(uintptr_t)context);
    }
};

struct program_value_t : public kernel_cache::value_impl_t {
    explicit program_value_t(cl_program p, size_t bytes)
        : program(p), binary_bytes(bytes) {}
    ~program_value_t() override { clReleaseProgram(program); }
    size_t footprint() const override {
        return sizeof(*this) + binary_bytes;
    }
    cl_program program;
    size_t binary_bytes;
};

std::string build_log(cl_program program, cl_device_id device) {
    size_t n = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0,
                nullptr, &n)
                    != CL_SUCCESS
            || n == 0)
        return "";
    std::string log(n, '\0');
    clGetProgramBuildInfo(
            program, device, CL_PROGRAM_BUILD_LOG, n, &log[0], nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    // One verbose line: newlines become " | ".
    std::string flat;
    for (char c : log) {
        if (c == '\n') flat += " | ";
        else flat += c;
    }
    return flat;
}

struct build_ctx_t {
    const program_key_t *key;
};

kernel_cache::result_t build_program(void *p) {
    const program_key_t &key = *static_cast<build_ctx_t *>(p)->key;
    kernel_cache::result_t r;
    std::string text;
    r.status = expand_kernel_source(key.source, text);
    if (r.status != dnnl_success) return r;
    const char *src = text.c_str();
    const size_t len = text.size();
    cl_int err = CL_SUCCESS;
    cl_program program
            = clCreateProgramWithSource(key.context, 1, &src, &len, &err);
    if (err != CL_SUCCESS) {
        r.status = check_cl(err, "clCreateProgramWithSource");
        return r;
    }
    ++g_program_builds;
    err = clBuildProgram(
            program, 1, &key.device, key.options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
        verbose_error("ocl",
                "building %s with options '%s' failed (OpenCL error %d): %s",
                key.source.c_str(), key.options.c_str(), (int)err,
                build_log(program, key.device).c_str());
        clReleaseProgram(program);
        r.status = err == CL_OUT_OF_HOST_MEMORY ? dnnl_out_of_memory
                                                : dnnl_runtime_error;
        return r;
    }
    size_t binary_bytes = 0;
    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(binary_bytes),
            &binary_bytes, nullptr);
    r.value = std::make_shared<program_value_t>(program, binary_bytes);
    if (!r.value) {
        clReleaseProgram(program);
        r.status = dnnl_out_of_memory;
    }
    return r;
}

} // namespace

// ---- kernels ----

struct ocl_kernel_t::state_t {
    ~state_t() {
        if (kernel) clReleaseKernel(kernel);
    }
    cl_kernel kernel = nullptr;
    std::string name;
    size_t max_wg = 0;
    std::shared_ptr<kernel_cache::value_impl_t> program; // keeps it alive
    std::mutex launch_mutex;
};

const std::string &ocl_kernel_t::name() const {
    static const std::string none;
    return state_ ? state_->name : none;
}

size_t ocl_kernel_t::max_wg_size() const {
    return state_ ? state_->max_wg : 0;
}

status_t ocl_kernel_t::enqueue(const exec_ctx_t &ctx, const nd_range_t &range,
        const kernel_args_t &args) const {
    ocl_stream_t *s = as_ocl_stream(ctx.stream());
    if (!s) {
        verbose_error("ocl", "kernel %s: not an OpenCL stream", name().c_str());
        return dnnl_invalid_arguments;
    }
    return enqueue(s->queue(), range, args);
}

status_t ocl_kernel_t::enqueue(cl_command_queue queue, const nd_range_t &range,
        const kernel_args_t &args) const {
    if (!state_) return dnnl_runtime_error;
    if (range.empty()) return dnnl_success;
    size_t global[3], local[3];
    bool has_local = range.local[0] != 0;
    for (int i = 0; i < range.ndims; ++i)
        local[i] = has_local ? range.local[i] : 1;
    // A 1D launch asking for more than this kernel allows on the device
    // (register-heavy kernels on some devices) gets the largest power of
    // two that fits; multi-dimensional tiles are the kernel's contract.
    if (has_local && range.ndims == 1 && state_->max_wg > 0)
        while (local[0] > state_->max_wg && local[0] > 1)
            local[0] /= 2;
    for (int i = 0; i < range.ndims; ++i)
        global[i] = (range.global[i] + local[i] - 1) / local[i] * local[i];
    std::lock_guard<std::mutex> lock(state_->launch_mutex);
    cl_uint idx = 0;
    for (const auto &a : args.args()) {
        cl_int err = clSetKernelArg(state_->kernel, idx, a.size, args.data(a));
        if (err != CL_SUCCESS) {
            verbose_error("ocl", "kernel %s: argument %u rejected (error %d)",
                    state_->name.c_str(), idx, (int)err);
            return convert_cl_error(err);
        }
        ++idx;
    }
    OCL_CHECK(clEnqueueNDRangeKernel(queue, state_->kernel,
            (cl_uint)range.ndims, nullptr, global, has_local ? local : nullptr,
            0, nullptr, nullptr));
    return dnnl_success;
}

status_t create_kernels(engine_t *engine, const char *source,
        const kernel_options_t &options, const std::vector<const char *> &names,
        std::vector<ocl_kernel_t> &kernels) {
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!e) return dnnl_invalid_arguments;
    auto key_impl = std::make_shared<program_key_t>();
    key_impl->source = source;
    // Every program gets the same base options: OpenCL C 1.2 is what all
    // supported platforms compile.
    key_impl->options = "-cl-std=CL1.2" + options.str();
    key_impl->device = e->device();
    key_impl->context = e->context();
    kernel_cache::key_t key(key_impl);
    build_ctx_t bctx {key_impl.get()};
    bool hit = false;
    const double t0 = verbose_now_ms();
    kernel_cache::result_t r
            = kernel_cache::get_or_create(key, build_program, &bctx, hit);
    if (r.status != dnnl_success) return r.status;
    verbose_print_kernel_create(hit, std::string(source) + ":" + key_impl->options,
            verbose_now_ms() - t0);
    cl_program program
            = static_cast<program_value_t *>(r.value.get())->program;

    std::vector<ocl_kernel_t> out;
    out.reserve(names.size());
    for (const char *n : names) {
        auto st = std::make_shared<ocl_kernel_t::state_t>();
        cl_int err = CL_SUCCESS;
        st->kernel = clCreateKernel(program, n, &err);
        if (err != CL_SUCCESS) {
            verbose_error("ocl", "%s has no kernel %s (error %d)", source, n,
                    (int)err);
            return dnnl_runtime_error;
        }
        st->name = n;
        st->program = r.value;
        clGetKernelWorkGroupInfo(st->kernel, e->device(),
                CL_KERNEL_WORK_GROUP_SIZE, sizeof(st->max_wg), &st->max_wg,
                nullptr);
        out.emplace_back(std::move(st));
    }
    kernels = std::move(out);
    return dnnl_success;
}

status_t create_kernel(engine_t *engine, const char *source,
        const kernel_options_t &options, const char *name,
        ocl_kernel_t &kernel) {
    std::vector<ocl_kernel_t> ks;
    DNNL_CHECK(create_kernels(engine, source, options, {name}, ks));
    kernel = ks[0];
    return dnnl_success;
}

int64_t program_builds() {
    return g_program_builds.load();
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
