// Shared pieces of the benchmark and verification driver: global options,
// problems (a driver, its knob values and a descriptor), per-problem results
// and reporting, and parsing of data types, format tags and dims.
//
// The driver is written against the public oneDNN v3 C++ API only, so the
// same source builds against this project's library and the real oneDNN.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

namespace bd {

using dims_t = std::vector<int64_t>;
using dt_t = dnnl::memory::data_type;
using tag_t = dnnl::memory::format_tag;

// --mode: C (correctness), P (performance), F (fast performance), I
// (creation), L (listing), R (run without checking).
enum class mode_t { corr, perf, init, list, run };

struct global_t {
    mode_t mode = mode_t::corr;
    dnnl::engine::kind engine_kind = dnnl::engine::kind::cpu;
    int engine_index = 0;
    int verbose = 0;
    double max_ms_per_prb = 3000;
    int fix_times_per_prb = 0;
    int repeats_per_prb = 1;
    long start = 0;
    bool canonical = false;
    std::vector<std::string> impl_filter; // --impl: keep impls containing one
    std::vector<std::string> skip_impl; // --skip-impl: skip those containing one
    std::string perf_template = "def";
    // --gpu-timer: on the gpu engine, P times each execution by the
    // device (the stream's profiling, from the start of its first kernel
    // to the end of its last, as oneDNN's benchdnn reports gpu times) or
    // by the host clock around execute and wait (launch and wait included).
    bool gpu_device_timer = true;
};
extern global_t G;

// ---------------------------------------------------------------- strings
std::vector<std::string> split(const std::string &s, char delim);
bool starts_with(const std::string &s, const std::string &prefix);
std::string lower(std::string s);
bool parse_int(const std::string &s, int64_t &v);
bool parse_float(const std::string &s, double &v);
bool parse_bool(const std::string &s, bool &v);
std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

// "2x3x4" <-> {2, 3, 4}
bool str2dims(const std::string &s, dims_t &d);
std::string dims2str(const dims_t &d);
int64_t nelems(const dims_t &d);

// ---------------------------------------------------------------- types
// Data types by name; str2dt refuses a type newer than the oneDNN API the
// driver is built against, and dt_needs_api says why for such a name (or a
// ':' list holding one): "data type f8_e5m2 needs oneDNN >= 3.4 (built
// against 3.2)"; "" for every other name.
bool str2dt(const std::string &s, dt_t &dt);
const char *dt2str(dt_t dt);
std::string dt_needs_api(const std::string &s);
// "f32:s8:u8" -> list; a single value is broadcast to `n` entries.
bool str2dts(const std::string &s, size_t n, std::vector<dt_t> &dts);
// Old benchdnn configuration names ("u8s8s32", "f32", "bf16bf16f32").
bool cfg2dts(const std::string &cfg, std::vector<dt_t> &dts);

// Format tag by name for a tensor of `ndims` dimensions: every name of the
// dnnl_format_tag_t enumeration, plus "any", "abx" (plain, row-major) and
// "axb" (channels last).
bool str2tag(const std::string &s, int ndims, tag_t &tag);
std::string tag2str(tag_t tag);

// ---------------------------------------------------------------- problems
// One problem: the driver, the value of every knob (one value each) and the
// problem descriptor.
struct driver_t;
struct problem_t {
    const driver_t *driver = nullptr;
    std::map<std::string, std::string> knobs;
    std::string desc;

    const std::string &get(const std::string &knob) const;
    bool is_default(const std::string &knob) const;
    // "--conv --dir=FWD_D --dt=bf16 mb1ic64ih56oc64oh56kh3ph1"
    std::string repro() const;
};

enum class state_t { passed, failed, skipped, perf_done, listed };

struct res_t {
    state_t state = state_t::passed;
    std::string reason; // why failed or skipped
    std::string impl; // implementation name
    std::string details; // comparison summary
    double ops = 0; // floating/integer operations of one execution
    double bytes = 0; // bytes read and written by one execution
    // Performance mode.
    double min_ms = 0, median_ms = 0;
    int runs = 0;
    // Creation mode (milliseconds, medians).
    double pd_ms = 0, prim_miss_ms = 0, prim_hit_ms = 0, total_miss_ms = 0,
           total_hit_ms = 0;
    int create_reps = 0;
    bool created = false;

    void skip(const std::string &why) {
        if (state == state_t::passed) state = state_t::skipped;
        reason = why;
    }
    void fail(const std::string &why) {
        state = state_t::failed;
        if (reason.empty()) reason = why;
    }
};

// Reports one problem (the "N:PASSED __REPRO: ..." line, or the perf and
// creation lines) and counts it in the summary.
void report(long idx, const problem_t &p, const res_t &res);
struct summary_t {
    long tests = 0, passed = 0, failed = 0, skipped = 0, listed = 0;
};
extern summary_t S;
void print_summary();

// ---------------------------------------------------------------- drivers
struct knob_def_t {
    const char *name; // without leading dashes, '-' separated
    const char *def; // default value
};

struct driver_t {
    const char *name; // "conv"
    std::vector<knob_def_t> knobs; // driver knobs, in repro order
    void (*run)(const problem_t &p, res_t &res);
};

const std::vector<const driver_t *> &all_drivers();
const driver_t *find_driver(const std::string &name);

// Knobs every driver accepts: the attributes.
const std::vector<knob_def_t> &attr_knobs();

// The engine and stream used for all problems (created once).
dnnl::engine &get_engine();
dnnl::stream &get_stream();
// Whether P takes its times from the stream's profiling (the gpu engine
// with --gpu-timer=device, on a library that offers stream profiling).
bool device_timing();
// The device time of the stream's last execution in ms (its profiling
// entries then cleared), or -1 when there is none.
double last_execution_device_ms(dnnl::stream &strm);

} // namespace bd
