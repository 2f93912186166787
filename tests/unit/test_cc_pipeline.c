/* The textual pipeline route's editing of a printed pipeline (src/cc/pipeline.c):
 * the cut after the last BPF class-named entry, dropping one occurrence or
 * every stage-B occurrence, tidying commas and emptied containers, refusing
 * stage-A entries and unknown ones; and the pass class -> entry table. The
 * pipelines are shaped like those opt 14 and 19 print for default<O2>. */
#include <errno.h>
#include "test.h"
#include "cc/pipeline.h"

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
	T_EXIT();
}
