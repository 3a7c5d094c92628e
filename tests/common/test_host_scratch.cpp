// The per-thread reuse of CPU scratchpads (common/host_scratch): a thread's
// next execution gets the buffer its last one gave back when it is big
// enough, a nested lease on the same thread never gets the buffer already
// lent, other threads keep buffers of their own, and buffers above the
// kept size are not kept.
#include <cstdint>
#include <cstring>
#include <thread>

#include <gtest/gtest.h>

#include "common/host_scratch.hpp"

using dnnl::impl::host_scratch_lease_t;

namespace {

bool aligned64(const void *p) {
    return reinterpret_cast<uintptr_t>(p) % 64 == 0;
}

// Lends `bytes` on the calling thread, writes all of it, gives it back.
void *lend_and_touch(size_t bytes) {
    host_scratch_lease_t lease;
    void *p = lease.acquire(bytes);
    if (p) std::memset(p, 0x5a, bytes);
    return p;
}

} // namespace

TEST(HostScratch, NextExecutionReusesTheBuffer) {
    void *first = lend_and_touch(1 << 20);
    ASSERT_NE(first, nullptr);
    EXPECT_TRUE(aligned64(first));
    EXPECT_EQ(lend_and_touch(1 << 20), first);
    EXPECT_EQ(lend_and_touch(1000), first); // smaller fits too
}

TEST(HostScratch, LargerRequestReplacesTheBuffer) {
    lend_and_touch(4096);
    void *big = lend_and_touch(3 << 20);
    ASSERT_NE(big, nullptr);
    EXPECT_EQ(lend_and_touch(3 << 20), big);
}

TEST(HostScratch, NestedLeaseGetsItsOwnBuffer) {
    lend_and_touch(1 << 16);
    host_scratch_lease_t outer;
    char *a = static_cast<char *>(outer.acquire(1 << 16));
    ASSERT_NE(a, nullptr);
    std::memset(a, 1, 1 << 16);
    {
        host_scratch_lease_t inner;
        char *b = static_cast<char *>(inner.acquire(1 << 16));
        ASSERT_NE(b, nullptr);
        EXPECT_NE(a, b);
        std::memset(b, 2, 1 << 16);
    }
    // The inner execution did not write over the outer one's scratchpad.
    for (size_t i = 0; i < (1 << 16); i += 997)
        ASSERT_EQ(a[i], 1);
}

TEST(HostScratch, ThreadsKeepBuffersOfTheirOwn) {
    void *mine = lend_and_touch(1 << 18);
    void *theirs_first = nullptr, *theirs_second = nullptr;
    std::thread t([&] {
        theirs_first = lend_and_touch(1 << 18);
        theirs_second = lend_and_touch(1 << 18);
    });
    t.join();
    EXPECT_NE(theirs_first, mine);
    EXPECT_EQ(theirs_second, theirs_first);
    EXPECT_EQ(lend_and_touch(1 << 18), mine);
}

TEST(HostScratch, HugeBuffersAreNotKept) {
    const size_t huge = host_scratch_lease_t::kept_bytes_max + 64;
    {
        host_scratch_lease_t lease;
        ASSERT_NE(lease.acquire(huge), nullptr);
    }
    // The huge one went back to the allocator: the slot is empty, so the
    // next lease allocates (it cannot be told apart by address reliably,
    // but it must work and be aligned).
    void *p = lend_and_touch(4096);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(aligned64(p));
}

TEST(HostScratch, ImpossibleSizeFailsCleanly) {
    host_scratch_lease_t lease;
    EXPECT_EQ(lease.acquire(SIZE_MAX - 4096), nullptr);
    // The thread's slot still works afterwards.
    EXPECT_NE(lend_and_touch(4096), nullptr);
}
