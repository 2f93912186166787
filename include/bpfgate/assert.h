/* bpfgate/assert.h - assertions about how BPF C compiles, for BPF programs.
 *
 * Include it in BPF sources (clang -target bpf). Each assertion states
 * something the verifier must know at that point of the COMPILED code:
 *
 *   bg_assert_range(x, lo, hi)  lo <= x <= hi is proven here (lo, hi constants;
 *                               signed comparison when x has a signed type)
 *   bg_assert_pkt(p, n)         n bytes at p are proven inside the packet
 *   bg_assert_nonnull(p)        p is proven not NULL
 *   bg_assert_const(x)          x is a known constant here (in every verifier state)
 *   bg_assert_unrolled()        no loop of the compiled code encloses this point
 *   bg_assert_max_insns(n)      the BPF function holding this point has <= n insns
 *                               (after inlining; assertion markers not counted)
 *
 * `bpfgate check` checks them with its abstract state at the marker and
 * reports a failure like a rejection; `bpfgate cc` treats a failure as one.
 *
 * Carrier (docs/ASSERTIONS.md has the design and its limits):
 *  - a marker instruction, `rN = rN` for the register the compiler put the
 *    operand in ("r" constraint; integers are passed converted to 64 bits as
 *    C converts them: signed types sign-extended, unsigned zero-extended),
 *    `goto +0` for the operand-less ones: a no-op every verifier accepts;
 *  - a 32-byte record in the non-allocated section .bpfgate.asserts whose
 *    first field is relocated to the marker (so it survives relocation,
 *    inlining and unrolling: every copy of the asm brings its own record);
 *  - a declaration in .bpfgate.decl (a `static` without debug info, so no
 *    BTF), which stays when the optimizer deletes the marker: such an
 *    assertion is reported as lost.
 * Nothing of this is loaded: libbpf and the kernel ignore both sections.
 * Define BG_ASSERT_DISABLE to compile every assertion to nothing.
 */
#ifndef BPFGATE_ASSERT_H
#define BPFGATE_ASSERT_H

#define BG_ASSERT_VERSION 1

/* kinds (the record's kind byte) */
#define BG__A_RANGE 1
#define BG__A_PKT 2
#define BG__A_NONNULL 3
#define BG__A_CONST 4
#define BG__A_UNROLLED 5
#define BG__A_MAX_INSNS 6

#ifdef BG_ASSERT_DISABLE
/* sizeof: the operand counts as used but is not evaluated */
#define bg_assert_range(x, lo, hi) ((void)sizeof(x))
#define bg_assert_pkt(p, n) ((void)sizeof(p))
#define bg_assert_nonnull(p) ((void)sizeof(p))
#define bg_assert_const(x) ((void)sizeof(x))
#define bg_assert_unrolled() ((void)0)
#define bg_assert_max_insns(n) ((void)0)
#else

#define BG__STR1(x) #x
#define BG__STR(x) BG__STR1(x)

/* The declaration: 24 bytes in .bpfgate.decl (no BTF: nodebug). Layout:
 * u8 version, u8 kind, u8 flags (bit 0-3 operand size, bit 4 signed), u8 0,
 * u32 line, s64 a, s64 b. */
struct bg__assert_decl {
	unsigned char ver, kind, flags, pad;
	unsigned int line;
	long long a, b;
};
#define BG__DECL(kind, flags, a, b)                                                              \
	({                                                                                       \
		static const struct bg__assert_decl __attribute__((section(".bpfgate.decl"), used, \
								    nodebug, aligned(8)))        \
		bg__decl = { BG_ASSERT_VERSION, kind, flags, 0, __LINE__, (long long)(a),          \
			     (long long)(b) };                                                   \
		(void)bg__decl;                                                                  \
	})

/* The record: u64 marker address (R_BPF_64_ABS64), then the declaration's 24 bytes. */
#define BG__REC(kind)                                                                     \
	".pushsection .bpfgate.asserts,\"\",@progbits\n"                                         \
	".balign 8\n"                                                                            \
	".quad 888b\n"                                                                           \
	".byte " BG__STR(BG_ASSERT_VERSION) ", " BG__STR(kind) ", %[bgf], 0\n"                   \
	".long " BG__STR(__LINE__) "\n"                                                          \
	".quad %[bga]\n"                                                                          \
	".quad %[bgb]\n"                                                                          \
	".popsection\n"

#define BG__SIGNED(x) ((__typeof__(x))-1 < (__typeof__(x))0)
#define BG__FLAGS(x) ((sizeof(x) > 8 ? 8 : sizeof(x)) | (BG__SIGNED(x) ? 0x10 : 0))
/* an integer operand as a 64-bit register, extended as C converts it (sign
 * extension for signed types: usually already how the compiler holds it) */
#define BG__U64(x) ((unsigned long long)(x))

#define BG__MARK_REG(kind, v, fl, a, b)                                                          \
	do {                                                                                     \
		BG__DECL(kind, fl, a, b);                                                        \
		asm volatile("888: %[bgr] = %[bgr]\n" BG__REC(kind)                               \
			     :                                                                   \
			     : [bgr] "r"(v), [bgf] "i"(fl), [bga] "i"(a), [bgb] "i"(b));                \
	} while (0)

#define BG__MARK_NOREG(kind, a, b)                                                               \
	do {                                                                                     \
		BG__DECL(kind, 0, a, b);                                                         \
		asm volatile("888: goto +0\n" BG__REC(kind)                                   \
			     :                                                                   \
			     : [bgf] "i"(0), [bga] "i"(a), [bgb] "i"(b));                             \
	} while (0)

#define bg_assert_range(x, lo, hi) BG__MARK_REG(BG__A_RANGE, BG__U64(x), BG__FLAGS(x), lo, hi)
#define bg_assert_const(x) BG__MARK_REG(BG__A_CONST, BG__U64(x), BG__FLAGS(x), 0, 0)
#define bg_assert_pkt(p, n) BG__MARK_REG(BG__A_PKT, (p), 8, n, 0)
#define bg_assert_nonnull(p) BG__MARK_REG(BG__A_NONNULL, (p), 8, 0, 0)
#define bg_assert_unrolled() BG__MARK_NOREG(BG__A_UNROLLED, 0, 0)
#define bg_assert_max_insns(n) BG__MARK_NOREG(BG__A_MAX_INSNS, n, 0)

#endif /* BG_ASSERT_DISABLE */
#endif
