// CPU ISA detection (Xbyak's cpuid reader plus a few leaves it does not
// decode), the max-ISA / hints settings and the ISA names.
#include "cpu/cpu_isa.hpp"

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "cpu/xbyak_include.hpp"

namespace dnnl {
namespace impl {
namespace cpu {

namespace {

// A value that may be set once, and only before it is first read. A read
// that is not `soft` locks it too.
class set_once_setting_t {
public:
    explicit set_once_setting_t(unsigned v) : value_(v) {}

    bool set(unsigned v) {
        for (;;) {
            unsigned st = idle;
            if (state_.compare_exchange_weak(st, busy)) break;
            if (st == locked) return false;
        }
        value_.store(v);
        state_.store(locked);
        return true;
    }

    unsigned get(bool soft) {
        if (!soft) {
            for (;;) {
                unsigned st = idle;
                if (state_.compare_exchange_weak(st, locked)) break;
                if (st == locked) break;
                // busy: another thread is setting; wait for it
            }
        } else {
            while (state_.load() == busy) {}
        }
        return value_.load();
    }

private:
    enum : unsigned { idle = 0, busy = 1, locked = 2 };
    std::atomic<unsigned> value_;
    std::atomic<unsigned> state_{idle};
};

std::string env_lower(const char *suffix) {
    for (const char *prefix : {"ONEDNN_", "DNNL_"}) {
        std::string name = std::string(prefix) + suffix;
        const char *v = std::getenv(name.c_str());
        if (v && *v) {
            std::string s(v);
            for (auto &c : s) c = (char)std::tolower((unsigned char)c);
            return s;
        }
    }
    return std::string();
}

set_once_setting_t &max_isa_setting() {
    static set_once_setting_t setting([] {
        unsigned mask = isa_all;
        const std::string v = env_lower("MAX_CPU_ISA");
        if (!v.empty() && !isa_from_name(v, mask)) mask = isa_all;
        return mask;
    }());
    return setting;
}

set_once_setting_t &hints_setting() {
    static set_once_setting_t setting([] {
        const std::string v = env_lower("CPU_ISA_HINTS");
        return unsigned(v == "prefer_ymm" ? dnnl_cpu_isa_prefer_ymm
                                          : dnnl_cpu_isa_no_hints);
    }());
    return setting;
}

// Linux needs a permission request before AMX tile data may be used.
bool amx_os_enabled() {
    static const bool enabled = [] {
#if defined(__linux__) && defined(SYS_arch_prctl)
        const long get_perm = 0x1022, req_perm = 0x1023;
        const unsigned long xtiledata = 18;
        unsigned long bitmask = 0;
        if (syscall(SYS_arch_prctl, get_perm, &bitmask) != 0) return false;
        if (bitmask & (1ul << xtiledata)) return true;
        if (syscall(SYS_arch_prctl, req_perm, xtiledata) != 0) return false;
        if (syscall(SYS_arch_prctl, get_perm, &bitmask) != 0) return false;
        return (bitmask & (1ul << xtiledata)) != 0;
#else
        return false;
#endif
    }();
    return enabled;
}

void cpuid(unsigned leaf, unsigned sub, unsigned r[4]) {
    Xbyak::util::Cpu::getCpuidEx(leaf, sub, r);
}

unsigned max_cpuid_leaf() {
    unsigned r[4] = {};
    cpuid(0, 0, r);
    return r[0];
}

// AVX10 converged-ISA version (0 when absent).
unsigned avx10_version() {
    if (max_cpuid_leaf() < 0x24) return 0;
    unsigned r[4] = {};
    cpuid(7, 1, r);
    if (!(r[3] & (1u << 19))) return 0;
    cpuid(0x24, 0, r);
    return r[1] & 0xffu;
}

bool has_amx_fp8() {
    if (max_cpuid_leaf() < 0x1e) return false;
    unsigned r[4] = {};
    cpuid(0x1e, 1, r);
    return (r[0] & (1u << 4)) != 0;
}

bool detect(cpu_isa_t isa) {
    using C = Xbyak::util::Cpu;
    const C &c = xbyak_cpu();
    switch (isa) {
    case sse41:
        return c.has(C::tSSE41);
    case avx:
        return c.has(C::tAVX);
    case avx2:
        return c.has(C::tAVX2);
    case avx2_vnni:
        return detect(avx2) && c.has(C::tAVX_VNNI);
    case avx2_vnni_2:
        return detect(avx2_vnni) && c.has(C::tAVX_VNNI_INT8)
               && c.has(C::tAVX_NE_CONVERT);
    case avx512_core:
        return c.has(C::tAVX512F) && c.has(C::tAVX512BW) && c.has(C::tAVX512VL)
               && c.has(C::tAVX512DQ);
    case avx512_core_vnni:
        return detect(avx512_core) && c.has(C::tAVX512_VNNI);
    case avx512_core_bf16:
        return detect(avx512_core_vnni) && c.has(C::tAVX512_BF16);
    case avx10_1_512:
        return detect(avx512_core_bf16) && c.has(C::tAVX512_FP16)
               && detect(avx2_vnni);
    case avx10_1_512_amx:
        return detect(avx10_1_512) && c.has(C::tAMX_TILE) && c.has(C::tAMX_INT8)
               && c.has(C::tAMX_BF16) && amx_os_enabled();
    case avx10_1_512_amx_fp16:
        return detect(avx10_1_512_amx) && c.has(C::tAMX_FP16);
    case avx10_2:
        return detect(avx10_1_512) && detect(avx2_vnni_2)
               && avx10_version() >= 2;
    case avx10_2_amx_2:
        return detect(avx10_2) && detect(avx10_1_512_amx) && has_amx_fp8();
    default:
        return false;
    }
}

struct isa_entry_t {
    cpu_isa_t isa;
    const char *name;
    const char *alias;
    const char *description;
};

// Best first.
const isa_entry_t isa_table[] = {
        {avx10_2_amx_2, "avx10_2_amx_2", "avx10_2_512_amx_2",
                "Intel AVX10.2 with Intel AMX (float8, float16, bfloat16 and "
                "8-bit integer)"},
        {avx10_2, "avx10_2", "avx10_2_512", "Intel AVX10.2"},
        {avx10_1_512_amx_fp16, "avx10_1_512_amx_fp16", "avx512_core_amx_fp16",
                "Intel AVX-512 with float16, Intel DL Boost and bfloat16 "
                "support and Intel AMX with bfloat16, float16 and 8-bit "
                "integer support"},
        {avx10_1_512_amx, "avx10_1_512_amx", "avx512_core_amx",
                "Intel AVX-512 with float16, Intel DL Boost and bfloat16 "
                "support and Intel AMX with bfloat16 and 8-bit integer "
                "support"},
        {avx10_1_512, "avx10_1_512", "avx512_core_fp16",
                "Intel AVX-512 with float16, Intel DL Boost and bfloat16 "
                "support"},
        {avx512_core_bf16, "avx512_core_bf16", nullptr,
                "Intel AVX-512 with Intel DL Boost and bfloat16 support"},
        {avx512_core_vnni, "avx512_core_vnni", nullptr,
                "Intel AVX-512 with Intel DL Boost"},
        {avx512_core, "avx512_core", nullptr,
                "Intel AVX-512 with AVX512BW, AVX512VL, and AVX512DQ "
                "extensions"},
        {avx2_vnni_2, "avx2_vnni_2", nullptr,
                "Intel AVX2 with Intel DL Boost, float16 and bfloat16 support"},
        {avx2_vnni, "avx2_vnni", nullptr, "Intel AVX2 with Intel DL Boost"},
        {avx2, "avx2", nullptr, "Intel AVX2"},
        {avx, "avx", nullptr, "Intel AVX"},
        {sse41, "sse41", nullptr, "Intel SSE4.1"},
};

} // namespace

const Xbyak::util::Cpu &xbyak_cpu() {
    static const Xbyak::util::Cpu cpu;
    return cpu;
}

bool cpu_has_fma() {
    return xbyak_cpu().has(Xbyak::util::Cpu::tFMA);
}
bool cpu_has_f16c() {
    return xbyak_cpu().has(Xbyak::util::Cpu::tF16C);
}

bool cpu_has_isa(cpu_isa_t isa) {
    // Detection is cheap but not free; remember the answers.
    static const unsigned supported = [] {
        unsigned bits = 0;
        for (const auto &e : isa_table)
            if (detect(e.isa)) bits |= 1u << (&e - isa_table);
        return bits;
    }();
    for (const auto &e : isa_table)
        if (e.isa == isa) return (supported >> (&e - isa_table)) & 1u;
    return false;
}

unsigned get_max_cpu_isa_mask(bool soft) {
    return max_isa_setting().get(soft);
}

bool mayiuse(cpu_isa_t isa, bool soft) {
    if (isa == isa_undef) return true;
    const unsigned mask = get_max_cpu_isa_mask(soft);
    if ((mask & unsigned(isa)) != unsigned(isa)) return false;
    return cpu_has_isa(isa);
}

cpu_isa_t get_max_cpu_isa(bool soft) {
    for (const auto &e : isa_table)
        if (mayiuse(e.isa, soft)) return e.isa;
    return isa_undef;
}

dnnl_cpu_isa_hints_t get_cpu_isa_hints(bool soft) {
    return (dnnl_cpu_isa_hints_t)hints_setting().get(soft);
}

bool prefer_ymm(bool soft) {
    return get_cpu_isa_hints(soft) == dnnl_cpu_isa_prefer_ymm;
}

status_t set_max_cpu_isa(dnnl_cpu_isa_t isa) {
    unsigned mask = 0;
    if (isa == dnnl_cpu_isa_default) {
        mask = isa_all;
    } else {
        bool known = false;
        for (const auto &e : isa_table)
            if (unsigned(e.isa) == unsigned(isa)) known = true;
        if (!known) return dnnl_invalid_arguments;
        mask = unsigned(isa);
    }
    return max_isa_setting().set(mask) ? dnnl_success : dnnl_invalid_arguments;
}

status_t set_cpu_isa_hints(dnnl_cpu_isa_hints_t hints) {
    return hints_setting().set(unsigned(hints)) ? dnnl_success
                                                : dnnl_runtime_error;
}

const char *isa_name(cpu_isa_t isa) {
    for (const auto &e : isa_table)
        if (e.isa == isa) return e.name;
    return "any";
}

const char *isa_description(cpu_isa_t isa) {
    for (const auto &e : isa_table)
        if (e.isa == isa) return e.description;
    return "Intel 64";
}

bool isa_from_name(const std::string &name, unsigned &mask) {
    std::string n(name);
    for (auto &c : n) c = (char)std::tolower((unsigned char)c);
    if (n == "default" || n == "all") {
        mask = isa_all;
        return true;
    }
    for (const auto &e : isa_table) {
        if (n == e.name || (e.alias && n == e.alias)) {
            mask = unsigned(e.isa);
            return true;
        }
    }
    return false;
}

} // namespace cpu
} // namespace impl
} // namespace dnnl
