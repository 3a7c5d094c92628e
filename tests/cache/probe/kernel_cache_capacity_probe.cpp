// Prints the kernel cache capacity the library starts with (and after a
// set), so CTest can check how environment variables are read: its own
// variables, falling back to the primitive cache's (one process per case).
#include <cstdio>

#include "oneapi/dnnl/dnnl_ext.h"

int main() {
    int capacity = -1;
    if (dnnl_get_kernel_cache_capacity(&capacity) != dnnl_success) return 1;
    std::printf("kernel capacity %d\n", capacity);
    if (dnnl_set_kernel_cache_capacity(5) != dnnl_success) return 1;
    dnnl_get_kernel_cache_capacity(&capacity);
    std::printf("after_set %d\n", capacity);
    return 0;
}
