// A sleeping rendezvous for the end of a parallel region. Threads that run
// out of work wait here on a condition variable (giving their core away)
// instead of spinning in the runtime's barrier, so that a teammate the
// system has descheduled on a busy machine can be scheduled (or migrated
// onto the freed core) and finish promptly.
#pragma once

#include <condition_variable>
#include <mutex>

namespace dnnl {
namespace impl {
namespace cpu {

class team_sync_t {
public:
    void arrive_and_wait(int team) {
        std::unique_lock<std::mutex> lk(m_);
        if (++arrived_ >= team) {
            cv_.notify_all();
            return;
        }
        cv_.wait(lk, [&] { return arrived_ >= team; });
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    int arrived_ = 0;
};

} // namespace cpu
} // namespace impl
} // namespace dnnl
