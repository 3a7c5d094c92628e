// Recency order of an LRU cache: list maintenance and touch-log replay
// (see lru_order.hpp).
#include "common/cache/lru_order.hpp"

#include <algorithm>

namespace dnnl {
namespace impl {

lru_order_t::lru_order_t() : log_(new std::atomic<lru_node_t *>[log_size]) {
    for (size_t i = 0; i < log_size; ++i)
        log_[i].store(nullptr, std::memory_order_relaxed);
}

void lru_order_t::link_front(lru_node_t *n) {
    n->prev = nullptr;
    n->next = head_;
    if (head_) head_->prev = n;
    head_ = n;
    if (!tail_) tail_ = n;
}

void lru_order_t::unlink(lru_node_t *n) {
    if (n->prev)
        n->prev->next = n->next;
    else
        head_ = n->next;
    if (n->next)
        n->next->prev = n->prev;
    else
        tail_ = n->prev;
    n->prev = n->next = nullptr;
}

void lru_order_t::push_front(lru_node_t *n) {
    n->stamp.store(clock_.fetch_add(1, std::memory_order_relaxed) + 1,
            std::memory_order_relaxed);
    link_front(n);
}

void lru_order_t::remove(lru_node_t *n) {
    unlink(n);
}

void lru_order_t::replay() {
    const size_t n = log_count_.exchange(0, std::memory_order_relaxed);
    if (n == 0) return;
    scratch_.clear();
    if (n > log_size) {
        // The log overflowed: rebuild the whole order from the stamps.
        for (lru_node_t *p = head_; p; p = p->next)
            scratch_.push_back(p);
    } else {
        for (size_t i = 0; i < n; ++i) {
            lru_node_t *p = log_[i].exchange(nullptr, std::memory_order_relaxed);
            if (p) scratch_.push_back(p);
        }
    }
    std::sort(scratch_.begin(), scratch_.end(), [](lru_node_t *a, lru_node_t *b) {
        return a->stamp.load(std::memory_order_relaxed)
                < b->stamp.load(std::memory_order_relaxed);
    });
    for (lru_node_t *p : scratch_) {
        p->logged.store(false, std::memory_order_relaxed);
        unlink(p);
        link_front(p);
    }
}

} // namespace impl
} // namespace dnnl
