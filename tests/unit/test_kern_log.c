/* Verifier log parsing of the kernel oracle (src/kern/klog.c): statistics and
 * the verdict message, on logs shaped like the 6.x kernel's. */
/* min-pass: 18 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <stdlib.h>
#include "test.h"
#include "kern/kern_int.h"

static const char rejected_log[] =
	"func#0 @0\n"
	"0: R1=ctx() R10=fp0\n"
	"0: (61) r2 = *(u32 *)(r1 +0)          ; R1=ctx() R2_w=pkt(r=0)\n"
	"1: (69) r0 = *(u16 *)(r2 +12)\n"
	"invalid access to packet, off=12 size=2, R2(id=0,off=12,r=0)\n"
	"R2 offset is outside of the packet\n"
	"processed 2 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n"
	"verification time 17 usec\n"
	"stack depth 0\n";

static const char accepted_log[] =
	"processed 143 insns (limit 1000000) max_states_per_insn 0 total_states 9 peak_states 9 mark_read 3\n"
	"verification time 123 usec\n"
	"stack depth 0+0\n";

static const char gpl_log[] =
	"0: R1=ctx() R10=fp0\n"
	"; bpf_probe_read_kernel(&v, sizeof(v), ctx); @ gpl_only_helper.bpf.c:11\n"
	"5: (b7) r2 = 8                        ; R2=8\n"
	"6: (85) call bpf_probe_read_kernel#113\n"
	"cannot call GPL-restricted function from non-GPL compatible program\n"
	"verification time 71 usec\n"
	"stack depth 8\n"
	"processed 7 insns (limit 1000000) max_states_per_insn 0 total_states 0\n";

static void check_where(void)
{
	struct bg_klog_where w;
	char *m;

	m = bg_klog_message(gpl_log, 2);
	T_CHECK(m && !strcmp(m, "cannot call GPL-restricted function from non-GPL compatible program"),
		"kern_log/message_stops_at_trace", "got '%s'", m ? m : "(null)");
	free(m);
	T_CHECK(!bg_klog_where(gpl_log, &w) && w.insn == 6 && w.line == 11 &&
			!strcmp(w.file, "gpl_only_helper.bpf.c") &&
			!strcmp(w.source, "bpf_probe_read_kernel(&v, sizeof(v), ctx);"),
		"kern_log/where", "insn %ld line %u file '%s' source '%s'", w.insn, w.line, w.file,
		w.source);
	T_CHECK(bg_klog_where("no trace at all\n", &w) == -1 && w.insn == -1,
		"kern_log/where_none", "found something in a plain log");
	m = bg_klog_message("0: R1=ctx() R10=fp0\n1: (61) r2 = *(u32 *)(r1 +0)\n", 2);
	T_CHECK(m && !strcmp(m, "1: (61) r2 = *(u32 *)(r1 +0)"), "kern_log/message_trace_only",
		"got '%s'", m ? m : "(null)");
	free(m);
	T_CHECK(!bg_klog_is_empty("0: R1=ctx() R10=fp0\n"), "kern_log/trace_not_empty",
		"a log with trace lines is not empty");
	/* shapes of the 6.18 kernel: a message printed without its newline, with
	 * the statistics glued on; level-2 bookkeeping after the message */
	m = bg_klog_message("3: (85) call bpf_tail_call#12\nexpected prog array map for tail "
			    "callverification time 45 usec\nstack depth 0\nprocessed 3 insns\n", 2);
	T_CHECK(m && !strcmp(m, "expected prog array map for tail call"), "kern_log/message_unglued",
		"got '%s'", m ? m : "(null)");
	free(m);
	m = bg_klog_message("5: (95) exit\nR0 !read_ok  \nfunc#0 @0\nlast_idx 5 first_idx 0\n"
			    "regs=1 stack=0 before 4: (b7) r0 = 0\nprocessed 6 insns\n", 2);
	T_CHECK(m && !strcmp(m, "R0 !read_ok"), "kern_log/message_skips_level2",
		"got '%s'", m ? m : "(null)");
	free(m);
	m = bg_klog_message("first message\nValidating f() func#1...\nsecond message\n", 2);
	T_CHECK(m && !strcmp(m, "second message"), "kern_log/message_noise_ends_run",
		"got '%s'", m ? m : "(null)");
	free(m);
	/* a line-0 comment (compiler-made code) does not hide the last real line */
	T_CHECK(!bg_klog_where("; x = 1; @ a.c:7\n3: (b7) r0 = 1\n; @ a.c:0\n4: (95) exit\n"
			       "R0 !read_ok\n", &w) &&
			w.line == 7 && !strcmp(w.file, "a.c") && !strcmp(w.source, "x = 1;") &&
			w.insn == 4,
		"kern_log/where_skips_line_0", "insn %ld line %u file '%s' source '%s'", w.insn,
		w.line, w.file, w.source);
}

int main(void)
{
	char *m;

	T_CHECK(bg_klog_processed(rejected_log) == 2, "kern_log/processed", "%ld",
		bg_klog_processed(rejected_log));
	T_CHECK(bg_klog_verif_time(rejected_log) == 17, "kern_log/verif_time", "%ld",
		bg_klog_verif_time(rejected_log));
	T_CHECK(bg_klog_processed(accepted_log) == 143 && bg_klog_verif_time(accepted_log) == 123,
		"kern_log/accepted_stats", "%ld %ld", bg_klog_processed(accepted_log),
		bg_klog_verif_time(accepted_log));
	T_CHECK(bg_klog_processed("") == -1 && bg_klog_processed(NULL) == -1 &&
			bg_klog_verif_time("verification time x usec") == -1,
		"kern_log/missing_stats", "expected -1");

	m = bg_klog_message(rejected_log, 2);
	T_CHECK(m && !strcmp(m, "invalid access to packet, off=12 size=2, R2(id=0,off=12,r=0)\n"
				"R2 offset is outside of the packet"),
		"kern_log/message_last_two_lines", "got '%s'", m ? m : "(null)");
	free(m);
	m = bg_klog_message(rejected_log, 1);
	T_CHECK(m && !strcmp(m, "R2 offset is outside of the packet"), "kern_log/message_one_line",
		"got '%s'", m ? m : "(null)");
	free(m);

	T_CHECK(bg_klog_is_empty(accepted_log), "kern_log/stats_only_is_empty", "stats-only log not empty");
	T_CHECK(bg_klog_is_empty("") && bg_klog_is_empty("\n\n  \n") && bg_klog_is_empty(NULL),
		"kern_log/blank_is_empty", "blank log not empty");
	T_CHECK(!bg_klog_is_empty(rejected_log), "kern_log/rejected_not_empty", "rejected log empty");
	m = bg_klog_message("no newline at end", 3);
	T_CHECK(m && !strcmp(m, "no newline at end"), "kern_log/no_trailing_newline", "got '%s'",
		m ? m : "(null)");
	free(m);

	check_where();

	char name[32];
	bg_kern_objname(name, sizeof(name), "a-very-long.program:name!");
	T_CHECK(!strcmp(name, "a_very_long.pro"), "kern_log/objname", "got '%s'", name);
	T_CHECK(bg_kern_prog_flags("fentry.s/do_x") == (1u << 4) && bg_kern_prog_flags("fentry/do_x") == 0 &&
			bg_kern_prog_flags("xdp.frags") == (1u << 5) && bg_kern_prog_flags("iter.s/task") == (1u << 4),
		"kern_log/prog_flags", "sleepable / frags flags");
	T_EXIT();
}
