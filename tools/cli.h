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
	X(cov, "line and branch coverage of BPF programs")                           \
	X(kernels, "list, fetch and remove Debian kernel images (kload --kernel)")

#define BG_DECLARE_CMD(name, help) int cmd_##name(int argc, char **argv);
BG_COMMANDS(BG_DECLARE_CMD)
#undef BG_DECLARE_CMD

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
struct bg_json;

/* Called once by main with the subcommand's argv: notes --json. */
void cli_init(int argc, char **argv);
/* Report an error: "bpfgate CMD: msg" (terminal-safe) on stderr, and in
 * --json mode also one JSON object on stdout, the same shape everywhere:
 *   {"error": {"command", "file", "offset", "message", "exit_code"}}
 * file: the argument the message starts with ("FILE: ..."), else null;
 * offset: the number after "offset " in the message, else null. When a
 * command has an open JSON array (cli_json_sink), the object is one of its
 * elements; otherwise it is printed once, alone. Returns code. */
int cli_error_code(const char *cmd, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define cli_error(cmd, ...) cli_error_code(cmd, EXIT_BAD, __VA_ARGS__)
bool cli_json_mode(void);
/* Errors join this open JSON array (NULL: printed alone). */
void cli_json_sink(struct bg_json *j);
/* The errors reported so far (the first 64): message without its file
 * prefix; *file gets a malloc'd copy of the file (or NULL). */
size_t cli_error_cnt(void);
const char *cli_error_msg(size_t i, char **file);
/* Common check of "--help"/"-h" in argv; returns 1 when present. */
int cli_wants_help(int argc, char **argv);
/* The value of option argv[*i] (advancing *i), or NULL after reporting that
 * it is missing or looks like an option itself ("--prog --packet f"). */
const char *cli_value(const char *cmd, int argc, char **argv, int *i);
/* s made terminal-safe (control bytes, newlines and bytes that are not UTF-8
 * escaped as \xNN, see bpfgate/text.h); valid until 8 more calls. */
const char *cli_safe(const char *s);
/* Each line of text (a kernel log, program output) after indent, made safe. */
void cli_print_lines(const char *indent, const char *text);
/* Does p's type take a packet (XDP, __sk_buff types), and in which form. */
struct bg_program;
#include <bpfgate/packets.h>
enum bg_packet_form cli_packet_input(const struct bg_program *p, bool *takes_packet);
/* Warnings about an object that was opened anyway (a malformed .BTF set aside). */
struct bg_object;
void cli_object_warnings(const char *cmd, const struct bg_object *obj);
/* A stream that passes each line on to under made terminal-safe (close it
 * with fclose; returns under itself when one cannot be made). */
FILE *cli_safe_stream(FILE *under);
/* A file path as the path of a URI reference (RFC 3986): every byte but
 * unreserved characters and '/' percent-encoded. Writes at most dsz bytes
 * including the NUL; returns the length the whole text needs (snprintf's
 * contract). SARIF is the CLI's: this is not library API. */
size_t cli_uri_path_encode(char *dst, size_t dsz, const char *path);
/* SARIF artifactLocation "uri": a relative path stays a relative reference,
 * an absolute one becomes a file: URI; both percent-encoded (RFC 3986). */
void cli_json_uri(struct bg_json *j, const char *path);
/* One SARIF result object (level "error"): ruleId, message text and one
 * physical location, file (as cli_json_uri) with a region when line != 0
 * (startColumn when col != 0). Leaves the result's "properties" object open:
 * the caller adds its keys, then cli_sarif_result_end closes both. */
void cli_sarif_result(struct bg_json *j, const char *rule, const char *text, const char *file,
		      unsigned line, unsigned col);
void cli_sarif_result_end(struct bg_json *j);
/* Its parts: "message": {"text"}, and "locations" with one physicalLocation. */
void cli_sarif_message(struct bg_json *j, const char *text);
void cli_sarif_locations(struct bg_json *j, const char *file, unsigned line, unsigned col);
/* The same for a source line: tabs kept. */
const char *cli_safe_src(const char *s);
/* Real-kernel runs (tools/cli_kvm.c; the library reads no environment): the
 * image cache under XDG_CACHE_HOME / HOME with the mirror of
 * BPFGATE_DEBIAN_MIRROR (NULL after reporting for cmd when neither is set or
 * it cannot be opened), the root alone (NULL when neither is set), a forced
 * accelerator (BG_KVM_ACCEL), and bg_kvm_opts with the BG_KVM_* knobs
 * (LOADER, TIMEOUT, MEM, ACCEL, APPEND, KEEP) for fields the caller left 0. */
struct bg_kvm_opts;
struct bg_kcache;
struct bg_kcache *cli_kcache_open(const char *cmd);
const char *cli_kcache_root(char *root, size_t n);
const char *cli_kvm_accel_force(void);
void cli_kvm_opts(struct bg_kvm_opts *o);
/* How kernel profile `profile` sees an object (check --kernel V, corpus
 * bpfgate@V): *btf the vmlinux BTF of its cached image, extracted on first use
 * (NULL: not cached, the default profile, or btf_given: --btf wins), to free
 * with btf__free; *kver its version for __kconfig (the image's release when
 * cached; 0 for the default profile: the running kernel's). */
struct btf;
void cli_kernel_view(const char *tool, const char *profile, bool btf_given, struct btf **btf,
		     uint32_t *kver);
#endif
