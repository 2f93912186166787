/* bpfgate cov: line and branch coverage.
 *   cov run OBJ [--prog NAME]... [--vm] [--input F]... [--input-dir D] [--pcap F]
 *           [--repeat N] [-o INFO] [--profile JSON] [--json]
 *           [--uprobe PROG=PATH:FUNC[+OFF]]... [--usdt PROG=PATH:PROVIDER:NAME]...
 *           [--command-only] [-- CMD ARGS...]
 *   cov stats OBJ...            instrument every program, load original and instrumented
 *   cov report INFO...          per file and function: lines and branches hit
 *   cov show INFO [--source-dir D]   annotated source with counts in the margin
 *   cov html INFO -o DIR        genhtml report
 *   cov merge INFO... -o OUT    sum several runs */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/cov.h>
#include "cli.h"
#include "bg_json.h"
#include "cov_cli.h"

static void usage(void)
{
	printf("usage: bpfgate cov run OBJ [--prog NAME]... [--vm] [--input FILE]... [--input-dir DIR]\n"
	       "                  [--pcap FILE] [--repeat N] [-o coverage.info] [--profile FILE] [--cfg DIR] [--json]\n"
	       "       bpfgate cov run OBJ [--prog NAME]... [-o coverage.info] [--uprobe PROG=PATH:FUNC[+OFF]]...\n"
	       "                  [--usdt PROG=PATH:PROVIDER:NAME]... [--command-only] -- COMMAND [ARGS...]\n"
	       "       bpfgate cov stats OBJ... [--json]\n"
	       "       bpfgate cov report INFO... [--json]\n"
	       "       bpfgate cov show INFO [--source-dir DIR]\n"
	       "       bpfgate cov html INFO -o DIR [--cfg CFGDIR]\n"
	       "       bpfgate cov merge INFO... -o OUT\n\n"
	       "run: instruments every program (a 64-bit counter per basic block and per branch\n"
	       "edge, atomic adds into a counters map), runs it on each input in the kernel\n"
	       "(BPF_PROG_TEST_RUN; or attached while COMMAND runs, for tracing programs) or in\n"
	       "the interpreter (--vm), and writes an lcov tracefile (default coverage.info).\n"
	       "attached while COMMAND runs: kprobe/NAME, kretprobe/NAME, tracepoint/CAT/NAME,\n"
	       "raw_tp/NAME, tp_btf/NAME, uprobe/PATH:FUNC[+OFF], uretprobe/PATH:FUNC,\n"
	       "uprobe.multi/PATH:GLOB, uretprobe.multi/PATH:GLOB (every matching function,\n"
	       "one link), usdt/PATH:PROVIDER:NAME. FUNC is looked up in the ELF symbol table\n"
	       "(.symtab, then .dynsym) and probed at its file offset; PATH:0xOFF probes a raw offset;\n"
	       "a PATH without '/' is searched in $PATH (or the library directories for .so).\n"
	       "Sections without a target (SEC(\"uprobe\"), SEC(\"usdt\")) take it from\n"
	       "--uprobe PROG=... / --usdt PROG=... (these also override a section's target).\n"
	       "USDT arguments (BPF_USDT of <bpf/usdt.bpf.h>) are decoded from the probe notes\n"
	       "and handed to the program as libbpf does; semaphores are raised while attached.\n"
	       "User probes are system-wide: every process running the binary counts; with\n"
	       "--command-only only COMMAND's own process does (its threads, not its children).\n"
	       "--profile FILE: per branch and per source line counts as JSON (bpfgate cc --profile).\n"
	       "--cfg DIR: per program the control-flow graph with counts (DIR/PROG.dot, .svg via\n"
	       "Graphviz dot, DIR/index.html); cov html --cfg DIR links it from the HTML report.\n"
	       "exit: 0 success, 1 a program could not be instrumented or run, 2 bad input\n");
}

int cmd_cov(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage();
		return argc < 2 ? EXIT_BAD : EXIT_OK;
	}
	/* "cov SUB --help" (before "--": COMMAND's own --help is COMMAND's) */
	if (cli_wants_help(argc - 1, argv + 1)) {
		usage();
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "run"))
		return cov_cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stats"))
		return cov_cmd_stats(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cov_cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return cov_cmd_show(argc - 1, argv + 1);
	if (!strcmp(argv[1], "html"))
		return cov_cmd_html(argc - 1, argv + 1);
	if (!strcmp(argv[1], "merge"))
		return cov_cmd_merge(argc - 1, argv + 1);
	return cli_error("cov", "unknown subcommand '%s' (run, stats, report, show, html, merge)", argv[1]);
}
