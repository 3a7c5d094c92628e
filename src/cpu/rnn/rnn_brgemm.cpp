// The RNN weight GEMMs on the BRGEMM kernels: tile kernels kept per
// primitive, and the threaded walk over (panel, row tile) units.
#include "cpu/rnn/rnn_brgemm.hpp"

#include <cstring>
#include <algorithm>

#include "cpu/rnn/rnn_exec.hpp"
#include "cpu/rnn/rnn_parallel.hpp"
#include "cpu/threading/threading.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace rnn {

namespace {

// Segments of a packed B (gates of the backward's W^T) one call takes.
constexpr dim_t max_segments = 8;

// The full tile's configuration over panels of nr columns, or false.
bool full_tile(int nr, jit::brgemm_config_t &c) {
    const jit::brgemm_target_t *t = jit::select_brgemm_target();
    if (!t || nr <= 0 || nr % t->lanes()) return false;
    const int nv = nr / t->lanes();
    // Accumulators, the B row and a broadcast in the register file; below
    // four rows a tile reloads too much B per FMA to beat the GEMM core.
    const int nregs = t->zmm ? 32 : 16;
    int m = (nregs - nv - 1) / nv;
    if (m > 12) m = 12;
    c = jit::brgemm_config(*t, m, nr);
    c.b_vecs = nv;
    return m >= 4 && c.supported();
}

} // namespace

int rnn_brgemm_t::tile_rows(int nr) {
    jit::brgemm_config_t c;
    return full_tile(nr, c) ? c.m : 0;
}

std::string rnn_brgemm_t::kernel_name(int nr) {
    jit::brgemm_config_t c;
    return full_tile(nr, c) ? jit::brgemm_kernel_name(c) : std::string();
}

bool rnn_brgemm_t::init(int nr) {
    jit::brgemm_config_t full;
    if (!full_tile(nr, full)) return false;
    target_ = jit::select_brgemm_target();
    nr_ = nr;
    tile_m_ = full.m;
    const int m = full.m;
    // The full tiles every GEMM of a cell runs; tails come on first use.
    for (int beta = 0; beta < 2; ++beta)
        for (bool bias : {false, true})
            if (!kernel(m, nr, beta, bias)) {
                target_ = nullptr;
                return false;
            }
    return true;
}

const jit::brgemm_kernel_t *rnn_brgemm_t::kernel(
        int m, int n, int beta, bool bias) const {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto &e : kernels_)
        if (e.m == m && e.n == n && e.beta == beta && e.bias == bias)
            return e.k.get();
    jit::brgemm_config_t c = jit::brgemm_config(*target_, m, n);
    c.b_vecs = nr_ / target_->lanes();
    c.beta = beta;
    c.bias = bias;
    std::shared_ptr<const jit::brgemm_kernel_t> k;
    bool hit = false;
    if (jit::get_brgemm_kernel(c, k, hit) != dnnl_success || !k)
        return nullptr;
    kernels_.push_back({m, n, beta, bias, k});
    return k.get();
}

dim_t rnn_brgemm_t::padded_ld(dim_t k) {
    const dim_t ld = (k + 15) / 16 * 16;
    return (ld * sizeof(float)) % 1024 ? ld : ld + 16;
}

bool rnn_brgemm_t::run(dim_t M, dim_t N, dim_t K, const mat_t &a,
        const mat_t &b, float *c, dim_t ldc, float beta, const float *bias,
        float *abuf, size_t abuf_elems) const {
    if (!target_ || !b.packed || b.dt != dnnl_f32 || a.dt != dnnl_f32
            || a.cs != 1 || (beta != 0.f && beta != 1.f))
        return false;
    if (M <= 0 || N <= 0) return true;
    const dim_t kseg = b.kseg > 0 ? b.kseg : K;
    if (K <= 0 || K % kseg || K / kseg > max_segments) return false;
    const int ibeta = beta != 0.f, tm = tile_m_, nr = nr_;
    const bool with_bias = bias != nullptr;
    const int m_tail = (int)(M % tm), n_tail = (int)(N % nr);
    // All of K in one call: the segments are the batch. (Blocks of K
    // with the panel's block kept in L2 measured no faster on GNMT and
    // DeepSpeech shapes, K up to 4 x 1024.)
    const dim_t nseg = K / kseg;
    // Kernels by [m tail][n tail]; a null kernel (the cache refused)
    // sends the call back to the GEMM core.
    const jit::brgemm_kernel_t *ks[2][2] = {};
    for (int mt = 0; mt < 2; ++mt)
        for (int nt = 0; nt < 2; ++nt) {
            const int m = mt ? m_tail : tm, n = nt ? n_tail : nr;
            if (m == 0 || n == 0) continue;
            ks[mt][nt] = kernel(m, n, ibeta, with_bias);
            if (!ks[mt][nt]) return false;
        }
    const dim_t seg_stride = b.kseg > 0 ? b.seg_stride : 0;
    const dim_t panel_elems = kseg * nr; // one panel of one segment
    const dim_t nb_m = (M + tm - 1) / tm, nb_n = (N + nr - 1) / nr;
    const float *A = static_cast<const float *>(a.p);
    const float *B = static_cast<const float *>(b.p);
    dim_t lda = a.rs;
    // Rows a multiple of 1 KB apart share L1 sets: a tile's twelve rows
    // streamed together then evict each other (a 1024-wide state ran 15%
    // slower than the GEMM core, which packs A). Copy A with a padded
    // stride first; it is read once per panel, so the copy is cheap.
    if ((lda * (dim_t)sizeof(float)) % 1024 == 0 && M > 1) {
        const dim_t ld = padded_ld(K);
        if (abuf && (size_t)(M * ld) <= abuf_elems) {
            parallel_range(M, M * K, [&](dim_t r0, dim_t r1) {
                for (dim_t r = r0; r < r1; ++r)
                    std::memcpy(abuf + r * ld, A + r * lda, K * sizeof(float));
            });
            A = abuf;
            lda = ld;
        }
    }
    // About 128 K multiply-adds a thread at least: a decoder step's GEMMs
    // of a small batch stay on the caller.
    const int nthr = nthr_for(M * N * K / ((dim_t)1 << 17), 1);
    // Panels split over the threads, a panel's row tiles in a row, so
    // the panel is read from memory once and from cache after.
    parallel_chunks(nthr, nb_n, [&](int, dim_t j0, dim_t j1) {
        jit::brgemm_batch_t batch[max_segments];
        jit::brgemm_args_t args {};
        args.batch = batch;
        args.bs = (size_t)nseg;
        args.k = (size_t)kseg;
        args.lda = (size_t)lda * sizeof(float);
        args.ldc = (size_t)ldc * sizeof(float);
        for (dim_t jb = j0; jb < j1; ++jb) {
            const dim_t n0 = jb * nr;
            const int nt = n0 + nr > N;
            const float *panel = B + jb * panel_elems;
            args.bias = bias ? bias + n0 : nullptr;
            for (dim_t mb = 0; mb < nb_m; ++mb) {
                const dim_t m0 = mb * tm;
                const int mt = m0 + tm > M;
                for (dim_t s = 0; s < nseg; ++s)
                    batch[s] = {A + m0 * lda + s * kseg, panel + s * seg_stride};
                args.c = c + m0 * ldc + n0;
                // C read back (beta 1): its rows are fetched while the
                // tile computes instead of after.
                if (ibeta)
                    for (int i = 0; i < (mt ? m_tail : tm); ++i) {
                        __builtin_prefetch(args.c + i * ldc);
                        __builtin_prefetch(args.c + i * ldc + nr - 1);
                    }
                ks[mt][nt]->fn(&args);
            }
        }
    });
    return true;
}

} // namespace rnn
} // namespace cpu
} // namespace impl
} // namespace dnnl
