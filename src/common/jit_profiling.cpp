// JIT dumps and the perf map (see jit_profiling.hpp).
#include "common/jit_profiling.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include <unistd.h>

#include "common/utils.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

namespace {

constexpr unsigned perfmap_flag = 2u; // DNNL_JIT_PROFILE_LINUX_PERFMAP
constexpr unsigned all_flags = 15u;   // VTune | perfmap | jitdump | TSC

// -1: not decided yet (the environment decides on first use).
std::atomic<int> dump_setting{-1};
std::atomic<int> profile_setting{-1};

// An unsigned decimal environment value, or `fallback` when unset or
// malformed.
long env_unsigned(const char *name, long fallback) {
    const std::string s = getenv_string(name);
    if (s.empty()) return fallback;
    char *end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (*end != '\0' || v < 0) {
        verbose_warning(
                "%s=%s ignored: not a non-negative integer", name, s.c_str());
        return fallback;
    }
    return v;
}

int read_env_once(std::atomic<int> &setting, const char *onednn_name,
        const char *dnnl_name, long max_value) {
    int v = setting.load();
    if (v >= 0) return v;
    long e = env_unsigned(onednn_name, -1);
    if (e < 0) e = env_unsigned(dnnl_name, 0);
    if (e > max_value) e = 0;
    int expected = -1;
    setting.compare_exchange_strong(expected, (int)e);
    return setting.load();
}

std::mutex file_mutex;
std::atomic<unsigned> dump_counter{0};

void append_perf_map(const std::string &name, const void *code, size_t size) {
    const std::string path =
            "/tmp/perf-" + std::to_string((long)getpid()) + ".map";
    std::lock_guard<std::mutex> lock(file_mutex);
    FILE *f = std::fopen(path.c_str(), "a");
    if (!f) return;
    std::fprintf(f, "%lx %zx %s\n", (unsigned long)code, size, name.c_str());
    std::fclose(f);
}

} // namespace

unsigned jit_dump_id() {
    return dump_counter.fetch_add(1);
}

void jit_dump_write(const std::string &name, unsigned id, const char *ext,
        const void *data, size_t size) {
    const std::string path =
            "dnnl_dump_" + name + "." + std::to_string(id) + "." + ext;
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
        verbose_warning("jit dump: cannot open %s", path.c_str());
        return;
    }
    std::fwrite(data, 1, size, f);
    std::fclose(f);
}

status_t set_jit_dump(int enable) {
    dump_setting.store(enable ? 1 : 0);
    return dnnl_success;
}

status_t set_jit_profiling_flags(unsigned flags) {
    if (flags > all_flags) return dnnl_invalid_arguments;
    profile_setting.store((int)flags);
    return dnnl_success;
}

// jitdump files are not written, so the directory is only checked.
status_t set_jit_profiling_jitdumpdir(const char *dir) {
    (void)dir;
    return dnnl_success;
}

bool jit_dump_enabled() {
    return read_env_once(
                   dump_setting, "ONEDNN_JIT_DUMP", "DNNL_JIT_DUMP", 1 << 30)
           != 0;
}

unsigned jit_profiling_flags() {
    return (unsigned)read_env_once(profile_setting, "ONEDNN_JIT_PROFILE",
            "DNNL_JIT_PROFILE", all_flags);
}

void jit_register_code(const std::string &name, const void *code, size_t size) {
    if (jit_dump_enabled())
        jit_dump_write(name, jit_dump_id(), "bin", code, size);
    if (jit_profiling_flags() & perfmap_flag) append_perf_map(name, code, size);
}

} // namespace impl
} // namespace dnnl
