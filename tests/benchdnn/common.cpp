// Global options, string and type parsing, problem repro lines, reporting.
#include "common.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "api_compat.hpp"
#include "oneapi/dnnl/dnnl_debug.h"

namespace bd {

global_t G;
summary_t S;

// ---------------------------------------------------------------- strings

std::vector<std::string> split(const std::string &s, char delim) {
    std::vector<std::string> out;
    size_t b = 0;
    for (;;) {
        size_t e = s.find(delim, b);
        out.push_back(s.substr(b, e == std::string::npos ? e : e - b));
        if (e == std::string::npos) break;
        b = e + 1;
    }
    return out;
}

bool starts_with(const std::string &s, const std::string &prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

std::string lower(std::string s) {
    for (auto &c : s)
        c = (char)std::tolower((unsigned char)c);
    return s;
}

bool parse_int(const std::string &s, int64_t &v) {
    if (s.empty()) return false;
    errno = 0;
    char *end = nullptr;
    long long x = std::strtoll(s.c_str(), &end, 10);
    if (errno || *end) return false;
    v = x;
    return true;
}

bool parse_float(const std::string &s, double &v) {
    if (s.empty()) return false;
    errno = 0;
    char *end = nullptr;
    double x = std::strtod(s.c_str(), &end);
    if (errno || *end) return false;
    v = x;
    return true;
}

bool parse_bool(const std::string &s, bool &v) {
    std::string l = lower(s);
    if (l == "true" || l == "1") return v = true, true;
    if (l == "false" || l == "0") return v = false, true;
    return false;
}

std::string fmt(const char *f, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof(buf), f, ap);
    va_end(ap);
    return buf;
}

bool str2dims(const std::string &s, dims_t &d) {
    d.clear();
    if (s.empty()) return false;
    for (const auto &t : split(s, 'x')) {
        int64_t v;
        if (!parse_int(t, v) || v < 0) return false;
        d.push_back(v);
    }
    return true;
}

std::string dims2str(const dims_t &d) {
    std::string s;
    for (size_t i = 0; i < d.size(); ++i)
        s += (i ? "x" : "") + std::to_string(d[i]);
    return s;
}

int64_t nelems(const dims_t &d) {
    int64_t n = 1;
    for (auto v : d)
        n *= v;
    return n;
}

// ---------------------------------------------------------------- types

namespace {
// The data types by name, each with the oneDNN version that brought it.
struct dt_name_t {
    const char *name;
    dt_t dt;
    int major, minor;
};
const dt_name_t dt_names[] = {
        {"f32", dt_t::f32, 3, 0},
        {"bf16", dt_t::bf16, 3, 0},
        {"f16", dt_t::f16, 3, 0},
        {"s8", dt_t::s8, 3, 0},
        {"u8", dt_t::u8, 3, 0},
        {"s32", dt_t::s32, 3, 0},
        {"f64", dt_t::f64, 3, 0},
        {"f8_e5m2", (dt_t)dnnl_f8_e5m2, 3, 4},
        {"f8_e4m3", (dt_t)dnnl_f8_e4m3, 3, 4},
        {"s4", (dt_t)dnnl_s4, 3, 5},
        {"u4", (dt_t)dnnl_u4, 3, 5},
        {"undef", dt_t::undef, 3, 0},
};
} // namespace

bool str2dt(const std::string &s, dt_t &dt) {
    for (const auto &e : dt_names)
        if (s == e.name && BD_DNNL_AT_LEAST(e.major, e.minor)) return dt = e.dt, true;
    return false;
}

const char *dt2str(dt_t dt) {
    for (const auto &e : dt_names)
        if (dt == e.dt) return e.name;
    return "unknown";
}

std::string dt_needs_api(const std::string &s) {
    for (const auto &t : split(s, ':'))
        for (const auto &e : dt_names)
            if (t == e.name && !BD_DNNL_AT_LEAST(e.major, e.minor))
                return needs_api(std::string("data type ") + e.name, e.major, e.minor);
    return "";
}

bool str2dts(const std::string &s, size_t n, std::vector<dt_t> &dts) {
    dts.clear();
    for (const auto &t : split(s, ':')) {
        dt_t dt;
        if (!str2dt(t, dt)) return false;
        dts.push_back(dt);
    }
    if (dts.size() == 1) dts.resize(n, dts[0]);
    return dts.size() == n;
}

bool cfg2dts(const std::string &cfg, std::vector<dt_t> &dts) {
    dts.clear();
    std::string c = cfg;
    auto us = c.find('_'); // "f32_wino", "f32_full" ...
    if (us != std::string::npos && c.compare(0, 3, "f8_") != 0) c = c.substr(0, us);
    size_t pos = 0;
    while (pos < c.size()) {
        bool found = false;
        for (const char *n : {"bf16", "f16", "f32", "f64", "s8", "u8", "s32"}) {
            size_t l = std::strlen(n);
            if (c.compare(pos, l, n) == 0) {
                dt_t dt;
                str2dt(n, dt);
                dts.push_back(dt);
                pos += l;
                found = true;
                break;
            }
        }
        if (!found) return false;
    }
    if (dts.size() == 1) dts.resize(3, dts[0]);
    return dts.size() == 3;
}

namespace {

// Canonical tag names ("abcd", "aBcd16b", ...) -> enumeration values, from
// the library's own printable names.
const std::unordered_map<std::string, int> &tag_table() {
    static const std::unordered_map<std::string, int> t = [] {
        std::unordered_map<std::string, int> m;
        for (int v = 2; v < (int)dnnl_format_tag_last; ++v) {
            const char *n = dnnl_fmt_tag2str((dnnl_format_tag_t)v);
            if (n && *n && std::strcmp(n, "undef") && std::strcmp(n, "unknown")
                    && !m.count(n))
                m[n] = v;
        }
        return m;
    }();
    return t;
}

// Named layouts ("nChw16c", "OIhw16i16o", "hwio", "tnc") in terms of
// a, b, c, ...: the dimension letters are put in their logical order
// (n c d h w / g o i d h w / t n c) and renamed, case and digits kept.
std::string alias2canonical(const std::string &s) {
    std::string letters;
    for (char ch : s)
        if (std::isalpha((unsigned char)ch)) {
            char l = (char)std::tolower((unsigned char)ch);
            if (letters.find(l) == std::string::npos) letters += l;
        }
    const char *orders[] = {"ncdhw", "goidhw", "tnc"};
    for (const char *order : orders) {
        bool subset = true;
        for (char l : letters)
            subset = subset && std::strchr(order, l);
        if (!subset) continue;
        std::string present;
        for (const char *o = order; *o; ++o)
            if (letters.find(*o) != std::string::npos) present += *o;
        std::string out;
        for (char ch : s) {
            if (!std::isalpha((unsigned char)ch)) {
                out += ch;
                continue;
            }
            char l = (char)std::tolower((unsigned char)ch);
            char m = (char)('a' + present.find(l));
            out += std::isupper((unsigned char)ch) ? (char)std::toupper(m) : m;
        }
        return out;
    }
    return s;
}

int tag_ndims(const std::string &canon) {
    int nd = 0;
    for (char ch : canon)
        if (std::isalpha((unsigned char)ch))
            nd = std::max(nd, std::tolower((unsigned char)ch) - 'a' + 1);
    return nd;
}

} // namespace

bool str2tag(const std::string &s, int ndims, tag_t &tag) {
    if (s == "any") return tag = tag_t::any, true;
    if (ndims < 1 || ndims > 12) return false;
    std::string canon;
    if (s == "abx") {
        for (int i = 0; i < ndims; ++i)
            canon += (char)('a' + i);
    } else if (s == "axb") {
        canon = "a";
        for (int i = 2; i < ndims; ++i)
            canon += (char)('a' + i);
        if (ndims > 1) canon += 'b';
    } else {
        const auto &t = tag_table();
        canon = t.count(s) ? s : alias2canonical(s);
    }
    const auto &t = tag_table();
    auto it = t.find(canon);
    if (it == t.end() || tag_ndims(canon) != ndims) return false;
    tag = (tag_t)it->second;
    return true;
}

std::string tag2str(tag_t tag) {
    const char *n = dnnl_fmt_tag2str((dnnl_format_tag_t)tag);
    return n ? n : "unknown";
}

// ---------------------------------------------------------------- problems

const std::string &problem_t::get(const std::string &knob) const {
    static const std::string empty;
    auto it = knobs.find(knob);
    return it == knobs.end() ? empty : it->second;
}

namespace {
const char *default_of(const driver_t *d, const std::string &knob) {
    for (const auto &k : d->knobs)
        if (knob == k.name) return k.def;
    for (const auto &k : attr_knobs())
        if (knob == k.name) return k.def;
    return "";
}
} // namespace

bool problem_t::is_default(const std::string &knob) const {
    return get(knob) == default_of(driver, knob);
}

std::string problem_t::repro() const {
    std::string s = std::string("--") + driver->name;
    auto add = [&](const char *name) {
        if (G.canonical || !is_default(name)) s += " --" + std::string(name) + "=" + get(name);
    };
    for (const auto &k : driver->knobs)
        add(k.name);
    for (const auto &k : attr_knobs())
        add(k.name);
    return s + " " + desc;
}

// ---------------------------------------------------------------- reporting

namespace {
std::string csv_quote(const std::string &s) {
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
const char *engine_name() {
    return G.engine_kind == dnnl::engine::kind::gpu ? "gpu" : "cpu";
}
} // namespace

void report(long idx, const problem_t &p, const res_t &res) {
    S.tests++;
    const std::string repro = p.repro();
    switch (res.state) {
        case state_t::passed:
            S.passed++;
            std::printf("%ld:PASSED __REPRO: %s\n", idx, repro.c_str());
            if (G.verbose >= 1)
                std::printf("    impl:%s %s\n", res.impl.c_str(), res.details.c_str());
            break;
        case state_t::failed:
            S.failed++;
            std::printf("%ld:FAILED (%s) __REPRO: %s\n", idx, res.reason.c_str(),
                    repro.c_str());
            if (!res.details.empty())
                std::printf("    impl:%s %s\n", res.impl.c_str(), res.details.c_str());
            break;
        case state_t::skipped:
            S.skipped++;
            std::printf("%ld:SKIPPED (%s) __REPRO: %s\n", idx, res.reason.c_str(),
                    repro.c_str());
            break;
        case state_t::listed:
            S.listed++;
            std::printf("%ld:LISTED __REPRO: %s\n", idx, repro.c_str());
            break;
        case state_t::perf_done: {
            S.passed++;
            if (G.mode == mode_t::init) {
                static bool header = false;
                if (!header)
                    std::printf("Output template: create,engine,impl,prb,pd_ms,"
                                "prim_miss_ms,prim_hit_ms,total_miss_ms,"
                                "total_hit_ms,reps\n");
                header = true;
                std::printf("create,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%d\n",
                        engine_name(), res.impl.c_str(), csv_quote(repro).c_str(),
                        res.pd_ms, res.prim_miss_ms, res.prim_hit_ms,
                        res.total_miss_ms, res.total_hit_ms, res.create_reps);
            } else {
                static bool header = false;
                if (!header)
                    std::printf("Output template: perf,engine,impl,prb,Gops,GB,"
                                "min_ms,median_ms,Gflops,GBps,runs\n");
                header = true;
                const double gops = res.ops * 1e-9, gb = res.bytes * 1e-9;
                const double t = res.median_ms * 1e-3;
                std::printf("perf,%s,%s,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d\n",
                        engine_name(), res.impl.c_str(), csv_quote(repro).c_str(),
                        gops, gb, res.min_ms, res.median_ms,
                        t > 0 ? gops / t : 0., t > 0 ? gb / t : 0., res.runs);
            }
            break;
        }
    }
    std::fflush(stdout);
}

void print_summary() {
    std::printf("tests:%ld passed:%ld skipped:%ld failed:%ld listed:%ld\n",
            S.tests, S.passed, S.skipped, S.failed, S.listed);
    std::fflush(stdout);
}

dnnl::engine &get_engine() {
    static dnnl::engine eng(G.engine_kind, (size_t)G.engine_index);
    return eng;
}

// Stream profiling is declared by this library's headers (oneDNN's only
// with DNNL_EXPERIMENTAL_PROFILING); the reference builds this driver is
// compared with have no OpenCL gpu runtime.
#if DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL
#define BD_STREAM_PROFILING 1
#else
#define BD_STREAM_PROFILING 0
#endif

bool device_timing() {
    return BD_STREAM_PROFILING && G.mode == mode_t::perf
            && G.engine_kind == dnnl::engine::kind::gpu && G.gpu_device_timer;
}

dnnl::stream &get_stream() {
#if BD_STREAM_PROFILING
    if (device_timing()) {
        static dnnl::stream strm(get_engine(),
                static_cast<dnnl::stream::flags>(dnnl_stream_in_order | dnnl_stream_profiling));
        return strm;
    }
#endif
    static dnnl::stream strm(get_engine());
    return strm;
}

double last_execution_device_ms(dnnl::stream &strm) {
#if BD_STREAM_PROFILING
    int n = 0;
    if (dnnl_query_profiling_data(strm.get(), dnnl_profiling_data_kind_time, &n, nullptr)
            != dnnl_success || n == 0)
        return -1;
    std::vector<uint64_t> ns((size_t)n);
    if (dnnl_query_profiling_data(strm.get(), dnnl_profiling_data_kind_time, &n, ns.data())
            != dnnl_success)
        return -1;
    dnnl_reset_profiling(strm.get());
    return (double)ns[(size_t)n - 1] * 1e-6;
#else
    (void)strm;
    return -1;
#endif
}

} // namespace bd
