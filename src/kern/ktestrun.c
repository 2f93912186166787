/* BPF_PROG_TEST_RUN and map reading for programs loaded with keep_fd: the
 * concrete half of the oracle (differential tests of the interpreter,
 * coverage). Thin wrappers over libbpf's low-level API with our option
 * struct, so callers do not depend on libbpf's struct layouts. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpfgate/kern.h>
#include "core/opts.h"

int bg_kern_test_run(int prog_fd, struct bg_test_run_opts *o, uint32_t *retval,
		     uint32_t *duration_ns)
{
	LIBBPF_OPTS(bpf_test_run_opts, t);
	struct bg_test_run_opts c; /* in/out: read a copy, write back what the caller has */
	int e;

	if (prog_fd < 0 || !o || OPTS_COPY(&c, o, bg_test_run_opts))
		return -EINVAL;
	t.data_in = c.data_in;
	t.data_size_in = c.data_size_in;
	t.data_out = c.data_out;
	t.data_size_out = c.data_out ? c.data_size_out : 0;
	t.ctx_in = c.ctx_in;
	t.ctx_size_in = c.ctx_size_in;
	t.ctx_out = c.ctx_out;
	t.ctx_size_out = c.ctx_out ? c.ctx_size_out : 0;
	t.repeat = c.repeat > 1 ? (int)c.repeat : 1;
	t.flags = c.flags;
	t.cpu = c.cpu;
	e = bpf_prog_test_run_opts(prog_fd, &t);
	if (e)
		return -errno;
	OPTS_SET(o, data_size_out, t.data_size_out);
	OPTS_SET(o, ctx_size_out, t.ctx_size_out);
	if (retval)
		*retval = t.retval;
	if (duration_ns)
		*duration_ns = t.duration;
	return 0;
}

static int ncpus;
static pthread_once_t ncpus_once = PTHREAD_ONCE_INIT;

static void count_cpus(void)
{
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0)
		ncpus = 1;
}

int bg_kern_possible_cpus(void)
{
	pthread_once(&ncpus_once, count_cpus);
	return ncpus;
}

static int is_percpu(uint32_t type)
{
	return type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_PERCPU_HASH || type == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

size_t bg_kern_map_value_size(const struct bg_map_def *def)
{
	if (!def || def->type == BPF_MAP_TYPE_RINGBUF || def->type == BPF_MAP_TYPE_USER_RINGBUF)
		return 0;
	if (is_percpu(def->type))
		return (((size_t)def->value_size + 7) & ~(size_t)7) *
		       (size_t)bg_kern_possible_cpus();
	return def->value_size;
}

int bg_kern_map_foreach(int map_fd, const struct bg_map_def *def, bg_kern_map_fn fn, void *ctx)
{
	size_t vsz = bg_kern_map_value_size(def);
	void *key, *next, *val;
	int e = 0, first = 1;

	if (map_fd < 0 || !def || !fn)
		return -EINVAL;
	if (!vsz || !def->key_size)
		return 0;
	key = calloc(1, def->key_size);
	next = calloc(1, def->key_size);
	val = calloc(1, vsz);
	if (!key || !next || !val) {
		e = -ENOMEM;
		goto out;
	}
	for (;;) {
		if (bpf_map_get_next_key(map_fd, first ? NULL : key, next)) {
			e = errno == ENOENT ? 0 : -errno;
			break;
		}
		first = 0;
		memcpy(key, next, def->key_size);
		if (bpf_map_lookup_elem(map_fd, key, val))
			continue; /* deleted meanwhile, or an empty slot of a map of maps */
		e = fn(key, val, ctx);
		if (e)
			break;
	}
out:
	free(key);
	free(next);
	free(val);
	return e;
}

int bg_kern_map_lookup(int map_fd, const void *key, void *value)
{
	return bpf_map_lookup_elem(map_fd, key, value) ? -errno : 0;
}

int bg_kern_map_update(int map_fd, const void *key, const void *value)
{
	return bpf_map_update_elem(map_fd, key, value, BPF_ANY) ? -errno : 0;
}
