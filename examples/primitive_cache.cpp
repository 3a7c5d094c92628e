// The primitive cache, observed and controlled (this library's extension
// dnnl_ext.hpp for the statistics; the capacity calls are oneDNN's):
//  * creating a primitive equal to one created before is a cache hit: the
//    same compiled primitive is shared, nothing is built again;
//  * a different shape is a miss and a new entry;
//  * a capacity of 1 keeps only the most recent entry (an eviction);
//  * capacity 0 disables the cache: every creation is a miss.
// The capacity also comes from ONEDNN_PRIMITIVE_CACHE_CAPACITY at start.
// Checks: the counters move exactly as described, and primitives served
// from the cache compute the same result.
//
// Usage: primitive_cache [cpu|gpu]

#include <algorithm>

#include "oneapi/dnnl/dnnl_ext.hpp"

#include "example_utils.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

eltwise_forward make_relu(const engine &eng, memory::dim n)
{
    const memory::desc md({n, 16}, dt::f32, tag::ab);
    return eltwise_forward({eng, prop_kind::forward_inference,
            algorithm::eltwise_relu, md, md, 0.f, 0.f});
}

// Runs a ReLU over n x 16 values and checks the result.
void run_and_check(const engine &eng, stream &strm, eltwise_forward &relu,
        memory::dim n)
{
    const memory::desc md({n, 16}, dt::f32, tag::ab);
    memory src(md, eng), dst(md, eng);
    const auto x = example::fill(example::product({n, 16}), -1, 1, 81);
    example::write_to(src, x);
    relu.execute(strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    strm.wait();
    std::vector<float> want(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        want[i] = std::max(x[i], 0.f);
    example::expect_close(example::read_from<float>(dst), want, 0.f, "relu");
}

void print(const char *what, const ext::primitive_cache_stats &s)
{
    std::printf("%-28s entries %2ld  capacity %4ld  hits %ld  misses %ld  "
                "evictions %ld\n",
            what, static_cast<long>(s.entries), static_cast<long>(s.capacity),
            static_cast<long>(s.hits), static_cast<long>(s.misses),
            static_cast<long>(s.evictions));
}

void cache_demo(engine::kind kind)
{
    engine eng(kind, 0);
    stream strm(eng);
    const int initial = get_primitive_cache_capacity();
    std::printf("capacity at start: %d\n", initial);

    set_primitive_cache_capacity(0); // empties it: a known starting point
    set_primitive_cache_capacity(16);
    if (get_primitive_cache_capacity() != 16) // ONEDNN_ENABLE_PRIMITIVE_CACHE=OFF
        throw example::not_supported("the primitive cache is compiled out");
    ext::reset_primitive_cache_stats();

    auto a = make_relu(eng, 8);
    auto s = ext::get_primitive_cache_stats();
    print("first relu 8x16:", s);
    example::expect(s.misses == 1 && s.hits == 0 && s.entries == 1,
            "first creation is a miss");

    auto a_again = make_relu(eng, 8);
    s = ext::get_primitive_cache_stats();
    print("same relu again:", s);
    example::expect(s.hits == 1 && s.misses == 1 && s.entries == 1,
            "equal creation is a hit");
    run_and_check(eng, strm, a_again, 8);

    auto b = make_relu(eng, 9);
    s = ext::get_primitive_cache_stats();
    print("relu 9x16:", s);
    example::expect(s.misses == 2 && s.entries == 2, "new shape is a miss");

    set_primitive_cache_capacity(1);
    s = ext::get_primitive_cache_stats();
    print("capacity 1:", s);
    example::expect(s.entries == 1 && s.capacity == 1 && s.evictions == 1,
            "shrinking evicts the least recently used");
    auto b_again = make_relu(eng, 9); // the most recent survived
    auto a_third = make_relu(eng, 8); // evicted: built again
    s = ext::get_primitive_cache_stats();
    print("9x16 then 8x16:", s);
    example::expect(s.hits == 2 && s.misses == 3 && s.evictions == 2,
            "the survivor hits, the evicted one is rebuilt");
    run_and_check(eng, strm, a_third, 8);
    run_and_check(eng, strm, b_again, 9);

    set_primitive_cache_capacity(0);
    ext::reset_primitive_cache_stats();
    auto c1 = make_relu(eng, 8);
    auto c2 = make_relu(eng, 8);
    s = ext::get_primitive_cache_stats();
    print("capacity 0, twice:", s);
    example::expect(s.entries == 0 && s.hits == 0 && s.misses == 2,
            "a disabled cache keeps nothing");
    run_and_check(eng, strm, c2, 8);

    set_primitive_cache_capacity(initial);
    example::expect(get_primitive_cache_capacity() == initial,
            "capacity restored");
}

} // namespace

int main(int argc, char **argv)
{
    return example::run_example(argc, argv, cache_demo);
}
