// Global LRU primitive cache; see primitive_cache.hpp for the design.
#include "common/primitive_cache.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <string>

#include <omp.h>

#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

// ---- key ----

size_t cache_key_content_hash(const op_desc_t &op, const primitive_attr_t &attr,
        const std::vector<memory_desc_t> &hint_mds) {
    size_t s = hash_combine(0, (size_t)op.primitive_kind);
    s = hash_combine(s, op.hash());
    s = hash_combine(s, hash_fields(attr));
    for (const auto &md : hint_mds)
        s = hash_combine(s, hash_fields(md));
    // 0 marks "not computed" in primitive_desc_t.
    return s ? s : 1;
}

void cache_key_t::compute_hash(size_t content_hash) {
    size_t s = hash_combine(content_hash, (size_t)impl_id);
    s = hash_combine(s, (size_t)nthr);
    hash = hash_combine(s, engine_id.hash());
}

bool cache_key_t::operator==(const cache_key_t &o) const {
    if (hash != o.hash || kind != o.kind || impl_id != o.impl_id
            || nthr != o.nthr || !(engine_id == o.engine_id))
        return false;
    // A descriptor served from the cache brings the very objects the
    // stored key points to: nothing left to compare.
    if (op == o.op && attr == o.attr && hint_mds == o.hint_mds) return true;
    if (!op->equal(*o.op)) return false;
    if (!equal_fields(*attr, *o.attr)) return false;
    size_t n = hint_mds ? hint_mds->size() : 0;
    size_t on = o.hint_mds ? o.hint_mds->size() : 0;
    if (n != on) return false;
    for (size_t i = 0; i < n; ++i)
        if (!equal_fields((*hint_mds)[i], (*o.hint_mds)[i])) return false;
    return true;
}

static int cache_nthr() { return omp_get_max_threads(); }

cache_key_t make_cache_key(const primitive_desc_t &pd, engine_t *engine) {
    cache_key_t k;
    k.kind = pd.kind();
    k.op = pd.op_desc();
    k.attr = pd.attr();
    k.impl_id = pd.impl_id();
    k.nthr = cache_nthr();
    k.hint_mds = &pd.hint_mds();
    k.engine_id = engine->engine_id();
    k.compute_hash(pd.key_content_hash());
    return k;
}

cache_key_t make_cache_key(const op_desc_t &op, const primitive_attr_t &attr,
        int impl_id, const std::vector<memory_desc_t> &hint_mds,
        engine_t *engine) {
    cache_key_t k;
    k.kind = op.primitive_kind;
    k.op = &op;
    k.attr = &attr;
    k.impl_id = impl_id;
    k.nthr = cache_nthr();
    k.hint_mds = &hint_mds;
    k.engine_id = engine->engine_id();
    k.compute_hash(cache_key_content_hash(op, attr, hint_mds));
    return k;
}

// ---- entries ----

struct primitive_cache_t::entry_t {
    cache_key_t key; // owns what it points to through the pd in `owner`
    std::shared_future<result_t> future;
    // Set under the exclusive lock once creation succeeded, so that hits
    // copy the primitive without touching the future's shared state.
    bool ready = false;
    result_t result;
    std::atomic<uint64_t> stamp {0}; // last use, updated on hits
    uint64_t list_stamp = 0; // stamp at its current list position
    // Unique per inserted entry: an evicted entry's memory may be reused by
    // a later entry for the same key, so the creator recognises its own
    // entry by serial, never by address.
    uint64_t serial = 0;
    size_t bytes = 0;
    entry_t *prev = nullptr, *next = nullptr;
    std::atomic<bool> logged {false}; // has a pending touch-log record
};

static int capacity_from_env() {
    const int default_capacity = 1024;
#if DNNL_ENABLE_PRIMITIVE_CACHE
    for (const char *name :
            {"ONEDNN_PRIMITIVE_CACHE_CAPACITY", "DNNL_PRIMITIVE_CACHE_CAPACITY"}) {
        std::string v = getenv_string(name);
        if (v.empty()) continue;
        char *end = nullptr;
        long c = std::strtol(v.c_str(), &end, 10);
        if (*end != '\0' || c < 0 || c > (1L << 30)) {
            verbose_warning("primitive cache: ignoring malformed %s=%s", name,
                    v.c_str());
            // A later variable may still be valid only if this one was
            // not the preferred one; the preferred one is malformed, so
            // fall back to the other variable.
            continue;
        }
        return (int)c;
    }
    return default_capacity;
#else
    return 0;
#endif
}

primitive_cache_t::primitive_cache_t(int capacity)
    : stripes_(new stripe_t[n_stripes])
    , capacity_(capacity)
    , touch_log_(new std::atomic<entry_t *>[touch_log_size]) {
    for (size_t i = 0; i < touch_log_size; ++i) touch_log_[i] = nullptr;
}

primitive_cache_t::~primitive_cache_t() {
    write_lock_t lock(*this);
    touch_count_ = 0;
    while (tail_) erase_entry(tail_);
}

primitive_cache_t &primitive_cache_t::instance() {
    // Never destroyed: primitives may be released from static destructors
    // of user code after this translation unit's statics are gone.
    static primitive_cache_t *cache = new primitive_cache_t(capacity_from_env());
    return *cache;
}

primitive_cache_t::stripe_t &primitive_cache_t::my_stripe() const {
    // Threads take stripes round-robin, once.
    static std::atomic<unsigned> next {0};
    thread_local const unsigned mine = next.fetch_add(1) % n_stripes;
    return stripes_[mine];
}

primitive_cache_t::write_lock_t::write_lock_t(const primitive_cache_t &c)
    : cache(c) {
    for (int i = 0; i < n_stripes; ++i) cache.stripes_[i].mutex.lock();
}

primitive_cache_t::write_lock_t::~write_lock_t() {
    for (int i = n_stripes - 1; i >= 0; --i) cache.stripes_[i].mutex.unlock();
}

int primitive_cache_t::capacity() const { return capacity_.load(); }

int primitive_cache_t::size() const {
    read_lock_t lock(my_stripe());
    return (int)map_.size();
}

status_t primitive_cache_t::set_capacity(int capacity) {
    if (capacity < 0) return dnnl_invalid_arguments;
#if DNNL_ENABLE_PRIMITIVE_CACHE
    write_lock_t lock(*this);
    capacity_ = capacity;
    replay_touches();
    evict_to((size_t)capacity);
#endif
    return dnnl_success;
}

size_t primitive_cache_t::set_capacity_without_clearing(size_t capacity) {
    write_lock_t lock(*this);
    size_t old = (size_t)capacity_.load();
    capacity_ = (int)capacity;
    return old;
}

// ---- recency ----

void primitive_cache_t::link_front(entry_t *e) {
    e->prev = nullptr;
    e->next = head_;
    if (head_) head_->prev = e;
    head_ = e;
    if (!tail_) tail_ = e;
    e->list_stamp = e->stamp.load(std::memory_order_relaxed);
}

void primitive_cache_t::unlink(entry_t *e) {
    if (e->prev) e->prev->next = e->next;
    else head_ = e->next;
    if (e->next) e->next->prev = e->prev;
    else tail_ = e->prev;
    e->prev = e->next = nullptr;
}

void primitive_cache_t::touch(entry_t *e) {
    // Writes to shared lines are what limits hits across cores: an entry
    // that already is the most recently used needs none.
    if (e->stamp.load(std::memory_order_relaxed)
            != clock_.load(std::memory_order_relaxed))
        e->stamp.store(++clock_, std::memory_order_relaxed);
    // One log record per entry between replays is enough: the replay reads
    // the entry's latest stamp.
    if (e->logged.load(std::memory_order_relaxed)
            || e->logged.exchange(true, std::memory_order_relaxed))
        return;
    size_t slot = touch_count_.fetch_add(1, std::memory_order_relaxed);
    if (slot < touch_log_size)
        touch_log_[slot].store(e, std::memory_order_relaxed);
}

void primitive_cache_t::replay_touches() {
    size_t n = touch_count_.exchange(0, std::memory_order_relaxed);
    if (n == 0) return;
    std::vector<entry_t *> touched;
    if (n > touch_log_size) {
        // The log overflowed: rebuild the whole order from the stamps.
        for (entry_t *e = head_; e; e = e->next) touched.push_back(e);
    } else {
        for (size_t i = 0; i < n; ++i)
            touched.push_back(touch_log_[i].exchange(nullptr));
    }
    std::sort(touched.begin(), touched.end(), [](entry_t *a, entry_t *b) {
        return a->stamp.load(std::memory_order_relaxed)
                < b->stamp.load(std::memory_order_relaxed);
    });
    for (entry_t *e : touched) {
        if (!e) continue;
        e->logged.store(false, std::memory_order_relaxed);
        unlink(e);
        link_front(e);
    }
}

void primitive_cache_t::erase_entry(entry_t *e) {
    unlink(e);
    bytes_ -= (int64_t)e->bytes;
    map_.erase(e->key);
    delete e;
}

void primitive_cache_t::evict_to(size_t capacity) {
    while (map_.size() > capacity && tail_) {
        erase_entry(tail_);
        ++evictions_;
    }
}

// ---- lookups ----

bool primitive_cache_t::lookup(const cache_key_t &key, result_t &ready,
        std::shared_future<result_t> &pending) {
    read_lock_t lock(my_stripe());
    auto it = map_.find(key);
    if (it == map_.end()) return false;
    entry_t *e = it->second;
    touch(e);
    if (e->ready)
        ready = e->result;
    else
        pending = e->future;
    return true;
}

std::shared_ptr<const primitive_desc_t> primitive_cache_t::peek(
        const cache_key_t &key) {
    if (capacity_.load(std::memory_order_relaxed) == 0) return nullptr;
    // A descriptor lookup, not a creation: statistics count creations
    // only, and a creation still in progress is not waited for.
    read_lock_t lock(my_stripe());
    auto it = map_.find(key);
    if (it == map_.end() || !it->second->ready) return nullptr;
    touch(it->second);
    return it->second->result.primitive->shared_pd();
}

primitive_cache_t::result_t primitive_cache_t::get_or_create(
        const cache_key_t &key, creator_f create, void *ctx, bool &hit) {
    hit = false;
    if (capacity_.load(std::memory_order_relaxed) == 0) {
        ++misses_;
        return create(ctx);
    }
    result_t r;
    std::shared_future<result_t> f;
    if (lookup(key, r, f)) {
        hit = true;
        my_stripe().hits.fetch_add(1, std::memory_order_relaxed);
        return f.valid() ? f.get() : r;
    }

    std::promise<result_t> promise;
    entry_t *mine = nullptr;
    uint64_t my_serial = 0;
    {
        write_lock_t lock(*this);
        replay_touches();
        auto it = map_.find(key);
        if (it != map_.end()) {
            touch(it->second);
            if (it->second->ready)
                r = it->second->result;
            else
                f = it->second->future;
            hit = true;
        } else if (capacity_.load() > 0) {
            mine = new entry_t();
            mine->key = key;
            if (!mine->key.owner && key.owner_pd)
                mine->key.owner = key.owner_pd->shared_self();
            mine->future = promise.get_future().share();
            mine->stamp = ++clock_;
            mine->serial = my_serial = ++serial_;
            map_.emplace(mine->key, mine);
            link_front(mine);
            evict_to((size_t)capacity_.load());
        }
    }
    if (hit) {
        my_stripe().hits.fetch_add(1, std::memory_order_relaxed);
        return f.valid() ? f.get() : r;
    }
    ++misses_;
    r = create(ctx);
    if (!mine) return r;
    promise.set_value(r);
    write_lock_t lock(*this);
    // The entry may have been evicted meanwhile (and another inserted for
    // the same key): only touch it if it is still the one we inserted.
    auto it = map_.find(key);
    if (it != map_.end() && it->second->serial == my_serial) {
        if (r.status != dnnl_success) {
            replay_touches();
            erase_entry(mine);
        } else {
            mine->result = r;
            mine->ready = true;
            mine->bytes = r.primitive->footprint();
            bytes_ += (int64_t)mine->bytes;
        }
    }
    return r;
}

bool primitive_cache_t::contains_primitive(const primitive_t *p) const {
    read_lock_t lock(my_stripe());
    for (const auto &kv : map_)
        if (kv.second->ready && kv.second->result.primitive.get() == p)
            return true;
    return false;
}

bool primitive_cache_t::contains_pd(const primitive_desc_t *pd) const {
    read_lock_t lock(my_stripe());
    for (const auto &kv : map_)
        if (kv.second->ready && kv.second->result.primitive->pd() == pd)
            return true;
    return false;
}

int64_t primitive_cache_t::hits() const {
    int64_t n = 0;
    for (int i = 0; i < n_stripes; ++i) n += stripes_[i].hits.load();
    return n;
}

cache_stats_t primitive_cache_t::stats() const {
    read_lock_t lock(my_stripe());
    return {(int64_t)map_.size(), (int64_t)capacity_.load(), hits(),
            misses_.load(), evictions_.load(), bytes_.load()};
}

void primitive_cache_t::reset_stats() {
    for (int i = 0; i < n_stripes; ++i) stripes_[i].hits = 0;
    misses_ = 0;
    evictions_ = 0;
}

} // namespace impl
} // namespace dnnl
