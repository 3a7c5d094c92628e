// Recency order of an LRU cache's entries, independent of what they hold:
// a doubly linked list (front: most recently used) that only the holder of
// the cache's exclusive lock changes, and a log of uses that readers
// holding a shared lock append to with atomics. replay() applies the log
// to the list, so the order is exact LRU while hits never serialise.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace dnnl {
namespace impl {

// The recency part of a cache entry; entries derive from it.
struct lru_node_t {
    std::atomic<uint64_t> stamp {0}; // clock value of the last use
    // Unique per inserted entry: an evicted entry's memory may be reused by
    // a later entry for the same key, so creators recognise their own
    // entry by serial, never by address.
    uint64_t serial = 0;
    size_t bytes = 0; // what the kept value reported
    lru_node_t *prev = nullptr, *next = nullptr;
    std::atomic<bool> logged {false}; // has a record in the touch log
};

class lru_order_t {
public:
    lru_order_t();

    // Under a shared (or the exclusive) lock: `n` was used now.
    void touch(lru_node_t *n) {
        // Writes to shared lines are what limits hits across cores: a node
        // that already is the most recently used needs none.
        if (n->stamp.load(std::memory_order_relaxed)
                != clock_.load(std::memory_order_relaxed))
            n->stamp.store(clock_.fetch_add(1, std::memory_order_relaxed) + 1,
                    std::memory_order_relaxed);
        // One record per node between replays is enough: the replay reads
        // the node's latest stamp.
        if (n->logged.load(std::memory_order_relaxed)
                || n->logged.exchange(true, std::memory_order_relaxed))
            return;
        size_t slot = log_count_.fetch_add(1, std::memory_order_relaxed);
        if (slot < log_size) log_[slot].store(n, std::memory_order_relaxed);
    }

    // The rest under the exclusive lock.
    // Moves the nodes used since the last replay to the front, in order.
    void replay();
    // A new node, now the most recently used.
    void push_front(lru_node_t *n);
    // Takes `n` out of the order; the log must hold no record of it (call
    // replay() first).
    void remove(lru_node_t *n);
    lru_node_t *least_recent() const { return tail_; }
    // Drops the log unread (the cache is going away).
    void forget_touches() { log_count_.store(0, std::memory_order_relaxed); }

private:
    void link_front(lru_node_t *n);
    void unlink(lru_node_t *n);

    lru_node_t *head_ = nullptr, *tail_ = nullptr;
    std::vector<lru_node_t *> scratch_; // replay's work list, reused
    std::atomic<uint64_t> clock_ {0};
    static constexpr size_t log_size = 4096;
    std::unique_ptr<std::atomic<lru_node_t *>[]> log_;
    std::atomic<size_t> log_count_ {0};
};

} // namespace impl
} // namespace dnnl
