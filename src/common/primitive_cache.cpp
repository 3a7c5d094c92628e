// The global primitive cache: its key (hash, equality, construction from
// a descriptor), the capacity read from the environment, and the
// primitive-specific operations over the LRU cache template.
#include "common/primitive_cache.hpp"

#include "common/cache/capacity_env.hpp"

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

cache_key_t make_cache_key(const primitive_desc_t &pd, engine_t *engine) {
    cache_key_t k;
    k.kind = pd.kind();
    k.op = pd.op_desc();
    k.attr = &pd.key_attr();
    k.impl_id = pd.impl_id();
    k.nthr = engine->max_threads();
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
    k.nthr = engine->max_threads();
    k.hint_mds = &hint_mds;
    k.engine_id = engine->engine_id();
    k.compute_hash(cache_key_content_hash(op, attr, hint_mds));
    return k;
}

// ---- the cache ----

// The default, or the first valid of the two variables; 0 when the cache
// is compiled out.
static int initial_capacity() {
#if DNNL_ENABLE_PRIMITIVE_CACHE
    return capacity_from_env("primitive cache",
            {"ONEDNN_PRIMITIVE_CACHE_CAPACITY", "DNNL_PRIMITIVE_CACHE_CAPACITY"},
            1024);
#else
    return 0;
#endif
}

primitive_cache_t &primitive_cache_t::instance() {
    // Never destroyed: primitives may be released from static destructors
    // of user code after this translation unit's statics are gone.
    static primitive_cache_t *cache = new primitive_cache_t(initial_capacity());
    return *cache;
}

cache_key_t primitive_cache_t::traits_t::stored_key(const cache_key_t &key) {
    cache_key_t k = key;
    if (!k.owner && k.owner_pd) k.owner = k.owner_pd->shared_self();
    return k;
}

status_t primitive_cache_t::set_capacity(int capacity) {
    if (capacity < 0) return dnnl_invalid_arguments;
#if DNNL_ENABLE_PRIMITIVE_CACHE
    return lru_.set_capacity(capacity);
#else
    return dnnl_success; // compiled out: the capacity stays 0
#endif
}

size_t primitive_cache_t::set_capacity_without_clearing(size_t capacity) {
    return (size_t)lru_.set_capacity_without_clearing((int)capacity);
}

primitive_cache_t::result_t primitive_cache_t::get_or_create(
        const cache_key_t &key, creator_f create, void *ctx, bool &hit) {
    return lru_.get_or_create(key, [&] { return create(ctx); }, hit);
}

std::shared_ptr<const primitive_desc_t> primitive_cache_t::peek(
        const cache_key_t &key) {
    std::shared_ptr<const primitive_desc_t> pd;
    lru_.peek(key, [&](const result_t &r) { pd = r.primitive->shared_pd(); });
    return pd;
}

bool primitive_cache_t::contains_primitive(const primitive_t *p) const {
    return lru_.any_ready(
            [&](const result_t &r) { return r.primitive.get() == p; });
}

bool primitive_cache_t::contains_pd(const primitive_desc_t *pd) const {
    return lru_.any_ready(
            [&](const result_t &r) { return r.primitive->pd() == pd; });
}

} // namespace impl
} // namespace dnnl
