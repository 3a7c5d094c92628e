// Creation, execution, timing and checking of one problem (case_t).
#include "execute.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace bd {

namespace {

using clk = std::chrono::steady_clock;

double ms_since(clk::time_point t0) {
    return std::chrono::duration<double, std::milli>(clk::now() - t0).count();
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool contains_any(const std::string &s, const std::vector<std::string> &subs) {
    for (const auto &x : subs)
        if (!x.empty() && s.find(x) != std::string::npos) return true;
    return false;
}

} // namespace

std::string status2str(dnnl_status_t s) {
    switch (s) {
        case dnnl_success: return "success";
        case dnnl_out_of_memory: return "out_of_memory";
        case dnnl_invalid_arguments: return "invalid_arguments";
        case dnnl_unimplemented: return "unimplemented";
        case dnnl_last_impl_reached: return "last_impl_reached";
        case dnnl_runtime_error: return "runtime_error";
        case dnnl_not_required: return "not_required";
        default: return "status " + std::to_string((int)s);
    }
}

case_t::case_t(const problem_t &p, res_t &r)
    : prb(p), res(r), eng(get_engine()), strm(get_stream()) {
    user_scratchpad = p.get("attr-scratchpad") == "user";
}

bool case_t::creation_failed(dnnl_status_t st, const char *what) {
    // A library without the primitive (or this case of it) is not a
    // failure of the driver: the problem is skipped.
    if (st == dnnl_unimplemented || st == dnnl_last_impl_reached)
        res.skip("unimplemented");
    else if (st == dnnl_invalid_arguments)
        res.skip("invalid arguments");
    else
        res.fail(std::string("creation: ") + status2str(st) + " (" + what + ")");
    return false;
}

bool case_t::select_impl() {
    const bool filtering = !G.impl_filter.empty() || !G.skip_impl.empty();
    for (;;) {
        res.impl = pd.impl_info_str();
        if (!filtering) return true;
        const bool wanted = (G.impl_filter.empty() || contains_any(res.impl, G.impl_filter))
                && !contains_any(res.impl, G.skip_impl);
        if (wanted) return true;
        if (dnnl_primitive_desc_next_impl(pd.get()) != dnnl_success) {
            res.skip("no implementation passes --impl/--skip-impl");
            return false;
        }
    }
}

bool case_t::create_primitive() {
    try {
        prim = dnnl::primitive(pd.get());
    } catch (const dnnl::error &e) {
        return creation_failed(e.status, e.what());
    }
    res.created = true;
    return true;
}

void case_t::measure_creation(const std::function<dnnl::primitive_desc_base()> &make) {
    const int capacity = dnnl::get_primitive_cache_capacity();
    auto clear_cache = [&]() {
        dnnl::set_primitive_cache_capacity(0);
        dnnl::set_primitive_cache_capacity(capacity);
    };
    std::vector<double> pd_t, miss_t, hit_t, tmiss_t, thit_t;
    const int max_reps = G.fix_times_per_prb > 0 ? G.fix_times_per_prb : 1000;
    const int min_reps = G.fix_times_per_prb > 0 ? G.fix_times_per_prb : 5;
    try {
        // One full creation first: loads code, fills the cache.
        dnnl::primitive keep(make().get());
        auto start = clk::now();
        for (int r = 0; r < max_reps; ++r) {
            if (r >= min_reps && ms_since(start) > G.max_ms_per_prb) break;
            // Primitive descriptor creation (primitive in the cache).
            auto t0 = clk::now();
            dnnl::primitive_desc_base p1 = make();
            pd_t.push_back(ms_since(t0));
            // Primitive creation from it: cache hit.
            t0 = clk::now();
            dnnl::primitive hit(p1.get());
            hit_t.push_back(ms_since(t0));
            // pd + primitive, cache hit.
            t0 = clk::now();
            {
                dnnl::primitive_desc_base p2 = make();
                dnnl::primitive h2(p2.get());
            }
            thit_t.push_back(ms_since(t0));
            // Primitive creation from a pd with an empty cache: cache miss.
            clear_cache();
            t0 = clk::now();
            dnnl::primitive miss(p1.get());
            miss_t.push_back(ms_since(t0));
            // pd + primitive with an empty cache.
            clear_cache();
            t0 = clk::now();
            {
                dnnl::primitive_desc_base p3 = make();
                dnnl::primitive m3(p3.get());
            }
            tmiss_t.push_back(ms_since(t0));
        }
    } catch (const dnnl::error &e) {
        creation_failed(e.status, e.what());
        return;
    }
    res.pd_ms = median(pd_t);
    res.prim_hit_ms = median(hit_t);
    res.prim_miss_ms = median(miss_t);
    res.total_hit_ms = median(thit_t);
    res.total_miss_ms = median(tmiss_t);
    res.create_reps = (int)pd_t.size();
    res.created = true;
    res.state = state_t::perf_done;
}

bool case_t::expects(int arg) const {
    try {
        return pd.query_md(dnnl::query::exec_arg_md, arg).get_ndims() != 0;
    } catch (const dnnl::error &) { return false; }
}

tensor_t &case_t::add(int arg, const dnnl::memory::desc &md) {
    args.erase(arg);
    return args.emplace(arg, tensor_t(md, eng)).first->second;
}

tensor_t &case_t::add_alias(int arg, int other, const dnnl::memory::desc &md) {
    args.erase(arg);
    return args.emplace(arg, tensor_t::alias(args.at(other), md)).first->second;
}

bool case_t::execute() {
    std::unordered_map<int, dnnl::memory> exec_args;
    res.bytes = 0;
    for (auto &a : args) {
        exec_args[a.first] = a.second.mem;
        if (a.first != DNNL_ARG_SCRATCHPAD && a.first != DNNL_ARG_WORKSPACE)
            res.bytes += (double)a.second.size_bytes();
    }
    if (user_scratchpad) {
        auto md = pd.scratchpad_desc();
        if (md.get_size()) {
            tensor_t sp(md, eng);
            args[DNNL_ARG_SCRATCHPAD] = sp;
            exec_args[DNNL_ARG_SCRATCHPAD] = sp.mem;
        }
    }
    try {
        if (G.mode != mode_t::perf) {
            prim.execute(strm, exec_args);
            strm.wait();
            return G.mode == mode_t::corr;
        }
        // Warm-up: at least one execution, and up to ~1/10 of the budget.
        auto w0 = clk::now();
        do {
            prim.execute(strm, exec_args);
            strm.wait();
        } while (ms_since(w0) < std::min(100.0, 0.1 * G.max_ms_per_prb));
        std::vector<double> times;
        const int fix = G.fix_times_per_prb;
        auto start = clk::now();
        const bool device = device_timing();
        if (device) last_execution_device_ms(strm); // the warm-up's entries
        for (;;) {
            auto t0 = clk::now();
            prim.execute(strm, exec_args);
            strm.wait();
            double ms = ms_since(t0);
            if (device) {
                ms = last_execution_device_ms(strm);
                if (ms < 0) {
                    res.fail("execution: the stream has no profiling entry");
                    return false;
                }
            }
            times.push_back(ms);
            if (fix > 0) {
                if ((int)times.size() >= fix) break;
            } else if ((times.size() >= 5 && ms_since(start) >= G.max_ms_per_prb)
                    || times.size() >= 100000) {
                break;
            }
        }
        res.min_ms = *std::min_element(times.begin(), times.end());
        res.median_ms = median(times);
        res.runs = (int)times.size();
        res.state = state_t::perf_done;
    } catch (const dnnl::error &e) {
        res.fail("execution: " + status2str(e.status));
    }
    return false;
}

bool case_t::check(const char *what, const std::vector<float> &got,
        const std::vector<double> &expected, dt_t dt, const ref::tolerance_t &tol) {
    ref::compare_opts_t o;
    o.tol = tol;
    o.keep_errors = 4;
    if (got.size() != expected.size()) {
        res.fail(fmt("%s: %zu values, reference has %zu", what, got.size(), expected.size()));
        return false;
    }
    auto r = ref::compare(got.data(), expected.data(), got.size(), (dnnl_data_type_t)dt, o);
    std::string d = std::string(what) + " " + r.summary();
    for (const auto &e : r.first_errors)
        d += fmt("\n    %s[%zu]: expected %.9g got %.9g (allowed diff %.3g)", what, e.index,
                e.expected, e.got, e.allowed);
    res.details += (res.details.empty() ? "" : "; ") + d;
    if (!r.ok()) res.fail(fmt("%s: %zu of %zu values wrong", what, r.errors, r.total));
    return r.ok();
}

ref::tolerance_t acc_tolerance(dt_t dt, double ops_per_elem) {
    ref::tolerance_t t = ref::exact_tolerance((dnnl_data_type_t)dt);
    if (ref::is_integral((dnnl_data_type_t)dt)) return t;
    const double eps_f32 = std::ldexp(1.0, -23);
    t.rel = 2 * eps_f32 * std::max(1.0, std::log2(std::max(1.0, ops_per_elem)));
    return t;
}

} // namespace bd
