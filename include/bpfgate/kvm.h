/* bpfgate/kvm.h - real kernels as oracles: Debian's kernel images, fetched
 * into a cache with a private apt configuration (nothing is installed, the
 * host's apt configuration is never read or written), booted under QEMU
 * (KVM when /dev/kvm can create a VM, else TCG) with an initrd built on the
 * fly, each judging many objects per boot with a bpfgate loader in the guest
 * (`bpfgate kload --records`, whose record lines bg_kvm_record_* write).
 *
 * Reads no environment variable: the cache root, the mirror and every boot
 * knob are arguments or options fields (bg_kcache_default_root computes the
 * conventional root from values the caller read).
 *
 * Ownership: a bg_kcache owns its images (getters lend them; an image stays
 * valid until bg_kcache__remove of its version or bg_kcache__free); a
 * bg_kvm_run owns its program records and its copy of the image.
 *
 * Thread safety: a bg_kcache is used by one thread at a time; runs are
 * read-only after bg_kcache__judge and may be read from any thread;
 * bg_kvm_accel probes once per process (pthread_once) and is safe from any
 * thread. Two processes may share a cache root (fetches write a new image
 * into place with rename). */
#ifndef BPFGATE_KVM_H
#define BPFGATE_KVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <bpfgate/types.h>
#include <bpfgate/kern.h>
#include <bpfgate/object.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bg_kcache; /* the image cache under a root directory */
struct bg_kimage; /* one cached image: kernels/VER/{vmlinuz,info} under the root */
struct bg_kvm_run; /* one kernel's verdicts from one boot */
struct bg_kvm_prog; /* one judged program (or an object that did not open) */

/* The conventional cache root into buf[n] (not created): XDG_CACHE_HOME's
 * value/bpfgate when set and not empty, else HOME's value/.cache/bpfgate;
 * -ENOENT when neither, -ENAMETOOLONG when it does not fit. */
BG_API int bg_kcache_default_root(const char *xdg_cache_home, const char *home, char *buf, size_t n);
/* Is ver a plausible kernel series ("5.10", "7.2")? */
BG_API bool bg_kcache_valid_ver(const char *ver);

struct bg_kcache_opts {
	size_t sz;           /* sizeof(struct bg_kcache_opts) */
	const char *mirror;  /* Debian mirror of fetches (NULL or "": http://deb.debian.org) */
};
#define bg_kcache_opts__last_field mirror

/* The cache under root (not created until a fetch or a boot needs it) and
 * the images it holds. NULL with errno EINVAL (no root, bad opts) or ENOMEM. */
BG_API struct bg_kcache *bg_kcache__open(const char *root, const struct bg_kcache_opts *opts);
BG_API void bg_kcache__free(struct bg_kcache *c);
BG_API const char *bg_kcache__root(const struct bg_kcache *c);
/* The cached images, sorted by version; NULL past the end. */
BG_API size_t bg_kcache__image_cnt(const struct bg_kcache *c);
BG_API const struct bg_kimage *bg_kcache__image(const struct bg_kcache *c, size_t i);
/* The image of series ver, NULL (errno ENOENT) when not fetched. */
BG_API const struct bg_kimage *bg_kcache__find(const struct bg_kcache *c, const char *ver);
/* Fetch ver (the newest Debian release of that series in the configured
 * suites) unless cached; *out (may be NULL) gets the image. 0, -EINVAL (not
 * a series), -BG_ERR_NOT_FOUND (the registry has no such kernel),
 * -BG_ERR_UNREACHABLE (the registry cannot be reached) or another negative
 * errno, with a message in err[errsz] (err may be NULL). */
BG_API int bg_kcache__fetch(struct bg_kcache *c, const char *ver, const struct bg_kimage **out,
			    char *err, size_t errsz);
/* Remove a cached image (its pointer becomes invalid); -ENOENT when absent. */
BG_API int bg_kcache__remove(struct bg_kcache *c, const char *ver);
/* The raw vmlinux BTF of cached image ver (what its /sys/kernel/btf/vmlinux
 * holds): kernels/VER/vmlinux.btf, extracted from the image's compressed
 * vmlinux on first use (the system's xz/zstd/gzip decompresses it). path[n]
 * gets its name. 0, -ENOENT (not cached) or another negative errno with a
 * message in err[errsz]. */
BG_API int bg_kcache__btf(struct bg_kcache *c, const char *ver, char *path, size_t n, char *err,
			  size_t errsz);

BG_API const char *bg_kimage__version(const struct bg_kimage *k);         /* "5.10" */
BG_API const char *bg_kimage__release(const struct bg_kimage *k);         /* "5.10.0-46-amd64" */
BG_API const char *bg_kimage__package(const struct bg_kimage *k);         /* Debian package */
BG_API const char *bg_kimage__package_version(const struct bg_kimage *k); /* its Debian version */
BG_API const char *bg_kimage__path(const struct bg_kimage *k);            /* the vmlinuz file */

/* The accelerator QEMU will use here ("kvm" or "tcg") and why: force when it
 * is "kvm" or "tcg", else probed once per process. */
BG_API const char *bg_kvm_accel(const char *force, const char **why);

struct bg_kvm_opts {
	size_t sz;               /* sizeof(struct bg_kvm_opts) */
	const char *loader;      /* bpfgate binary run in the guest (NULL: this executable) */
	int timeout_s;           /* wall-clock limit per boot (0: 120 s + 2 s per object) */
	int mem_mb;              /* guest memory (0: 256 MiB + 3x the initrd) */
	int jobs;                /* guests at once (0: min(2, CPUs)) */
	int log;                 /* keep full verifier logs */
	unsigned log_level;      /* verifier log level in the guest (0: 4, statistics and the
				    message only: level 1 makes TCG guests far slower) */
	double prog_limit;       /* guest seconds per program load (0: 20; < 0: none) */
	const char *accel;       /* "kvm" / "tcg" forces QEMU's accelerator; NULL: probe */
	const char *append;      /* extra kernel arguments (the last of a repeated one wins) */
	int keep;                /* keep each boot's files (initrd, console, records) */
};
#define bg_kvm_opts__last_field keep

/* Boot each image of ks[nk] (opts->jobs at a time; work files under the
 * cache root) and judge every program of the objects objs[nobj] in it.
 * runs[i] (an array of nk the caller provides) gets image i's results, to
 * free with bg_kvm_run__free; a guest that fails has bg_kvm_run__error set
 * and holds what it judged before it stopped. 0, or a negative errno when
 * nothing could be started (runs[] all NULL then). */
BG_API int bg_kcache__judge(struct bg_kcache *c, const struct bg_kimage *const *ks, size_t nk,
			    const char *const *objs, size_t nobj, const struct bg_kvm_opts *opts,
			    struct bg_kvm_run **runs);
BG_API void bg_kvm_run__free(struct bg_kvm_run *r);

BG_API const struct bg_kimage *bg_kvm_run__image(const struct bg_kvm_run *r);
BG_API const char *bg_kvm_run__release(const struct bg_kvm_run *r); /* uname -r seen in the guest
								     (else the image's) */
BG_API const char *bg_kvm_run__accel(const struct bg_kvm_run *r);   /* "kvm" or "tcg" */
BG_API int bg_kvm_run__mem_mb(const struct bg_kvm_run *r);
BG_API double bg_kvm_run__boot_seconds(const struct bg_kvm_run *r);  /* guest uptime at the
									 loader's start (-1: unknown) */
BG_API double bg_kvm_run__judge_seconds(const struct bg_kvm_run *r); /* guest time judging */
BG_API double bg_kvm_run__wall_seconds(const struct bg_kvm_run *r);  /* host clock, boot to off */
BG_API long bg_kvm_run__qemu_rss_kb(const struct bg_kvm_run *r);     /* QEMU's peak (-1: unknown) */
/* NULL when the guest ran to the end, else why it did not (and the last
 * console lines, or NULL). */
BG_API const char *bg_kvm_run__error(const struct bg_kvm_run *r);
BG_API const char *bg_kvm_run__console_tail(const struct bg_kvm_run *r);
/* The guest's records in the order judged (objects in the order given). */
BG_API size_t bg_kvm_run__prog_cnt(const struct bg_kvm_run *r);
BG_API const struct bg_kvm_prog *bg_kvm_run__prog(const struct bg_kvm_run *r, size_t i);

BG_API size_t bg_kvm_prog__obj(const struct bg_kvm_prog *g); /* index into objs */
BG_API const char *bg_kvm_prog__name(const struct bg_kvm_prog *g); /* "-" for an object error */
BG_API const char *bg_kvm_prog__section(const struct bg_kvm_prog *g);
BG_API const char *bg_kvm_prog__type(const struct bg_kvm_prog *g);
BG_API size_t bg_kvm_prog__insns(const struct bg_kvm_prog *g);
/* Rejected: the log's message line, else NULL. */
BG_API const char *bg_kvm_prog__message(const struct bg_kvm_prog *g);
/* Verdict, errno, reason, log (with opts->log), processed insns, where. */
BG_API const struct bg_kload_result *bg_kvm_prog__result(const struct bg_kvm_prog *g);
/* The object could not be opened in the guest: why (else NULL). */
BG_API const char *bg_kvm_prog__obj_error(const struct bg_kvm_prog *g);

/* Guest side (the loader in the guest): one record line on f for a judged
 * program / an object that did not open, in the format the host parses. */
BG_API void bg_kvm_record_prog(FILE *f, size_t obj, const struct bg_program *p,
			       const struct bg_kload_result *r, int with_log);
BG_API void bg_kvm_record_obj_error(FILE *f, size_t obj, const char *msg);

#ifdef __cplusplus
}
#endif
#endif
