// The CPU threading layer (src/cpu/threading) under the runtime this build
// uses: every item of a region is done exactly once whatever the team size,
// team indices stay below the team size, nested regions run inline on the
// calling thread, the static split covers [0, n) exactly, and claims take
// their own block first. The runtime
// file is compiled into this binary (its functions are internal to the
// library); tests/CMakeLists.txt picks the one of the build.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_config.h"

#include "cpu/threading/claims.hpp"
#include "cpu/threading/threading.hpp"

namespace {

namespace cpu = dnnl::impl::cpu;
using dnnl::impl::dim_t;

std::vector<int> team_sizes() {
    return {1, 2, 3, cpu::max_threads(), 2 * cpu::max_threads() + 1};
}

} // namespace

TEST(Threading, RuntimeIsTheConfiguredOne) {
    const std::string name = cpu::runtime_name();
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_OMP
    EXPECT_EQ(name, "OpenMP");
#elif DNNL_CPU_RUNTIME == DNNL_RUNTIME_TBB
    EXPECT_EQ(name, "TBB");
#else
    EXPECT_EQ(name, "sequential");
    EXPECT_EQ(cpu::max_threads(), 1);
#endif
    EXPECT_GE(cpu::max_threads(), 1);
    EXPECT_FALSE(cpu::in_parallel());
}

TEST(Threading, ClaimDoesEveryItemOnce) {
    for (int nthr : team_sizes())
        for (dim_t n : {0, 1, 5, 64, 1001}) {
            std::vector<std::atomic<int>> seen((size_t)n);
            std::atomic<bool> bad_ithr {false};
            cpu::parallel_claim(nthr, n, [&](int ithr, dim_t i) {
                if (ithr < 0 || ithr >= std::max(nthr, 1)) bad_ithr = true;
                seen[(size_t)i]++;
            });
            EXPECT_FALSE(bad_ithr) << "nthr " << nthr;
            for (dim_t i = 0; i < n; ++i)
                ASSERT_EQ(seen[(size_t)i].load(), 1)
                        << "nthr " << nthr << " n " << n << " item " << i;
        }
}

TEST(Threading, ParallelCallsEveryMemberOnce) {
    for (int nthr : team_sizes()) {
        std::vector<std::atomic<int>> calls((size_t)std::max(nthr, 1));
        std::atomic<int> team {-1};
        std::atomic<bool> bad {false};
        cpu::parallel(nthr, [&](int ithr, int nt) {
            if (nt < 1 || nt > std::max(nthr, 1) || ithr < 0 || ithr >= nt)
                bad = true;
            int expected = -1;
            if (!team.compare_exchange_strong(expected, nt) && expected != nt)
                bad = true; // members disagree on the team size
            calls[(size_t)ithr]++;
        });
        EXPECT_FALSE(bad) << "nthr " << nthr;
        // Every member of the team the runtime gave ran exactly once.
        for (int i = 0; i < team.load(); ++i)
            EXPECT_EQ(calls[(size_t)i].load(), 1) << "nthr " << nthr;
    }
}

// A region inside a region: the caller's thread does all of it (one
// member; the sequential runtime runs every member, one after another).
TEST(Threading, NestedRegionsRunInline) {
#if DNNL_CPU_RUNTIME == DNNL_RUNTIME_SEQ
    const int inner_members = 4;
#else
    const int inner_members = 1;
#endif
    std::atomic<bool> bad {false};
    const int outside = cpu::max_threads();
    cpu::parallel(2, [&](int, int) {
        // The limit plans and cache keys see is the same as outside.
        if (cpu::max_threads() != outside) bad = true;
        const auto me = std::this_thread::get_id();
        int members = 0;
        cpu::parallel(4, [&](int ithr, int nt) {
            if (std::this_thread::get_id() != me) bad = true;
            if (ithr != members || nt != inner_members) bad = true;
            ++members;
        });
        if (members != inner_members) bad = true;
    });
    EXPECT_FALSE(bad);
    EXPECT_FALSE(cpu::in_parallel());
}

TEST(Threading, NdAndChunksCoverTheRange) {
    const dim_t n0 = 37, n1 = 53;
    std::vector<std::atomic<int>> seen((size_t)(n0 * n1));
    cpu::parallel_nd(n0, n1, [&](dim_t i, dim_t j) { seen[(size_t)(i * n1 + j)]++; });
    for (auto &s : seen)
        ASSERT_EQ(s.load(), 1);

    for (int nthr : team_sizes()) {
        const dim_t units = 997;
        std::vector<std::atomic<int>> hit((size_t)units);
        cpu::parallel_chunks(nthr, units, [&](int, dim_t b, dim_t e) {
            for (dim_t u = b; u < e; ++u)
                hit[(size_t)u]++;
        });
        for (auto &h : hit)
            ASSERT_EQ(h.load(), 1) << "nthr " << nthr;
    }
}

TEST(Threading, BalanceSplitsExactly) {
    for (dim_t n : {0, 1, 10, 1023})
        for (int nthr : {1, 2, 3, 7})
            for (dim_t align : {1, 4, 16}) {
                dim_t prev_end = 0;
                for (int t = 0; t < nthr; ++t) {
                    dim_t s, e;
                    cpu::balance(n, nthr, t, s, e, align);
                    EXPECT_EQ(s, prev_end);
                    EXPECT_LE(s, e);
                    if (e < n) EXPECT_EQ(e % align, 0);
                    prev_end = e;
                }
                EXPECT_EQ(prev_end, n);
            }
    EXPECT_EQ(cpu::nthr_for(100, 1000), 1); // small work: the caller alone
}

// Claims with affinity (claims.hpp), on one thread: each member gets the
// items of its own contiguous block in order, then the rest of the others'
// blocks, and every item comes out once.
TEST(Threading, ClaimsTakeTheOwnBlockFirst) {
    for (dim_t n : {0, 1, 5, 10, 103})
        for (int nthr : {1, 2, 3, 4}) {
            cpu::affine_claims_t claims(n, nthr);
            std::vector<int> seen((size_t)n, 0);
            // Member 1 (0 when alone) takes its whole block first.
            const int t = nthr > 1 ? 1 : 0;
            dim_t b, e;
            cpu::balance(n, nthr, t, b, e);
            for (dim_t i = b; i < e; ++i) {
                const dim_t got = claims.next(t);
                ASSERT_EQ(got, i) << "n " << n << " nthr " << nthr;
                ++seen[(size_t)got];
            }
            // Then the members take what is left, whoever asks.
            for (int round = 0;; ++round) {
                const dim_t got = claims.next(round % nthr);
                if (got < 0) break;
                ASSERT_LT(got, n);
                ++seen[(size_t)got];
            }
            for (dim_t i = 0; i < n; ++i)
                EXPECT_EQ(seen[(size_t)i], 1) << "item " << i;
            EXPECT_EQ(claims.next(0), -1);
        }
}
