/* Userspace maps for the interpreter: arrays (also percpu with one CPU,
 * prog arrays and map-in-map arrays holding indexes), hashes (percpu, LRU,
 * hash-of-maps), queue/stack, and the output-only ringbuf and
 * perf_event_array (records are captured by helpers.c). Global data sections
 * are one-element arrays with their initial bytes.
 *
 * A value handed to a program gets a region for the run: arrays register the
 * element lazily at lookup, global data once (fixed), hash elements at
 * lookup; deleted elements are kept until the run ends (the kernel's RCU).
 * A bloom filter is an exact set of the pushed values (no false positives,
 * which the kernel's random hash seed makes unpredictable anyway).
 * Types without a userspace model (LPM trie, sockmap, ...) behave as hashes
 * with exact-match keys. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "vm/vm_int.h"


bool vm_map_is_array(const struct vm_map *m)
{
	switch (m->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return true;
	default:
		return false;
	}
}

static bool has_refs(const struct vm_map *m)
{
	return m->type == BPF_MAP_TYPE_PROG_ARRAY || m->type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
	       m->type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

static bool no_storage(const struct vm_map *m)
{
	return m->type == BPF_MAP_TYPE_RINGBUF || m->type == BPF_MAP_TYPE_USER_RINGBUF;
}

static int map_init(struct bg_vm *vm, struct vm_map *m, const struct bg_map_def *d)
{
	size_t bytes;

	snprintf(m->name, sizeof(m->name), "%s", d->name ? d->name : "?");
	m->type = d->type;
	m->key_size = d->key_size;
	m->value_size = d->value_size;
	m->max_entries = d->max_entries;
	m->flags = d->map_flags;
	m->readonly = d->readonly;
	m->inner = d->inner_map;
	m->region = -1;
	m->vsz = (d->value_size + 7) & ~7u;
	if (m->type == BPF_MAP_TYPE_BLOOM_FILTER) {
		/* an exact set of the pushed values (a bloom filter without false
		 * positives): kept as a hash whose key is the value */
		m->key_size = d->value_size;
		m->value_size = 0;
		m->vsz = 0;
	}
	if (no_storage(m))
		return 0;
	if (m->max_entries > (1u << 24) || m->value_size > (1u << 24) || m->key_size > 512)
		return -E2BIG;
	if (vm_map_is_array(m)) {
		bytes = (size_t)m->max_entries * m->vsz;
		if (bytes > (256u << 20))
			return -E2BIG;
		m->array = calloc(1, bytes ? bytes : 8);
		m->elem_gen = calloc(m->max_entries ? m->max_entries : 1, sizeof(uint32_t));
		m->elem_region = calloc(m->max_entries ? m->max_entries : 1, sizeof(uint32_t));
		if (!m->array || !m->elem_gen || !m->elem_region)
			return -ENOMEM;
		if (d->init_data && m->max_entries)
			memcpy(m->array, d->init_data, m->value_size);
		if (has_refs(m)) {
			m->array_set = calloc(m->max_entries ? m->max_entries : 1, 1);
			if (!m->array_set)
				return -ENOMEM;
		}
		/* direct value access (ld_imm64 map value) needs no lookup: a
		 * single-entry array's value is a region from the start */
		if (d->is_global_data || (m->max_entries == 1 && !has_refs(m))) {
			m->region = vm_add_region(vm, (uint64_t)m->array,
						  (uint64_t)m->array + m->value_size, VM_R_MAP,
						  !m->readonly, (int)(m - vm->maps));
			if (m->region < 0)
				return -ENOMEM;
		}
		return 0;
	}
	m->nbuckets = 64;
	while (m->nbuckets < m->max_entries && m->nbuckets < (1u << 16))
		m->nbuckets <<= 1;
	m->buckets = calloc(m->nbuckets, sizeof(*m->buckets));
	return m->buckets ? 0 : -ENOMEM;
}

int vm_maps_create(struct bg_vm *vm)
{
	size_t i, n = vm->obj ? bg_object__map_cnt(vm->obj) : 0;
	int err;

	if (!n)
		return 0;
	vm->maps = calloc(n, sizeof(*vm->maps));
	vm->mapobj = calloc(n, VM_MAPOBJ_SIZE);
	if (!vm->maps || !vm->mapobj)
		return -ENOMEM;
	vm->nmaps = n;
	if (vm_add_region(vm, (uint64_t)vm->mapobj, (uint64_t)vm->mapobj + n * VM_MAPOBJ_SIZE,
			  VM_R_SCRATCH, false, -1) < 0)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		err = map_init(vm, &vm->maps[i], bg_object__map(vm->obj, i));
		if (err)
			return err;
	}
	return 0;
}

static void hash_clear(struct vm_map *m)
{
	uint32_t b;

	for (b = 0; m->buckets && b < m->nbuckets; b++) {
		struct vm_hent *e = m->buckets[b], *nx;

		for (; e; e = nx) {
			nx = e->next;
			free(e->value);
			free(e);
		}
		m->buckets[b] = NULL;
	}
	m->count = 0;
}

void vm_maps_free(struct bg_vm *vm)
{
	size_t i;

	for (i = 0; i < vm->nmaps; i++) {
		struct vm_map *m = &vm->maps[i];

		hash_clear(m);
		free(m->buckets);
		free(m->array);
		free(m->array_set);
		free(m->elem_gen);
		free(m->elem_region);
	}
	free(vm->maps);
	free(vm->mapobj);
	vm->mapobj = NULL;
	vm->maps = NULL;
	vm->nmaps = 0;
}

struct vm_map *vm_map_from_ptr(struct bg_vm *vm, uint64_t p)
{
	uint64_t base = (uint64_t)vm->mapobj;

	if (!vm->nmaps || !base || p < base || p >= base + vm->nmaps * VM_MAPOBJ_SIZE ||
	    (p - base) % VM_MAPOBJ_SIZE)
		return NULL;
	return &vm->maps[(p - base) / VM_MAPOBJ_SIZE];
}

int vm_map_index(struct bg_vm *vm, const struct vm_map *m)
{
	return (int)(m - vm->maps);
}

/* Bucket of a key: FNV-1a over 4-byte words (then the tail bytes), folded. */
static uint32_t hash_key(const struct vm_map *m, const uint8_t *k)
{
	uint32_t h = 2166136261u, i = 0, w;

	for (; i + 4 <= m->key_size; i += 4) {
		memcpy(&w, k + i, 4);
		h = (h ^ w) * 16777619u;
	}
	for (; i < m->key_size; i++)
		h = (h ^ k[i]) * 16777619u;
	h ^= h >> 15;
	return h & (m->nbuckets - 1);
}

static struct vm_hent **hash_find(struct vm_map *m, const void *key)
{
	struct vm_hent **pp = &m->buckets[hash_key(m, key)];

	for (; *pp; pp = &(*pp)->next)
		if (!memcmp((*pp)->key, key, m->key_size))
			return pp;
	return NULL;
}

static uint32_t array_index(const struct vm_map *m, const void *key)
{
	uint32_t idx;

	(void)m;
	memcpy(&idx, key, sizeof(idx));
	return idx;
}

uint8_t *vm_map_lookup(struct bg_vm *vm, struct vm_map *m, const void *key)
{
	uint8_t *v;

	if (m->array) { /* array types (map_init allocates every one; array_set: has refs) */
		uint32_t idx = array_index(m, key);

		if (idx >= m->max_entries)
			return NULL;
		if (m->array_set && !m->array_set[idx])
			return NULL;
		v = m->array + (size_t)idx * m->vsz;
		if (m->region >= 0) {
			vm->last_region = (size_t)m->region;
		} else if (m->elem_gen[idx] != vm->gen) {
			int ri = vm_add_region(vm, (uint64_t)v, (uint64_t)v + m->value_size, VM_R_MAP,
					       !m->readonly, vm_map_index(vm, m));

			if (ri >= 0) {
				m->elem_gen[idx] = vm->gen;
				m->elem_region[idx] = (uint32_t)ri;
				vm->last_region = (size_t)ri;
			}
		} else {
			vm->last_region = m->elem_region[idx];
		}
		return v;
	}
	if (!m->buckets)
		return NULL;
	{
		struct vm_hent **pp = hash_find(m, key);

		if (!pp)
			return NULL;
		(*pp)->lru = ++m->lru_clock;
		if ((*pp)->gen != vm->gen) {
			int ri = vm_add_region(vm, (uint64_t)(*pp)->value,
					       (uint64_t)(*pp)->value + m->value_size, VM_R_MAP, true,
					       vm_map_index(vm, m));

			if (ri >= 0) {
				(*pp)->gen = vm->gen;
				(*pp)->region = (uint32_t)ri;
			}
		}
		if ((*pp)->gen == vm->gen)
			vm->last_region = (*pp)->region;
		return (*pp)->value;
	}
}

static void lru_evict(struct bg_vm *vm, struct vm_map *m)
{
	struct vm_hent **best = NULL, **pp, *e;
	uint32_t b;

	for (b = 0; b < m->nbuckets; b++)
		for (pp = &m->buckets[b]; *pp; pp = &(*pp)->next)
			if (!best || (*pp)->lru < (*best)->lru)
				best = pp;
	if (!best)
		return;
	e = *best;
	*best = e->next;
	vm_graveyard(vm, e->value);
	vm_graveyard(vm, e);
	m->count--;
}

static bool is_lru(const struct vm_map *m)
{
	return m->type == BPF_MAP_TYPE_LRU_HASH || m->type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

int vm_map_update(struct bg_vm *vm, struct vm_map *m, const void *key, const void *val,
		  uint64_t flags)
{
	struct vm_hent **pp, *e;

	if ((flags & 3) == 3)
		return -EINVAL;
	if (vm_map_is_array(m)) {
		uint32_t idx = array_index(m, key);

		if (!m->array)
			return -EINVAL;
		if (idx >= m->max_entries)
			return -E2BIG;
		if (flags == BPF_NOEXIST && !has_refs(m))
			return -EEXIST;
		memcpy(m->array + (size_t)idx * m->vsz, val, m->value_size);
		if (has_refs(m))
			m->array_set[idx] = 1;
		return 0;
	}
	if (!m->buckets)
		return -EINVAL;
	pp = hash_find(m, key);
	if (pp) {
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		memcpy((*pp)->value, val, m->value_size);
		(*pp)->lru = ++m->lru_clock;
		return 0;
	}
	if (flags == BPF_EXIST)
		return -ENOENT;
	if (m->count >= m->max_entries && m->type != BPF_MAP_TYPE_BLOOM_FILTER) {
		if (!is_lru(m))
			return -E2BIG;
		lru_evict(vm, m);
	}
	e = calloc(1, sizeof(*e) + m->key_size);
	if (!e)
		return -ENOMEM;
	e->value = calloc(1, m->vsz ? m->vsz : 8);
	if (!e->value) {
		free(e);
		return -ENOMEM;
	}
	memcpy(e->key, key, m->key_size);
	memcpy(e->value, val, m->value_size);
	e->lru = ++m->lru_clock;
	pp = &m->buckets[hash_key(m, key)];
	e->next = *pp;
	*pp = e;
	m->count++;
	return 0;
}

int vm_bloom_push(struct vm_map *m, const void *val, uint64_t flags)
{
	static const uint8_t none[8];

	if (flags != BPF_ANY)
		return -EINVAL;
	if (hash_find(m, val))
		return 0;
	return vm_map_update(NULL, m, val, none, BPF_ANY);
}

int vm_bloom_peek(struct vm_map *m, const void *val)
{
	return m->buckets && hash_find(m, val) ? 0 : -ENOENT;
}

int vm_map_delete(struct bg_vm *vm, struct vm_map *m, const void *key)
{
	struct vm_hent **pp, *e;

	if (vm_map_is_array(m)) {
		uint32_t idx = array_index(m, key);

		if (!has_refs(m) || idx >= m->max_entries)
			return idx >= m->max_entries ? -E2BIG : -EINVAL;
		if (!m->array_set[idx])
			return -ENOENT;
		m->array_set[idx] = 0;
		return 0;
	}
	if (!m->buckets)
		return -EINVAL;
	pp = hash_find(m, key);
	if (!pp)
		return -ENOENT;
	e = *pp;
	*pp = e->next;
	m->count--;
	vm_graveyard(vm, e->value);
	vm_graveyard(vm, e);
	return 0;
}

int vm_map_next_key(struct bg_vm *vm, struct vm_map *m, const void *key, void *next)
{
	uint32_t b = 0;
	struct vm_hent *e;

	(void)vm;
	if (vm_map_is_array(m)) {
		uint32_t idx = key ? array_index(m, key) : UINT32_MAX;
		uint32_t nx = (!key || idx >= m->max_entries) ? 0 : idx + 1;

		if (nx >= m->max_entries)
			return -ENOENT;
		memcpy(next, &nx, sizeof(nx));
		return 0;
	}
	if (!m->buckets)
		return -EINVAL;
	if (key) {
		struct vm_hent **pp = hash_find(m, key);

		if (pp) {
			if ((*pp)->next) {
				memcpy(next, (*pp)->next->key, m->key_size);
				return 0;
			}
			b = hash_key(m, key) + 1;
		}
	}
	for (; b < m->nbuckets; b++) {
		e = m->buckets[b];
		if (e) {
			memcpy(next, e->key, m->key_size);
			return 0;
		}
	}
	return -ENOENT;
}

/* ---------- public map API ---------- */

static struct vm_map *get_map(const struct bg_vm *vm, size_t i)
{
	return vm && i < vm->nmaps ? &vm->maps[i] : NULL;
}

size_t bg_vm__map_cnt(const struct bg_vm *vm)
{
	return vm ? vm->nmaps : 0;
}

int bg_vm__map_find(const struct bg_vm *vm, const char *name)
{
	size_t i;

	for (i = 0; vm && name && i < vm->nmaps; i++)
		if (!strcmp(vm->maps[i].name, name))
			return (int)i;
	return -ENOENT;
}

const char *bg_vm__map_name(const struct bg_vm *vm, size_t i)
{
	struct vm_map *m = get_map(vm, i);

	return m ? m->name : NULL;
}

int bg_vm__map_update(struct bg_vm *vm, size_t i, const void *key, const void *value,
		      uint64_t flags)
{
	struct vm_map *m = get_map(vm, i);

	if (!m || !key || !value || no_storage(m))
		return -EINVAL;
	return vm_map_update(vm, m, key, value, flags);
}

int bg_vm__map_lookup(struct bg_vm *vm, size_t i, const void *key, void *value)
{
	struct vm_map *m = get_map(vm, i);
	uint8_t *v;
	uint32_t save_gen;

	if (!m || !key || !value || no_storage(m))
		return -EINVAL;
	save_gen = vm->gen;
	vm->gen = 0; /* do not register regions outside a run */
	v = vm_map_lookup(vm, m, key);
	vm->gen = save_gen;
	vm->nregions = vm->nregions > vm->nfixed ? vm->nfixed : vm->nregions;
	if (!v)
		return -ENOENT;
	memcpy(value, v, m->value_size);
	return 0;
}

int bg_vm__map_delete(struct bg_vm *vm, size_t i, const void *key)
{
	struct vm_map *m = get_map(vm, i);
	int err;

	if (!m || !key)
		return -EINVAL;
	err = vm_map_delete(vm, m, key);
	for (i = 0; i < vm->ngrave; i++)
		free(vm->graveyard[i]);
	vm->ngrave = 0;
	return err;
}

int bg_vm__map_next_key(struct bg_vm *vm, size_t i, const void *key, void *next)
{
	struct vm_map *m = get_map(vm, i);

	if (!m || !next || no_storage(m))
		return -EINVAL;
	return vm_map_next_key(vm, m, key, next);
}

int bg_vm__map_load(struct bg_vm *vm, size_t i, const void *data, size_t len)
{
	struct vm_map *m = get_map(vm, i);
	size_t rec, off;
	int err;

	if (!m || no_storage(m))
		return -EINVAL;
	rec = (size_t)m->key_size + m->value_size;
	if (!rec || len % rec)
		return -EINVAL;
	for (off = 0; off < len; off += rec) {
		const uint8_t *p = (const uint8_t *)data + off;

		err = vm_map_update(vm, m, p, p + m->key_size, BPF_ANY);
		if (err)
			return err;
	}
	return 0;
}

int bg_vm__prog_array_set(struct bg_vm *vm, size_t i, uint32_t key, const char *prog_name)
{
	struct vm_map *m = get_map(vm, i);
	size_t p, n;

	if (!m || m->type != BPF_MAP_TYPE_PROG_ARRAY || !prog_name || !vm->obj)
		return -EINVAL;
	n = bg_object__prog_cnt(vm->obj);
	for (p = 0; p < n; p++)
		if (!strcmp(bg_program__name(bg_object__prog(vm->obj, p)), prog_name)) {
			uint32_t v = (uint32_t)p;

			return vm_map_update(vm, m, &key, &v, BPF_ANY);
		}
	return -ENOENT;
}
