/* The textual pipeline route's editing of a printed pipeline (src/cc/pipeline.c):
 * the cut after the last BPF class-named entry, dropping one occurrence or
 * every stage-B occurrence, tidying commas and emptied containers, refusing
 * stage-A entries and unknown ones; and the pass class -> entry table. The
 * pipelines are shaped like those opt 14 and 19 print for default<O2>.
 * Then the route's fidelity with each installed clang (14, 19): with nothing
 * dropped, stage A + stage B + llc give the same instructions as clang -O2. */
/* min-pass: 11 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <bpfgate/bpfgate.h>
#include "test.h"
#include "cc/cc_int.h"
#include "cc/pipeline.h"
#include "cc/spawn.h"

static const char *const p14 =
	"verify,annotation2metadata,function(BPFAbstractMemberAccessPass,BPFPreserveDITypePass,"
	"BPFIRPeepholePass),function<eager-inv>(lower-expect,simplifycfg<bonus-inst-threshold=1;keep-loops>,"
	"sroa),BPFAdjustOptPass,ipsccp,function<eager-inv>(instcombine,simplifycfg<keep-loops>),"
	"cgscc(devirt<4>(inline,function<eager-inv>(sroa,instcombine,loop-mssa(licm,loop-rotate),"
	"loop(indvars),instcombine))),globaldce,verify";
static const char *const p19 =
	"annotation2metadata,function(bpf-preserve-static-offset,BPFAbstractMemberAccessPass,bpf-ir-peephole),"
	"BPFAdjustOptPass,function<eager-inv>(instcombine<max-iterations=1;no-use-loop-info>,bpf-aspace-simplify),"
	"cgscc(devirt<4>(inline,function<eager-inv>(instcombine<max-iterations=1;no-use-loop-info>)))";

static void expect(const char *name, const char *pipe, const char *drop, const char *want)
{
	char why[256] = "";
	char *got = cc_pipe_text_without(pipe, drop, why, sizeof(why));

	if (!want)
		T_CHECK(!got && why[0], name, "expected a refusal, got '%s'", got ? got : "");
	else
		T_CHECK(got && !strcmp(got, want), name, "got '%s' (%s), want '%s'", got ? got : "(null)", why, want);
	free(got);
}

/* Instruction bytes of every program of an object, concatenated (NULL on error). */
static char *insns_of(const char *path, size_t *len)
{
	char err[256];
	struct bg_object *obj = bg_object__open(path, NULL, err, sizeof(err));
	char *out = NULL;

	*len = 0;
	if (!obj)
		return NULL;
	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++) {
		size_t n = 0;
		const struct bg_raw_insn *raw = bg_program__raw(bg_object__prog(obj, i), &n);

		out = realloc(out, *len + n * sizeof(*raw) + 1);
		memcpy(out + *len, raw, n * sizeof(*raw));
		*len += n * sizeof(*raw);
	}
	bg_object__free(obj);
	return out;
}

static const char *case_source(void)
{
	static char p[512];
	const char *b = getenv("BG_BUILD");

	snprintf(p, sizeof(p), "tests/data/cc/switch_ctx.c");
	if (access(p, R_OK) != 0 && b)
		snprintf(p, sizeof(p), "%s/../tests/data/cc/switch_ctx.c", b);
	return p;
}

static void fidelity(int major)
{
	char name[64], clang[64], user[128], route[128];
	char *args[] = {"-O2", "-g", "-target", "bpf", "-I/usr/include/x86_64-linux-gnu", "-c", NULL};
	struct bg_cc_result s;
	struct cc_variant v = {.bisect_limit = 1000000000L};
	char *err = NULL, *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	int rc;

	snprintf(name, sizeof(name), "cc_pipeline/clang-%d-nothing-dropped-same-insns", major);
	snprintf(clang, sizeof(clang), "/usr/bin/clang-%d", major);
	args[6] = (char *)case_source();
	if (access(clang, X_OK) != 0 || access(args[6], R_OK) != 0) {
		T_SKIP(name, "%s or %s missing", clang, args[6]);
		return;
	}
	memset(&s, 0, sizeof(s));
	snprintf(s.clang, sizeof(s.clang), "%s", clang);
	s.clang_major = major;
	s.args = args;
	s.nargs = 7;
	strcpy(s.tmpdir, "/tmp/bg-ccpipe-XXXXXX");
	if (!mkdtemp(s.tmpdir)) {
		T_FAIL(name, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(user, sizeof(user), "%s/user.o", s.tmpdir);
	snprintf(route, sizeof(route), "%s/route.o", s.tmpdir);
	/* the user's build with its BISECT listing (stage A's length comes from it) */
	rc = cc_compile(&s, &v, user, &s.stderr_text);
	if (rc == 0)
		rc = cc_pipe_compile(&s, "", -1, route, &err);
	if (rc == 0) {
		a = insns_of(user, &la);
		b = insns_of(route, &lb);
	}
	T_CHECK(rc == 0 && a && b && la > 0 && la == lb && !memcmp(a, b, la), name,
		"exit %d (%s), %zu vs %zu instruction bytes%s", rc, cc_pipe_why(&s) ? cc_pipe_why(&s) : "",
		la, lb, la == lb && a && b ? ", contents differ" : "");
	{
		char *const rm[] = {"rm", "-rf", s.tmpdir, NULL};

		bg_spawn(rm, NULL, NULL, 30);
	}
	free(a);
	free(b);
	free(err);
	free(s.stderr_text);
	cc_pipe_free(s.pipe);
}

int main(void)
{
	char e[64];

	expect("cc_pipeline/nothing-dropped", p14, "",
	       "ipsccp,function<eager-inv>(instcombine,simplifycfg<keep-loops>),cgscc(devirt<4>(inline,"
	       "function<eager-inv>(sroa,instcombine,loop-mssa(licm,loop-rotate),loop(indvars),instcombine))),"
	       "globaldce,verify");
	expect("cc_pipeline/drop-one-occurrence", p14, "instcombine#2",
	       "ipsccp,function<eager-inv>(instcombine,simplifycfg<keep-loops>),cgscc(devirt<4>(inline,"
	       "function<eager-inv>(sroa,loop-mssa(licm,loop-rotate),loop(indvars),instcombine))),"
	       "globaldce,verify");
	expect("cc_pipeline/drop-every-stage-b-occurrence", p14, "simplifycfg",
	       "ipsccp,function<eager-inv>(instcombine),cgscc(devirt<4>(inline,"
	       "function<eager-inv>(sroa,instcombine,loop-mssa(licm,loop-rotate),loop(indvars),instcombine))),"
	       "globaldce,verify");
	expect("cc_pipeline/emptied-container-removed", p14, "indvars,licm,loop-rotate",
	       "ipsccp,function<eager-inv>(instcombine,simplifycfg<keep-loops>),cgscc(devirt<4>(inline,"
	       "function<eager-inv>(sroa,instcombine,instcombine))),globaldce,verify");
	expect("cc_pipeline/parameters-kept-with-entry", p19, "instcombine#2",
	       "function<eager-inv>(instcombine<max-iterations=1;no-use-loop-info>,bpf-aspace-simplify),"
	       "cgscc(devirt<4>(inline))");
	expect("cc_pipeline/stage-a-entry-refused", p14, "simplifycfg#1", NULL);
	expect("cc_pipeline/unknown-entry-refused", p14, "gvn", NULL);
	expect("cc_pipeline/no-cut-refused", "instcombine,simplifycfg", "", NULL);
	T_CHECK(cc_pipe_entry("InstCombinePass", 3, e, sizeof(e)) && !strcmp(e, "instcombine#3"),
		"cc_pipeline/class-to-entry", "got '%s'", e);
	T_CHECK(cc_pipe_entry("CorrelatedValuePropagationPass", 0, e, sizeof(e)) &&
		!strcmp(e, "correlated-propagation"), "cc_pipeline/class-to-every-entry", "got '%s'", e);
	T_CHECK(!cc_pipe_entry("NoSuchPass", 1, e, sizeof(e)), "cc_pipeline/unknown-class", "mapped to '%s'", e);
	fidelity(14);
	fidelity(19);
	T_EXIT();
}
