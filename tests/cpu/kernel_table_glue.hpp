// What the per-family kernel-table tests (test_kernel_tables_<family>.cpp)
// share: the entries of a family's table that this processor can run,
// reached through the library's exported test hook
// (src/cpu/kernel_tables_test_hook.cpp), and random inputs.
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <utility>
#include <vector>

const void *dnnl_test_cpu_kernel_table_entry(
        const char *family, int i, unsigned *isa, int *selected);
bool dnnl_test_cpu_isa_entry_supported(unsigned isa);

namespace kernel_table_glue {

// Every entry of `family` the processor supports (whatever the library's
// ISA limit), best first, as its kernel set.
template <typename K>
std::vector<const K *> runnable_entries(const char *family) {
    std::vector<const K *> v;
    for (int i = 0;; ++i) {
        unsigned isa = 0;
        const void *k
                = dnnl_test_cpu_kernel_table_entry(family, i, &isa, nullptr);
        if (!k) break;
        if (dnnl_test_cpu_isa_entry_supported(isa))
            v.push_back(static_cast<const K *>(k));
    }
    return v;
}

inline std::vector<float> random_floats(
        size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto &x : v)
        x = d(g);
    return v;
}

} // namespace kernel_table_glue
