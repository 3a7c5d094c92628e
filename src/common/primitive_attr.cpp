// Attribute containers: per-argument quantization maps, rounding modes and
// the library-wide default fpmath mode (from the environment at load).
#include "common/primitive_attr.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "common/env_parse.hpp"
#include "common/utils.hpp"

namespace dnnl {
namespace impl {

// The default of new attributes: ONEDNN_DEFAULT_FPMATH_MODE (or
// DNNL_DEFAULT_FPMATH_MODE) read at load, strict without either (or for a
// value that names no mode); dnnl_set_default_fpmath_mode overrides it.
static int initial_fpmath_mode() {
    int mode = dnnl_fpmath_mode_strict;
    std::string v = getenv_string("ONEDNN_DEFAULT_FPMATH_MODE");
    if (v.empty()) v = getenv_string("DNNL_DEFAULT_FPMATH_MODE");
    if (!v.empty() && !parse_fpmath_mode(v, mode)) mode = dnnl_fpmath_mode_strict;
    return mode;
}

static std::atomic<int> g_default_fpmath {initial_fpmath_mode()};

fpmath_mode_t default_fpmath_mode() {
    return (fpmath_mode_t)g_default_fpmath.load();
}
void set_default_fpmath_mode(fpmath_mode_t mode) { g_default_fpmath = (int)mode; }

const quant_entry_t *quant_map_t::get(int arg) const {
    for (const auto &it : items)
        if (it.arg == arg) return &it.e;
    return nullptr;
}

void quant_map_t::set(int arg, const quant_entry_t &e) {
    for (auto &it : items)
        if (it.arg == arg) {
            it.e = e;
            return;
        }
    items.push_back({arg, e});
    std::sort(items.begin(), items.end(),
            [](const item_t &a, const item_t &b) { return a.arg < b.arg; });
}

} // namespace impl
} // namespace dnnl

using namespace dnnl::impl;

dnnl_primitive_attr::dnnl_primitive_attr() : fpmath_mode(default_fpmath_mode()) {}

bool dnnl_primitive_attr::has_default_values() const {
    return scratchpad_mode == dnnl_scratchpad_mode_library
            && computes_as_default();
}

bool dnnl_primitive_attr::computes_as_default() const {
    return fpmath_mode == default_fpmath_mode() && !fpmath_apply_to_int
            && acc_mode == dnnl_accumulation_mode_strict && !deterministic
            && scales.empty() && zero_points.empty()
            && precomputed_reductions.empty() && rounding_modes.empty()
            && post_ops.entries.empty() && !dropout.on() && !has_rnn_qparams();
}

bool dnnl_primitive_attr::has_rnn_qparams() const {
    return rnn_data_qparams.scale != 1.f || rnn_data_qparams.shift != 0.f
            || !rnn_weights_qparams.scales.empty()
            || !rnn_weights_projection_qparams.scales.empty();
}

void dnnl_primitive_attr::set_rounding(int arg, int mode) {
    for (auto &r : rounding_modes)
        if (r.arg == arg) {
            r.mode = mode;
            return;
        }
    rounding_modes.push_back({arg, mode});
    std::sort(rounding_modes.begin(), rounding_modes.end(),
            [](const rounding_item_t &a, const rounding_item_t &b) {
                return a.arg < b.arg;
            });
}

int dnnl_primitive_attr::get_rounding(int arg) const {
    for (const auto &r : rounding_modes)
        if (r.arg == arg) return r.mode;
    return (int)dnnl_rounding_mode_environment;
}
