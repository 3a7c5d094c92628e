// Verbose output in the pinned oneDNN's line format.
#include "common/verbose.hpp"

#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl_debug.h"
#include "oneapi/dnnl/dnnl_version.h"
#include "common/engine.hpp"
#include "common/env_parse.hpp"
#include "common/primitive_desc.hpp"
#include "common/utils.hpp"
#include "common/verbose_layout.hpp"

namespace dnnl {
namespace impl {

namespace {

std::atomic<int> g_flags {-1};
std::once_flag g_header_once;

bool timestamp_on() {
    static const bool on = [] {
        std::string v = getenv_string("ONEDNN_VERBOSE_TIMESTAMP");
        if (v.empty()) v = getenv_string("DNNL_VERBOSE_TIMESTAMP");
        return v == "1";
    }();
    return on;
}

void print_line(const std::string &body) {
    std::string line = "onednn_verbose,";
    if (timestamp_on()) {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.3f,", verbose_now_ms());
        line += buf;
    }
    line += "v1,";
    line += body;
    line += "\n";
    std::fputs(line.c_str(), stdout);
    std::fflush(stdout);
}

void print_header_once() {
    std::call_once(g_header_once, [] {
        char buf[256];
        std::snprintf(buf, sizeof(buf), "info,oneDNN v%d.%d.%d (compatible library)",
                DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR, DNNL_VERSION_PATCH);
        print_line(buf);
        // The CPU threading runtime of this build (ONEDNN_CPU_RUNTIME).
        print_line(std::string("info,cpu,runtime:")
                + dnnl_runtime2str(DNNL_CPU_RUNTIME));
        print_line("primitive,info,template:operation,engine,primitive,"
                   "implementation,prop_kind,memory_descriptors,attributes,"
                   "auxiliary,problem_desc,exec_time");
    });
}

} // namespace

unsigned verbose_flags() {
    int f = g_flags.load(std::memory_order_relaxed);
    if (f < 0) {
        std::string v = getenv_string("ONEDNN_VERBOSE");
        if (v.empty()) v = getenv_string("DNNL_VERBOSE");
        int parsed = (int)parse_verbose(v);
        int expected = -1;
        g_flags.compare_exchange_strong(expected, parsed);
        f = g_flags.load();
    }
    return (unsigned)f;
}

status_t set_verbose_level(int level) {
    if (level < 0 || level > 2) return dnnl_invalid_arguments;
    g_flags = (int)parse_verbose(std::to_string(level));
    return dnnl_success;
}

double verbose_now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(
            steady_clock::now().time_since_epoch())
            .count();
}

static std::string vformat(const char *fmt, va_list ap) {
    char buf[1024];
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    return buf;
}

void verbose_warning(const char *fmt, ...) {
    if (!verbose_on(vflag_warn)) return;
    va_list ap;
    va_start(ap, fmt);
    std::string msg = vformat(fmt, ap);
    va_end(ap);
    print_header_once();
    print_line("common,warning," + msg);
}

void verbose_error(const char *component, const char *fmt, ...) {
    if (!verbose_on(vflag_error)) return;
    va_list ap;
    va_start(ap, fmt);
    std::string msg = vformat(fmt, ap);
    va_end(ap);
    print_header_once();
    print_line(std::string("common,error,") + component + "," + msg);
}

void verbose_check(const char *primitive, const char *fmt, ...) {
    if (!verbose_on(vflag_create_check)) return;
    va_list ap;
    va_start(ap, fmt);
    std::string msg = vformat(fmt, ap);
    va_end(ap);
    print_header_once();
    print_line(std::string("primitive,create:check,") + primitive + "," + msg);
}

std::string md_layout_str(const memory_desc_t &md) {
    if (md.format_kind != dnnl_blocked) return "";
    // Outer dims ordered by stride (largest first), then inner blocks.
    const auto &b = md.format_desc.blocking;
    int order[max_ndims];
    for (int i = 0; i < md.ndims; ++i) order[i] = i;
    for (int i = 0; i < md.ndims; ++i)
        for (int j = i + 1; j < md.ndims; ++j)
            if (b.strides[order[j]] > b.strides[order[i]]) {
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
    bool blocked[max_ndims] = {};
    for (int i = 0; i < b.inner_nblks; ++i) blocked[b.inner_idxs[i]] = true;
    std::string s;
    for (int i = 0; i < md.ndims; ++i) {
        char c = (char)('a' + order[i]);
        s += blocked[order[i]] ? (char)(c - 'a' + 'A') : c;
    }
    for (int i = 0; i < b.inner_nblks; ++i)
        s += std::to_string(b.inner_blks[i]) + (char)('a' + b.inner_idxs[i]);
    return s;
}

std::string md_strides_str(const memory_desc_t &md) {
    const bool dense = md_has_runtime_dims_or_strides(md)
            || md.format_kind != dnnl_blocked || md.extra.flags != 0
            || (size_t)md_nelems(md, true) * data_type_size(md.data_type)
                    >= md_size(md);
    std::string s;
    for (int d = 0; !dense && d < md.ndims; ++d)
        s += (d ? "x" : "") + std::to_string(md.format_desc.blocking.strides[d]);
    return s;
}

// "f32::blocked:abcd::f0"-style description of one memory descriptor.
// oneDNN's `dt:flags:format_kind:layout:strides:extra`. Flags: `a` the
// user gave format `any`, `p` padded dims, `o` padding offsets, `0` a
// non-zero offset0; strides only for layouts that are not dense.
std::string md_verbose_str(const memory_desc_t &md, bool user_any) {
    if (md.format_kind == dnnl_format_kind_undef)
        return std::string(dnnl_dt2str(md.data_type)) + "::undef:::";
    std::string s = dnnl_dt2str(md.data_type);
    s += ":";
    bool padded = false, offsets = false;
    for (int d = 0; d < md.ndims; ++d) {
        padded = padded || md.dims[d] != md.padded_dims[d];
        offsets = offsets || md.padded_offsets[d] != 0;
    }
    if (user_any) s += "a";
    if (padded) s += "p";
    if (offsets) s += "o";
    if (md.offset0 != 0) s += "0";
    s += ":";
    s += dnnl_fmt_kind2str(md.format_kind);
    s += ":";
    if (md.format_kind == dnnl_blocked) {
        s += md_layout_str(md);
    } else if (md.format_kind == dnnl_format_kind_sparse) {
        // The encoding takes the layout's place ("sparse:csr:").
        // (oneDNN names the grouped encoding only in the experimental
        // build whose verbose prints it; its dnnl_sparse_encoding2str in
        // the pinned build does not know it.)
        const int enc = md.format_desc.sparse_desc.encoding;
        s += enc == dnnl_grouped
                ? "grouped"
                : dnnl_sparse_encoding2str((dnnl_sparse_encoding_t)enc);
    }
    s += ":";
    s += md_strides_str(md);
    s += ":f" + std::to_string((unsigned long long)md.extra.flags);
    return s;
}

std::string verbose_pd_info(const primitive_desc_t &pd, const engine_t *engine) {
    std::string s = verbose_engine_str(
            pd, engine ? dnnl_engine_kind2str(engine->kind()) : "cpu");
    s += ",";
    s += dnnl_prim_kind2str(pd.kind());
    s += ",";
    s += pd.name();
    s += ",";
    prop_kind_t prop = dnnl_prop_kind_undef;
    // oneDNN's matmul has no propagation kind.
    if (pd.kind() == dnnl_matmul
            || pd.query(dnnl_query_prop_kind, 0, &prop) != dnnl_success)
        prop = dnnl_prop_kind_undef;
    s += dnnl_prop_kind2str(prop);
    s += ",";
    s += verbose_mds_str(pd);
    s += ",";
    s += pd.attr_str();
    s += ",";
    s += verbose_aux_str(pd);
    s += ",";
    s += verbose_problem_str(pd);
    return s;
}

void verbose_print_create(const primitive_desc_t &pd, const engine_t *engine,
        bool cache_hit, double ms, bool nested) {
    if (!verbose_on(vflag_create_profile)) return;
    print_header_once();
    char t[32];
    std::snprintf(t, sizeof(t), ",%g", ms);
    const char *op = !cache_hit ? "create:cache_miss,"
            : nested            ? "create:nested_primitive_cache_hit,"
                                : "create:cache_hit,";
    print_line(std::string("primitive,") + op
            + verbose_pd_info(pd, engine) + t);
}

void verbose_print_kernel_create(
        bool cache_hit, const std::string &what, double ms) {
    if (!verbose_on(vflag_create_profile)) return;
    print_header_once();
    char t[32];
    std::snprintf(t, sizeof(t), ",%g", ms);
    print_line(std::string("primitive,")
            + (cache_hit ? "create:kernel_cache_hit," : "create:kernel_cache_miss,")
            + what + t);
}

void verbose_print_exec(
        const primitive_desc_t &pd, const engine_t *engine, double ms) {
    if (!verbose_on(vflag_exec_profile)) return;
    print_header_once();
    char t[32];
    std::snprintf(t, sizeof(t), ",%g", ms);
    print_line("primitive,exec," + verbose_pd_info(pd, engine) + t);
}

} // namespace impl
} // namespace dnnl
