/* Real kernels as oracles: Debian's kernel images, fetched into a cache with
 * a private apt configuration, booted under QEMU with an initrd built on the
 * fly, judging many objects per boot with bpfgate's own loader.
 *
 * kcache.c: the image cache (a root the caller names; the CLI's is
 *   $XDG_CACHE_HOME/bpfgate, default ~/.cache/bpfgate, see bg_kcache_root):
 *   kernels/VER/{vmlinuz,info}, apt/ (own sources list,
 *   state and archive dirs; the host's apt configuration is never read or
 *   written, nothing is installed).
 * initrd.c: newc cpio writer and the initrd (busybox, /init, the loader and
 *   its shared libraries, the objects).
 * boot.c: QEMU (KVM when /dev/kvm can create a VM, else TCG), a wall-clock
 *   limit per boot, results read back from the second serial port.
 * kimgbtf.c: the vmlinux BTF of a cached image (for check --kernel V).
 * records.c: the guest->host record line format (escaped TSV), written by
 *   `bpfgate kload --records` in the guest and parsed by the host.
 * The public face is bpfgate/kvm.h (opaque cache, images, runs; api.c);
 * this header is the library's own view, used by api.c and the compile
 * driver (src/cc/judge.c). Reads no environment variable: the cache root, the
 * mirror and the boot knobs are arguments and kvm_boot_opts fields (the CLI
 * fills them from XDG_CACHE_HOME, HOME, BPFGATE_DEBIAN_MIRROR, BG_KVM_*). */
#ifndef BG_KVM_KVM_H
#define BG_KVM_KVM_H
#include <stddef.h>
#include <stdio.h>
#include <bpfgate/kern.h>
#include <bpfgate/object.h>
#include <bpfgate/kvm.h>

/* ---- image cache (kcache.c) ---- */
struct bg_kimage {
	char ver[32];       /* what was asked: "5.10" */
	char release[96];   /* uname -r of the image: "5.10.0-46-amd64" */
	char package[160];  /* the Debian package it came from */
	char pkgver[64];    /* its Debian version */
	char vmlinuz[4096]; /* path of the image in the cache */
};

/* errors of fetch besides -errno */
#define BG_KCACHE_NO_VERSION (-BG_ERR_NOT_FOUND)    /* the registry has no such kernel */
#define BG_KCACHE_UNREACHABLE (-BG_ERR_UNREACHABLE) /* the registry cannot be reached */

/* bg_kcache_default_root, bg_kcache_valid_ver: bpfgate/kvm.h */
/* The cached image of ver under root; -ENOENT when not fetched. */
int bg_kcache_get(const char *root, const char *ver, struct bg_kimage *out);
/* Every cached image, sorted by version; *out malloc'd. */
int bg_kcache_list(const char *root, struct bg_kimage **out, size_t *n);
/* Fetch ver ("5.10", "6.1", "6.12", "7.2": the newest Debian release of that
 * series in the configured suites) unless cached, from mirror (NULL or "":
 * http://deb.debian.org). err gets a message. */
int bg_kcache_fetch(const char *root, const char *mirror, const char *ver, struct bg_kimage *out,
		    char *err, size_t errlen);
/* Remove a cached image; -ENOENT when absent. */
int bg_kcache_remove(const char *root, const char *ver);
/* The raw vmlinux BTF of cached image ver (kimgbtf.c): kernels/VER/vmlinux.btf,
 * extracted from the image on first use (the system's xz/zstd/gzip
 * decompresses it). path gets its name; err a message on failure. */
int bg_kcache_btf(const char *root, const char *ver, char *path, size_t n, char *err, size_t errlen);

/* ---- guest records (records.c) ---- */
struct bg_kvm_prog {
	size_t obj;                /* index into the objects judged */
	char *prog, *section, *type;
	size_t insns;              /* program size in slots */
	char *message;             /* rejected: the log's message line (klog) */
	struct bg_kload_result r;  /* verdict, err, reason, log, processed, where */
	char *obj_error;           /* the object could not be opened in the guest
				      (prog is "-" then) */
};
/* Guest side: bg_kvm_record_prog, bg_kvm_record_obj_error (bpfgate/kvm.h). */
/* Host side: parse one line (NUL-terminated, no newline). Returns 1 when a
 * record was filled, 0 when the line is not a record. */
int bg_kvm_record_parse(char *line, struct bg_kvm_prog *out);
void bg_kvm_prog__fini(struct bg_kvm_prog *p);

/* ---- booting (boot.c) ---- */
struct kvm_boot_opts {
	size_t sz;               /* sizeof(struct kvm_boot_opts) */
	const char *loader;      /* bpfgate binary run in the guest (default: this one) */
	int timeout_s;           /* wall-clock limit per boot (0: 120 s + 2 s per object) */
	int mem_mb;              /* guest memory (0: 256 MiB + 3x the initrd) */
	int jobs;                /* guests at once (0: min(2, CPUs)) */
	int log;                 /* keep full verifier logs */
	unsigned log_level;      /* verifier log level in the guest (0: 4, statistics and
				    the message only: level 1 makes TCG guests far slower) */
	double prog_limit;       /* guest seconds per program load (0: 20; < 0: none) */
	const char *cache_dir;   /* the image cache root (required: bg_kcache_root) */
	const char *accel;       /* "kvm" / "tcg" forces QEMU's accelerator; NULL: probe */
	const char *append;      /* extra kernel arguments (the last of a repeated one wins) */
	int keep;                /* keep each boot's files (initrd, console, records) */
};

struct bg_kvm_run {
	struct bg_kimage k;
	char release[96];        /* uname -r seen in the guest */
	char accel[8];           /* "kvm" or "tcg" */
	int mem_mb;
	double boot_s;           /* guest uptime when the loader started */
	double judge_s;          /* guest time spent judging */
	double wall_s;           /* host wall clock, boot to power-off */
	long host_rss_kb;        /* QEMU's peak resident memory */
	struct bg_kvm_prog *progs;
	size_t n;
	char *error;             /* NULL when the guest ran to the end; else progs
				    holds what it judged before it stopped */
	char *console_tail;      /* last lines of the guest console on error */
};
/* bg_kvm_accel: bpfgate/kvm.h */
/* Boot each kernel (jobs at a time) and judge every program of objs in it.
 * runs[i] gets kernel i's results; a guest that fails sets runs[i].error.
 * Returns 0, or a negative errno when nothing could be started. */
int bg_kvm_judge(const struct bg_kimage *ks, size_t nk, const char *const *objs, size_t nobj,
		 const struct kvm_boot_opts *opts, struct bg_kvm_run *runs);
void bg_kvm_run__fini(struct bg_kvm_run *r);
#endif
