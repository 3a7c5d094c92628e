// Command line and batch files of the driver, in benchdnn's grammar:
//   benchdnn [global options] --DRIVER [knobs] DESC [knobs] DESC ... [--DRIVER ...]
// Knobs take comma-separated lists; every descriptor runs once per
// combination of the current knob values. --batch=FILE splices a file's
// tokens in place ('#' starts a comment). --reset restores the current
// driver's knobs to their defaults. See tests/benchdnn/README.md.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "common.hpp"
#include "execute.hpp"

#ifndef BENCHDNN_INPUTS_DIR
#define BENCHDNN_INPUTS_DIR "inputs"
#endif

namespace bd {
namespace {

struct source_t {
    std::vector<std::string> tokens;
    size_t pos = 0;
    std::string dir; // directory of the batch file, for nested batches
};

// Knob values of one driver: lists, plus options this driver doesn't know.
struct settings_t {
    std::map<std::string, std::vector<std::string>> knobs;
    std::map<std::string, std::string> unknown;
};

std::map<const driver_t *, settings_t> settings;
const driver_t *cur = nullptr;
long prb_idx = 0;
std::string exe_dir = ".";

void reset(const driver_t *d) {
    settings_t s;
    for (const auto &k : d->knobs)
        s.knobs[k.name] = {k.def};
    for (const auto &k : attr_knobs())
        s.knobs[k.name] = {k.def};
    settings[d] = s;
}

std::vector<std::string> tokenize(std::istream &in) {
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        std::string tok;
        bool quoted = false, has = false;
        for (char ch : line) {
            if (ch == '"') quoted = !quoted;
            if (!quoted && ch == '#') break;
            if (!quoted && std::isspace((unsigned char)ch)) {
                if (has) out.push_back(tok);
                tok.clear();
                has = false;
                continue;
            }
            tok += ch;
            has = true;
        }
        if (has) out.push_back(tok);
    }
    return out;
}

bool file_exists(const std::string &p) {
    std::ifstream f(p);
    return f.good();
}

std::string dirname_of(const std::string &p) {
    auto s = p.rfind('/');
    return s == std::string::npos ? "." : p.substr(0, s);
}

std::string find_batch(const std::string &file, const std::string &from_dir) {
    std::vector<std::string> cands;
    if (!file.empty() && file[0] == '/') cands.push_back(file);
    else {
        cands.push_back(from_dir + "/" + file);
        cands.push_back(file);
        const std::string drv = cur ? cur->name : "";
        for (const std::string &base : {exe_dir + "/inputs", std::string(BENCHDNN_INPUTS_DIR)}) {
            cands.push_back(base + "/" + file);
            if (!drv.empty()) cands.push_back(base + "/" + drv + "/" + file);
        }
    }
    for (const auto &c : cands)
        if (file_exists(c)) return c;
    return "";
}

[[noreturn]] void die(const std::string &msg) {
    std::fprintf(stderr, "benchdnn: %s\n", msg.c_str());
    std::exit(2);
}

// Global (common) options; true when `opt` was one.
bool parse_global(const std::string &opt) {
    auto eq = opt.find('=');
    const std::string key = opt.substr(0, eq);
    const std::string val = eq == std::string::npos ? "" : opt.substr(eq + 1);
    int64_t i;
    double f;
    if (key == "--mode") {
        const std::string m = lower(val);
        // Listing is sticky, so that a suite that sets its own mode can
        // still be listed (--mode=L --batch=FILE).
        if (G.mode == mode_t::list) return true;
        if (m == "c") G.mode = mode_t::corr;
        else if (m == "p" || m == "cp" || m == "pc") G.mode = mode_t::perf;
        else if (m == "f") G.mode = mode_t::perf, G.max_ms_per_prb = 10;
        else if (m == "i") G.mode = mode_t::init;
        else if (m == "l") G.mode = mode_t::list;
        else if (m == "r" || m == "s" || m == "b") G.mode = mode_t::run;
        else die("bad --mode=" + val);
        return true;
    }
    if (key == "--engine") {
        auto f2 = split(val, ':');
        if (f2[0] == "cpu") G.engine_kind = dnnl::engine::kind::cpu;
        else if (f2[0] == "gpu") G.engine_kind = dnnl::engine::kind::gpu;
        else die("bad --engine=" + val);
        G.engine_index = 0;
        if (f2.size() > 1 && parse_int(f2[1], i)) G.engine_index = (int)i;
        return true;
    }
    if (key == "--max-ms-per-prb") {
        if (!parse_float(val, f) || f <= 0) die("bad " + opt);
        G.max_ms_per_prb = std::min(std::max(f, 1.0), 6e4);
        return true;
    }
    if (key == "--fix-times-per-prb") {
        if (!parse_int(val, i) || i < 0) die("bad " + opt);
        G.fix_times_per_prb = (int)i;
        return true;
    }
    if (key == "--repeats-per-prb") {
        if (!parse_int(val, i) || i < 1) die("bad " + opt);
        G.repeats_per_prb = (int)i;
        return true;
    }
    if (key == "--start") {
        if (!parse_int(val, i) || i < 0) die("bad " + opt);
        G.start = (long)i;
        return true;
    }
    if (key == "--verbose" || starts_with(opt, "-v")) {
        std::string v = key == "--verbose" ? val : opt.substr(2);
        if (!parse_int(v, i)) die("bad " + opt);
        G.verbose = (int)i;
        return true;
    }
    if (key == "--canonical") {
        bool b;
        if (!parse_bool(val, b)) die("bad " + opt);
        G.canonical = b;
        return true;
    }
    if (key == "--gpu-timer") {
        if (val != "device" && val != "wall") die("bad " + opt);
        G.gpu_device_timer = val == "device";
        return true;
    }
    if (key == "--impl") return G.impl_filter = split(val, ','), true;
    if (key == "--skip-impl") return G.skip_impl = split(val, ','), true;
    if (key == "--perf-template") return G.perf_template = val, true;
    // Accepted for compatibility; they do not change what is measured here.
    static const char *ignored[] = {"--allow-enum-tags-only", "--mem-check", "--memory-kind",
            "--ctx-init", "--ctx-exe", "--cpu-isa-hints", "--check-ref-impl", "--fast-ref",
            "--attr-same-pd-check", "--summary", "--mode-modifier", "--num-streams",
            "--stream-kind", "--execution-mode", "--cold-cache", "--buffer-prefix"};
    for (const char *ig : ignored)
        if (key == ig) {
            if (G.verbose >= 1) std::fprintf(stderr, "benchdnn: %s ignored\n", opt.c_str());
            return true;
        }
    return false;
}

// Every combination of the knob lists, in the driver's knob order.
void for_each_combination(const settings_t &s, const std::function<void(
                                                       const std::map<std::string, std::string> &)> &f) {
    std::vector<std::pair<std::string, const std::vector<std::string> *>> lists;
    for (const auto &k : s.knobs)
        lists.emplace_back(k.first, &k.second);
    std::map<std::string, std::string> cur_vals;
    std::function<void(size_t)> rec = [&](size_t i) {
        if (i == lists.size()) return f(cur_vals);
        for (const auto &v : *lists[i].second) {
            cur_vals[lists[i].first] = v;
            rec(i + 1);
        }
    };
    rec(0);
}

void run_desc(const std::string &desc) {
    if (!cur) die("problem '" + desc + "' given before a driver (--conv, --matmul, ...)");
    const settings_t &s = settings[cur];
    for_each_combination(s, [&](const std::map<std::string, std::string> &vals) {
        problem_t p;
        p.driver = cur;
        p.knobs = vals;
        p.desc = desc;
        // --match=REGEX filters on the descriptor.
        const std::string &m = p.get("match");
        if (!m.empty()) {
            try {
                if (!std::regex_match(desc, std::regex(m))) return;
            } catch (const std::regex_error &) { die("bad --match=" + m); }
        }
        for (int rep = 0; rep < G.repeats_per_prb; ++rep) {
            const long idx = prb_idx++;
            if (idx < G.start) continue;
            res_t res;
            if (!s.unknown.empty()) {
                res.skip("unsupported option --" + s.unknown.begin()->first);
                std::string extra;
                for (const auto &u : s.unknown)
                    extra += " --" + u.first + "=" + u.second;
                p.desc = extra.substr(1) + " " + desc;
            } else {
                try {
                    cur->run(p, res);
                } catch (const dnnl::error &e) {
                    if (e.status == dnnl_unimplemented) res.skip("unimplemented");
                    else res.fail(std::string("library error: ") + status2str(e.status) + " ("
                                  + e.what() + ")");
                } catch (const std::exception &e) {
                    res.fail(std::string("exception: ") + e.what());
                }
                if (G.mode == mode_t::list) res.state = state_t::listed;
            }
            report(idx, p, res);
        }
    });
}

void parse(std::vector<source_t> &stack) {
    while (!stack.empty()) {
        source_t &src = stack.back();
        if (src.pos >= src.tokens.size()) {
            stack.pop_back();
            continue;
        }
        const std::string tok = src.tokens[src.pos++];
        if (starts_with(tok, "--batch=")) {
            const std::string file = tok.substr(8);
            const std::string path = find_batch(file, src.dir);
            if (path.empty()) die("batch file '" + file + "' not found");
            std::ifstream in(path);
            source_t s;
            s.tokens = tokenize(in);
            s.dir = dirname_of(path);
            stack.push_back(std::move(s));
            continue;
        }
        if (tok == "--reset") {
            if (cur) reset(cur);
            continue;
        }
        if (starts_with(tok, "--") && tok.find('=') == std::string::npos) {
            const driver_t *d = find_driver(tok.substr(2));
            if (d) {
                cur = d;
                if (!settings.count(d)) reset(d);
                continue;
            }
        }
        if (parse_global(tok)) continue;
        if (starts_with(tok, "-")) {
            if (!cur) die("option '" + tok + "' given before a driver");
            auto eq = tok.find('=');
            if (eq == std::string::npos) die("unknown option '" + tok + "'");
            std::string key = tok.substr(2, eq - 2);
            for (auto &c : key)
                if (c == '_') c = '-';
            std::string val = tok.substr(eq + 1);
            settings_t &s = settings[cur];
            if (key == "cfg") key = "dt"; // old name of --dt (conv, ip, matmul)
            if (key == "attr-oscale" || key == "attr") {
                s.unknown[key] = val;
                continue;
            }
            if (s.knobs.count(key)) {
                // Values with commas are lists, except where commas are part
                // of a single value (none of the supported knobs).
                s.knobs[key] = split(val, ',');
            } else {
                s.unknown[key] = val;
            }
            continue;
        }
        run_desc(tok);
    }
}

} // namespace
} // namespace bd

int main(int argc, char **argv) {
    using namespace bd;
    {
        char buf[4096];
        ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
        if (n > 0) {
            buf[n] = 0;
            exe_dir = dirname_of(buf);
        }
    }
    if (argc < 2) {
        std::printf("usage: benchdnn [--mode=C|P|F|I|L|R] [--engine=cpu|gpu[:N]] "
                    "[--max-ms-per-prb=N] [--fix-times-per-prb=N] --DRIVER [knobs] DESC ...\n"
                    "drivers:");
        for (auto *d : all_drivers())
            std::printf(" --%s", d->name);
        std::printf("\n");
        return 0;
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<source_t> stack(1);
    for (int i = 1; i < argc; ++i)
        stack[0].tokens.push_back(argv[i]);
    stack[0].dir = ".";
    // Tokens of the command line may be driver options before the driver;
    // apply global ones wherever they are.
    try {
        parse(stack);
    } catch (const dnnl::error &e) {
        std::fprintf(stderr, "benchdnn: library error %s: %s\n", status2str(e.status).c_str(),
                e.what());
        return 2;
    }
    print_summary();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("total: %.2fs\n", s);
    return S.failed ? 1 : 0;
}
