/* Soundness of the static verifier against concrete runs.
 *
 * For every program of the examples ($BG_EXAMPLES) and of the corpus
 * ($BG_CORPUS: variants c19v4 and c14; BG_SOUND_ALL=1 walks every variant)
 * that bpfgate check accepts and whose type the interpreter runs faithfully
 * (packet types on the crafted packets of test_progs.h; kprobe, tracepoint,
 * raw_tp on zero and random ctx bytes; cgroup hooks on a zero ctx), the
 * interpreter runs it with a per-instruction hook, twice: maps as the program
 * leaves them, then with random array values / globals and the hash keys it
 * looked up present. At every executed instruction the registers of the
 * current frame must lie in one of the abstract states the analysis kept for
 * that slot (bg_verify_states): scalars inside the intervals and the tnum;
 * pointers of the claimed region with the offset in range (ctx from r1 at
 * entry, stack from the frame's r10, packet from data / data_meta / data_end,
 * map values from a value region of the same map); packet pointers with
 * their base relation (ptr - delta is data for base 0, the same for
 * registers sharing a base) and the proven room (end - base >= range);
 * linked scalars with their constant distance; and the state's stack claims
 * (known-zero bytes, spilled registers) against the concrete stack. The
 * sanitizer must not report a fault on an accepted program. A violation is a
 * soundness bug: reported with program, input, pc, register or stack slot,
 * concrete and abstract value. Runs that stop in something the interpreter
 * does not model (kfuncs, unimplemented helpers) are XFAIL with the reason.
 * Knobs for experiments: BG_SOUND_ALL=1 (every compiler variant),
 * BG_SOUND_MUTANTS=1 (a mutant of every packet), BG_SOUND_MAX_PER_INSN=N
 * (join stored states early), BG_CHECK_K=N (the analysis' partition bound),
 * BG_SOUND_VERBOSE=1 (coverage per program), BG_SOUND_UNPRIV=1 (the
 * unprivileged analysis: its claims, and no uninitialised stack read),
 * BG_SOUND_PROFILE=VER (the claims made for kernel profile VER). */
/* min-pass: 423 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/verifier.h>
#include <bpfgate/vm.h>
#include "test.h"
#include "test_progs.h"

#define STACK_SIZE 512
#define MAX_CONSIST 64

/* Inputs per pass ($BG_SOUND_INPUTS, default all). */
static size_t max_inputs = SIZE_MAX;

/* Totals over the whole run. */
static size_t n_kind[BG_AVAL_ANY + 1];
static size_t n_insns, n_covered;
static size_t n_progs, n_states, n_regs, n_slots, n_unchecked, n_violations, n_rejected, n_merged;

struct consist {
	int key;               /* map index or function insn */
	uint8_t kind;
	uint64_t value;
};

/* One program's run: the claims and what the hook learned. */
struct sound {
	const struct bg_program *prog;
	const struct bg_verify_states *st;
	struct bg_vm *vm;
	const char *pkt;
	const struct bg_insn *insns;
	size_t ninsns;
	/* per run */
	bool started, stopped;
	uint64_t ctx_base, fp0;
	size_t prev_pc;
	/* per program */
	struct consist cons[MAX_CONSIST];
	size_t ncons;
	size_t violations;
	char first[1024];
	uint8_t *seen;         /* executed slots */
	struct {               /* keys the program looked up in hash maps */
		int map;
		uint8_t key[64];
	} keys[32];
	size_t nkeys;
};

/* ---------- one register against one abstract value ---------- */

static bool in_region_of(struct sound *s, uint64_t v, const struct bg_aval *a, int kind)
{
	size_t i, n = bg_vm__region_cnt(s->vm);

	for (i = 0; i < n; i++) {
		struct bg_vm_region_info r;

		if (bg_vm__region(s->vm, i, &r) || r.kind != kind)
			continue;
		if (kind == BG_VM_REGION_MAP && r.map != a->map)
			continue;
		if (v >= r.lo && bg_aval__contains(a, v - r.lo))
			return true;
	}
	return false;
}

/* Memory of mem_size bytes at offset o in a's range: some region must hold
 * [v - o, v - o + mem_size) for an o in [smin, smax]. */
static bool mem_in_region(struct sound *s, uint64_t v, const struct bg_aval *a)
{
	size_t i, n = bg_vm__region_cnt(s->vm);

	for (i = 0; i < n; i++) {
		struct bg_vm_region_info r;
		int64_t olo, ohi;

		if (bg_vm__region(s->vm, i, &r) || r.hi - r.lo < a->mem_size || v < r.lo)
			continue;
		/* o in [v + size - hi, v - lo] */
		olo = (int64_t)(v + a->mem_size - r.hi);
		ohi = (int64_t)(v - r.lo);
		if (olo < a->smin)
			olo = a->smin;
		if (ohi > a->smax)
			ohi = a->smax;
		if (olo <= ohi)
			return true;
	}
	return false;
}

/* A map pointer or function value must be the same every time. */
static bool consistent(struct sound *s, uint8_t kind, int key, uint64_t v)
{
	size_t i;

	for (i = 0; i < s->ncons; i++)
		if (s->cons[i].kind == kind && s->cons[i].key == key)
			return s->cons[i].value == v;
	if (s->ncons < MAX_CONSIST)
		s->cons[s->ncons++] = (struct consist){ key, kind, v };
	return true;
}

/* Does v (a register at the current instruction, call frame `depth`) lie in a?
 * *unchecked is set for kinds the interpreter cannot relate to (kernel
 * objects). */
static bool reg_ok(struct sound *s, const struct bg_aval *a, uint64_t v, size_t frame_off,
		   bool *unchecked)
{
	uint64_t meta = 0, data = 0, end = 0;

	*unchecked = false;
	if ((a->flags & BG_AVAL_MAYBE_NULL) && v == 0)
		return true;
	switch (a->kind) {
	case BG_AVAL_UNINIT:
	case BG_AVAL_ANY:
		return true;
	case BG_AVAL_SCALAR:
		return bg_aval__contains(a, v);
	case BG_AVAL_CTX:
		return bg_aval__contains(a, v - s->ctx_base);
	case BG_AVAL_STACK:
		return bg_aval__contains(a, v - (s->fp0 - (uint64_t)(a->frame + frame_off) * STACK_SIZE));
	case BG_AVAL_PKT:
	case BG_AVAL_PKT_META: {
		bool m = a->kind == BG_AVAL_PKT_META;
		uint64_t start, bend, base;

		bg_vm__pkt_pointers(s->vm, &meta, &data, &end);
		start = m ? meta : data;
		bend = m ? data : end;
		if (!bg_aval__contains(a, v - start))
			return false;
		if (a->pkt_range < 0)
			return true;
		base = v - (uint64_t)(int64_t)a->delta;
		if (a->base == 0 && base != start)
			return false;
		return a->pkt_range == 0 || (int64_t)(bend - base) >= a->pkt_range;
	}
	case BG_AVAL_PKT_END:
		bg_vm__pkt_pointers(s->vm, &meta, &data, &end);
		return bg_aval__contains(a, v - end);
	case BG_AVAL_MAP_VALUE:
		return in_region_of(s, v, a, BG_VM_REGION_MAP);
	case BG_AVAL_RINGBUF_MEM:
		return in_region_of(s, v, a, BG_VM_REGION_RINGBUF);
	case BG_AVAL_MEM:
		return mem_in_region(s, v, a);
	case BG_AVAL_MAP_PTR:
	case BG_AVAL_FUNC:
		return v != 0 && consistent(s, a->kind, a->map, v);
	default:
		*unchecked = true;
		return true;
	}
}

/* Registers sharing a packet base or a scalar link keep their distance. */
static int relation_bad(const struct bg_astate *st, const uint64_t regs[11])
{
	int i, j;

	for (i = 0; i < 11; i++) {
		const struct bg_aval *a = &st->r[i];
		bool pkt = a->kind == BG_AVAL_PKT || a->kind == BG_AVAL_PKT_META;

		if (!a->base || (pkt && a->pkt_range < 0) || (!pkt && a->kind != BG_AVAL_SCALAR))
			continue;
		if (pkt && regs[i] == 0 && (a->flags & BG_AVAL_MAYBE_NULL))
			continue;
		for (j = i + 1; j < 11; j++) {
			const struct bg_aval *b = &st->r[j];
			uint64_t x, y;

			if (b->kind != a->kind || b->base != a->base || (pkt && b->pkt_range < 0))
				continue;
			x = regs[i] - (uint64_t)(int64_t)a->delta;
			y = regs[j] - (uint64_t)(int64_t)b->delta;
			if ((a->flags | b->flags) & BG_AVAL_LINK32) {
				x = (uint32_t)x;
				y = (uint32_t)y;
			}
			if (x != y)
				return j;
		}
	}
	return -1;
}

/* ---------- the hook ---------- */

/* A concrete value as the analysis would name it: "pkt+34 (data_end-data 60)". */
static void concrete(struct sound *s, const struct bg_aval *a, uint64_t v, char *buf, size_t sz)
{
	uint64_t meta = 0, data = 0, end = 0;

	bg_vm__pkt_pointers(s->vm, &meta, &data, &end);
	if (a && a->kind == BG_AVAL_PKT)
		snprintf(buf, sz, "pkt%+" PRId64 " (data_end-data %" PRId64 ")", (int64_t)(v - data),
			 (int64_t)(end - data));
	else if (a && a->kind == BG_AVAL_PKT_META)
		snprintf(buf, sz, "pkt_meta%+" PRId64 " (data-data_meta %" PRId64 ")",
			 (int64_t)(v - meta), (int64_t)(data - meta));
	else if (a && a->kind == BG_AVAL_CTX)
		snprintf(buf, sz, "ctx%+" PRId64, (int64_t)(v - s->ctx_base));
	else if (a && a->kind == BG_AVAL_STACK)
		snprintf(buf, sz, "fp0%+" PRId64, (int64_t)(v - s->fp0));
	else
		snprintf(buf, sz, "0x%" PRIx64 " (%" PRId64 ")", v, (int64_t)v);
}

static void report(struct sound *s, size_t pc, const char *what, const char *detail)
{
	char dis[128] = "?";

	s->violations++;
	n_violations++;
	if (s->first[0])
		return;
	if (pc < s->ninsns)
		bg_insn_format(&s->insns[pc], dis, sizeof(dis));
	snprintf(s->first, sizeof(s->first), "input %s: insn %zu (%s): %s: %s", s->pkt, pc, dis,
		 what, detail);
}

static bool tail_call_at(struct sound *s, size_t pc)
{
	const struct bg_insn *in = pc < s->ninsns ? &s->insns[pc] : NULL;

	return in && in->kind == BG_K_CALL && in->pseudo == BG_CALL_HELPER &&
	       in->imm == BPF_FUNC_tail_call;
}

/* Stack claims of a state: known-zero bytes are zero, spilled registers hold
 * values in their abstract value. Returns the index of the first bad slot or -1. */
static long slots_bad(struct sound *s, const struct bg_aslot *sl, size_t n, size_t frame_off,
		      uint64_t *val)
{
	size_t k;

	for (k = 0; k < n; k++) {
		size_t f = sl[k].frame + frame_off;
		uint8_t b[8];
		uint64_t v = 0;
		int i;
		bool unchecked;

		if (f >= 8 || sl[k].off < -STACK_SIZE || sl[k].off > -8)
			return (long)k;
		memcpy(b, (const void *)(uintptr_t)(s->fp0 - f * STACK_SIZE + (uint64_t)(int64_t)sl[k].off), 8);
		for (i = 0; i < 8; i++)
			if ((sl[k].zero >> i & 1) && b[i]) {
				*val = b[i];
				return (long)k;
			}
		if (!sl[k].spill_size)
			continue;
		for (i = sl[k].spill_size - 1; i >= 0; i--)
			v = v << 8 | b[i];
		*val = v;
		if (!reg_ok(s, &sl[k].spill, v, frame_off, &unchecked))
			return (long)k;
	}
	return -1;
}

struct verdict {
	int bad;               /* registers / slots outside the claims */
	int reg;               /* first bad register, or -1 */
	long slot;             /* first bad slot, or -1 */
	uint64_t slot_val;
};

static struct verdict judge(struct sound *s, size_t pc, size_t i, const uint64_t regs[11],
			    size_t off)
{
	const struct bg_astate *a = bg_verify_states__get(s->st, pc, i);
	struct verdict v = { 0, -1, -1, 0 };
	const struct bg_aslot *sl;
	size_t nsl;
	int r;

	for (r = 0; r < 11; r++) {
		bool unchecked;

		if (!reg_ok(s, &a->r[r], regs[r], off, &unchecked)) {
			v.bad++;
			if (v.reg < 0)
				v.reg = r;
		}
	}
	if (!v.bad && (r = relation_bad(a, regs)) >= 0) {
		v.bad = 1;
		v.reg = r;
	}
	sl = bg_verify_states__slots(s->st, pc, i, &nsl);
	if (!v.bad && (v.slot = slots_bad(s, sl, nsl, off, &v.slot_val)) >= 0)
		v.bad = 1;
	return v;
}

static void count_checked(struct sound *s, size_t pc, size_t i, const uint64_t regs[11], size_t off)
{
	const struct bg_astate *a = bg_verify_states__get(s->st, pc, i);
	size_t nsl;
	int r;

	for (r = 0; r < 11; r++) {
		bool unchecked;

		reg_ok(s, &a->r[r], regs[r], off, &unchecked);
		n_regs += a->r[r].kind != BG_AVAL_UNINIT && !unchecked;
		if (a->r[r].kind <= BG_AVAL_ANY)
			n_kind[a->r[r].kind]++;
		n_unchecked += unchecked;
	}
	bg_verify_states__slots(s->st, pc, i, &nsl);
	n_slots += nsl;
}

static void report_state(struct sound *s, size_t pc, size_t i, const uint64_t regs[11],
			 const struct verdict *v, size_t n)
{
	const struct bg_astate *a = bg_verify_states__get(s->st, pc, i);
	const char *what = n > 1 ? "outside every state (closest shown)" : "outside the state";
	char cv[160], av[256], detail[512];

	if (v->reg >= 0) {
		concrete(s, &a->r[v->reg], regs[v->reg], cv, sizeof(cv));
		bg_aval__fmt(&a->r[v->reg], av, sizeof(av));
		snprintf(detail, sizeof(detail), "r%d = %s not in %s", v->reg, cv, av);
	} else {
		size_t nsl;
		const struct bg_aslot *sl = bg_verify_states__slots(s->st, pc, i, &nsl) + v->slot;

		bg_aval__fmt(&sl->spill, av, sizeof(av));
		snprintf(detail, sizeof(detail),
			 "stack frame %u fp%+d: concrete 0x%" PRIx64 ", claimed zero mask 0x%02x, spill of %u bytes %s",
			 sl->frame, sl->off, v->slot_val, sl->zero, sl->spill_size,
			 sl->spill_size ? av : "-");
	}
	report(s, pc, what, detail);
}

static bool is_hash(uint32_t t)
{
	return t == BPF_MAP_TYPE_HASH || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_HASH || t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

/* At bpf_map_lookup_elem on a hash map: remember the key (the next pass
 * puts it in the map, so the "found" branches run too). */
static void record_key(struct sound *s, size_t pc, const uint64_t regs[11])
{
	const struct bg_insn *in = &s->insns[pc];
	const struct bg_object *obj = bg_program__object(s->prog);
	const struct bg_map_def *d;
	size_t i, n = bg_vm__region_cnt(s->vm);
	int map = -1;

	if (in->kind != BG_K_CALL || in->pseudo != BG_CALL_HELPER ||
	    in->imm != BPF_FUNC_map_lookup_elem || s->nkeys >= 32)
		return;
	for (i = 0; i < s->ncons; i++)
		if (s->cons[i].kind == BG_AVAL_MAP_PTR && s->cons[i].value == regs[1])
			map = s->cons[i].key;
	d = map >= 0 ? bg_object__map(obj, (size_t)map) : NULL;
	if (!d || !is_hash(d->type) || d->key_size > 64)
		return;
	for (i = 0; i < n; i++) { /* the key must be readable memory of the run */
		struct bg_vm_region_info r;

		if (!bg_vm__region(s->vm, i, &r) && regs[2] >= r.lo && regs[2] + d->key_size <= r.hi)
			break;
	}
	if (i == n)
		return;
	for (i = 0; i < s->nkeys; i++)
		if (s->keys[i].map == map &&
		    !memcmp(s->keys[i].key, (const void *)(uintptr_t)regs[2], d->key_size))
			return;
	s->keys[s->nkeys].map = map;
	memcpy(s->keys[s->nkeys++].key, (const void *)(uintptr_t)regs[2], d->key_size);
}

static void hook(void *cookie, size_t pc, const uint64_t regs[11])
{
	struct sound *s = cookie;
	struct verdict best = { 12, -1, -1, 0 };
	size_t i, n, depth, best_i = 0;
	char cv[160];

	if (s->stopped)
		return;
	if (!s->started) {
		s->started = true;
		s->ctx_base = regs[1];
		s->fp0 = regs[10];
	} else if (tail_call_at(s, s->prev_pc) && pc != s->prev_pc + 1) {
		s->stopped = true; /* another program runs now: its own claims apply */
		return;
	}
	s->prev_pc = pc;
	if (pc < s->ninsns && !s->seen[pc]) {
		s->seen[pc] = 1;
		n_covered++;
	}
	if (regs[10] > s->fp0 || (s->fp0 - regs[10]) % STACK_SIZE) {
		concrete(s, NULL, regs[10], cv, sizeof(cv));
		report(s, pc, "frame pointer is not a frame", cv);
		return;
	}
	depth = (s->fp0 - regs[10]) / STACK_SIZE;
	n_states++;
	n = bg_verify_states__cnt(s->st, pc);
	if (!n) {
		report(s, pc, "executed, but the analysis never reached it", "-");
		return;
	}
	for (i = 0; i < n; i++) {
		const struct bg_astate *a = bg_verify_states__get(s->st, pc, i);
		size_t off = 0;
		struct verdict v;

		/* a global function's frames count from its own entry */
		if (a->flags & BG_ASTATE_GLOBAL_ROOT) {
			if (a->frame > depth)
				continue;
			off = depth - a->frame;
		} else if (a->frame != depth) {
			continue;
		}
		v = judge(s, pc, i, regs, off);
		if (!v.bad) {
			count_checked(s, pc, i, regs, off);
			record_key(s, pc, regs);
			return;
		}
		if (v.bad < best.bad) {
			best = v;
			best_i = i;
		}
	}
	if (best.bad == 12) {
		snprintf(cv, sizeof(cv), "call depth %zu", depth);
		report(s, pc, "no state of this call depth", cv);
		return;
	}
	report_state(s, pc, best_i, regs, &best, n);
}

/* ---------- one program ---------- */

/* How a program type is run: on the crafted packets, or on ctx bytes
 * (zero, then random: every pt_regs / tracepoint field / raw_tp argument is
 * a number the analysis may assume nothing about), or on a zero ctx only
 * (cgroup hooks: their ctx holds kernel pointers the interpreter lacks).
 * Other types (BTF-typed tracing, perf_event, sock_ops, sk_msg, syscall,
 * flow dissector) are not run: the interpreter's ctx for them is not the
 * kernel's (see the notes). */
enum run_kind { RUN_NONE, RUN_PACKETS, RUN_CTX_RANDOM, RUN_CTX_ZERO };

static enum run_kind run_kind(uint32_t t)
{
	switch (t) {
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_SK_SKB:
		return RUN_PACKETS;
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
		return RUN_CTX_RANDOM;
	case BPF_PROG_TYPE_CGROUP_SOCK:
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
	case BPF_PROG_TYPE_CGROUP_DEVICE:
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return RUN_CTX_ZERO;
	default:
		return RUN_NONE;
	}
}

#define CTX_RUNS 8
/* per run: the checked runs cost ~0.3 us per instruction; may_goto loops
 * would otherwise run their 8M iterations */
#define INSN_BUDGET (1u << 16)
#define CTX_BYTES 256

/* Input i of a run: a packet, or ctx bytes. Returns false past the last. */
static bool set_input(struct bg_vm *vm, enum run_kind k, size_t i, uint64_t *rng, char *name,
		      size_t namesz)
{
	uint8_t ctx[CTX_BYTES];
	size_t j;

	if (k == RUN_PACKETS) {
		static uint8_t b[1600];
		size_t len, n;

		if (i < test_npkts) {
			snprintf(name, namesz, "%s", test_pkts[i].name);
			bg_vm__set_packet(vm, test_pkts[i].b, test_pkts[i].len);
			return true;
		}
		if (!getenv("BG_SOUND_MUTANTS") || i >= 2 * test_npkts)
			return false;
		/* BG_SOUND_MUTANTS=1: also a mutant of each (a few random header
		 * bytes, maybe truncated); off by default: +0.1% coverage, 2x time */
		i -= test_npkts;
		len = test_pkts[i].len;
		memcpy(b, test_pkts[i].b, len);
		for (n = 0; n < 4 && len; n++) {
			*rng ^= *rng << 13;
			*rng ^= *rng >> 7;
			*rng ^= *rng << 17;
			b[(*rng >> 8) % (len < 80 ? len : 80)] = (uint8_t)*rng;
		}
		if ((*rng >> 40) % 4 == 0 && len > 14)
			len = 14 + (size_t)((*rng >> 20) % (len - 14));
		snprintf(name, namesz, "%s mutated", test_pkts[i].name);
		bg_vm__set_packet(vm, b, len);
		return true;
	}
	if (i >= (k == RUN_CTX_ZERO ? 1 : CTX_RUNS))
		return false;
	for (j = 0; j < sizeof(ctx); j++) {
		*rng ^= *rng << 13;
		*rng ^= *rng >> 7;
		*rng ^= *rng << 17;
		ctx[j] = i ? (uint8_t)*rng : 0;
	}
	snprintf(name, namesz, i ? "ctx random #%zu" : "ctx zero", i);
	bg_vm__set_ctx(vm, ctx, sizeof(ctx));
	return true;
}

/* A fault that means "not modelled by the interpreter", not a memory error. */
static const char *unmodelled(const struct bg_vm_fault *f)
{
	if (!f)
		return NULL;
	switch (f->kind) {
	case BG_VM_FAULT_KFUNC:
		return "kfuncs are not modelled by the interpreter";
	case BG_VM_FAULT_HELPER:
		return strstr(f->msg, "not implemented") ? "helper not implemented by the interpreter"
							   : NULL;
	case BG_VM_FAULT_BUDGET:
		return "instruction budget of the checked run (a may_goto / bpf_loop loop)";
	default:
		return NULL;
	}
}

/* Fill every writable array map value (up to 64 entries each) and global
 * variable section with pseudo-random bytes, and insert the hash keys the
 * program looked up. Returns the number of values written. */
static size_t randomize_maps(struct bg_vm *vm, const struct bg_object *obj, const struct sound *s)
{
	static uint8_t val[4096];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	size_t m, changed = 0;

	for (m = 0; m < s->nkeys; m++) {
		const struct bg_map_def *d = bg_object__map(obj, (size_t)s->keys[m].map);
		uint32_t j;

		if (!d || d->value_size > sizeof(val))
			continue;
		for (j = 0; j < d->value_size; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			val[j] = (uint8_t)x;
		}
		if (!bg_vm__map_update(vm, (size_t)s->keys[m].map, s->keys[m].key, val, 0))
			changed++;
	}

	for (m = 0; obj && m < bg_object__map_cnt(obj) && m < bg_vm__map_cnt(vm); m++) {
		const struct bg_map_def *d = bg_object__map(obj, m);
		uint32_t k, j;

		if (d->readonly || d->value_size > sizeof(val) || d->key_size != 4 ||
		    (d->type != BPF_MAP_TYPE_ARRAY && d->type != BPF_MAP_TYPE_PERCPU_ARRAY))
			continue;
		for (k = 0; k < d->max_entries && k < 64; k++) {
			for (j = 0; j < d->value_size; j++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				val[j] = (uint8_t)x;
			}
			if (!bg_vm__map_update(vm, m, &k, val, 0))
				changed++;
		}
	}
	return changed;
}

/* The analysis is privileged by default and, like the kernel with
 * CAP_PERFMON, lets a program read uninitialised stack; the interpreter's
 * sanitizer reports such reads. That is a real finding only when the
 * unprivileged analysis accepts the program too. */
static const char *uninit_allowed(const struct bg_program *p)
{
	struct bg_verify_opts o = { .sz = sizeof(o), .unprivileged = 1 };
	struct bg_verify_result r;
	bool rejected;

	if (bg_verify(p, &o, &r))
		return NULL;
	rejected = r.verdict == BG_VERDICT_REJECTED;
	bg_verify_result__fini(&r);
	return rejected ? "uninitialised stack read: allowed to privileged programs (the kernel too),"
			  " rejected by the unprivileged analysis"
			: NULL;
}

static void sound_prog(const char *objname, struct bg_program *p)
{
	struct bg_verify_states_opts so = { .sz = sizeof(so) };
	struct bg_verify_states *st;
	struct bg_vm_opts vo = { .sz = sizeof(vo) };
	struct sound s;
	char name[512], fault[768] = "", pktname[96];
	const char *xfail = NULL;
	size_t i;
	int pass;
	bool uninit = false;

	enum run_kind kind = run_kind(bg_program__type(p));

	snprintf(name, sizeof(name), "sound/%s/%s", objname, bg_program__name(p));
	so.unprivileged = getenv("BG_SOUND_UNPRIV") != NULL;
	so.profile = getenv("BG_SOUND_PROFILE"); /* a kernel profile's claims, e.g. 5.15 */
	if (getenv("BG_CHECK_K")) /* the analysis' partition bound */
		so.max_disjuncts = (uint32_t)atoi(getenv("BG_CHECK_K"));
	if (getenv("BG_SOUND_MAX_PER_INSN")) /* exercise the joins of stored states */
		so.max_per_insn = (size_t)atoi(getenv("BG_SOUND_MAX_PER_INSN"));
	st = bg_verify_states__new(p, &so);
	if (!st) {
		T_FAIL(name, "bg_verify_states__new: %s", strerror(errno));
		return;
	}
	if (bg_verify_states__result(st)->verdict != BG_VERDICT_ACCEPTED) {
		n_rejected++;
		bg_verify_states__free(st);
		return; /* no claims to check */
	}
	n_merged += bg_verify_states__merged(st);
	memset(&s, 0, sizeof(s));
	s.prog = p;
	s.st = st;
	s.insns = bg_program__insns(p, &s.ninsns);
	s.seen = calloc(s.ninsns + 1, 1);
	for (i = 0; i < s.ninsns; i++)
		n_insns += s.insns[i].kind != BG_K_LD_IMM64_HI;
	vo.hook = hook;
	vo.hook_cookie = &s;
	vo.insn_budget = INSN_BUDGET;
	s.vm = bg_vm__new(p, &vo);
	if (!s.vm) {
		T_FAIL(name, "bg_vm__new: %s", strerror(errno));
		bg_verify_states__free(st);
		return;
	}
	n_progs++;
	/* pass 0: maps as the program leaves them; pass 1: every writable array
	 * value (and global variable) random first, and the keys the program
	 * looked up in hash maps present with random values - the analysis may
	 * assume nothing about them, and other branches run */
	for (pass = 0; pass < 2; pass++) {
		uint64_t rng = 0x2545f4914f6cdd1dull;
		char in[64];

		if (pass == 1 && !randomize_maps(s.vm, bg_program__object(p), &s))
			break;
		for (i = 0; i < max_inputs && set_input(s.vm, kind, i, &rng, in, sizeof(in)); i++) {
			uint64_t r0;
			int err;

			snprintf(pktname, sizeof(pktname), "%s%s", in,
				 pass ? " (random map values)" : "");
			s.pkt = pktname;
			s.started = s.stopped = false;
			err = bg_vm__run(s.vm, &r0);
			if (err && !fault[0]) {
				const struct bg_vm_fault *f = bg_vm__fault(s.vm);

				xfail = unmodelled(f);
				uninit = f && f->kind == BG_VM_FAULT_UNINIT;
				snprintf(fault, sizeof(fault), "input %s: insn %zu: %s", s.pkt,
					 f ? f->pc : 0, f ? f->msg : strerror(-err));
			}
		}
	}
	if (fault[0] && uninit && !xfail)
		xfail = uninit_allowed(p);
	if (s.violations)
		T_FAIL(name, "%zu violations, first: %s", s.violations, s.first);
	else if (fault[0] && xfail)
		T_XFAIL(name, "%s (%s); checked states up to there", fault, xfail);
	else if (fault[0])
		T_FAIL(name, "sanitizer fault on an accepted program: %s", fault);
	else
		T_PASS(name);
	if (getenv("BG_SOUND_VERBOSE")) {
		size_t c = 0, t = 0;

		for (i = 0; i < s.ninsns; i++) {
			c += s.seen[i];
			t += s.insns[i].kind != BG_K_LD_IMM64_HI;
		}
		printf("# %s: %zu of %zu instructions executed\n", name, c, t);
	}
	bg_vm__free(s.vm);
	bg_verify_states__free(st);
	free(s.seen);
}

static void sound_object(const char *path, const char *shortname)
{
	char err[512] = "";
	struct bg_object *obj = bg_object__open(path, NULL, err, sizeof(err));
	size_t i;

	if (!obj)
		return; /* the object loader's own tests report this */
	for (i = 0; i < bg_object__prog_cnt(obj); i++) {
		struct bg_program *p = bg_object__prog(obj, i);

		if (run_kind(bg_program__type(p)) != RUN_NONE)
			sound_prog(shortname, p);
	}
	bg_object__free(obj);
}

/* The states API on a small accepted program, and its argument checks. */
static void api_checks(const char *ex)
{
	char path[PATH_MAX + 32], err[256] = "", buf[256];
	struct bg_object *obj;
	struct bg_verify_states *st;
	const struct bg_astate *a;
	const struct bg_program *p;
	size_t n = 0;

	errno = 0;
	T_CHECK(!bg_verify_states__new(NULL, NULL) && errno == EINVAL, "states_api_null",
		"bg_verify_states__new(NULL) did not fail with EINVAL");
	bg_verify_states__free(NULL);
	T_CHECK(!bg_verify_states__cnt(NULL, 0) && !bg_verify_states__get(NULL, 0, 0) &&
			!bg_verify_states__slots(NULL, 0, 0, &n) && !n,
		"states_api_null_getters", "getters on NULL");
	snprintf(path, sizeof(path), "%s/xdp_parse.bpf.o", ex);
	obj = bg_object__open(path, NULL, err, sizeof(err));
	if (!obj) {
		T_SKIP("states_api", "%s: %s", path, err);
		return;
	}
	p = bg_object__prog(obj, 0);
	st = bg_verify_states__new(p, NULL);
	a = st ? bg_verify_states__get(st, 0, 0) : NULL;
	T_CHECK(st && bg_verify_states__result(st)->verdict == BG_VERDICT_ACCEPTED &&
			bg_verify_states__cnt(st, 0) == 1 && a && a->frame == 0 &&
			a->r[1].kind == BG_AVAL_CTX && bg_aval__contains(&a->r[1], 0) &&
			!bg_aval__contains(&a->r[1], 1) && a->r[10].kind == BG_AVAL_STACK &&
			a->r[0].kind == BG_AVAL_UNINIT,
		"states_api_entry", "entry state of xdp_parse is not {r1 = ctx+0, r10 = fp+0}");
	T_CHECK(st && !bg_verify_states__get(st, 0, 1) &&
			!bg_verify_states__cnt(st, bg_verify_states__insn_cnt(st)),
		"states_api_bounds", "out-of-range getters");
	T_CHECK(a && bg_aval__fmt(&a->r[1], buf, sizeof(buf)) > 0 && !strncmp(buf, "ctx", 3),
		"states_api_fmt", "fmt gave \"%s\"", a ? buf : "");
	bg_verify_states__free(st);
	bg_object__free(obj);
}

int main(void)
{
	static const char *const variants[] = { "c19v4", "c14", "c19", "c19v3" };
	char exdir[PATH_MAX + 16], cdir[PATH_MAX + 16], pfx[128];
	const char *ex, *corpus;
	size_t v, nvar = getenv("BG_SOUND_ALL") ? 4 : 2;

	bg_set_print(NULL);
	test_make_packets();
	test_make_extra_packets();
	ex = test_examples_dir(exdir, sizeof(exdir));
	if (getenv("BG_SOUND_INPUTS") && atoi(getenv("BG_SOUND_INPUTS")) > 0)
		max_inputs = (size_t)atoi(getenv("BG_SOUND_INPUTS"));
	/* $BG_SOUND_PREFIX names the group (tests/check_data.py runs this on its
	 * compiled cases as "data/") */
	snprintf(pfx, sizeof(pfx), "%s", getenv("BG_SOUND_PREFIX") ? getenv("BG_SOUND_PREFIX") : "examples/");
	if (!getenv("BG_SOUND_PREFIX"))
		api_checks(ex);
	test_walk(ex, pfx, 0, sound_object);
	corpus = test_build_sub(cdir, sizeof(cdir), "BG_CORPUS", "corpus");
	for (v = 0; v < nvar; v++) {
		char sub[PATH_MAX + 32], pre[64];

		snprintf(sub, sizeof(sub), "%s/%s", corpus, variants[v]);
		snprintf(pre, sizeof(pre), "corpus/%s/", variants[v]);
		if (!access(sub, R_OK))
			test_walk(sub, pre, 0, sound_object);
	}
	T_CHECK(n_progs > 0, "soundness ran programs", "no accepted packet program in %s or %s", ex,
		corpus);
	printf("# %zu programs, %zu instruction states checked, %zu violations"
	       " (%zu registers and %zu stack slots checked, %zu kernel-object pointers unchecked,"
	       " %zu rejected programs skipped, %zu states merged)\n",
	       n_progs, n_states, n_violations, n_regs, n_slots, n_unchecked, n_rejected, n_merged);
	{
		int k;

		printf("# register claims checked by kind:");
		for (k = 1; k <= BG_AVAL_ANY; k++)
			if (n_kind[k])
				printf(" %s %zu", bg_aval_kind_str((unsigned)k), n_kind[k]);
		printf("\n");
	}
	printf("# %zu of %zu instructions of these programs executed (%.1f%%)\n", n_covered, n_insns,
	       n_insns ? 100.0 * (double)n_covered / (double)n_insns : 0.0);
	T_EXIT();
}
