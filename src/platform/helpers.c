/* Helper and kfunc prototype tables (helpers.def, kfuncs.def) and their
 * lookups. Invariants: bg_helper_table is sorted by id, ids are unique
 * (tests/unit/test_platform.c checks both against the uapi header); every
 * lookup is O(1) by id or O(log n) by name after a one-time sort. */
#include "platform/helpers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "platform/kconfig.h"
#include "platform/profiles.h"
#include "platform/sections.h"

#define HELPER_ROW(id_, name_, ret_, rbtf_, a1, a2, a3, a4, a5, b1, b2, b3, b4, b5, s1, s2, s3, s4,  \
		  s5, nargs_, size_arg_, rmin_, rmax_, rel_, flags_, groups_, types_, since_)      \
	{ .id = (id_), .name = "bpf_" #name_, .ret = (ret_), .args = { a1, a2, a3, a4, a5 },       \
	  .arg_btf = { b1, b2, b3, b4, b5 }, .ret_btf = (rbtf_), .ret_min = (rmin_),              \
	  .ret_max = (rmax_), .release_arg = (rel_), .flags = (flags_), .groups = (groups_),      \
	  .since = (since_), .prog_types = (types_), .arg_size = { s1, s2, s3, s4, s5 },          \
	  .nargs = (nargs_), .size_arg = (size_arg_) },
#define BG_HELPER HELPER_ROW
#define BG_HELPER_VARIANT(...)
static const struct bg_helper_proto helper_table[] = {
#include "platform/helpers.def"
};
#undef BG_HELPER
#undef BG_HELPER_VARIANT
#define BG_HELPER(...)
#define BG_HELPER_VARIANT HELPER_ROW
static const struct bg_helper_proto variant_table[] = {
#include "platform/helpers.def"
};
#undef BG_HELPER
#undef BG_HELPER_VARIANT
#undef HELPER_ROW

#define BG_KFUNC(name_, ret_, rbtf_, a1, a2, a3, nargs_, rel_, flags_, since_)                   \
	{ .id = 0, .name = #name_, .ret = (ret_), .args = { a1, a2, a3 }, .ret_btf = (rbtf_),     \
	  .ret_min = 1, .ret_max = 0, .release_arg = (rel_), .flags = (flags_) | BG_HF_KFUNC,     \
	  .groups = BG_PG_ALL, .since = (since_), .prog_types = ~0ull, .nargs = (nargs_) },
static const struct bg_helper_proto kfunc_table[] = {
#include "platform/kfuncs.def"
};
#undef BG_KFUNC

/* Every kfunc of vmlinux with the program types that may call it (measured,
 * kfunc_types.def, sorted by name). */
static const struct kfunc_types {
	const char *name;
	uint64_t allowed, measured;
	bool sleepable, devbound;
} kfunc_types[] = {
#define BG_KFUNC_TYPES(name_, allowed_, measured_, sleepable_, devbound_)                          \
	{ .name = name_, .allowed = (allowed_), .measured = (measured_), .sleepable = (sleepable_), \
	  .devbound = (devbound_) },
#include "platform/kfunc_types.def"
#undef BG_KFUNC_TYPES
};

#define NHELPERS (sizeof(helper_table) / sizeof(helper_table[0]))
#define NKFUNCS (sizeof(kfunc_table) / sizeof(kfunc_table[0]))
#define MAX_ID 255

static const struct bg_helper_proto *by_id[MAX_ID + 1];
static const struct bg_helper_proto *by_name[NHELPERS];
static const struct bg_helper_proto *kf_by_name[NKFUNCS];
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static int cmp_name(const void *a, const void *b)
{
	const struct bg_helper_proto *const *x = a, *const *y = b;
	return strcmp((*x)->name, (*y)->name);
}

static void build_index(void)
{
	for (unsigned i = 0; i < NHELPERS; i++) {
		if (helper_table[i].id <= MAX_ID)
			by_id[helper_table[i].id] = &helper_table[i];
		by_name[i] = &helper_table[i];
	}
	for (unsigned i = 0; i < NKFUNCS; i++)
		kf_by_name[i] = &kfunc_table[i];
	qsort(by_name, NHELPERS, sizeof(by_name[0]), cmp_name);
	qsort(kf_by_name, NKFUNCS, sizeof(kf_by_name[0]), cmp_name);
}

const struct bg_helper_proto *bg_helper_by_id(uint32_t id)
{
	pthread_once(&index_once, build_index);
	return id <= MAX_ID ? by_id[id] : NULL;
}

static const struct bg_helper_proto *find_name(const struct bg_helper_proto **v, size_t n,
					       const char *name)
{
	struct bg_helper_proto key = { .name = name };
	const struct bg_helper_proto *kp = &key, **r;

	pthread_once(&index_once, build_index);
	r = bsearch(&kp, v, n, sizeof(v[0]), cmp_name);
	return r ? *r : NULL;
}

/* Accepts "bpf_map_lookup_elem" and "map_lookup_elem". */
const struct bg_helper_proto *bg_helper_by_name(const char *name)
{
	char buf[96];

	if (!name)
		return NULL;
	if (strncmp(name, "bpf_", 4) != 0) {
		if (snprintf(buf, sizeof(buf), "bpf_%s", name) >= (int)sizeof(buf))
			return NULL;
		name = buf;
	}
	return find_name(by_name, NHELPERS, name);
}

const struct bg_helper_proto *bg_kfunc_by_name(const char *name)
{
	return name ? find_name(kf_by_name, NKFUNCS, name) : NULL;
}

static const struct kparam {
	const char *name;
	enum bg_kparam kind;
	bool is_struct;
	const char *word;
} kparams[] = {
#define BG_KPARAM(sfx_, kind_) { .name = sfx_, .kind = (kind_), .is_struct = false, .word = NULL },
#define BG_KPARAM_STRUCT(sn_, kind_, word_) { .name = sn_, .kind = (kind_), .is_struct = true, .word = word_ },
#include "platform/kfunc_params.def"
#undef BG_KPARAM
#undef BG_KPARAM_STRUCT
};

enum bg_kparam bg_kfunc_param_kind(const char *name, const char *sname, const char **word)
{
	size_t ln = name ? strlen(name) : 0;
	for (size_t i = 0; i < sizeof(kparams) / sizeof(kparams[0]); i++) {
		const struct kparam *k = &kparams[i];
		size_t ls = strlen(k->name);
		if (k->is_struct ? (sname && !strcmp(sname, k->name))
				 : (ln > ls && !strcmp(name + ln - ls, k->name))) {
			if (word)
				*word = k->word;
			return k->kind;
		}
	}
	return BG_KP_NONE;
}

static int cmp_kfunc_types(const void *key, const void *e)
{
	return strcmp(key, ((const struct kfunc_types *)e)->name);
}

static const struct kfunc_types *kfunc_types_of(const char *name)
{
	return name ? bsearch(name, kfunc_types, sizeof(kfunc_types) / sizeof(kfunc_types[0]),
			      sizeof(kfunc_types[0]), cmp_kfunc_types)
		    : NULL;
}

bool bg_kfunc_iter_num(const struct bg_helper_proto *p)
{
	return p && (p->flags & BG_HF_KFUNC) && !strncmp(p->name, "bpf_iter_num_", 13);
}

bool bg_kfunc_trap(const struct bg_helper_proto *p)
{
	return p && (p->flags & BG_HF_KFUNC) && !strcmp(p->name, "__bpf_trap");
}

bool bg_kfunc_devbound(const char *name)
{
	const struct kfunc_types *k = kfunc_types_of(name);
	return k && k->devbound;
}

int bg_kfunc_type_allowed(const char *name, uint32_t prog_type, bool *sleepable)
{
	const struct kfunc_types *k = kfunc_types_of(name);
	if (sleepable)
		*sleepable = k && k->sleepable;
	if (!k || prog_type >= 64 || !(k->measured & (1ull << prog_type)))
		return -1;
	return (k->allowed >> prog_type) & 1;
}

/* The program types an older release registers each kfunc for, from its
 * source (kfunc_kver.def, generated by scripts/gen_kfunc_flags.py: the
 * BTF_ID_FLAGS sets, register_btf_kfunc_id_set and btf.c's kfunc hooks). */
static const struct kfunc_kver {
	const char *name;
	uint64_t allowed;
	uint32_t release;
} kfunc_kver[] = {
#define BG_KFUNC_KVER(name_, allowed_, release_) { .name = name_, .allowed = (allowed_), .release = (release_) },
#include "platform/kfunc_kver.def"
#undef BG_KFUNC_KVER
};

static int cmp_kfunc_kver(const void *key, const void *e)
{
	return strcmp(key, ((const struct kfunc_kver *)e)->name);
}

int bg_kfunc_type_allowed_kver(const char *name, uint32_t prog_type, uint32_t kver)
{
	const struct kfunc_kver *k =
		name ? bsearch(name, kfunc_kver, sizeof(kfunc_kver) / sizeof(kfunc_kver[0]), sizeof(kfunc_kver[0]),
			       cmp_kfunc_kver)
		     : NULL;
	if (!k || !kver || kver > k->release || prog_type >= 64)
		return -1;
	return (k->allowed >> prog_type) & 1;
}

/* The filters of kfunc sets, by attach type: the session kfuncs only in
 * kprobe.session programs (kernel/trace/bpf_trace.c bpf_kprobe_multi_filter;
 * and uprobe.session ones since 6.16, the kernel that added them),
 * bpf_sock_destroy only in iterators (net/core/filter.c tracing_iter_filter).
 * The per-type table above is measured with the default attach type, so it
 * cannot see these. */
static const struct {
	const char *name;
	uint32_t prog_type;
	uint64_t attach; /* bit n: enum bpf_attach_type n */
} kfunc_attach[] = {
	{"bpf_session_cookie", BG_PROG_KPROBE,
	 1ull << BG_ATTACH_TRACE_KPROBE_SESSION | 1ull << BG_ATTACH_TRACE_UPROBE_SESSION},
	{"bpf_session_is_return", BG_PROG_KPROBE,
	 1ull << BG_ATTACH_TRACE_KPROBE_SESSION | 1ull << BG_ATTACH_TRACE_UPROBE_SESSION},
	{"bpf_sock_destroy", BG_PROG_TRACING, 1ull << BG_ATTACH_TRACE_ITER},
};

int bg_kfunc_attach_allowed(const char *name, uint32_t prog_type, uint32_t attach_type)
{
	for (size_t i = 0; name && i < sizeof(kfunc_attach) / sizeof(kfunc_attach[0]); i++)
		if (!strcmp(kfunc_attach[i].name, name) && kfunc_attach[i].prog_type == prog_type)
			return attach_type < 64 && (kfunc_attach[i].attach >> attach_type & 1);
	return -1;
}

const struct bg_helper_proto *bg_helpers(unsigned *n)
{
	if (n)
		*n = NHELPERS;
	return helper_table;
}

const struct bg_helper_proto *bg_kfuncs(unsigned *n)
{
	if (n)
		*n = NKFUNCS;
	return kfunc_table;
}

uint32_t bg_helper_max_id(void)
{
	return helper_table[NHELPERS - 1].id;
}

static __thread char why_buf[160];

/* The kernel checks, in this order: id in range ("invalid func"), the
 * program type's proto ("program of this type cannot use helper"). A helper
 * newer than the profile's kernel is unknown there. */
bool bg_helper_allowed(uint32_t id, uint32_t prog_type, uint32_t kver, const char **why)
{
	const struct bg_helper_proto *h = bg_helper_by_id(id);
	const struct bg_kernel_profile *p = kver ? bg_profile_by_version(kver) : bg_profile_default();
	uint32_t v = kver ? kver : p->version;
	const char *w = NULL, *opt = NULL;

	if (!h || id == 0) {
		snprintf(why_buf, sizeof(why_buf), "invalid func unknown#%u", id);
		w = why_buf;
	} else if (h->since > v) {
		snprintf(why_buf, sizeof(why_buf), "invalid func %s#%u (helper added in %u.%u)", h->name,
			 id, h->since >> 16, (h->since >> 8) & 0xff);
		w = why_buf;
	} else if (prog_type >= 64 || !(h->prog_types & (1ull << prog_type))) {
		snprintf(why_buf, sizeof(why_buf), "program of this type cannot use helper %s#%u",
			 h->name, id);
		w = why_buf;
	} else if (bg_helper_kconfig(id, prog_type, kver, &opt) == 0) {
		snprintf(why_buf, sizeof(why_buf), "CONFIG_%s is not set in the kernel's config (%s)", opt,
			 bg_kconfig_source(kver));
		w = why_buf;
	}
	if (why)
		*why = w;
	return w == NULL;
}

/* (helper, type, attach) where the type allows the helper under other attach
 * types but not this one (generated: helper_attach.def). */
static const struct {
	uint16_t helper;
	uint8_t type;
	uint8_t attach;
} attach_deny[] = {
#define BG_HELPER_ATTACH_DENY(h, t, a) { h, t, a },
#include "platform/helper_attach.def"
#undef BG_HELPER_ATTACH_DENY
	{ 0, 0, 0 }, /* end (helper 0 never matches) */
};

/* (kernel, type, attach) -> the helper ids it allows, measured in the real
 * kernel's image (generated: helper_kavail.def) */
static const struct {
	uint32_t kver;
	uint8_t type, attach;
	uint64_t ids[4];
} kavail[] = {
#define BG_HELPER_KAVAIL(kv, t, a, w0, w1, w2, w3) { kv, t, a, { w0, w1, w2, w3 } },
#include "platform/helper_kavail.def"
#undef BG_HELPER_KAVAIL
	{ 0, 0, 0, { 0, 0, 0, 0 } }, /* end (version 0 never matches) */
};

/* (type) -> the helper ids that refuse a packet pointer argument, measured
 * on the running kernel (generated: helper_pkt.def) */
static const struct {
	uint8_t type;
	uint64_t ids[4];
} pkt_deny[] = {
#define BG_HELPER_PKT_DENY(t, w0, w1, w2, w3) { t, { w0, w1, w2, w3 } },
#include "platform/helper_pkt.def"
#undef BG_HELPER_PKT_DENY
};

bool bg_helper_pkt_arg_refused(uint32_t id, uint32_t prog_type)
{
	if (id >= 256)
		return false;
	for (size_t i = 0; i < sizeof(pkt_deny) / sizeof(pkt_deny[0]); i++)
		if (pkt_deny[i].type == prog_type)
			return (pkt_deny[i].ids[id / 64] >> (id % 64)) & 1;
	return false;
}

int bg_helper_measured(uint32_t id, uint32_t prog_type, uint32_t attach_type, uint32_t kver)
{
	if (!kver || id >= 256)
		return -1;
	for (size_t i = 0; i < sizeof(kavail) / sizeof(kavail[0]); i++)
		if (kavail[i].kver == kver && kavail[i].type == prog_type && kavail[i].attach == attach_type)
			return (int)((kavail[i].ids[id / 64] >> (id % 64)) & 1);
	/* fentry/fexit/fmod_ret were not probed (a load needs a target): the
	 * tracing type's helpers are one switch (tracing_prog_func_proto), so
	 * theirs are tp_btf's, but for those only a trampoline program has
	 * (attach cookie, function arguments and result: by release) */
	if (prog_type == BPF_PROG_TYPE_TRACING &&
	    (attach_type == BPF_TRACE_FENTRY || attach_type == BPF_TRACE_FEXIT || attach_type == BPF_MODIFY_RETURN) &&
	    id != BPF_FUNC_get_attach_cookie && id != BPF_FUNC_get_func_arg && id != BPF_FUNC_get_func_ret &&
	    id != BPF_FUNC_get_func_arg_cnt)
		return bg_helper_measured(id, prog_type, BPF_TRACE_RAW_TP, kver);
	return -1;
}

bool bg_helper_allowed_attach(uint32_t id, uint32_t prog_type, uint32_t attach_type, uint32_t kver,
			      const char **why)
{
	int m = bg_helper_measured(id, prog_type, attach_type, kver);
	if (m >= 0) {
		const struct bg_helper_proto *h = bg_helper_by_id(id);
		if (!m && why) {
			snprintf(why_buf, sizeof(why_buf), "unknown func %s#%u (kernel %u.%u, measured)",
				 h ? h->name : "unknown", id, kver >> 16, (kver >> 8) & 0xff);
			*why = why_buf;
		} else if (why) {
			*why = NULL;
		}
		return m == 1;
	}
	if (!bg_helper_allowed(id, prog_type, kver, why))
		return false;
	for (size_t i = 0; i < sizeof(attach_deny) / sizeof(attach_deny[0]); i++)
		if (attach_deny[i].helper == id && attach_deny[i].type == prog_type &&
		    attach_deny[i].attach == attach_type) {
			if (why) {
				snprintf(why_buf, sizeof(why_buf),
					 "program of this type cannot use helper %s#%u (not with expected "
					 "attach type %u)", bg_helper_by_id(id)->name, id, attach_type);
				*why = why_buf;
			}
			return false;
		}
	return true;
}

/* A variant row applies where its prog_types bit is set (few rows: scan). */
const struct bg_helper_proto *bg_helper_proto_for(uint32_t id, uint32_t prog_type)
{
	for (size_t i = 0; i < sizeof(variant_table) / sizeof(variant_table[0]); i++)
		if (variant_table[i].id == id && prog_type < 64 &&
		    (variant_table[i].prog_types & (1ull << prog_type)))
			return &variant_table[i];
	return bg_helper_by_id(id);
}

const struct bg_helper_proto *bg_helper_iter_proto(uint32_t id, const char *target, uint32_t kver)
{
	static const struct {
		const char *target;
		uint32_t since;
	} sockopt_iters[] = { { "tcp", BG_KVER(5, 14) }, { "unix", BG_KVER(6, 4) } };
	if (!target || (id != BPF_FUNC_setsockopt && id != BPF_FUNC_getsockopt))
		return NULL;
	for (size_t i = 0; i < sizeof(sockopt_iters) / sizeof(sockopt_iters[0]); i++) {
		if (strcmp(target, sockopt_iters[i].target) || kver < sockopt_iters[i].since)
			continue;
		/* bpf_sk_{set,get}sockopt_proto: the variant on a socket */
		for (size_t k = 0; k < sizeof(variant_table) / sizeof(variant_table[0]); k++)
			if (variant_table[k].id == id && variant_table[k].args[0] == BG_ARG_BTF_ID_SOCK_COMMON)
				return &variant_table[k];
	}
	return NULL;
}

/* (map type, helper) pairs the kernel refuses (generated: map_helpers.def). */
static const struct {
	uint8_t map_type;
	uint16_t helper;
} map_deny[] = {
#define BG_MAP_HELPER_DENY(m, h) { m, h },
#include "platform/map_helpers.def"
#undef BG_MAP_HELPER_DENY
	{ 0, 0 }, /* end (helper 0 never matches) */
};

/* The pairs as a bitmap (a call checks its map argument against them: once
 * per helper call of the analysis, ~840 pairs); pairs beyond it are looked
 * up in the table. */
#define DENY_MAP_TYPES 64
static uint64_t deny_bits[DENY_MAP_TYPES][(MAX_ID + 1) / 64];
static pthread_once_t deny_once = PTHREAD_ONCE_INIT;

static void build_deny(void)
{
	for (size_t i = 0; i < sizeof(map_deny) / sizeof(map_deny[0]); i++)
		if (map_deny[i].map_type < DENY_MAP_TYPES && map_deny[i].helper <= MAX_ID)
			deny_bits[map_deny[i].map_type][map_deny[i].helper / 64] |= 1ull << (map_deny[i].helper % 64);
}

void bg_helpers_preload(void)
{
	pthread_once(&index_once, build_index);
	pthread_once(&deny_once, build_deny);
	(void)bg_profile_default();
}

static bool map_helper_denied(uint32_t map_type, uint32_t id)
{
	if (map_type < DENY_MAP_TYPES && id <= MAX_ID) {
		pthread_once(&deny_once, build_deny);
		return (deny_bits[map_type][id / 64] >> (id % 64)) & 1;
	}
	for (size_t i = 0; i < sizeof(map_deny) / sizeof(map_deny[0]); i++)
		if (map_deny[i].map_type == map_type && map_deny[i].helper == id)
			return true;
	return false;
}

bool bg_map_helper_ok(uint32_t map_type, uint32_t id, const char **why)
{
	if (map_helper_denied(map_type, id)) {
		if (why) {
			const struct bg_helper_proto *h = bg_helper_by_id(id);
			snprintf(why_buf, sizeof(why_buf), "cannot pass map_type %u into func %s#%u",
				 map_type, h ? h->name : "unknown", id);
			*why = why_buf;
		}
		return false;
	}
	if (why)
		*why = NULL;
	return true;
}

/* map type -> the struct its ops name as map_btf_id (kernel/bpf/arraymap.c
 * array_map_btf_ids, hashtab.c htab_map_btf_ids, net/core/sock_map.c, ...;
 * the same in 6.12 and 6.18). */
static const char *const map_struct[] = {
	[BPF_MAP_TYPE_HASH] = "bpf_htab",
	[BPF_MAP_TYPE_ARRAY] = "bpf_array",
	[BPF_MAP_TYPE_PROG_ARRAY] = "bpf_array",
	[BPF_MAP_TYPE_PERF_EVENT_ARRAY] = "bpf_array",
	[BPF_MAP_TYPE_PERCPU_HASH] = "bpf_htab",
	[BPF_MAP_TYPE_PERCPU_ARRAY] = "bpf_array",
	[BPF_MAP_TYPE_STACK_TRACE] = "bpf_stack_map",
	[BPF_MAP_TYPE_CGROUP_ARRAY] = "bpf_array",
	[BPF_MAP_TYPE_LRU_HASH] = "bpf_htab",
	[BPF_MAP_TYPE_LRU_PERCPU_HASH] = "bpf_htab",
	[BPF_MAP_TYPE_LPM_TRIE] = "lpm_trie",
	[BPF_MAP_TYPE_ARRAY_OF_MAPS] = "bpf_array",
	[BPF_MAP_TYPE_HASH_OF_MAPS] = "bpf_htab",
	[BPF_MAP_TYPE_DEVMAP] = "bpf_dtab",
	[BPF_MAP_TYPE_SOCKMAP] = "bpf_stab",
	[BPF_MAP_TYPE_CPUMAP] = "bpf_cpu_map",
	[BPF_MAP_TYPE_XSKMAP] = "xsk_map",
	[BPF_MAP_TYPE_SOCKHASH] = "bpf_shtab",
	[BPF_MAP_TYPE_CGROUP_STORAGE] = "bpf_cgroup_storage_map",
	[BPF_MAP_TYPE_REUSEPORT_SOCKARRAY] = "reuseport_array",
	[BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE] = "bpf_cgroup_storage_map",
	[BPF_MAP_TYPE_QUEUE] = "bpf_queue_stack",
	[BPF_MAP_TYPE_STACK] = "bpf_queue_stack",
	[BPF_MAP_TYPE_SK_STORAGE] = "bpf_local_storage_map",
	[BPF_MAP_TYPE_DEVMAP_HASH] = "bpf_dtab",
	[BPF_MAP_TYPE_STRUCT_OPS] = "bpf_struct_ops_map",
	[BPF_MAP_TYPE_RINGBUF] = "bpf_ringbuf_map",
	[BPF_MAP_TYPE_INODE_STORAGE] = "bpf_local_storage_map",
	[BPF_MAP_TYPE_TASK_STORAGE] = "bpf_local_storage_map",
	[BPF_MAP_TYPE_BLOOM_FILTER] = "bpf_bloom_filter",
	[BPF_MAP_TYPE_USER_RINGBUF] = "bpf_ringbuf_map",
	[32 /* BPF_MAP_TYPE_CGRP_STORAGE */] = "bpf_local_storage_map",
	[33 /* BPF_MAP_TYPE_ARENA */] = "bpf_arena",
};

bool bg_kptr_rcu_protected(const char *kernel_struct)
{
	static const char *const rcu_protected[] = { "task_struct", "cgroup", "bpf_cpumask", "bpf_crypto_ctx",
						     "prog_test_ref_kfunc" };
	for (size_t i = 0; kernel_struct && i < sizeof(rcu_protected) / sizeof(rcu_protected[0]); i++)
		if (!strcmp(kernel_struct, rcu_protected[i]))
			return true;
	return false;
}

bool bg_helper_ptr_cast(uint32_t id)
{
	switch (id) {
	case 95:  /* sk_fullsock */
	case 96:  /* tcp_sock */
	case 136: /* skc_to_tcp6_sock */
	case 137: /* skc_to_tcp_sock */
	case 138: /* skc_to_tcp_timewait_sock */
	case 139: /* skc_to_tcp_request_sock */
	case 140: /* skc_to_udp6_sock */
	case 196: /* skc_to_mptcp_sock */
		return true;
	default:
		return false;
	}
}

const char *bg_map_kernel_struct(uint32_t map_type)
{
	return map_type < sizeof(map_struct) / sizeof(map_struct[0]) ? map_struct[map_type] : NULL;
}

/* Where a program may change a sockmap/sockhash with the generic map
 * helpers: no locked socket can be reached there (kernel 6.12/6.18). */
static const struct {
	uint8_t type;    /* enum bpf_prog_type */
	uint8_t attach;  /* expected attach type, 0xff: any */
	bool delete_only;
} sockmap_update[] = {
	{ BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, false },
	{ BPF_PROG_TYPE_SOCK_OPS, 0xff, true },
	{ BPF_PROG_TYPE_SOCKET_FILTER, 0xff, false },
	{ BPF_PROG_TYPE_SCHED_CLS, 0xff, false },
	{ BPF_PROG_TYPE_SCHED_ACT, 0xff, false },
	{ BPF_PROG_TYPE_XDP, 0xff, false },
	{ BPF_PROG_TYPE_SK_REUSEPORT, 0xff, false },
	{ BPF_PROG_TYPE_FLOW_DISSECTOR, 0xff, false },
	{ BPF_PROG_TYPE_SK_LOOKUP, 0xff, false },
};

bool bg_sockmap_update_ok(uint32_t prog_type, uint32_t attach_type, uint32_t helper_id)
{
	if (helper_id != BPF_FUNC_map_update_elem && helper_id != BPF_FUNC_map_delete_elem)
		return false;
	for (size_t i = 0; i < sizeof(sockmap_update) / sizeof(sockmap_update[0]); i++)
		if (sockmap_update[i].type == prog_type &&
		    (sockmap_update[i].attach == 0xff || sockmap_update[i].attach == attach_type))
			return !sockmap_update[i].delete_only || helper_id == BPF_FUNC_map_delete_elem;
	return false;
}

static const char *const arg_names[BG_ARG__MAX] = {
	[BG_ARG_NONE] = "none",
	[BG_ARG_ANYTHING] = "anything",
	[BG_ARG_SCALAR] = "scalar",
	[BG_ARG_CONST_MAP_PTR] = "map_ptr",
	[BG_ARG_MAP_KEY] = "map_key",
	[BG_ARG_MAP_VALUE] = "map_value",
	[BG_ARG_MEM] = "mem",
	[BG_ARG_MEM_OR_NULL] = "mem_or_null",
	[BG_ARG_UNINIT_MEM] = "uninit_mem",
	[BG_ARG_CONST_SIZE] = "const_size",
	[BG_ARG_CONST_SIZE_OR_ZERO] = "const_size_or_zero",
	[BG_ARG_CTX] = "ctx",
	[BG_ARG_CTX_OR_NULL] = "ctx_or_null",
	[BG_ARG_SOCK_COMMON] = "sock_common",
	[BG_ARG_SOCKET] = "socket",
	[BG_ARG_SOCKET_OR_NULL] = "socket_or_null",
	[BG_ARG_BTF_ID] = "btf_id",
	[BG_ARG_SPIN_LOCK] = "spin_lock",
	[BG_ARG_TIMER] = "timer",
	[BG_ARG_RINGBUF_MEM] = "ringbuf_mem",
	[BG_ARG_FUNC] = "func",
	[BG_ARG_STACK_OR_NULL] = "stack_or_null",
	[BG_ARG_LONG] = "long",
	[BG_ARG_INT] = "int",
	[BG_ARG_CONST_STR] = "const_str",
	[BG_ARG_DYNPTR] = "dynptr",
	[BG_ARG_CONST_ALLOC_SIZE_OR_ZERO] = "const_alloc_size_or_zero",
	[BG_ARG_PERCPU_BTF_ID] = "percpu_btf_id",
	[BG_ARG_MAP_VALUE_OR_NULL] = "map_value_or_null",
	[BG_ARG_UNINIT_MAP_VALUE] = "uninit_map_value",
	[BG_ARG_BTF_ID_SOCK_COMMON] = "btf_id_sock_common",
	[BG_ARG_BTF_ID_OR_NULL] = "btf_id_or_null",
	[BG_ARG_KPTR] = "kptr",
	[BG_ARG_FIXED_MEM] = "fixed_size_mem",
	[BG_ARG_STACK] = "stack",
	[BG_ARG_BTF_ID_SOCK_COMMON_OR_NULL] = "btf_id_sock_common_or_null",
	[BG_ARG_GRAPH_ROOT] = "graph_root",
	[BG_ARG_GRAPH_NODE] = "graph_node",
};

static const char *const ret_names[BG_RET__MAX] = {
	[BG_RET_INTEGER] = "integer",
	[BG_RET_VOID] = "void",
	[BG_RET_MAP_VALUE_OR_NULL] = "map_value_or_null",
	[BG_RET_SOCKET_OR_NULL] = "socket_or_null",
	[BG_RET_TCP_SOCK_OR_NULL] = "tcp_sock_or_null",
	[BG_RET_SOCK_COMMON_OR_NULL] = "sock_common_or_null",
	[BG_RET_ALLOC_MEM_OR_NULL] = "alloc_mem_or_null",
	[BG_RET_MEM_OR_BTF_ID_OR_NULL] = "mem_or_btf_id_or_null",
	[BG_RET_BTF_ID_OR_NULL] = "btf_id_or_null",
	[BG_RET_BTF_ID] = "btf_id",
	[BG_RET_MAP_VALUE] = "map_value",
	[BG_RET_DYNPTR_MEM_OR_NULL] = "dynptr_mem_or_null",
	[BG_RET_MEM_OR_BTF_ID] = "mem_or_btf_id",
	[BG_RET_KPTR_OR_NULL] = "kptr_or_null",
	[BG_RET_MEM_U64] = "mem_u64",
};

const char *bg_arg_type_name(enum bg_arg_type t)
{
	return (unsigned)t < BG_ARG__MAX && arg_names[t] ? arg_names[t] : "?";
}

const char *bg_ret_type_name(enum bg_ret_type t)
{
	return (unsigned)t < BG_RET__MAX && ret_names[t] ? ret_names[t] : "?";
}

/* The dynptr constructors (verifier.c: arg_to_dynptr_type, the __uninit
 * argument of bpf_dynptr_clone, the DYNPTR_TYPE_* of the from_* kfuncs). */
static const struct {
	const char *name;
	uint8_t arg;
	uint8_t kind;
} dynptr_ctors[] = {
	{ "bpf_dynptr_from_mem", 4, BG_DYNPTR_LOCAL },
	{ "bpf_ringbuf_reserve_dynptr", 4, BG_DYNPTR_RINGBUF },
	{ "bpf_dynptr_from_skb", 3, BG_DYNPTR_SKB },
	{ "bpf_dynptr_from_xdp", 3, BG_DYNPTR_XDP },
	{ "bpf_dynptr_from_skb_meta", 3, BG_DYNPTR_SKB_META },
	{ "bpf_dynptr_clone", 2, BG_DYNPTR_PARENT },
};

int bg_dynptr_ctor(const char *name, enum bg_dynptr_kind *kind)
{
	for (size_t i = 0; name && i < sizeof(dynptr_ctors) / sizeof(dynptr_ctors[0]); i++)
		if (!strcmp(name, dynptr_ctors[i].name)) {
			*kind = (enum bg_dynptr_kind)dynptr_ctors[i].kind;
			return dynptr_ctors[i].arg;
		}
	return 0;
}

bool bg_dynptr_kind_is_pkt(unsigned kind)
{
	return kind == BG_DYNPTR_SKB || kind == BG_DYNPTR_XDP || kind == BG_DYNPTR_SKB_META;
}
