// Implementation names follow code paths: problems one implementation runs
// on the same code report one name (binary's broadcasts, as oneDNN 3.13's
// jit:uni covers every broadcast), a genuinely different path another.
#include <string>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl.hpp"

namespace {

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

std::string binary_name(const memory::desc &a, const memory::desc &b) {
    engine eng(engine::kind::cpu, 0);
    return binary::primitive_desc(eng, algorithm::binary_add, a, b, a)
            .impl_info_str();
}

TEST(ImplNames, BinaryNamesFollowCodePaths) {
    const memory::dims d = {2, 16, 8, 8};
    const memory::desc full(d, dt::f32, tag::nchw),
            per_channel({1, 16, 1, 1}, dt::f32, tag::nchw),
            scalar({1, 1, 1, 1}, dt::f32, tag::nchw),
            blocked(d, dt::f32, tag::nChw16c);
    const std::string same = binary_name(full, full);
    // Broadcasts run the same row kernels over the destination's loops.
    EXPECT_EQ(binary_name(full, per_channel), same);
    EXPECT_EQ(binary_name(full, scalar), same);
    // A source whose layout is not linear in the destination's loops goes
    // through offset tables: another path, another name.
    EXPECT_NE(binary_name(full, blocked), same);
}

} // namespace
