// The kernel cache, observed and controlled (this library's extension,
// dnnl_ext.hpp): compiled device code (OpenCL programs) is kept by its
// configuration, apart from the primitive cache, so a primitive created
// again after the primitive cache dropped it, or one that differs only in
// values passed as kernel arguments, compiles nothing.
//  * with the primitive cache off, creating the same primitive twice
//    compiles its programs once: the second creation hits the kernel cache;
//  * kernel cache capacity 0 empties and disables it: the next creation
//    compiles again;
//  * on the CPU engine, code is generated per primitive and the kernel
//    cache is not used: its counters do not move.
// The capacity also comes from ONEDNN_KERNEL_CACHE_CAPACITY at start.
// Checks: the counters and the number of programs compiled move exactly so,
// and every primitive computes the right result.
//
// Usage: kernel_cache [cpu|gpu]

#include <algorithm>
#include <cstdint>

#include "oneapi/dnnl/dnnl_ext.hpp"

#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

int64_t programs_compiled()
{
    int64_t compiled = 0;
    error::wrap_c_api(dnnl_ext_ocl_get_program_counts(&compiled, nullptr),
            "could not read program counts");
    return compiled;
}

// Creates a softmax over n x 32, runs it, checks each row sums to 1.
void softmax_once(const engine &eng, stream &strm, memory::dim n)
{
    const memory::desc md({n, 32}, dt::f32, tag::ab);
    softmax_forward sm({eng, prop_kind::forward_inference,
            algorithm::softmax_accurate, md, md, 1});
    memory src(md, eng), dst(md, eng);
    example::write_to(src, example::fill(example::product({n, 32}), -3, 3, 91));
    sm.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();
    const auto y = example::read_from<float>(dst);
    for (memory::dim r = 0; r < n; ++r) {
        float sum = 0;
        for (int c = 0; c < 32; ++c)
            sum += y[r * 32 + c];
        example::expect(example::close(sum, 1.f, 1e-5f), "softmax row sum");
    }
}

void print(const char *what, const ext::kernel_cache_stats &s)
{
    std::printf("%-30s entries %2ld  hits %ld  misses %ld  programs compiled "
                "%ld\n",
            what, static_cast<long>(s.entries), static_cast<long>(s.hits),
            static_cast<long>(s.misses), static_cast<long>(programs_compiled()));
}

void kernel_cache_demo(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);
    const int initial = get_kernel_cache_capacity();
    const int initial_primitives = get_primitive_cache_capacity();
    std::printf("kernel cache capacity at start: %d\n", initial);

    set_kernel_cache_capacity(0); // empty: a known starting point
    set_kernel_cache_capacity(64);
    if (get_kernel_cache_capacity() != 64) // ONEDNN_ENABLE_KERNEL_CACHE=OFF
        throw example::not_supported("the kernel cache is compiled out");
    set_primitive_cache_capacity(0); // every creation reaches the kernels
    ext::reset_kernel_cache_stats();

    softmax_once(eng, strm, 4);
    const auto first = ext::get_kernel_cache_stats();
    const int64_t compiled_first = programs_compiled();
    print("softmax 4x32:", first);
    softmax_once(eng, strm, 4);
    const auto second = ext::get_kernel_cache_stats();
    const int64_t compiled_second = programs_compiled();
    print("softmax 4x32 again:", second);
    softmax_once(eng, strm, 7);
    print("softmax 7x32:", ext::get_kernel_cache_stats());

    if (kind == engine::kind::cpu) {
        example::expect(first.entries == 0 && first.misses == 0
                        && second.hits == 0,
                "CPU primitives leave the kernel cache alone");
    } else {
        example::expect(first.misses >= 1 && first.entries >= 1,
                "the first creation compiles and keeps its programs");
        example::expect(second.hits >= first.misses
                        && compiled_second == compiled_first,
                "the second creation takes them from the kernel cache");
        const int64_t before = programs_compiled();
        softmax_once(eng, strm, 4);
        example::expect(programs_compiled() == before,
                "a cached program is never compiled again");

        set_kernel_cache_capacity(0);
        example::expect(ext::get_kernel_cache_stats().entries == 0,
                "capacity 0 empties the kernel cache");
        softmax_once(eng, strm, 4);
        print("capacity 0, softmax 4x32:", ext::get_kernel_cache_stats());
        example::expect(programs_compiled() > before,
                "without the kernel cache the programs are compiled again");
    }

    set_kernel_cache_capacity(initial);
    set_primitive_cache_capacity(initial_primitives);
    example::expect(get_kernel_cache_capacity() == initial, "capacity restored");
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, kernel_cache_demo);
}
