// The BRGEMM microkernel generator (f32 FMAs, bf16 dot products of k
// pairs): the reduction loop over batch elements and K (unrolled), the
// epilogue that finishes each tile (beta, bias, post-op chain, conversion
// and masked tail stores), the kernel-cache key and the ISA table.
#include "cpu/jit/brgemm_kernel.hpp"

#include <cstddef>
#include <cstring>
#include <functional>

#include "common/verbose.hpp"
#include "cpu/jit/eltwise_injector.hpp"
#include "cpu/jit/jit_generator.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

const isa_table_t<brgemm_target_t> &brgemm_table() {
    // AVX-512: 6 x 4 zmm accumulators (24) + 4 B vectors + 2 broadcasts,
    // for f32 FMAs and for bf16 pairs (vdpbf16ps: 16 columns x 2 k per B
    // vector); AVX2: 4 x 3 ymm accumulators (12) + 3 B vectors + 1
    // broadcast.
    static const brgemm_target_t avx512_bf16{
            avx512_core_bf16, "avx512_core_bf16", true, 6, 4, dnnl_bf16};
    static const brgemm_target_t avx512{avx512_core, "avx512_core", true, 6, 4};
    static const brgemm_target_t avx2_{avx2, "avx2", false, 4, 3};
    static const isa_table_t<brgemm_target_t> table{
            {avx512_core_bf16, &avx512_bf16}, {avx512_core, &avx512},
            {avx2, &avx2_}};
    return table;
}

const brgemm_target_t *select_brgemm_target(data_type_t in_dt) {
    // isa_select over the entries of this input type.
    for (const auto &e : brgemm_table())
        if (e.kernels->in_dt == in_dt && isa_entry_may_run(e.isa))
            return e.kernels;
    return nullptr;
}

namespace {

using namespace Xbyak;

// Rows of A are addressed from base registers, three rows each (base,
// base + lda, base + 2 lda): four bases, twelve rows (a 12 x 2-vector
// tile fills the AVX-512 register file as well as 6 x 4).
constexpr int rows_per_base = 3;
constexpr int max_rows = 12;

bool binary_alg_ok(alg_kind_t a) {
    return a == dnnl_binary_add || a == dnnl_binary_sub || a == dnnl_binary_mul
           || a == dnnl_binary_div || a == dnnl_binary_max
           || a == dnnl_binary_min;
}

bool has_eltwise(const brgemm_config_t &c) {
    for (const auto &p : c.post_ops)
        if (p.kind == brgemm_post_op_t::eltwise) return true;
    return false;
}

int n_vregs(const brgemm_config_t &c) {
    return c.zmm ? 32 : 16;
}

// Vector registers the epilogue needs besides the value it works on:
// the injector's scratch (and, on AVX2, its mask), an operand register,
// and on AVX2 the tail mask.
int epilogue_extra(const brgemm_config_t &c) {
    int n = 1 + (c.zmm ? 0 : 1);
    if (has_eltwise(c)) n += eltwise_injector_t::n_scratch + (c.zmm ? 0 : 1);
    return n;
}

class brgemm_generator_t : public jit_generator_t {
public:
    explicit brgemm_generator_t(const brgemm_config_t &cfg)
        : jit_generator_t(brgemm_kernel_name(cfg), cfg.zmm, 64 * 1024),
          c_(cfg) {}

    void generate() {
        std::vector<Reg64> used;
        for (int b = 1; b < n_bases(); ++b) used.push_back(a_base(b));
        preamble(used);
        for (int r = 0; r < n_acc(); ++r) {
            const Xmm a = vreg(r);
            vxorps(a, a, a);
        }
        reduction();
        epilogue();
        postamble();
    }

private:
    // A field of the kernel's argument (rdi), by its offset.
    Address arg(size_t off) const { return ptr[rdi + off]; }
    int n_acc() const { return c_.m * c_.nv; }
    Xmm acc(int i, int j) const { return vreg(i * c_.nv + j); }
    int vb() const { return vlen_bytes(); }
    bool tail(int j) const { return c_.n_tail && j == c_.nv - 1; }
    bool bf16_in() const { return c_.a_dt == dnnl_bf16; }
    bool bf16_c() const { return c_.c_dt == dnnl_bf16; }
    // Bytes of one vector of C's or the bias's type (bf16: half).
    int c_vb() const { return bf16_c() ? vb() / 2 : vb(); }
    int bias_vb() const { return c_.bias_dt == dnnl_bf16 ? vb() / 2 : vb(); }

    // The base register of rows [3b, 3b + 3) of A (rbx and r12 are
    // callee-saved: the preamble keeps them for tiles of more than six rows).
    Reg64 a_base(int b) const {
        const Reg64 bases[] = {rax, r11, rbx, r12};
        return bases[b];
    }
    int n_bases() const { return (c_.m + rows_per_base - 1) / rows_per_base; }
    // Row i of A, stride r9.
    RegExp a_row(int i, int byte_off) const {
        const Reg64 base = a_base(i / rows_per_base);
        const int r = i % rows_per_base;
        if (r == 0) return base + byte_off;
        return base + r9 * r + byte_off;
    }
    // Moves every base register `bytes` along the rows.
    void advance_a(int bytes) {
        for (int b = 0; b < n_bases(); ++b) add(a_base(b), bytes);
    }

    // One k step (f32: one k; bf16: a pair of k, 4 bytes of A either
    // way) at A byte offset 4u and B row u. `odd` is bf16's last single
    // k: A's element is read alone and zero-extended (the one after it
    // may be past the buffer), and B's second row of the pair (padding)
    // is masked off by k6, so what lies there never reaches C.
    void fma_step(int u, bool odd = false) {
        const int b0 = n_acc();
        const int nbc = n_vregs(c_) - (b0 + c_.nv) >= 2 ? 2 : 1;
        for (int j = 0; j < c_.nv; ++j) {
            const Address b = ptr[rsi + (u * c_.b_vecs + j) * vb()];
            if (odd)
                vmovdqu16(Zmm(b0 + j) | k6 | T_z, b);
            else
                vmovups(vreg(b0 + j), b);
        }
        for (int i = 0; i < c_.m; ++i) {
            const Xmm bc = vreg(b0 + c_.nv + i % nbc);
            if (odd) {
                movzx(ecx, word[a_row(i, 0)]);
                vpbroadcastd(bc, ecx);
            } else {
                vbroadcastss(bc, ptr[a_row(i, u * 4)]);
            }
            for (int j = 0; j < c_.nv; ++j) {
                if (bf16_in())
                    vdpbf16ps(Zmm(acc(i, j).getIdx()), Zmm(b0 + j),
                            Zmm(bc.getIdx()));
                else
                    vfmadd231ps(acc(i, j), vreg(b0 + j), bc);
            }
        }
    }

    // for each batch element: for k in K step k_unroll, then single steps
    // (bf16: steps of k pairs, then the odd k).
    void reduction() {
        Label batch_loop, k_loop, k_single, k_odd, k_next, done;
        const int U = c_.k_unroll;
        const int row_bytes = c_.b_vecs * vb();
        mov(rdx, arg(offsetof(brgemm_args_t, batch)));
        mov(r8, arg(offsetof(brgemm_args_t, bs)));
        mov(r9, arg(offsetof(brgemm_args_t, lda)));
        mov(r10, arg(offsetof(brgemm_args_t, k)));
        if (bf16_in()) {
            mov(eax, 0x55555555u); // the first row of each pair of B
            kmovd(k6, eax);
        }
        L(batch_loop);
        test(r8, r8);
        jz(done, T_NEAR);
        mov(rax, ptr[rdx + offsetof(brgemm_batch_t, a)]);
        mov(rsi, ptr[rdx + offsetof(brgemm_batch_t, b)]);
        for (int b = 1; b < n_bases(); ++b) {
            lea(a_base(b), ptr[a_base(b - 1) + r9 * 2]);
            add(a_base(b), r9);
        }
        mov(rcx, r10);
        if (bf16_in()) shr(rcx, 1);

        L(k_loop);
        cmp(rcx, U);
        jb(k_single, T_NEAR);
        for (int u = 0; u < U; ++u) fma_step(u);
        advance_a(4 * U);
        add(rsi, row_bytes * U);
        sub(rcx, U);
        jmp(k_loop, T_NEAR);

        L(k_single);
        test(rcx, rcx);
        jz(k_odd, T_NEAR);
        fma_step(0);
        advance_a(4);
        add(rsi, row_bytes);
        dec(rcx);
        jmp(k_single, T_NEAR);

        L(k_odd);
        if (bf16_in()) {
            test(r10, 1);
            jz(k_next, T_NEAR);
            fma_step(0, true);
        }

        L(k_next);
        add(rdx, sizeof(brgemm_batch_t));
        dec(r8);
        jmp(batch_loop, T_NEAR);
        L(done);
    }

    // Masked (tail) or full vector load and store.
    void load(const Xmm &d, const Address &a, bool t) {
        if (!t)
            vmovups(d, a);
        else if (c_.zmm)
            vmovups(Zmm(d.getIdx()) | k7 | T_z, a);
        else
            vmaskmovps(d, tmask_, a);
    }
    void store(const Address &a, const Xmm &s, bool t) {
        if (!t)
            vmovups(a, s);
        else if (c_.zmm)
            vmovups(a | k7, Zmm(s.getIdx()));
        else
            vmaskmovps(a, tmask_, s);
    }
    // 16 bf16 values widened to f32 (a bf16 is an f32's upper half). The
    // tail goes through a masked word load, which faults on no lane past
    // the tile.
    void load_bf16(const Xmm &d, const Address &a, bool t) {
        const Zmm z(d.getIdx());
        const Ymm y(d.getIdx());
        if (t) {
            vmovdqu16(y | k7 | T_z, a);
            vpmovzxwd(z, y);
        } else {
            vpmovzxwd(z, a);
        }
        vpslld(z, z, 16);
    }
    // Loads one vector of C's type (or the bias's) as f32.
    void load_as(data_type_t dt, const Xmm &d, const Address &a, bool t) {
        if (dt == dnnl_bf16)
            load_bf16(d, a, t);
        else
            load(d, a, t);
    }
    // Stores s to C in C's type (s is clobbered by the conversion).
    void store_c(const Address &a, const Xmm &s, bool t) {
        if (!bf16_c()) return store(a, s, t);
        const Ymm y(s.getIdx());
        vcvtneps2bf16(y, Zmm(s.getIdx()));
        // EVEX forms only: the accumulators reach ymm16-31.
        if (t)
            vmovdqu16(a | k7, y);
        else
            vmovdqu16(a, y);
    }

    void binary_op(alg_kind_t alg, const Xmm &x, const Xmm &y) {
        switch (alg) {
        case dnnl_binary_add:
            vaddps(x, x, y);
            break;
        case dnnl_binary_sub:
            vsubps(x, x, y);
            break;
        case dnnl_binary_mul:
            vmulps(x, x, y);
            break;
        case dnnl_binary_div:
            vdivps(x, x, y);
            break;
        case dnnl_binary_max:
            vmaxps(x, x, y);
            break;
        default:
            vminps(x, x, y);
            break;
        }
    }

    // Finishes the tile: value = product (+ C if beta) (+ bias), then
    // the post-ops in order, then the (masked) store. Row pointer rdx,
    // ldc r8, bias rcx; rax and r11 address binary operands; for a bf16
    // C, beta's f32 partial sums come from row pointer r10, stride r9
    // (free after the reduction). Where the
    // registers left after the accumulators cannot hold the epilogue's
    // scratch (AVX2 with an eltwise post-op), the accumulators go to the
    // stack and come back one at a time.
    void epilogue() {
        const bool spill = n_acc() + epilogue_extra(c_) > n_vregs(c_);
        const int free0 = spill ? 1 : n_acc();
        const int nsc = eltwise_injector_t::n_scratch;
        const bool elt = has_eltwise(c_);
        std::vector<int> scratch;
        for (int s = 0; s < nsc; ++s) scratch.push_back(free0 + s);
        int next = free0 + (elt ? nsc : 0);
        const int inj_mask = (elt && !c_.zmm) ? next++ : 0;
        const Xmm tmp = vreg(next++);
        if (!c_.zmm) tmask_ = Ymm(next++);

        if (spill) {
            sub(rsp, n_acc() * vb());
            for (int r = 0; r < n_acc(); ++r)
                vmovups(ptr[rsp + r * vb()], vreg(r));
        }
        if (c_.n_tail) {
            if (c_.zmm) {
                mov(eax, (1u << c_.n_tail) - 1);
                kmovw(k7, eax);
            } else {
                std::vector<uint32_t> w(8, 0);
                for (int l = 0; l < c_.n_tail; ++l) w[l] = 0xffffffffu;
                vmovups(tmask_, table(w));
            }
        }
        std::vector<std::unique_ptr<eltwise_injector_t>> inj;
        for (const auto &p : c_.post_ops)
            inj.emplace_back(p.kind == brgemm_post_op_t::eltwise
                                     ? new eltwise_injector_t(*this, p.alg,
                                             p.alpha, p.beta, scratch, inj_mask)
                                     : nullptr);

        const bool beta_acc = c_.beta && bf16_c();
        mov(rdx, arg(offsetof(brgemm_args_t, c)));
        mov(r8, arg(offsetof(brgemm_args_t, ldc)));
        if (c_.bias) mov(rcx, arg(offsetof(brgemm_args_t, bias)));
        if (beta_acc) {
            mov(r10, arg(offsetof(brgemm_args_t, acc)));
            mov(r9, arg(offsetof(brgemm_args_t, ld_acc)));
        }
        for (int i = 0; i < c_.m; ++i) {
            if (i > 0) add(rdx, r8);
            if (i > 0 && beta_acc) add(r10, r9);
            for (int j = 0; j < c_.nv; ++j) {
                const bool t = tail(j);
                const Xmm x = spill ? vreg(0) : acc(i, j);
                if (spill) vmovups(x, ptr[rsp + (i * c_.nv + j) * vb()]);
                const Address cj = ptr[rdx + j * c_vb()];
                if (c_.beta) {
                    load(tmp, beta_acc ? ptr[r10 + j * vb()] : cj, t);
                    vaddps(x, x, tmp);
                }
                if (c_.bias) {
                    load_as(c_.bias_dt, tmp, ptr[rcx + j * bias_vb()], t);
                    vaddps(x, x, tmp);
                }
                int nb = 0;
                for (size_t e = 0; e < c_.post_ops.size(); ++e) {
                    const auto &p = c_.post_ops[e];
                    if (p.kind == brgemm_post_op_t::eltwise) {
                        inj[e]->compute(x);
                        if (p.scale != 1.f) vmulps(x, x, bcast(p.scale));
                    } else if (p.kind == brgemm_post_op_t::sum) {
                        load_as(c_.c_dt, tmp, cj, t);
                        if (p.scale == 1.f)
                            vaddps(x, x, tmp);
                        else
                            vfmadd231ps(x, tmp, bcast(p.scale));
                    } else {
                        mov(rax, arg(offsetof(brgemm_args_t, binary) + nb * 8));
                        if (p.bcast == brgemm_bcast_t::scalar) {
                            vbroadcastss(tmp, ptr[rax]);
                        } else if (p.bcast == brgemm_bcast_t::per_n) {
                            load(tmp, ptr[rax + j * vb()], t);
                        } else {
                            if (i > 0) {
                                mov(r11, arg(offsetof(brgemm_args_t, binary_ld)
                                                 + nb * 8));
                                imul(r11, r11, i);
                                add(rax, r11);
                            }
                            load(tmp, ptr[rax + j * vb()], t);
                        }
                        binary_op(p.alg, x, tmp);
                        ++nb;
                    }
                }
                store_c(cj, x, t);
            }
        }
        if (spill) add(rsp, n_acc() * vb());
    }

    brgemm_config_t c_;
    Ymm tmask_{15};
};

uint32_t bits_of(float v) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
}

// The configuration as a kernel-cache key (floats compared bitwise).
struct brgemm_key_t : public kernel_cache::key_impl_t {
    std::vector<uint32_t> words;

    explicit brgemm_key_t(const brgemm_config_t &c) {
        words = {0xb59e33u, (uint32_t)c.isa, (uint32_t)c.zmm, (uint32_t)c.m,
                (uint32_t)c.nv, (uint32_t)c.n_tail, (uint32_t)c.b_vecs,
                (uint32_t)c.k_unroll, (uint32_t)c.beta, (uint32_t)c.bias,
                (uint32_t)c.a_dt, (uint32_t)c.b_dt, (uint32_t)c.c_dt,
                (uint32_t)c.bias_dt};
        for (const auto &p : c.post_ops)
            for (uint32_t w : {(uint32_t)p.kind, (uint32_t)p.alg,
                         bits_of(p.alpha), bits_of(p.beta), bits_of(p.scale),
                         (uint32_t)p.bcast})
                words.push_back(w);
    }
    bool equal(const kernel_cache::key_impl_t &o) const override {
        return words == static_cast<const brgemm_key_t &>(o).words;
    }
    size_t hash() const override {
        size_t h = 0;
        for (uint32_t w : words) h = h * 1000003u ^ std::hash<uint32_t>()(w);
        return h;
    }
};

} // namespace

int brgemm_config_t::n_binary() const {
    int n = 0;
    for (const auto &p : post_ops) n += p.kind == brgemm_post_op_t::binary;
    return n;
}

bool brgemm_post_op_of(const post_op_t &p, brgemm_post_op_t &q) {
    if (p.kind == post_op_kind_t::eltwise) {
        q.kind = brgemm_post_op_t::eltwise;
        q.alg = p.alg;
        q.alpha = p.alpha;
        q.beta = p.beta;
        q.scale = p.scale;
        return true;
    }
    if (p.kind != post_op_kind_t::sum || p.zero_point != 0
            || (p.sum_dt != dnnl_data_type_undef && p.sum_dt != dnnl_f32))
        return false;
    q.kind = brgemm_post_op_t::sum;
    q.scale = p.scale;
    return true;
}

brgemm_config_t brgemm_tile_config(
        const brgemm_config_t &full, int m, int n, bool accumulate, bool epilogue) {
    const int lanes = full.zmm ? 16 : 8;
    brgemm_config_t c = full;
    c.m = m;
    c.nv = (n + lanes - 1) / lanes;
    c.n_tail = n % lanes;
    c.beta = accumulate ? 1 : 0;
    if (!epilogue) {
        c.bias = false;
        c.bias_dt = dnnl_f32;
        c.post_ops.clear();
        c.c_dt = dnnl_f32;
    }
    return c;
}

bool brgemm_config_t::supported() const {
    const int lanes = zmm ? 16 : 8;
    if (m < 1 || m > max_rows || nv < 1 || nv > b_vecs) return false;
    if (n_tail < 0 || n_tail >= lanes || k_unroll < 1 || k_unroll > 16)
        return false;
    if (beta != 0 && beta != 1) return false;
    // f32 or bf16 throughout, A and B of one type; bf16 anywhere needs
    // the bf16 instructions (dot products, conversion).
    bool bf16 = false;
    for (data_type_t dt : {a_dt, b_dt, c_dt, bias_dt}) {
        if (dt != dnnl_f32 && dt != dnnl_bf16) return false;
        bf16 = bf16 || dt == dnnl_bf16;
    }
    if (a_dt != b_dt) return false;
    if (bf16 && (!zmm || (isa & avx512_core_bf16) != avx512_core_bf16))
        return false;
    // Accumulators, B vectors and one broadcast must fit.
    if (m * nv + nv + 1 > n_vregs(*this)) return false;
    if (n_binary() > brgemm_max_binary) return false;
    for (const auto &p : post_ops) {
        if (p.kind == brgemm_post_op_t::eltwise
                && !eltwise_injector_t::supports(p.alg, p.alpha, p.beta))
            return false;
        if (p.kind == brgemm_post_op_t::binary && !binary_alg_ok(p.alg))
            return false;
    }
    return true;
}

brgemm_config_t brgemm_config(const brgemm_target_t &t, int m, int n) {
    brgemm_config_t c;
    c.isa = t.isa;
    c.isa_name = t.isa_name;
    c.zmm = t.zmm;
    c.m = m;
    c.nv = (n + t.lanes() - 1) / t.lanes();
    c.n_tail = n % t.lanes();
    c.b_vecs = t.tile_nv;
    c.a_dt = c.b_dt = t.in_dt;
    return c;
}

std::string brgemm_kernel_name(const brgemm_config_t &c) {
    const int lanes = c.zmm ? 16 : 8;
    const int n = (c.nv - 1) * lanes + (c.n_tail ? c.n_tail : lanes);
    auto dt = [](data_type_t t) { return t == dnnl_bf16 ? "bf16" : "f32"; };
    std::string s = dt(c.a_dt);
    if (c.c_dt != c.a_dt) s = s + "_" + dt(c.c_dt);
    s += "_brgemm_" + std::to_string(c.m) + "x" + std::to_string(n) + "_k"
         + std::to_string(c.k_unroll);
    if (c.beta) s += "_beta1";
    if (c.bias) s += c.bias_dt == dnnl_bf16 ? "_biasbf16" : "_bias";
    if (!c.post_ops.empty()) s += "_po" + std::to_string(c.post_ops.size());
    return s + "__" + c.isa_name;
}

status_t generate_brgemm_kernel(
        const brgemm_config_t &cfg, std::shared_ptr<brgemm_kernel_t> &out) {
    out.reset();
    if (!cfg.supported()) return dnnl_unimplemented;
    return generate_kernel<brgemm_generator_t>(cfg, "brgemm", out);
}

status_t get_brgemm_kernel(const brgemm_config_t &cfg,
        std::shared_ptr<const brgemm_kernel_t> &out, bool &hit) {
    if (!cfg.supported()) return dnnl_unimplemented;
    return get_cached_kernel<brgemm_key_t>(
            cfg, generate_brgemm_kernel, out, hit);
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
