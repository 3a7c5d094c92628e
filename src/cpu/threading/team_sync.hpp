// Helpers of the OpenMP threading layer (runtime_omp.cpp) for regions
// whose threads claim work items dynamically (parallel_claim).
//
// team_sync_t: a sleeping rendezvous for the end of such a region, used
// while the straggler guard has seen a team lose lately (wary()). Threads
// that run out of work wait here on a condition variable (giving their
// core away) instead of spinning in the runtime's barrier, so that a
// teammate the system has descheduled on a busy machine can be scheduled
// (or migrated onto the freed core) and finish promptly. On a machine
// where teams keep winning, the runtime's barrier alone is cheaper.
//
// straggler_guard_t: falls back to one thread for a while when the team
// keeps waiting for a descheduled member. On an oversubscribed machine
// (other processes on every core) a team member that the scheduler
// preempts while it holds a work item, or that libgomp's spin-waiting has
// pushed back in the run queue, makes the whole call wait a scheduler
// tick or more (calls of 1 ms measured 8-16 ms with two threads, and far
// slower than with one). The calling thread compares the call's time with
// what it would have needed alone at its own pace; when the team was not
// faster in three calls in a row, the next calls run on the calling
// thread alone (no parallel region, so no runtime wait either) for a
// back-off period that doubles while that recurs (20 ms to 1 s) and
// resets after a call the team did speed up. One loss is not enough: on
// an idle 16-core Xeon the first call after a pause (threads asleep in
// the runtime) can lose to a slow wake-up, and backing off then put the
// following calls, which the team wins, on one thread. Results do not
// depend on it: the callers' work items are the same whatever the
// thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace dnnl {
namespace impl {
namespace cpu {

// A thread first polls for a short while (spin_ns): on an idle machine
// its teammates finish within microseconds of one another, and putting
// fifteen threads to sleep and waking them through one mutex cost about
// 50 us a call on a 16-core Xeon (a 1x1 convolution of 0.01 ms of work
// took 0.065). Only then does it sleep.
class team_sync_t {
public:
    void arrive_and_wait(int team) {
        if (arrived_.fetch_add(1) + 1 >= team) {
            // A sleeper counted itself before its last look at arrived_
            // (both seq_cst), so either it sees this arrival or it is
            // counted here and woken.
            if (sleepers_.load() > 0) {
                std::lock_guard<std::mutex> lk(m_);
                cv_.notify_all();
            }
            return;
        }
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 1; arrived_.load(std::memory_order_acquire) < team; ++i) {
            cpu_relax();
            if (i % 64 == 0
                    && std::chrono::steady_clock::now() - t0
                            > std::chrono::nanoseconds(spin_ns))
                break;
        }
        if (arrived_.load() >= team) return;
        std::unique_lock<std::mutex> lk(m_);
        sleepers_.fetch_add(1);
        cv_.wait(lk, [&] { return arrived_.load() >= team; });
        sleepers_.fetch_sub(1);
    }

private:
    static constexpr int64_t spin_ns = 50000; // 50 us
    static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    std::mutex m_;
    std::condition_variable cv_;
    std::atomic<int> arrived_ {0};
    std::atomic<int> sleepers_ {0};
};

class straggler_guard_t {
public:
    static int64_t now_ns() {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::steady_clock::now().time_since_epoch())
                .count();
    }
    // Whether a call may use more than one thread now.
    static bool parallel_allowed() { return now_ns() >= state().until.load(); }
    // Whether a team lost a call lately (within wary_ns of its end): then
    // teams end in the sleeping rendezvous (team_sync_t), which lets a
    // descheduled member have the core; otherwise in the runtime's own
    // barrier, which on an idle 16-core Xeon took 0.87x the time of the
    // rendezvous followed by it (small-problem suite; doc/performance.md).
    static bool wary() { return now_ns() < state().wary_until.load(); }
    // The calling thread's account of a parallel call of `total` items: it
    // started at `start`, ran out of items at `idle` after doing `done` of
    // them, and the team finished at `end`. At its own pace the caller
    // alone would have needed total / done times its busy time; a team
    // that did not beat 90% of that, plus what waking a team costs anyway
    // (wake_cost), is not worth its wake-ups and waits. Without that
    // allowance a short call (tens of us) on an idle machine, whose team
    // merely breaks even, would count as a loss and keep every later call
    // of the process, long ones included, on one thread for the back-off
    // (an LSTM's cell loops did that to its GEMMs); on an oversubscribed
    // machine a team loses by milliseconds, far beyond the allowance.
    static void report(int64_t start, int64_t idle, int64_t end, int64_t done,
            int64_t total) {
        state_t &s = state();
        const double alone = (double)(idle - start) * (double)total
                / (double)std::max<int64_t>(done, 1);
        if ((double)(end - start) < 0.9 * alone + (double)wake_cost) {
            s.losses.store(0);
            s.backoff.store(min_backoff);
            return;
        }
        s.wary_until.store(end + wary_ns);
        // Losses in a row are counted on through a back-off: a team that
        // loses the first call after one backs off again at once.
        if (s.losses.fetch_add(1) + 1 < losses_to_back_off) return;
        const int64_t b = s.backoff.load();
        s.until.store(end + b);
        s.backoff.store(std::min(2 * b, max_backoff));
    }

private:
    static constexpr int64_t wake_cost = 100000; // 100 us
    static constexpr int losses_to_back_off = 3;
    static constexpr int64_t min_backoff = 20000000; // 20 ms
    static constexpr int64_t max_backoff = 1000000000; // 1 s
    static constexpr int64_t wary_ns = 1000000000;     // 1 s
    struct state_t {
        std::atomic<int64_t> until {0};
        std::atomic<int64_t> backoff {min_backoff};
        std::atomic<int> losses {0};
        std::atomic<int64_t> wary_until{0};
    };
    static state_t &state() {
        static state_t s;
        return s;
    }
};

} // namespace cpu
} // namespace impl
} // namespace dnnl
