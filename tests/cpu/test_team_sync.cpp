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
    std::atomic<int> arrived{0}, early{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < team; ++t)
        threads.emplace_back([&, t] {
            std::this_thread::sleep_for(
                    std::chrono::milliseconds(delays_ms[(size_t)t]));
            arrived++;
            sync.arrive_and_wait(team);
            if (arrived.load() < team) early++;
        });
    for (auto &th : threads) th.join();
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

// The straggler guard's verdicts, from synthetic timings (ns) that end
// now: a short call whose team merely breaks even leaves teams allowed
// (the wake-up allowance); calls whose team lost by milliseconds, or long
// calls whose team did not beat 90% of the caller alone, stop teams for
// the back-off once three came in a row, a win between them starts the
// count again, and a later winning call does not shorten a back-off
// already under way. The guard's state is the process's: each case
// starts after the previous back-off has run out.
TEST(StragglerGuard, ShortEvenCallsAreNoLossLosingStreaksBackOff) {
    using dnnl::impl::cpu::straggler_guard_t;
    using ns = int64_t;
    auto wait_until_allowed = [] {
        for (int i = 0; i < 300 && !straggler_guard_t::parallel_allowed(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return straggler_guard_t::parallel_allowed();
    };
    // Each call: 8 items; the caller did 4 of them in `busy`, the team
    // took `team` in all. Returns when the call ended.
    auto report = [](ns busy, ns team) {
        const ns end = straggler_guard_t::now_ns();
        straggler_guard_t::report(end - team, end - team + busy, end, 4, 8);
        return end;
    };
    // Teams are stopped after the loss that ended at `lost`, as long as
    // the check runs within the shortest back-off (20 ms); a test thread
    // descheduled for longer than that checks nothing.
    auto expect_backed_off = [](ns lost) {
        const bool allowed = straggler_guard_t::parallel_allowed();
        if (straggler_guard_t::now_ns() - lost < 15000000)
            EXPECT_FALSE(allowed);
    };
    ASSERT_TRUE(wait_until_allowed());
    report(2000000, 2100000); // a win: no losses counted before this case
    report(20000, 45000);     // 40 us alone, 45 us as a team: even, short
    EXPECT_TRUE(straggler_guard_t::parallel_allowed());
    report(2000000, 2100000); // 4 ms alone, 2.1 ms as a team: a win
    EXPECT_TRUE(straggler_guard_t::parallel_allowed());

    // Two losses (40 us alone, 5 ms as a team), a win, two losses: no
    // three in a row, teams stay allowed.
    report(20000, 5000000);
    report(20000, 5000000);
    EXPECT_TRUE(straggler_guard_t::parallel_allowed());
    report(2000000, 2100000);
    report(20000, 5000000);
    report(20000, 5000000);
    EXPECT_TRUE(straggler_guard_t::parallel_allowed());
    ns lost = report(20000, 5000000); // the third in a row
    expect_backed_off(lost);
    report(2000000, 2100000); // a win does not end the back-off
    expect_backed_off(lost);
    ASSERT_TRUE(wait_until_allowed());

    // 4 ms alone, 3.8 ms as a team, three times: a loss each.
    report(2000000, 3800000);
    report(2000000, 3800000);
    EXPECT_TRUE(straggler_guard_t::parallel_allowed());
    lost = report(2000000, 3800000);
    expect_backed_off(lost);
    ASSERT_TRUE(wait_until_allowed());
    // Still losing when the back-off ends: the streak goes on, so the
    // next loss backs off again at once.
    lost = report(2000000, 3800000);
    expect_backed_off(lost);
    ASSERT_TRUE(wait_until_allowed());
}

// A lost call makes the guard wary for a second (teams end in the
// sleeping rendezvous); a won call after it does not end that.
TEST(StragglerGuard, LossesMakeItWaryForASecond) {
    using dnnl::impl::cpu::straggler_guard_t;
    using ns = int64_t;
    const ns now = straggler_guard_t::now_ns();
    // (Whether it is wary before is not checked: other tests' teams, or
    // the previous test's losses, may have lost within the second.)
    // A loss (40 us alone, 5 ms as a team) that ended now.
    straggler_guard_t::report(now - 5000000, now - 4980000, now, 4, 8);
    EXPECT_TRUE(straggler_guard_t::wary());
    straggler_guard_t::report(now - 2100000, now - 100000, now, 4, 8);
    if (straggler_guard_t::now_ns() - now < 500000000)
        EXPECT_TRUE(straggler_guard_t::wary());
    // Let the back-off of the streak pass for the tests that follow.
    for (int i = 0; i < 300 && !straggler_guard_t::parallel_allowed(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
}
