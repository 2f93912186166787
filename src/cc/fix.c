/* The fix search: rebuild without what broke verifiability, cheapest first.
 *  1. -mllvm knobs that switch off the culprit pass's transform (one table);
 *  2. target choices: -mcpu=v3 (32-bit compares and ALU on subregisters, so
 *     a check on a zero-extended copy disappears), -mcpu=v4 on clang >= 18;
 *  3. the other known knobs, one at a time;
 *  4. surgery: skip the culprit run of (pass, function), then also its
 *     later runs (InstCombine runs ~8 times per function and a later run
 *     redoes what an earlier one was stopped from doing), then bisect again.
 *     Two routes (--fix-route): the pass plugin skips runs inside clang; the
 *     textual pipeline (pipeline.c) drops entries from opt's -O2 pipeline,
 *     for every function. auto: the plugin when it was built.
 * Every candidate is compiled and judged by the same verifiers; the first
 * that every verifier accepts wins. The search stops at the time budget. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <limits.h>
#include "cc/cc_int.h"
#include "cc/pipeline.h"

/* Knobs of stock LLVM (present in clang 14 and 19) and the pass each tames. */
static const struct knob {
	const char *pass;
	const char *flag;
} knobs[] = {
	{"SimplifyCFGPass", "-simplifycfg-sink-common=false"},
	{"SimplifyCFGPass", "-two-entry-phi-node-folding-threshold=0"},
	{"SimplifyCFGPass", "-simplifycfg-hoist-common=false"},
	{"SimplifyCFGPass", "-simplifycfg-branch-fold-threshold=0"},
	{"SimplifyCFGPass", "-phi-node-folding-threshold=0"},
	{"GVNPass", "-enable-load-pre=false"},
	{"GVNPass", "-enable-pre=false"},
	{"LICMPass", "-disable-licm-promotion"},
	{"JumpThreadingPass", "-jump-threading-threshold=0"},
	{"Machine code sinking", "-disable-machine-sink"},
	{"Machine Loop Invariant Code Motion", "-disable-machine-licm"},
	{"Early Machine Loop Invariant Code Motion", "-disable-machine-licm"},
	{"Machine Common Subexpression Elimination", "-disable-machine-cse"},
	{"Control Flow Optimizer", "-disable-branch-fold"},
	{"Tail Duplication", "-disable-tail-duplicate"},
	{"Early Tail Duplication", "-disable-early-taildup"},
	{"Peephole Optimizations", "-disable-peephole"},
	{"Machine Copy Propagation Pass", "-disable-copyprop"},
	{"PostRA Machine Sink", "-disable-postra-machine-sink"},
	{"Loop Strength Reduction", "-disable-lsr"},
	{"ConstraintEliminationPass", "-enable-constraint-elimination=false"},
};
#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

/* Find the pass plugin for s->clang_major once (s->plugin, "" when none):
 * in dir when given, else next to the executable (plugins/) or installed
 * (../lib/bpfgate/). */
void cc_find_plugin(struct bg_cc_result *s, const char *dir)
{
	char exe[PATH_MAX];
	ssize_t n;

	s->plugin[0] = 0;
	if (dir) {
		snprintf(s->plugin, sizeof(s->plugin), "%s/bpfgate-skip-%d.so", dir, s->clang_major);
		if (access(s->plugin, R_OK))
			s->plugin[0] = 0;
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = 0;
	if (strrchr(exe, '/'))
		*strrchr(exe, '/') = 0;
	snprintf(s->plugin, sizeof(s->plugin), "%s/plugins/bpfgate-skip-%d.so", exe, s->clang_major);
	if (access(s->plugin, R_OK) == 0)
		return;
	snprintf(s->plugin, sizeof(s->plugin), "%s/../lib/bpfgate/bpfgate-skip-%d.so", exe, s->clang_major);
	if (access(s->plugin, R_OK))
		s->plugin[0] = 0;
}

const char *cc_plugin_path(const struct bg_cc_result *s)
{
	return s->plugin[0] ? s->plugin : NULL;
}

static bool user_has_mcpu_at_least(const struct bg_cc_result *s, int v)
{
	for (int i = 0; i < s->nargs; i++)
		if (!strncmp(s->args[i], "-mcpu=v", 7) && atoi(s->args[i] + 7) >= v)
			return true;
	return false;
}

/* Compile and judge one candidate; on success record it as the fix. */
static bool attempt(struct bg_cc_result *s, struct cc_variant *v, const char *what)
{
	struct cc_judge j;
	struct cc_attempt *a;
	char tag[32];
	enum cc_outcome o;

	if (s->nattempts >= CC_MAX_ATTEMPTS || cc_over_budget(s))
		return false;
	a = &s->attempts[s->nattempts];
	snprintf(tag, sizeof(tag), "fix-%d", s->nattempts);
	s->nattempts++;
	v->bisect_limit = -1;
	o = cc_try(s, v, &j, tag);
	snprintf(a->what, sizeof(a->what), "%s", what);
	a->outcome = o;
	a->insns = j.insns;
	if (o != CC_GOOD) {
		const char *m = !j.compiled ? j.compile_err : "";

		for (int i = 0; i < j.nprogs && !*m; i++)
			if (j.progs[i].rejected)
				m = j.progs[i].msg;
		snprintf(a->msg, sizeof(a->msg), "%s", m);
	}
	cc_progress(s, "try %s: %s", what,
		    o == CC_GOOD ? "accepted" : o == CC_BAD ? "still rejected the same way" : "rejected otherwise");
	if (o == CC_GOOD) {
		snprintf(s->fix, sizeof(s->fix), "%s", what);
		s->insns_after = j.insns;
		snprintf(s->written, sizeof(s->written), "%s/%s.o", s->tmpdir, tag);
	}
	return o == CC_GOOD;
}

static bool try_flag(struct bg_cc_result *s, const char *flag, bool mllvm)
{
	struct cc_variant v = {.deps = false};
	char what[200];

	if (mllvm)
		v.extra[v.nextra++] = "-mllvm";
	v.extra[v.nextra++] = flag;
	snprintf(what, sizeof(what), "%s%s", mllvm ? "-mllvm " : "", flag);
	return attempt(s, &v, what);
}

/* Back out pass runs through the textual pipeline instead of the plugin:
 * asked for, or (auto) when no plugin was built for this clang. */
static bool pipeline_route(const struct bg_cc_result *s)
{
	return s->fix_route == BG_CC_ROUTE_PIPELINE ||
	       (s->fix_route == BG_CC_ROUTE_AUTO && !cc_plugin_path(s));
}

/* A plugin skip list ("Name@unit#k,Name@unit") as pipeline entries
 * ("name#k,name"); false when a pass has no pipeline name. */
static bool spec_to_entries(const char *spec, char *out, size_t sz)
{
	size_t o = 0;

	out[0] = 0;
	for (const char *p = spec; *p;) {
		size_t len = strcspn(p, ","), nl = strcspn(p, "@,");
		const char *hash = memchr(p, '#', len);
		char cls[160], one[192];

		snprintf(cls, sizeof(cls), "%.*s", (int)nl, p);
		if (!cc_pipe_entry(cls, hash ? atoi(hash + 1) : 0, one, sizeof(one)))
			return false;
		o += snprintf(out + o, o < sz ? sz - o : 0, "%s%s", o ? "," : "", one);
		p += len;
		if (*p == ',')
			p++;
	}
	return o < sz;
}

static bool try_skip(struct bg_cc_result *s, const char *spec)
{
	struct cc_variant v = {.skip = spec};
	char entries[1024], what[1100];

	if (pipeline_route(s)) {
		if (cc_pipe_why(s))
			return false; /* said once, by the attempt that set it up */
		if (!spec_to_entries(spec, entries, sizeof(entries))) {
			cc_progress(s, "pipeline route: no pipeline name for a pass of %s", spec);
			return false;
		}
		v.skip = NULL;
		v.pipe_drop = entries;
		snprintf(what, sizeof(what), "pipeline without %s", entries);
		if (!attempt(s, &v, what))
			return false;
		s->route_used = "pipeline";
		return true;
	}
	if (!cc_plugin_path(s))
		return false; /* --fix-route plugin without a plugin: the build would not change */
	snprintf(what, sizeof(what), "skip pass run(s) %s", spec);
	if (!attempt(s, &v, what))
		return false;
	s->route_used = "plugin";
	return true;
}

/* Append the current culprit to spec: its one run ("name@unit#run") or,
 * with all_runs, every run of the pass on that unit ("name@unit"). */
static void add_culprit(const struct bg_cc_result *s, char *spec, size_t sz, bool all_runs)
{
	size_t n = strlen(spec);

	if (all_runs)
		snprintf(spec + n, sz - n, "%s%s@%s", n ? "," : "", s->culprit_name, s->culprit_unit);
	else
		snprintf(spec + n, sz - n, "%s%s@%s#%d", n ? "," : "", s->culprit_name,
			 s->culprit_unit, s->culprit_occurrence);
}

static bool surgery_rounds(struct bg_cc_result *s);

static bool try_surgery(struct bg_cc_result *s)
{
	/* later bisections overwrite the culprit; the report keeps the first */
	long culprit = s->culprit;
	char name[160], unit[128];
	int occ = s->culprit_occurrence, compiles = s->bisect_compiles;
	enum cc_outcome before = s->before;
	bool ok;

	snprintf(name, sizeof(name), "%s", s->culprit_name);
	snprintf(unit, sizeof(unit), "%s", s->culprit_unit);
	ok = surgery_rounds(s);
	s->culprit = culprit;
	s->culprit_occurrence = occ;
	s->bisect_compiles = compiles;
	s->before = before;
	s->culprit_is_ir = true;
	s->bisect_skip = NULL;
	snprintf(s->culprit_name, sizeof(s->culprit_name), "%s", name);
	snprintf(s->culprit_unit, sizeof(s->culprit_unit), "%s", unit);
	return ok;
}

static bool surgery_rounds(struct bg_cc_result *s)
{
	char *spec = s->skip_spec; /* s->bisect_skip points here */
	const size_t specsz = sizeof(s->skip_spec);
	char one[1024];
	size_t o = 0;

	if (!pipeline_route(s) && !cc_plugin_path(s)) {
		cc_progress(s, "no pass plugin for clang %d: cannot skip single pass runs", s->clang_major);
		return false;
	}
	spec[0] = 0;
	/* each round: the culprit run alone, then every run of that pass on the
	 * unit (kept when still rejected), then bisect again with it skipped */
	for (int round = 0; round < 6 && s->culprit > 0 && s->culprit_is_ir && !cc_over_budget(s); round++) {
		snprintf(one, sizeof(one), "%s", spec);
		add_culprit(s, one, sizeof(one), false);
		if (try_skip(s, one))
			return true;
		add_culprit(s, spec, specsz, true);
		if (try_skip(s, spec))
			return true;
		if (pipeline_route(s)) {
			char drop[1024], entry[192];

			if (!spec_to_entries(spec, drop, sizeof(drop)) ||
			    cc_pipe_bisect(s, drop, entry, sizeof(entry)) != 0)
				break;
		} else {
			s->bisect_skip = spec;
			if (cc_bisect(s) != 0)
				break;
		}
		if (s->culprit > 0)
			o += snprintf(s->chain + o, sizeof(s->chain) - o, "%s(%ld) %s on %s run %d",
				      o ? ", " : "", s->culprit, s->culprit_name, s->culprit_unit,
				      s->culprit_occurrence);
	}
	return false;
}

/* Passes that most often rewrite safe code into unverifiable code, tried
 * first when the bisection could not isolate a run (no accepted build
 * below the culprit: the build only becomes loadable at that point). */
static const char *const suspects[] = {
	"InstCombinePass", "SimplifyCFGPass", "GVNPass", "EarlyCSEPass", "JumpThreadingPass",
	"CorrelatedValuePropagationPass", "LICMPass", "IndVarSimplifyPass", "SCCPPass",
	"LoopStrengthReducePass", "SpeculativeExecutionPass", "MergedLoadStoreMotionPass",
	"InstSimplifyPass", "ReassociatePass", "DSEPass", "BDCEPass", "LoopRotatePass",
	"LoopUnrollPass", "SROAPass", "ConstraintEliminationPass", "LoopFullUnrollPass",
};
#define NSUSPECTS (sizeof(suspects) / sizeof(suspects[0]))

/* Is pass `name` run on `unit` in the BISECT listing of the user's build? */
static long first_run(const char *listing, const char *name, const char *unit)
{
	char pat[320];
	const char *p;

	snprintf(pat, sizeof(pat), ") %s on %s\n", name, unit);
	p = listing ? strstr(listing, pat) : NULL;
	if (!p)
		return -1;
	while (p > listing && p[-1] != '(')
		p--;
	return atol(p);
}

/* Elimination: skip every run of one suspect pass (then of two) on the
 * rejected function; the first combination every verifier accepts names
 * the culprit. Bounded by the budget and by NSUSPECTS^2/2 compiles. */
static bool try_elimination(struct bg_cc_result *s)
{
	const char *unit = s->first.progs[s->target].name;
	int ok[NSUSPECTS], n = 0, before;
	char spec[512], all[1024], fix_all[1100] = "", written_all[512] = "";
	const char *used = spec;
	size_t o = 0, insns_all = 0;

	for (size_t i = 0; i < NSUSPECTS; i++)
		if (first_run(s->stderr_text, suspects[i], unit) > 0)
			ok[n++] = (int)i;
	/* every suspect at once first: when even that is rejected the same way,
	 * no subset will do (the source is the likely cause) - one compile
	 * instead of ~30; when it loads, it is the fallback fix */
	for (int i = 0; i < n; i++)
		o += snprintf(all + o, o < sizeof(all) ? sizeof(all) - o : 0, "%s%s@%s", o ? "," : "",
			      suspects[ok[i]], unit);
	before = s->nattempts;
	if (n > 1 && o < sizeof(all)) {
		if (try_skip(s, all)) {
			snprintf(fix_all, sizeof(fix_all), "%s", s->fix);
			snprintf(written_all, sizeof(written_all), "%s", s->written);
			insns_all = s->insns_after;
			s->fix[0] = 0;
		} else if (s->nattempts > before && s->attempts[s->nattempts - 1].outcome == CC_BAD) {
			cc_progress(s, "skipping every suspect pass is still rejected the same way: nothing to eliminate");
			return false;
		}
	}
	for (int i = 0; i < n && !cc_over_budget(s); i++) {
		snprintf(spec, sizeof(spec), "%s@%s", suspects[ok[i]], unit);
		if (try_skip(s, spec))
			goto found;
	}
	for (int i = 0; i < n && i < 4; i++)
		for (int k = i + 1; k < n && k < 6 && !cc_over_budget(s); k++) {
			snprintf(spec, sizeof(spec), "%s@%s,%s@%s", suspects[ok[i]], unit, suspects[ok[k]], unit);
			if (try_skip(s, spec))
				goto found;
		}
	if (!fix_all[0])
		return false;
	snprintf(s->fix, sizeof(s->fix), "%s", fix_all);
	snprintf(s->written, sizeof(s->written), "%s", written_all);
	s->insns_after = insns_all;
	used = all;
found:
	/* report the (first) eliminated pass as the culprit */
	snprintf(s->culprit_name, sizeof(s->culprit_name), "%.*s", (int)strcspn(used, "@"), used);
	snprintf(s->culprit_unit, sizeof(s->culprit_unit), "%s", unit);
	s->culprit = first_run(s->stderr_text, s->culprit_name, unit);
	s->culprit_occurrence = 1;
	s->culprit_is_ir = true;
	s->by_elimination = true;
	s->changed[0] = 0;
	cc_ir_diff(s);
	return true;
}

/* The user's -mcpu level: 1-4, 4 for "probe" (the running kernel decides,
 * and it may be newer than a listed one), 0 when not given (clang's default). */
static int user_mcpu(const struct bg_cc_result *s)
{
	int lvl = 0;

	for (int i = 0; i < s->nargs; i++) {
		if (!strncmp(s->args[i], "-mcpu=v", 7))
			lvl = atoi(s->args[i] + 7);
		else if (!strcmp(s->args[i], "-mcpu=probe"))
			lvl = 4;
		else if (!strncmp(s->args[i], "-mcpu=", 6))
			lvl = 1; /* generic */
	}
	return lvl;
}

bool cc_isa_rejection(const char *msg)
{
	static const char *const isa[] = {"uses reserved fields", "unknown opcode",
					  "invalid BPF_ALU opcode", "invalid BPF_LD_IMM"};

	for (size_t i = 0; i < sizeof(isa) / sizeof(isa[0]); i++)
		if (strstr(msg, isa[i]))
			return true;
	return false;
}

int cc_fix_isa(struct bg_cc_result *s)
{
	static const char *const lower[] = {"-mcpu=v1", "-mcpu=v2", "-mcpu=v3"};

	for (int v = user_mcpu(s) - 1; v >= 1; v--)
		if (try_flag(s, lower[v - 1], false))
			return 0;
	return -1;
}

int cc_find_fix(struct bg_cc_result *s)
{
	bool tried[NKNOBS] = {0};

	for (size_t i = 0; i < NKNOBS; i++) {
		if (strcmp(knobs[i].pass, s->culprit_name))
			continue;
		tried[i] = true;
		if (try_flag(s, knobs[i].flag, true))
			return 0;
	}
	if (!user_has_mcpu_at_least(s, 3) && try_flag(s, "-mcpu=v3", false))
		return 0;
	if (s->clang_major >= 18 && !user_has_mcpu_at_least(s, 4) && try_flag(s, "-mcpu=v4", false))
		return 0;
	if (s->culprit_is_ir && s->before == CC_GOOD && try_surgery(s))
		return 0;
	if (try_elimination(s))
		return 0;
	for (size_t i = 0; i < NKNOBS; i++) {
		bool dup = false;

		for (size_t k = 0; k < i; k++)
			dup |= !strcmp(knobs[k].flag, knobs[i].flag);
		if (!tried[i] && !dup && try_flag(s, knobs[i].flag, true))
			return 0;
	}
	return -1;
}
