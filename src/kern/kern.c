/* The running kernel as an oracle: load one prepared program and classify the
 * kernel's answer.
 *
 * Each bg_kern_load() is self-contained: it loads the object's BTF, creates
 * the maps the program references, loads the program with fd_array = those
 * map fds (the prepared program references maps by index), and closes
 * everything unless the caller keeps the fds. Verdicts:
 *  - accepted: BPF_PROG_LOAD returned an fd;
 *  - rejected: the verifier refused it and said why (a non-empty log);
 *  - unavailable: the kernel could not judge it - EPERM with an empty log
 *    (fentry/fexit/lsm here), a missing attach target, an unsatisfied CO-RE
 *    relocation or kfunc, a map it cannot create, or bpf() refused. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpfgate/kern.h>
#include "core/log.h"
#include "kern/kern_int.h"
#include "core/opts.h"

#define DEFAULT_LOG_SIZE (16u << 20)
#define DEFAULT_LOG_LEVEL (1u | 4u) /* BPF_LOG_LEVEL1 | BPF_LOG_STATS */
#define STATS_LOG_LEVEL 4u
#define MESSAGE_LINES 2
/* libbpf's poison call immediates: unsatisfied CO-RE relocation, unresolved kfunc */
#define POISON_CORE "195896080"
#define POISON_KFUNC "2002000"

const char *bg_verdict_name(enum bg_verdict v)
{
	switch (v) {
	case BG_VERDICT_ACCEPTED:
		return "accepted";
	case BG_VERDICT_REJECTED:
		return "rejected";
	case BG_VERDICT_UNAVAILABLE:
		return "unavailable";
	}
	return "unknown";
}

/* Probed once per process (pthread_once), read-only afterwards. */
static int avail_cached;
static char avail_reason[160];
static pthread_once_t avail_once = PTHREAD_ONCE_INIT;

static void probe_available(void)
{
	const struct bpf_insn insns[] = {
	    {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0},
	    {.code = BPF_JMP | BPF_EXIT},
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "bg_probe", "GPL", insns, 2, NULL);

	if (fd >= 0) {
		close(fd);
		avail_cached = 1;
		snprintf(avail_reason, sizeof(avail_reason), "bpf() works");
	} else {
		avail_cached = 0;
		snprintf(avail_reason, sizeof(avail_reason),
			 "bpf(BPF_PROG_LOAD) of a trivial socket filter failed: %s", strerror(errno));
	}
}

int bg_kern_available(const char **why)
{
	pthread_once(&avail_once, probe_available);
	if (why)
		*why = avail_reason;
	return avail_cached;
}

static void set_unavailable(struct bg_kload_result *res, int err, const char *why)
{
	res->verdict = BG_VERDICT_UNAVAILABLE;
	res->err = err;
	free(res->reason);
	res->reason = strdup(why);
}

/* State of one load: what must be closed afterwards. */
struct kload {
	const struct bg_program *prog;
	const struct bg_kload_opts *opts;
	struct bg_kmaps maps;
	int btf_fd;
	uint32_t attach_btf_id;
	int32_t attach_type;      /* expected_attach_type override (struct_ops member), or -1 */
	char *logbuf;
	size_t logsz;
};

static void fill_btf_ext(const struct kload *k, struct bpf_prog_load_opts *o)
{
	size_t cnt = 0;
	uint32_t rec = 0;
	const void *fi, *li;

	if (k->btf_fd < 0)
		return;
	o->prog_btf_fd = (uint32_t)k->btf_fd;
	fi = bg_program__btf_func_info(k->prog, &cnt, &rec);
	if (fi && cnt && rec) {
		o->func_info = fi;
		o->func_info_cnt = (uint32_t)cnt;
		o->func_info_rec_size = rec;
	}
	li = bg_program__btf_line_info(k->prog, &cnt, &rec);
	if (li && cnt && rec) {
		o->line_info = li;
		o->line_info_cnt = (uint32_t)cnt;
		o->line_info_rec_size = rec;
	}
}

/* Kernels before 5.14 have no fd_array (BPF_PROG_LOAD fails with E2BIG): the
 * map references are rewritten to the older map-fd pseudo sources instead.
 * Returns a malloc'd copy, or NULL. */
static struct bg_raw_insn *with_map_fds(const struct kload *k, const struct bg_raw_insn *in,
					size_t n)
{
	struct bg_raw_insn *out = malloc(n * sizeof(*out) + 1);

	if (!out)
		return NULL;
	memcpy(out, in, n * sizeof(*out));
	for (size_t i = 0; i + 1 < n; i++) {
		struct bg_raw_insn *x = &out[i];

		if (x->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if ((x->src_reg == BG_PSEUDO_MAP_IDX || x->src_reg == BG_PSEUDO_MAP_IDX_VALUE) &&
		    x->imm >= 0 && (size_t)x->imm < k->maps.cnt) {
			x->src_reg = x->src_reg == BG_PSEUDO_MAP_IDX ? BPF_PSEUDO_MAP_FD
								     : BPF_PSEUDO_MAP_VALUE;
			x->imm = k->maps.fds[x->imm];
		}
		i++;
	}
	return out;
}

/* Set once a kernel refused fd_array (E2BIG): map fds are patched in since. */
static int no_fd_array;

/* One BPF_PROG_LOAD at log_level; returns fd or negative errno. */
static int prog_load(struct kload *k, uint32_t log_level)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o);
	const struct bg_object *obj = bg_program__object(k->prog);
	const char *license = obj ? bg_object__license(obj) : NULL;
	const struct bg_raw_insn *insns;
	size_t n = 0;
	char name[BPF_OBJ_NAME_LEN];
	int fd;

	insns = bg_program__raw(k->prog, &n);
	bg_kern_objname(name, sizeof(name), bg_program__name(k->prog));
	o.attempts = 1;
	o.expected_attach_type = k->attach_type >= 0 ? (enum bpf_attach_type)k->attach_type
						     : bg_program__attach_type(k->prog);
	o.attach_btf_id = k->attach_btf_id;
	o.kern_version = obj ? bg_object__kversion(obj) : 0;
	o.prog_flags = bg_kern_prog_flags(bg_program__section(k->prog));
	o.fd_array = k->maps.cnt ? k->maps.fds : NULL;
	fill_btf_ext(k, &o);
	k->logbuf[0] = 0;
	if (log_level) { /* level 0: no buffer, or libbpf retries at level 1 */
		o.log_buf = k->logbuf;
		o.log_size = (uint32_t)k->logsz;
		o.log_level = log_level;
	}
	if (!no_fd_array || !o.fd_array) {
		fd = bpf_prog_load(bg_program__type(k->prog), name, license ? license : "",
				   (const struct bpf_insn *)insns, n, &o);
		if (fd >= 0 || errno != E2BIG || !o.fd_array)
			return fd < 0 ? -errno : fd;
		no_fd_array = 1;
	}
	struct bg_raw_insn *patched = with_map_fds(k, insns, n);

	if (!patched)
		return -ENOMEM;
	o.fd_array = NULL;
	fd = bpf_prog_load(bg_program__type(k->prog), name, license ? license : "",
			   (const struct bpf_insn *)patched, n, &o);
	fd = fd < 0 ? -errno : fd;
	free(patched);
	return fd;
}

/* Why a program with a poisoned instruction cannot be judged. The loader
 * records unresolved kfuncs/ksyms the same way as CO-RE failures. */
static bool failure_is_extern(const struct bg_core_failure *f)
{
	return f && f->reason && (strstr(f->reason, "kfunc") || strstr(f->reason, "ksym"));
}

static char *first_core_failure(const struct bg_program *prog)
{
	const struct bg_core_failure *f = bg_program__core_failure(prog, 0);
	const char *why = f && f->reason ? f->reason : "unsatisfied relocation";
	bool ext = failure_is_extern(f);
	char buf[512];

	snprintf(buf, sizeof(buf), "%s at insn %zu: %s",
		 ext ? "unresolved kfunc/ksym" : "CO-RE relocation failed", f ? f->insn : 0, why);
	return strdup(buf);
}

/* The rejection message, prefixed with where it happened:
 * "file.c:12: insn 7: invalid access to packet ...". */
static void set_rejection(struct bg_kload_result *res, const char *log)
{
	struct bg_klog_where w;
	char *msg = bg_klog_message(log, MESSAGE_LINES);
	char prefix[320] = "";
	size_t n;

	if (!bg_klog_where(log, &w)) {
		res->fail_insn = w.insn;
		if (w.line) {
			res->fail_file = strdup(w.file);
			res->fail_line = w.line;
			res->fail_source = strdup(w.source);
			snprintf(prefix, sizeof(prefix), "%s:%u: ", w.file, w.line);
		}
		if (w.insn >= 0) {
			n = strlen(prefix);
			snprintf(prefix + n, sizeof(prefix) - n, "insn %ld: ", w.insn);
		}
	}
	if (!msg || !*prefix) {
		res->reason = msg;
		return;
	}
	res->reason = malloc(strlen(prefix) + strlen(msg) + 1);
	if (res->reason)
		strcat(strcpy(res->reason, prefix), msg);
	free(msg);
}

/* A poisoned instruction the verifier reached: libbpf's CO-RE poison
 * (call 0xbad2310) or its unresolved-kfunc poison. */
static bool hit_poison(const char *log)
{
	return strstr(log, "unknown#" POISON_CORE) || strstr(log, "unknown#" POISON_KFUNC);
}

/* A kfunc the kernel knows but this build of it refuses to every program:
 * the log ends its walk at the call with "NAME() is not allowed" (seen on
 * the 6.18.44 build of these machines for bpf_dynptr_slice_rdwr, whatever
 * the program type or dynptr kind; upstream 6.18 has no such message). Like
 * a kfunc the kernel lacks, a fact of the machine: unavailable. */
static bool disabled_kfunc(const char *log, char *name, size_t sz)
{
	for (const char *l = log; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n = strspn(l, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		const char *tail = "() is not allowed";

		if (n && n < sz && !strncmp(l + n, tail, strlen(tail)) &&
		    (l[n + strlen(tail)] == '\n' || !l[n + strlen(tail)])) {
			memcpy(name, l, n);
			name[n] = '\0';
			return true;
		}
	}
	return false;
}

/* Classify a failed load from its errno and log. */
static void classify_failure(const struct kload *k, int err, struct bg_kload_result *res)
{
	const char *log = res->log ? res->log : "";
	char buf[512], name[128];

	res->err = err;
	if (bg_program__core_failure_cnt(k->prog) && hit_poison(log)) {
		/* As libbpf: an unsatisfied CO-RE relocation is loaded poisoned
		 * and the verifier rejects the program when the poison is reachable
		 * (a dead one loads); the verdict names the relocation. A kfunc or
		 * ksym this kernel lacks is a fact of the machine (libbpf refuses
		 * the load): unavailable. */
		res->verdict = failure_is_extern(bg_program__core_failure(k->prog, 0)) ? BG_VERDICT_UNAVAILABLE
										       : BG_VERDICT_REJECTED;
		res->reason = first_core_failure(k->prog);
	} else if (bg_klog_is_empty(log)) {
		res->verdict = BG_VERDICT_UNAVAILABLE;
		snprintf(buf, sizeof(buf), "%s before verification (empty verifier log)%s",
			 err == -EPERM ? "EPERM" : strerror(-err),
			 err == -EPERM ? ": this program type is refused on this kernel" : "");
		res->reason = strdup(buf);
	} else if (disabled_kfunc(log, name, sizeof(name))) {
		res->verdict = BG_VERDICT_UNAVAILABLE;
		snprintf(buf, sizeof(buf), "kfunc %s is refused by this kernel build (\"%s() is not allowed\")",
			 name, name);
		res->reason = strdup(buf);
	} else {
		res->verdict = BG_VERDICT_REJECTED;
		set_rejection(res, log);
	}
}

/* Load at the requested level. When the log does not fit (ENOSPC; the kernel
 * keeps its tail), judge again with statistics only, then without a log. The
 * first log is kept: its tail holds the verifier's message. */
static int run_load(struct kload *k, struct bg_kload_result *res)
{
	uint32_t level = k->opts && k->opts->log_level ? k->opts->log_level : DEFAULT_LOG_LEVEL;
	int fd = prog_load(k, level);

	res->log = strdup(k->logbuf);
	if (fd == -ENOSPC) {
		pr_debug("kern: %s: verifier log truncated at %zu bytes, reloading\n",
			 bg_program__name(k->prog), k->logsz);
		if (level != STATS_LOG_LEVEL)
			fd = prog_load(k, STATS_LOG_LEVEL);
		if (fd == -ENOSPC)
			fd = prog_load(k, 0);
	}
	res->insns_processed = bg_klog_processed(k->logbuf);
	res->verif_time_usec = bg_klog_verif_time(k->logbuf);
	if (res->insns_processed < 0) {
		res->insns_processed = bg_klog_processed(res->log);
		res->verif_time_usec = bg_klog_verif_time(res->log);
	}
	if (fd >= 0) {
		res->verdict = BG_VERDICT_ACCEPTED;
		res->err = 0;
		return fd;
	}
	classify_failure(k, fd, res);
	return fd;
}

static void result_init(struct bg_kload_result *res)
{
	memset(res, 0, sizeof(*res));
	res->prog_fd = -1;
	res->insns_processed = -1;
	res->verif_time_usec = -1;
	res->fail_insn = -1;
}

/* Everything before BPF_PROG_LOAD; returns 0 or fills res as unavailable. */
static int prepare(struct kload *k, struct bg_kload_result *res)
{
	char err[512];
	int id = 0, e;

	switch (bg_program__type(k->prog)) {
	case BPF_PROG_TYPE_STRUCT_OPS: {
		/* as libbpf: the struct's BTF id and the member's index; the
		 * struct_ops map itself is not needed to verify the program */
		uint32_t member = 0;
		id = bg_kern_struct_ops_target(k->prog, &member, err, sizeof(err));
		if (id < 0) {
			set_unavailable(res, id, err);
			return id;
		}
		k->attach_type = (int32_t)member;
		break;
	}
	case BPF_PROG_TYPE_EXT:
		set_unavailable(res, -EOPNOTSUPP,
				"freplace (extension) programs need a target program");
		return -EOPNOTSUPP;
	}
	if (k->attach_type < 0)
		id = bg_kern_attach_btf_id(k->prog, err, sizeof(err));
	if (id < 0) {
		set_unavailable(res, id, err);
		return id;
	}
	k->attach_btf_id = (uint32_t)id;
	k->btf_fd = bg_kbtf_load(bg_program__object(k->prog));
	if (k->btf_fd < 0)
		k->btf_fd = -1;
	e = bg_kmaps_create(k->prog, k->btf_fd, &k->maps, err, sizeof(err));
	if (e) {
		set_unavailable(res, e, err);
		return e;
	}
	k->logsz = k->opts && k->opts->log_size ? k->opts->log_size : DEFAULT_LOG_SIZE;
	if (k->logsz > UINT32_MAX)
		k->logsz = UINT32_MAX;
	k->logbuf = malloc(k->logsz);
	return k->logbuf ? 0 : -ENOMEM;
}

int bg_kern_load(const struct bg_program *prog, const struct bg_kload_opts *opts,
		 struct bg_kload_result *res)
{
	struct bg_kload_opts o;
	struct kload k = {.prog = prog, .opts = &o, .btf_fd = -1, .attach_type = -1};
	const char *why;
	int fd = -1, e;

	if (!res)
		return -EINVAL;
	result_init(res);
	if (!prog || OPTS_COPY(&o, opts, bg_kload_opts))
		return -EINVAL;
	if (!bg_kern_available(&why)) {
		set_unavailable(res, -EPERM, why);
		return 0;
	}
	e = prepare(&k, res);
	if (e == -ENOMEM && !res->reason)
		goto out;
	if (!e)
		fd = run_load(&k, res);
	e = 0;
	if (fd >= 0 && o.keep_fd) {
		res->prog_fd = fd;
		res->map_fds = k.maps.fds;
		res->map_cnt = k.maps.cnt;
		k.maps.fds = NULL;
		k.maps.cnt = 0;
	} else if (fd >= 0) {
		close(fd);
	}
	if (res->verdict == BG_VERDICT_UNAVAILABLE && !res->reason)
		res->reason = strdup("unavailable");
out:
	bg_kmaps_close(&k.maps);
	if (k.btf_fd >= 0)
		close(k.btf_fd);
	free(k.logbuf);
	return e;
}

void bg_kload_result__fini(struct bg_kload_result *res)
{
	if (!res)
		return;
	free(res->reason);
	free(res->log);
	free(res->fail_file);
	free(res->fail_source);
	if (res->prog_fd >= 0)
		close(res->prog_fd);
	for (size_t i = 0; res->map_fds && i < res->map_cnt; i++)
		if (res->map_fds[i] >= 0)
			close(res->map_fds[i]);
	free(res->map_fds);
	memset(res, 0, sizeof(*res));
	res->prog_fd = -1;
	res->fail_insn = -1;
}
