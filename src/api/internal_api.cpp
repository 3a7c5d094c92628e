// Entry points outside the documented C API that oneDNN exports for its own
// test programs (benchdnn, the gtests), which declare them themselves.
// Programs built against oneDNN's tests must find them in libdnnl.so.3
// too, or fail with an unresolved symbol the first time they call one:
//   dnnl_memory_desc_create_with_string_tag  a descriptor from a tag string
//                                            ("aBcd16b"), as benchdnn's
//                                            --stag/--dtag spell them;
//   dnnl_memory_desc_set_data_type           retype a descriptor in place;
//   dnnl_impl_zero_pad                       zero a memory's padding;
//   dnnl_impl_notify_profiling_complete      end of a profiling round;
//   dnnl_impl_gpu_fill_random                device buffer filled with
//                                            pseudo-random bytes;
//   dnnl_impl_gpu_intel_*                    Intel GPU facts, answered for
//                                            a library with no Intel GPU
//                                            code.
// Data types are checked before use, as at the rest of the boundary.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.h"

#include "api/c_enum.hpp"
#include "common/memory.hpp"
#include "common/memory_desc.hpp"
#include "common/stream.hpp"
#include "common/verbose.hpp"

using namespace dnnl::impl;

namespace {

// oneDNN's tag strings are looser than format tag names: a block of 1 is
// allowed (and means nothing), and the case of the outer letters does not
// matter. Rewrites such a string into a tag name (capitals exactly for
// blocked dims) that parse_tag_name reads.
bool normalize_tag(const char *tag, std::string &out) {
    struct token_t {
        long long num;
        char dim;
    };
    std::vector<token_t> tokens;
    bool blocked[DNNL_MAX_NDIMS] = {};
    for (const char *p = tag; *p;) {
        long long num = -1;
        if (*p >= '0' && *p <= '9') {
            num = 0;
            while (*p >= '0' && *p <= '9') {
                num = num * 10 + (*p - '0');
                if (num > (1ll << 30)) return false;
                ++p;
            }
        }
        const char c = *p++;
        const char lc = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
        if (lc < 'a' || lc >= 'a' + DNNL_MAX_NDIMS) return false;
        if (num == 1) continue; // a trivial block
        if (num == 0) return false;
        if (num > 1) blocked[lc - 'a'] = true;
        tokens.push_back({num, lc});
    }
    out.clear();
    for (const auto &t : tokens) {
        if (t.num > 1)
            out += std::to_string(t.num) + t.dim;
        else
            out += blocked[t.dim - 'a'] ? char(t.dim - 'a' + 'A') : t.dim;
    }
    return !out.empty();
}

// Calls f(offset) for every element of the padding of a blocked `md`: each
// position with some coordinate d in [dims[d], padded_dims[d]), coordinates
// before d inside the dims (so none is visited twice), after d anywhere.
template <typename F>
void for_each_padding_offset(const memory_desc_t &md, F f) {
    const int nd = md.ndims;
    for (int d = 0; d < nd; ++d) {
        if (md.padded_dims[d] == md.dims[d]) continue;
        dims_t lo = {}, hi = {};
        for (int k = 0; k < nd; ++k) hi[k] = k < d ? md.dims[k] : md.padded_dims[k];
        lo[d] = md.dims[d];
        bool empty = false;
        for (int k = 0; k < nd; ++k) empty = empty || lo[k] >= hi[k];
        if (empty) continue;
        dims_t pos;
        std::memcpy(pos, lo, sizeof(pos));
        for (;;) {
            f(md_off_v(md, pos));
            int k = nd - 1;
            while (k >= 0 && ++pos[k] == hi[k]) {
                pos[k] = lo[k];
                --k;
            }
            if (k < 0) break;
        }
    }
}

} // namespace

extern "C" {

DNNL_API dnnl_status_t dnnl_memory_desc_create_with_string_tag(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, const char *tag);
DNNL_API dnnl_status_t dnnl_memory_desc_set_data_type(
        dnnl_memory_desc_t memory_desc, dnnl_data_type_t data_type);
DNNL_API dnnl_status_t dnnl_impl_zero_pad(
        const_dnnl_memory_t memory, dnnl_stream_t stream);
DNNL_API dnnl_status_t dnnl_impl_notify_profiling_complete(dnnl_stream_t stream);
DNNL_API dnnl_status_t dnnl_impl_gpu_fill_random(dnnl_stream_t stream,
        size_t size, dnnl_memory_t memory, int buffer_index, uint32_t seed);
DNNL_API void dnnl_impl_gpu_intel_clear_device_info_cache();
DNNL_API const char *dnnl_impl_gpu_intel_get_isa_name(dnnl_engine_t engine);
DNNL_API bool dnnl_impl_gpu_intel_mayiuse_ngen_kernels(dnnl_engine_t engine);

dnnl_status_t dnnl_memory_desc_create_with_string_tag(
        dnnl_memory_desc_t *memory_desc, int ndims, const dnnl_dims_t dims,
        dnnl_data_type_t data_type, const char *tag) {
    if (!memory_desc || !tag || (ndims > 0 && !dims)) return dnnl_invalid_arguments;
    if (!known(data_type)) return dnnl_invalid_arguments;
    std::string name;
    tag_layout_t layout;
    if (!normalize_tag(tag, name) || !parse_tag_name(name.c_str(), layout)
            || layout.ndims != ndims) {
        verbose_error("memory", "tag '%s' does not describe %d dims", tag, ndims);
        return dnnl_invalid_arguments;
    }
    memory_desc_t md;
    DNNL_CHECK(md_init_by_layout(md, ndims, dims, data_type, layout));
    *memory_desc = new (std::nothrow) memory_desc_t(md);
    return *memory_desc ? dnnl_success : dnnl_out_of_memory;
}

dnnl_status_t dnnl_memory_desc_set_data_type(
        dnnl_memory_desc_t memory_desc, dnnl_data_type_t data_type) {
    if (!memory_desc || !known(data_type)) return dnnl_invalid_arguments;
    // A type whose size the layout cannot hold (4-bit elements at odd
    // strides, a size past the limits) leaves the descriptor as it was.
    memory_desc_t retyped = *memory_desc;
    retyped.data_type = data_type;
    if (!md_consistent(retyped)) return dnnl_invalid_arguments;
    *memory_desc = retyped;
    return dnnl_success;
}

dnnl_status_t dnnl_impl_zero_pad(const_dnnl_memory_t memory, dnnl_stream_t stream) {
    if (!memory || !stream) return dnnl_invalid_arguments;
    const memory_desc_t &md = memory->md();
    memory_storage_t *storage = memory->storage(0);
    if (md.format_kind != dnnl_blocked || !storage || !storage->data_handle())
        return dnnl_success;
    bool padded = false;
    for (int d = 0; d < md.ndims; ++d)
        padded = padded || md.padded_dims[d] != md.dims[d];
    if (!padded || md_has_runtime_dims_or_strides(md)) return dnnl_success;

    // Work on the host image (a mapping on device memory), after what the
    // stream has queued.
    DNNL_CHECK(stream->wait());
    void *p = nullptr;
    DNNL_CHECK(storage->map_data(&p, stream, md_size(md)));
    if (!p) return dnnl_success;
    uint8_t *base = static_cast<uint8_t *>(p);
    const size_t esz = data_type_size(md.data_type);
    if (esz == 0) {
        // Two 4-bit elements a byte: clear the element's nibble.
        for_each_padding_offset(md, [&](dim_t off) {
            base[off / 2] &= off % 2 ? 0x0f : 0xf0;
        });
    } else {
        for_each_padding_offset(md, [&](dim_t off) {
            std::memset(base + off * (dim_t)esz, 0, esz);
        });
    }
    return storage->unmap_data(p, stream);
}

dnnl_status_t dnnl_impl_notify_profiling_complete(dnnl_stream_t stream) {
    if (!stream) return dnnl_invalid_arguments;
    if (stream->engine()->kind() != dnnl_gpu) {
        verbose_error("stream", "the cpu engine does not support profiling");
        return dnnl_unimplemented;
    }
    // Entries are complete when their execution ends (stream.hpp):
    // nothing is pending here.
    return dnnl_success;
}

dnnl_status_t dnnl_impl_gpu_fill_random(dnnl_stream_t stream, size_t size,
        dnnl_memory_t memory, int buffer_index, uint32_t seed) {
    if (!stream || !memory || stream->engine()->kind() != dnnl_gpu)
        return dnnl_invalid_arguments;
    memory_storage_t *storage = memory->storage(buffer_index);
    if (!storage) return dnnl_invalid_arguments;
    if (size == 0 || !storage->data_handle()) return dnnl_success;
    DNNL_CHECK(stream->wait());
    void *p = nullptr;
    DNNL_CHECK(storage->map_data(&p, stream, size));
    if (!p) return dnnl_invalid_arguments;
    // xorshift32; a zero seed would stay zero.
    uint32_t x = seed ? seed : 0x9e3779b9u;
    uint8_t *b = static_cast<uint8_t *>(p);
    for (size_t i = 0; i < size; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b[i] = (uint8_t)(x >> 24);
    }
    return storage->unmap_data(p, stream);
}

void dnnl_impl_gpu_intel_clear_device_info_cache() {
    // Device facts live in each OpenCL engine here, not in a process-wide
    // cache: there is nothing to clear.
}

const char *dnnl_impl_gpu_intel_get_isa_name(dnnl_engine_t) {
    // No Intel GPU code generation in this library.
    return "unsupported";
}

bool dnnl_impl_gpu_intel_mayiuse_ngen_kernels(dnnl_engine_t) {
    return false;
}

} // extern "C"
