// A small RNN timer that builds against any oneDNN 3.x (it needs only the
// RNN classes), written to time oneDNN 3.2 (native OpenMP) on the problems
// of the driver's rnn_gnmt and rnn_deepspeech suites before the driver
// itself built against 3.2; doc/rnn.md's figures come from it.
//
//   g++ -O2 -std=c++11 rnn_timer.cpp -I PREFIX/include -L PREFIX/lib -ldnnl
//   ./a.out [seconds per problem] [filter]
// prints: problem,prop,median_ms (median of the timed runs) for the
// problems whose "problem,prop" contains `filter` (all without one).
// RNN_TIMER_CLOCK=cpu times each run in the process's CPU time instead of
// wall-clock time: on a machine shared with other work, the time the
// process was descheduled then does not count (run it on one core with
// one thread, or the other threads' spinning counts).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

struct prb_t {
    const char *name;
    algorithm cell;
    rnn_direction dir;
    memory::dim L, T, N, SLC, C;
};

static memory::desc d(const memory::dims &dims, tag t) { return memory::desc(dims, dt::f32, t); }

static primitive_desc make_fwd(const engine &e, prop_kind pk, const prb_t &p, bool any) {
    const memory::dim D = p.dir == rnn_direction::bidirectional_concat
                    || p.dir == rnn_direction::bidirectional_sum
            ? 2
            : 1;
    const memory::dim G = p.cell == algorithm::vanilla_lstm ? 4
            : p.cell == algorithm::vanilla_rnn              ? 1
                                                            : 3;
    const memory::dim DLC = p.dir == rnn_direction::bidirectional_concat ? 2 * p.C : p.C;
    const tag wt = any ? tag::any : tag::ldigo;
    auto sl = d({p.T, p.N, p.SLC}, tag::tnc), dl = d({p.T, p.N, DLC}, tag::tnc);
    auto si = d({p.L, D, p.N, p.C}, tag::ldnc);
    auto wl = d({p.L, D, p.SLC, G, p.C}, wt), wi = d({p.L, D, p.C, G, p.C}, wt);
    auto b = d({p.L, D, G + (p.cell == algorithm::lbr_gru ? 1 : 0), p.C}, tag::ldgo);
    switch (p.cell) {
        case algorithm::vanilla_lstm:
            return lstm_forward::primitive_desc(e, pk, p.dir, sl, si, si, wl, wi, b, dl, si, si);
        case algorithm::vanilla_gru:
            return gru_forward::primitive_desc(e, pk, p.dir, sl, si, wl, wi, b, dl, si);
        case algorithm::lbr_gru:
            return lbr_gru_forward::primitive_desc(e, pk, p.dir, sl, si, wl, wi, b, dl, si);
        default:
            return vanilla_rnn_forward::primitive_desc(
                    e, pk, algorithm::eltwise_relu, p.dir, sl, si, wl, wi, b, dl, si);
    }
}

static primitive_desc make_bwd(const engine &e, const prb_t &p, const primitive_desc &hint) {
    const memory::dim D = p.dir == rnn_direction::bidirectional_concat
                    || p.dir == rnn_direction::bidirectional_sum
            ? 2
            : 1;
    const memory::dim G = p.cell == algorithm::vanilla_lstm ? 4
            : p.cell == algorithm::vanilla_rnn              ? 1
                                                            : 3;
    const memory::dim DLC = p.dir == rnn_direction::bidirectional_concat ? 2 * p.C : p.C;
    auto sl = d({p.T, p.N, p.SLC}, tag::tnc), dl = d({p.T, p.N, DLC}, tag::tnc);
    auto si = d({p.L, D, p.N, p.C}, tag::ldnc);
    auto wl = d({p.L, D, p.SLC, G, p.C}, tag::any), wi = d({p.L, D, p.C, G, p.C}, tag::any);
    auto b = d({p.L, D, G + (p.cell == algorithm::lbr_gru ? 1 : 0), p.C}, tag::ldgo);
    switch (p.cell) {
        case algorithm::vanilla_lstm:
            return lstm_backward::primitive_desc(e, prop_kind::backward, p.dir, sl, si, si, wl,
                    wi, b, dl, si, si, sl, si, si, wl, wi, b, dl, si, si,
                    lstm_forward::primitive_desc(hint.get()));
        case algorithm::vanilla_gru:
            return gru_backward::primitive_desc(e, prop_kind::backward, p.dir, sl, si, wl, wi,
                    b, dl, si, sl, si, wl, wi, b, dl, si, gru_forward::primitive_desc(hint.get()));
        case algorithm::lbr_gru:
            return lbr_gru_backward::primitive_desc(e, prop_kind::backward, p.dir, sl, si, wl,
                    wi, b, dl, si, sl, si, wl, wi, b, dl, si,
                    lbr_gru_forward::primitive_desc(hint.get()));
        default:
            return vanilla_rnn_backward::primitive_desc(e, prop_kind::backward,
                    algorithm::eltwise_relu, p.dir, sl, si, wl, wi, b, dl, si, sl, si, wl, wi,
                    b, dl, si, vanilla_rnn_forward::primitive_desc(hint.get()));
    }
}

// Memory for every argument the descriptor names, filled with small values.
static std::unordered_map<int, memory> args_for(const primitive_desc &pd, const engine &e) {
    std::unordered_map<int, memory> a;
    for (int arg = 1; arg < 256; ++arg) {
        memory::desc md = pd.query_md(query::exec_arg_md, arg);
        if (md.get_ndims() == 0 && arg != DNNL_ARG_WORKSPACE) continue;
        if (md.get_size() == 0 || arg == DNNL_ARG_SCRATCHPAD) continue;
        memory m(md, e);
        char *p = static_cast<char *>(m.get_data_handle());
        const size_t n = md.get_size() / sizeof(float);
        for (size_t i = 0; i < n; ++i)
            reinterpret_cast<float *>(p)[i] = 0.01f * (float)((i * 7) % 13) - 0.06f;
        a[arg] = m;
    }
    return a;
}

static double time_ms(primitive &prim, std::unordered_map<int, memory> &args, stream &s,
        double seconds) {
    const char *clk = std::getenv("RNN_TIMER_CLOCK");
    const bool cpu_clock = clk && std::strcmp(clk, "cpu") == 0;
    prim.execute(s, args);
    s.wait();
    std::vector<double> t;
    const auto start = std::chrono::steady_clock::now();
    while (t.size() < 5
            || std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                    < seconds) {
        const auto a = std::chrono::steady_clock::now();
        timespec c0, c1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        prim.execute(s, args);
        s.wait();
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        const double wall = std::chrono::duration<double, std::milli>(
                std::chrono::steady_clock::now() - a)
                                    .count();
        const double cpu = (double)(c1.tv_sec - c0.tv_sec) * 1e3
                + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-6;
        t.push_back(cpu_clock ? cpu : wall);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char **argv) {
    const double seconds = argc > 1 ? std::atof(argv[1]) : 0.3;
    engine e(engine::kind::cpu, 0);
    stream s(e);
    using rd = rnn_direction;
    // The problems of tests/benchdnn/inputs/rnn_gnmt and rnn_deepspeech.
    const prb_t prbs[] = {
            {"gnmt:enc_bidir", algorithm::vanilla_lstm, rd::bidirectional_concat, 1, 10, 32, 1024, 1024},
            {"gnmt:enc_stack", algorithm::vanilla_lstm, rd::unidirectional_left2right, 2, 10, 32, 1024, 1024},
            {"gnmt:dec_ctx", algorithm::vanilla_lstm, rd::unidirectional_left2right, 1, 10, 32, 2048, 1024},
            {"gnmt:dec_step", algorithm::vanilla_lstm, rd::unidirectional_left2right, 1, 1, 32, 2048, 1024},
            {"ds2:rnn_relu", algorithm::vanilla_rnn, rd::bidirectional_sum, 2, 20, 16, 1760, 1760},
            {"ds2:gru", algorithm::vanilla_gru, rd::bidirectional_sum, 1, 20, 16, 1760, 1760},
            {"ds2:lbr_gru", algorithm::lbr_gru, rd::bidirectional_sum, 1, 20, 16, 1760, 1760},
    };
    const std::string filter = argc > 2 ? argv[2] : "";
    for (const auto &p : prbs) {
        for (int k = 0; k < 3; ++k) {
            const char *prop = k == 0 ? "FWD_I" : k == 1 ? "FWD_D" : "BWD_DW";
            if ((std::string(p.name) + "," + prop).find(filter) == std::string::npos) continue;
            try {
                primitive_desc fwd = make_fwd(
                        e, k == 0 ? prop_kind::forward_inference : prop_kind::forward_training, p, true);
                primitive_desc pd = k < 2 ? fwd : make_bwd(e, p, fwd);
                auto args = args_for(pd, e);
                primitive prim(pd);
                std::printf("%s,%s,%.3f\n", p.name, prop, time_ms(prim, args, s, seconds));
            } catch (const error &err) {
                std::printf("%s,%s,skipped (%s)\n", p.name, prop, err.what());
            }
            std::fflush(stdout);
        }
    }
    return 0;
}
