// The common life of one problem: primitive descriptor creation (with
// implementation filters and the creation-time measurements of --mode=I),
// execution arguments, one execution (--mode=C/R) or timed executions
// (--mode=P), and the comparison of an output with its reference.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"
#include "dnn_mem.hpp"
#include "reference/compare.hpp"

namespace bd {

// Message for a library status.
std::string status2str(dnnl_status_t s);

struct case_t {
    case_t(const problem_t &p, res_t &r);

    const problem_t &prb;
    res_t &res;
    dnnl::engine &eng;
    dnnl::stream &strm;
    dnnl::primitive_desc_base pd;
    dnnl::primitive prim;
    std::map<int, tensor_t> args;
    bool user_scratchpad = false;

    // Creates the primitive descriptor with make() (which returns any
    // primitive_desc), then the primitive. Returns false when the problem
    // is finished: skipped (unimplemented, filtered), failed, listed, or
    // measured (--mode=I).
    template <typename F>
    bool create(F make) {
        if (G.mode == mode_t::list) {
            res.state = state_t::listed;
            return false;
        }
        try {
            pd = make();
        } catch (const dnnl::error &e) {
            return creation_failed(e.status, e.what());
        } catch (const std::exception &e) {
            res.fail(std::string("creation: ") + e.what());
            return false;
        }
        if (!select_impl()) return false;
        if (G.mode == mode_t::init) {
            measure_creation([&]() -> dnnl::primitive_desc_base { return make(); });
            return false;
        }
        return create_primitive();
    }

    // Adds an execution argument with a fresh memory of `md`.
    tensor_t &add(int arg, const dnnl::memory::desc &md);
    // Adds an argument sharing the memory of argument `other` (in place).
    tensor_t &add_alias(int arg, int other, const dnnl::memory::desc &md);
    tensor_t &operator[](int arg) { return args.at(arg); }
    bool has(int arg) const { return args.count(arg) != 0; }

    // Whether the primitive takes argument `arg` (exec_arg_md query).
    bool expects(int arg) const;

    // --mode=C or R: one execution; P: warm-up and timed executions. Returns
    // true when the outputs are to be checked (--mode=C only).
    bool execute();

    // Compares an output with its exact reference. Sets the result to
    // failed on a mismatch. `what` names the output in messages.
    bool check(const char *what, const std::vector<float> &got,
            const std::vector<double> &expected, dt_t dt, const ref::tolerance_t &tol);

private:
    bool creation_failed(dnnl_status_t st, const char *what);
    bool select_impl();
    bool create_primitive();
    void measure_creation(const std::function<dnnl::primitive_desc_base()> &make);
};

// Default tolerance for results computed with f32 arithmetic of roughly
// `ops_per_elem` accumulated terms and stored as dt.
ref::tolerance_t acc_tolerance(dt_t dt, double ops_per_elem);

} // namespace bd
