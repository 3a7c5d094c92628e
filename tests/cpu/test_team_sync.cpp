// The end-of-region rendezvous of the OpenMP threading layer
// (src/cpu/threading/team_sync.hpp): nobody leaves before the whole team
// has arrived, whatever the order and spacing of the arrivals, and a team
// of one never waits.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cpu/threading/team_sync.hpp"

namespace {

using dnnl::impl::cpu::team_sync_t;

// A team whose members arrive after the given delays (ms); returns how
// many members left before everyone had arrived.
int early_leavers(const std::vector<int> &delays_ms) {
    const int team = (int)delays_ms.size();
    team_sync_t sync;
    std::atomic<int> arrived {0}, early {0};
    std::vector<std::thread> threads;
    for (int t = 0; t < team; ++t)
        threads.emplace_back([&, t] {
            std::this_thread::sleep_for(
                    std::chrono::milliseconds(delays_ms[(size_t)t]));
            arrived++;
            sync.arrive_and_wait(team);
            if (arrived.load() < team) early++;
        });
    for (auto &th : threads)
        th.join();
    return early.load();
}

} // namespace

TEST(TeamSync, NobodyLeavesBeforeTheLastArrival) {
    EXPECT_EQ(early_leavers({0, 0}), 0);
    EXPECT_EQ(early_leavers({0, 30}), 0);
    EXPECT_EQ(early_leavers({30, 0}), 0);
    EXPECT_EQ(early_leavers({0, 5, 10, 30}), 0);
    EXPECT_EQ(early_leavers({0, 0, 0, 0, 0, 0, 0, 0}), 0);
}

TEST(TeamSync, ATeamOfOneDoesNotWait) {
    team_sync_t sync;
    sync.arrive_and_wait(1);
    SUCCEED();
}
