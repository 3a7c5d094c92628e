// The graph API is declared (dnnl_graph.h, dnnl_graph_types.h) and
// exported, so programs built for oneDNN link and load, and answers every
// call with dnnl_unimplemented, leaving output handles alone.
#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.h"

TEST(GraphApi, DeclaredExportedAndUnimplemented) {
    dnnl_graph_graph_t g = nullptr;
    EXPECT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_unimplemented);
    EXPECT_EQ(g, nullptr);
    dnnl_graph_op_t op = nullptr;
    EXPECT_EQ(dnnl_graph_op_create(&op, 0, dnnl_graph_op_matmul, "mm"),
            dnnl_unimplemented);
    EXPECT_EQ(op, nullptr);
    dnnl_graph_logical_tensor_t lt;
    const dnnl_dims_t dims = {2, 3};
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&lt, 1, dnnl_f32, 2, dims,
                      dnnl_graph_layout_type_strided, dnnl_graph_tensor_property_undef),
            dnnl_unimplemented);
    int capacity = -1;
    EXPECT_EQ(dnnl_graph_get_compiled_partition_cache_capacity(&capacity),
            dnnl_unimplemented);
    EXPECT_EQ(capacity, -1);
    // The types keep oneDNN's values.
    EXPECT_EQ(DNNL_GRAPH_UNKNOWN_NDIMS, -1);
}
