/* Helper and kfunc calls: availability for the program type, argument
 * checks against the prototype table (src/platform/helpers.def), map
 * compatibility, reference acquire/release, spin lock discipline, packet
 * invalidation, callbacks, and the type of r0 afterwards. r1-r5 are
 * clobbered by every call. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include <bpfgate/object.h>
#include "analysis/btfarg.h"
#include "obj/btftype.h"
#include "analysis/graph.h"
#include "analysis/vctx.h"

static inline struct as_reg *R(struct as_state *s, int i)
{
	return &as_cur(s)->r[i];
}

bool call_is_cb(const struct bg_insn *in)
{
	if (in->kind != BG_K_CALL || in->pseudo != BG_CALL_HELPER)
		return false;
	switch (in->imm) {
	case BPF_FUNC_loop:
	case BPF_FUNC_for_each_map_elem:
	case BPF_FUNC_timer_set_callback:
	case BPF_FUNC_find_vma:
	case BPF_FUNC_user_ringbuf_drain:
		return true;
	default:
		return false;
	}
}

static __thread const struct btf *tl_kbtf;

static const char *kfunc_name_btf(const struct btf *b, int32_t id)
{
	if (!b || id <= 0)
		return NULL;
	const struct btf_type *t = btf__type_by_id(b, (uint32_t)id);
	if (!t)
		return NULL;
	return btf__name_by_offset(b, t->name_off);
}

bool call_is_iter_next(const struct bg_insn *in)
{
	if (in->kind != BG_K_CALL || in->pseudo != BG_CALL_KFUNC)
		return false;
	const char *n = kfunc_name_btf(tl_kbtf, in->imm);
	if (!n)
		return false;
	size_t l = strlen(n);
	return !strncmp(n, "bpf_iter_", 9) && l > 5 && !strcmp(n + l - 5, "_next");
}

const char *kfunc_name(struct vctx *v, const struct bg_insn *in)
{
	tl_kbtf = bg_object__target_btf(v->obj);
	return kfunc_name_btf(tl_kbtf, in->imm);
}

void call_prepare(struct vctx *v)
{
	tl_kbtf = bg_object__target_btf(v->obj);
}

/* ---------------------------------------------------------------- maps */

static const struct bg_map_def *map_of(struct vctx *v, const struct as_reg *r)
{
	if (r->type != T_MAP_PTR)
		return NULL;
	return bg_object__map(v->obj, (size_t)r->map);
}

/* The map types a helper accepts, or that refuse a helper (kernel's
 * check_map_func_compatibility, reduced to what the corpus exercises). */
static int map_compat(struct vctx *v, struct as_state *s, size_t pc, uint32_t helper,
		      const struct bg_map_def *m, const char *hname)
{
	uint32_t t = m->type;
	bool ok = true;
	switch (helper) {
	case BPF_FUNC_tail_call:
		ok = t == BPF_MAP_TYPE_PROG_ARRAY;
		break;
	case BPF_FUNC_perf_event_output:
	case BPF_FUNC_perf_event_read:
	case BPF_FUNC_perf_event_read_value:
		ok = t == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
		break;
	case BPF_FUNC_ringbuf_output:
	case BPF_FUNC_ringbuf_reserve:
	case BPF_FUNC_ringbuf_query:
	case BPF_FUNC_ringbuf_reserve_dynptr:
		ok = t == BPF_MAP_TYPE_RINGBUF;
		break;
	case BPF_FUNC_get_stackid:
		ok = t == BPF_MAP_TYPE_STACK_TRACE;
		break;
	case BPF_FUNC_get_local_storage:
		ok = t == BPF_MAP_TYPE_CGROUP_STORAGE || t == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
		break;
	case BPF_FUNC_sk_storage_get:
	case BPF_FUNC_sk_storage_delete:
		ok = t == BPF_MAP_TYPE_SK_STORAGE;
		break;
	case BPF_FUNC_task_storage_get:
	case BPF_FUNC_task_storage_delete:
		ok = t == BPF_MAP_TYPE_TASK_STORAGE;
		break;
	case BPF_FUNC_redirect_map:
		ok = t == BPF_MAP_TYPE_DEVMAP || t == BPF_MAP_TYPE_DEVMAP_HASH ||
		     t == BPF_MAP_TYPE_CPUMAP || t == BPF_MAP_TYPE_XSKMAP;
		break;
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
		ok = t != BPF_MAP_TYPE_RINGBUF && t != BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
		     t != BPF_MAP_TYPE_STACK_TRACE && t != BPF_MAP_TYPE_USER_RINGBUF &&
		     !(helper == BPF_FUNC_map_lookup_elem && t == BPF_MAP_TYPE_PROG_ARRAY);
		break;
	default:
		break;
	}
	if (t == BPF_MAP_TYPE_SOCKMAP || t == BPF_MAP_TYPE_SOCKHASH) {
		/* lookups, redirects and their own update helpers anywhere; the
		 * generic update/delete only where no locked socket is reachable */
		bool own = helper == BPF_FUNC_map_lookup_elem || helper == BPF_FUNC_sk_select_reuseport ||
			   (t == BPF_MAP_TYPE_SOCKMAP ? helper == BPF_FUNC_sk_redirect_map ||
							helper == BPF_FUNC_msg_redirect_map ||
							helper == BPF_FUNC_sock_map_update
						      : helper == BPF_FUNC_sk_redirect_hash ||
							helper == BPF_FUNC_msg_redirect_hash ||
							helper == BPF_FUNC_sock_hash_update);
		if (!own && !bg_sockmap_update_ok(v->prog_type, bg_program__attach_type(v->prog), helper))
			ok = false;
	}
	/* the measured (map type, helper) pairs (src/platform/map_helpers.def) */
	if (helper && !bg_map_helper_ok(t, helper, NULL))
		ok = false;
	if (!ok)
		return verr(v, s, pc, "map_type", "cannot pass map_type %u into func %s#%u (map %s)", t,
			    hname, helper, m->name ? m->name : "?");
	/* maps that only some helpers may touch */
	bool special = t == BPF_MAP_TYPE_RINGBUF || t == BPF_MAP_TYPE_PROG_ARRAY ||
		       t == BPF_MAP_TYPE_PERF_EVENT_ARRAY;
	if (special && (helper == BPF_FUNC_map_update_elem || helper == BPF_FUNC_map_lookup_elem))
		return verr(v, s, pc, "map_type", "cannot pass map_type %u into func %s#%u", t, hname, helper);
	return 0;
}

/* The per-program caches of BTF walks (vctx.cache): struct names known to
 * be (1) or not to be (0) program-local types (the kernel BTF lookup that
 * decides is linear in its size), map_field_offset and map_kptrs results. */
struct vcache {
	struct {
		const char *name;
		bool local;
	} local[16];
	unsigned nlocal;
	struct {
		const struct bg_map_def *m;
		const char *tname;
		int off;
	} mapf[32];
	unsigned nmapf;
	struct {
		const struct bg_map_def *m;
		int n;
		struct btf_kptr_field f[11]; /* the kernel's BTF_FIELDS_MAX */
	} mapk[8];
	unsigned nmapk;
};

/* allocated at the first use (most programs never ask; entries past the
 * counts are never read: not zeroed): NULL when out of memory (callers then
 * walk the BTF uncached) */
static struct vcache *vcache(struct vctx *v)
{
	if (!v->cache && (v->cache = malloc(sizeof(*v->cache))))
		v->cache->nlocal = v->cache->nmapf = v->cache->nmapk = 0;
	return v->cache;
}

/* Offset of a field of the given struct type in the map value (BTF), -1
 * when not found, -2 when the map has no BTF. */
int map_field_offset(struct vctx *v, const struct bg_map_def *m, const char *tname)
{
	/* nested structs and global data sections (DATASEC) included, as the
	 * kernel's btf_parse_fields */
	struct vcache *c = vcache(v);
	for (unsigned i = 0; c && i < c->nmapf; i++)
		if (c->mapf[i].m == m && !strcmp(c->mapf[i].tname, tname))
			return c->mapf[i].off;
	int off = graph_find_field(v->prog, m->btf_value_type_id, NULL, tname);
	if (c && c->nmapf < sizeof(c->mapf) / sizeof(c->mapf[0])) {
		c->mapf[c->nmapf].m = m;
		c->mapf[c->nmapf].tname = tname;
		c->mapf[c->nmapf++].off = off;
	}
	return off;
}

int map_kptrs(struct vctx *v, const struct bg_map_def *m, const struct btf_kptr_field **f)
{
	struct vcache *c = vcache(v);
	if (!c) {
		vnomem(v);
		*f = NULL;
		return 0;
	}
	for (unsigned i = 0; i < c->nmapk; i++)
		if (c->mapk[i].m == m) {
			*f = c->mapk[i].f;
			return c->mapk[i].n;
		}
	unsigned i = c->nmapk < 8 ? c->nmapk++ : (unsigned)(((uintptr_t)m >> 4) % 8);
	c->mapk[i].m = m;
	c->mapk[i].n = btf_map_kptr_fields(v->prog, m->btf_value_type_id, c->mapk[i].f, 11, vctx_kver(v));
	*f = c->mapk[i].f;
	return c->mapk[i].n;
}

bool vctx_is_local(struct vctx *v, const char *name)
{
	struct vcache *c = vcache(v);
	for (unsigned i = 0; c && i < c->nlocal; i++)
		if (c->local[i].name == name || !strcmp(c->local[i].name, name))
			return c->local[i].local;
	bool local = graph_is_local(v->prog, name);
	if (c && c->nlocal < sizeof(c->local) / sizeof(c->local[0])) {
		c->local[c->nlocal].name = name;
		c->local[c->nlocal++].local = local;
	}
	return local;
}

/* ---------------------------------------------------------- arguments */

struct call_info {
	const struct bg_helper_proto *p;
	const char *name;
	uint32_t id;
	const struct bg_map_def *map;
	int map_idx;
	int release_reg;
	uint32_t release_ref;
	bool key_const;
	uint64_t key_val;
	bool has_root;            /* graph kfuncs: the root argument, checked */
	struct graph_field root;
	struct as_reg dyn;        /* the first initialized dynptr argument's slot spill
				   * (dkind, dynptr id, ref), for slices and clones */
};

static bool is_null_const(const struct as_reg *r)
{
	uint64_t c;
	return r->type == T_SCALAR && bg_scalar_is_const(&r->v, &c) && c == 0;
}

static int type_mismatch(struct vctx *v, struct as_state *s, size_t pc, int reg, const char *exp);
static int want_ptr_nonnull(struct vctx *v, struct as_state *s, size_t pc, int reg, const char *exp);

/* A BTF pointer as a helper's memory argument (compatible_reg_types:
 * mem_types): only a trusted one, and only where the helper declares it
 * reads the memory (MEM_RDONLY: never for map keys and values), else
 * "may write into memory". */
static const char mem_types_str[] = "fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_";
static int btf_mem_arg(struct vctx *v, struct as_state *s, size_t pc, int reg, bool write, const char *helper)
{
	const struct as_reg *r = R(s, reg);
	if (r->type != T_BTF_ID || (r->flags & RF_ALLOC))
		return 0;
	if (as_btf_trust(r) != AS_TRUST_TRUSTED)
		return verr(v, s, pc, "helper_arg", "R%d type=%s expected=%s", reg, btf_ptr_name(r), mem_types_str);
	if (write)
		return verr(v, s, pc, "helper_arg", "%s() may write into memory pointed by R%d type=%s", helper, reg,
			    btf_ptr_name(r));
	return 0;
}

static int arg_mem_of_map(struct vctx *v, struct as_state *s, size_t pc, int reg, uint32_t size,
			  const char *what, struct call_info *ci, bool write)
{
	if (!ci->map)
		return verr(v, s, pc, "helper_arg", "invalid map_ptr to access map->%s", what);
	/* an iterator's buffer: never the read-only one (ARG_PTR_TO_MAP_KEY has no
	 * MEM_RDONLY), the other from 6.12 (BG_KF_BUF_MAP_ARG) */
	if (!rg_has(R(s, reg)->type, RG_KEY_ARG) ||
	    (R(s, reg)->type == T_BUF && ((R(s, reg)->flags & RF_RDONLY) || !bg_profile_has(v->prof, BG_KF_BUF_MAP_ARG))))
		return type_mismatch(v, s, pc, reg, "fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem");
	/* before 6.2 a helper's map key or value is the stack, a packet, a map
	 * value or a map key (a for_each_map_elem callback's: read-only mem) */
	const struct as_reg *kr = R(s, reg);
	if (!(ci->p->flags & BG_HF_KFUNC) && !kf_has(v, BG_KF_MEM_MAP_KEY) && kr->type != T_STACK &&
	    kr->type != T_MAP_VALUE && !rg_has(kr->type, RG_PKT_BASE) && !(kr->type == T_MEM && (kr->flags & RF_RDONLY)))
		return type_mismatch(v, s, pc, reg, "fp, pkt, pkt_meta, map_key, map_value");
	if (!(ci->p->flags & BG_HF_KFUNC) && btf_mem_arg(v, s, pc, reg, true, ci->name))
		return -1;
	if (want_ptr_nonnull(v, s, pc, reg, what))
		return -1;
	struct bg_scalar sz = bg_scalar_const(size);
	if (check_mem_range(v, s, pc, reg, &sz, write, false, what))
		return -1;
	if (write)
		return 0;
	/* constant key on the stack? (array lookups with it cannot fail) */
	struct as_reg *r = R(s, reg);
	uint64_t off;
	if (r->type == T_STACK && bg_scalar_is_const(&r->v, &off) && size == 4) {
		struct as_frame *f = &s->fr[r->frame];
		int o = (int)(int64_t)off;
		if (o % 8 == 0 && o < 0) {
			const struct as_slot *sl = as_slot_find(f, (-o - 1) / 8);
			uint64_t c;
			/* the kernel wants a scalar spill of exactly the key size */
			if (sl && sl->kind == SK_SPILL && sl->spill.type == T_SCALAR && sl->spill_size == size &&
			    bg_scalar_is_const(&sl->spill.v, &c)) {
				ci->key_const = true;
				ci->key_val = c & 0xffffffffu;
			} else if (sl && sl->kind != SK_SPILL && (sl->zero & 0x0f) == 0x0f) {
				ci->key_const = true;
				ci->key_val = 0;
			}
		} else if (o % 8 == -4) {
			/* unaligned zero store: the kernel's STACK_ZERO bytes */
			const struct as_slot *sl = as_slot_find(f, (-o - 1) / 8);
			if (sl && (sl->kind != SK_SPILL || sl->spill_size <= 4) && (sl->zero & 0xf0) == 0xf0) {
				ci->key_const = true;
				ci->key_val = 0;
			}
		}
	}
	return 0;
}

static int want_ptr_nonnull(struct vctx *v, struct as_state *s, size_t pc, int reg, const char *exp)
{
	struct as_reg *r = R(s, reg);
	char buf[200];
	if (r->flags & RF_NULL) {
		fmt_reg(v, s, reg, buf, sizeof(buf));
		return verr(v, s, pc, "helper_arg", "R%d type=%s expected=%s: NULL check missing: %s", reg,
			    as_type_name(r->type, r->flags), exp, buf);
	}
	return 0;
}

static int type_mismatch(struct vctx *v, struct as_state *s, size_t pc, int reg, const char *exp)
{
	char buf[200];
	struct as_reg *r = R(s, reg);
	fmt_reg(v, s, reg, buf, sizeof(buf));
	return verr(v, s, pc, "helper_arg", "R%d type=%s expected=%s: %s", reg,
		    as_type_name(r->type, r->flags), exp, buf);
}

/* ARG_PTR_TO_PERCPU_BTF_ID (bpf_per_cpu_ptr, bpf_this_cpu_ptr): percpu
 * memory (MEM_PERCPU): a percpu kernel variable (ksym) or a percpu kptr
 * loaded or kept in an RCU section; plain, RCU or trusted, never NULL.
 * A percpu object just allocated (MEM_ALLOC) is not one. */
static int arg_percpu(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct call_info *ci)
{
	static const char exp[] = "percpu_ptr_, percpu_rcu_ptr_, percpu_trusted_ptr_";
	const struct as_reg *r = R(s, reg);
	(void)ci;
	if (r->type != T_BTF_ID || !(r->flags & RF_PERCPU) || (r->flags & (RF_ALLOC | RF_UNTRUSTED))) {
		if (r->type != T_BTF_ID)
			return type_mismatch(v, s, pc, reg, exp);
		return verr(v, s, pc, "helper_arg", "R%d type=%s%s expected=%s", reg, btf_ptr_name(r), r->btf ? r->btf : "",
			    exp);
	}
	return want_ptr_nonnull(v, s, pc, reg, exp);
}

static int arg_mem(struct vctx *v, struct as_state *s, size_t pc, int reg, int size_reg, bool write,
		   bool or_null, bool zero_ok, const char *helper)
{
	struct as_reg *r = R(s, reg);
	if (or_null && is_null_const(r)) {
		/* a kfunc's __opt buffer: NULL skips the size check; a helper's
		 * NULL takes the size's checks, then only a zero size (the
		 * kernel's check_helper_mem_access on a scalar register) */
		struct as_reg *sz = R(s, size_reg);
		if (!helper || sz->type != T_SCALAR || (sz->v.umax == 0 && zero_ok))
			return 0;
		if (sz->v.umax == 0 || (sz->v.umin == 0 && !zero_ok) || sz->v.umax >= (1u << 29))
			return check_mem_range(v, s, pc, reg, &sz->v, write, zero_ok, "helper memory argument");
		return verr(v, s, pc, "helper_arg",
			    "R%d type=scalar expected=fp: %s() may access up to %" PRIu64 " bytes at address 0", reg,
			    helper, sz->v.umax);
	}
	/* a maybe-NULL pointer where a helper's prototype allows NULL: the
	 * kernel folds PTR_MAYBE_NULL away (check_reg_type) and checks the
	 * memory as that of a pointer known not NULL */
	if (or_null && helper && (r->flags & RF_NULL) && rg_has(r->type, RG_MEM_ARG)) {
		r->flags &= (uint8_t)~RF_NULL;
		int err = arg_mem(v, s, pc, reg, size_reg, write, false, zero_ok, helper);
		r->flags |= RF_NULL;
		return err;
	}
	if (!rg_has(r->type, RG_MEM_ARG))
		return type_mismatch(v, s, pc, reg, write ? "fp,pkt,map_value,mem (writable)" : "fp,pkt,map_value,mem");
	if (want_ptr_nonnull(v, s, pc, reg, "mem"))
		return -1;
	if (write && r->type == T_MAP_VALUE) {
		const struct bg_map_def *m = bg_object__map(v->obj, (size_t)r->map);
		if (m && (m->readonly || (m->map_flags & BG_MAP_F_RDONLY_PROG)))
			return verr(v, s, pc, "map_readonly", "write into map forbidden (R%d points into read-only map %s)",
				    reg, m->name ? m->name : "?");
	}
	struct as_reg *sz = R(s, size_reg);
	if (sz->type != T_SCALAR)
		return type_mismatch(v, s, pc, size_reg, "scalar");
	if (sz->v.smin < 0 && sz->v.smax >= 0 && sz->v.umax >= (1ull << 29))
		return verr(v, s, pc, "helper_arg",
			    "R%d min value is negative, either use unsigned or 'var &= const'", size_reg);
	if (r->type == T_BTF_ID) {
		if (!helper)
			return 0; /* kfunc memory arguments through BTF pointers: not modelled */
		/* check_reg_type: a helper takes only a trusted BTF pointer and
		 * may not write through it; check_helper_mem_access: the read is
		 * one BTF access of the size */
		if (btf_mem_arg(v, s, pc, reg, write, helper))
			return -1;
		if (sz->v.umax == 0 || sz->v.umax >= (1u << 29) || (sz->v.umin == 0 && !zero_ok))
			return check_mem_range(v, s, pc, reg, &sz->v, false, zero_ok, "helper memory argument");
		return check_mem(v, s, pc, reg, 0, (int)sz->v.umax, false, NULL, NULL, false);
	}
	return check_mem_range(v, s, pc, reg, &sz->v, write, zero_ok, "helper memory argument");
}

/* bpf_spin_lock/unlock on the lock of a program-local object. */
static int arg_local_lock(struct vctx *v, struct as_state *s, size_t pc, int reg, const char *tn)
{
	struct as_reg *r = R(s, reg);
	if (want_ptr_nonnull(v, s, pc, reg, "ptr_"))
		return -1;
	int fo = graph_find_field(v->prog, 0, r->btf, tn);
	uint64_t c;
	if (fo < 0)
		return verr(v, s, pc, "helper_arg", "local '%s' has no valid %s", r->btf ? r->btf : "?", tn);
	if (fo >= 0 && (!bg_scalar_is_const(&r->v, &c) || c != (uint64_t)fo))
		return verr(v, s, pc, "helper_arg", "off %" PRId64 " doesn't point to 'struct %s' that is at %d",
			    r->v.smin, tn, fo);
	return 0;
}

/* Graph kfuncs act on one kind of root and node (bpf_list_* on lists,
 * bpf_rbtree_* on rbtrees). */
static bool graph_is_list(const struct call_info *ci)
{
	return !strncmp(ci->name, "bpf_list_", 9);
}

/* A bpf_list_head / bpf_rb_root at a constant offset of a map value or a
 * local object, whose allocation's lock is the one held (the kernel's
 * check_reg_allocation_locked: same map or object, same lookup). */
static int arg_graph_root(struct vctx *v, struct as_state *s, size_t pc, int reg, struct call_info *ci)
{
	struct as_reg *r = R(s, reg);
	const char *want = graph_is_list(ci) ? "bpf_list_head" : "bpf_rb_root";
	uint32_t vt = 0;
	const char *local = NULL;
	if (r->type == T_MAP_VALUE) {
		const struct bg_map_def *m = bg_object__map(v->obj, (size_t)r->map);
		vt = m ? m->btf_value_type_id : 0;
	} else if (r->type == T_BTF_ID && (r->flags & RF_ALLOC) && !(r->flags & RF_UNTRUSTED)) {
		local = r->btf;
	} else {
		return type_mismatch(v, s, pc, reg, "map_value or a local object (bpf_obj_new)");
	}
	if (want_ptr_nonnull(v, s, pc, reg, want))
		return -1;
	uint64_t c;
	if (!bg_scalar_is_const(&r->v, &c))
		return verr(v, s, pc, "graph_arg", "R%d doesn't have constant offset. %s has to be at the constant offset",
			    reg, want);
	if (!graph_field_at(v->prog, vt, local, (int64_t)c, &ci->root) || strcmp(ci->root.type, want))
		return verr(v, s, pc, "graph_arg", "%s not found at offset=%" PRIu64, want, c);
	ci->has_root = true;
	uint32_t id;
	int32_t lk = as_lock_of(r, &id);
	if (s->lock != lk || (s->lock_id != id && s->lock_id != AS_LOCK_ID_JOINED))
		return verr(v, s, pc, "graph_lock", "bpf_spin_lock at off=%d must be held for %s",
			    graph_find_field(v->prog, vt, local, "bpf_spin_lock"), want);
	return 0;
}

/* A bpf_list_node / bpf_rb_node inside a local object, the one the root
 * holds (its `contains:` struct and field). */
static int arg_graph_node(struct vctx *v, struct as_state *s, size_t pc, int reg, struct call_info *ci)
{
	struct as_reg *r = R(s, reg);
	const char *want = graph_is_list(ci) ? "bpf_list_node" : "bpf_rb_node";
	if (r->type != T_BTF_ID || !(r->flags & RF_ALLOC) || (r->flags & RF_UNTRUSTED))
		return verr(v, s, pc, "graph_arg", "arg#%d expected pointer to allocated object", reg - 1);
	if (want_ptr_nonnull(v, s, pc, reg, want))
		return -1;
	uint64_t c;
	struct graph_field f;
	if (!bg_scalar_is_const(&r->v, &c))
		return verr(v, s, pc, "graph_arg", "R%d doesn't have constant offset. %s has to be at the constant offset",
			    reg, want);
	if (!r->btf || !graph_field_at(v->prog, 0, r->btf, (int64_t)c, &f) || strcmp(f.type, want))
		return verr(v, s, pc, "graph_arg", "%s not found at offset=%" PRIu64, want, c);
	if (ci->has_root && ci->root.contains &&
	    (strcmp(ci->root.contains, r->btf) || ci->root.node_off != (int64_t)c))
		return verr(v, s, pc, "graph_arg",
			    "operation on %s expects arg#%d %s at offset=%d in struct %s, but arg is at offset=%" PRIu64
			    " in struct %s",
			    ci->root.type, reg - 1, want, ci->root.node_off, ci->root.contains, c, r->btf);
	if (!(ci->p->flags & BG_HF_RELEASE) && r->ref && graph_find_field(v->prog, 0, r->btf, "bpf_refcount") < 0)
		return verr(v, s, pc, "graph_arg", "%s can only take non-owning or refcounted %s pointer", ci->name, want);
	return 0;
}

/* The kernel BTF prototype of the kfunc called at pc, or NULL. */
static const struct btf_type *kfunc_proto(const struct vctx *v, size_t pc)
{
	const struct btf *b = tl_kbtf;
	const struct bg_insn *in = &v->insns[pc];
	const struct btf_type *f = b && in->imm > 0 ? btf__type_by_id(b, (uint32_t)in->imm) : NULL;
	const struct btf_type *fp = f && btf_is_func(f) ? btf__type_by_id(b, f->type) : NULL;
	return fp && btf_is_func_proto(fp) ? fp : NULL;
}

/* The struct a kfunc's parameter i points to in the target BTF ("bpf_map"),
 * or NULL. */
static const char *kfunc_param_struct(struct vctx *v, size_t pc, int i)
{
	const struct btf *b = tl_kbtf;
	if (v->insns[pc].pseudo != BG_CALL_KFUNC)
		return NULL;
	const struct btf_type *fp = kfunc_proto(v, pc);
	if (!fp || i >= btf_vlen(fp))
		return NULL;
	const struct btf_type *t = obj_btf_skip_mods(b, btf_params(fp)[i].type, NULL);
	if (!t || !btf_is_ptr(t))
		return NULL;
	t = obj_btf_skip_mods(b, t->type, NULL);
	return t && btf_is_composite(t) ? btf__name_by_offset(b, t->name_off) : NULL;
}

/* check_kfunc_args / btf_is_prog_ctx_type: a kfunc's struct parameter is the
 * ctx only when it names the program type's ctx (__sk_buff, or its kernel
 * struct sk_buff); else the ctx pointer is passed as a plain BTF pointer,
 * which a kfunc refuses ("R1 must be referenced or trusted": a tracepoint,
 * raw_tp or fentry program's ctx to bpf_dynptr_from_skb). sn NULL (a `void *`
 * parameter, or no kernel BTF): no check. */
static bool kfunc_ctx_of_prog(const struct vctx *v, const char *sn)
{
	const char *under;
	const char *ctx = bg_prog_ctx_btf(v->prog_type, &under, NULL);
	const char *kern = bg_ctx_kernel_struct(ctx);
	if (!sn)
		return true;
	return ctx && (!strcmp(ctx, sn) || (under && !strcmp(under, sn)) || (kern && !strcmp(kern, sn)));
}

/* The kernel's name of a BTF pointer's type (reg_type_str): its trust
 * prefix, "ptr_", "or_null_" when it may be NULL. */
const char *btf_ptr_name(const struct as_reg *r)
{
	static const char *const percpu[2][2] = { { "percpu_ptr_", "percpu_ptr_or_null_" },
						  { "percpu_rcu_ptr_", "percpu_rcu_ptr_or_null_" } };
	static const char *const names[4][2] = {
		[AS_TRUST_TRUSTED] = { "trusted_ptr_", "trusted_ptr_or_null_" },
		[AS_TRUST_RCU] = { "rcu_ptr_", "rcu_ptr_or_null_" },
		[AS_TRUST_PLAIN] = { "ptr_", "ptr_or_null_" },
		[AS_TRUST_UNTRUSTED] = { "untrusted_ptr_", "untrusted_ptr_or_null_" },
	};
	if (r->flags & RF_PERCPU)
		return percpu[(r->flags & RF_RCU) ? 1 : 0][(r->flags & RF_NULL) ? 1 : 0];
	if (r->flags & RF_ALLOC)
		return (r->flags & RF_NULL) ? "ptr_or_null_" : "ptr_";
	return names[as_btf_trust(r)][(r->flags & RF_NULL) ? 1 : 0];
}

/* Which trust of a BTF pointer (enum as_trust) each kind of argument takes:
 * a helper's ARG_PTR_TO_BTF_ID (compatible_reg_types: btf_ptr_types), its
 * ARG_PTR_TO_BTF_ID_SOCK_COMMON (btf_id_sock_common_types: no RCU pointer),
 * a kfunc's struct pointer with KF_TRUSTED_ARGS, with KF_RCU, or with
 * neither (check_kfunc_args: only PTR_UNTRUSTED is refused). */
enum arg_trust_kind { AT_HELPER_BTF, AT_HELPER_SOCK, AT_KF_TRUSTED, AT_KF_RCU, AT_KF_ANY };
static const unsigned arg_trust_ok[] = {
	[AT_HELPER_BTF] = AS_TRUST_BIT(AS_TRUST_TRUSTED) | AS_TRUST_BIT(AS_TRUST_RCU) | AS_TRUST_BIT(AS_TRUST_PLAIN),
	[AT_HELPER_SOCK] = AS_TRUST_BIT(AS_TRUST_TRUSTED) | AS_TRUST_BIT(AS_TRUST_PLAIN),
	[AT_KF_TRUSTED] = AS_TRUST_BIT(AS_TRUST_TRUSTED),
	[AT_KF_RCU] = AS_TRUST_BIT(AS_TRUST_TRUSTED) | AS_TRUST_BIT(AS_TRUST_RCU),
	[AT_KF_ANY] = AS_TRUST_BIT(AS_TRUST_TRUSTED) | AS_TRUST_BIT(AS_TRUST_RCU) | AS_TRUST_BIT(AS_TRUST_PLAIN),
};

/* Does the BTF pointer in reg have a trust argument i of the call takes?
 * (Other region types are judged by the argument's own rules.) */
static int arg_trust(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct call_info *ci)
{
	const struct as_reg *r = R(s, reg);
	if (r->type != T_BTF_ID)
		return 0;
	enum arg_trust_kind k;
	uint8_t at = ci->p->args[reg - 1];
	if (ci->p->flags & BG_HF_KFUNC)
		k = (ci->p->flags & BG_HF_TRUSTED_ARGS) ? AT_KF_TRUSTED
		    : (ci->p->flags & BG_HF_RCU)	 ? AT_KF_RCU
							 : AT_KF_ANY;
	else
		k = (at == BG_ARG_BTF_ID_SOCK_COMMON || at == BG_ARG_BTF_ID_SOCK_COMMON_OR_NULL) ? AT_HELPER_SOCK
											   : AT_HELPER_BTF;
	if (arg_trust_ok[k] & AS_TRUST_BIT(as_btf_trust(r)))
		return 0;
	switch (k) {
	case AT_KF_TRUSTED:
		return verr(v, s, pc, "kfunc_arg", "R%d must be referenced or trusted (it is %s%s)", reg,
			    btf_ptr_name(r), r->btf ? r->btf : "");
	case AT_KF_RCU:
		return verr(v, s, pc, "kfunc_arg", "R%d must be a rcu pointer (it is %s%s)", reg, btf_ptr_name(r),
			    r->btf ? r->btf : "");
	case AT_KF_ANY:
		return verr(v, s, pc, "kfunc_arg", "arg#%d is %s expected ptr_ or socket", reg - 1, btf_ptr_name(r));
	case AT_HELPER_SOCK:
		return verr(v, s, pc, "helper_arg",
			    "R%d type=%s expected=sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_", reg,
			    btf_ptr_name(r));
	default:
		return verr(v, s, pc, "helper_arg", "R%d type=%s expected=ptr_, trusted_ptr_, rcu_ptr_", reg,
			    btf_ptr_name(r));
	}
}

/* check_reg_type's btf_struct_ids_match for a helper's BTF argument: the
 * pointer's struct is the one expected, or starts with it (strictly the same
 * struct for a released argument, but bpf_sk_release's). Pointers off their
 * struct's start are not judged here. Kfuncs: kfunc_struct_args. */
static int arg_btf_type(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct call_info *ci,
			const char *want)
{
	const struct as_reg *r = R(s, reg);
	uint64_t c;
	if ((ci->p->flags & BG_HF_KFUNC) || r->type != T_BTF_ID || (r->flags & RF_ALLOC) || !r->btf || !want ||
	    !bg_scalar_is_const(&r->v, &c) || c)
		return 0;
	bool strict = ci->p->release_arg == reg && ci->id != BPF_FUNC_sk_release;
	if (btf_struct_match(v->prog, r->btf, want, strict) != 0)
		return 0;
	return verr(v, s, pc, "helper_arg", "R%d is of type %s but %s is expected", reg, r->btf, want);
}

/* check_map_field_pointer: a map value pointer at the constant offset of the
 * value's field of struct tn (bpf_spin_lock, bpf_timer, bpf_wq, ...). */
static int arg_map_field(struct vctx *v, struct as_state *s, size_t pc, int reg, const char *tn)
{
	const struct as_reg *r = R(s, reg);
	const struct bg_map_def *m = bg_object__map(v->obj, (size_t)r->map);
	int fo = m ? map_field_offset(v, m, tn) : -2;
	uint64_t c;
	if (fo == -1)
		return verr(v, s, pc, "helper_arg", "map '%s' has no valid %s", m->name ? m->name : "?", tn);
	if (fo == -2 && m && !m->btf_value_type_id)
		return verr(v, s, pc, "helper_arg", "map '%s' has to have BTF in order to use %s", m->name ? m->name : "?",
			    tn);
	if (fo >= 0 && !bg_scalar_is_const(&r->v, &c))
		return verr(v, s, pc, "helper_arg", "R%d doesn't have constant offset. %s has to be at the constant offset",
			    reg, tn);
	if (fo >= 0 && c != (uint64_t)fo)
		return verr(v, s, pc, "helper_arg", "off %" PRId64 " doesn't point to 'struct %s' that is at %d",
			    r->v.smin, tn, fo);
	return 0;
}

/* check_reg_const_str: a pointer into a read-only map value at a constant
 * offset, a NUL between it and the value's end (in the object's initial
 * data: the map is frozen before the load). */
static int arg_const_str(struct vctx *v, struct as_state *s, size_t pc, int reg)
{
	const struct as_reg *r = R(s, reg);
	if (r->type != T_MAP_VALUE || !(r->flags & RF_RDONLY))
		return verr(v, s, pc, "helper_arg", "R%d does not point to a readonly map' (const string expected): %s",
			    reg, as_type_name(r->type, r->flags));
	uint64_t c;
	const struct bg_map_def *m = bg_object__map(v->obj, (size_t)r->map);
	if (!bg_scalar_is_const(&r->v, &c))
		return verr(v, s, pc, "helper_arg", "R%d is not a constant address'", reg);
	if (m && m->init_data && c < m->value_size && !memchr((const char *)m->init_data + c, 0, m->value_size - c))
		return verr(v, s, pc, "helper_arg", "string is not zero-terminated (map %s, offset %" PRIu64 ")",
			    m->name ? m->name : "?", c);
	return 0;
}

static int arg_check(struct vctx *v, struct as_state *s, size_t pc, int i, struct call_info *ci)
{
	int reg = i + 1;
	uint8_t at = ci->p->args[i];
	struct as_reg *r = R(s, reg);
	if (at == BG_ARG_NONE)
		return 0;
	if (check_reg_init(v, s, pc, reg))
		return -1;
	switch (at) {
	case BG_ARG_ANYTHING:
		return 0;
	case BG_ARG_SCALAR:
	case BG_ARG_CONST_ALLOC_SIZE_OR_ZERO:
		if (r->type != T_SCALAR)
			return type_mismatch(v, s, pc, reg, "scalar");
		return 0;
	case BG_ARG_CONST_MAP_PTR:
		if (r->type != T_MAP_PTR)
			return type_mismatch(v, s, pc, reg, "map_ptr");
		if (want_ptr_nonnull(v, s, pc, reg, "map_ptr"))
			return -1;
		ci->map = map_of(v, r);
		ci->map_idx = r->map;
		if (ci->map && map_compat(v, s, pc, ci->id, ci->map, ci->name))
			return -1;
		return 0;
	case BG_ARG_MAP_KEY:
		return arg_mem_of_map(v, s, pc, reg, ci->map ? ci->map->key_size : 0, "key", ci, false);
	case BG_ARG_MAP_VALUE_OR_NULL:
		/* local storage's initial value: NULL or value_size bytes */
		if (is_null_const(r))
			return 0;
		return arg_mem_of_map(v, s, pc, reg, ci->map ? ci->map->value_size : 0, "value", ci, false);
	case BG_ARG_UNINIT_MAP_VALUE:
		/* map_pop_elem / map_peek_elem write value_size bytes (the kernel's
		 * raw_mode: the stack bytes are initialized after the call) */
		return arg_mem_of_map(v, s, pc, reg, ci->map ? ci->map->value_size : 0, "value", ci, true);
	case BG_ARG_MAP_VALUE:
		/* a sockmap/sockhash stores sockets: the value is a socket pointer
		 * (the kernel's resolve_map_arg_type) */
		if (ci->map && (ci->map->type == BPF_MAP_TYPE_SOCKMAP || ci->map->type == BPF_MAP_TYPE_SOCKHASH)) {
			if (!rg_has(r->type, RG_SOCK_ARG))
				return type_mismatch(v, s, pc, reg,
						     "sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_");
			return want_ptr_nonnull(v, s, pc, reg,
						"sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_");
		}
		return arg_mem_of_map(v, s, pc, reg, ci->map ? ci->map->value_size : 0, "value", ci, false);
	case BG_ARG_MEM:
	case BG_ARG_MEM_OR_NULL:
	case BG_ARG_UNINIT_MEM: {
		bool zero_ok = i + 1 < 5 && ci->p->args[i + 1] == BG_ARG_CONST_SIZE_OR_ZERO;
		if (i + 1 >= 5)
			return 0;
		if (check_reg_init(v, s, pc, reg + 1))
			return -1;
		return arg_mem(v, s, pc, reg, reg + 1, at == BG_ARG_UNINIT_MEM, at == BG_ARG_MEM_OR_NULL,
			       zero_ok, (ci->p->flags & BG_HF_KFUNC) ? NULL : ci->p->name);
	}
	case BG_ARG_CONST_SIZE:
	case BG_ARG_CONST_SIZE_OR_ZERO:
		if (r->type != T_SCALAR)
			return type_mismatch(v, s, pc, reg, "scalar");
		return 0;
	case BG_ARG_CTX:
	case BG_ARG_CTX_OR_NULL: {
		uint64_t c;
		if (at == BG_ARG_CTX_OR_NULL && is_null_const(r))
			return 0;
		/* a kfunc's ctx struct parameter is no ctx in a program of another
		 * type: a BTF struct argument (a tp_btf or netfilter skb), trusted
		 * (KF_TRUSTED_ARGS; an fentry argument is not) */
		if (r->type == T_BTF_ID && (ci->p->flags & BG_HF_KFUNC)) {
			if (as_btf_trust(r) != AS_TRUST_TRUSTED)
				return verr(v, s, pc, "kfunc_arg", "R%d must be referenced or trusted (it is %s%s)", reg,
					    btf_ptr_name(r), r->btf ? r->btf : "");
			return want_ptr_nonnull(v, s, pc, reg, "ctx");
		}
		if (r->type != T_CTX)
			return type_mismatch(v, s, pc, reg, "ctx");
		if (!bg_scalar_is_const(&r->v, &c) || c != 0)
			return verr(v, s, pc, "ctx_modified",
				    "dereference of modified ctx ptr R%d disallowed (helper argument)", reg);
		if ((ci->p->flags & BG_HF_KFUNC) && !kfunc_ctx_of_prog(v, kfunc_param_struct(v, pc, i)))
			return verr(v, s, pc, "kfunc_arg", "R%d must be referenced or trusted", reg);
		return 0;
	}
	case BG_ARG_SOCK_COMMON:
		if (!rg_has(r->type, RG_SOCK_ARG))
			return type_mismatch(v, s, pc, reg, "sock_common, sock, tcp_sock");
		return want_ptr_nonnull(v, s, pc, reg, "sock_common");
	case BG_ARG_SOCKET_OR_NULL:
		if (is_null_const(r))
			return 0;
		/* fall through */
	case BG_ARG_SOCKET:
		if (!rg_has(r->type, RG_SOCK_ARG))
			return type_mismatch(v, s, pc, reg, "sock");
		return want_ptr_nonnull(v, s, pc, reg, "sock");
	case BG_ARG_BTF_ID_SOCK_COMMON_OR_NULL:
		if (is_null_const(r))
			return 0;
		/* fall through */
	case BG_ARG_BTF_ID_SOCK_COMMON:
		/* any socket: the verifier's sock types or a BTF pointer (the
		 * kernel's ARG_PTR_TO_BTF_ID_SOCK_COMMON), never NULL */
		if (!rg_has(r->type, RG_SOCK_ARG))
			return type_mismatch(v, s, pc, reg, "sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_");
		if (arg_trust(v, s, pc, reg, ci) ||
		    want_ptr_nonnull(v, s, pc, reg, "sock_common, sock, tcp_sock, xdp_sock, ptr_, trusted_ptr_"))
			return -1;
		return arg_btf_type(v, s, pc, reg, ci, "sock_common");
	case BG_ARG_BTF_ID_OR_NULL:
		if (is_null_const(r) || ((ci->p->flags & BG_HF_KFUNC) && !kfunc_param_struct(v, pc, i)))
			return 0;
		return arg_trust(v, s, pc, reg, ci) ? -1 : arg_btf_type(v, s, pc, reg, ci, ci->p->arg_btf[i]);
	case BG_ARG_PERCPU_BTF_ID:
		return arg_percpu(v, s, pc, reg, ci);
	case BG_ARG_BTF_ID:
		/* KF_ARG_PTR_TO_ALLOC_BTF_ID: bpf_obj_drop frees a local object,
		 * bpf_percpu_obj_drop a percpu one */
		if ((ci->p->flags & BG_HF_KFUNC) && (ci->p->flags & BG_HF_RELEASE) && !(ci->p->flags & BG_HF_NODE_ARG) &&
		    ci->p->release_arg == reg && r->type == T_BTF_ID && (r->flags & RF_ALLOC) &&
		    !(r->flags & RF_PERCPU) != !(ci->p->flags & BG_HF_PERCPU))
			return verr(v, s, pc, "kfunc_arg", "arg#%d expected for %s() (R%d type=%s%s)", i,
				    (r->flags & RF_PERCPU) ? "bpf_percpu_obj_drop_impl" : "bpf_obj_drop_impl", reg,
				    btf_ptr_name(r), r->btf ? r->btf : "");
		/* check_kfunc_args (reg2btf_ids): a map pointer is a struct bpf_map */
		if (r->type == T_MAP_PTR && (ci->p->flags & BG_HF_KFUNC)) {
			const char *sn = kfunc_param_struct(v, pc, i);
			if (sn && !strcmp(sn, "bpf_map"))
				return 0;
		}
		if (!rg_has(r->type, RG_KOBJ_ARG))
			return type_mismatch(v, s, pc, reg, ci->p->arg_btf[i] ? ci->p->arg_btf[i] : "ptr_");
		/* a helper: its type first, then NULL (check_reg_type); a kfunc:
		 * NULL first (check_kfunc_args), trust only for its struct
		 * pointers (KF_ARG_PTR_TO_BTF_ID) */
		if (!(ci->p->flags & BG_HF_KFUNC))
			return arg_trust(v, s, pc, reg, ci) || want_ptr_nonnull(v, s, pc, reg, "ptr_")
				       ? -1
				       : arg_btf_type(v, s, pc, reg, ci, ci->p->arg_btf[i]);
		if (want_ptr_nonnull(v, s, pc, reg, "ptr_"))
			return -1;
		return kfunc_param_struct(v, pc, i) ? arg_trust(v, s, pc, reg, ci) : 0;
	case BG_ARG_SPIN_LOCK:
		if (r->type == T_BTF_ID && (r->flags & RF_ALLOC))
			return arg_local_lock(v, s, pc, reg, "bpf_spin_lock");
		/* fall through */
	case BG_ARG_TIMER:
		if (r->type != T_MAP_VALUE)
			return type_mismatch(v, s, pc, reg, "map_value");
		if (want_ptr_nonnull(v, s, pc, reg, "map_value"))
			return -1;
		return arg_map_field(v, s, pc, reg, at == BG_ARG_SPIN_LOCK ? "bpf_spin_lock" : "bpf_timer");
	case BG_ARG_KPTR: {
		/* bpf_kptr_xchg's destination: a kptr field of a map value. Only a
		 * precise map value pointer is judged (a joined one has no offset) */
		uint64_t c;
		const struct bg_map_def *m =
			r->type == T_MAP_VALUE ? bg_object__map(v->obj, (size_t)r->map) : NULL;
		if (m && !(r->flags & RF_NULL) && bg_scalar_is_const(&r->v, &c) &&
		    btf_map_is_kptr(v->prog, m->btf_value_type_id, (int)c, vctx_kver(v)) == 0)
			return verr(v, s, pc, "helper_arg", "R%d has no valid kptr (map %s, value offset %" PRIu64 ")",
				    reg, m->name ? m->name : "?", c);
		/* a local object stashed: of the field's type exactly, percpu
		 * into a percpu kptr only (map_kptr_match_type) */
		const char *kname = NULL;
		const struct as_reg *o = R(s, reg + 1);
		int kind = m && !(r->flags & RF_NULL) && bg_scalar_is_const(&r->v, &c)
				   ? btf_map_kptr_kind(v->prog, m->btf_value_type_id, (int)c, &kname, vctx_kver(v))
				   : BTF_KPTR_NONE;
		if (kind != BTF_KPTR_NONE && kname && o->type == T_BTF_ID && (o->flags & RF_ALLOC) && o->btf &&
		    (strcmp(kname, o->btf) || !(o->flags & RF_PERCPU) != (kind != BTF_KPTR_PERCPU)))
			return verr(v, s, pc, "helper_arg", "invalid kptr access, R%d type=%s%s expected=ptr_%s", reg + 1,
				    btf_ptr_name(o), o->btf, kname);
		return 0;
	}
	case BG_ARG_RINGBUF_MEM: {
		uint64_t c;
		if (r->type != T_RINGBUF_MEM)
			return type_mismatch(v, s, pc, reg, "ringbuf_mem");
		if (want_ptr_nonnull(v, s, pc, reg, "ringbuf_mem"))
			return -1;
		if (!bg_scalar_is_const(&r->v, &c) || c != 0)
			return verr(v, s, pc, "helper_arg", "R%d must have zero offset when passed to release func", reg);
		return 0;
	}
	case BG_ARG_GRAPH_ROOT:
		return arg_graph_root(v, s, pc, reg, ci);
	case BG_ARG_GRAPH_NODE:
		return arg_graph_node(v, s, pc, reg, ci);
	case BG_ARG_FUNC:
		if (r->type != T_FUNC)
			return type_mismatch(v, s, pc, reg, "func");
		return 0;
	case BG_ARG_STACK_OR_NULL:
		if (is_null_const(r) || r->type == T_STACK || r->type == T_MAP_VALUE)
			return 0;
		return type_mismatch(v, s, pc, reg, "fp");
	case BG_ARG_LONG:
	case BG_ARG_INT: {
		struct bg_scalar sz = bg_scalar_const(at == BG_ARG_LONG ? 8 : 4);
		if (!rg_has(r->type, RG_MEM_ARG))
			return type_mismatch(v, s, pc, reg, "fp,map_value");
		if (want_ptr_nonnull(v, s, pc, reg, "mem"))
			return -1;
		if (check_mem_range(v, s, pc, reg, &sz, true, false, "integer result"))
			return -1;
		return check_align(v, s, pc, reg, 0, (int)sz.umax, true);
	}
	case BG_ARG_CONST_STR:
		return arg_const_str(v, s, pc, reg);
	case BG_ARG_DYNPTR:
		if (r->type != T_STACK && r->type != T_DYNPTR_PTR)
			return type_mismatch(v, s, pc, reg, "dynptr on the stack");
		return 0;
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ results */

static void set_r0(struct vctx *v, struct as_state *s, size_t pc, struct call_info *ci, uint8_t type)
{
	struct as_reg *r0 = R(s, 0);
	as_reg_uninit(r0);
	r0->type = type;
	r0->flags = RF_NULL;
	r0->v = bg_scalar_const(0);
	uint32_t id = vid(v, pc, 3);
	as_forget_id(s, id);
	r0->id = id;
	(void)ci;
}

/* A program-local object returned (BG_HF_LOCAL_RET): bpf_obj_new's type id
 * argument, bpf_refcount_acquire's object, or the struct a graph root
 * contains, pointing at its node field (the program subtracts the node's
 * offset: container_of). */
static int local_ret(struct vctx *v, struct as_state *s, size_t pc, const struct call_info *ci,
		     const struct as_reg *args, struct as_reg *r0)
{
	uint64_t c;
	if (ci->has_root) {
		if (!ci->root.contains || ci->root.node_off < 0)
			return 0; /* the node's struct unknown: a plain BTF pointer */
		r0->btf = ci->root.contains;
		r0->v = bg_scalar_const((uint64_t)ci->root.node_off);
	} else if (args[0].type == T_BTF_ID) {
		/* bpf_refcount_acquire: of an owning reference it cannot fail */
		if (!(args[0].flags & RF_ALLOC) || (args[0].flags & RF_UNTRUSTED))
			return verr(v, s, pc, "kfunc_arg", "arg#0 is neither owning or non-owning ref");
		if (graph_find_field(v->prog, 0, args[0].btf, "bpf_refcount") < 0)
			return verr(v, s, pc, "kfunc_arg", "arg#0 doesn't point to a type with bpf_refcount field");
		r0->btf = args[0].btf;
		if (args[0].ref)
			r0->flags &= (uint8_t)~RF_NULL;
	} else {
		if (args[0].type != T_SCALAR || !bg_scalar_is_const(&args[0].v, &c))
			return verr(v, s, pc, "kfunc_arg", "local type ID argument must be a constant");
		r0->btf = graph_local_struct(v->prog, c, NULL);
		if (!r0->btf)
			return verr(v, s, pc, "kfunc_arg", "bpf_obj_new/bpf_percpu_obj_new type ID argument must be of a struct");
		if (ci->p->flags & BG_HF_PERCPU) {
			const char *why = graph_percpu_refused(v->prog, c);
			if (why && !strcmp(why, "size"))
				return verr(v, s, pc, "kfunc_arg", "bpf_percpu_obj_new type size (%u) is greater than %d",
					    graph_local_size(v->prog, r0->btf), GRAPH_PERCPU_MAX_SIZE);
			if (why && !strcmp(why, "scalars"))
				return verr(v, s, pc, "kfunc_arg",
					    "bpf_percpu_obj_new type ID argument must be of a struct of scalars (struct %s)", r0->btf);
			if (why)
				return verr(v, s, pc, "kfunc_arg",
					    "bpf_percpu_obj_new type ID argument must not contain special fields (struct %s)", r0->btf);
			r0->flags |= RF_PERCPU;
		}
	}
	r0->flags |= RF_ALLOC;
	return 0;
}

/* bpf_per_cpu_ptr / bpf_this_cpu_ptr (RET_PTR_TO_MEM_OR_BTF_ID): one CPU's
 * copy of the percpu memory in R1. A percpu kptr's object (RCU) gives the
 * program's struct (MEM_ALLOC | MEM_RCU: read and written); a percpu
 * variable of struct type a plain BTF pointer to it, of another type
 * read-only memory of its size; of a variable bpf_per_cpu_ptr may give
 * NULL. */
static void percpu_ret(struct vctx *v, struct as_state *s, size_t pc, struct call_info *ci, const struct as_reg *a,
		       bool or_null)
{
	struct as_reg *r0 = R(s, 0);
	if (a->btf) {
		set_r0(v, s, pc, ci, T_BTF_ID);
		r0->btf = a->btf;
		r0->flags |= (a->flags & RF_RCU) ? RF_ALLOC | RF_RCU : RF_PLAIN;
	} else {
		set_r0(v, s, pc, ci, T_MEM);
		r0->size = a->size;
		r0->flags |= RF_RDONLY;
	}
	/* the object of a percpu kptr comes back without PTR_MAYBE_NULL even
	 * from bpf_per_cpu_ptr (the kernel's returns_cpu_specific_alloc_ptr
	 * drops the return flags) */
	if (!or_null || (a->btf && (a->flags & RF_RCU))) {
		r0->flags &= (uint8_t)~RF_NULL;
		r0->id = 0;
	}
}

/* bpf_rdonly_cast: an untrusted pointer to the struct whose id in the
 * target BTF the constant arg is (0, void: read-only untrusted memory, kept
 * as an untrusted pointer of no known struct); any other type is refused
 * (6.18's message; 6.12 refused void too). */
static int cast_ret(struct vctx *v, struct as_state *s, size_t pc, const struct as_reg *id, struct as_reg *r0)
{
	uint64_t c;
	r0->flags = RF_UNTRUSTED;
	if (id->type != T_SCALAR || !bg_scalar_is_const(&id->v, &c) || !tl_kbtf)
		return 0;
	if (c == 0)
		return 0;
	const struct btf_type *t = c < btf__type_cnt(tl_kbtf) ? btf__type_by_id(tl_kbtf, (uint32_t)c) : NULL;
	if (!t || !btf_is_composite(t)) /* btf_type_is_struct: a union too */
		return verr(v, s, pc, "kfunc_arg", "kfunc bpf_rdonly_cast type ID argument must be of a struct or void");
	r0->btf = btf__name_by_offset(tl_kbtf, t->name_off);
	return 0;
}

static int ret_value(struct vctx *v, struct as_state *s, size_t pc, struct call_info *ci,
		     const struct as_reg *args)
{
	const struct bg_helper_proto *p = ci->p;
	struct as_reg *r0 = R(s, 0);
	switch (p->ret) {
	case BG_RET_VOID:
		as_reg_uninit(r0);
		return 0;
	case BG_RET_INTEGER:
		as_reg_unknown(r0);
		if (p->ret_min <= p->ret_max)
			r0->v = bg_scalar_srange(p->ret_min, p->ret_max);
		/* bytes written, at most the size argument's bound (the kernel's
		 * do_refine_retval_range: smax = s32_max = msize_max_value) */
		if ((p->flags & BG_HF_RET_SIZE_BOUND) && p->size_arg >= 1 && p->size_arg <= 5 &&
		    args[p->size_arg - 1].type == T_SCALAR && args[p->size_arg - 1].v.umax <= INT32_MAX &&
		    p->ret_min <= (int64_t)args[p->size_arg - 1].v.umax && p->ret_min >= INT32_MIN) {
			int64_t hi = (int64_t)args[p->size_arg - 1].v.umax;
			r0->v = bg_scalar_srange(p->ret_min, hi);
			/* the low half too (the 64-bit range crosses zero) */
			r0->v.s32min = (int32_t)p->ret_min;
			r0->v.s32max = (int32_t)hi;
			bg_scalar_reduce(&r0->v);
		}
		return 0;
	case BG_RET_MAP_VALUE_OR_NULL: {
		if (!ci->map) {
			as_reg_unknown(r0);
			return 0;
		}
		uint32_t mt = ci->map->type;
		if (mt == BPF_MAP_TYPE_SOCKMAP || mt == BPF_MAP_TYPE_SOCKHASH) {
			/* a socket with a reference */
			set_r0(v, s, pc, ci, T_SOCK);
			r0->ref = r0->id;
			if (as_ref_add(s, r0->ref, (uint32_t)pc, T_SOCK))
				return verr(v, s, pc, "ref_leak", "too many references held");
			return 0;
		}
		if (mt == BPF_MAP_TYPE_ARRAY_OF_MAPS || mt == BPF_MAP_TYPE_HASH_OF_MAPS) {
			set_r0(v, s, pc, ci, T_MAP_PTR);
			r0->map = ci->map->inner_map >= 0 ? ci->map->inner_map : ci->map_idx;
			return 0;
		}
		set_r0(v, s, pc, ci, T_MAP_VALUE);
		r0->map = ci->map_idx;
		if (ci->map->readonly)
			r0->flags |= RF_RDONLY;
		/* an inner array of BPF_F_INNER_MAP may be replaced by one of
		 * another size: its lookups stay NULL-able (can_elide_value_nullness) */
		if ((mt == BPF_MAP_TYPE_ARRAY || mt == BPF_MAP_TYPE_PERCPU_ARRAY) && ci->key_const &&
		    !(ci->map->map_flags & BPF_F_INNER_MAP) &&
		    ci->key_val < ci->map->max_entries && ci->id == BPF_FUNC_map_lookup_elem &&
		    kf_has(v, BG_KF_CONST_KEY_LOOKUP))
			r0->flags &= (uint8_t)~RF_NULL;
		return 0;
	}
	case BG_RET_MAP_VALUE:
		/* bpf_get_local_storage: the program's cgroup storage, never NULL,
		 * hence no flags (it cannot fail) */
		if (!ci->map) {
			as_reg_unknown(r0);
			return 0;
		}
		if (ci->map->type != BPF_MAP_TYPE_CGROUP_STORAGE && ci->map->type != BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE)
			return verr(v, s, pc, "map_type", "cannot pass map_type %u into func %s#%u", ci->map->type,
				    p->name, p->id);
		if (!is_null_const(&args[1]))
			return verr(v, s, pc, "helper_arg", "get_local_storage() doesn't support non-zero flags");
		set_r0(v, s, pc, ci, T_MAP_VALUE);
		r0->map = ci->map_idx;
		r0->flags = 0;
		r0->id = 0;
		return 0;
	case BG_RET_DYNPTR_MEM_OR_NULL: {
		/* bpf_dynptr_data(p, off, len), bpf_dynptr_slice[_rdwr](p, off, buf,
		 * len): NULL or len bytes (len a constant, the last argument), a
		 * slice of the dynptr: it dies with the dynptr (overwritten,
		 * re-initialized; bpf_dynptr_data's also when a ringbuf dynptr is
		 * released: it holds the reference) and, for skb/xdp dynptrs, when
		 * the packet may move */
		uint64_t c = 0;
		const struct as_reg *sz = p->nargs >= 1 && p->nargs <= 5 ? &args[p->nargs - 1] : NULL;
		if (!sz || sz->type != T_SCALAR || !bg_scalar_is_const(&sz->v, &c) || c > (1u << 29)) {
			as_reg_unknown(r0);
			return 0;
		}
		bool kfunc = (p->flags & BG_HF_KFUNC) != 0;
		if (kfunc && strcmp(p->name, "bpf_dynptr_slice") && v->pol && !v->pol->pkt_write)
			return verr(v, s, pc, "pkt_write", "the prog does not allow writes to packet data (%s)", p->name);
		set_r0(v, s, pc, ci, T_MEM);
		r0->size = (uint32_t)c;
		r0->dkind = ci->dyn.dkind;
		r0->dynptr = ci->dyn.dynptr;
		if (!kfunc)
			r0->ref = ci->dyn.ref;
		else if (!strcmp(p->name, "bpf_dynptr_slice"))
			r0->flags |= RF_RDONLY;
		return 0;
	}
	case BG_RET_SOCKET_OR_NULL:
		set_r0(v, s, pc, ci, T_SOCK);
		break;
	case BG_RET_TCP_SOCK_OR_NULL:
		set_r0(v, s, pc, ci, T_TCP_SOCK);
		break;
	case BG_RET_SOCK_COMMON_OR_NULL:
		set_r0(v, s, pc, ci, T_SOCK_COMMON);
		break;
	case BG_RET_ALLOC_MEM_OR_NULL: {
		set_r0(v, s, pc, ci, T_RINGBUF_MEM);
		uint64_t c = 0;
		if (args[1].type == T_SCALAR && bg_scalar_is_const(&args[1].v, &c))
			r0->size = (uint32_t)c;
		else
			return verr(v, s, pc, "helper_arg", "R2 is not a known constant (ringbuf record size)");
		break;
	}
	case BG_RET_MEM_OR_BTF_ID_OR_NULL:
	case BG_RET_MEM_OR_BTF_ID:
		if (!(p->flags & BG_HF_KFUNC) && args[0].type == T_BTF_ID && (args[0].flags & RF_PERCPU)) {
			percpu_ret(v, s, pc, ci, &args[0], p->ret == BG_RET_MEM_OR_BTF_ID_OR_NULL);
			return 0;
		}
		set_r0(v, s, pc, ci, T_MEM);
		r0->size = (p->flags & BG_HF_ITER_NEXT) ? 4 : 8;
		r0->flags |= RF_RDONLY;
		if (p->ret == BG_RET_MEM_OR_BTF_ID)
			r0->flags &= (uint8_t)~RF_NULL;
		return 0;
	case BG_RET_BTF_ID_OR_NULL:
		set_r0(v, s, pc, ci, T_BTF_ID);
		r0->btf = p->ret_btf;
		if ((p->flags & BG_HF_LOCAL_RET) && local_ret(v, s, pc, ci, args, r0))
			return -1;
		break;
	case BG_RET_KPTR_OR_NULL: {
		/* bpf_kptr_xchg: the object the field held (a reference), or NULL */
		const char *kname = NULL;
		uint64_t c;
		const struct bg_map_def *m =
			args[0].type == T_MAP_VALUE ? bg_object__map(v->obj, (size_t)args[0].map) : NULL;
		/* the field's type unknown (an imprecise map value pointer): still
		 * a reference to an object, of no known type */
		int kind = m && bg_scalar_is_const(&args[0].v, &c)
				   ? btf_map_kptr_kind(v->prog, m->btf_value_type_id, (int)c, &kname, vctx_kver(v))
				   : BTF_KPTR_NONE;
		if (kind == BTF_KPTR_NONE)
			kname = NULL;
		set_r0(v, s, pc, ci, T_BTF_ID);
		r0->btf = kname;
		if (kname && vctx_is_local(v, kname))
			r0->flags |= RF_ALLOC;
		if (kname && kind == BTF_KPTR_PERCPU)
			r0->flags |= RF_PERCPU;
		break;
	}
	case BG_RET_MEM_U64:
		set_r0(v, s, pc, ci, T_MEM);
		r0->size = 8;
		r0->flags &= (uint8_t)~RF_NULL;
		r0->id = 0;
		return 0;
	case BG_RET_BTF_ID:
		as_reg_uninit(r0);
		r0->type = T_BTF_ID;
		r0->btf = p->ret_btf;
		r0->v = bg_scalar_const(0);
		if ((p->flags & BG_HF_CAST_RET) && cast_ret(v, s, pc, &args[1], r0))
			return -1;
		break;
	default:
		as_reg_unknown(r0);
		return 0;
	}
	/* a helper's BTF pointer is plain unless declared trusted (the
	 * kernel's RET_PTR_TO_BTF_ID vs RET_PTR_TO_BTF_ID_TRUSTED); so is a
	 * kfunc's, unless it is a new reference, an iterator's next element,
	 * a program-local object, a cast or declared trusted (check_kfunc_call
	 * marks PTR_TRUSTED only for iter_next and bpf_cast_to_kern_ctx; a
	 * reference is trusted by its ref_obj_id) */
	if ((p->ret == BG_RET_BTF_ID || p->ret == BG_RET_BTF_ID_OR_NULL) &&
	    !(p->flags & (BG_HF_RET_TRUSTED | BG_HF_ACQUIRE | BG_HF_ITER_NEXT | BG_HF_LOCAL_RET | BG_HF_CAST_RET)))
		r0->flags |= RF_PLAIN;
	if (!(p->flags & BG_HF_KFUNC) && bg_helper_ptr_cast(ci->id) && args[0].ref)
		r0->ref = args[0].ref; /* a view of a referenced socket: released with it */
	if (p->flags & BG_HF_ACQUIRE) {
		/* a result never NULL (bpf_cpumask_acquire) has no NULL-check id */
		r0->ref = r0->id ? r0->id : vid(v, pc, 9);
		if (as_ref_add(s, r0->ref, (uint32_t)pc, r0->type))
			return verr(v, s, pc, "ref_leak", "too many references held");
	}
	return 0;
}

static void kill_ref(struct as_reg *r, void *p)
{
	uint32_t ref = *(uint32_t *)p;
	if (r->ref == ref)
		as_reg_unknown(r);
}

static void to_non_owning(struct as_reg *r, void *p)
{
	if (r->ref != *(uint32_t *)p)
		return;
	if (r->type == T_BTF_ID && (r->flags & RF_ALLOC))
		r->ref = 0;
	else
		as_reg_unknown(r);
}

static void percpu_stashed(struct as_reg *r, void *p)
{
	if (r->ref != *(uint32_t *)p)
		return;
	if (r->type == T_BTF_ID && (r->flags & RF_PERCPU)) {
		r->ref = 0;
		r->flags = (uint8_t)((r->flags & ~RF_ALLOC) | RF_RCU);
	} else {
		as_reg_unknown(r);
	}
}

static int do_release(struct vctx *v, struct as_state *s, size_t pc, struct call_info *ci)
{
	int reg = ci->p->release_arg;
	if (reg < 1 || reg > 5)
		return 0;
	struct as_reg *r = R(s, reg);
	if (is_null_const(r) &&
	    (ci->p->args[reg - 1] == BG_ARG_SOCKET_OR_NULL || ci->p->args[reg - 1] == BG_ARG_BTF_ID_OR_NULL))
		return 0;
	if (!r->ref || !as_ref_held(s, r->ref))
		return verr(v, s, pc, "release", "release of non-referenced or already released object: R%d (%s)",
			    reg, as_type_name(r->type, r->flags));
	/* a kfunc releases the object itself, not a pointer into it (offsets
	 * of objects popped from a list/rbtree count from the node here, so
	 * only an offset above 0 is surely wrong) */
	if ((ci->p->flags & BG_HF_KFUNC) && !(ci->p->flags & BG_HF_NODE_ARG) && r->type == T_BTF_ID &&
	    r->v.smin > 0)
		return verr(v, s, pc, "release",
			    "R%d must have zero offset when passed to release func or trusted arg to kfunc", reg);
	uint32_t ref = r->ref;
	as_ref_del(s, ref);
	if (ci->id == BPF_FUNC_kptr_xchg && !(ci->p->flags & BG_HF_KFUNC) && r->type == T_BTF_ID &&
	    (r->flags & (RF_ALLOC | RF_PERCPU)) == (RF_ALLOC | RF_PERCPU) && in_rcu_cs(v, s)) {
		/* a percpu object stashed inside an RCU section stays usable
		 * there (MEM_PERCPU | MEM_RCU) */
		for_each_reg(s, percpu_stashed, &ref);
		return 0;
	}
	if (ci->p->flags & BG_HF_NODE_ARG) {
		/* inserted into a list/rbtree: every copy becomes a non-owning
		 * reference, valid until the lock is released */
		for_each_reg(s, to_non_owning, &ref);
		return 0;
	}
	for (uint32_t f = 0; f < s->nframes; f++) {
		struct as_frame *fr = &s->fr[f];
		for (int i = 0; i < 11; i++)
			kill_ref(&fr->r[i], &ref);
		if (!fr->nslots || as_frame_own(fr))
			continue; /* no memory: as_oom_take() stops the analysis */
		for (uint32_t k = 0; k < fr->nslots; k++)
			if (fr->slots[k].kind == SK_SPILL)
				kill_ref(&fr->slots[k].spill, &ref);
	}
	return 0;
}

/* The lock released: non-owning references to local objects (graph nodes
 * inserted under it, bpf_rbtree_first results) are gone (the kernel's
 * invalidate_non_owning_refs marks them unknown scalars). */
static void non_owning_gone(struct as_reg *r, void *arg)
{
	(void)arg;
	if (r->type == T_BTF_ID && (r->flags & RF_ALLOC) && !r->ref && !(r->flags & RF_RCU))
		as_reg_unknown(r);
}

/* The spin lock taken or released (the discipline is checked before, by
 * the A_CALL_LOCK assertion). */
static void lock_ops(struct as_state *s, uint32_t id)
{
	if (id == BPF_FUNC_spin_lock) {
		s->lock = as_lock_of(R(s, 1), &s->lock_id);
	} else if (id == BPF_FUNC_spin_unlock) {
		s->lock = AS_LOCK_NONE;
		s->lock_id = 0;
		for_each_reg(s, non_owning_gone, NULL);
	}
}

/* Stack objects: open-coded iterators and dynptrs live in stack slots and
 * carry a reference (destroy / submit / discard releases it). */
static int stack_obj_slot(struct vctx *v, struct as_state *s, size_t pc, int reg, struct as_slot **out,
			  struct as_frame **fout)
{
	struct as_reg *r = R(s, reg);
	uint64_t c;
	if (r->type != T_STACK || !bg_scalar_is_const(&r->v, &c) || (int64_t)c >= 0 || ((int64_t)c & 7))
		return verr(v, s, pc, "helper_arg", "R%d must point to a stack slot at a constant, aligned offset", reg);
	struct as_frame *f = &s->fr[r->frame];
	*out = as_slot_get(f, (int)((-(int64_t)c - 1) / 8), true);
	*fout = f;
	return *out ? 0 : vnomem(v);
}

static int iter_op(struct vctx *v, struct as_state *s, size_t pc, const struct bg_helper_proto *p,
		   const char *name)
{
	struct as_slot *sl;
	struct as_frame *f;
	if (stack_obj_slot(v, s, pc, 1, &sl, &f))
		return -1;
	if (p->flags & BG_HF_ITER_NEW) {
		if (sl->kind == SK_ITER)
			return verr(v, s, pc, "iter", "expected uninitialized iter as arg #0 of %s", name);
		uint32_t id = vid(v, pc, 6);
		sl->kind = SK_ITER;
		sl->init = 0xff;
		sl->zero = 0;
		as_reg_uninit(&sl->spill);
		sl->spill.ref = id;
		/* mark_stack_slots_iter: MEM_RCU inside an RCU section, else
		 * PTR_UNTRUSTED */
		if (p->flags & BG_HF_RCU_PROTECTED)
			sl->spill.flags = in_rcu_cs(v, s) ? RF_RCU : RF_UNTRUSTED;
		if (as_ref_add(s, id, (uint32_t)pc, T_MEM))
			return verr(v, s, pc, "ref_leak", "too many references held");
		return 0;
	}
	if (sl->kind != SK_ITER)
		return verr(v, s, pc, "iter", "expected an initialized iter as arg #0 of %s", name);
	/* is_iter_reg_valid_init: -EPROTO */
	if (sl->spill.flags & RF_UNTRUSTED)
		return verr(v, s, pc, "iter", "expected an RCU CS when using %s", name);
	if (p->flags & BG_HF_ITER_DESTROY) {
		as_ref_del(s, sl->spill.ref);
		sl->kind = SK_NONE;
		sl->spill.ref = 0;
	}
	return 0;
}

/* A dynptr takes 16 bytes: the slot the argument points to and the one above
 * it (the kernel's spi and spi - 1), which holds the tail. */
static int dynptr_tail(struct vctx *v, struct as_frame *f, int idx)
{
	if (idx == 0)
		return 0;
	struct as_slot *t = as_slot_get(f, idx - 1, true);
	if (!t)
		return vnomem(v);
	t->kind = SK_OBJ_TAIL;
	t->init = 0xff;
	t->zero = 0;
	t->spill_size = 0;
	as_reg_uninit(&t->spill);
	return 0;
}

/* A dynptr made in the slot of argument reg (the kernel's
 * mark_stack_slots_dynptr): whatever the two slots held is destroyed first
 * (a referenced dynptr there is an error), then the slot takes a fresh id,
 * its kind and its reference (a new one for a ringbuf reservation, the
 * parent's for a clone). */
static int dynptr_make(struct vctx *v, struct as_state *s, size_t pc, const struct bg_helper_proto *p,
		       int reg, enum bg_dynptr_kind kind, struct call_info *ci)
{
	struct as_slot *sl;
	struct as_frame *f;
	if (stack_obj_slot(v, s, pc, reg, &sl, &f))
		return -1;
	int idx = sl->idx;
	if (sl->kind == SK_DYNPTR && sl->spill.ref)
		return verr(v, s, pc, "dynptr", "cannot overwrite referenced dynptr (%s)", p->name);
	if (stack_write_objs(v, s, pc, f, -8 * (idx + 1), -8 * (idx - 1)))
		return -1;
	sl = as_slot_get(f, idx, true);
	if (!sl)
		return vnomem(v);
	sl->kind = SK_DYNPTR;
	sl->init = 0xff;
	sl->zero = 0;
	sl->spill_size = 0;
	as_reg_uninit(&sl->spill);
	sl->spill.dynptr = vid(v, pc, 8);
	if (kind == BG_DYNPTR_PARENT) {
		sl->spill.dkind = ci->dyn.dkind;
		sl->spill.ref = ci->dyn.ref;
	} else {
		sl->spill.dkind = (uint8_t)kind;
	}
	if (p->flags & BG_HF_ACQUIRE) {
		uint32_t id = vid(v, pc, 7);
		sl->spill.ref = id;
		if (as_ref_add(s, id, (uint32_t)pc, T_MEM))
			return verr(v, s, pc, "ref_leak", "too many references held");
	}
	return dynptr_tail(v, f, idx);
}

/* A referenced dynptr released (ringbuf submit/discard: the kernel's
 * unmark_stack_slots_dynptr): the reference goes, with every register
 * holding it (slices from bpf_dynptr_data) and every clone in the frame. */
static void dynptr_release(struct as_state *s, struct as_frame *f, uint32_t ref)
{
	as_ref_del(s, ref);
	for_each_reg(s, kill_ref, &ref);
	for (uint32_t k = 0; k < f->nslots; k++)
		if (f->slots[k].kind == SK_DYNPTR && f->slots[k].spill.ref == ref)
			as_dynptr_forget(f, f->slots[k].idx);
}

int call_dynptr_ptr_off(struct vctx *v, struct as_state *s, size_t pc, int reg)
{
	const struct as_reg *r = R(s, reg);
	uint64_t c;
	if (!bg_scalar_is_const(&r->v, &c))
		return verr(v, s, pc, "dynptr", "variable dynptr_ptr access R%d disallowed", reg);
	if ((int64_t)c < 0)
		return verr(v, s, pc, "dynptr", "negative offset dynptr_ptr ptr R%d off=%" PRId64 " disallowed", reg,
			    (int64_t)c);
	if (c)
		return verr(v, s, pc, "dynptr", "dereference of modified dynptr_ptr ptr R%d off=%" PRId64 " disallowed",
			    reg, (int64_t)c);
	return 0;
}

void call_dynptr_ptr_new(struct vctx *v, size_t pc, struct as_reg *r)
{
	as_reg_uninit(r);
	r->type = T_DYNPTR_PTR;
	r->v = bg_scalar_const(0);
	r->dkind = BG_DYNPTR_LOCAL;
	r->dynptr = vid(v, pc, 8);
}

/* A dynptr_ptr as dynptr argument reg (process_dynptr_func): the dynptr it
 * points to is read-only here: never released, never (re)initialized. */
static int dynptr_ptr_arg(struct vctx *v, struct as_state *s, size_t pc, const struct bg_helper_proto *p, int reg,
			  bool made, struct call_info *ci)
{
	const struct as_reg *r = R(s, reg);
	if (call_dynptr_ptr_off(v, s, pc, reg))
		return -1;
	if ((p->flags & BG_HF_RELEASE) && p->release_arg == reg)
		return verr(v, s, pc, "release", "cannot release unowned const bpf_dynptr (%s)", p->name);
	if (made)
		return verr(v, s, pc, "dynptr", "Dynptr has to be an uninitialized dynptr (arg #%d of %s)", reg,
			    p->name);
	if (ci->dyn.dkind == BG_DYNPTR_NONE)
		ci->dyn = *r;
	return 0;
}

static int dynptr_args(struct vctx *v, struct as_state *s, size_t pc, const struct bg_helper_proto *p,
		       struct call_info *ci)
{
	enum bg_dynptr_kind kind = BG_DYNPTR_NONE;
	int made = bg_dynptr_ctor(p->name, &kind);
	for (int i = 0; i < 5; i++) {
		if (p->args[i] != BG_ARG_DYNPTR)
			continue;
		if (R(s, i + 1)->type == T_DYNPTR_PTR) {
			if (dynptr_ptr_arg(v, s, pc, p, i + 1, made == i + 1, ci))
				return -1;
			continue;
		}
		if (made == i + 1) {
			if (dynptr_make(v, s, pc, p, i + 1, kind, ci))
				return -1;
			continue;
		}
		struct as_slot *sl;
		struct as_frame *f;
		if (stack_obj_slot(v, s, pc, i + 1, &sl, &f))
			return -1;
		bool rel = (p->flags & BG_HF_RELEASE) && p->release_arg == i + 1;
		/* check_func_arg: a released dynptr argument must hold a
		 * reference before it is checked as a dynptr at all (an
		 * uninitialized, released or local one alike) */
		if (rel && (sl->kind != SK_DYNPTR || !sl->spill.ref || !as_ref_held(s, sl->spill.ref)))
			return verr(v, s, pc, "release", "arg %d is an unacquired reference (%s releases it)", i + 1,
				    p->name);
		if (sl->kind != SK_DYNPTR)
			return verr(v, s, pc, "dynptr", "Expected an initialized dynptr as arg #%d of %s", i + 1, p->name);
		if (ci->dyn.dkind == BG_DYNPTR_NONE)
			ci->dyn = sl->spill;
		if (rel)
			dynptr_release(s, f, sl->spill.ref);
	}
	return 0;
}

static bool has_dynptr_arg(const struct bg_helper_proto *p)
{
	for (int i = 0; i < 5; i++)
		if (p->args[i] == BG_ARG_DYNPTR)
			return true;
	return false;
}

/* The end of an RCU read section: the RCU-protected pointers it let the
 * program hold become untrusted (the kernel's MEM_RCU -> PTR_UNTRUSTED). */
static void rcu_gone(struct as_reg *r, void *arg)
{
	(void)arg;
	if (r->flags & RF_RCU)
		r->flags = (uint8_t)((r->flags & ~(RF_RCU | RF_NULL)) | RF_UNTRUSTED);
}

/* A critical section opened or closed (order checked before: A_SECTION_KFUNC). */
static void section_ops(struct as_state *s, const struct bg_helper_proto *p)
{
	int k;
	if (p->flags & (BG_HF_RCU_LOCK | BG_HF_RCU_UNLOCK))
		k = AS_SEC_RCU;
	else if (p->flags & (BG_HF_SECTION_BEGIN | BG_HF_SECTION_END))
		k = (p->flags & BG_HF_IRQ) ? AS_SEC_IRQ : AS_SEC_PREEMPT;
	else
		return;
	if (s->sec[k] == AS_SEC_MAYBE)
		return;
	if (p->flags & (BG_HF_RCU_LOCK | BG_HF_SECTION_BEGIN))
		s->sec[k] = s->sec[k] + 1 < AS_SEC_MAYBE ? (uint8_t)(s->sec[k] + 1) : AS_SEC_MAYBE;
	else if (s->sec[k])
		s->sec[k]--;
	if (p->flags & BG_HF_RCU_UNLOCK) {
		for_each_reg(s, rcu_gone, NULL);
		/* RCU-protected iterators too (the kernel's clear_mask has STACK_ITER) */
		for (uint32_t fi = 0; fi < s->nframes; fi++) {
			struct as_frame *fr = &s->fr[fi];
			if (!fr->nslots || as_frame_own(fr))
				continue; /* no memory: as_oom_take() stops the analysis */
			for (uint32_t j = 0; j < fr->nslots; j++)
				if (fr->slots[j].kind == SK_ITER)
					rcu_gone(&fr->slots[j].spill, NULL);
		}
	}
}

/* The comparison callback of bpf_rbtree_add runs with the tree's lock held
 * (the kernel's in_rbtree_lock_required_cb): it may call no function but
 * the graph kfuncs that neither insert nor remove. The calls of the
 * callback and of the functions it calls are checked here, in instruction
 * order. */
static int rbtree_cb_calls(struct vctx *v, struct as_state *s, size_t pc, uint32_t start, int depth)
{
	uint32_t f = v->g.nfuncs;
	for (uint32_t i = 0; i < v->g.nfuncs; i++)
		if (v->g.funcs[i].start == start)
			f = i;
	if (f == v->g.nfuncs || depth > 8)
		return 0;
	for (uint32_t i = v->g.funcs[f].start; i < v->g.funcs[f].end; i++) {
		const struct bg_insn *in = &v->insns[i];
		if (in->kind != BG_K_CALL)
			continue;
		if (in->pseudo == BG_CALL_LOCAL) {
			if (in->target >= 0 && rbtree_cb_calls(v, s, pc, (uint32_t)in->target, depth + 1))
				return -1;
			continue;
		}
		if (in->pseudo == BG_CALL_HELPER) {
			if (in->imm == BPF_FUNC_spin_lock || in->imm == BPF_FUNC_spin_unlock)
				return verr(v, s, pc, "lock", "can't spin_{lock,unlock} in rbtree cb (insn %u)", i);
			return verr(v, s, pc, "lock", "function calls are not allowed while holding a lock (insn %u in the rbtree cb)", i);
		}
		const char *name = kfunc_name(v, in);
		const struct bg_helper_proto *p = name ? bg_kfunc_by_name(name) : NULL;
		if (p && (p->flags & (BG_HF_RCU_LOCK | BG_HF_RCU_UNLOCK)))
			return verr(v, s, pc, "lock", "Calling bpf_rcu_read_{lock,unlock} in unnecessary rbtree callback (insn %u)", i);
		if (p && (p->flags & BG_HF_GRAPH) && (p->flags & BG_HF_NODE_ARG))
			return verr(v, s, pc, "graph_arg", "arg#1 expected pointer to allocated object (insn %u in the rbtree cb: no owned node there)", i);
		/* a node argument outside an insertion: bpf_rbtree_remove,
		 * bpf_rbtree_left/right (check_kfunc_args, KF_ARG_PTR_TO_RB_NODE) */
		if (p && (p->flags & BG_HF_GRAPH) && p->args[1] == BG_ARG_GRAPH_NODE)
			return verr(v, s, pc, "graph_arg", "%s not allowed in rbtree cb (insn %u)", p->name, i);
		if (!p || !(p->flags & BG_HF_GRAPH))
			return verr(v, s, pc, "lock", "function calls are not allowed while holding a lock (kfunc %s, insn %u in the rbtree cb)",
				    name ? name : "?", i);
	}
	return 0;
}

/* Has the program-local struct name special fields (the kernel's btf_record:
 * a struct meta)? */
static bool local_has_record(const struct vctx *v, const char *name)
{
	return name && graph_special_in(v->prog, name, 0, (int)graph_local_size(v->prog, name)) != NULL;
}

/* The kernel records the struct meta of the object a bpf_obj_drop (or
 * refcount acquire) call takes in the call's instruction data: on 6.18 one
 * call reached with objects of two types of which one has special fields
 * (calls merged by the compiler) is refused; 6.12 and 7.2 take it
 * (OBJ_DROP_ONE_META, OBJ_DROP_ANY_META). Types without special fields have
 * no meta and never conflict. */
static int local_type_once(struct vctx *v, struct as_state *s, size_t pc, const struct bg_helper_proto *p,
			   const struct as_reg *r)
{
	if (r->type != T_BTF_ID || !(r->flags & RF_ALLOC) || (r->flags & RF_NULL))
		return 0;
	if (!kf_has(v, BG_KF_OBJ_DROP_ONE_META) || kf_has(v, BG_KF_OBJ_DROP_ANY_META))
		return 0;
	if (!v->obj_type_at) {
		v->obj_type_at = calloc(v->n ? v->n : 1, sizeof(*v->obj_type_at));
		if (!v->obj_type_at)
			return vnomem(v);
	}
	const char **seen = &v->obj_type_at[pc];
	if (r->btf && (!*seen || !strcmp(*seen, r->btf) ||
		       (!local_has_record(v, *seen) && !local_has_record(v, r->btf)))) {
		if (!*seen)
			*seen = r->btf;
		return 0;
	}
	return verr(v, s, pc, "kfunc_arg",
		    "%s: one call instruction reached with objects of different types (struct %s, struct %s); "
		    "use separate calls or mark the callee with __attribute__((nomerge))",
		    p->name, *seen ? *seen : "?", r->btf ? r->btf : "?");
}

bool call_throws(struct vctx *v, size_t pc)
{
	const struct bg_insn *in = &v->insns[pc];
	const char *name = in->kind == BG_K_CALL && in->pseudo == BG_CALL_KFUNC ? kfunc_name(v, in) : NULL;
	const struct bg_helper_proto *p = name ? bg_kfunc_by_name(name) : NULL;
	return p && (p->flags & BG_HF_THROW);
}

static bool name_ends(const char *n, const char *sfx)
{
	size_t ln = n ? strlen(n) : 0, ls = strlen(sfx);
	return ln >= ls && !strcmp(n + ln - ls, sfx);
}

/* check_kfunc_args as 6.18 does it (measured; 6.12 did so only for
 * KF_TRUSTED_ARGS, KF_RCU and release kfuncs): a kfunc's memory argument
 * sized by the next one (`x, x__sz`) may not be NULL, unless it is
 * __nullable or __opt. (bpf_xdp_ct_lookup(ctx, NULL, 0, ...),
 * bpf_crypto_ctx_create(NULL, 0, ...) are refused.) */
static int kfunc_null_mem_args(struct vctx *v, struct as_state *s, size_t pc)
{
	const struct btf *b = tl_kbtf;
	if (!v->prof || v->prof->version < BG_KVER(6, 18))
		return 0;
	const struct btf_type *fp = kfunc_proto(v, pc);
	if (!fp)
		return 0;
	const struct btf_param *pa = btf_params(fp);
	for (int i = 0; i + 1 < btf_vlen(fp) && i < 4; i++) {
		const struct btf_type *t = obj_btf_skip_mods(b, pa[i].type, NULL);
		const char *n = btf__name_by_offset(b, pa[i].name_off);
		const struct as_reg *r = R(s, i + 1);
		if (!t || !btf_is_ptr(t) || !name_ends(btf__name_by_offset(b, pa[i + 1].name_off), "__sz") ||
		    name_ends(n, "__nullable") || name_ends(n, "__opt"))
			continue;
		if (is_null_const(r) || (r->type != T_SCALAR && (r->flags & RF_NULL)))
			return verr(v, s, pc, "kfunc_arg", "Possibly NULL pointer passed to trusted arg%d", i);
	}
	return 0;
}

/* check_kfunc_args, KF_ARG_PTR_TO_MEM_SIZE: a kfunc's memory argument
 * followed by its size (`buf, buf__sz`) must be memory the program may read
 * for that many bytes (zero allowed), unless it is an `__opt` buffer passed
 * as NULL. Only for arguments the row leaves unchecked (A) and memory
 * regions (stack, map value, packet, mem); BTF pointers and the ctx take
 * other routes in the kernel (KF_ARG_PTR_TO_BTF_ID / _CTX). */
static int kfunc_sz_mem_args(struct vctx *v, struct as_state *s, size_t pc, const struct bg_helper_proto *p)
{
	const struct btf *b = tl_kbtf;
	const struct btf_type *fp = kfunc_proto(v, pc);
	if (!fp)
		return 0;
	const struct btf_param *pa = btf_params(fp);
	for (int i = 0; i + 1 < btf_vlen(fp) && i < 4; i++) {
		const struct btf_type *t = obj_btf_skip_mods(b, pa[i].type, NULL);
		const char *n = btf__name_by_offset(b, pa[i].name_off);
		struct as_reg *r = R(s, i + 1);
		if (!t || !btf_is_ptr(t) || (i < 3 && p->args[i] != BG_ARG_ANYTHING) ||
		    !name_ends(btf__name_by_offset(b, pa[i + 1].name_off), "__sz"))
			continue;
		/* check_helper_mem_access's default: a number (but a NULL with
		 * size 0, or an __opt NULL) is no memory */
		if (r->type == T_SCALAR && !is_null_const(r))
			return verr(v, s, pc, "kfunc_arg", "R%d type=scalar expected=fp (arg#%d arg#%d memory, len pair)",
				    i + 1, i, i + 1);
		if (!rg_has(r->type, RG_MEM_ARG) || r->type == T_BTF_ID)
			continue;
		bool opt = name_ends(n, "__opt") || name_ends(n, "__nullable");
		if (arg_mem(v, s, pc, i + 1, i + 2, false, opt, true, NULL))
			return -1;
	}
	return 0;
}

/* process_kf_arg_ptr_to_btf_id: a kfunc's struct pointer argument holds an
 * object of its parameter's struct (target BTF), or of a struct that starts
 * with it; strictly that struct for the object a release kfunc drops and
 * between no-cast aliases (nf_conn and nf_conn___init: an allocated
 * conntrack entry is not an inserted one). A kfunc taking a projection
 * (__sk_buff, xdp_md) takes the kernel struct behind it. Objects whose
 * struct bpfgate does not know, program-local objects and pointers off
 * their struct's start are not judged here. */
static int kfunc_struct_args(struct vctx *v, struct as_state *s, size_t pc, const struct bg_helper_proto *p)
{
	for (int i = 0; i < 5; i++) {
		const struct as_reg *r = R(s, i + 1);
		uint64_t c;
		if ((p->args[i] != BG_ARG_BTF_ID && p->args[i] != BG_ARG_BTF_ID_OR_NULL) || r->type != T_BTF_ID ||
		    (r->flags & RF_ALLOC) || !r->btf || !bg_scalar_is_const(&r->v, &c) || c)
			continue;
		const char *want = kfunc_param_struct(v, pc, i);
		const char *kern = bg_ctx_kernel_struct(want);
		if (!want || (kern && !strcmp(kern, r->btf)))
			continue;
		bool strict = ((p->flags & BG_HF_RELEASE) && r->ref) || btf_nocast_alias(r->btf, want);
		if (btf_struct_match(v->prog, r->btf, want, strict) == 0)
			return verr(v, s, pc, "kfunc_arg",
				    "kernel function %s args#%d expected pointer to STRUCT %s but R%d has a pointer to STRUCT %s",
				    p->name, i, want, i + 1, r->btf);
	}
	return 0;
}

/* A kfunc kfuncs.def has no row for (a kernel newer than the table, a
 * module's kfunc): what check_kfunc_call does for a kfunc without KF_*
 * flags, its result typed by its prototype in the target BTF: a struct
 * pointer is a plain PTR_TO_BTF_ID (not NULL-checked, no reference), a
 * pointer to a sized non-struct type read-only memory of that size, the
 * rest (scalars, void *) an unknown scalar. Arguments are not checked, so a
 * release or acquire it would do is not seen (tracked: the table lists
 * every kfunc of the 6.18 vmlinux). */
static int kfunc_no_row(struct vctx *v, struct as_state *s, size_t pc)
{
	const struct btf *b = tl_kbtf;
	const struct btf_type *fp = kfunc_proto(v, pc);
	const struct btf_type *t = fp ? obj_btf_skip_mods(b, fp->type, NULL) : NULL;
	const struct btf_type *pt = t && btf_is_ptr(t) ? obj_btf_skip_mods(b, t->type, NULL) : NULL;
	struct as_reg *r0 = R(s, 0);
	for (int i = 1; i <= 5; i++)
		as_reg_uninit(R(s, i));
	as_reg_unknown(r0);
	if (!pt || btf_is_void(pt))
		return 0;
	if (btf_is_composite(pt)) {
		as_reg_uninit(r0);
		r0->type = T_BTF_ID;
		r0->btf = btf__name_by_offset(b, pt->name_off);
		r0->flags = RF_PLAIN;
		r0->v = bg_scalar_const(0);
		return 0;
	}
	int64_t sz = btf__resolve_size(b, t->type);
	if (sz > 0 && sz <= INT32_MAX) {
		as_reg_uninit(r0);
		r0->type = T_MEM;
		r0->size = (uint32_t)sz;
		r0->flags = RF_RDONLY;
		r0->v = bg_scalar_const(0);
	}
	return 0;
}

/* process_irq_flag for bpf_local_irq_save/restore: the save makes an
 * uninitialized stack slot an irq flag, the restore takes an initialized one,
 * the flag of the innermost open section (release_irq_state: out of order
 * otherwise), and leaves the slot invalid. A write over the flag destroys it
 * (stack_write_bytes). The resilient lock's irqsave pair only gets the
 * on-stack check (its failing branch is not modelled). */
static int irq_flag_op(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct bg_helper_proto *p)
{
	struct as_slot *sl;
	struct as_frame *f;
	if (!(p->flags & BG_HF_IRQ) || !(p->flags & (BG_HF_SECTION_BEGIN | BG_HF_SECTION_END)))
		return 0;
	if (stack_obj_slot(v, s, pc, reg, &sl, &f))
		return -1;
	uint8_t depth = s->sec[AS_SEC_IRQ];
	if (p->flags & BG_HF_SECTION_BEGIN) {
		if (sl->kind == SK_IRQ)
			return verr(v, s, pc, "kfunc_arg", "expected uninitialized irq flag as arg#%d", reg - 1);
		sl->kind = SK_IRQ;
		sl->init = 0xff;
		sl->zero = 0;
		sl->spill_size = 0;
		as_reg_uninit(&sl->spill);
		sl->spill.size = depth;
		return 0;
	}
	if (sl->kind != SK_IRQ)
		return verr(v, s, pc, "kfunc_arg", "expected an initialized irq flag as arg#%d", reg - 1);
	if (depth != AS_SEC_MAYBE && sl->spill.size != AS_SEC_MAYBE && depth && sl->spill.size != depth - 1u)
		return verr(v, s, pc, "section",
			    "cannot restore irq state out of order (the flag at stack off %d was saved at depth %u, %u open)",
			    -8 * (sl->idx + 1), sl->spill.size + 1, depth);
	sl->kind = SK_NONE;
	sl->init = sl->zero = 0;
	as_reg_uninit(&sl->spill);
	return 0;
}

/* The class of each parameter of a kfunc (kfunc_params.def, and whether
 * it is a number), remembered per kernel BTF and kfunc id: a call is
 * analysed many times, its prototype does not change. */
struct kparams {
	const struct btf *b;
	int32_t id;
	uint32_t name_off, proto; /* of the FUNC: a BTF freed and another made at its address */
	uint8_t n;
	uint8_t kind[5];   /* enum bg_kparam */
	bool scalar[5];    /* an integer or enum */
	const char *sn[5]; /* the struct a pointer points to, or NULL */
	const char *word[5];
};
static __thread struct kparams tl_kparams[64];

static const struct kparams *kfunc_params(const struct vctx *v, size_t pc)
{
	const struct btf *b = tl_kbtf;
	int32_t id = v->insns[pc].imm;
	struct kparams *kp = &tl_kparams[(uint32_t)id % 64];
	const struct btf_type *f = b && id > 0 ? btf__type_by_id(b, (uint32_t)id) : NULL;
	if (!f)
		return NULL;
	if (kp->b == b && kp->id == id && kp->name_off == f->name_off && kp->proto == f->type)
		return kp;
	const struct btf_type *fp = kfunc_proto(v, pc);
	if (!fp)
		return NULL;
	memset(kp, 0, sizeof(*kp));
	kp->n = (uint8_t)(btf_vlen(fp) < 5 ? btf_vlen(fp) : 5);
	for (int i = 0; i < kp->n; i++) {
		const struct btf_param *pa = &btf_params(fp)[i];
		const struct btf_type *t = obj_btf_skip_mods(b, pa->type, NULL);
		const struct btf_type *st = t && btf_is_ptr(t) ? obj_btf_skip_mods(b, t->type, NULL) : NULL;
		kp->sn[i] = st && btf_is_composite(st) ? btf__name_by_offset(b, st->name_off) : NULL;
		kp->scalar[i] = t && (btf_is_int(t) || btf_is_any_enum(t));
		kp->kind[i] = (uint8_t)bg_kfunc_param_kind(btf__name_by_offset(b, pa->name_off), kp->sn[i], &kp->word[i]);
		if (!t || (!kp->scalar[i] && !btf_is_ptr(t)))
			kp->kind[i] = BG_KP_NONE;
	}
	kp->b = b;
	kp->id = id;
	kp->name_off = f->name_off;
	kp->proto = f->type;
	return kp;
}

/* KF_ARG_PTR_TO_MAP after a bpf_wq / bpf_task_work argument: the map of
 * that value. */
static int kfunc_map_matches(struct vctx *v, struct as_state *s, size_t pc, const struct kparams *kp, int i)
{
	const struct as_reg *r = R(s, i + 1);
	for (int j = 0; j < i; j++) {
		const struct as_reg *o = R(s, j + 1);
		if (kp->kind[j] == BG_KP_MAP_FIELD && o->type == T_MAP_VALUE && o->map != r->map)
			return verr(v, s, pc, "kfunc_arg",
				    "%s pointer in R%d map_uid=0 doesn't match map pointer in R%d map_uid=0 (maps %d, %d)",
				    kp->word[j] ? kp->word[j] : "?", j + 1, i + 1, o->map, r->map);
	}
	return 0;
}

bool call_is_res_lock(const struct vctx *v, size_t pc)
{
	const struct kparams *kp = v->insns[pc].pseudo == BG_CALL_KFUNC ? kfunc_params(v, pc) : NULL;
	return kp && kp->n && kp->kind[0] == BG_KP_RES_LOCK;
}

/* process_spin_lock for the resilient locks (6.15): a lock already held is
 * an AA deadlock; an unlock releases the innermost lock, taken with the same
 * kind of kfunc (irq or not). The lock is pushed pending: res_lock_result
 * gives it r0's id, res_branch keeps it where r0 is 0 and drops it where
 * r0 is not (the kernel's failing branch holds nothing, see
 * check_kfunc_call's push_stack). */
static int res_lock_op(struct vctx *v, struct as_state *s, size_t pc, int reg, const struct bg_helper_proto *p,
		       const struct kparams *kp)
{
	uint32_t id;
	int32_t lk = as_lock_of(R(s, reg), &id);
	uint8_t irq = 0;
	for (int i = 0; i < kp->n; i++)
		irq |= kp->kind[i] == BG_KP_IRQ_FLAG;
	if (s->nres == AS_RES_MAYBE)
		return verr(v, s, pc, "lock", "%s: the resilient locks held differ on the paths joined here", p->name);
	if (p->ret == BG_RET_INTEGER) {
		for (unsigned i = 0; i < s->nres; i++)
			if (s->res[i].lock == lk && s->res[i].id == id)
				return verr(v, s, pc, "lock", "Acquiring the same lock again, AA deadlock detected");
		if (s->nres == AS_MAX_RES)
			return verr(v, s, pc, "too_complex", "%s: more than %d resilient locks held (bpfgate's limit)",
				    p->name, AS_MAX_RES);
		s->res[s->nres++] = (struct as_res){ .lock = (int16_t)lk, .id = id, .cond = AS_ID_PENDING, .irq = irq };
		return 0;
	}
	if (!s->nres && s->lock == AS_LOCK_NONE)
		return verr(v, s, pc, "lock", "bpf_res_spin_unlock without taking a lock");
	for (unsigned i = s->nres; i-- > 0;) {
		const struct as_res *e = &s->res[i];
		if (e->lock != lk || e->id != id || e->irq != irq)
			continue;
		if (e->cond)
			return verr(v, s, pc, "lock",
				    "bpf_res_spin_unlock without taking a lock (the lock's result is not checked on this path)");
		if (i + 1 != s->nres)
			return verr(v, s, pc, "lock", "bpf_res_spin_unlock cannot be out of order");
		s->nres--;
		return 0;
	}
	return verr(v, s, pc, "lock", "bpf_res_spin_unlock of different lock");
}

/* The id of bpf_res_spin_lock's result, which says whether the lock is held:
 * r0 is an int in [-4095, 0] (MAX_ERRNO), zero-extended (the kernel's
 * __mark_btf_func_reg_size: `if r0 s< 0` does not tell the failure). */
static void res_lock_result(struct vctx *v, struct as_state *s, size_t pc)
{
	if (!s->nres || s->nres == AS_RES_MAYBE || s->res[s->nres - 1].cond != AS_ID_PENDING)
		return;
	struct as_reg *r0 = R(s, 0);
	struct bg_scalar ret = bg_scalar_srange(-4095, 0);
	as_reg_scalar(r0, bg_scalar_cast(&ret, 4, false));
	r0->id = vid(v, pc, 11);
	s->res[s->nres - 1].cond = r0->id;
}

void call_res_branch(struct as_state *s, const struct bg_insn *in, bool taken, const struct as_reg *d)
{
	if (!s->nres || s->nres == AS_RES_MAYBE)
		return;
	struct as_res *e = &s->res[s->nres - 1];
	uint64_t c;
	bool zero;
	if (!e->cond || d->id != e->cond)
		return;
	if (!in->src_is_reg && in->imm == 0 && (in->op == BG_JMP_JEQ || in->op == BG_JMP_JNE))
		zero = (in->op == BG_JMP_JEQ) == taken;
	struct bg_scalar w = in->alu64 ? d->v : bg_scalar_cast(&d->v, 4, false);
	if (bg_scalar_is_const(&w, &c))
		zero = c == 0;
	else if (!bg_scalar_contains(&w, 0))
		zero = false;
	else
		return;
	if (zero)
		e->cond = 0;
	else
		s->nres--;
}

/* check_kfunc_args' rules by a parameter's name or struct in the kernel's
 * BTF, for any kfunc (kfunc_params.def): 1 when argument i was checked here
 * (the row's check is skipped), 0 when the row decides, -1 on a rejection.
 * A scalar parameter takes a scalar whatever its row says. */
static int kfunc_param_check(struct vctx *v, struct as_state *s, size_t pc, int i, const struct call_info *ci,
			     const struct kparams *kp)
{
	if (!kp || i >= kp->n)
		return 0;
	enum bg_kparam k = kp->kind[i];
	int reg = i + 1;
	const struct as_reg *r = R(s, reg);
	uint64_t c;
	if (k == BG_KP_IGNORE)
		return 1;
	if (kp->scalar[i]) {
		if (r->type != T_SCALAR)
			return verr(v, s, pc, "kfunc_arg", "R%d is not a scalar", reg);
		if (k == BG_KP_CONST && !bg_scalar_is_const(&r->v, &c))
			return verr(v, s, pc, "kfunc_arg", "R%d must be a known constant", reg);
		return 0;
	}
	if (k == BG_KP_NONE || k == BG_KP_CONST)
		return 0;
	if ((ci->p->flags & (BG_HF_TRUSTED_ARGS | BG_HF_RCU)) &&
	    (is_null_const(r) || (r->type != T_SCALAR && (r->flags & RF_NULL))))
		return verr(v, s, pc, "kfunc_arg", "Possibly NULL pointer passed to trusted arg%d", i);
	switch (k) {
	case BG_KP_CONST_STR:
		if (r->type != T_MAP_VALUE || (r->flags & RF_NULL))
			return verr(v, s, pc, "kfunc_arg", "arg#%d doesn't point to a const string", i);
		return arg_const_str(v, s, pc, reg) ? -1 : 1;
	case BG_KP_MAP:
		if (r->type != T_MAP_PTR)
			return verr(v, s, pc, "kfunc_arg", "pointer in R%d isn't map pointer", reg);
		return kfunc_map_matches(v, s, pc, kp, i) ? -1 : 1;
	case BG_KP_MAP_FIELD:
		if (r->type != T_MAP_VALUE || (r->flags & RF_NULL))
			return verr(v, s, pc, "kfunc_arg", "arg#%d doesn't point to a map value", i);
		return arg_map_field(v, s, pc, reg, kp->sn[i]) ? -1 : 1;
	case BG_KP_IRQ_FLAG:
		if (r->type != T_STACK)
			return verr(v, s, pc, "kfunc_arg", "arg#%d doesn't point to an irq flag on stack", i);
		return irq_flag_op(v, s, pc, reg, ci->p) ? -1 : 1;
	case BG_KP_RES_LOCK:
		if (r->type == T_BTF_ID && (r->flags & RF_ALLOC)) {
			if (arg_local_lock(v, s, pc, reg, kp->sn[i]))
				return -1;
		} else if (r->type != T_MAP_VALUE || (r->flags & RF_NULL)) {
			return verr(v, s, pc, "kfunc_arg", "arg#%d doesn't point to map value or allocated object", i);
		} else if (arg_map_field(v, s, pc, reg, kp->sn[i])) {
			return -1;
		}
		return res_lock_op(v, s, pc, reg, ci->p, kp) ? -1 : 1;
	default:
		return 0;
	}
}

static int xfer_kfunc(struct vctx *v, struct as_state *s, size_t pc, const struct bg_insn *in)
{
	const char *name = kfunc_name(v, in);
	const struct bg_helper_proto *p = name ? bg_kfunc_by_name(name) : NULL;
	if (!p)
		return kfunc_no_row(v, s, pc);
	if (bg_kfunc_trap(p)) /* check_kfunc_call: a reachable trap is an error */
		return verr(v, s, pc, "kfunc_trap", "unexpected __bpf_trap() due to uninitialized variable?");
	struct call_info ci = { .p = p, .name = p->name, .id = 0, .map_idx = -1 };
	struct as_reg args[5];
	bool stackobj = (p->flags & (BG_HF_ITER_NEW | BG_HF_ITER_NEXT | BG_HF_ITER_DESTROY)) || has_dynptr_arg(p);
	const struct kparams *kp = kfunc_params(v, pc);
	for (int i = 0; i < 5; i++) {
		args[i] = *R(s, i + 1);
		/* (bpf_dynptr_from_skb's first argument, the ctx or a trusted
		 * sk_buff: only the ctx's type is checked here, a BTF pointer by
		 * arg_check) */
		if (stackobj && i == 0 && p->args[0] == BG_ARG_CTX && args[0].type == T_CTX &&
		    !kfunc_ctx_of_prog(v, kfunc_param_struct(v, pc, 0)))
			return verr(v, s, pc, "kfunc_arg", "R1 must be referenced or trusted");
		int byname = kfunc_param_check(v, s, pc, i, &ci, kp);
		if (byname < 0)
			return -1;
		/* the stack objects are checked by iter_op / dynptr_args */
		if (byname || (stackobj && ((i == 0 && p->args[i] == BG_ARG_STACK) || p->args[i] == BG_ARG_DYNPTR)))
			continue;
		if (arg_check(v, s, pc, i, &ci))
			return -1;
	}
	if (kfunc_null_mem_args(v, s, pc) || kfunc_struct_args(v, s, pc, p) || kfunc_sz_mem_args(v, s, pc, p))
		return -1;
	if ((p->flags & (BG_HF_ITER_NEW | BG_HF_ITER_NEXT | BG_HF_ITER_DESTROY)) && iter_op(v, s, pc, p, name))
		return -1;
	/* the element of an RCU-protected iterator is an RCU pointer, of any
	 * other a trusted one (check_kfunc_call: cur_iter->type & MEM_RCU) */
	bool rcu_elem = false;
	struct as_slot *isl;
	struct as_frame *ifr;
	if ((p->flags & BG_HF_ITER_NEXT) && !stack_obj_slot(v, s, pc, 1, &isl, &ifr))
		rcu_elem = (isl->spill.flags & RF_RCU) != 0;
	if (has_dynptr_arg(p) && dynptr_args(v, s, pc, p, &ci))
		return -1;
	for (int i = 0; (p->flags & BG_HF_GRAPH) && i < 5; i++)
		if (p->args[i] == BG_ARG_FUNC && args[i].type == T_FUNC && args[i].map >= 0 &&
		    rbtree_cb_calls(v, s, pc, (uint32_t)args[i].map, 0))
			return -1;
	if (p->args[0] == BG_ARG_BTF_ID && local_type_once(v, s, pc, p, &args[0]))
		return -1;
	if ((p->flags & BG_HF_RELEASE) && !has_dynptr_arg(p) && do_release(v, s, pc, &ci))
		return -1;
	section_ops(s, p);
	/* bpf_xdp_pull_data may move the packet (bpf_is_kfunc_pkt_changing) */
	if (p->flags & BG_HF_PKT_CHANGING)
		invalidate_pkt(s);
	if ((p->flags & BG_HF_THROW) && s->nrefs)
		return verr(v, s, pc, "ref_leak", "bpf_throw would lead to reference leak (reference acquired at insn %u)",
			    s->refs[0].insn);
	for (int i = 1; i <= 5; i++)
		as_reg_uninit(R(s, i));
	if (ret_value(v, s, pc, &ci, args))
		return -1;
	if (rcu_elem && R(s, 0)->type == T_BTF_ID)
		R(s, 0)->flags |= RF_RCU;
	if (kp && kp->n && kp->kind[0] == BG_KP_RES_LOCK && p->ret == BG_RET_INTEGER)
		res_lock_result(v, s, pc);
	return 0;
}

int xfer_call(struct vctx *v, struct as_state *s, size_t pc, int32_t *cb_target, int *cb_kind)
{
	const struct bg_insn *in = &v->insns[pc];
	*cb_target = -1;
	*cb_kind = 0;
	if (in->pseudo == BG_CALL_KFUNC)
		return xfer_kfunc(v, s, pc, in);
	/* the helper exists, may be called here, and the lock discipline
	 * holds: its assertions were checked before (assert.c) */
	uint32_t id = (uint32_t)in->imm;
	/* the prototype this program type sees (bpf_setsockopt takes a socket in
	 * cgroup/setsockopt, the ctx in sock_ops) */
	const struct bg_helper_proto *p = prog_iter_helper(v, id);
	if (!p)
		p = bg_helper_proto_for(id, v->prog_type);
	struct call_info ci = { .p = p, .name = p->name, .id = id, .map_idx = -1 };
	lock_ops(s, id);
	struct as_reg args[5];
	for (int i = 0; i < 5; i++) {
		args[i] = *R(s, i + 1);
		if (p->args[i] == BG_ARG_DYNPTR)
			continue;
		if (arg_check(v, s, pc, i, &ci))
			return -1;
	}
	if (has_dynptr_arg(p) && dynptr_args(v, s, pc, p, &ci))
		return -1;
	/* a local dynptr is made over a map value only (check_helper_call) */
	if (id == BPF_FUNC_dynptr_from_mem && args[0].type != T_MAP_VALUE)
		return verr(v, s, pc, "helper_arg", "Unsupported reg type %s for bpf_dynptr_from_mem data",
			    as_type_name(args[0].type, args[0].flags));
	/* the storage cannot be missing: no flags may ask for another result */
	if (id == BPF_FUNC_get_local_storage && !is_null_const(R(s, 2)))
		return verr(v, s, pc, "helper_arg", "get_local_storage() doesn't support non-zero flags");
	if ((p->flags & BG_HF_RELEASE) && !has_dynptr_arg(p) && do_release(v, s, pc, &ci))
		return -1;
	/* a write into an skb dynptr may move the packet (the kernel sets
	 * changes_data for bpf_dynptr_write on BPF_DYNPTR_TYPE_SKB and _SKB_META:
	 * slices of either are packet pointers); so may the
	 * program a subprogram tail-calls, for its caller (the tail call in the
	 * main frame does not return to it) */
	if ((p->flags & BG_HF_PKT_CHANGING) || (id == BPF_FUNC_dynptr_write && (ci.dyn.dkind == BG_DYNPTR_SKB || ci.dyn.dkind == BG_DYNPTR_SKB_META)) ||
	    (id == BPF_FUNC_tail_call && s->nframes > 1 && kf_has(v, BG_KF_PKT_GLOBAL_CALLS)))
		invalidate_pkt(s);
	for (int i = 0; i < 5; i++)
		if (p->args[i] == BG_ARG_FUNC && args[i].type == T_FUNC) {
			*cb_target = args[i].map;
			*cb_kind = id == BPF_FUNC_timer_set_callback ? 2 : 1;
		}
	for (int i = 1; i <= 5; i++)
		as_reg_uninit(R(s, i));
	return ret_value(v, s, pc, &ci, args);
}

/* The kernel calls bpf_loop's callback again while the caller frame's count
 * of calls is below umax(nr_loops) (check_helper_call, callback_depth), so
 * a value the callback steps stays bounded. The other callback helpers call
 * theirs until the states converge. */
uint32_t call_cb_max_calls(struct vctx *v, size_t pc, const struct as_state *at_call, uint32_t cap)
{
	const struct as_reg *n = &at_call->fr[at_call->nframes - 1].r[1];
	if (v->insns[pc].imm != BPF_FUNC_loop || n->type != T_SCALAR || n->v.umax > cap)
		return AS_CB_UNCOUNTED;
	return (uint32_t)n->v.umax;
}

/* Arguments of a callback, from the argument registers at the helper call. */
int call_set_cb_args(struct vctx *v, struct as_state *s, size_t pc, const struct as_state *at_call)
{
	const struct as_frame *cf = &at_call->fr[at_call->nframes - 1];
	struct as_frame *f = as_cur(s);
	const struct bg_insn *in = &v->insns[pc];
	const struct bg_map_def *m = NULL;
	if (!f->cb_args) {
		f->cb_args = malloc(5 * sizeof(*f->cb_args));
		if (!f->cb_args)
			return vnomem(v);
	}
	for (int i = 0; i < 5; i++)
		as_reg_uninit(&f->cb_args[i]);
	switch (in->imm) {
	case BPF_FUNC_loop:
		as_reg_scalar(&f->cb_args[0], bg_scalar_urange(0, 1u << 23));
		f->cb_args[1] = cf->r[3];
		break;
	case BPF_FUNC_for_each_map_elem:
	case BPF_FUNC_timer_set_callback: {
		const struct as_reg *mr = &cf->r[1];
		int mi = mr->type == T_MAP_PTR ? mr->map : mr->type == T_MAP_VALUE ? mr->map : -1;
		m = mi >= 0 ? bg_object__map(v->obj, (size_t)mi) : NULL;
		f->cb_args[0].type = T_MAP_PTR;
		f->cb_args[0].map = mi;
		f->cb_args[0].v = bg_scalar_const(0);
		f->cb_args[1].type = T_MEM;
		f->cb_args[1].flags = RF_RDONLY;
		f->cb_args[1].size = m ? m->key_size : 0;
		f->cb_args[1].v = bg_scalar_const(0);
		f->cb_args[2].type = T_MAP_VALUE;
		f->cb_args[2].map = mi;
		f->cb_args[2].v = bg_scalar_const(0);
		if (in->imm == BPF_FUNC_for_each_map_elem)
			f->cb_args[3] = cf->r[3];
		break;
	}
	case BPF_FUNC_find_vma:
		f->cb_args[0].type = T_BTF_ID;
		f->cb_args[0].btf = "task_struct";
		f->cb_args[1].type = T_BTF_ID;
		f->cb_args[1].btf = "vm_area_struct";
		f->cb_args[2] = cf->r[4];
		for (int i = 0; i < 2; i++)
			f->cb_args[i].v = bg_scalar_const(0);
		break;
	case BPF_FUNC_user_ringbuf_drain:
		/* a read-only local dynptr over the sample: the callback may pass
		 * it to dynptr helpers, never access it as memory */
		call_dynptr_ptr_new(v, pc, &f->cb_args[0]);
		f->cb_args[1] = cf->r[3];
		break;
	default:
		break;
	}
	for (int i = 0; i < 5; i++)
		f->r[i + 1] = f->cb_args[i];
	return 0;
}
