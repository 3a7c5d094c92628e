// Persistent cache blobs (oneDNN's API) and the disk cache (this
// library's extension): creating a gpu primitive compiles OpenCL programs;
// a cache blob carries them, so a later creation, in this process or
// another, only loads binaries.
//  1. Blob round trip: the primitive's blob id (from its descriptor) and
//     blob; with both caches emptied, a primitive created from the blob
//     compiles nothing, loads its programs, and computes the same result.
//  2. Disk cache: two child processes of this program run with
//     ONEDNN_DISK_CACHE_DIR set to a fresh directory; the first compiles and
//     leaves entries there, the second compiles nothing.
// On the CPU engine, primitives keep no compiled code worth saving: the
// blob id is empty and asking for a blob is dnnl_unimplemented, as in
// oneDNN; that is what the example checks there.
// Checks: as above, plus the result against plain loops.
//
// Usage: cache_blobs [cpu|gpu]

#include <cstdint>
#include <cstdlib>
#include <dirent.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "oneapi/dnnl/dnnl_ext.hpp"

#include "example_reference.hpp"
#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

const example::conv_shape cs {1, 4, 9, 9, 6, 3, 3, 1, 1};

struct program_counts {
    int64_t compiled = 0, loaded = 0;
};

program_counts counts()
{
    program_counts c;
    error::wrap_c_api(dnnl_ext_ocl_get_program_counts(&c.compiled, &c.loaded),
            "could not read program counts");
    return c;
}

convolution_forward::primitive_desc conv_pd(const engine &eng)
{
    return {eng, prop_kind::forward_inference, algorithm::convolution_direct,
            {{cs.n, cs.ic, cs.ih, cs.iw}, dt::f32, tag::nchw},
            {{cs.oc, cs.ic, cs.kh, cs.kw}, dt::f32, tag::oihw},
            {{cs.n, cs.oc, cs.oh(), cs.ow()}, dt::f32, tag::nchw}, {1, 1},
            {1, 1}, {1, 1}};
}

// Runs `conv` on fixed data and checks it against plain loops.
std::vector<float> run_and_check(const engine &eng, const primitive &conv,
        const convolution_forward::primitive_desc &pd)
{
    stream strm(eng);
    const auto x = example::fill(example::product(pd.src_desc().get_dims()), -1, 1, 101);
    const auto w = example::fill(example::product(pd.weights_desc().get_dims()), -1, 1, 102);
    memory src(pd.src_desc(), eng), wei(pd.weights_desc(), eng);
    memory dst(pd.dst_desc(), eng);
    example::write_to(src, x);
    example::write_to(wei, w);
    conv.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei},
                               {DNNL_ARG_DST, dst}});
    strm.wait();
    const auto y = example::read_from<float>(dst);
    example::expect_close(y, example::ref_conv<float>(cs, x, w, {}), 1e-4f,
            "convolution result");
    return y;
}

void cpu_behaviour(const engine &eng)
{
    auto pd = conv_pd(eng);
    example::expect(pd.get_cache_blob_id().empty(), "no blob id on CPU");
    convolution_forward conv(pd);
    bool refused = false;
    try {
        conv.get_cache_blob();
    } catch (const error &e) {
        refused = e.status == dnnl_unimplemented;
    }
    example::expect(refused, "CPU primitives give no blob");
    run_and_check(eng, conv, pd);
    std::printf("CPU: empty blob id, get_cache_blob unimplemented (as "
                "oneDNN); nothing to persist\n");
}

void blob_round_trip(const engine &eng)
{
    auto pd = conv_pd(eng);
    const auto id = pd.get_cache_blob_id();
    convolution_forward conv(pd);
    const auto blob = conv.get_cache_blob();
    std::printf("blob id %zu bytes, blob %zu bytes\n", id.size(), blob.size());
    example::expect(!id.empty() && !blob.empty(), "a gpu primitive has a blob");
    const auto want = run_and_check(eng, conv, pd);

    // Empty both caches: only the blob can spare the compiler now.
    const int pcap = get_primitive_cache_capacity();
    const int kcap = get_kernel_cache_capacity();
    set_primitive_cache_capacity(0);
    set_kernel_cache_capacity(0);
    set_primitive_cache_capacity(pcap);
    set_kernel_cache_capacity(kcap);

    const auto before = counts();
    convolution_forward restored(pd, blob);
    const auto after = counts();
    std::printf("from the blob: %ld programs compiled, %ld loaded\n",
            static_cast<long>(after.compiled - before.compiled),
            static_cast<long>(after.loaded - before.loaded));
    example::expect(after.compiled == before.compiled,
            "creation from a blob compiles nothing");
    example::expect(after.loaded > before.loaded, "it loads the programs");
    example::expect(run_and_check(eng, restored, pd) == want,
            "the restored primitive gives the same bits");
}

// Child mode: creates and runs the convolution, then checks whether it
// compiled ("compiles") or only loaded ("loads") programs.
int disk_cache_child(const std::string &expect)
{
    engine eng(engine::kind::gpu, 0);
    auto pd = conv_pd(eng);
    convolution_forward conv(pd);
    run_and_check(eng, conv, pd);
    const auto c = counts();
    std::printf("  child: %ld compiled, %ld loaded\n",
            static_cast<long>(c.compiled), static_cast<long>(c.loaded));
    if (expect == "compiles") return c.compiled > 0 ? 0 : 1;
    return c.compiled == 0 && c.loaded > 0 ? 0 : 1;
}

int spawn_child(const std::string &dir, const char *expect)
{
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        setenv("ONEDNN_DISK_CACHE_DIR", dir.c_str(), 1);
        execl("/proc/self/exe", "cache_blobs", "gpu", "--disk-cache-child",
                expect, static_cast<char *>(nullptr));
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void remove_dir(const std::string &dir)
{
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..")
                std::remove((dir + "/" + name).c_str());
        }
        closedir(d);
    }
    rmdir(dir.c_str());
}

void disk_cache()
{
    char tmpl[] = "/tmp/dnnl_example_disk_cache_XXXXXX";
    example::expect(mkdtemp(tmpl) != nullptr, "temporary directory");
    const std::string dir = tmpl;
    std::printf("disk cache in %s\n", dir.c_str());
    const int first = spawn_child(dir, "compiles");
    const int second = spawn_child(dir, "loads");
    size_t entries = 0;
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (std::string(e->d_name).find(".blob") != std::string::npos)
                ++entries;
        closedir(d);
    }
    remove_dir(dir);
    std::printf("%zu entries were on disk\n", entries);
    example::expect(first == 0, "the first process compiles");
    example::expect(entries > 0, "it leaves entries on disk");
    example::expect(second == 0, "the second process compiles nothing");
}

void cache_blobs(engine::kind kind)
{
    engine eng(kind, 0);
    if (kind == engine::kind::cpu) {
        cpu_behaviour(eng);
        return;
    }
    blob_round_trip(eng);
    disk_cache();
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 4 && std::string(argv[2]) == "--disk-cache-child") try {
            return disk_cache_child(argv[3]);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "child: %s\n", e.what());
            return 1;
        }
    return example::run_example(argc, argv, cache_blobs);
}
