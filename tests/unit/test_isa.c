/* Unit tests of src/isa: every form of the opcode table decodes, encodes back
 * to the same bytes and survives disasm -> asm; invalid encodings are
 * rejected with a reason; exec.c's edge cases follow RFC 9669.
 * `test_isa --dump-forms` prints "HEX16 HEX16 TEXT" per generated instruction
 * (used by tests/isa_objdump.test.sh to compare with llvm-objdump). */
/* min-pass: 98 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>

#include <bpfgate/insn.h>
#include "isa/exec.h"
#include "isa/table.h"
#include "test.h"

#define NVAR 5
static const uint8_t v_dst[NVAR] = { 0, 1, 10, 3, 9 };
static const uint8_t v_src[NVAR] = { 0, 5, 10, 2, 1 };
static const int16_t v_off[NVAR] = { 0, 1, -4, 32767, -32768 };
static const int32_t v_imm[NVAR] = { 0, 1, -1, INT32_MIN, INT32_MAX };
static const int32_t v_hi[NVAR] = { 0, 7, -1, INT32_MIN, 0x12345 };

/* Instance k of form i: operand fields take variant k, fixed fields the form's value. */
static int make_form(size_t i, int k, struct bg_raw_insn r[2])
{
	const struct bg_opform *f = &bg_opforms[i];
	unsigned u = bg_opform_uses(i);

	memset(r, 0, 2 * sizeof(*r));
	r[0].code = f->code;
	r[0].dst_reg = u & BG_U_DST ? v_dst[k] : 0;
	r[0].src_reg = u & BG_U_SRC ? v_src[k] : f->src;
	r[0].off = u & BG_U_OFF ? v_off[k] : f->off;
	r[0].imm = u & BG_U_IMM ? v_imm[k] : f->imm;
	if (f->kind == BG_K_LD_IMM64) {
		r[1].imm = u & BG_U_HI ? v_hi[k] : 0;
		return 2;
	}
	return 1;
}

static uint64_t raw64(const struct bg_raw_insn *r)
{
	uint64_t v;

	memcpy(&v, r, 8);
	return v;
}

static void dump_forms(void)
{
	for (size_t i = 0; i < bg_opform_cnt; i++) {
		for (int k = 0; k < NVAR; k++) {
			struct bg_raw_insn r[2];
			struct bg_insn in;
			char buf[128];
			int n = make_form(i, k, r);

			if (bg_insn_decode(r, (size_t)n, 0, &in, NULL) != n)
				continue;
			bg_insn_format(&in, buf, sizeof(buf));
			printf("%016" PRIx64 " %016" PRIx64 " %s\n", raw64(&r[0]),
			       n == 2 ? raw64(&r[1]) : 0, buf);
		}
	}
}

static void test_roundtrip(void)
{
	int bad = 0, cnt = 0, asm_bad = 0;
	char why1[300] = "";

	for (size_t i = 0; i < bg_opform_cnt; i++) {
		for (int k = 0; k < NVAR; k++) {
			struct bg_raw_insn r[2], e[2], *a = NULL;
			struct bg_insn in;
			const char *why = NULL;
			char text[128], err[128];
			int n = make_form(i, k, r), m;

			cnt++;
			m = bg_insn_decode(r, (size_t)n, 0, &in, &why);
			if (m != n || in.kind != bg_opforms[i].kind) {
				if (!bad++)
					snprintf(why1, sizeof(why1), "form %zu (%s) k=%d: decode %d (%s)", i,
						 bg_opforms[i].tmpl, k, m, why ? why : "");
				continue;
			}
			if (bg_insn_encode(&in, e) != n || memcmp(e, r, (size_t)n * 8)) {
				if (!bad++)
					snprintf(why1, sizeof(why1), "form %zu (%s) k=%d: encode differs", i,
						 bg_opforms[i].tmpl, k);
				continue;
			}
			bg_insn_format(&in, text, sizeof(text));
			m = bg_asm(text, &a, err, sizeof(err));
			if (m != n || memcmp(a, r, (size_t)n * 8)) {
				if (!asm_bad++)
					printf("# asm mismatch: form %zu '%s' -> %d %s\n", i, text, m,
					       m < 0 ? err : "");
			}
			free(a);
		}
	}
	T_CHECK(bad == 0, "isa/encode-decode-every-form", "%d of %d: %s", bad, cnt, why1);
	T_CHECK(asm_bad == 0, "isa/disasm-asm-every-form", "%d of %d instances differ", asm_bad, cnt);
	printf("# %zu forms, %d instances\n", bg_opform_cnt, cnt);
}

/* Every opcode byte: decodes iff the table has a form for it. */
static void test_unknown_opcodes(void)
{
	int bad = 0;

	for (int c = 0; c < 256; c++) {
		struct bg_raw_insn r[2] = { { .code = (uint8_t)c } };
		struct bg_insn in;
		const char *why = NULL;
		int rc = bg_insn_decode(r, 2, 0, &in, &why);

		if (bg_opform_first((uint8_t)c) < 0 && (rc != -EINVAL || !why))
			bad++;
	}
	T_CHECK(bad == 0, "isa/unknown-opcodes-rejected", "%d accepted", bad);
}

struct bad_case {
	const char *name;
	struct bg_raw_insn r[2];
	size_t n;
};

static void test_invalid(void)
{
	static const struct bad_case cases[] = {
		{ "alu-k-src-nonzero", { { 0x07, 1, 2, 0, 5 } }, 1 },          /* r1 += 5 with src 2 */
		{ "alu-x-imm-nonzero", { { 0x0f, 1, 2, 0, 5 } }, 1 },
		{ "alu-off-nonzero", { { 0x07, 1, 0, 3, 5 } }, 1 },
		{ "sdiv-off-2", { { 0x3f, 1, 2, 2, 0 } }, 1 },
		{ "movsx32-in-alu32", { { 0xbc, 1, 2, 32, 0 } }, 1 },
		{ "neg-x", { { 0x8f, 1, 2, 0, 0 } }, 1 },
		{ "neg-imm", { { 0x87, 1, 0, 0, 1 } }, 1 },
		{ "end-width-8", { { 0xd4, 1, 0, 0, 8 } }, 1 },
		{ "bswap-x", { { 0xdf, 1, 0, 0, 16 } }, 1 },
		{ "reg-11", { { 0xbf, 11, 1, 0, 0 } }, 1 },
		{ "src-reg-15", { { 0xbf, 1, 15, 0, 0 } }, 1 },
		{ "ja-imm", { { 0x05, 0, 0, 1, 1 } }, 1 },
		{ "gotol-off", { { 0x06, 0, 0, 1, 1 } }, 1 },
		{ "jmp32-call", { { 0x86, 0, 0, 0, 1 } }, 1 },
		{ "jmp32-exit", { { 0x96, 0, 0, 0, 0 } }, 1 },
		{ "exit-dst", { { 0x95, 1, 0, 0, 0 } }, 1 },
		{ "call-src-3", { { 0x85, 0, 3, 0, 1 } }, 1 },
		{ "call-helper-off", { { 0x85, 0, 0, 1, 1 } }, 1 },
		{ "may-goto-src", { { 0xe5, 0, 1, 1, 0 } }, 1 },
		{ "ldx-imm", { { 0x61, 1, 2, 0, 1 } }, 1 },
		{ "memsx-dw", { { 0x99, 1, 2, 0, 0 } }, 1 },
		{ "st-src", { { 0x62, 1, 2, 0, 1 } }, 1 },
		{ "atomic-unknown-op", { { 0xdb, 1, 2, 0, 0x20 } }, 1 },
		{ "atomic-b-add", { { 0xd3, 1, 2, 0, 0 } }, 1 },
		{ "ld-abs-dw", { { 0x38, 0, 0, 0, 1 } }, 1 },
		{ "ld-abs-dst", { { 0x20, 1, 0, 0, 1 } }, 1 },
		{ "ld-imm64-truncated", { { 0x18, 1, 0, 0, 1 } }, 1 },
		{ "ld-imm64-hi-code", { { 0x18, 1, 0, 0, 1 }, { 0x18, 0, 0, 0, 0 } }, 2 },
		{ "ld-imm64-hi-regs", { { 0x18, 1, 0, 0, 1 }, { 0, 1, 0, 0, 0 } }, 2 },
		{ "ld-imm64-hi-off", { { 0x18, 1, 0, 0, 1 }, { 0, 0, 0, 1, 0 } }, 2 },
		{ "ld-imm64-src-7", { { 0x18, 1, 7, 0, 1 }, { 0 } }, 2 },
		{ "ld-imm64-mapfd-hi", { { 0x18, 1, 1, 0, 1 }, { 0, 0, 0, 0, 4 } }, 2 },
		{ "ld-imm64-off", { { 0x18, 1, 0, 1, 1 }, { 0 } }, 2 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bg_insn in;
		const char *why = NULL;
		char name[80];
		int rc = bg_insn_decode(cases[i].r, cases[i].n, 0, &in, &why);

		snprintf(name, sizeof(name), "isa/reject/%s", cases[i].name);
		T_CHECK(rc == -EINVAL && why && *why, name, "rc=%d", rc);
	}
}

static void test_prog_decode(void)
{
	/* 0: if r1 == 0 goto +2 -> 3 (exit); 0: goto +1 lands on the ld_imm64 second half */
	struct bg_raw_insn ok[] = { { 0x15, 1, 0, 2, 0 }, { 0x18, 0, 0, 0, 5 }, { 0, 0, 0, 0, 0 },
				    { 0x95, 0, 0, 0, 0 } };
	struct bg_raw_insn hi[] = { { 0x05, 0, 0, 1, 0 }, { 0x18, 0, 0, 0, 5 }, { 0, 0, 0, 0, 0 },
				    { 0x95, 0, 0, 0, 0 } };
	struct bg_raw_insn out[] = { { 0x05, 0, 0, 5, 0 }, { 0x95, 0, 0, 0, 0 } };
	struct bg_insn d[4];
	size_t bad = 99;
	const char *why = NULL;

	T_CHECK(bg_prog_decode(ok, 4, d, &bad, &why) == 0 && d[0].target == 3 &&
			d[2].kind == BG_K_LD_IMM64_HI && d[1].imm64 == 5,
		"isa/prog-decode-ok", "why=%s", why ? why : "");
	T_CHECK(bg_prog_decode(hi, 4, d, &bad, &why) == -EINVAL && bad == 0,
		"isa/prog-decode-jump-into-ld_imm64", "bad=%zu", bad);
	T_CHECK(bg_prog_decode(out, 2, d, &bad, &why) == -EINVAL && bad == 0,
		"isa/prog-decode-jump-outside", "bad=%zu", bad);
}

/* Formatting of a few instructions exactly as llvm-objdump-14 prints them. */
static void test_format_examples(void)
{
	static const struct {
		struct bg_raw_insn r[2];
		unsigned flags;
		const char *want;
	} ex[] = {
		{ { { 0x61, 0, 1, 4, 0 } }, 0, "r0 = *(u32 *)(r1 + 4)" },
		{ { { 0x61, 0, 1, 4, 0 } }, BG_FMT_HEX, "r0 = *(u32 *)(r1 + 0x4)" },
		{ { { 0x25, 1, 0, 3, 0x40 } }, 0, "if r1 > 64 goto +3" },
		{ { { 0x25, 1, 0, 3, 0x40 } }, BG_FMT_HEX, "if r1 > 0x40 goto +0x3" },
		{ { { 0xbc, 0, 1, 0, 0 } }, 0, "w0 = w1" },
		{ { { 0xdb, 2, 1, 0, 0 } }, 0, "lock *(u64 *)(r2 + 0) += r1" },
		{ { { 0x18, 1, 0, 0, 0 }, { 0 } }, 0, "r1 = 0 ll" },
		{ { { 0x85, 0, 0, 0, 1 } }, 0, "call 1" },
		{ { { 0x95, 0, 0, 0, 0 } }, 0, "exit" },
		{ { { 0x7b, 10, 1, -8, 0 } }, 0, "*(u64 *)(r10 - 8) = r1" },
		{ { { 0xb7, 1, 0, 0, -16 } }, 0, "r1 = -16" },
		{ { { 0x85, 0, 1, 0, 2 } }, 0, "call pc+2" },
		{ { { 0x85, 0, 1, 0, 2 } }, BG_FMT_OBJDUMP, "call 2" },
		{ { { 0x18, 1, 2, 0, 3 }, { 0, 0, 0, 0, 8 } }, 0, "r1 = map_value(3, 8) ll" },
		{ { { 0x3f, 1, 2, 1, 0 } }, 0, "r1 s/= r2" },
		{ { { 0xbf, 1, 2, 8, 0 } }, 0, "r1 = (s8)r2" },
		{ { { 0xd7, 1, 0, 0, 32 } }, 0, "r1 = bswap32 r1" },
		{ { { 0xdc, 1, 0, 0, 16 } }, 0, "r1 = be16 r1" },
		{ { { 0x06, 0, 0, 0, -2 } }, 0, "gotol -2" },
		{ { { 0xe5, 0, 0, 7, 0 } }, 0, "may_goto +7" },
		{ { { 0xdb, 1, 2, 0, 0xf1 } }, 0, "r0 = cmpxchg_64(r1 + 0, r0, r2)" },
		{ { { 0x91, 1, 2, -2, 0 } }, 0, "r1 = *(s8 *)(r2 - 2)" },
		{ { { 0x18, 1, 0, 0, 2 }, { 0, 0, 0, 0, 1 } }, 0, "r1 = 4294967298 ll" },
		{ { { 0x61, 0, 1, 4, 0 } }, BG_FMT_KERNEL, "(61) r0 = *(u32 *)(r1 +4)" },
		{ { { 0x7b, 10, 1, -8, 0 } }, BG_FMT_KERNEL, "(7b) *(u64 *)(r10 -8) = r1" },
		{ { { 0x15, 1, 0, 3, 0 } }, BG_FMT_KERNEL, "(15) if r1 == 0x0 goto pc+3" },
		{ { { 0x65, 1, 0, -3, -3 } }, BG_FMT_KERNEL, "(65) if r1 s> 0xfffffffd goto pc-3" },
		{ { { 0x85, 0, 0, 0, 1 } }, BG_FMT_KERNEL, "(85) call #1" },
		{ { { 0x85, 0, 1, 0, 2 } }, BG_FMT_KERNEL, "(85) call pc+2" },
		{ { { 0x18, 1, 0, 0, 2 }, { 0, 0, 0, 0, 1 } }, BG_FMT_KERNEL, "(18) r1 = 0x100000002" },
		{ { { 0xc3, 10, 2, -16, 0xe1 } }, BG_FMT_KERNEL, "(c3) r2 = atomic_xchg((u32 *)(r10 -16), r2)" },
		{ { { 0xdb, 10, 2, -8, 0x01 } }, BG_FMT_KERNEL,
		  "(db) r2 = atomic64_fetch_add((u64 *)(r10 -8), r2)" },
		{ { { 0x40, 0, 7, 0, 0 } }, BG_FMT_KERNEL, "(40) r0 = *(u32 *)skb[r7 + 0]" },
		{ { { 0x95, 0, 0, 0, 0 } }, BG_FMT_KERNEL, "(95) exit" },
	};

	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		struct bg_insn in;
		char buf[128], name[120];
		size_t n = ex[i].r[0].code == 0x18 ? 2 : 1;

		bg_insn_decode(ex[i].r, n, 0, &in, NULL);
		bg_insn_format_opts(&in, buf, sizeof(buf), ex[i].flags);
		snprintf(name, sizeof(name), "isa/format/%s", ex[i].want);
		T_CHECK(!strcmp(buf, ex[i].want), name, "got '%s'", buf);
	}
}

static void test_exec(void)
{
	const uint64_t MIN64 = UINT64_C(1) << 63, M1 = ~UINT64_C(0);

	T_CHECK(bg_alu_exec(BG_ALU_DIV, true, false, 0, 7, 0) == 0, "exec/div-by-zero", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOD, true, false, 0, 7, 0) == 7, "exec/mod-by-zero", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOD, false, false, 0, M1, 0) == 0xffffffff,
		"exec/mod32-by-zero-truncates", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_DIV, true, true, 0, MIN64, M1) == MIN64, "exec/sdiv-min-by-minus1",
		"wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOD, true, true, 0, MIN64, M1) == 0, "exec/smod-min-by-minus1", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_DIV, false, true, 0, 0x80000000, 0xffffffff) == 0x80000000,
		"exec/sdiv32-min-by-minus1", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_DIV, true, true, 0, (uint64_t)-7, 2) == (uint64_t)-3,
		"exec/sdiv-truncates", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOD, true, true, 0, (uint64_t)-7, 2) == (uint64_t)-1,
		"exec/smod-dividend-sign", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOD, false, true, 0, 7, (uint64_t)-2) == 1, "exec/smod32", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_DIV, true, true, 0, 5, 0) == 0, "exec/sdiv-by-zero", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_LSH, true, false, 0, 1, 65) == 2, "exec/lsh64-mask", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_LSH, false, false, 0, 1, 33) == 2, "exec/lsh32-mask", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_ARSH, false, false, 0, 0x80000000, 4) == 0xf8000000,
		"exec/arsh32", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_ARSH, true, false, 0, MIN64, 63) == M1, "exec/arsh64", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_ADD, false, false, 0, 0xffffffff, 1) == 0, "exec/add32-zext", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_NEG, false, false, 0, 1, 0) == 0xffffffff, "exec/neg32", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOV, true, true, 8, 0, 0x80) == (uint64_t)-128, "exec/movsx8", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOV, false, true, 16, 0, 0x8000) == 0xffff8000, "exec/movsx16-32",
		"wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOV, true, true, 32, 0, 0x7fffffff) == 0x7fffffff,
		"exec/movsx32-positive", "wrong value");
	T_CHECK(bg_alu_exec(BG_ALU_MOV, false, false, 0, 0, M1) == 0xffffffff, "exec/mov32-zext", "wrong value");
	T_CHECK(bg_end_exec(0x1122334455667788, 16, true) == 0x8877, "exec/bswap16", "wrong value");
	T_CHECK(bg_end_exec(0x1122334455667788, 32, true) == 0x88776655, "exec/bswap32", "wrong value");
	T_CHECK(bg_end_exec(0x1122334455667788, 64, true) == 0x8877665544332211, "exec/bswap64", "wrong value");
	T_CHECK(bg_end_exec(0x1122334455667788, 16, false) == 0x7788, "exec/le16-truncates", "wrong value");
	T_CHECK(bg_jmp_exec(BG_JMP_JSGT, false, 0x100000001, 0xffffffff), "exec/jsgt32", "wrong value");
	T_CHECK(!bg_jmp_exec(BG_JMP_JGT, true, 1, M1), "exec/jgt-unsigned", "wrong value");
	T_CHECK(bg_jmp_exec(BG_JMP_JSLT, true, M1, 0), "exec/jslt", "wrong value");
	T_CHECK(bg_jmp_exec(BG_JMP_JSET, true, 6, 2) && !bg_jmp_exec(BG_JMP_JSET, true, 4, 2),
		"exec/jset", "wrong value");
	T_CHECK(bg_jmp_exec(BG_JMP_JEQ, false, 0x500000001, 1), "exec/jeq32-low-half", "wrong value");
	T_CHECK(bg_extend(0xff, 1, true) == M1 && bg_extend(0x1ff, 1, false) == 0xff, "exec/extend",
		"wrong value");
}

/* Deterministic xorshift generator for the randomized properties below. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Random encodings (biased towards real opcodes and small fields): whatever
 * decodes must encode back to the same bytes and survive format -> asm;
 * whatever does not must come with a reason. */
static void test_random_encodings(void)
{
	int n = 200000, ok = 0, rej = 0, bad = 0;
	char first[200] = "";

	for (int i = 0; i < n; i++) {
		struct bg_raw_insn r[2], e[2], *a = NULL;
		struct bg_insn in;
		const char *why = NULL;
		char text[160], err[160];
		uint64_t x = rnd(), y = rnd();
		int k, m;

		memcpy(&r[0], &x, 8);
		memcpy(&r[1], &y, 8);
		if (x & 1) {
			size_t fi = (x >> 8) % bg_opform_cnt;
			const struct bg_opform *f = &bg_opforms[fi];
			unsigned u = bg_opform_uses(fi);

			r[0].code = f->code;
			if (x & 32) { /* fixed fields right, except maybe one */
				if (!(u & BG_U_SRC) && (y & 3))
					r[0].src_reg = f->src;
				if (!(u & BG_U_OFF) && (y & 12))
					r[0].off = f->off;
				if (!(u & BG_U_IMM) && (y & 48))
					r[0].imm = f->imm;
				if (!(u & BG_U_DST) && (y & 192))
					r[0].dst_reg = 0;
				if (y & 0x300)
					memset(&r[1], 0, 4);
			}
		}
		if (x & 2) {
			r[0].dst_reg &= 0x7;
			r[0].src_reg &= 0x7;
		}
		if (x & 4)
			r[0].off = (int16_t)(r[0].off % 64);
		if (x & 8)
			r[0].imm = r[0].imm % 300;
		if (x & 16)
			memset(&r[1], 0, 4);
		k = bg_insn_decode(r, 2, 100, &in, &why);
		if (k < 0) {
			rej++;
			if (!why && !bad++)
				snprintf(first, sizeof(first), "%016llx rejected without a reason",
					 (unsigned long long)x);
			continue;
		}
		ok++;
		bg_insn_format(&in, text, sizeof(text));
		m = bg_asm(text, &a, err, sizeof(err));
		if (bg_insn_encode(&in, e) != k || memcmp(e, r, (size_t)k * 8) || m != k ||
		    memcmp(a, r, (size_t)k * 8)) {
			if (!bad++)
				snprintf(first, sizeof(first), "%016llx '%s': asm %d %s",
					 (unsigned long long)x, text, m, m < 0 ? err : "");
		}
		free(a);
	}
	T_CHECK(bad == 0, "isa/random-encodings-roundtrip", "%d bad of %d (%s)", bad, n, first);
	printf("# random encodings: %d valid, %d rejected\n", ok, rej);
}

/* Mutated assembly text never crashes the assembler; errors name line 1. */
static void test_random_text(void)
{
	int n = 20000, bad = 0;
	static const char alphabet[] = "rw0123456789+-*()=<>&|^%sx ;#/:lLgotcalpbu\t";

	for (int i = 0; i < n; i++) {
		const struct bg_opform *f = &bg_opforms[rnd() % bg_opform_cnt];
		struct bg_raw_insn *a = NULL;
		char text[200], err[200];
		size_t len = strlen(f->tmpl) < sizeof(text) - 1 ? strlen(f->tmpl) : sizeof(text) - 1;
		int m;

		memcpy(text, f->tmpl, len);
		text[len] = 0;
		for (int k = (int)(rnd() % 4); k >= 0 && len; k--)
			text[rnd() % len] = alphabet[rnd() % (sizeof(alphabet) - 1)];
		m = bg_asm(text, &a, err, sizeof(err));
		if (m < 0 && strncmp(err, "line 1: ", 8))
			bad++;
		free(a);
	}
	T_CHECK(bad == 0, "isa/random-text-errors", "%d errors without 'line 1:'", bad);
}

/* Assembler features: labels, comments, objdump prefixes/suffixes, errors. */
static void test_asm_features(void)
{
	struct bg_raw_insn *a = NULL;
	char err[200];
	int n;

	n = bg_asm("start: r0 = 0 ; c1\n"
		   "  # c2\n"
		   "loop: r0 += 1 // c3\n"
		   "       3:\tif r0 < 0x3 goto loop <LBB0_1>\n"
		   "call f\n"
		   "exit\n"
		   "f:\n"
		   "r1 = func(f) ll\n"
		   "exit\n",
		   &a, err, sizeof(err));
	T_CHECK(n == 8 && a[2].code == 0xa5 && a[2].off == -2 && a[2].imm == 3 && a[3].src_reg == 1 &&
			a[3].imm == 1 && a[5].src_reg == 4 && a[5].imm == -1,
		"isa/asm-labels-comments", "n=%d err=%s", n, n < 0 ? err : "");
	free(a);
	a = NULL;
	n = bg_asm("r0 = 0\nexit\nr0 = r11\n", &a, err, sizeof(err));
	T_CHECK(n == -EINVAL && !strncmp(err, "line 3: ", 8) && !a, "isa/asm-error-line", "n=%d err=%s",
		n, err);
	n = bg_asm("goto x\n", &a, err, sizeof(err));
	T_CHECK(n == -EINVAL && strstr(err, "undefined label"), "isa/asm-undefined-label", "err=%s",
		err);
	n = bg_asm("", &a, err, sizeof(err));
	T_CHECK(n == 0, "isa/asm-empty", "n=%d", n);
	free(a);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--dump-forms")) {
		dump_forms();
		return 0;
	}
	test_roundtrip();
	test_unknown_opcodes();
	test_invalid();
	test_prog_decode();
	test_format_examples();
	test_exec();
	test_random_encodings();
	test_random_text();
	test_asm_features();
	T_EXIT();
}
