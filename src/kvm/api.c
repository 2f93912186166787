/* The public face of src/kvm (bpfgate/kvm.h): an opaque cache that owns its
 * images, runs that own their records, getters, and the one options
 * convention (OPTS_VALID / OPTS_COPY) in front of the internal kcache.c and
 * boot.c, which the compile driver also calls directly. */
#define _GNU_SOURCE /* strverscmp */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/opts.h"
#include "kvm/kvm.h"

struct bg_kcache {
	char *root, *mirror;
	struct bg_kimage **ks; /* one allocation each: lent pointers stay valid */
	size_t n;
};

static int add_image(struct bg_kcache *c, const struct bg_kimage *k, const struct bg_kimage **out)
{
	struct bg_kimage **t, *copy;

	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->ks[i]->ver, k->ver)) {
			*c->ks[i] = *k; /* refreshed in place: lent pointers stay valid */
			if (out)
				*out = c->ks[i];
			return 0;
		}
	copy = malloc(sizeof(*copy));
	t = copy ? realloc(c->ks, (c->n + 1) * sizeof(*t)) : NULL;
	if (!t) {
		free(copy);
		return -ENOMEM;
	}
	*copy = *k;
	c->ks = t;
	c->ks[c->n++] = copy;
	if (out)
		*out = copy;
	return 0;
}

struct bg_kcache *bg_kcache__open(const char *root, const struct bg_kcache_opts *opts)
{
	struct bg_kcache *c;
	struct bg_kimage *ks = NULL;
	const char *mirror;
	size_t n = 0;

	if (!root || !*root || !OPTS_VALID(opts, bg_kcache_opts)) {
		errno = EINVAL;
		return NULL;
	}
	mirror = OPTS_GET(opts, mirror, NULL);
	c = calloc(1, sizeof(*c));
	if (!c || !(c->root = strdup(root)) || (mirror && !(c->mirror = strdup(mirror))))
		goto nomem;
	bg_kcache_list(root, &ks, &n); /* an absent root holds no image */
	for (size_t i = 0; i < n; i++)
		if (add_image(c, &ks[i], NULL))
			goto nomem;
	free(ks);
	return c;
nomem:
	free(ks);
	bg_kcache__free(c);
	errno = ENOMEM;
	return NULL;
}

void bg_kcache__free(struct bg_kcache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		free(c->ks[i]);
	free(c->ks);
	free(c->root);
	free(c->mirror);
	free(c);
}

const char *bg_kcache__root(const struct bg_kcache *c)
{
	return c ? c->root : NULL;
}

size_t bg_kcache__image_cnt(const struct bg_kcache *c)
{
	return c ? c->n : 0;
}

const struct bg_kimage *bg_kcache__image(const struct bg_kcache *c, size_t i)
{
	return c && i < c->n ? c->ks[i] : NULL;
}

const struct bg_kimage *bg_kcache__find(const struct bg_kcache *c, const char *ver)
{
	for (size_t i = 0; c && ver && i < c->n; i++)
		if (!strcmp(c->ks[i]->ver, ver))
			return c->ks[i];
	errno = ENOENT;
	return NULL;
}

int bg_kcache__fetch(struct bg_kcache *c, const char *ver, const struct bg_kimage **out, char *err,
		     size_t errsz)
{
	struct bg_kimage k;
	char tmp[256];
	int e;

	if (err && errsz)
		*err = 0;
	if (!c || !ver)
		return -EINVAL;
	e = bg_kcache_fetch(c->root, c->mirror, ver, &k, err && errsz ? err : tmp,
			    err && errsz ? errsz : sizeof(tmp));
	if (e)
		return e;
	e = add_image(c, &k, out);
	/* sorted by version, as the listing is */
	for (size_t i = c->n - 1; !e && i > 0 && strverscmp(c->ks[i - 1]->ver, c->ks[i]->ver) > 0;
	     i--) {
		struct bg_kimage *t = c->ks[i];
		c->ks[i] = c->ks[i - 1];
		c->ks[i - 1] = t;
	}
	return e;
}

int bg_kcache__btf(struct bg_kcache *c, const char *ver, char *path, size_t n, char *err, size_t errsz)
{
	char e[512] = "";
	int r;

	if (!c || !ver || !path || !n)
		return -EINVAL;
	r = bg_kcache_btf(c->root, ver, path, n, e, sizeof(e));
	if (r && err && errsz)
		snprintf(err, errsz, "%s", e);
	return r;
}

int bg_kcache__remove(struct bg_kcache *c, const char *ver)
{
	int e;

	if (!c || !ver)
		return -EINVAL;
	e = bg_kcache_remove(c->root, ver);
	for (size_t i = 0; !e && i < c->n; i++)
		if (!strcmp(c->ks[i]->ver, ver)) {
			free(c->ks[i]);
			memmove(&c->ks[i], &c->ks[i + 1], (c->n - i - 1) * sizeof(*c->ks));
			c->n--;
			break;
		}
	return e;
}

const char *bg_kimage__version(const struct bg_kimage *k)
{
	return k ? k->ver : NULL;
}
const char *bg_kimage__release(const struct bg_kimage *k)
{
	return k ? k->release : NULL;
}
const char *bg_kimage__package(const struct bg_kimage *k)
{
	return k ? k->package : NULL;
}
const char *bg_kimage__package_version(const struct bg_kimage *k)
{
	return k ? k->pkgver : NULL;
}
const char *bg_kimage__path(const struct bg_kimage *k)
{
	return k ? k->vmlinuz : NULL;
}

int bg_kcache__judge(struct bg_kcache *c, const struct bg_kimage *const *ks, size_t nk,
		     const char *const *objs, size_t nobj, const struct bg_kvm_opts *opts,
		     struct bg_kvm_run **runs)
{
	struct bg_kvm_opts o;
	struct bg_kimage *karr;
	struct bg_kvm_run *arr;
	int e;

	if (!c || !ks || !runs || (nobj && !objs))
		return -EINVAL;
	memset(runs, 0, nk * sizeof(*runs));
	if (OPTS_COPY(&o, opts, bg_kvm_opts))
		return -EINVAL;
	struct kvm_boot_opts bo = {.sz = sizeof(bo),
				   .loader = o.loader,
				   .timeout_s = o.timeout_s,
				   .mem_mb = o.mem_mb,
				   .jobs = o.jobs,
				   .log = o.log,
				   .log_level = o.log_level,
				   .prog_limit = o.prog_limit,
				   .cache_dir = c->root,
				   .accel = o.accel,
				   .append = o.append,
				   .keep = o.keep};
	karr = calloc(nk ? nk : 1, sizeof(*karr));
	arr = calloc(nk ? nk : 1, sizeof(*arr));
	for (size_t i = 0; karr && arr && i < nk; i++) {
		if (!ks[i]) {
			free(karr);
			free(arr);
			return -EINVAL;
		}
		karr[i] = *ks[i];
	}
	e = karr && arr ? bg_kvm_judge(karr, nk, objs, nobj, &bo, arr) : -ENOMEM;
	for (size_t i = 0; !e && i < nk; i++) {
		runs[i] = malloc(sizeof(*runs[i]));
		if (runs[i])
			*runs[i] = arr[i]; /* the records move into it */
		else
			e = -ENOMEM;
	}
	if (e) { /* nothing started, or no room to hand the results over */
		for (size_t i = 0; i < nk; i++) {
			if (arr && !runs[i])
				bg_kvm_run__fini(&arr[i]);
			bg_kvm_run__free(runs[i]);
			runs[i] = NULL;
		}
	}
	free(karr);
	free(arr);
	return e;
}

void bg_kvm_run__free(struct bg_kvm_run *r)
{
	if (!r)
		return;
	bg_kvm_run__fini(r);
	free(r);
}

const struct bg_kimage *bg_kvm_run__image(const struct bg_kvm_run *r)
{
	return r ? &r->k : NULL;
}

const char *bg_kvm_run__release(const struct bg_kvm_run *r)
{
	return !r ? NULL : r->release[0] ? r->release : r->k.release;
}

const char *bg_kvm_run__accel(const struct bg_kvm_run *r)
{
	return r ? r->accel : NULL;
}
int bg_kvm_run__mem_mb(const struct bg_kvm_run *r)
{
	return r ? r->mem_mb : 0;
}
double bg_kvm_run__boot_seconds(const struct bg_kvm_run *r)
{
	return r ? r->boot_s : -1;
}
double bg_kvm_run__judge_seconds(const struct bg_kvm_run *r)
{
	return r ? r->judge_s : -1;
}
double bg_kvm_run__wall_seconds(const struct bg_kvm_run *r)
{
	return r ? r->wall_s : -1;
}
long bg_kvm_run__qemu_rss_kb(const struct bg_kvm_run *r)
{
	return r ? r->host_rss_kb : -1;
}
const char *bg_kvm_run__error(const struct bg_kvm_run *r)
{
	return r ? r->error : NULL;
}
const char *bg_kvm_run__console_tail(const struct bg_kvm_run *r)
{
	return r ? r->console_tail : NULL;
}
size_t bg_kvm_run__prog_cnt(const struct bg_kvm_run *r)
{
	return r ? r->n : 0;
}

const struct bg_kvm_prog *bg_kvm_run__prog(const struct bg_kvm_run *r, size_t i)
{
	return r && i < r->n ? &r->progs[i] : NULL;
}

size_t bg_kvm_prog__obj(const struct bg_kvm_prog *g)
{
	return g ? g->obj : 0;
}
const char *bg_kvm_prog__name(const struct bg_kvm_prog *g)
{
	return g ? g->prog : NULL;
}
const char *bg_kvm_prog__section(const struct bg_kvm_prog *g)
{
	return g ? g->section : NULL;
}
const char *bg_kvm_prog__type(const struct bg_kvm_prog *g)
{
	return g ? g->type : NULL;
}
size_t bg_kvm_prog__insns(const struct bg_kvm_prog *g)
{
	return g ? g->insns : 0;
}
const char *bg_kvm_prog__message(const struct bg_kvm_prog *g)
{
	return g ? g->message : NULL;
}
const struct bg_kload_result *bg_kvm_prog__result(const struct bg_kvm_prog *g)
{
	return g ? &g->r : NULL;
}
const char *bg_kvm_prog__obj_error(const struct bg_kvm_prog *g)
{
	return g ? g->obj_error : NULL;
}
