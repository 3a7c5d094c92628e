// The disk cache's engine entries: a per-device pool of program binaries
// read once per process, consulted before compiling, written back when an
// engine goes after new compilations.
#include "gpu/ocl/ocl_disk_programs.hpp"

#include <map>
#include <mutex>
#include <vector>

#include "common/cache/blob_id.hpp"
#include "common/cache/disk_cache.hpp"
#include "common/cache/engine_blob.hpp"
#include "common/verbose.hpp"
#include "gpu/ocl/ocl_engine.hpp"
#include "gpu/ocl/ocl_kernel.hpp"

namespace dnnl {
namespace impl {
namespace gpu {
namespace ocl {

namespace {
struct device_pool_t {
    bool loaded = false;
    int compiled_since_save = 0;
    std::map<std::string, std::shared_ptr<const std::string>> binaries;
};
// Never destroyed: engines may be released during static destruction.
std::mutex &pool_mutex() {
    static auto *m = new std::mutex;
    return *m;
}
std::map<cl_device_id, device_pool_t> &pools() {
    static auto *p = new std::map<cl_device_id, device_pool_t>;
    return *p;
}
} // namespace

void disk_programs_load(ocl_engine_t *engine) {
    if (!disk_cache::enabled()) return;
    const std::string id = blob::engine_blob_id(engine->cache_blob_device_id());
    {
        std::lock_guard<std::mutex> lock(pool_mutex());
        auto &pool = pools()[engine->device()];
        if (pool.loaded) return;
        pool.loaded = true;
    }
    std::vector<uint8_t> bytes;
    if (!disk_cache::load(id, bytes)) return;
    std::string have;
    std::vector<blob::program_view_t> programs;
    if (blob::read_engine_blob(bytes.data(), bytes.size(), have, programs)
                    != dnnl_success
            || have != id) {
        verbose_warning("disk cache: engine entry unusable, removed");
        disk_cache::remove(id);
        return;
    }
    std::lock_guard<std::mutex> lock(pool_mutex());
    auto &pool = pools()[engine->device()];
    for (const auto &p : programs)
        pool.binaries.emplace(
                std::string(reinterpret_cast<const char *>(p.id), p.id_size),
                std::make_shared<const std::string>(
                        reinterpret_cast<const char *>(p.binary),
                        p.binary_size));
}

std::shared_ptr<const std::string> disk_programs_find(
        cl_device_id device, const std::string &portable_id) {
    if (!disk_cache::enabled()) return nullptr;
    std::lock_guard<std::mutex> lock(pool_mutex());
    auto it = pools().find(device);
    if (it == pools().end()) return nullptr;
    auto b = it->second.binaries.find(portable_id);
    return b == it->second.binaries.end() ? nullptr : b->second;
}

void disk_programs_note_compiled(cl_device_id device) {
    if (!disk_cache::enabled()) return;
    std::lock_guard<std::mutex> lock(pool_mutex());
    ++pools()[device].compiled_since_save;
}

void disk_programs_save(ocl_engine_t *engine) {
    if (!disk_cache::enabled()) return;
    blob::named_binaries_t programs;
    {
        std::lock_guard<std::mutex> lock(pool_mutex());
        auto &pool = pools()[engine->device()];
        if (pool.compiled_since_save == 0) return;
        pool.compiled_since_save = 0;
        for (const auto &b : pool.binaries)
            programs.emplace_back(b.first, *b.second);
    }
    blob::named_binaries_t cached;
    if (saved_programs(engine, cached) != dnnl_success) return;
    std::lock_guard<std::mutex> lock(pool_mutex());
    auto &pool = pools()[engine->device()];
    for (auto &c : cached) {
        if (pool.binaries.count(c.first)) continue;
        auto bin = std::make_shared<const std::string>(std::move(c.second));
        pool.binaries.emplace(c.first, bin);
        programs.emplace_back(c.first, *bin);
    }
    const std::string id = blob::engine_blob_id(engine->cache_blob_device_id());
    disk_cache::store(id, blob::write_engine_blob(id, programs));
}

} // namespace ocl
} // namespace gpu
} // namespace impl
} // namespace dnnl
