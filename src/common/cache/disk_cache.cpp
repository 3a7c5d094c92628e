// The on-disk cache of blobs: directory set-up from the environment, atomic
// writes, reads that mark recency, and LRU eviction by modification time.
#include "common/cache/disk_cache.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>

#include "common/cache/blob_io.hpp"
#include "common/utils.hpp"
#include "common/verbose.hpp"

namespace dnnl {
namespace impl {
namespace disk_cache {

namespace {
const char suffix[] = ".blob";
const char tmp_marker[] = ".tmp.";
// A temporary file older than this belongs to a killed writer.
const time_t stale_tmp_seconds = 600;

struct config_t {
    std::string dir; // empty: disabled
    uint64_t capacity_bytes = 0;
};

std::string first_env(const char *a, const char *b) {
    std::string v = getenv_string(a);
    return v.empty() ? getenv_string(b) : v;
}

bool make_dirs(const std::string &path) {
    std::string cur;
    for (size_t i = 0; i <= path.size(); ++i) {
        if (i == path.size() || (path[i] == '/' && i > 0)) {
            cur = path.substr(0, i);
            if (mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) return false;
        }
    }
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

config_t read_config() {
    config_t c;
    std::string dir = first_env("ONEDNN_DISK_CACHE_DIR", "DNNL_DISK_CACHE_DIR");
    if (dir.empty()) return c;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    uint64_t mb = 512;
    const std::string cap = first_env(
            "ONEDNN_DISK_CACHE_CAPACITY_MB", "DNNL_DISK_CACHE_CAPACITY_MB");
    if (!cap.empty()) {
        char *end = nullptr;
        errno = 0;
        const long long v = std::strtoll(cap.c_str(), &end, 10);
        if (errno || !end || *end || v < 0)
            verbose_warning("disk cache: ignoring capacity '%s' (not a "
                            "non-negative number of MiB)",
                    cap.c_str());
        else
            mb = (uint64_t)v;
    }
    // Writable: a file can be made there (access() would miss read-only
    // mounts and ACLs).
    std::string probe = dir + "/" + tmp_marker + "probe."
            + std::to_string((long)getpid());
    const int fd = make_dirs(dir) ? open(probe.c_str(), O_CREAT | O_WRONLY, 0644)
                                  : -1;
    if (fd < 0) {
        verbose_warning("disk cache: directory '%s' cannot be written (%s); "
                        "running without the disk cache",
                dir.c_str(), std::strerror(errno));
        return c;
    }
    close(fd);
    unlink(probe.c_str());
    c.dir = dir;
    c.capacity_bytes = mb << 20;
    return c;
}

const config_t &config() {
    static const config_t *c = new config_t(read_config());
    return *c;
}

std::string file_name(const std::string &id) {
    // Two independent 64-bit hashes: 128 bits of name.
    const auto *p = reinterpret_cast<const uint8_t *>(id.data());
    const uint64_t a = blob::fnv1a64(p, id.size());
    std::string salted = id + '\x5a';
    const uint64_t b = blob::fnv1a64(
            reinterpret_cast<const uint8_t *>(salted.data()), salted.size());
    char buf[40];
    std::snprintf(buf, sizeof(buf), "%016llx%016llx", (unsigned long long)a,
            (unsigned long long)b);
    return config().dir + "/" + buf + suffix;
}

bool ends_with(const char *s, const char *tail) {
    const size_t n = std::strlen(s), m = std::strlen(tail);
    return n >= m && std::strcmp(s + n - m, tail) == 0;
}

// Keeps the directory within its capacity: the least recently used
// entries go first; temporary files of killed writers are swept.
void evict() {
    const config_t &c = config();
    DIR *d = opendir(c.dir.c_str());
    if (!d) return;
    struct entry_t {
        std::string path;
        uint64_t bytes;
        struct timespec mtime;
    };
    std::vector<entry_t> entries;
    uint64_t total = 0;
    const time_t now = time(nullptr);
    while (struct dirent *e = readdir(d)) {
        const std::string path = c.dir + "/" + e->d_name;
        struct stat st;
        if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        if (std::strstr(e->d_name, tmp_marker)) {
            if (now - st.st_mtime > stale_tmp_seconds) unlink(path.c_str());
            continue;
        }
        if (!ends_with(e->d_name, suffix)) continue;
        entries.push_back({path, (uint64_t)st.st_size, st.st_mtim});
        total += (uint64_t)st.st_size;
    }
    closedir(d);
    if (total <= c.capacity_bytes) return;
    std::sort(entries.begin(), entries.end(),
            [](const entry_t &a, const entry_t &b) {
                return a.mtime.tv_sec != b.mtime.tv_sec
                        ? a.mtime.tv_sec < b.mtime.tv_sec
                        : a.mtime.tv_nsec < b.mtime.tv_nsec;
            });
    for (const auto &e : entries) {
        if (total <= c.capacity_bytes) break;
        if (unlink(e.path.c_str()) == 0) total -= e.bytes;
    }
}
} // namespace

bool enabled() {
    return !config().dir.empty();
}

bool load(const std::string &id, std::vector<uint8_t> &bytes) {
    if (!enabled()) return false;
    const std::string path = file_name(id);
    const int fd = open(path.c_str(), O_RDONLY);
    if (fd < 0) return false;
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    if (ok) {
        bytes.resize((size_t)st.st_size);
        size_t got = 0;
        while (ok && got < bytes.size()) {
            const ssize_t r = read(fd, bytes.data() + got, bytes.size() - got);
            if (r <= 0) ok = false;
            else got += (size_t)r;
        }
    }
    // Recency for eviction (atime is often not kept by the file system).
    if (ok) futimens(fd, nullptr);
    close(fd);
    if (!ok) bytes.clear();
    return ok;
}

void store(const std::string &id, const std::vector<uint8_t> &bytes) {
    if (!enabled() || config().capacity_bytes < bytes.size()) return;
    static std::atomic<unsigned> serial {0};
    const std::string path = file_name(id);
    const std::string tmp = path + tmp_marker + std::to_string((long)getpid())
            + "." + std::to_string(serial++);
    const int fd = open(tmp.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd < 0) return;
    size_t put = 0;
    bool ok = true;
    while (ok && put < bytes.size()) {
        const ssize_t w = write(fd, bytes.data() + put, bytes.size() - put);
        if (w <= 0) ok = false;
        else put += (size_t)w;
    }
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp.c_str(), path.c_str()) != 0) {
        unlink(tmp.c_str());
        return;
    }
    // One thread evicts at a time; the others skip (the next write
    // catches up).
    static std::mutex m;
    std::unique_lock<std::mutex> lock(m, std::try_to_lock);
    if (lock.owns_lock()) evict();
}

void remove(const std::string &id) {
    if (enabled()) unlink(file_name(id).c_str());
}

} // namespace disk_cache
} // namespace impl
} // namespace dnnl
