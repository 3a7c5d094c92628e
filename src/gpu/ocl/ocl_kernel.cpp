// Kernel building through the kernel cache, and launches.
#include "gpu/ocl/ocl_kernel.hpp"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "common/cache/code_record.hpp"
#include "common/jit_profiling.hpp"
#include "common/kernel_cache.hpp"
#include "common/utils.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_disk_programs.hpp"
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
    if (value != value)
        std::snprintf(buf, sizeof(buf), "(NAN)");
    else if (value == __builtin_inff())
        std::snprintf(buf, sizeof(buf), "(INFINITY)");
    else if (value == -__builtin_inff())
        std::snprintf(buf, sizeof(buf), "(-INFINITY)");
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

nd_range_t::nd_range_t(
        std::initializer_list<size_t> g, std::initializer_list<size_t> l) {
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

std::atomic<int64_t> g_program_builds{0};

struct program_key_t : public kernel_cache::key_impl_t {
    std::string source, options;
    cl_device_id device;
    cl_context context;

    bool equal(const kernel_cache::key_impl_t &o) const override {
        const auto &k = static_cast<const program_key_t &>(o);
        return device == k.device && context == k.context && source == k.source
               && options == k.options;
    }
    size_t hash() const override {
        size_t h = std::hash<std::string>()(source);
        h = hash_combine(h, std::hash<std::string>()(options));
        h = hash_combine(h, (size_t)(uintptr_t)device);
        return hash_combine(h, (size_t)(uintptr_t)context);
    }
};

// The device's binary of `program` (CL_PROGRAM_BINARIES; one device per
// program).
status_t program_binary(cl_program program, std::string &out) {
    size_t n = 0;
    OCL_CHECK(clGetProgramInfo(
            program, CL_PROGRAM_BINARY_SIZES, sizeof(n), &n, nullptr));
    if (n == 0) return dnnl_unimplemented;
    out.assign(n, '\0');
    unsigned char *ptr = reinterpret_cast<unsigned char *>(&out[0]);
    OCL_CHECK(clGetProgramInfo(
            program, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr));
    return dnnl_success;
}

// What names a program on any context of its device: source and options.
std::string portable_id_of(const program_key_t &key) {
    return key.source + '\n' + key.options;
}

struct program_value_t : public kernel_cache::value_impl_t {
    program_value_t(cl_program p, size_t bytes, const program_key_t &key)
        : program(p), binary_bytes(bytes), device(key.device),
          id(portable_id_of(key)) {}
    ~program_value_t() override { clReleaseProgram(program); }
    size_t footprint() const override { return sizeof(*this) + binary_bytes; }
    std::string portable_id() const override { return id; }
    status_t binary(std::string &out) const override {
        return program_binary(program, out);
    }
    cl_program program;
    size_t binary_bytes;
    cl_device_id device;
    std::string id;
};

// ONEDNN_OCL_BUILD_OPTIONS: options a developer adds to every program
// built from source (a vendor's report flag such as -cl-nv-verbose, whose
// output the JIT dump keeps). They are part of the program's key.
const std::string &extra_build_options() {
    static const std::string extra = [] {
        const std::string e = getenv_string("ONEDNN_OCL_BUILD_OPTIONS");
        return e.empty() ? e : " " + e;
    }();
    return extra;
}

// The build log as the driver gives it (multi-line), or "".
std::string raw_build_log(cl_program program, cl_device_id device) {
    size_t n = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                &n) != CL_SUCCESS
            || n == 0)
        return "";
    std::string log(n, '\0');
    clGetProgramBuildInfo(
            program, device, CL_PROGRAM_BUILD_LOG, n, &log[0], nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

std::string build_log(cl_program program, cl_device_id device) {
    // One verbose line: newlines become " | ".
    std::string flat;
    for (char c : raw_build_log(program, device)) {
        if (c == '\n')
            flat += " | ";
        else
            flat += c;
    }
    return flat;
}

// The JIT dump of a program built from source (jit_profiling.hpp): the
// expanded source with its options and build log in a comment ahead of
// it, then the driver's binary (PTX on NVIDIA's platform, SPIR-V or ISA
// elsewhere).
void dump_program(
        cl_program program, const program_key_t &key, const std::string &text) {
    std::string name = key.source;
    for (char &c : name)
        if (c == '/' || c == '.') c = '_';
    std::string head = "/* options: " + key.options + "\n   build log:\n"
                       + raw_build_log(program, key.device) + "\n*/\n";
    head += text;
    const unsigned id = jit_dump_id();
    jit_dump_write("ocl_" + name, id, "cl", head.data(), head.size());
    std::string bin;
    if (program_binary(program, bin) == dnnl_success)
        jit_dump_write("ocl_" + name, id, "bin", bin.data(), bin.size());
}

struct build_ctx_t {
    const program_key_t *key;
    // From a cache blob: the binary to load instead of compiling.
    const uint8_t *binary = nullptr;
    size_t binary_size = 0;
};

std::atomic<int64_t> g_program_loads{0};

// The value of a built program (its size for the statistics).
kernel_cache::result_t built_value(
        cl_program program, const program_key_t &key) {
    kernel_cache::result_t r;
    size_t binary_bytes = 0;
    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(binary_bytes),
            &binary_bytes, nullptr);
    r.value = std::make_shared<program_value_t>(program, binary_bytes, key);
    return r;
}

// A program from a blob's binary (checked for framing and checksum by the
// blob reader; the driver checks that it is a binary for this device).
kernel_cache::result_t load_program(const build_ctx_t &ctx) {
    const program_key_t &key = *ctx.key;
    kernel_cache::result_t r;
    const unsigned char *bin = ctx.binary;
    const size_t len = ctx.binary_size;
    cl_int bin_status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program = clCreateProgramWithBinary(
            key.context, 1, &key.device, &len, &bin, &bin_status, &err);
    if (err == CL_SUCCESS && bin_status == CL_SUCCESS) {
        ++g_program_loads;
        err = clBuildProgram(
                program, 1, &key.device, key.options.c_str(), nullptr, nullptr);
    }
    if (err != CL_SUCCESS || bin_status != CL_SUCCESS) {
        verbose_error("cache_blob",
                "the driver refused the binary of %s (OpenCL error %d, binary "
                "status %d): not a program for this device",
                key.source.c_str(), (int)err, (int)bin_status);
        if (program) clReleaseProgram(program);
        r.status = dnnl_invalid_arguments;
        return r;
    }
    return built_value(program, key);
}

kernel_cache::result_t build_program(void *p) {
    const build_ctx_t &ctx = *static_cast<build_ctx_t *>(p);
    if (ctx.binary) return load_program(ctx);
    const program_key_t &key = *ctx.key;
    // The disk cache's engine entry may hold it (ocl_disk_programs.hpp).
    if (auto bin = disk_programs_find(key.device, portable_id_of(key))) {
        build_ctx_t from_disk{ctx.key,
                reinterpret_cast<const uint8_t *>(bin->data()), bin->size()};
        kernel_cache::result_t r = load_program(from_disk);
        if (r.status == dnnl_success) return r;
    }
    disk_programs_note_compiled(key.device);
    kernel_cache::result_t r;
    std::string text;
    r.status = expand_kernel_source(key.source, text);
    if (r.status != dnnl_success) return r;
    const char *src = text.c_str();
    const size_t len = text.size();
    cl_int err = CL_SUCCESS;
    cl_program program =
            clCreateProgramWithSource(key.context, 1, &src, &len, &err);
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
    if (jit_dump_enabled()) dump_program(program, key, text);
    return built_value(program, key);
}

std::shared_ptr<program_key_t> make_key(ocl_engine_t *e,
        const std::string &source, const std::string &options) {
    auto key = std::make_shared<program_key_t>();
    key->source = source;
    key->options = options;
    key->device = e->device();
    key->context = e->context();
    return key;
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
        while (local[0] > state_->max_wg && local[0] > 1) local[0] /= 2;
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
    // Every program gets the same base options: OpenCL C 1.2 is what all
    // supported platforms compile.
    auto key_impl = make_key(
            e, source, "-cl-std=CL1.2" + options.str() + extra_build_options());
    kernel_cache::key_t key(key_impl);
    build_ctx_t bctx{key_impl.get()};
    // A primitive created from a cache blob takes this program's binary
    // from the blob, in the order it asks for programs (or the program it
    // already took); whatever it gets is noted in its code record.
    creation_frame_t *frame = creation_frame_t::current();
    kernel_cache::result_t r;
    if (frame && frame->restoring())
        DNNL_CHECK(frame->next_program(portable_id_of(*key_impl), bctx.binary,
                bctx.binary_size, r.value));
    bool hit = r.value != nullptr; // a program this creation already has
    const double t0 = verbose_now_ms();
    if (!r.value) {
        r = kernel_cache::get_or_create(key, build_program, &bctx, hit);
        if (r.status != dnnl_success) return r.status;
    }
    if (frame) frame->note_program(r.value);
    verbose_print_kernel_create(hit,
            std::string(source) + ":" + key_impl->options,
            verbose_now_ms() - t0);
    cl_program program = static_cast<program_value_t *>(r.value.get())->program;

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

int64_t program_loads() {
    return g_program_loads.load();
}

status_t restore_program(engine_t *engine, const std::string &portable_id,
        const uint8_t *binary, size_t size) {
    ocl_engine_t *e = as_ocl_engine(engine);
    const size_t cut = portable_id.find('\n');
    if (!e || cut == std::string::npos || !binary || size == 0)
        return dnnl_invalid_arguments;
    auto key_impl = make_key(
            e, portable_id.substr(0, cut), portable_id.substr(cut + 1));
    kernel_cache::key_t key(key_impl);
    build_ctx_t bctx{key_impl.get(), binary, size};
    bool hit = false;
    return kernel_cache::get_or_create(key, build_program, &bctx, hit).status;
}

status_t saved_programs(engine_t *engine,
        std::vector<std::pair<std::string, std::string>> &programs) {
    ocl_engine_t *e = as_ocl_engine(engine);
    if (!e) return dnnl_invalid_arguments;
    struct ctx_t {
        cl_device_id device;
        std::vector<std::shared_ptr<kernel_cache::value_impl_t>> found;
    } ctx{e->device(), {}};
    // Collected under the cache's lock, read outside it.
    kernel_cache::for_each_value(
            [](const std::shared_ptr<kernel_cache::value_impl_t> &v, void *p) {
                auto *c = static_cast<ctx_t *>(p);
                auto *pv = dynamic_cast<program_value_t *>(v.get());
                if (pv && pv->device == c->device) c->found.push_back(v);
            },
            &ctx);
    programs.clear();
    for (const auto &v : ctx.found) {
        std::string id = v->portable_id(), bin;
        bool seen = false; // the same program in several contexts
        for (const auto &p : programs) seen = seen || p.first == id;
        if (seen || v->binary(bin) != dnnl_success) continue;
        programs.emplace_back(std::move(id), std::move(bin));
    }
    return dnnl_success;
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
