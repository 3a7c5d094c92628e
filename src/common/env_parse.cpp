// Parsers of environment variable values (see env_parse.hpp).
#include "common/env_parse.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "common/verbose.hpp"

namespace dnnl {
namespace impl {

unsigned parse_verbose(const std::string &value) {
    unsigned flags = vflag_error;
    size_t pos = 0;
    while (pos <= value.size()) {
        size_t end = value.find(',', pos);
        if (end == std::string::npos) end = value.size();
        std::string tok = value.substr(pos, end - pos);
        pos = end + 1;
        if (tok.empty()) continue;
        if (tok == "0" || tok == "none") flags = 0;
        else if (tok == "1") flags |= vflag_error | vflag_exec_profile | vflag_warn;
        else if (tok == "2")
            flags |= vflag_error | vflag_exec_profile
                    | vflag_create_profile | vflag_warn;
        else if (tok == "all")
            flags |= vflag_error | vflag_create_check
                    | vflag_create_dispatch | vflag_create_profile
                    | vflag_exec_profile | vflag_warn;
        else if (tok == "error") flags |= vflag_error;
        else if (tok == "warn") flags |= vflag_warn;
        else if (tok == "check") flags |= vflag_create_check;
        else if (tok == "dispatch") flags |= vflag_create_dispatch;
        else if (tok == "profile_create") flags |= vflag_create_profile;
        else if (tok == "profile_exec") flags |= vflag_exec_profile;
        else if (tok == "profile")
            flags |= vflag_create_profile | vflag_exec_profile;
        else if (tok.compare(0, 10, "debuginfo=") == 0) {
            // Debug detail level: accepted, no extra output in this library.
        } else if (tok.find_first_not_of("0123456789") == std::string::npos) {
            flags |= vflag_error | vflag_exec_profile
                    | vflag_create_profile | vflag_warn;
        }
        if (end == value.size()) break;
    }
    return flags;
}

bool parse_capacity(const std::string &value, int &capacity) {
    if (value.empty()) return false;
    errno = 0;
    char *end = nullptr;
    const long long c = std::strtoll(value.c_str(), &end, 10);
    // The whole string must be the number: strtoll stops at an embedded
    // NUL (fuzz_env found "\0" read as 0) and reads nothing from blanks.
    if (errno != 0 || end == value.c_str()
            || end != value.c_str() + value.size() || c < 0 || c > (1LL << 30))
        return false;
    capacity = (int)c;
    return true;
}

bool parse_fpmath_mode(const std::string &value, int &mode) {
    std::string v;
    for (char c : value)
        v += (char)std::tolower((unsigned char)c);
    static const struct {
        const char *name;
        int mode;
    } modes[] = {{"strict", dnnl_fpmath_mode_strict},
            {"bf16", dnnl_fpmath_mode_bf16}, {"f16", dnnl_fpmath_mode_f16},
            {"tf32", dnnl_fpmath_mode_tf32}, {"any", dnnl_fpmath_mode_any}};
    for (const auto &m : modes)
        if (v == m.name) {
            mode = m.mode;
            return true;
        }
    return false;
}

} // namespace impl
} // namespace dnnl
