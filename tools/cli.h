/* Shared pieces of the bpfgate CLI: the subcommand signature and exit codes.
 * Exit codes: 0 success / all accepted, 1 a program rejected, 2 bad input or usage,
 * 3 (check) a program too complex for bpfgate: a resource budget ran out, no verdict. */
#ifndef BG_TOOLS_CLI_H
#define BG_TOOLS_CLI_H

enum { EXIT_OK = 0, EXIT_REJECTED = 1, EXIT_BAD = 2, EXIT_TOO_COMPLEX = 3 };

/* One entry per subcommand: tools/cmd_<name>.c defines cmd_<name>(). */
#define BG_COMMANDS(X)                                                               \
	X(list, "programs, types, sizes, maps and BTF of an object")                 \
	X(disasm, "disassemble programs (with --source lines)")                      \
	X(asm, "assemble text into an object or raw bytes")                          \
	X(kload, "load each program into the running kernel and report its verdict") \
	X(check, "static verifier: accept or reject each program, with reasons")     \
	X(corpus, "compare verifiers with the kernel on a corpus of objects")        \
	X(run, "run a program in the sanitizing interpreter")                        \
	X(cc, "clang drop-in that verifies its output and backs out bad passes")     \
	X(cov, "line and branch coverage of BPF programs")

#define BG_DECLARE_CMD(name, help) int cmd_##name(int argc, char **argv);
BG_COMMANDS(BG_DECLARE_CMD)
#undef BG_DECLARE_CMD

/* Print "bpfgate CMD: msg" to stderr; returns EXIT_BAD for `return usage_error(...)`. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Common check of "--help"/"-h" in argv; returns 1 when present. */
int cli_wants_help(int argc, char **argv);
#endif
