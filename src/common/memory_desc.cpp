// Memory descriptor arithmetic: layouts from format tags, strides, sizes,
// offsets, sub-memory, reshape and axis permutation.
//
// Conventions follow the pinned oneDNN: a descriptor with ndims == 0 is the
// zero descriptor; DNNL_RUNTIME_DIM_VAL marks dims/strides known only at
// execution time; blocked layouts keep strides of the outer (blocked) part
// of every dim plus a list of dense inner blocks, innermost last.

#include "common/memory_desc.hpp"

#include <cstring>

#include "common/dim_math.hpp"
#include "common/sparse_md.hpp"
#include "common/utils.hpp"

#include "common/format_tag_names.inc"

namespace dnnl {
namespace impl {

namespace {

constexpr dim_t runtime_dim = DNNL_RUNTIME_DIM_VAL;

// Bits of memory_extra_desc_t::flags (values of oneDNN's extra flags).
constexpr uint64_t compensation_conv_s8s8_flag = 0x1u;
constexpr uint64_t scale_adjust_flag = 0x2u;
constexpr uint64_t rnn_u8s8_compensation_flag = 0x4u;
constexpr uint64_t compensation_conv_asymmetric_src_flag = 0x8u;

inline bool is_rt(dim_t v) {
    return v == runtime_dim;
}

// a * b, saturated to INT64_MAX on overflow (operands are non-negative).
inline dim_t sat_mul(dim_t a, dim_t b) {
    dim_t r;
    if (__builtin_mul_overflow(a, b, &r)) return INT64_MAX;
    return r;
}

#define DNNL_TAG_NAME(value, str) str,
const char *const tag_names[] = {DNNL_FORMAT_TAG_NAMES(DNNL_TAG_NAME)};
#undef DNNL_TAG_NAME
static_assert(sizeof(tag_names) / sizeof(tag_names[0]) == DNNL_FORMAT_TAG_COUNT,
        "format tag name table must be dense");

size_t elements_to_bytes(data_type_t dt, size_t n) {
    const int bits = sub_byte_bits(dt);
    // Whole bytes of every eight elements first: n * bits would wrap for
    // the spans near INT64_MAX that byte-sized types may have.
    if (bits) return n / 8 * bits + (n % 8 * bits + 7) / 8;
    return n * data_type_size(dt);
}

// Data types a memory descriptor may hold (what the pinned library accepts).
bool dt_supported(data_type_t dt) {
    switch (dt) {
        case dnnl_f16:
        case dnnl_bf16:
        case dnnl_f32:
        case dnnl_s32:
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_f64:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3:
        case dnnl_s4:
        case dnnl_u4:
        case dnnl_e8m0:
        case dnnl_f4_e2m1:
        case dnnl_s64: return true;
        default: return false;
    }
}

bool sanity_check(int ndims, const dim_t *dims, data_type_t dt,
        format_kind_t kind) {
    if (ndims == 0) return true;
    if (dims == nullptr || ndims < 0 || ndims > max_ndims) return false;
    if (!dt_supported(dt)) return false;
    bool has_rt = false;
    for (int d = 0; d < ndims; ++d) {
        if (is_rt(dims[d]))
            has_rt = true;
        else if (dims[d] < 0)
            return false;
    }
    // Layout `any` cannot be chosen for sizes that are not known yet.
    if (has_rt && kind == dnnl_format_kind_any) return false;
    return true;
}

bool sanity_check(const memory_desc_t &md) {
    return sanity_check(md.ndims, md.dims, md.data_type, dnnl_format_kind_undef);
}

bool has_zero_dim(const memory_desc_t &md) {
    if (md.ndims == 0) return true;
    for (int d = 0; d < md.ndims; ++d)
        if (md.dims[d] == 0) return true;
    return false;
}

bool has_runtime_dims(const memory_desc_t &md) {
    for (int d = 0; d < md.ndims; ++d)
        if (is_rt(md.dims[d])) return true;
    return false;
}

// Total inner block of every dim (1 where a dim is not blocked).
void compute_blocks(const memory_desc_t &md, dim_t *blocks) {
    for (int d = 0; d < max_ndims; ++d)
        blocks[d] = 1;
    if (md.format_kind != dnnl_blocked) return;
    const auto &b = md.format_desc.blocking;
    for (int i = 0; i < b.inner_nblks; ++i)
        blocks[b.inner_idxs[i]]
                = sat_mul(blocks[b.inner_idxs[i]], b.inner_blks[i]);
}

// Elements of one innermost block; saturates (as compute_blocks does) so
// that a descriptor under validation cannot overflow it.
dim_t inner_block_size(const blocking_desc_t &b) {
    dim_t s = 1;
    for (int i = 0; i < b.inner_nblks; ++i)
        s = sat_mul(s, b.inner_blks[i]);
    return s;
}

// Outer blocks of a dim: padded_dims / blocks, rounded up (a sub-memory cut
// inside one block still occupies that whole block).
dim_t outer_extent(dim_t padded_dim, dim_t block) {
    return padded_dim / block + (padded_dim % block != 0);
}

// Sub-byte elements share bytes: every dimension but unit ones must advance
// by a whole number of bytes (or by exactly one element).
bool sub_byte_strides_ok(const memory_desc_t &md) {
    const int bits = sub_byte_bits(md.data_type);
    if (bits == 0 || md.format_kind != dnnl_blocked) return true;
    const dim_t per_byte = 8 / bits;
    // Nothing is stored, or the layout is only known at execution time.
    if (has_zero_dim(md) || md_has_runtime_dims_or_strides(md)) return true;
    const auto &b = md.format_desc.blocking;
    for (int d = 0; d < md.ndims; ++d) {
        if (md.dims[d] == 1) continue;
        const dim_t s = b.strides[d];
        if (is_rt(s) || s == 1) continue;
        if (s % per_byte != 0) return false;
    }
    return true;
}

// Strides must not make distinct elements overlap (stride 0, i.e.
// broadcast, and unit dims excepted; a negative stride fails unless its dim
// is a unit one); runtime values and empty tensors skip the check. Outer
// strides of a blocked layout step over whole inner blocks.
bool strides_ok(const memory_desc_t &md, const dim_t *strides) {
    const int nd = md.ndims;
    int order[max_ndims];
    dim_t blocks[max_ndims], outer[max_ndims];
    compute_blocks(md, blocks);
    for (int d = 0; d < nd; ++d) {
        if (md.padded_dims[d] == 0) return true; // empty tensor
        if (is_rt(strides[d]) || is_rt(md.padded_dims[d])) return true;
        order[d] = d;
        outer[d] = outer_extent(md.padded_dims[d], blocks[d]);
    }
    // Sort dims by increasing stride (ties: smaller dim, then index).
    auto before = [&](int a, int b) {
        if (strides[a] != strides[b]) return strides[a] < strides[b];
        if (outer[a] != outer[b]) return outer[a] < outer[b];
        return a < b;
    };
    for (int i = 1; i < nd; ++i)
        for (int j = i; j > 0 && before(order[j], order[j - 1]); --j) {
            const int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    dim_t min_stride = md.format_kind == dnnl_blocked
            ? inner_block_size(md.format_desc.blocking)
            : 1;
    for (int i = 0; i < nd; ++i) {
        const int d = order[i];
        if (strides[d] == 0 || outer[d] == 1) continue;
        if (strides[d] < min_stride) return false;
        min_stride = sat_mul(strides[d], outer[d]);
    }
    return true;
}

// Writes padded dims and blocking of `md` (ndims, dims set) for `layout`;
// false when the sizes do not fit in dim_t.
bool apply_layout(memory_desc_t &md, const tag_layout_t &layout) {
    auto &b = md.format_desc.blocking;
    std::memset(&b, 0, sizeof(b));
    dim_t blocks[max_ndims];
    for (int d = 0; d < max_ndims; ++d)
        blocks[d] = 1;
    dim_t stride = 1;
    b.inner_nblks = layout.inner_nblks;
    for (int i = 0; i < layout.inner_nblks; ++i) {
        b.inner_blks[i] = layout.inner_blks[i];
        b.inner_idxs[i] = layout.inner_idxs[i];
        blocks[layout.inner_idxs[i]] *= layout.inner_blks[i];
        stride *= layout.inner_blks[i];
    }
    for (int d = 0; d < md.ndims; ++d) {
        const dim_t dim = md.dims[d];
        if (is_rt(dim)) {
            md.padded_dims[d] = dim;
        } else {
            if (dim > INT64_MAX - (blocks[d] - 1)) return false;
            md.padded_dims[d] = (dim + (blocks[d] - 1)) / blocks[d] * blocks[d];
        }
        md.padded_offsets[d] = 0;
    }
    bool rt = false;
    for (int i = md.ndims - 1; i >= 0; --i) {
        const int d = layout.outer_order[i];
        b.strides[d] = rt ? runtime_dim : stride;
        const dim_t pd = md.padded_dims[d];
        if (is_rt(pd))
            rt = true;
        else if (pd != 0) { // a zero dim keeps the stride of the next one
            stride = sat_mul(stride, pd / blocks[d]);
            // Past the outermost dim the product is the volume, which may
            // be anything a dim_t holds; an outer dim's stride may not
            // overflow.
            if (stride == INT64_MAX && i > 0) return false;
        }
    }
    return true;
}

// Parses a canonical letter tag: lower-case letters are plain dims and
// upper-case ones blocked dims, outermost first; `<N><letter>` suffixes are
// inner blocks, innermost last.
bool parse_tag(const char *name, tag_layout_t &l) {
    l = tag_layout_t();
    bool outer_seen[max_ndims] = {};
    bool outer_upper[max_ndims] = {};
    bool has_block[max_ndims] = {};
    for (const char *p = name; *p;) {
        dim_t num = 0;
        bool has_num = false;
        while (*p >= '0' && *p <= '9') {
            num = num * 10 + (*p - '0');
            has_num = true;
            if (num > (dim_t(1) << 30)) return false;
            ++p;
        }
        const char c = *p;
        if (c == '\0') return false;
        ++p;
        const bool lower = c >= 'a' && c < 'a' + max_ndims;
        const bool upper = c >= 'A' && c < 'A' + max_ndims;
        if (!lower && !upper) return false;
        const int d = lower ? c - 'a' : c - 'A';
        if (has_num) {
            if (!lower || num < 1 || l.inner_nblks == max_ndims) return false;
            l.inner_blks[l.inner_nblks] = num;
            l.inner_idxs[l.inner_nblks] = d;
            l.inner_nblks++;
            has_block[d] = true;
        } else {
            if (outer_seen[d] || l.ndims == max_ndims) return false;
            outer_seen[d] = true;
            outer_upper[d] = upper;
            l.outer_order[l.ndims++] = d;
        }
    }
    if (l.ndims == 0) return false;
    for (int d = 0; d < max_ndims; ++d) {
        if ((d < l.ndims) != outer_seen[d]) return false;
        if (outer_upper[d] != has_block[d]) return false;
    }
    return true;
}

// Equality of the physical layouts of two blocked descriptors of the same
// dims (strides of unit dims do not matter).
bool same_blocking(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.format_kind != dnnl_blocked || b.format_kind != dnnl_blocked)
        return false;
    const auto &x = a.format_desc.blocking;
    const auto &y = b.format_desc.blocking;
    if (x.inner_nblks != y.inner_nblks) return false;
    for (int i = 0; i < x.inner_nblks; ++i)
        if (x.inner_blks[i] != y.inner_blks[i]
                || x.inner_idxs[i] != y.inner_idxs[i])
            return false;
    for (int d = 0; d < a.ndims; ++d) {
        if (a.dims[d] == 1 && a.padded_dims[d] == 1) continue;
        if (x.strides[d] != y.strides[d]) return false;
    }
    return true;
}

// Canonical copy for comparisons: clears what does not affect the meaning
// (entries past ndims/inner_nblks, strides of unit dims, unused extras).
memory_desc_t normalized(const memory_desc_t &md) {
    memory_desc_t n = zero_md();
    const int nd = md.ndims < 0 ? 0 : (md.ndims > max_ndims ? max_ndims : md.ndims);
    n.ndims = md.ndims;
    n.data_type = md.data_type;
    n.offset0 = md.offset0;
    n.format_kind = md.format_kind;
    for (int d = 0; d < nd; ++d) {
        n.dims[d] = md.dims[d];
        n.padded_dims[d] = md.padded_dims[d];
        n.padded_offsets[d] = md.padded_offsets[d];
    }
    if (md.format_kind == dnnl_blocked) {
        const auto &s = md.format_desc.blocking;
        auto &t = n.format_desc.blocking;
        for (int d = 0; d < nd; ++d)
            // A runtime stride still makes the size unknown: it counts.
            t.strides[d] = (md.dims[d] == 1 && md.padded_dims[d] == 1
                                   && !is_rt(s.strides[d]))
                    ? 0
                    : s.strides[d];
        const int nb = s.inner_nblks < 0
                ? 0
                : (s.inner_nblks > max_ndims ? max_ndims : s.inner_nblks);
        t.inner_nblks = s.inner_nblks;
        for (int i = 0; i < nb; ++i) {
            t.inner_blks[i] = s.inner_blks[i];
            t.inner_idxs[i] = s.inner_idxs[i];
        }
    }
    if (md.format_kind == dnnl_format_kind_sparse) {
        const auto &s = md.format_desc.sparse_desc;
        auto &t = n.format_desc.sparse_desc;
        t.encoding = s.encoding;
        t.nnz = s.nnz;
        t.metadata_types[0] = s.metadata_types[0];
        t.metadata_types[1] = s.metadata_types[1];
        if (s.encoding == dnnl_grouped) t.grouped_desc = s.grouped_desc;
    }
    // Extras: a field only counts when its flag says it is in use.
    const uint64_t f = md.extra.flags;
    n.extra.flags = f;
    if (f & (compensation_conv_s8s8_flag | rnn_u8s8_compensation_flag))
        n.extra.compensation_mask = md.extra.compensation_mask;
    if (f & scale_adjust_flag) n.extra.scale_adjust = md.extra.scale_adjust;
    if (f & compensation_conv_asymmetric_src_flag)
        n.extra.asymm_compensation_mask = md.extra.asymm_compensation_mask;
    return n;
}

// Bytes of the compensation buffers appended after the data.
size_t extra_buffer_size(const memory_desc_t &md) {
    const uint64_t f = md.extra.flags;
    auto masked = [&](int mask, size_t elem) {
        dim_t prod = 1;
        for (int d = 0; d < md.ndims; ++d)
            if (mask & (1 << d)) prod = sat_mul(prod, md.padded_dims[d]);
        // Capped so that the sum below cannot wrap; such sizes fail
        // md_consistent anyway.
        if (prod > INT64_MAX / 16) prod = INT64_MAX / 16;
        return (size_t)prod * elem;
    };
    size_t s = 0;
    if (f & compensation_conv_s8s8_flag)
        s += masked(md.extra.compensation_mask, sizeof(int32_t));
    if (f & rnn_u8s8_compensation_flag)
        s += masked(md.extra.compensation_mask, sizeof(float));
    if (f & compensation_conv_asymmetric_src_flag)
        s += masked(md.extra.asymm_compensation_mask, sizeof(int32_t));
    return s;
}

// Elements a blocked descriptor reports (offset0 not included): oneDNN's
// measure, the largest outer extent times its stride, raised where needed
// to one past the largest offset the strides reach (all-zero or
// overlapping-free but unusual strides, pieces of a block), so that a
// buffer of the reported size always holds every element. SIZE_MAX when
// that count does not fit in a dim_t (INT64_MAX itself is a true count).
size_t blocked_span(const memory_desc_t &md) {
    dim_t blocks[max_ndims];
    compute_blocks(md, blocks);
    const auto &b = md.format_desc.blocking;
    const dim_t inner = inner_block_size(b);
    dim_t span = 0, reach = inner;
    for (int d = 0; d < md.ndims; ++d) {
        const dim_t outer = md.padded_dims[d] / blocks[d];
        const dim_t s = outer == 1 ? 1 : b.strides[d];
        dim_t extent = 0;
        if (__builtin_mul_overflow(outer, s, &extent)) return SIZE_MAX;
        if (extent > span) span = extent;
        const dim_t steps = outer_extent(md.padded_dims[d], blocks[d]) - 1;
        if (steps > 0 && b.strides[d] > 0) {
            dim_t r = 0;
            if (__builtin_mul_overflow(steps, b.strides[d], &r)
                    || __builtin_add_overflow(reach, r, &reach))
                return SIZE_MAX;
        }
    }
    if (span == 1 && b.inner_nblks != 0) span = inner;
    return (size_t)(reach > span ? reach : span);
}

// The most elements of `md`'s type whose bytes a dim_t still counts.
dim_t max_elems(const memory_desc_t &md) {
    const size_t sz = data_type_size(md.data_type);
    return INT64_MAX / (dim_t)(sz > 0 ? sz : 1);
}

// Whether the bytes a blocked descriptor spans fit in a dim_t (a u8
// tensor of INT64_MAX elements is a valid descriptor that no memory can
// back, as in oneDNN: creating one is dnnl_out_of_memory).
bool span_fits(const memory_desc_t &md) {
    if (has_zero_dim(md) || md_has_runtime_dims_or_strides(md)) return true;
    return blocked_span(md) <= (size_t)max_elems(md);
}

size_t size_no_extra(const memory_desc_t &md) {
    if (md.format_kind == dnnl_format_kind_undef
            || md.format_kind == dnnl_format_kind_any || has_zero_dim(md))
        return 0;
    if (md.format_kind == dnnl_format_kind_host_scalar)
        return data_type_size(md.data_type);
    if (md_has_runtime_dims_or_strides(md)) return DNNL_RUNTIME_SIZE_VAL;
    // A sparse descriptor's size is that of its values (buffer 0).
    if (md.format_kind == dnnl_format_kind_sparse)
        return md_buffer_size(md, 0);
    if (md.format_kind != dnnl_blocked) return 0;
    return elements_to_bytes(md.data_type, blocked_span(md));
}

} // namespace

memory_desc_t zero_md() {
    memory_desc_t md;
    // Zero every byte (padding included, for byte-wise blobs), then restore
    // the base-class slot oneDNN keeps true in every descriptor.
    std::memset(static_cast<void *>(&md), 0, sizeof(md));
    md.base_initialized_slot = true;
    return md;
}

size_t data_type_size(data_type_t dt) {
    switch (dt) {
        case dnnl_f16:
        case dnnl_bf16: return 2;
        case dnnl_f32:
        case dnnl_s32: return 4;
        case dnnl_f64:
        case dnnl_s64: return 8;
        case dnnl_s8:
        case dnnl_u8:
        case dnnl_boolean:
        case dnnl_f8_e5m2:
        case dnnl_f8_e4m3:
        case dnnl_e8m0:
        // Packed types report the byte that holds them, as oneDNN does.
        case dnnl_s4:
        case dnnl_u4:
        case dnnl_f4_e2m1:
        case dnnl_f4_e3m0: return 1;
        default: return (size_t)-1; // undef and unknown values
    }
}

const char *format_tag_name(format_tag_t tag) {
    const long long v = tag;
    if (v < 0 || v >= DNNL_FORMAT_TAG_COUNT) return "undef";
    return tag_names[v];
}

// The one check every descriptor passes before it is handed out: what the
// creators below build by construction, and all a blob reader can rely on.
bool md_consistent(const memory_desc_t &md) {
    if (md.ndims == 0) return true;
    if (!sanity_check(md.ndims, md.dims, md.data_type, md.format_kind))
        return false;
    if (md.format_kind == dnnl_format_kind_host_scalar)
        return md.ndims == 1 && md.dims[0] == 1;
    if (md.format_kind == dnnl_format_kind_sparse)
        return md_sparse_consistent(md);
    if (md.format_kind != dnnl_format_kind_any
            && md.format_kind != dnnl_blocked)
        return false; // nothing here makes opaque descriptors
    if (md.format_kind == dnnl_blocked) {
        const auto &b = md.format_desc.blocking;
        if (b.inner_nblks < 0 || b.inner_nblks > max_ndims) return false;
        for (int i = 0; i < b.inner_nblks; ++i)
            if (b.inner_idxs[i] < 0 || b.inner_idxs[i] >= md.ndims
                    || b.inner_blks[i] < 1)
                return false;
        if (inner_block_size(b) > (dim_t(1) << 32)) return false;
    }
    dim_t blocks[max_ndims];
    compute_blocks(md, blocks);
    dim_t volume = 1; // of the non-empty padded dims: element counts fit
    for (int d = 0; d < md.ndims; ++d) {
        const dim_t dim = md.dims[d], pdim = md.padded_dims[d];
        const dim_t poff = md.padded_offsets[d];
        if (is_rt(dim)) {
            if (pdim != dim || poff != 0) return false;
            continue;
        }
        if (is_rt(pdim) || pdim < dim || poff < 0 || poff > pdim - dim)
            return false;
        if (pdim > 0 && __builtin_mul_overflow(volume, pdim, &volume))
            return false;
        if (md.format_kind == dnnl_format_kind_any) {
            if (pdim != dim || poff != 0) return false;
        } else {
            // Padding is exactly what the dim's blocks need (none for an
            // unblocked dim), or a submemory's piece of one block has none:
            // walkers that visit the padded positions must not meet more
            // of them than the blocks hold. (No rounding up: dim may be
            // near INT64_MAX.)
            const dim_t blk = blocks[d];
            const bool exact = pdim == dim && (dim % blk == 0 || dim < blk);
            const bool rounded_up = pdim > dim && pdim % blk == 0 && pdim - dim < blk;
            if (!exact && !rounded_up) return false;
        }
    }
    if (md.format_kind == dnnl_format_kind_any)
        return md.offset0 == 0 && md.extra.flags == 0;

    if (!strides_ok(md, md.format_desc.blocking.strides)
            || !sub_byte_strides_ok(md) || !span_fits(md))
        return false;
    if (md.offset0 < 0) return false;
    if (!has_zero_dim(md) && !md_has_runtime_dims_or_strides(md)
            && md.offset0 > max_elems(md) - (dim_t)blocked_span(md))
        return false;
    const uint64_t known_flags = compensation_conv_s8s8_flag
            | scale_adjust_flag | rnn_u8s8_compensation_flag
            | compensation_conv_asymmetric_src_flag;
    const int all_dims = (1 << md.ndims) - 1;
    const auto &x = md.extra;
    if ((x.flags & ~known_flags) != 0 || x.compensation_mask < 0
            || x.compensation_mask > all_dims || x.asymm_compensation_mask < 0
            || x.asymm_compensation_mask > all_dims)
        return false;
    return extra_buffer_size(md) <= (size_t)(INT64_MAX / 8);
}

bool tag_layout(format_tag_t tag, tag_layout_t &layout) {
    const long long v = tag;
    if (v <= dnnl_format_tag_any || v >= dnnl_format_tag_last
            || v >= DNNL_FORMAT_TAG_COUNT)
        return false;
    return parse_tag(tag_names[v], layout);
}

bool parse_tag_name(const char *name, tag_layout_t &layout) {
    return name && parse_tag(name, layout);
}

// A descriptor of `ndims` dims: `layout` null gives format kind any.
static status_t md_init(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, const tag_layout_t *layout) {
    const format_kind_t kind = layout ? dnnl_blocked : dnnl_format_kind_any;
    if (!sanity_check(ndims, dims, dt, kind)) return dnnl_invalid_arguments;

    memory_desc_t tmp = zero_md();
    tmp.ndims = ndims;
    tmp.data_type = dt;
    tmp.format_kind = kind;
    for (int d = 0; d < ndims; ++d)
        tmp.dims[d] = tmp.padded_dims[d] = dims[d];

    if (layout) {
        if (layout->ndims != ndims || !apply_layout(tmp, *layout))
            return dnnl_invalid_arguments;
    }
    if (!md_consistent(tmp)) return dnnl_invalid_arguments;
    md = tmp;
    return dnnl_success;
}

status_t md_init_by_tag(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, format_tag_t tag) {
    if (ndims == 0 || tag == dnnl_format_tag_undef) {
        md = zero_md();
        return dnnl_success;
    }
    if (tag == dnnl_format_tag_any) return md_init(md, ndims, dims, dt, nullptr);
    tag_layout_t layout;
    if (!tag_layout(tag, layout)) return dnnl_invalid_arguments;
    return md_init(md, ndims, dims, dt, &layout);
}

status_t md_init_by_layout(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, const tag_layout_t &layout) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    return md_init(md, ndims, dims, dt, &layout);
}

status_t md_init_by_strides(memory_desc_t &md, int ndims, const dims_t dims,
        data_type_t dt, const dims_t strides) {
    if (ndims == 0) {
        md = zero_md();
        return dnnl_success;
    }
    if (!sanity_check(ndims, dims, dt, dnnl_format_kind_undef))
        return dnnl_invalid_arguments;

    memory_desc_t tmp = zero_md();
    tmp.ndims = ndims;
    tmp.data_type = dt;
    tmp.format_kind = dnnl_blocked;
    for (int d = 0; d < ndims; ++d)
        tmp.dims[d] = tmp.padded_dims[d] = dims[d];

    dims_t dense = {0};
    if (strides == nullptr) {
        // Row-major; strides outside a runtime dim are runtime too.
        dense[ndims - 1] = 1;
        bool rt = false;
        for (int d = ndims - 2; d >= 0; --d) {
            if (is_rt(tmp.padded_dims[d]) || is_rt(tmp.padded_dims[d + 1]))
                rt = true;
            dense[d] = rt ? runtime_dim
                          : sat_mul(dense[d + 1], tmp.padded_dims[d + 1]);
            if (dense[d] == INT64_MAX) return dnnl_invalid_arguments;
        }
        strides = dense;
    }
    if (!strides_ok(tmp, strides)) return dnnl_invalid_arguments;
    for (int d = 0; d < ndims; ++d)
        tmp.format_desc.blocking.strides[d] = strides[d];
    if (!md_consistent(tmp)) return dnnl_invalid_arguments;
    md = tmp;
    return dnnl_success;
}

status_t md_set_format_by_tag(memory_desc_t &md, format_tag_t tag) {
    memory_desc_t tmp;
    DNNL_CHECK(md_init_by_tag(tmp, md.ndims, md.dims, md.data_type, tag));
    md = tmp;
    return dnnl_success;
}

status_t md_init_submemory(memory_desc_t &md, const memory_desc_t &parent,
        const dims_t dims, const dims_t offsets) {
    if (dims == nullptr || offsets == nullptr) return dnnl_invalid_arguments;
    if (!sanity_check(parent)) return dnnl_invalid_arguments;
    if (md_has_runtime_dims_or_strides(parent)) return dnnl_unimplemented;
    for (int d = 0; d < parent.ndims; ++d) {
        if (is_rt(dims[d]) || is_rt(offsets[d])) return dnnl_unimplemented;
        if (dims[d] < 0 || offsets[d] < 0
                || offsets[d] > parent.dims[d] - dims[d])
            return dnnl_invalid_arguments;
    }
    if (parent.format_kind != dnnl_blocked) return dnnl_unimplemented;

    dim_t blocks[max_ndims];
    compute_blocks(parent, blocks);
    memory_desc_t sub = parent;
    const auto &strides = parent.format_desc.blocking.strides;
    for (int d = 0; d < parent.ndims; ++d) {
        const bool at_end = offsets[d] + dims[d] == parent.dims[d];
        // A blocked dim may only be cut at block boundaries.
        const bool ok = offsets[d] % blocks[d] == 0
                && parent.padded_offsets[d] == 0
                && (at_end || dims[d] % blocks[d] == 0 || dims[d] < blocks[d]);
        if (!ok) return dnnl_unimplemented;
        sub.dims[d] = dims[d];
        sub.padded_dims[d]
                = at_end ? parent.padded_dims[d] - offsets[d] : dims[d];
        // Checked: the parent's strides are the caller's (they may be huge
        // on a dim the parent holds no element of).
        dim_t step = 0;
        if (!dim_mul(offsets[d] / blocks[d], strides[d], step)
                || !dim_add(sub.offset0, step, sub.offset0))
            return dnnl_invalid_arguments;
    }
    if (!md_consistent(sub)) return dnnl_invalid_arguments;
    md = sub;
    return dnnl_success;
}

status_t md_reshape(memory_desc_t &out, const memory_desc_t &in, int ndims,
        const dims_t dims) {
    // Product of dims, zeros counted as ones; runtime dims poison it, and
    // so does a product past dim_t (INT64_MAX: no descriptor has it).
    auto volume = [](const dim_t *v, int n, bool &rt) {
        dim_t p = 1;
        rt = false;
        for (int i = 0; i < n; ++i) {
            if (is_rt(v[i])) rt = true;
            p = sat_mul(p, v[i] > 0 ? v[i] : 1);
        }
        return p;
    };
    if (dims == nullptr || ndims < 1 || ndims > max_ndims)
        return dnnl_invalid_arguments;
    if (!sanity_check(in)) return dnnl_invalid_arguments;
    if (!sanity_check(ndims, dims, in.data_type, in.format_kind))
        return dnnl_invalid_arguments;
    if (in.format_kind != dnnl_format_kind_any
            && in.format_kind != dnnl_blocked)
        return dnnl_invalid_arguments;
    if (in.ndims == 0) return dnnl_invalid_arguments;
    bool in_rt = false, out_rt = false;
    const dim_t in_volume = volume(in.dims, in.ndims, in_rt);
    if (in_volume != volume(dims, ndims, out_rt) || in_volume == INT64_MAX
            || in_rt || out_rt)
        return dnnl_invalid_arguments;
    if (md_has_runtime_dims_or_strides(in)) return dnnl_invalid_arguments;
    if (in.extra.flags != 0) return dnnl_invalid_arguments;

    if (in.format_kind == dnnl_format_kind_any)
        return md_init_by_tag(out, ndims, dims, in.data_type,
                dnnl_format_tag_any);

    const auto &ib = in.format_desc.blocking;
    const dim_t *idims = in.dims;
    const dim_t *ipdims = in.padded_dims;

    memory_desc_t r = in;
    r.ndims = ndims;
    for (int d = 0; d < max_ndims; ++d) {
        r.dims[d] = d < ndims ? dims[d] : 0;
        r.padded_dims[d] = 0;
        r.padded_offsets[d] = 0;
        r.format_desc.blocking.strides[d] = 0;
    }
    auto &ob = r.format_desc.blocking;

    auto dim_has_block = [&](int d) {
        for (int i = 0; i < ib.inner_nblks; ++i)
            if (ib.inner_idxs[i] == d) return true;
        return false;
    };

    // Walk both shapes from the innermost dim outwards, pairing minimal
    // groups of input and output dims of equal volume.
    int i_end = in.ndims, o_end = ndims;
    while (i_end > 0 || o_end > 0) {
        int i_beg, o_beg;
        if (i_end > 0 && idims[i_end - 1] == 1) {
            i_beg = i_end - 1;
            if (ipdims[i_beg] == 1) {
                // A unit input dim just disappears.
                o_beg = o_end;
            } else if (o_end > 0 && r.dims[o_end - 1] == 1) {
                // A padded unit dim maps to a unit output dim.
                o_beg = o_end - 1;
                r.padded_dims[o_beg] = ipdims[i_beg];
                r.padded_offsets[o_beg] = in.padded_offsets[i_beg];
                ob.strides[o_beg] = ib.strides[i_beg];
                for (int i = 0; i < ib.inner_nblks; ++i)
                    if (ib.inner_idxs[i] == i_beg) ob.inner_idxs[i] = o_beg;
            } else {
                return dnnl_invalid_arguments;
            }
        } else if (o_end > 0 && r.dims[o_end - 1] == 1) {
            // A new unit output dim: stride as if it were outside the input
            // dims to its right.
            i_beg = i_end;
            o_beg = o_end - 1;
            dim_t s;
            if (i_end == in.ndims) {
                s = inner_block_size(ib);
            } else {
                s = sat_mul(ib.strides[i_end], idims[i_end]);
                for (int i = 0; i < ib.inner_nblks; ++i)
                    if (ib.inner_idxs[i] == i_end) s /= ib.inner_blks[i];
            }
            r.padded_dims[o_beg] = 1;
            r.padded_offsets[o_beg] = 0;
            ob.strides[o_beg] = s;
        } else {
            if (i_end == 0 || o_end == 0) return dnnl_invalid_arguments;
            i_beg = i_end - 1;
            o_beg = o_end - 1;
            dim_t iv = idims[i_beg], ov = r.dims[o_beg];
            while (iv != ov) {
                if (iv < ov) {
                    if (i_beg == 0) return dnnl_invalid_arguments;
                    iv *= idims[--i_beg];
                    if (iv == 0) return dnnl_invalid_arguments;
                } else {
                    if (o_beg == 0) return dnnl_invalid_arguments;
                    ov *= r.dims[--o_beg];
                    if (ov == 0) return dnnl_invalid_arguments;
                }
            }
            if (i_beg + 1 == i_end && o_beg + 1 == o_end) {
                // Same dim, possibly moved to another index.
                r.padded_dims[o_beg] = ipdims[i_beg];
                r.padded_offsets[o_beg] = in.padded_offsets[i_beg];
                ob.strides[o_beg] = ib.strides[i_beg];
                for (int i = 0; i < ib.inner_nblks; ++i)
                    if (ib.inner_idxs[i] == i_beg) ob.inner_idxs[i] = o_beg;
            } else {
                // Split/merge: the input group must be dense, in order, not
                // blocked and not padded.
                for (int d = i_end - 1; d > i_beg; --d)
                    if (sat_mul(idims[d], ib.strides[d]) != ib.strides[d - 1])
                        return dnnl_invalid_arguments;
                for (int d = i_beg; d < i_end; ++d)
                    if (dim_has_block(d) || ipdims[d] != idims[d]
                            || in.padded_offsets[d] != 0)
                        return dnnl_invalid_arguments;
                dim_t s = ib.strides[i_end - 1];
                for (int d = o_end - 1; d >= o_beg; --d) {
                    r.padded_dims[d] = r.dims[d];
                    r.padded_offsets[d] = 0;
                    ob.strides[d] = s;
                    s = sat_mul(s, r.dims[d]);
                }
            }
        }
        i_end = i_beg;
        o_end = o_beg;
    }
    if (!md_consistent(r)) return dnnl_invalid_arguments;
    out = r;
    return dnnl_success;
}

status_t md_permute_axes(
        memory_desc_t &out, const memory_desc_t &in, const int *perm) {
    if (perm == nullptr) return dnnl_invalid_arguments;
    if (!sanity_check(in)) return dnnl_invalid_arguments;
    if (in.format_kind != dnnl_format_kind_any
            && in.format_kind != dnnl_blocked)
        return dnnl_invalid_arguments;
    if (in.ndims == 0) return dnnl_invalid_arguments;
    if (md_has_runtime_dims_or_strides(in)) return dnnl_invalid_arguments;

    const int nd = in.ndims;
    unsigned seen = 0;
    for (int d = 0; d < nd; ++d)
        if (perm[d] >= 0 && perm[d] < nd) seen |= 1u << perm[d];
    if (seen != (1u << nd) - 1) return dnnl_invalid_arguments;

    memory_desc_t r = in;
    const bool blocked = in.format_kind == dnnl_blocked;
    for (int d = 0; d < nd; ++d) {
        const int p = perm[d];
        r.dims[p] = in.dims[d];
        r.padded_dims[p] = in.padded_dims[d];
        r.padded_offsets[p] = in.padded_offsets[d];
        if (blocked)
            r.format_desc.blocking.strides[p]
                    = in.format_desc.blocking.strides[d];
    }
    if (blocked) {
        const auto &ib = in.format_desc.blocking;
        for (int i = 0; i < ib.inner_nblks; ++i)
            r.format_desc.blocking.inner_idxs[i] = perm[ib.inner_idxs[i]];
    }
    if (!md_consistent(r)) return dnnl_invalid_arguments;
    out = r;
    return dnnl_success;
}

bool md_equal(const memory_desc_t &a, const memory_desc_t &b) {
    if (a.ndims == 0 && b.ndims == 0) return true;
    return equal_fields(normalized(a), normalized(b));
}

size_t md_size(const memory_desc_t &md) {
    const size_t data = size_no_extra(md);
    if (md.format_kind != dnnl_blocked || data == 0
            || data == DNNL_RUNTIME_SIZE_VAL)
        return data;
    const size_t extra = extra_buffer_size(md);
    if (extra == 0) return data;
    return (data + 3) / 4 * 4 + extra; // extras are 4-byte aligned
}

dim_t md_nelems(const memory_desc_t &md, bool with_padding) {
    if (md.ndims == 0) return 0;
    if (has_runtime_dims(md)) return runtime_dim;
    dim_t n = 1;
    for (int d = 0; d < md.ndims; ++d)
        n *= with_padding ? md.padded_dims[d] : md.dims[d];
    return n;
}

bool md_is_blocked(const memory_desc_t &md) {
    return md.format_kind == dnnl_blocked;
}

bool md_has_runtime_dims_or_strides(const memory_desc_t &md) {
    if (has_runtime_dims(md)) return true;
    if (md.format_kind != dnnl_blocked) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (is_rt(md.format_desc.blocking.strides[d])) return true;
    return false;
}

bool md_matches_tag(const memory_desc_t &md, format_tag_t tag) {
    if (md.format_kind != dnnl_blocked || md.ndims == 0) return false;
    memory_desc_t gold;
    if (md_init_by_tag(gold, md.ndims, md.dims, md.data_type, tag)
            != dnnl_success)
        return false;
    return same_blocking(md, gold);
}

bool md_is_dense(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked) return false;
    if (md_has_runtime_dims_or_strides(md)) return false;
    for (int d = 0; d < md.ndims; ++d)
        if (md.format_desc.blocking.strides[d] == 0) return false;
    return elements_to_bytes(md.data_type, (size_t)md_nelems(md))
            == size_no_extra(md);
}

dim_t md_off_v(const memory_desc_t &md, const dim_t *pos) {
    if (md.format_kind != dnnl_blocked) return 0;
    const auto &b = md.format_desc.blocking;
    dim_t p[max_ndims];
    for (int d = 0; d < md.ndims; ++d)
        p[d] = pos[d] + md.padded_offsets[d];
    // Offsets of elements a descriptor holds fit dim_t (md_consistent
    // checks the size), but callers building tables also ask for
    // positions of empty tensors, whose strides are free and may be
    // huge: wrap-around there is harmless (nothing is read) and must not
    // be undefined, hence unsigned arithmetic.
    uint64_t off = (uint64_t)md.offset0;
    uint64_t blk_stride = 1;
    for (int i = b.inner_nblks - 1; i >= 0; --i) {
        const int d = (int)b.inner_idxs[i];
        const dim_t blk = b.inner_blks[i];
        off += (uint64_t)(p[d] % blk) * blk_stride;
        p[d] /= blk;
        blk_stride *= (uint64_t)blk;
    }
    for (int d = 0; d < md.ndims; ++d)
        off += (uint64_t)p[d] * (uint64_t)b.strides[d];
    return (dim_t)off;
}

dim_t md_off_l(const memory_desc_t &md, dim_t linear) {
    dim_t pos[max_ndims] = {0};
    for (int d = md.ndims - 1; d >= 0; --d) {
        const dim_t n = md.dims[d];
        if (n > 0) {
            pos[d] = linear % n;
            linear /= n;
        }
    }
    return md_off_v(md, pos);
}

} // namespace impl
} // namespace dnnl
