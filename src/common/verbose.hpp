// Verbose diagnostics (ONEDNN_VERBOSE / DNNL_VERBOSE, dnnl_set_verbose):
// which categories are on, and the printers of oneDNN's line formats.
#pragma once

#include <string>

#include "common/c_types.hpp"

namespace dnnl {
namespace impl {

struct primitive_desc_t;

enum verbose_flag_t : unsigned {
    vflag_none = 0,
    vflag_error = 1u << 0,
    vflag_create_check = 1u << 1,
    vflag_create_dispatch = 1u << 2,
    vflag_create_profile = 1u << 3,
    vflag_exec_profile = 1u << 4,
    vflag_warn = 1u << 5,
};

// Categories on now (read from the environment once, then by the API).
unsigned verbose_flags();
status_t set_verbose_level(int level);
inline bool verbose_on(verbose_flag_t f) { return (verbose_flags() & f) != 0; }

// Current time in milliseconds, for the timings of create/exec lines.
double verbose_now_ms();

void verbose_warning(const char *fmt, ...);
void verbose_error(const char *component, const char *fmt, ...);
// `create:check` lines: why a call was rejected.
void verbose_check(const char *primitive, const char *fmt, ...);

// The "<engine>,<primitive>,<impl>,<prop>,<mds>,<attrs>,<aux>,<problem>"
// part of a primitive line.
std::string verbose_pd_info(const primitive_desc_t &pd, const engine_t *engine);
// A blocked descriptor's layout as oneDNN's verbose spells it ("acdb",
// "aBcd16b"; empty for other kinds), and its strides ("240x1x80x16") when
// the layout is not dense (empty otherwise).
std::string md_layout_str(const memory_desc_t &md);
std::string md_strides_str(const memory_desc_t &md);
// `nested`: created by another primitive; its hits print
// create:nested_primitive_cache_hit as oneDNN does.
void verbose_print_create(const primitive_desc_t &pd, const engine_t *engine,
        bool cache_hit, double ms, bool nested = false);
// A kernel-cache lookup of compiled code (`what`: source and options):
// create:kernel_cache_hit or create:kernel_cache_miss with the build time.
void verbose_print_kernel_create(bool cache_hit, const std::string &what, double ms);
void verbose_print_exec(
        const primitive_desc_t &pd, const engine_t *engine, double ms);

} // namespace impl
} // namespace dnnl
