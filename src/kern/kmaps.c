/* Creating the maps a program references, for one kernel load.
 *
 * Only maps the program's instructions reference (ld_imm64 with
 * BG_PSEUDO_MAP_IDX[_VALUE]) are created, plus the inner-map templates of
 * map-in-map outers, so a map type the kernel lacks only affects programs
 * that use it. Global data maps get their initial bytes written and .rodata
 * is frozen, as libbpf does, so the verifier can treat it as constant. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpfgate/object.h>
#include "core/log.h"
#include "kern/kern_int.h"

#define MAX_INNER_DEPTH 4

/* Mark in need[] every map index the program's ld_imm64 instructions use. */
static int mark_referenced(const struct bg_program *prog, size_t map_cnt, char *need)
{
	size_t n = 0;
	const struct bg_raw_insn *in = bg_program__raw(prog, &n);

	for (size_t i = 0; in && i < n; i++) {
		if (in[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (in[i].src_reg == BG_PSEUDO_MAP_IDX ||
		    in[i].src_reg == BG_PSEUDO_MAP_IDX_VALUE) {
			if (in[i].imm < 0 || (size_t)in[i].imm >= map_cnt)
				return -EINVAL;
			need[in[i].imm] = 1;
		}
		i++; /* second slot */
	}
	return 0;
}

static int create_one(const struct bg_object *obj, size_t idx, int btf_fd, struct bg_kmaps *m,
		      int depth, char *err, size_t errsz);

/* max_entries as a loader sets it for one load:
 *  - a perf event array of size 0 gets one slot per possible CPU (libbpf);
 *  - a ring buffer's size is rounded up to a power-of-two multiple of the page
 *    size, the only sizes the kernel takes (libbpf does the same rounding);
 *  - any other map of size 0 is sized by userspace at run time: it gets a small
 *    size (1; a ring buffer one page), as corpus/kjudge.c does;
 *  - local storage and struct_ops maps keep 0, the only size they take. */
static uint32_t loader_max_entries(const struct bg_map_def *d)
{
	uint32_t n = d->max_entries;
	long page = sysconf(_SC_PAGESIZE);

	switch (d->type) {
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case 32: /* BPF_MAP_TYPE_CGRP_STORAGE (6.2) */
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
	case BPF_MAP_TYPE_STRUCT_OPS:
		return n;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY: {
		int cpus = libbpf_num_possible_cpus();
		return n ? n : (uint32_t)(cpus > 0 ? cpus : 1);
	}
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF: {
		uint64_t sz = page > 0 ? (uint64_t)page : 4096;
		while (sz < n)
			sz <<= 1;
		return sz > UINT32_MAX ? n : (uint32_t)sz;
	}
	default:
		return n ? n : 1;
	}
}

static int map_create_call(const struct bg_map_def *d, int btf_fd, int inner_fd)
{
	LIBBPF_OPTS(bpf_map_create_opts, o);
	char name[BPF_OBJ_NAME_LEN];
	uint32_t flags = d->map_flags;
	int fd;

	if (d->readonly && d->is_global_data)
		flags |= BPF_F_RDONLY_PROG;
	bg_kern_objname(name, sizeof(name), d->name);
	o.map_flags = flags;
	o.inner_map_fd = inner_fd >= 0 ? (uint32_t)inner_fd : 0;
	if (btf_fd >= 0 && d->btf_value_type_id) {
		o.btf_fd = btf_fd;
		o.btf_key_type_id = d->btf_key_type_id;
		o.btf_value_type_id = d->btf_value_type_id;
	}
	fd = bpf_map_create(d->type, name, d->key_size, d->value_size, loader_max_entries(d), &o);
	if (fd < 0 && o.btf_fd) {
		/* as libbpf: retry without BTF type info */
		o.btf_fd = o.btf_key_type_id = o.btf_value_type_id = 0;
		fd = bpf_map_create(d->type, name, d->key_size, d->value_size, loader_max_entries(d), &o);
	}
	return fd < 0 ? -errno : fd;
}

/* Global data: write the initial bytes, freeze read-only sections. */
static int init_global(const struct bg_map_def *d, int fd)
{
	uint32_t zero = 0;

	if (d->init_data && bpf_map_update_elem(fd, &zero, d->init_data, BPF_ANY))
		return -errno;
	if (d->readonly && bpf_map_freeze(fd))
		return -errno;
	return 0;
}

static int create_one(const struct bg_object *obj, size_t idx, int btf_fd, struct bg_kmaps *m,
		      int depth, char *err, size_t errsz)
{
	const struct bg_map_def *d = bg_object__map(obj, idx);
	int inner_fd = -1, fd, e;

	if (m->fds[idx] >= 0)
		return 0;
	if (!d) {
		snprintf(err, errsz, "map #%zu: no definition", idx);
		return -EINVAL;
	}
	if (d->inner_map >= 0) {
		if (depth >= MAX_INNER_DEPTH || (size_t)d->inner_map >= m->cnt ||
		    (size_t)d->inner_map == idx) {
			snprintf(err, errsz, "map '%s': bad inner map reference %d", d->name,
				 d->inner_map);
			return -EINVAL;
		}
		e = create_one(obj, (size_t)d->inner_map, btf_fd, m, depth + 1, err, errsz);
		if (e)
			return e;
		inner_fd = m->fds[d->inner_map];
	}
	fd = map_create_call(d, btf_fd, inner_fd);
	if (fd < 0) {
		snprintf(err, errsz,
			 "map '%s' (type %u, key %u, value %u, max_entries %u): create failed: %s",
			 d->name, d->type, d->key_size, d->value_size, loader_max_entries(d),
			 strerror(-fd));
		return fd;
	}
	m->fds[idx] = fd;
	if (d->is_global_data && (e = init_global(d, fd))) {
		snprintf(err, errsz, "map '%s': initialising global data failed: %s", d->name,
			 strerror(-e));
		return e;
	}
	return 0;
}

int bg_kmaps_create(const struct bg_program *prog, int btf_fd, struct bg_kmaps *m, char *err,
		    size_t errsz)
{
	const struct bg_object *obj = bg_program__object(prog);
	size_t cnt = obj ? bg_object__map_cnt(obj) : 0;
	char *need;
	int e = 0;

	m->fds = NULL;
	m->cnt = cnt;
	m->btf_fd = btf_fd;
	if (!cnt)
		return 0;
	m->fds = malloc(cnt * sizeof(*m->fds));
	need = calloc(cnt, 1);
	if (!m->fds || !need) {
		free(need);
		snprintf(err, errsz, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < cnt; i++)
		m->fds[i] = -1;
	if (mark_referenced(prog, cnt, need)) {
		snprintf(err, errsz, "program references a map index out of range");
		e = -EINVAL;
	}
	for (size_t i = 0; !e && i < cnt; i++)
		if (need[i])
			e = create_one(obj, i, btf_fd, m, 0, err, errsz);
	free(need);
	return e;
}

void bg_kmaps_close(struct bg_kmaps *m)
{
	for (size_t i = 0; m->fds && i < m->cnt; i++)
		if (m->fds[i] >= 0)
			close(m->fds[i]);
	free(m->fds);
	m->fds = NULL;
	m->cnt = 0;
}
