// Parsers of environment variable values (common/env_parse.cpp, compiled
// into this binary), with the inputs fuzz_env found.
#include <gtest/gtest.h>

#include <string>

#include "common/env_parse.hpp"

using namespace dnnl::impl;

TEST(EnvParse, CapacityIsTheWholeString) {
    int c = -1;
    EXPECT_TRUE(parse_capacity("1024", c));
    EXPECT_EQ(c, 1024);
    EXPECT_TRUE(parse_capacity(" +7", c)); // strtol's blanks and sign
    EXPECT_EQ(c, 7);
    c = -1;
    // fuzz_env: a lone NUL was read as capacity 0; a NUL after the digits
    // hid what follows.
    EXPECT_FALSE(parse_capacity(std::string("\0", 1), c));
    EXPECT_FALSE(parse_capacity(std::string("12\0abc", 6), c));
    EXPECT_FALSE(parse_capacity(" ", c));
    EXPECT_FALSE(parse_capacity("12abc", c));
    EXPECT_FALSE(parse_capacity("-3", c));
    EXPECT_FALSE(parse_capacity("1073741825", c));
    EXPECT_FALSE(parse_capacity("99999999999999999999999", c));
    EXPECT_EQ(c, -1);
}
