/* Internal state of one bpfgate cc invocation, shared by the driver
 * (driver.c), the judging of objects (judge.c), the pipeline bisection and
 * IR diff (bisect.c), the fix search (fix.c) and the report (report.c). */
#ifndef BG_CC_INT_H
#define BG_CC_INT_H
#include <stdbool.h>
#include <stddef.h>
#include <bpfgate/cc.h>

#define CC_MAX_PROGS 64
#define CC_MAX_EXTRA 8
#define CC_MAX_ATTEMPTS 40

/* How a trial compile differs from the user's own command line. */
struct cc_variant {
	const char *extra[CC_MAX_EXTRA]; /* e.g. "-mllvm", "-simplifycfg-sink-common=false" */
	int nextra;
	long bisect_limit;               /* -1: not given */
	const char *skip;                /* pass-plugin skip list, or NULL */
	bool emit_ir;                    /* -S -emit-llvm instead of an object */
	bool deps;                       /* keep the user's -MD/-MF flags */
	const char *pipe_drop;           /* build through the pipeline route minus these entries */
};

/* The verdict of one program by the verifiers that judged it. */
struct cc_prog_verdict {
	char name[128];
	int rejected;                    /* 1 rejected by some verifier */
	char by[16];                     /* "kernel" or "bpfgate" */
	char msg[512];                   /* the rejection message, one line */
	char norm[512];                  /* msg with numbers and register names folded */
	char src[512];                   /* source line of the failure, if known */
	int kernel, bpfgate;             /* each verifier's verdict: 1 rejected, 0 accepted, -1 none */
	int assert_failed;               /* rejected for a failed <bpfgate/assert.h> assertion */
	char akey[300];                  /* the failed assertion's identity (the folded form) */
	char warn[512];                  /* a verdict that did not decide, or a lost assertion */
};

/* Outcome of compiling and judging one variant. */
enum cc_outcome { CC_GOOD = 0, CC_BAD = 1, CC_OTHER = 2 };

struct cc_judge {
	bool compiled;
	char compile_err[512];
	int nprogs;
	struct cc_prog_verdict progs[CC_MAX_PROGS];
	size_t insns;                    /* total instruction slots of all programs */
	char judged_by[32];              /* "kernel,bpfgate" */
	char kvm_error[512];             /* --kernel: a listed kernel did not judge this build
					    (not cached, the guest failed): "" when all did */
};

/* policy.c: the deciding verdict from the kernel's (k) and bpfgate's (b)
 * (1 rejected, 0 accepted, -1 no verdict), and assertions. */
struct bg_program;
void cc_decide(const struct bg_cc_result *s, struct cc_prog_verdict *v, int k,
	       const struct cc_prog_verdict *kv, int b, const struct cc_prog_verdict *bv);
void cc_judge_asserts(const struct bg_program *p, struct cc_prog_verdict *v);
/* altclang.c: the unchanged build with every other installed clang; 0 when one is accepted. */
int cc_try_other_clangs(struct bg_cc_result *s);

struct cc_attempt {
	char what[1100];
	enum cc_outcome outcome;
	char msg[256];
	size_t insns;
};

struct bg_cc_result {
	int status;
	char clang[256];
	int clang_major;
	char **args;                     /* the user's clang args without -o and dep flags */
	int nargs;
	char **dep_args;
	int ndep;
	const char *input, *output;
	char tmpdir[64];
	unsigned verifiers;
	bool kernel_ok;
	const char *kernel_why;
	bool bpfgate_ok;
	char kernels[128];               /* --kernel list ("" none) */
	const char *kernel_cache;        /* bg_cc_opts.kernel_cache, kernel_loader, kernel_timeout_s */
	const char *kernel_loader;
	int kernel_timeout_s;
	char judged[192];                /* "kernel,bpfgate,kernel@5.10..." */
	char kernel_error[600];          /* --kernel: why a listed kernel did not judge the
					    user's build (status 2, nothing written) */
	bool strict;
	double budget_s, t0, seconds;
	int compiles;
	FILE *progress;
	char *stderr_text;               /* clang diagnostics of the user's build */

	struct cc_judge first;           /* the user's build */
	int target;                      /* index in first.progs of the rejected program, or -1 */
	int compile_error;               /* clang's exit status when the user's build failed (0: built) */
	/* bisection */
	bool bisected;
	long npasses, culprit;
	char culprit_name[160], culprit_unit[128];
	int culprit_occurrence;          /* 1-based run of (name, unit) */
	enum cc_outcome before;          /* outcome at culprit - 1 */
	int bisect_compiles;
	bool culprit_is_ir;
	char changed[1024];              /* source lines whose IR the culprit changed */
	char chain[1024];                /* later culprits found with earlier ones skipped */
	const char *bisect_skip;         /* skip list in force while bisecting, or NULL */
	bool unsafe_source;
	bool by_elimination;             /* culprit named by skipping whole passes */
	/* fix */
	struct cc_attempt attempts[CC_MAX_ATTEMPTS];
	int nattempts;
	char fix[1100];                  /* what was backed out, or "" */
	bool replayed;
	size_t insns_before, insns_after;
	char written[512];
	int fix_route;                   /* BG_CC_ROUTE_* asked for */
	const char *route_used;          /* "plugin" or "pipeline" when the fix skips pass runs */
	struct cc_pipe *pipe;            /* the pipeline route's state (pipeline.c), or NULL */
	/* branch hints and the profile-guided build (hints.c, profile.c; hints.h) */
	bool no_hints;
	int nhints;                      /* hints written into the object, -1 none tried */
	char hints_note[512];            /* why some or all jumps have no hint */
	const char *profile;             /* --profile FILE (cov run --profile), or NULL */
	char sample_prof[96];            /* the LLVM sample profile made from it */
	char sample_arg[128];            /* -fprofile-sample-use=sample_prof (in args) */
	char profile_note[1024];         /* stale entries left out, or why the profile is bad */
	int profile_funcs, profile_stale;
	struct cc_prof *prof;            /* profile.c state */
	/* the profile-guided block layout (relayout.c, layout.h) */
	bool no_layout;                  /* bg_cc_opts.no_layout */
	char sample_failed[256];         /* clang's error with the sample profile (built without) */
	bool laid_out;                   /* s->output is the laid-out object */
	char layout_note[1024];          /* what the layout did, or why it was not done */
	char layout_base[32];            /* "plain build" or "profile-guided build" */
	int layout_funcs, layout_inverted, layout_ja_added, layout_ja_removed;
	unsigned long long layout_before, layout_after; /* taken jumps on the profile's runs */
	/* other compilers (driver.c), when no back-out of the user's clang works */
	char alt_clang[256];             /* the clang whose unchanged build is accepted, or "" */
	char builds_tried[512];          /* "clang-14 (-O2 + 12 variants), clang-19" */
	/* environment and places (bg_cc_opts; the library reads no variables itself) */
	char *const *envp;               /* children's environment: opts->envp or environ */
	bool no_sidecar, keep_tmp;
	char plugin[4160];               /* pass plugin for clang_major, "" none (cc_plugin_path) */
	char skip_spec[1024];            /* surgery's skip list (bisect_skip points here) */
	char default_out[4096];          /* -o not given: BASENAME.o (output points here) */
};

double cc_now(void);
void cc_progress(struct bg_cc_result *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Compile variant v into out_path; clang's stderr into *err_text when non-NULL. */
int cc_compile(struct bg_cc_result *s, const struct cc_variant *v, const char *out_path,
	       char **err_text);
/* Open the object at path and judge each program with the chosen verifiers. */
void cc_judge_object(struct bg_cc_result *s, const char *path, struct cc_judge *j);
/* Classify j against the user's build: BAD when the target program is rejected
 * with the same normalized message, GOOD when every program is accepted. */
enum cc_outcome cc_classify(const struct bg_cc_result *s, const struct cc_judge *j);
/* Compile and judge a variant; returns its outcome (fills *j when non-NULL). */
enum cc_outcome cc_try(struct bg_cc_result *s, const struct cc_variant *v, struct cc_judge *j,
		       const char *tag);
void cc_normalize(const char *msg, char *out, size_t sz);
int cc_bisect(struct bg_cc_result *s);
void cc_ir_diff(struct bg_cc_result *s);
int cc_find_fix(struct bg_cc_result *s);
/* A kernel refused the instruction set (an -mcpu newer than it knows:
 * "BPF_LDX uses reserved fields", "unknown opcode e5"). */
bool cc_isa_rejection(const char *msg);
/* Lower -mcpu one step at a time from the user's choice; 0 when a build
 * every verifier accepts was found (s->fix = the flag). */
int cc_fix_isa(struct bg_cc_result *s);
const char *cc_plugin_path(const struct bg_cc_result *s);
/* NAME=value in the children's environment (bg_cc_opts.envp or environ), or NULL. */
const char *cc_env(const struct bg_cc_result *s, const char *name);
/* Locate the pass plugin for s->clang_major (dir: bg_cc_opts.plugin_dir or NULL). */
void cc_find_plugin(struct bg_cc_result *s, const char *dir);
bool cc_over_budget(const struct bg_cc_result *s);
/* relayout.c: lay out s->output's blocks by the profile's counts (layout.h);
 * the laid-out object replaces s->output when every verifier accepts it. */
void cc_layout_step(struct bg_cc_result *s);
#endif
