/* Assertions of <bpfgate/assert.h> checked against the analysis' claims.
 *
 * Input: the markers the loader found (bg_program__asserts) and the states
 * of bg_verify_states at each marker slot (every call context, disjunct
 * and intermediate loop state). An assertion holds at a marker when EVERY
 * state there proves it; a failure names the first state that does not,
 * with its abstract value. Structural kinds need no state: unrolled = the
 * marker lies on no cycle of its function's control flow; max_insns = the
 * function holding the marker has at most n instructions, markers not
 * counted. Cost: O(states at markers) plus O(function size) per structural
 * marker (one graph search). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/verifier.h>

static const char *const kind_names[] = {
	[BG_ASSERT_RANGE] = "range", [BG_ASSERT_PKT] = "pkt",
	[BG_ASSERT_NONNULL] = "nonnull", [BG_ASSERT_CONST] = "const",
	[BG_ASSERT_UNROLLED] = "unrolled", [BG_ASSERT_MAX_INSNS] = "max_insns",
};

const char *bg_assert_kind_name(int kind)
{
	return kind >= BG_ASSERT_RANGE && kind <= BG_ASSERT_MAX_INSNS ? kind_names[kind] : "?";
}

const char *bg_assert_status_name(enum bg_assert_status s)
{
	static const char *const n[] = { "holds", "fails", "lost", "unreached" };
	return (unsigned)s < 4 ? n[s] : "?";
}

/* ------------------------------------------------------------ values */

static bool is_pointer(const struct bg_aval *a)
{
	return a->kind != BG_AVAL_UNINIT && a->kind != BG_AVAL_SCALAR && a->kind != BG_AVAL_ANY;
}

/* "pkt(off=14, r=6)": offset from data, bytes proven from the pointer. */
static void fmt_value(const struct bg_aval *a, int reg, char *buf, size_t sz)
{
	char v[200];
	if (a->kind == BG_AVAL_PKT || a->kind == BG_AVAL_PKT_META) {
		char off[64];
		int64_t room = a->pkt_range < 0 ? 0 : a->pkt_range - a->delta;
		if (a->smin == a->smax)
			snprintf(off, sizeof(off), "%" PRId64, a->smin);
		else
			snprintf(off, sizeof(off), "[%" PRId64 ",%" PRId64 "]", a->smin, a->smax);
		snprintf(buf, sz, "r%d = %s(off=%s, r=%" PRId64 ")%s", reg,
			 a->kind == BG_AVAL_PKT ? "pkt" : "pkt_meta", off, room < 0 ? 0 : room,
			 a->pkt_range < 0 ? " (base lost)" : "");
		return;
	}
	bg_aval__fmt(a, v, sizeof(v));
	snprintf(buf, sz, "r%d = %s", reg, v);
}

/* Operands reach the marker converted to 64 bits as C converts them
 * (<bpfgate/assert.h>), so the 64-bit bounds are the operand's. */
static bool range_holds(const struct bg_assert_site *s, const struct bg_aval *a)
{
	if (a->kind != BG_AVAL_SCALAR)
		return false;
	if (s->is_signed)
		return a->smin >= s->a && a->smax <= s->b;
	return (s->a <= 0 || a->umin >= (uint64_t)s->a) && s->b >= 0 && a->umax <= (uint64_t)s->b;
}

static bool const_holds(const struct bg_aval *a)
{
	return a->kind == BG_AVAL_SCALAR && a->umin == a->umax;
}

/* The kernel's packet access rule (xfer.c access_pkt) for n bytes at offset 0. */
static bool pkt_holds(const struct bg_assert_site *s, const struct bg_aval *a)
{
	if (a->kind != BG_AVAL_PKT && a->kind != BG_AVAL_PKT_META)
		return false;
	if (a->pkt_range < 0 || a->smin < 0 || (a->base == 0 && a->delta < 0))
		return false;
	return (int64_t)a->delta + s->a <= a->pkt_range;
}

static bool nonnull_holds(const struct bg_aval *a)
{
	if (is_pointer(a))
		return !(a->flags & BG_AVAL_MAYBE_NULL);
	return a->kind == BG_AVAL_SCALAR && a->umin >= 1;
}

static bool state_holds(const struct bg_assert_site *s, const struct bg_aval *a)
{
	switch (s->kind) {
	case BG_ASSERT_RANGE: return range_holds(s, a);
	case BG_ASSERT_CONST: return const_holds(a);
	case BG_ASSERT_PKT: return pkt_holds(s, a);
	case BG_ASSERT_NONNULL: return nonnull_holds(a);
	default: return false;
	}
}

static void check_states(const struct bg_verify_states *st, struct bg_assert_result *r)
{
	const struct bg_assert_site *s = &r->site;
	size_t n = s->insn < bg_verify_states__insn_cnt(st) ? bg_verify_states__cnt(st, s->insn) : 0;
	r->states = n;
	if (!n) {
		r->status = BG_ASSERT_UNREACHED;
		snprintf(r->why, sizeof(r->why), "no verifier state reaches insn %zu", s->insn);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct bg_aval *a = &bg_verify_states__get(st, s->insn, i)->r[s->reg];
		if (!state_holds(s, a)) {
			r->status = BG_ASSERT_FAILS;
			fmt_value(a, s->reg, r->why, sizeof(r->why));
			return;
		}
		if (i == 0)
			fmt_value(a, s->reg, r->why, sizeof(r->why));
	}
	r->status = BG_ASSERT_HOLDS;
	if (n > 1) {
		size_t l = strlen(r->why);
		snprintf(r->why + l, sizeof(r->why) - l, " (and %zu more states)", n - 1);
	}
}

/* --------------------------------------------------------- structure */

static bool is_marker(const struct bg_program *p, size_t pc)
{
	size_t n;
	const struct bg_assert_site *a = bg_program__asserts(p, &n);
	for (size_t i = 0; i < n; i++)
		if (a[i].insn == pc)
			return true;
	return false;
}

/* [lo, hi) slots of the function holding pc. */
static void func_bounds(const struct bg_program *p, size_t pc, size_t *lo, size_t *hi)
{
	size_t n = 0;
	bg_program__insns(p, &n);
	*lo = 0, *hi = n;
	for (size_t i = 0; i < bg_program__func_cnt(p); i++) {
		size_t at = bg_program__func(p, i)->insn;
		if (at <= pc && at >= *lo)
			*lo = at;
		if (at > pc && at < *hi)
			*hi = at;
	}
}

/* Successors of pc inside [lo, hi) (calls fall through); returns the count. */
static int succs(const struct bg_insn *in, size_t pc, size_t lo, size_t hi, size_t out[2])
{
	int k = 0;
	const struct bg_insn *x = &in[pc];
	if (x->kind == BG_K_EXIT)
		return 0;
	if (x->kind == BG_K_JA || x->kind == BG_K_JCOND || x->kind == BG_K_MAY_GOTO)
		if (x->target >= 0 && (size_t)x->target >= lo && (size_t)x->target < hi)
			out[k++] = (size_t)x->target;
	if (x->kind != BG_K_JA && pc + x->slots < hi)
		out[k++] = pc + x->slots;
	return k;
}

/* Is pc on a cycle of its function (does it reach itself)? */
static int on_cycle(const struct bg_program *p, size_t pc, bool *cyc)
{
	size_t n = 0, lo, hi, top = 0;
	const struct bg_insn *in = bg_program__insns(p, &n);
	if (!in || pc >= n)
		return -EINVAL;
	func_bounds(p, pc, &lo, &hi);
	uint8_t *seen = calloc(hi - lo, 1);
	size_t *stack = malloc((hi - lo + 2) * sizeof(size_t));
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return -ENOMEM;
	}
	*cyc = false;
	stack[top++] = pc;
	while (top && !*cyc) {
		size_t cur = stack[--top], nx[2];
		int k = succs(in, cur, lo, hi, nx);
		for (int j = 0; j < k; j++) {
			if (nx[j] == pc)
				*cyc = true;
			else if (!seen[nx[j] - lo]) {
				seen[nx[j] - lo] = 1;
				stack[top++] = nx[j];
			}
		}
	}
	free(seen);
	free(stack);
	return 0;
}

static int check_structure(const struct bg_program *p, struct bg_assert_result *r)
{
	const struct bg_assert_site *s = &r->site;
	if (s->kind == BG_ASSERT_UNROLLED) {
		bool cyc;
		int e = on_cycle(p, s->insn, &cyc);
		if (e)
			return e;
		r->status = cyc ? BG_ASSERT_FAILS : BG_ASSERT_HOLDS;
		snprintf(r->why, sizeof(r->why),
			 cyc ? "insn %zu is inside a loop of the compiled code (a back edge reaches it)"
			     : "no back edge encloses insn %zu",
			 s->insn);
		return 0;
	}
	size_t lo, hi, cnt = 0, n = 0;
	const struct bg_insn *in = bg_program__insns(p, &n);
	func_bounds(p, s->insn, &lo, &hi);
	for (size_t i = lo; i < hi; i++)
		cnt += in && in[i].kind != BG_K_LD_IMM64_HI && !is_marker(p, i);
	r->status = s->a >= 0 && cnt <= (uint64_t)s->a ? BG_ASSERT_HOLDS : BG_ASSERT_FAILS;
	const struct bg_func_info *f = NULL;
	for (size_t i = 0; i < bg_program__func_cnt(p); i++)
		if (bg_program__func(p, i)->insn == lo)
			f = bg_program__func(p, i);
	snprintf(r->why, sizeof(r->why), "function %s has %zu insns", f && f->name ? f->name : "?", cnt);
	return 0;
}

/* ------------------------------------------------------------ source */

/* The source position of the assertion: the marker's own line when it is
 * the assertion's line, else any slot of prog on that line. */
static const struct bg_line *find_line(const struct bg_program *p, const struct bg_assert_site *s)
{
	size_t n = 0;
	bg_program__raw(p, &n);
	const struct bg_line *l = s->insn < n ? bg_program__line(p, s->insn) : NULL;
	if (l && l->line == s->line)
		return l;
	for (size_t i = 0; i < n; i++) {
		const struct bg_line *x = bg_program__line(p, i);
		if (x && x->line == s->line)
			return x;
	}
	if (l && l->file)
		return l;
	for (size_t i = 0; i < n; i++) /* lost: at least the program's file */
		if ((l = bg_program__line(p, i)) && l->file)
			return l;
	return NULL;
}

/* Line `line` of file into buf (the source when the line holds no code). */
static bool read_source_line(const char *file, uint32_t line, char *buf, size_t sz)
{
	FILE *f = file ? fopen(file, "r") : NULL;
	uint32_t k = 1;
	bool ok = false;
	if (!f)
		return false;
	while (fgets(buf, (int)sz, f)) {
		size_t l = strlen(buf);
		bool whole = l && buf[l - 1] == '\n';
		if (k == line) {
			ok = true;
			break;
		}
		k += whole;
	}
	fclose(f);
	return ok;
}

/* "bg_assert_pkt(ip, 20)" from the source text, else from the record. */
static void describe(const struct bg_assert_result *r, char *buf, size_t sz)
{
	const struct bg_assert_site *s = &r->site;
	char key[32];
	snprintf(key, sizeof(key), "bg_assert_%s(", bg_assert_kind_name(s->kind));
	char src[512];
	const char *t = r->loc && r->loc->line == s->line && r->loc->text ? strstr(r->loc->text, key)
									    : NULL;
	if (!t && r->loc && read_source_line(r->loc->file, s->line, src, sizeof(src)))
		t = strstr(src, key);
	if (t) {
		int depth = 0;
		size_t i = 0;
		for (; t[i] && i + 1 < sz; i++) {
			depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
			if (t[i] == ')' && depth == 0) {
				i++;
				break;
			}
		}
		if (depth == 0 || !t[i]) {
			memcpy(buf, t, i);
			buf[i] = 0;
			return;
		}
	}
	char reg[8] = "";
	if (s->reg >= 0)
		snprintf(reg, sizeof(reg), "r%d", s->reg);
	switch (s->kind) {
	case BG_ASSERT_RANGE:
		snprintf(buf, sz, "%s%s, %" PRId64 ", %" PRId64 ")", key, reg[0] ? reg : "?", s->a, s->b);
		break;
	case BG_ASSERT_PKT:
		snprintf(buf, sz, "%s%s, %" PRId64 ")", key, reg[0] ? reg : "?", s->a);
		break;
	case BG_ASSERT_MAX_INSNS:
		snprintf(buf, sz, "%s%" PRId64 ")", key, s->a);
		break;
	case BG_ASSERT_UNROLLED:
		snprintf(buf, sz, "%s)", key);
		break;
	default:
		snprintf(buf, sz, "%s%s)", key, reg[0] ? reg : "?");
	}
}

/* ------------------------------------------------------------- lost */

static bool prog_has_func(const struct bg_program *p, const char *name)
{
	for (size_t i = 0; name && i < bg_program__func_cnt(p); i++) {
		const char *f = bg_program__func(p, i)->name;
		if (f && !strcmp(f, name))
			return true;
	}
	return false;
}

/* Lost declarations reported under p: its own functions', and those of
 * no program's function (under the object's first program). */
static bool lost_belongs(const struct bg_program *p, const struct bg_assert_site *d)
{
	if (prog_has_func(p, d->func))
		return true;
	const struct bg_object *o = bg_program__object(p);
	if (bg_object__prog(o, 0) != p)
		return false;
	for (size_t i = 0; i < bg_object__prog_cnt(o); i++)
		if (prog_has_func(bg_object__prog(o, i), d->func))
			return false;
	return true;
}

int bg_asserts__check(const struct bg_program *prog, const struct bg_verify_states *st, int lost,
		      struct bg_assert_result **out)
{
	size_t n = 0, nl = 0, cnt = 0;
	const struct bg_assert_site *sites = bg_program__asserts(prog, &n);
	const struct bg_assert_site *ls =
	    lost ? bg_object__lost_asserts(bg_program__object(prog), &nl) : NULL;
	struct bg_assert_result *r = calloc(n + nl + 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++, cnt++) {
		struct bg_assert_result *x = &r[cnt];
		x->site = sites[i];
		x->loc = find_line(prog, &x->site);
		int e = 0;
		if (x->site.kind == BG_ASSERT_UNROLLED || x->site.kind == BG_ASSERT_MAX_INSNS)
			e = check_structure(prog, x);
		else if (st)
			check_states(st, x);
		else
			e = -EINVAL;
		if (e) {
			free(r);
			return e;
		}
		describe(x, x->text, sizeof(x->text));
	}
	for (size_t i = 0; i < nl; i++) {
		if (!lost_belongs(prog, &ls[i]))
			continue;
		struct bg_assert_result *x = &r[cnt++];
		x->site = ls[i];
		x->status = BG_ASSERT_LOST;
		x->loc = find_line(prog, &x->site);
		snprintf(x->why, sizeof(x->why), "optimized away: no marker left in the compiled code%s%s",
			 x->site.func ? " of " : "", x->site.func ? x->site.func : "");
		describe(x, x->text, sizeof(x->text));
	}
	*out = r;
	return (int)cnt;
}
