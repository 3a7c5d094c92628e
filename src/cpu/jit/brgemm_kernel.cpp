// The BRGEMM microkernel generator (f32 FMAs, bf16 dot products of k
// pairs, u8 x s8 dot products of k quads): the reduction loop over batch
// elements and K (unrolled, a partial last step), the epilogue that
// finishes each tile (beta, scales, bias, post-op chain, conversion and
// masked tail stores), and what it emits (brgemm_config_t::supported).
// The table, configurations, names and the cache are brgemm_config.cpp's.
#include "cpu/jit/brgemm_kernel.hpp"

#include <cstddef>
#include <cstring>

#include "common/memory_desc.hpp"
#include "common/verbose.hpp"
#include "cpu/jit/eltwise_injector.hpp"
#include "cpu/jit/jit_generator.hpp"

namespace dnnl {
namespace impl {
namespace cpu {
namespace jit {

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
        if (amx()) {
            used = {rbx, r12, r13};
            preamble(used);
            amx_reduction();
            epilogue();
            postamble();
            return;
        }
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
    bool amx() const { return brgemm_is_amx(c_.isa); }
    bool bf16_in() const { return c_.a_dt == dnnl_bf16; }
    bool int8_in() const { return c_.a_dt == dnnl_u8; }
    // k per step: a B row holds pairs (bf16) or quads (u8 x s8) of k.
    int k_step() const { return int8_in() ? 4 : bf16_in() ? 2 : 1; }
    // s8 A: the register of 0x80 bytes its broadcasts are flipped with
    // (the last one, left over by the accumulators, B and broadcasts).
    Xmm shift_reg() const { return vreg(n_vregs(c_) - 1); }
    bool bf16_c() const { return c_.c_dt == dnnl_bf16; }
    // int8 K blocks before the last store their s32 sums as they are.
    bool raw_c() const { return c_.c_dt == dnnl_s32; }
    // Bytes of one vector of C's or the bias's type.
    int c_vb() const { return vb() / 4 * (int)data_type_size(c_.c_dt); }
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

    // One k step (f32: one k; bf16: a pair, u8 x s8: a quad of k, 4
    // bytes of A every time) at A byte offset 4u and B row u. `rem` (1-3)
    // is the last, partial step of `rem` k: A's elements are read alone
    // and zero-extended (the ones after them may be past the buffer), so
    // B's padding rows meet zeros; bf16 also masks them off (k6), since
    // a NaN or an infinity there times zero is not zero.
    void fma_step(int u, int rem = 0) {
        const int b0 = n_acc();
        const int free = n_vregs(c_) - (b0 + c_.nv) - (c_.a_s8 ? 1 : 0);
        const int nbc = free >= 2 ? 2 : 1;
        for (int j = 0; j < c_.nv; ++j) {
            const Address b = ptr[rsi + (u * c_.b_vecs + j) * vb()];
            if (rem && bf16_in())
                vmovdqu16(Zmm(b0 + j) | k6 | T_z, b);
            else
                vmovups(vreg(b0 + j), b);
        }
        for (int i = 0; i < c_.m; ++i) {
            const Xmm bc = vreg(b0 + c_.nv + i % nbc);
            if (rem) {
                load_partial_a(a_row(i, 0), rem);
                vpbroadcastd(bc, ecx);
            } else if (c_.a_kmajor) { // rax: this k step's column
                vbroadcastss(bc, ptr[rax + i * 4]);
            } else {
                vbroadcastss(bc, ptr[a_row(i, u * 4)]);
            }
            if (c_.a_s8) vpxord(bc, bc, shift_reg());
            for (int j = 0; j < c_.nv; ++j) {
                const Zmm z(acc(i, j).getIdx());
                if (int8_in()) // u8 (A) x s8 (B) quads into s32
                    vpdpbusd(z, Zmm(bc.getIdx()), Zmm(b0 + j));
                else if (bf16_in())
                    vdpbf16ps(z, Zmm(b0 + j), Zmm(bc.getIdx()));
                else
                    vfmadd231ps(acc(i, j), vreg(b0 + j), bc);
            }
        }
    }
    // The first `rem` elements of A at `a`, zero-extended into ecx.
    void load_partial_a(const RegExp &a, int rem) {
        if (!int8_in()) {
            movzx(ecx, word[a]);
        } else if (rem == 1) {
            movzx(ecx, byte[a]);
        } else if (rem == 2) {
            movzx(ecx, word[a]);
        } else {
            movzx(ecx, byte[a + 2]);
            shl(ecx, 16);
            mov(cx, word[a]);
        }
    }

    // for each batch element: for k in K step k_unroll, then single steps
    // (bf16 / int8: steps of k pairs / quads, then the partial one).
    void reduction() {
        Label batch_loop, k_loop, k_single, k_odd, k_next, done;
        Label part[3];
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
        if (c_.a_s8) {
            mov(eax, 0x80808080u);
            vpbroadcastd(shift_reg(), eax);
        }
        L(batch_loop);
        test(r8, r8);
        jz(done, T_NEAR);
        mov(rax, ptr[rdx + offsetof(brgemm_batch_t, a)]);
        mov(rsi, ptr[rdx + offsetof(brgemm_batch_t, b)]);
        for (int b = 1; b < n_bases() && !c_.a_kmajor; ++b) {
            lea(a_base(b), ptr[a_base(b - 1) + r9 * 2]);
            add(a_base(b), r9);
        }
        mov(rcx, r10);
        if (k_step() > 1) shr(rcx, k_step() == 4 ? 2 : 1);

        L(k_loop);
        cmp(rcx, U);
        jb(k_single, T_NEAR);
        for (int u = 0; u < U; ++u) {
            fma_step(u);
            if (c_.a_kmajor) add(rax, r9);
        }
        if (!c_.a_kmajor) advance_a(4 * U);
        add(rsi, row_bytes * U);
        sub(rcx, U);
        jmp(k_loop, T_NEAR);

        L(k_single);
        test(rcx, rcx);
        jz(k_odd, T_NEAR);
        fma_step(0);
        if (c_.a_kmajor)
            add(rax, r9);
        else
            advance_a(4);
        add(rsi, row_bytes);
        dec(rcx);
        jmp(k_single, T_NEAR);

        L(k_odd);
        if (bf16_in()) {
            test(r10, 1);
            jz(k_next, T_NEAR);
            fma_step(0, 1);
        }
        if (int8_in()) { // K % 4 of 1, 2 or 3
            mov(rcx, r10);
            and_(rcx, 3);
            jz(k_next, T_NEAR);
            cmp(rcx, 2);
            jb(part[0], T_NEAR);
            je(part[1], T_NEAR);
            for (int r = 3; r >= 1; --r) {
                if (r < 3) L(part[r - 1]);
                fma_step(0, r);
                if (r > 1) jmp(k_next, T_NEAR);
            }
        }

        L(k_next);
        add(rdx, sizeof(brgemm_batch_t));
        dec(r8);
        jmp(batch_loop, T_NEAR);
        L(done);
    }


    // AMX: the tile is up to 2 x 2 tiles of 16 x 16 f32 (s32) sums,
    // C(ti, tj) in tmm(2 ti + tj), A's row blocks in tmm4-5, B's column
    // blocks in tmm6-7. Each step takes 64 bytes of every A row (32 bf16
    // or 64 int8 k) and 16 rows of B's panel (pairs / quads of k, 16
    // columns a tile). The last, partial step of K goes through zeroed
    // copies on the stack: A's rows loaded under a byte mask (nothing
    // past K is read) and B's valid rows (nothing past the panel is
    // read). The sums end in the stack frame's first bytes, laid out as
    // the epilogue's spilled accumulators: row i, vector j at
    // (i nv + j) 64.
    int amx_row_tiles() const { return c_.m > 16 ? 2 : 1; }
    int amx_rows(int ti) const { return ti == 0 ? std::min(c_.m, 16) : c_.m - 16; }
    Tmm c_tile(int ti, int tj) const { return Tmm(ti * 2 + tj); }
    Tmm a_tile(int ti) const { return Tmm(4 + ti); }
    Tmm b_tile(int tj) const { return Tmm(6 + tj); }
    int amx_cfg_off() const { return n_acc() * 64; }
    int amx_a_tail_off() const { return amx_cfg_off() + 64; }
    int amx_b_tail_off() const { return amx_a_tail_off() + 2 * 1024; }
    int amx_frame() const { return amx_b_tail_off() + 2 * 1024; }

    void amx_dot(const Tmm &c, const Tmm &a, const Tmm &b) {
        if (int8_in() && c_.a_s8)
            tdpbssd(c, a, b);
        else if (int8_in())
            tdpbusd(c, a, b);
        else
            tdpbf16ps(c, a, b);
    }

    // Loads the tile configuration unless it is the one in force: a
    // kernel called tile after tile of one shape reads the configuration
    // back (sttilecfg) and skips ldtilecfg, which costs more (it also
    // zeroes the tiles). Comparing with what is loaded, not with a flag
    // of our own, stays right whatever ran on the thread in between.
    void amx_tile_config() {
        // palette 1; colsb (bytes a row) at 16 + 2 t, rows at 48 + t.
        const int off = amx_cfg_off();
        vpxord(Zmm(0), Zmm(0), Zmm(0));
        vmovups(ptr[rsp + off], Zmm(0));
        mov(byte[rsp + off], 1);
        auto set = [&](const Tmm &t, int rows) {
            mov(word[rsp + off + 16 + 2 * t.getIdx()], 64);
            mov(byte[rsp + off + 48 + t.getIdx()], rows);
        };
        for (int ti = 0; ti < amx_row_tiles(); ++ti) {
            set(a_tile(ti), amx_rows(ti));
            for (int tj = 0; tj < c_.nv; ++tj) set(c_tile(ti, tj), amx_rows(ti));
        }
        for (int tj = 0; tj < c_.nv; ++tj) set(b_tile(tj), 16);
        Label loaded;
        const int cur = amx_a_tail_off(); // free until the K loop's end
        sttilecfg(ptr[rsp + cur]);
        vmovups(Zmm(0), ptr[rsp + off]);
        vpcmpeqb(k1, Zmm(0), ptr[rsp + cur]);
        kortestq(k1, k1);
        jc(loaded, T_NEAR); // all 64 bytes equal
        ldtilecfg(ptr[rsp + off]);
        L(loaded);
    }

    // One step over A's rows at a0 (a1: row 16) and B's at b0. Each
    // tile is loaded just before its first product, so that a load waits
    // only for the products still reading the tile it overwrites (tiles
    // are not renamed). On one Sapphire Rapids core this measured no
    // faster than loading all four first (330-450 GFLOP/s, bf16 32 x 32,
    // operands in L2), nor did fetching the next step's lines into L1
    // between the products (slower for short K).
    void amx_step(const Reg64 &a_stride, const RegExp &a0, const RegExp &a1,
            const Reg64 &b_stride, const RegExp &b0, int b_tile_bytes) {
        auto load_a = [&](int ti) {
            tileloadd(a_tile(ti), ptr[(ti ? a1 : a0) + a_stride]);
        };
        auto load_b = [&](int tj) {
            tileloadd(b_tile(tj), ptr[b0 + b_stride + tj * b_tile_bytes]);
        };
        load_a(0);
        load_b(0);
        amx_dot(c_tile(0, 0), a_tile(0), b_tile(0));
        if (c_.nv > 1) {
            load_b(1);
            amx_dot(c_tile(0, 1), a_tile(0), b_tile(1));
        }
        if (amx_row_tiles() > 1) {
            load_a(1);
            amx_dot(c_tile(1, 0), a_tile(1), b_tile(0));
            if (c_.nv > 1) amx_dot(c_tile(1, 1), a_tile(1), b_tile(1));
        }
    }

    void amx_reduction() {
        Label batch_loop, k_loop, k_tail, k_next, done, b_copy, b_copied;
        const int row_bytes = c_.b_vecs * 64;
        // K elements a step, and k a B row.
        const int kc = int8_in() ? 64 : 32;
        const int kshift = int8_in() ? 6 : 5;
        sub(rsp, amx_frame());
        amx_tile_config();
        for (int ti = 0; ti < amx_row_tiles(); ++ti)
            for (int tj = 0; tj < c_.nv; ++tj) tilezero(c_tile(ti, tj));
        mov(rdx, arg(offsetof(brgemm_args_t, batch)));
        mov(r8, arg(offsetof(brgemm_args_t, bs)));
        mov(r9, arg(offsetof(brgemm_args_t, lda)));
        mov(r10, arg(offsetof(brgemm_args_t, k)));
        mov(r11, row_bytes);
        if (bf16_in()) {
            mov(eax, 0x55555555u); // the first k of each pair
            kmovd(k6, eax);
        }
        // k5: the bytes of A's last, partial step.
        mov(rcx, r10);
        and_(rcx, kc - 1);
        if (!int8_in()) add(rcx, rcx);
        mov(rax, -1);
        bzhi(rax, rax, rcx);
        kmovq(k5, rax);

        L(batch_loop);
        test(r8, r8);
        jz(done, T_NEAR);
        mov(rax, ptr[rdx + offsetof(brgemm_batch_t, a)]);
        mov(rsi, ptr[rdx + offsetof(brgemm_batch_t, b)]);
        if (amx_row_tiles() > 1) {
            mov(rbx, r9);
            shl(rbx, 4);
            add(rbx, rax);
        }
        mov(rcx, r10);
        shr(rcx, kshift);

        L(k_loop);
        test(rcx, rcx);
        jz(k_tail, T_NEAR);
        amx_step(r9, RegExp(rax), RegExp(rbx), r11, RegExp(rsi), 64);
        add(rax, 64);
        if (amx_row_tiles() > 1) add(rbx, 64);
        add(rsi, row_bytes * 16);
        dec(rcx);
        jmp(k_loop, T_NEAR);

        L(k_tail);
        mov(rcx, r10);
        and_(rcx, kc - 1);
        jz(k_next, T_NEAR);
        // A: each row's remaining bytes, zero-extended to 64.
        for (int ti = 0; ti < amx_row_tiles(); ++ti) {
            mov(r12, ti ? rbx : rax);
            for (int r = 0; r < amx_rows(ti); ++r) {
                vmovdqu8(Zmm(0) | k5 | T_z, ptr[r12]);
                vmovups(ptr[rsp + amx_a_tail_off() + ti * 1024 + r * 64], Zmm(0));
                if (r + 1 < amx_rows(ti)) add(r12, r9);
            }
        }
        // B: the rows holding the remaining k, the rest zero.
        vpxord(Zmm(0), Zmm(0), Zmm(0));
        for (int tj = 0; tj < c_.nv; ++tj)
            for (int r = 0; r < 16; ++r)
                vmovups(ptr[rsp + amx_b_tail_off() + tj * 1024 + r * 64], Zmm(0));
        add(rcx, k_step() - 1);
        shr(rcx, k_step() == 4 ? 2 : 1);
        mov(r12, rsi);
        lea(r13, ptr[rsp + amx_b_tail_off()]);
        L(b_copy);
        for (int tj = 0; tj < c_.nv; ++tj) {
            vmovups(Zmm(0), ptr[r12 + tj * 64]);
            vmovups(ptr[r13 + tj * 1024], Zmm(0));
        }
        add(r12, r11);
        add(r13, 64);
        dec(rcx);
        jnz(b_copy, T_NEAR);
        if (bf16_in()) { // odd K: the last row's second k of each pair off
            test(r10, 1);
            jz(b_copied, T_NEAR);
            for (int tj = 0; tj < c_.nv; ++tj) {
                vmovdqu16(Zmm(0) | k6 | T_z, ptr[r13 - 64 + tj * 1024]);
                vmovups(ptr[r13 - 64 + tj * 1024], Zmm(0));
            }
            L(b_copied);
        }
        mov(r12, 64);
        lea(r13, ptr[rsp + amx_a_tail_off()]);
        lea(rcx, ptr[rsp + amx_b_tail_off()]);
        amx_step(r12, RegExp(r13), RegExp(r13 + 1024), r12, RegExp(rcx), 1024);

        L(k_next);
        add(rdx, sizeof(brgemm_batch_t));
        dec(r8);
        jmp(batch_loop, T_NEAR);
        L(done);
        // The sums into the frame, row i's vector j at (i nv + j) 64.
        mov(r12, c_.nv * 64);
        for (int ti = 0; ti < amx_row_tiles(); ++ti)
            for (int tj = 0; tj < c_.nv; ++tj)
                tilestored(ptr[rsp + r12 + (ti * 16 * c_.nv + tj) * 64],
                        c_tile(ti, tj));
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
    // 16 s8 / u8 values as f32 (a masked byte load for the tail).
    void load_i8(data_type_t dt, const Xmm &d, const Address &a, bool t) {
        const Zmm z(d.getIdx());
        const Xmm x(d.getIdx());
        const bool sgn = dt == dnnl_s8;
        if (t) {
            vmovdqu8(x | k7 | T_z, a);
            sgn ? vpmovsxbd(z, x) : vpmovzxbd(z, x);
        } else {
            sgn ? vpmovsxbd(z, a) : vpmovzxbd(z, a);
        }
        vcvtdq2ps(z, z);
    }
    // Loads one vector of C's type (or the bias's) as f32.
    void load_as(data_type_t dt, const Xmm &d, const Address &a, bool t) {
        if (dt == dnnl_bf16)
            load_bf16(d, a, t);
        else if (dt == dnnl_s8 || dt == dnnl_u8)
            load_i8(dt, d, a, t);
        else
            load(d, a, t);
    }
    // Stores s to C in C's type (s is clobbered by the conversion): f32
    // and raw s32 as they are, bf16 rounded, s8 / u8 rounded to nearest
    // even and saturated (clamped in f32 first, where vcvtps2dq cannot
    // overflow). EVEX forms only: the accumulators reach 16-31.
    void store_c(const Address &a, const Xmm &s, bool t) {
        const data_type_t dt = c_.c_dt;
        if (dt == dnnl_f32 || dt == dnnl_s32) return store(a, s, t);
        const Zmm z(s.getIdx());
        if (dt == dnnl_bf16) {
            const Ymm y(s.getIdx());
            vcvtneps2bf16(y, z);
            vmovdqu16(t ? a | k7 : a, y);
            return;
        }
        const bool sgn = dt == dnnl_s8;
        vmaxps(z, z, bcast(sgn ? -128.f : 0.f));
        vminps(z, z, bcast(sgn ? 127.f : 255.f));
        vcvtps2dq(z, z);
        const Xmm x(s.getIdx());
        vpmovdb(x, z);
        vmovdqu8(t ? a | k7 : a, x);
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
        // AMX left its sums where spilled accumulators go.
        const bool spill
                = amx() || n_acc() + epilogue_extra(c_) > n_vregs(c_);
        const int free0 = spill ? 1 : n_acc();
        const int nsc = eltwise_injector_t::n_scratch;
        const bool elt = has_eltwise(c_);
        std::vector<int> scratch;
        for (int s = 0; s < nsc; ++s) scratch.push_back(free0 + s);
        int next = free0 + (elt ? nsc : 0);
        const int inj_mask = (elt && !c_.zmm) ? next++ : 0;
        const Xmm tmp = vreg(next++);
        if (!c_.zmm) tmask_ = Ymm(next++);

        if (spill && !amx()) {
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

        // beta adds the partial sums at args.acc (f32 for bf16 inputs,
        // s32 for int8) where C is not where they live.
        const bool beta_acc =
                c_.beta && (int8_in() ? !raw_c() : c_.c_dt != dnnl_f32);
        mov(rdx, arg(offsetof(brgemm_args_t, c)));
        mov(r8, arg(offsetof(brgemm_args_t, ldc)));
        if (c_.bias) mov(rcx, arg(offsetof(brgemm_args_t, bias)));
        if (c_.scale != brgemm_scale_t::none)
            mov(rsi, arg(offsetof(brgemm_args_t, scales)));
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
                    if (int8_in())
                        vpaddd(x, x, tmp);
                    else
                        vaddps(x, x, tmp);
                }
                if (raw_c()) { // an int8 K block's s32 sums, as they are
                    store(cj, x, t);
                    continue;
                }
                if (c_.comp) {
                    mov(rax, arg(offsetof(brgemm_args_t, comp)));
                    load(tmp, ptr[rax + j * vb()], t);
                    vpaddd(x, x, tmp);
                }
                if (int8_in()) vcvtdq2ps(x, x);
                if (c_.scale == brgemm_scale_t::common) {
                    vbroadcastss(tmp, ptr[rsi]);
                    vmulps(x, x, tmp);
                } else if (c_.scale == brgemm_scale_t::per_n) {
                    load(tmp, ptr[rsi + j * vb()], t);
                    vmulps(x, x, tmp);
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
                if (c_.dst_scale) {
                    mov(rax, arg(offsetof(brgemm_args_t, dst_scale)));
                    vbroadcastss(tmp, ptr[rax]);
                    vmulps(x, x, tmp);
                }
                if (c_.dst_zp) {
                    mov(rax, arg(offsetof(brgemm_args_t, dst_zp)));
                    vbroadcastss(tmp, ptr[rax]);
                    vaddps(x, x, tmp);
                }
                store_c(cj, x, t);
            }
        }
        if (amx())
            add(rsp, amx_frame());
        else if (spill)
            add(rsp, n_acc() * vb());
    }

    brgemm_config_t c_;
    Ymm tmask_{15};
};

} // namespace

bool brgemm_config_t::supported() const {
    const int lanes = zmm ? 16 : 8;
    const bool amx = brgemm_is_amx(isa);
    // AMX: up to 2 x 2 tiles of 16 x 16.
    if (m < 1 || m > (amx ? 32 : max_rows) || nv < 1 || nv > b_vecs
            || (amx && nv > 2))
        return false;
    if (n_tail < 0 || n_tail >= lanes || k_unroll < 1 || k_unroll > 16)
        return false;
    if (beta != 0 && beta != 1) return false;
    // Inputs f32 x f32, bf16 x bf16 or u8 x s8; C f32 or bf16, or for
    // u8 x s8 also s8 / u8 and s32 (a K block's unscaled sums: no bias,
    // scale or post-ops); bias f32 or bf16; scales only for u8 x s8.
    // bf16 anywhere needs the bf16 instructions (dot products,
    // conversion), u8 x s8 the VNNI ones.
    const bool int8 = a_dt == dnnl_u8 && b_dt == dnnl_s8;
    if (!int8 && (a_dt != b_dt || (a_dt != dnnl_f32 && a_dt != dnnl_bf16)))
        return false;
    const bool c_int = c_dt == dnnl_s8 || c_dt == dnnl_u8 || c_dt == dnnl_s32;
    if (c_dt != dnnl_f32 && c_dt != dnnl_bf16 && !(int8 && c_int)) return false;
    if (c_dt == dnnl_s32
            && (bias || !post_ops.empty() || scale != brgemm_scale_t::none))
        return false;
    if (bias_dt != dnnl_f32 && bias_dt != dnnl_bf16) return false;
    if (!int8 && scale != brgemm_scale_t::none) return false;
    const bool bf16 =
            a_dt == dnnl_bf16 || c_dt == dnnl_bf16 || bias_dt == dnnl_bf16;
    if (bf16 && (!zmm || (isa & avx512_core_bf16) != avx512_core_bf16))
        return false;
    if (int8 && (!zmm || (isa & avx512_core_vnni) != avx512_core_vnni))
        return false;
    if ((a_s8 || comp || dst_scale || dst_zp) && !int8) return false;
    if (a_kmajor && (a_dt != dnnl_f32 || amx)) return false;
    // AMX runs bf16 x bf16 and u8 / s8 x s8 (s8 A multiplied as it is).
    if (amx && (!zmm || a_dt == dnnl_f32)) return false;
    if ((dst_scale || dst_zp) && c_dt == dnnl_s32) return false;
    // Accumulators, B vectors and one broadcast (and the s8 shift) must
    // fit.
    if (!amx && m * nv + nv + 1 + (a_s8 ? 1 : 0) > n_vregs(*this))
        return false;
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

status_t generate_brgemm_kernel(
        const brgemm_config_t &cfg, std::shared_ptr<brgemm_kernel_t> &out) {
    out.reset();
    if (!cfg.supported()) return dnnl_unimplemented;
    return generate_kernel<brgemm_generator_t>(cfg, "brgemm", out);
}

} // namespace jit
} // namespace cpu
} // namespace impl
} // namespace dnnl
