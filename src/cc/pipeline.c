/* The textual pipeline route (see pipeline.h): the printed -O2 pipeline is
 * parsed into leaf entries (a pass with its <parameters>, no nested list);
 * containers such as function(...) or cgscc(devirt<4>(...)) only group them.
 * The cut between stage A and stage B is after the last top-level entry whose
 * name is a C++ class name (an upper-case letter: -passes= cannot parse it).
 * Dropping removes leaves, then commas and containers left empty. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc/cc_int.h"
#include "cc/pipeline.h"
#include "cc/spawn.h"

#define PIPE_MAX_LEAVES 1024
#define PIPE_MAX_FLAGS 32

struct leaf {
	size_t off, len; /* the whole entry, with its <parameters> */
	size_t name_len; /* the pass name alone */
	int depth;	 /* 0: top level */
};

struct cc_pipe {
	char opt[PATH_MAX], llc[PATH_MAX];
	char level[16], llc_level[8], mcpu[64];
	const char *flags[PIPE_MAX_FLAGS]; /* the user's -mllvm values */
	int nflags;
	char *text; /* printed pipeline */
	long k;	    /* stage A: -opt-bisect-limit */
	char ir[96], stage_a[96];
	char why[256]; /* set when the route is unusable */
	char *const *envp; /* the tools' environment (bg_cc_opts.envp) */
	int builds;
};

/* --- the pipeline text ---------------------------------------------------- */

static bool is_class_name(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] >= 'A' && p[i] <= 'Z')
			return true;
	return false;
}

/* Split text into leaves; returns their number (at most max). */
static int parse_leaves(const char *t, struct leaf *lv, int max)
{
	size_t i = 0, n = strlen(t);
	int nl = 0, depth = 0;

	while (i < n) {
		size_t start = i, name_end;

		while (i < n && !strchr("<(),", t[i]))
			i++;
		name_end = i;
		if (i < n && t[i] == '<') {
			int d = 0;

			do {
				d += t[i] == '<' ? 1 : t[i] == '>' ? -1 : 0;
				i++;
			} while (i < n && d > 0);
		}
		if (i < n && t[i] == '(') {
			depth++;
			i++;
			continue;
		}
		if (i > start && nl < max)
			lv[nl++] = (struct leaf){start, i - start, name_end - start, depth};
		while (i < n && t[i] == ')') {
			depth--;
			i++;
		}
		if (i < n && t[i] == ',')
			i++;
		else if (i == start)
			i++; /* malformed: never loop */
	}
	return nl;
}

/* Index of the first leaf of stage B, or -1 when there is no usable cut. */
static int cut_index(const char *t, const struct leaf *lv, int nl)
{
	int last = -1;

	for (int i = 0; i < nl; i++)
		if (is_class_name(t + lv[i].off, lv[i].name_len))
			last = i;
	if (last < 0 || lv[last].depth != 0 || last + 1 >= nl)
		return -1;
	return last + 1;
}

static bool leaf_is(const char *t, const struct leaf *l, const char *name, size_t len)
{
	return l->name_len == len && !strncmp(t + l->off, name, len);
}

/* Mark the leaves named by drop ("name#k" or "name", comma separated). */
static int mark_dropped(const char *t, const struct leaf *lv, int nl, int cut, const char *drop,
			bool *dropped, char *why, size_t wsz)
{
	const char *p = drop ? drop : "";

	while (*p) {
		size_t len = strcspn(p, ",#");
		int k = p[len] == '#' ? atoi(p + len + 1) : 0, seen = 0, hit = 0;

		for (int i = 0; i < nl; i++) {
			if (!leaf_is(t, &lv[i], p, len) || (k && ++seen != k))
				continue;
			if (i < cut && !k)
				continue; /* "every entry": every one the route can edit */
			if (i < cut) {
				snprintf(
				    why, wsz,
				    "entry %.*s#%d runs in the first stage (before the BPF passes "
				    "-passes= cannot name), which the textual route cannot edit",
				    (int)len, p, k);
				return -EINVAL;
			}
			dropped[i] = true;
			hit++;
		}
		if (!hit) {
			snprintf(why, wsz, "no pipeline entry %.*s", (int)strcspn(p, ","), p);
			return -ENOENT;
		}
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Remove "()"-empty containers and doubled commas until nothing changes. */
static void tidy(char *t)
{
	bool changed = true;

	while (changed) {
		char *e;

		changed = false;
		for (char *c = t; (c = strstr(c, ",,"));)
			memmove(c, c + 1, strlen(c)), changed = true;
		for (char *c = t; (c = strstr(c, "(,"));)
			memmove(c + 1, c + 2, strlen(c + 1)), changed = true;
		for (char *c = t; (c = strstr(c, ",)"));)
			memmove(c, c + 1, strlen(c)), changed = true;
		if ((e = strstr(t, "()"))) {
			char *b = e;
			int d = 0;

			while (b > t && (d > 0 || (b[-1] != ',' && b[-1] != '('))) {
				d += b[-1] == '>' ? 1 : b[-1] == '<' ? -1 : 0;
				b--;
			}
			memmove(b, e + 2, strlen(e + 2) + 1);
			changed = true;
		}
		if (t[0] == ',')
			memmove(t, t + 1, strlen(t)), changed = true;
		if (*t && t[strlen(t) - 1] == ',')
			t[strlen(t) - 1] = 0, changed = true;
	}
}

char *cc_pipe_text_without(const char *t, const char *drop, char *why, size_t wsz)
{
	struct leaf *lv = calloc(PIPE_MAX_LEAVES, sizeof(*lv));
	bool *dropped = calloc(PIPE_MAX_LEAVES, sizeof(*dropped));
	int nl, cut, rc;
	char *out = NULL;

	if (!lv || !dropped)
		goto fail_errno;
	nl = parse_leaves(t, lv, PIPE_MAX_LEAVES);
	cut = cut_index(t, lv, nl);
	if (cut < 0) {
		snprintf(why, wsz, "no top-level BPF pass to cut the pipeline after");
		errno = EINVAL;
		goto out;
	}
	rc = mark_dropped(t, lv, nl, cut, drop, dropped, why, wsz);
	if (rc < 0) {
		errno = -rc;
		goto out;
	}
	out = malloc(strlen(t) + 1);
	if (!out)
		goto fail_errno;
	{
		/* stage B starts right after the cut entry (top level) and its comma */
		size_t o = 0, from = lv[cut - 1].off + lv[cut - 1].len + 1;

		for (int i = cut; i < nl; i++) {
			if (!dropped[i])
				continue;
			memcpy(out + o, t + from, lv[i].off - from);
			o += lv[i].off - from;
			from = lv[i].off + lv[i].len;
		}
		strcpy(out + o, t + from);
	}
	tidy(out);
	goto out;
fail_errno:
	snprintf(why, wsz, "out of memory");
out:
	free(lv);
	free(dropped);
	return out;
}

/* --- pass class names -> pipeline names ------------------------------------ */

static const struct {
	const char *cls, *name;
} names[] = {
    {"InstCombinePass", "instcombine"},
    {"SimplifyCFGPass", "simplifycfg"},
    {"GVNPass", "gvn"},
    {"GVN", "gvn"},
    {"EarlyCSEPass", "early-cse"},
    {"JumpThreadingPass", "jump-threading"},
    {"CorrelatedValuePropagationPass", "correlated-propagation"},
    {"LICMPass", "licm"},
    {"IndVarSimplifyPass", "indvars"},
    {"SCCPPass", "sccp"},
    {"IPSCCPPass", "ipsccp"},
    {"SROAPass", "sroa"},
    {"SROA", "sroa"},
    {"InstSimplifyPass", "instsimplify"},
    {"ReassociatePass", "reassociate"},
    {"DSEPass", "dse"},
    {"BDCEPass", "bdce"},
    {"ADCEPass", "adce"},
    {"LoopRotatePass", "loop-rotate"},
    {"LoopUnrollPass", "loop-unroll"},
    {"LoopFullUnrollPass", "loop-unroll-full"},
    {"MergedLoadStoreMotionPass", "mldst-motion"},
    {"SpeculativeExecutionPass", "speculative-execution"},
    {"MemCpyOptPass", "memcpyopt"},
    {"LoopSinkPass", "loop-sink"},
    {"LoopIdiomRecognizePass", "loop-idiom"},
    {"LoopDeletionPass", "loop-deletion"},
    {"LoopInstSimplifyPass", "loop-instsimplify"},
    {"LoopSimplifyCFGPass", "loop-simplifycfg"},
    {"SimpleLoopUnswitchPass", "simple-loop-unswitch"},
    {"TailCallElimPass", "tailcallelim"},
    {"DivRemPairsPass", "div-rem-pairs"},
    {"Float2IntPass", "float2int"},
    {"VectorCombinePass", "vector-combine"},
    {"SLPVectorizerPass", "slp-vectorizer"},
    {"LoopVectorizePass", "loop-vectorize"},
    {"LoopLoadEliminationPass", "loop-load-elim"},
    {"LoopDistributePass", "loop-distribute"},
    {"AggressiveInstCombinePass", "aggressive-instcombine"},
    {"ConstraintEliminationPass", "constraint-elimination"},
    {"LibCallsShrinkWrapPass", "libcalls-shrinkwrap"},
    {"GlobalOptPass", "globalopt"},
    {"GlobalDCEPass", "globaldce"},
    {"DeadArgumentEliminationPass", "deadargelim"},
    {"CalledValuePropagationPass", "called-value-propagation"},
    {"InlinerPass", "inline"},
    {"PostOrderFunctionAttrsPass", "function-attrs"},
    {"ReversePostOrderFunctionAttrsPass", "rpo-function-attrs"},
    {"PromotePass", "mem2reg"},
    {"LowerExpectIntrinsicPass", "lower-expect"},
    {"AlignmentFromAssumptionsPass", "alignment-from-assumptions"},
    {"LowerConstantIntrinsicsPass", "lower-constant-intrinsics"},
    {"ConstantMergePass", "constmerge"},
    {"EliminateAvailableExternallyPass", "elim-avail-extern"},
    {"CGProfilePass", "cg-profile"},
    {"RelLookupTableConverterPass", "rel-lookup-table-converter"},
    {"OpenMPOptPass", "openmp-opt"},
    {"OpenMPOptCGSCCPass", "openmp-opt-cgscc"},
    {"InjectTLIMappings", "inject-tli-mappings"},
    {"WarnMissedTransformationsPass", "transform-warning"},
    {"CoroElidePass", "coro-elide"},
    {"Annotation2MetadataPass", "annotation2metadata"},
    {"ForceFunctionAttrsPass", "forceattrs"},
    {"InferFunctionAttrsPass", "inferattrs"},
    {"LoopFlattenPass", "loop-flatten"},
    {"LoopInterchangePass", "loop-interchange"},
    {"LoopUnrollAndJamPass", "loop-unroll-and-jam"},
    {"NewGVNPass", "newgvn"},
    {"MemProfUsePass", "memprof-use"},
    {"DFAJumpThreadingPass", "dfa-jump-threading"},
};

bool cc_pipe_entry(const char *cls, int run, char *out, size_t sz)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(names[i].cls, cls))
			continue;
		if (run > 0)
			snprintf(out, sz, "%s#%d", names[i].name, run);
		else
			snprintf(out, sz, "%s", names[i].name);
		return true;
	}
	return false;
}

/* --- running the stages -------------------------------------------------- */

static bool tool_of(const struct bg_cc_result *s, const char *tool, char *out, size_t sz)
{
	char real[PATH_MAX];

	if (realpath(s->clang, real) && strrchr(real, '/')) {
		*strrchr(real, '/') = 0;
		snprintf(out, sz, "%s/%s", real, tool);
		if (access(out, X_OK) == 0)
			return true;
	}
	snprintf(out, sz, "/usr/bin/%s-%d", tool, s->clang_major);
	return access(out, X_OK) == 0;
}

/* The user's -O level, -mcpu and -mllvm flags, which the tools take too. */
static void user_flags(const struct bg_cc_result *s, struct cc_pipe *p)
{
	snprintf(p->level, sizeof(p->level), "O2");
	snprintf(p->llc_level, sizeof(p->llc_level), "-O2");
	for (int i = 0; i < s->nargs; i++) {
		const char *a = s->args[i];

		if (!strncmp(a, "-O", 2) && strlen(a) <= 3) {
			char l = a[2] ? a[2] : '2';

			snprintf(p->level, sizeof(p->level), "O%c",
				 l == '0'   ? '1'
				 : l == '4' ? '3'
					    : l);
			snprintf(p->llc_level, sizeof(p->llc_level), "-O%c",
				 l == 's' || l == 'z' ? '2'
				 : l == '0'	      ? '1'
						      : l);
		} else if (!strncmp(a, "-mcpu=", 6)) {
			snprintf(p->mcpu, sizeof(p->mcpu), "%s", a);
		} else if (!strcmp(a, "-mllvm") && i + 1 < s->nargs && p->nflags < PIPE_MAX_FLAGS) {
			p->flags[p->nflags++] = s->args[++i];
		}
	}
}

/* Run a tool: argv prefix + the user's -mllvm flags. stderr to errp. */
static int run_tool(struct cc_pipe *p, const char **argv, int n, const char *outp, const char *errp)
{
	for (int i = 0; i < p->nflags && n < 60; i++)
		argv[n++] = p->flags[i];
	argv[n] = NULL;
	return bg_spawn_env((char *const *)argv, p->envp, outp, errp, 300);
}

static int setup(struct bg_cc_result *s, struct cc_pipe *p)
{
	struct cc_variant fe = {.bisect_limit = -1, .emit_ir = true};
	char errp[96], outp[96], passes[48], lim[48];
	const char *argv[64];
	const char *adj;
	int rc, n = 0;

	p->envp = s->envp;
	user_flags(s, p);
	if (!tool_of(s, "opt", p->opt, sizeof(p->opt)) ||
	    !tool_of(s, "llc", p->llc, sizeof(p->llc))) {
		snprintf(p->why, sizeof(p->why), "no opt/llc beside %s (install llvm-%d)", s->clang,
			 s->clang_major);
		return -ENOENT;
	}
	fe.extra[fe.nextra++] = "-Xclang";
	fe.extra[fe.nextra++] = "-disable-llvm-passes";
	snprintf(p->ir, sizeof(p->ir), "%s/pipe-fe.ll", s->tmpdir);
	rc = cc_compile(s, &fe, p->ir, NULL);
	if (rc != 0) {
		snprintf(p->why, sizeof(p->why),
			 "clang -Xclang -disable-llvm-passes failed (exit %d)", rc);
		return rc < 0 ? rc : -EIO;
	}
	snprintf(passes, sizeof(passes), "-passes=default<%s>", p->level);
	snprintf(outp, sizeof(outp), "%s/pipe-text", s->tmpdir);
	snprintf(errp, sizeof(errp), "%s/pipe.err", s->tmpdir);
	argv[n++] = p->opt, argv[n++] = passes, argv[n++] = "-print-pipeline-passes";
	argv[n++] = "-disable-output", argv[n++] = p->ir;
	/* opt checks that the printed text parses back and fails when it does
	 * not (LLVM 19 exits 1 on the BPF class names): the text is what counts */
	rc = run_tool(p, argv, n, outp, errp);
	p->text = rc >= 0 ? bg_read_file(outp, NULL) : NULL;
	if (p->text && !strchr(p->text, ',')) {
		free(p->text);
		p->text = NULL;
	}
	if (!p->text) {
		snprintf(p->why, sizeof(p->why), "%s -print-pipeline-passes failed (exit %d)",
			 p->opt, rc);
		return -EIO;
	}
	p->text[strcspn(p->text, "\n")] = 0;
	/* stage A ends at the last pass -passes= cannot name; the user's build
	 * numbered the same prefix, so its BISECT listing gives K */
	{
		struct leaf lv[PIPE_MAX_LEAVES];
		int nl = parse_leaves(p->text, lv, PIPE_MAX_LEAVES),
		    cut = cut_index(p->text, lv, nl);
		char pat[160];

		if (cut < 0) {
			snprintf(p->why, sizeof(p->why),
				 "the printed pipeline has no top-level BPF pass to cut after");
			return -EINVAL;
		}
		snprintf(pat, sizeof(pat), ") %.*s on ", (int)lv[cut - 1].name_len,
			 p->text + lv[cut - 1].off);
		adj = s->stderr_text ? strstr(s->stderr_text, pat) : NULL;
		if (!adj) {
			snprintf(p->why, sizeof(p->why),
				 "%.*s is not in the BISECT listing: cannot place stage A",
				 (int)lv[cut - 1].name_len, p->text + lv[cut - 1].off);
			return -EINVAL;
		}
		while (adj > s->stderr_text && adj[-1] != '(')
			adj--;
		p->k = atol(adj);
	}
	n = 0;
	snprintf(lim, sizeof(lim), "-opt-bisect-limit=%ld", p->k);
	snprintf(p->stage_a, sizeof(p->stage_a), "%s/pipe-a.bc", s->tmpdir);
	argv[n++] = p->opt, argv[n++] = passes, argv[n++] = lim, argv[n++] = p->ir;
	argv[n++] = "-o", argv[n++] = p->stage_a;
	rc = run_tool(p, argv, n, NULL, errp);
	if (rc != 0) {
		snprintf(p->why, sizeof(p->why), "stage A (%s %s %s) failed (exit %d)", p->opt,
			 passes, lim, rc);
		return -EIO;
	}
	return 0;
}

static struct cc_pipe *pipe_of(struct bg_cc_result *s)
{
	if (!s->pipe) {
		s->pipe = calloc(1, sizeof(*s->pipe));
		if (s->pipe && setup(s, s->pipe) != 0 && !s->pipe->why[0])
			snprintf(s->pipe->why, sizeof(s->pipe->why), "setup failed");
	}
	return s->pipe;
}

int cc_pipe_compile(struct bg_cc_result *s, const char *drop, long limit, const char *out,
		    char **err_text)
{
	struct cc_pipe *p = pipe_of(s);
	char why[256] = "", *text, bc[96], errp[96], lim[48];
	const char *argv[64];
	char *arg;
	int rc, n = 0;

	if (!p)
		return -ENOMEM;
	if (p->why[0]) {
		if (err_text)
			*err_text = strdup(p->why);
		return -ENOTSUP;
	}
	text = cc_pipe_text_without(p->text, drop, why, sizeof(why));
	if (!text) {
		if (err_text)
			*err_text = strdup(why);
		return -errno;
	}
	arg = malloc(strlen(text) + 16);
	if (!arg) {
		free(text);
		return -ENOMEM;
	}
	sprintf(arg, "-passes=%s", text);
	free(text);
	snprintf(bc, sizeof(bc), "%s/pipe-b.bc", s->tmpdir);
	snprintf(errp, sizeof(errp), "%s/pipe.err", s->tmpdir);
	snprintf(lim, sizeof(lim), "-opt-bisect-limit=%ld", limit);
	argv[n++] = p->opt, argv[n++] = arg, argv[n++] = lim, argv[n++] = p->stage_a;
	argv[n++] = "-o", argv[n++] = bc;
	rc = run_tool(p, argv, n, NULL, errp);
	free(arg);
	s->compiles++;
	p->builds++;
	if (rc == 0) {
		char lerr[96];

		n = 0;
		snprintf(lerr, sizeof(lerr), "%s/pipe-llc.err", s->tmpdir);
		argv[n++] = p->llc, argv[n++] = "-filetype=obj", argv[n++] = p->llc_level;
		if (p->mcpu[0])
			argv[n++] = p->mcpu;
		argv[n++] = bc, argv[n++] = "-o", argv[n++] = out;
		rc = run_tool(p, argv, n, NULL, lerr);
		if (rc != 0) {
			if (err_text)
				*err_text = bg_read_file(lerr, NULL);
			return rc;
		}
	}
	if (err_text)
		*err_text = bg_read_file(errp, NULL);
	return rc;
}

/* --- bisecting stage B ---------------------------------------------------- */

/* Line n of a stage-B BISECT listing: class, unit, and its run among the
 * runs of (class, unit) so far. Returns the number of lines. */
static long listing_line(const char *text, long n, char *cls, size_t csz, char *unit, size_t usz,
			 int *run)
{
	long total = 0;
	char want_c[160] = "", want_u[128] = "";

	for (int sweep = 0; sweep < 2; sweep++) {
		int count = 0;

		for (const char *p = text; p && (p = strstr(p, "BISECT: running pass ("));) {
			const char *e = strchr(p, '\n'), *a = strchr(p, ')'), *on;
			long num = atol(p + 22);
			char c[160], u[128];

			if (!e)
				e = p + strlen(p);
			on = a ? strstr(a, " on ") : NULL;
			p = e;
			if (!a || !on || on > e)
				continue;
			snprintf(c, sizeof(c), "%.*s", (int)(on - a - 2), a + 2);
			snprintf(u, sizeof(u), "%.*s", (int)(e - on - 4), on + 4);
			total = num > total ? num : total;
			if (sweep == 0 && num == n) {
				snprintf(want_c, sizeof(want_c), "%s", c);
				snprintf(want_u, sizeof(want_u), "%s", u);
			}
			if (sweep == 1 && num <= n && !strcmp(c, want_c) && !strcmp(u, want_u))
				count++;
		}
		if (sweep == 1)
			*run = count;
	}
	snprintf(cls, csz, "%s", want_c);
	snprintf(unit, usz, "%s", want_u);
	return total;
}

/* The stage-B run j (1-based) of pipeline name `name` with `drop` in force,
 * as an occurrence in the whole pipeline (stage A and dropped ones counted). */
static int whole_occurrence(const char *t, const char *drop, const char *entry, int j)
{
	struct leaf *lv = calloc(PIPE_MAX_LEAVES, sizeof(*lv));
	bool *dropped = calloc(PIPE_MAX_LEAVES, sizeof(*dropped));
	char why[256];
	size_t len = strcspn(entry, "#");
	int nl, cut, seen = 0, live = 0, k = -1;

	if (!lv || !dropped)
		goto out;
	nl = parse_leaves(t, lv, PIPE_MAX_LEAVES);
	cut = cut_index(t, lv, nl);
	if (cut < 0 || mark_dropped(t, lv, nl, cut, drop, dropped, why, sizeof(why)) < 0)
		goto out;
	for (int i = 0; i < nl && k < 0; i++) {
		if (!leaf_is(t, &lv[i], entry, len))
			continue;
		seen++;
		if (i >= cut && !dropped[i] && ++live == j)
			k = seen;
	}
out:
	free(lv);
	free(dropped);
	return k;
}

static enum cc_outcome pipe_try(struct bg_cc_result *s, const char *drop, long limit,
				char **listing)
{
	struct cc_judge j;
	char out[96];
	char *err = NULL;
	int rc;

	memset(&j, 0, sizeof(j));
	snprintf(out, sizeof(out), "%s/pipe-bisect.o", s->tmpdir);
	rc = cc_pipe_compile(s, drop, limit, out, &err);
	s->bisect_compiles++;
	if (listing)
		*listing = err;
	else
		free(err);
	if (rc != 0)
		return CC_OTHER;
	cc_judge_object(s, out, &j);
	j.compiled = true;
	return cc_classify(s, &j);
}

int cc_pipe_bisect(struct bg_cc_result *s, const char *drop, char *entry, size_t sz)
{
	char *listing = NULL, cls[160], unit[128];
	long lo = 0, hi, nb;
	int run, k;
	enum cc_outcome o = pipe_try(s, drop, -1, &listing);

	if (o != CC_BAD || !listing) {
		free(listing);
		return -1;
	}
	nb = listing_line(listing, -1, cls, sizeof(cls), unit, sizeof(unit), &run);
	hi = nb;
	if (nb <= 0 || pipe_try(s, drop, 0, NULL) == CC_BAD) {
		cc_progress(
		    s, "pipeline bisect: rejected with no stage-B pass: the culprit is in stage A");
		free(listing);
		return -1;
	}
	while (hi - lo > 1 && !cc_over_budget(s)) {
		long mid = lo + (hi - lo) / 2;

		o = pipe_try(s, drop, mid, NULL);
		cc_progress(s, "pipeline bisect: stage-B limit %ld -> %s", mid,
			    o == CC_BAD	   ? "rejected the same way"
			    : o == CC_GOOD ? "accepted"
					   : "other failure");
		if (o == CC_BAD)
			hi = mid;
		else
			lo = mid;
	}
	listing_line(listing, hi, cls, sizeof(cls), unit, sizeof(unit), &run);
	free(listing);
	if (hi - lo > 1 || !cc_pipe_entry(cls, 0, entry, sz))
		return -1;
	k = whole_occurrence(s->pipe->text, drop, entry, run);
	if (k <= 0)
		return -1;
	snprintf(entry + strlen(entry), sz - strlen(entry), "#%d", k);
	s->culprit = s->pipe->k + hi;
	snprintf(s->culprit_name, sizeof(s->culprit_name), "%s", cls);
	snprintf(s->culprit_unit, sizeof(s->culprit_unit), "%s", unit);
	s->culprit_occurrence = k;
	s->culprit_is_ir = true;
	return 0;
}

const char *cc_pipe_why(const struct bg_cc_result *s)
{
	return s->pipe && s->pipe->why[0] ? s->pipe->why : NULL;
}

void cc_pipe_free(struct cc_pipe *p)
{
	if (!p)
		return;
	free(p->text);
	free(p);
}
