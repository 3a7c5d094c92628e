// Prints the primitive cache capacity the library starts with, so CTest can
// check how environment variables are read (each case is its own process).
#include <cstdio>

#include "oneapi/dnnl/dnnl.h"

int main() {
    int capacity = -1;
    if (dnnl_get_primitive_cache_capacity(&capacity) != dnnl_success) return 1;
    std::printf("capacity %d\n", capacity);
    if (dnnl_set_primitive_cache_capacity(5) != dnnl_success) return 1;
    dnnl_get_primitive_cache_capacity(&capacity);
    std::printf("after_set %d\n", capacity);
    return 0;
}
