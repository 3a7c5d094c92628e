// Fuzz target: the parsers of environment variable values (ONEDNN_VERBOSE,
// the cache capacities, ONEDNN_MAX_CPU_ISA), compiled in from the library's
// sources (they are internal). Beyond not crashing: a parse is a pure
// function (same answer twice), capacities come back in [0, 2^30] and equal
// the decimal value they spell, verbose flags stay within the known bits,
// and an ISA name is accepted exactly when it names a table entry or
// default/all, whatever its case.

#include <fuzzer/FuzzedDataProvider.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/env_parse.hpp"
#include "common/verbose.hpp"
#include "cpu/cpu_isa.hpp"

#define FUZZ_CHECK(cond) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "invariant failed: %s\n", #cond); \
            std::abort(); \
        } \
    } while (0)

using namespace dnnl::impl;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzedDataProvider in(data, size);
    const int which = in.ConsumeIntegralInRange(0, 2);
    const std::string v = in.ConsumeRemainingBytesAsString();
    switch (which) {
        case 0: {
            const unsigned f = parse_verbose(v);
            FUZZ_CHECK(f == parse_verbose(v));
            const unsigned known = vflag_error | vflag_create_check
                    | vflag_create_dispatch | vflag_create_profile
                    | vflag_exec_profile | vflag_warn;
            FUZZ_CHECK((f & ~known) == 0);
            break;
        }
        case 1: {
            int c = -1;
            const bool ok = parse_capacity(v, c);
            if (ok) {
                FUZZ_CHECK(c >= 0 && c <= (1 << 30));
                // The value is what the digits spell (after strtol's blanks
                // and sign).
                long long spelled = 0;
                bool digits = false;
                for (char ch : v) {
                    if (std::isdigit((unsigned char)ch)) {
                        digits = true;
                        spelled = spelled * 10 + (ch - '0');
                        if (spelled > (1LL << 31)) break;
                    }
                }
                FUZZ_CHECK(digits && spelled == c);
            } else {
                FUZZ_CHECK(c == -1);
            }
            break;
        }
        default: {
            unsigned mask = 0x5a5a;
            const bool ok = cpu::isa_from_name(v, mask);
            unsigned again = 0;
            FUZZ_CHECK(ok == cpu::isa_from_name(v, again));
            if (ok) FUZZ_CHECK(mask == again);
            else FUZZ_CHECK(mask == 0x5a5a);
            // Case does not matter.
            std::string upper = v;
            for (auto &ch : upper) ch = (char)std::toupper((unsigned char)ch);
            unsigned m2 = 0;
            FUZZ_CHECK(ok == cpu::isa_from_name(upper, m2));
        }
    }
    return 0;
}
