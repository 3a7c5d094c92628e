// ONEDNN_DEFAULT_FPMATH_MODE / DNNL_DEFAULT_FPMATH_MODE set the default
// fpmath mode of new attributes (ONEDNN_ wins), as in oneDNN. CTest runs
// this suite with the variables set (tests/CMakeLists.txt); without them
// it is skipped.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;

TEST(FpmathEnv, DefaultFromEnvironment) {
    const char *want = std::getenv("FPMATH_ENV_EXPECT");
    if (!want) GTEST_SKIP() << "run by CTest with the variables set";
    const std::string w = want;
    const fpmath_mode expect = w == "bf16" ? fpmath_mode::bf16
            : w == "any"                   ? fpmath_mode::any
                                           : fpmath_mode::strict;
    EXPECT_EQ(get_default_fpmath_mode(), expect);
    primitive_attr attr;
    EXPECT_EQ(attr.get_fpmath_mode(), expect);
    // The setter still overrides it.
    set_default_fpmath_mode(fpmath_mode::strict);
    EXPECT_EQ(primitive_attr().get_fpmath_mode(), fpmath_mode::strict);
    set_default_fpmath_mode(expect);
}

} // namespace
