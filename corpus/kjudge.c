/* kjudge - ask the running kernel for the verdict of every program of a
 * BPF object, one program at a time, through libbpf (independent of
 * bpfgate's own loader, so the recorded expectations do not depend on the
 * code they are used to test).
 *
 * usage: kjudge OBJ...
 * prints one TSV line per program:
 *   object  program  section  type  verdict  insns_processed  verif_usec  message
 * verdict: accepted | rejected | unavailable (libbpf failed before the
 * kernel judged, or the kernel refused with an empty log, e.g. EPERM for
 * fentry/LSM on this machine). Exit 0, or 2 when an object cannot be opened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#define LOG_SZ (32u << 20)

static char *logbuf;

/* libbpf's first warning since the load began: the reason of an "unavailable"
 * verdict (libbpf gave up before the kernel judged; its later lines only say
 * that the object failed to load). */
static char lastwarn[512];
static int lastwarn_says;
static int slot_init_failed;

static int quiet_print(enum libbpf_print_level lvl, const char *fmt, va_list ap)
{
	char buf[512];
	size_t n;

	if (lvl != LIBBPF_WARN)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (strstr(buf, "failed to initialize slot"))
		slot_init_failed = 1;
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	/* the first line that says what failed, else the first line */
	if (n && (!lastwarn[0] || (!lastwarn_says && (strstr(buf, "fail") || strstr(buf, "not found") ||
						      strstr(buf, "rror")))) &&
	    strncmp(buf, "-- BEGIN", 8) && strncmp(buf, "-- END", 6)) {
		snprintf(lastwarn, sizeof(lastwarn), "%s", buf);
		lastwarn_says = strstr(buf, "fail") || strstr(buf, "not found") || strstr(buf, "rror");
	}
	return 0;
}

/* Map types whose max_entries must stay 0 (local storage) or that libbpf
 * sizes itself (perf event array: one slot per CPU). */
static int zero_entries_map(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_SK_STORAGE || t == BPF_MAP_TYPE_INODE_STORAGE ||
	       t == BPF_MAP_TYPE_TASK_STORAGE || (int)t == 32 /* BPF_MAP_TYPE_CGRP_STORAGE (6.2) */ ||
	       t == BPF_MAP_TYPE_CGROUP_STORAGE || t == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE ||
	       t == BPF_MAP_TYPE_PERF_EVENT_ARRAY || t == BPF_MAP_TYPE_STRUCT_OPS;
}

/* Maps as a loader would set them up for one program: sizes userspace sets at
 * run time (max_entries 0) get a small value, pinning is off, struct_ops maps
 * are only created for a struct_ops program. */
static void prepare_maps(struct bpf_object *obj, int struct_ops_prog)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj)
	{
		enum bpf_map_type t = bpf_map__type(m);

		bpf_map__set_pin_path(m, NULL);
		if (t == BPF_MAP_TYPE_STRUCT_OPS && !struct_ops_prog)
			bpf_map__set_autocreate(m, false);
		if (bpf_map__max_entries(m) == 0 && !zero_entries_map(t))
			bpf_map__set_max_entries(m, t == BPF_MAP_TYPE_RINGBUF ||
							    t == BPF_MAP_TYPE_USER_RINGBUF
							? 4096
							: 1);
	}
}

static long stat_after(const char *log, const char *key)
{
	const char *p = log ? strstr(log, key) : NULL;

	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static int trailer_line(const char *s, size_t n)
{
	static const char *const skip[] = {"processed ", "verification time ", "stack depth ",
					   "mark_precise", "func#", "last_idx", "parent ",
					   "regs=", "Validating ", "insn_idx", "cur state:",
					   "old state:"};
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (n >= strlen(skip[i]) && !strncmp(s, skip[i], strlen(skip[i])))
			return 1;
	return 0;
}

/* "NAME() is not allowed": the message of a kfunc that this kernel build
 * refuses to every program (bpf_dynptr_slice_rdwr on the 6.18.44 build of
 * these machines; no upstream kernel prints it). */
static int disabled_kfunc(const char *msg)
{
	size_t n = strspn(msg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");

	return n > 0 && !strcmp(msg + n, "() is not allowed");
}

/* The kernel's reason: the last log line that is not a statistics trailer. */
static void reason(const char *log, char *out, size_t outsz)
{
	const char *end = log + strlen(log), *best = NULL;
	size_t best_n = 0;

	out[0] = 0;
	while (end > log) {
		const char *e = end, *b;
		while (e > log && (e[-1] == '\n' || e[-1] == ' '))
			e--;
		b = e;
		while (b > log && b[-1] != '\n')
			b--;
		if (e > b && !trailer_line(b, (size_t)(e - b))) {
			best = b;
			best_n = (size_t)(e - b);
			break;
		}
		end = b;
	}
	if (!best)
		return;
	for (size_t i = 1; i + 18 < best_n; i++) /* "...tail callverification time" */
		if (!strncmp(best + i, "verification time ", 18)) {
			best_n = i;
			break;
		}
	if (best_n >= outsz)
		best_n = outsz - 1;
	for (size_t i = 0; i < best_n; i++)
		out[i] = best[i] == '\t' ? ' ' : best[i];
	out[best_n] = 0;
}

/* Load program idx of path alone; returns the load error (0 accepted). libbpf
 * fills program arrays only after every program of the load was accepted, so
 * a slot naming a program not loaded ("failed to initialize slot", EBADF)
 * fails the object after the kernel accepted the program: 0 too. */
static int load_one(const char *path, size_t idx, unsigned level, char *name, char *sec,
		    char *type, int *opened)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p, *target = NULL;
	size_t i = 0;
	int err;

	*opened = obj != NULL;
	if (!obj)
		return -errno;
	bpf_object__for_each_program(p, obj)
	{
		bpf_program__set_autoload(p, i == idx);
		if (i == idx)
			target = p;
		i++;
	}
	if (!target) {
		bpf_object__close(obj);
		return -ENOENT;
	}
	snprintf(name, 256, "%s", bpf_program__name(target));
	snprintf(sec, 256, "%s", bpf_program__section_name(target));
	snprintf(type, 64, "%s", libbpf_bpf_prog_type_str(bpf_program__type(target)) ?: "?");
	prepare_maps(obj, bpf_program__type(target) == BPF_PROG_TYPE_STRUCT_OPS);
	lastwarn[0] = 0;
	lastwarn_says = 0;
	logbuf[0] = 0;
	bpf_program__set_log_buf(target, logbuf, LOG_SZ);
	bpf_program__set_log_level(target, level);
	slot_init_failed = 0;
	err = bpf_object__load(obj);
	if (err && slot_init_failed)
		err = 0;
	bpf_object__close(obj);
	return err;
}

static size_t prog_count(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p;
	size_t n = 0;

	if (!obj)
		return (size_t)-1;
	bpf_object__for_each_program(p, obj) n++;
	bpf_object__close(obj);
	return n;
}

static void judge(const char *path, size_t idx)
{
	char name[256] = "", sec[256] = "", type[64] = "", msg[1024] = "";
	const char *verdict = "accepted";
	long insns, usec;
	int opened, err = load_one(path, idx, 4, name, sec, type, &opened);

	insns = stat_after(logbuf, "processed ");
	usec = stat_after(logbuf, "verification time ");
	if (err) {
		err = load_one(path, idx, 1 | 4, name, sec, type, &opened);
		if (!err) {
			verdict = "accepted"; /* flaky first load: trust the second */
		} else if (logbuf[0] && (reason(logbuf, msg, sizeof(msg)), msg[0]) && disabled_kfunc(msg)) {
			/* "NAME() is not allowed": a kfunc this kernel build
			 * refuses to every program (a fact of the machine, like a
			 * kfunc the kernel lacks) */
			verdict = "unavailable";
		} else if (msg[0]) {
			/* a log with only statistics lines is no verdict */
			verdict = "rejected";
			insns = stat_after(logbuf, "processed ");
			usec = stat_after(logbuf, "verification time ");
		} else {
			verdict = "unavailable";
			snprintf(msg, sizeof(msg), "load failed before verification: %s%s%s",
				 strerror(-err), lastwarn[0] ? ": " : "", lastwarn);
			for (char *c = msg; *c; c++)
				if (*c == '\t' || *c == '\n')
					*c = ' ';
		}
	}
	printf("%s\t%s\t%s\t%s\t%s\t%ld\t%ld\t%s\n", path, name, sec, type, verdict, insns, usec,
	       msg);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: kjudge OBJ...\n");
		return 2;
	}
	libbpf_set_print(quiet_print);
	logbuf = malloc(LOG_SZ);
	if (!logbuf)
		return 2;
	for (int a = 1; a < argc; a++) {
		size_t n = prog_count(argv[a]);
		if (n == (size_t)-1) {
			fprintf(stderr, "kjudge: %s: cannot open: %s\n", argv[a], strerror(errno));
			rc = 2;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			judge(argv[a], i);
	}
	free(logbuf);
	return rc;
}
