// The code-generator base: prologue/epilogue, the constant pool and
// finalization (see jit_generator.hpp).
#include "cpu/jit/jit_generator.hpp"

#include <cstring>

#include "common/jit_profiling.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

using namespace Xbyak;

// The buffer is allocated writable only (DontSetProtectRWE); finalize()
// turns it read + execute, so no page is ever writable and executable.
jit_generator_t::jit_generator_t(
        std::string name, bool zmm, size_t max_code_bytes)
    : CodeGenerator(max_code_bytes, DontSetProtectRWE), name_(std::move(name)),
      zmm_(zmm) {}

Xmm jit_generator_t::vreg(int idx) const {
    if (zmm_) return Zmm(idx);
    return Ymm(idx);
}

static bool is_callee_saved(const Reg64 &r) {
    const int i = r.getIdx();
    return i == Operand::RBX || i == Operand::RBP || i >= Operand::R12;
}

void jit_generator_t::preamble(const std::vector<Reg64> &used) {
    saved_.clear();
    for (const auto &r : used)
        if (is_callee_saved(r)) saved_.push_back(r);
    for (const auto &r : saved_) push(r);
}

void jit_generator_t::postamble() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) pop(*it);
    vzeroupper();
    ret();
}

size_t jit_generator_t::pool_offset(const std::vector<uint32_t> &words) {
    // Entries are aligned to their own size (up to 32 bytes), so a vector
    // constant never straddles a cache line.
    const size_t step = words.size() < 8 ? words.size() : 8;
    for (size_t i = 0; i + words.size() <= pool_.size(); i += step)
        if (std::memcmp(&pool_[i], words.data(), words.size() * 4) == 0)
            return i * 4;
    while (pool_.size() % step) pool_.push_back(0);
    const size_t at = pool_.size();
    pool_.insert(pool_.end(), words.begin(), words.end());
    return at * 4;
}

static uint32_t bits_of(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
}

Address jit_generator_t::bcast_bits(uint32_t bits) {
    if (zmm_) return ptr_b[rip + pool_label_ + (int)pool_offset({bits})];
    return ptr[rip + pool_label_
               + (int)pool_offset(std::vector<uint32_t>(8, bits))];
}

Address jit_generator_t::bcast(float v) {
    return bcast_bits(bits_of(v));
}

Address jit_generator_t::scalar(float v) {
    return dword[rip + pool_label_ + (int)pool_offset({bits_of(v)})];
}

Address jit_generator_t::table(const std::vector<uint32_t> &words) {
    return ptr[rip + pool_label_ + (int)pool_offset(words)];
}

void jit_generator_t::load_const(const Xmm &v, float f) {
    vbroadcastss(v, scalar(f));
}

const void *jit_generator_t::finalize() {
    if (entry_) return entry_;
    align(64);
    L(pool_label_);
    for (uint32_t w : pool_) dd(w);
    ready();
    setProtectModeRE();
    entry_ = getCode();
    jit_register_code(name_, entry_, getSize());
    return entry_;
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
