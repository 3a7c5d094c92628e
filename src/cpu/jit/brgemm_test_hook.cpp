// Test hook of the BRGEMM microkernels (exported as dnnl_test_*):
// tests/cpu/test_brgemm.cpp generates the kernel of any configuration on
// any table entry the processor supports, afresh or through the kernel
// cache, calls it with its own arguments and reads its bytes.
#include <memory>

#include "cpu/jit/brgemm_test_hook.hpp"

using namespace dnnl::impl::cpu;
using namespace dnnl::impl::cpu::jit;

const void *dnnl_test_brgemm_kernel(int entry, int m, int n, int b_vecs,
        int k_unroll, int beta, int bias, int c_dt, int bias_dt, int scale,
        int a_kmajor, const brgemm_post_op_t *po, int n_po, int through_cache,
        unsigned *isa, int *in_dt, int *panel, int *tile_m, brgemm_fn *fn,
        const unsigned char **code, size_t *code_size) {
    const auto &table = brgemm_table();
    if (entry < 0 || (size_t)entry >= table.size()) return nullptr;
    const brgemm_target_t &t = *table[(size_t)entry].kernels;
    if (in_dt) *in_dt = (int)t.in_dt;
    brgemm_config_t c = brgemm_config(t, m, n);
    if (b_vecs > 0) c.b_vecs = b_vecs;
    c.k_unroll = k_unroll;
    c.beta = beta;
    c.bias = bias != 0;
    if (c_dt) c.c_dt = (dnnl_data_type_t)c_dt;
    if (bias_dt) c.bias_dt = (dnnl_data_type_t)bias_dt;
    c.scale = (brgemm_scale_t)scale;
    c.a_kmajor = a_kmajor != 0;
    c.post_ops.assign(po, po + n_po);
    std::shared_ptr<const brgemm_kernel_t> k;
    if (through_cache) {
        bool hit = false;
        if (get_brgemm_kernel(c, k, hit) != dnnl_success) return nullptr;
    } else {
        std::shared_ptr<brgemm_kernel_t> fresh;
        if (generate_brgemm_kernel(c, fresh) != dnnl_success) return nullptr;
        k = fresh;
    }
    if (isa) *isa = t.isa;
    if (panel) *panel = c.b_vecs * t.lanes();
    if (tile_m) *tile_m = t.tile_m;
    if (fn) *fn = k->fn;
    if (code) *code = reinterpret_cast<const unsigned char *>(k->fn);
    if (code_size) *code_size = k->code_size;
    return new std::shared_ptr<const brgemm_kernel_t>(std::move(k));
}

void dnnl_test_brgemm_release(const void *handle) {
    delete static_cast<const std::shared_ptr<const brgemm_kernel_t> *>(handle);
}
