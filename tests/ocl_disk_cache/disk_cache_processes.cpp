// The on-disk cache across processes (CTest ocl_disk_cache_processes). Run
// without arguments it drives copies of itself ("worker" mode: create a
// dozen gpu primitives, run them, print a digest of their outputs and the
// program counts) in a fresh directory:
//   1. two workers at once on an empty cache: same outputs;
//   2. a third worker: compiles nothing, loads from the cache; a worker of
//      other shapes compiles less (the engine entry's programs);
//   3. workers killed at several moments while writing, then a normal one:
//      same outputs (no half-written entry is ever used);
//   4. every entry damaged (cut, bytes flipped), stale temporary files:
//      same outputs, entries rebuilt, the next worker compiles nothing;
//   5. an unwritable directory: same outputs, one verbose warning;
//   6. capacity 0: nothing stored; 7. a limit of 1 MiB is kept.
// Exits 0 at once when there is no OpenCL device.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ext.h"

extern char **environ;
using namespace dnnl;

namespace {

uint64_t fnv(uint64_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

// A dozen primitives of several families; the digest of their outputs.
// `shifted`: other shapes (the primitive entries miss, the engine entry
// has their programs).
int worker(bool shifted) {
    engine eng(engine::kind::gpu, 0);
    stream s(eng);
    uint64_t digest = 0xcbf29ce484222325ull;
    auto run = [&](const primitive &p, const primitive_desc_base &pd) {
        std::unordered_map<int, memory> args;
        for (int arg : {DNNL_ARG_SRC, DNNL_ARG_SRC_1, DNNL_ARG_WEIGHTS}) {
            memory::desc md = pd.query_md(query::exec_arg_md, arg);
            if (md.get_size() == 0) continue;
            memory m(md, eng);
            auto *h = static_cast<uint8_t *>(m.map_data());
            for (size_t i = 0; i < md.get_size(); ++i)
                h[i] = (uint8_t)((i * 13 + arg) % 29 + 1);
            m.unmap_data(h);
            args.emplace(arg, m);
        }
        memory::desc dmd = pd.query_md(query::exec_arg_md, DNNL_ARG_DST);
        memory dst(dmd, eng);
        args.emplace(DNNL_ARG_DST, dst);
        p.execute(s, args);
        s.wait();
        auto *h = static_cast<uint8_t *>(dst.map_data());
        digest = fnv(digest, h, dmd.get_size());
        dst.unmap_data(h);
    };
    using tag = memory::format_tag;
    const auto f32 = memory::data_type::f32;
    const memory::dim rows = shifted ? 23 : 16;
    memory::desc md({rows, 48}, f32, tag::ab);
    for (algorithm alg : {algorithm::eltwise_relu, algorithm::eltwise_tanh,
                 algorithm::eltwise_exp, algorithm::eltwise_gelu_erf,
                 algorithm::eltwise_swish}) {
        eltwise_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                alg, md, md, 0.5f, 0.f);
        run(eltwise_forward(pd), pd);
    }
    {
        memory::desc b({48, 20}, f32, tag::ab), c({rows, 20}, f32, tag::ab);
        matmul::primitive_desc pd(eng, md, b, c);
        run(matmul(pd), pd);
    }
    for (algorithm alg : {algorithm::softmax_accurate, algorithm::softmax_log}) {
        softmax_forward::primitive_desc pd(
                eng, prop_kind::forward_inference, alg, md, md, 1);
        run(softmax_forward(pd), pd);
    }
    {
        memory::desc b({rows, 48}, f32, tag::ba);
        binary::primitive_desc pd(eng, algorithm::binary_add, md, b, md);
        run(binary(pd), pd);
    }
    {
        memory::desc a({2, 16, 6, 6}, f32, tag::nchw);
        memory::desc b({2, 16, 6, 6}, memory::data_type::f16, tag::nChw16c);
        reorder::primitive_desc pd(eng, a, eng, b);
        run(reorder(pd), pd);
    }
    {
        memory::desc src({1, 8, 9, 9}, f32, tag::nchw);
        memory::desc wei({8, 8, 3, 3}, f32, tag::oihw);
        memory::desc dst({1, 8, 7, 7}, f32, tag::nchw);
        convolution_forward::primitive_desc pd(eng,
                prop_kind::forward_inference, algorithm::convolution_direct,
                src, wei, dst, {1, 1}, {0, 0}, {0, 0});
        run(convolution_forward(pd), pd);
    }
    {
        memory::desc src({1, 8, 8, 8}, f32, tag::nchw);
        memory::desc dst({1, 8, 4, 4}, f32, tag::nchw);
        pooling_forward::primitive_desc pd(eng, prop_kind::forward_inference,
                algorithm::pooling_max, src, dst, {2, 2}, {2, 2}, {0, 0},
                {0, 0}, {0, 0});
        run(pooling_forward(pd), pd);
    }
    int64_t compiled = 0, loaded = 0;
    dnnl_ext_ocl_get_program_counts(&compiled, &loaded);
    std::printf("DIGEST %016llx\nCOUNTS %lld %lld\n",
            (unsigned long long)digest, (long long)compiled, (long long)loaded);
    return 0;
}

// ---- driver ----

std::string self;
int failures = 0;

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            std::printf("FAILED %s: ", #cond); \
            std::printf(__VA_ARGS__); \
            std::printf("\n"); \
            ++failures; \
        } \
    } while (0)

struct child_t {
    pid_t pid = -1;
    std::string out;
};

// Starts a worker with `env` added, its output into a file.
child_t spawn(const std::vector<std::string> &env, const std::string &out,
        const char *mode = "worker") {
    std::vector<std::string> envs(env);
    for (char **e = environ; *e; ++e) envs.push_back(*e);
    std::vector<char *> envp;
    for (auto &e : envs) envp.push_back(&e[0]);
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(
            &fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::string arg0 = self, arg1 = mode;
    char *argv[] = {&arg0[0], &arg1[0], nullptr};
    child_t c;
    c.out = out;
    if (posix_spawn(&c.pid, self.c_str(), &fa, nullptr, argv, envp.data()) != 0)
        c.pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    return c;
}

struct result_t {
    bool ok = false;
    std::string digest;
    long long compiled = -1, loaded = -1;
    std::string text;
};

result_t finish(const child_t &c) {
    result_t r;
    int status = 0;
    if (c.pid < 0 || waitpid(c.pid, &status, 0) != c.pid) return r;
    std::ifstream f(c.out);
    std::stringstream ss;
    ss << f.rdbuf();
    r.text = ss.str();
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::istringstream in(r.text);
    std::string word;
    while (in >> word) {
        if (word == "DIGEST") in >> r.digest;
        if (word == "COUNTS") in >> r.compiled >> r.loaded;
    }
    return r;
}

result_t run_worker(const std::vector<std::string> &env, const std::string &out) {
    return finish(spawn(env, out));
}

std::vector<std::string> list(const std::string &dir, const char *part) {
    std::vector<std::string> names;
    if (DIR *d = opendir(dir.c_str())) {
        while (struct dirent *e = readdir(d))
            if (std::strstr(e->d_name, part)) names.push_back(e->d_name);
        closedir(d);
    }
    return names;
}

int driver() {
    char tmpl[] = "/tmp/dnnl_disk_cache_XXXXXX";
    if (!mkdtemp(tmpl)) return 1;
    const std::string root = tmpl, dir = root + "/cache";
    const std::string env_dir = "ONEDNN_DISK_CACHE_DIR=" + dir;
    auto out = [&](const char *n) { return root + "/" + n + ".txt"; };

    // 0. The reference: no disk cache.
    const result_t ref = run_worker({}, out("ref"));
    CHECK(ref.ok && !ref.digest.empty(), "reference worker: %s", ref.text.c_str());

    // 1. Two at once on an empty cache.
    child_t a = spawn({env_dir}, out("a")), b = spawn({env_dir}, out("b"));
    const result_t ra = finish(a), rb = finish(b);
    CHECK(ra.ok && ra.digest == ref.digest, "first concurrent worker: %s",
            ra.text.c_str());
    CHECK(rb.ok && rb.digest == ref.digest, "second concurrent worker: %s",
            rb.text.c_str());
    const size_t entries = list(dir, ".blob").size();
    CHECK(entries >= 12, "%zu entries after the first runs", entries);
    CHECK(list(dir, ".tmp.").empty(), "temporary files left by finished writers");

    // 2. Warm: nothing compiled.
    const result_t warm = run_worker({env_dir}, out("warm"));
    CHECK(warm.ok && warm.digest == ref.digest, "warm worker: %s", warm.text.c_str());
    CHECK(warm.compiled == 0 && warm.loaded > 0,
            "warm worker compiled %lld, loaded %lld", warm.compiled, warm.loaded);

    // 2b. Other shapes: their primitive entries miss, but the engine entry
    // (written when the first workers released their engines) holds the
    // programs of the families whose programs do not depend on shapes.
    const result_t ref_shifted = finish(spawn({}, out("ref_shifted"), "shifted"));
    const result_t shifted
            = finish(spawn({env_dir}, out("shifted"), "shifted"));
    CHECK(shifted.ok && shifted.digest == ref_shifted.digest,
            "worker of other shapes: %s", shifted.text.c_str());
    CHECK(shifted.compiled < ref_shifted.compiled && shifted.loaded > 0,
            "worker of other shapes compiled %lld (%lld without the cache)",
            shifted.compiled, ref_shifted.compiled);

    // 3. Killed writers, on a cache of their own, at several moments.
    const std::string kdir = root + "/killed";
    const std::string env_kdir = "ONEDNN_DISK_CACHE_DIR=" + kdir;
    for (int ms : {5, 40, 120, 300, 700, 1500}) {
        child_t k = spawn({env_kdir}, out("killed"));
        usleep(ms * 1000);
        kill(k.pid, SIGKILL);
        int status;
        waitpid(k.pid, &status, 0);
        const result_t after = run_worker({env_kdir}, out("after_kill"));
        CHECK(after.ok && after.digest == ref.digest,
                "worker after a writer killed at %d ms: %s", ms,
                after.text.c_str());
    }

    // 4. Damaged entries and a stale temporary file: used never, rebuilt.
    int n = 0;
    for (const auto &name : list(dir, ".blob")) {
        const std::string path = dir + "/" + name;
        std::ifstream f(path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(f)), {});
        f.close();
        if (n % 3 == 0) bytes.resize(bytes.size() / 2);
        else if (n % 3 == 1) bytes[bytes.size() - 5] ^= 0x5a;
        else bytes[40] ^= 1; // inside the id: checksum no longer matches
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
        ++n;
    }
    std::ofstream(dir + "/0000.blob.tmp.1.0") << "half-written";
    const result_t damaged = run_worker({env_dir}, out("damaged"));
    CHECK(damaged.ok && damaged.digest == ref.digest, "worker on damaged entries: %s",
            damaged.text.c_str());
    CHECK(damaged.compiled > 0, "damaged entries were used");
    const result_t rebuilt = run_worker({env_dir}, out("rebuilt"));
    CHECK(rebuilt.ok && rebuilt.digest == ref.digest && rebuilt.compiled == 0,
            "worker after the rebuild compiled %lld: %s", rebuilt.compiled,
            rebuilt.text.c_str());

    // 5. An unwritable directory: one warning, results unchanged.
    const result_t ro = run_worker({"ONEDNN_DISK_CACHE_DIR=/proc/no/such/dir",
                                           "ONEDNN_VERBOSE=warn"},
            out("unwritable"));
    CHECK(ro.ok && ro.digest == ref.digest, "worker on an unwritable directory: %s",
            ro.text.c_str());
    size_t warnings = 0;
    for (size_t at = 0;
            (at = ro.text.find("warning,disk cache", at)) != std::string::npos;
            ++at)
        ++warnings;
    CHECK(warnings == 1, "%zu disk cache warnings: %s", warnings, ro.text.c_str());

    // 6. Capacity 0: nothing kept.
    const std::string zdir = root + "/zero";
    const result_t zero = run_worker({"ONEDNN_DISK_CACHE_DIR=" + zdir,
                                             "ONEDNN_DISK_CACHE_CAPACITY_MB=0"},
            out("zero"));
    CHECK(zero.ok && zero.digest == ref.digest, "capacity 0: %s", zero.text.c_str());
    CHECK(list(zdir, ".blob").empty(), "capacity 0 kept entries");

    // 7. A limit of 1 MiB: the least recently used entries go.
    const std::string ldir = root + "/limited";
    const result_t lim = run_worker({"ONEDNN_DISK_CACHE_DIR=" + ldir,
                                            "ONEDNN_DISK_CACHE_CAPACITY_MB=1"},
            out("limited"));
    CHECK(lim.ok && lim.digest == ref.digest, "capacity 1 MiB: %s", lim.text.c_str());
    long long total = 0;
    const auto kept = list(ldir, ".blob");
    for (const auto &name : kept) {
        struct stat st;
        if (stat((ldir + "/" + name).c_str(), &st) == 0) total += st.st_size;
    }
    CHECK(!kept.empty() && total <= (1 << 20), "%zu entries, %lld bytes kept",
            kept.size(), total);

    std::string rm = "rm -rf " + root;
    if (std::system(rm.c_str()) != 0) std::printf("could not remove %s\n", root.c_str());
    std::printf(failures ? "%d checks failed\n" : "all checks passed\n", failures);
    return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        std::printf("no OpenCL device: nothing to check\n");
        return 0;
    }
    if (argc > 1 && std::strcmp(argv[1], "worker") == 0) return worker(false);
    if (argc > 1 && std::strcmp(argv[1], "shifted") == 0) return worker(true);
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
    if (n <= 0) return 1;
    self.assign(buf, (size_t)n);
    return driver();
}
