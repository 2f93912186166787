/* Consistency of the platform tables: helper ids and names against the uapi
 * header of this machine, well-formed argument lists, lookups, kfunc names
 * against the running kernel's BTF, profiles, policies and ctx layouts
 * against the uapi struct offsets. */
/* min-pass: 52 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <bpf/btf.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "platform/ctx.h"
#include "platform/helpers.h"
#include "platform/profiles.h"
#include "platform/sections.h"
#include "test.h"

/* (id, name) of every helper the uapi header lists, from its own mapper. */
#define UAPI_FN(x) { BPF_FUNC_##x, "bpf_" #x }
static const struct {
	int id;
	const char *name;
} uapi[] = { __BPF_FUNC_MAPPER(UAPI_FN) };
#undef UAPI_FN

static void test_ids_match_uapi(void)
{
	unsigned n, bad = 0, checked = 0;
	const struct bg_helper_proto *t = bg_helpers(&n);
	char first[160] = "";

	for (unsigned i = 1; i < sizeof(uapi) / sizeof(uapi[0]); i++) {
		const struct bg_helper_proto *h = bg_helper_by_id((uint32_t)uapi[i].id);
		checked++;
		if (!h || strcmp(h->name, uapi[i].name)) {
			if (!bad++)
				snprintf(first, sizeof(first), "id %d: uapi %s, table %s", uapi[i].id,
					 uapi[i].name, h ? h->name : "(none)");
		}
	}
	T_CHECK(bad == 0 && checked >= 200, "platform/helpers/ids-match-uapi",
		"%u of %u differ (%s)", bad, checked, first);
	bad = 0;
	for (unsigned i = 1; i < n; i++)
		bad += t[i].id <= t[i - 1].id;
	T_CHECK(bad == 0 && t[0].id == 1, "platform/helpers/ids-sorted-unique", "%u out of order", bad);
	T_CHECK(n >= 211 && bg_helper_max_id() == n, "platform/helpers/count",
		"%u helpers, max id %u", n, bg_helper_max_id());
}

static bool is_mem(uint8_t a)
{
	return a == BG_ARG_MEM || a == BG_ARG_MEM_OR_NULL || a == BG_ARG_UNINIT_MEM;
}

static bool is_size(uint8_t a)
{
	return a == BG_ARG_CONST_SIZE || a == BG_ARG_CONST_SIZE_OR_ZERO;
}

/* Why a prototype is malformed, or NULL. */
static const char *proto_problem(const struct bg_helper_proto *h)
{
	unsigned used = 0;
	bool ended = false;

	for (int i = 0; i < 5; i++) {
		uint8_t a = h->args[i];
		if (a >= BG_ARG__MAX)
			return "argument kind out of range";
		if (a == BG_ARG_NONE) {
			ended = true;
			continue;
		}
		if (ended)
			return "argument after an unused one";
		used++;
		if (is_mem(a) && (i == 4 || !is_size(h->args[i + 1])))
			return "memory argument not followed by its size";
		if (is_size(a) && (i == 0 || !is_mem(h->args[i - 1])))
			return "size argument not after a memory argument";
		if ((a == BG_ARG_BTF_ID || a == BG_ARG_BTF_ID_OR_NULL) && !h->arg_btf[i] &&
		    h->ret != BG_RET_KPTR_OR_NULL)
			return "BTF pointer argument without a BTF type name";
		if (a == BG_ARG_FIXED_MEM && !h->arg_size[i])
			return "fixed-size memory without a size";
		if ((a == BG_ARG_LONG && h->arg_size[i] != 8) || (a == BG_ARG_INT && h->arg_size[i] != 4))
			return "long/int argument with a wrong size";
		if (a == BG_ARG_FUNC && !(h->flags & BG_HF_CALLBACK))
			return "callback argument without BG_HF_CALLBACK";
	}
	if (used != h->nargs)
		return "nargs differs from the argument list";
	if (!!(h->flags & BG_HF_RELEASE) != (h->release_arg >= 1 && h->release_arg <= 5))
		return "release flag and release_arg disagree";
	if ((h->flags & BG_HF_ACQUIRE) && h->ret == BG_RET_INTEGER && !(h->args[3] == BG_ARG_DYNPTR))
		return "acquires a reference but returns an integer";
	if ((h->ret == BG_RET_BTF_ID || h->ret == BG_RET_BTF_ID_OR_NULL) && !h->ret_btf)
		return "BTF pointer result without a type name";
	if ((h->flags & BG_HF_RET_SIZE_BOUND) && (h->size_arg < 1 || !is_size(h->args[h->size_arg - 1])))
		return "size-bounded result without a size argument";
	if (h->since < BG_KVER(3, 18) || h->since > BG_KVER(6, 18))
		return "kernel version out of range";
	if (!h->prog_types && !(h->flags & BG_HF_CONFIG))
		return "callable from no program type";
	return NULL;
}

static void test_protos_well_formed(void)
{
	unsigned n, bad = 0;
	const struct bg_helper_proto *t = bg_helpers(&n);
	char first[200] = "";
	for (unsigned i = 0; i < n; i++) {
		const char *why = proto_problem(&t[i]);
		if (why && !bad++)
			snprintf(first, sizeof(first), "%s: %s", t[i].name, why);
	}
	T_CHECK(bad == 0, "platform/helpers/protos-well-formed", "%u bad, first %s", bad, first);
}

/* Per-type variants: well-formed, same id and name, used where they apply. */
static void test_variants(void)
{
	unsigned bad = 0, variants = 0;
	char first[200] = "";
	for (uint32_t id = 1; id <= bg_helper_max_id(); id++)
		for (uint32_t t = 0; t < 33; t++) {
			const struct bg_helper_proto *v = bg_helper_proto_for(id, t), *b = bg_helper_by_id(id);
			const char *why;
			if (v == b)
				continue;
			variants++;
			why = proto_problem(v);
			if (!why && (v->id != id || strcmp(v->name, b->name) || !(v->prog_types & (1ull << t))))
				why = "variant of another helper or type";
			if (why && !bad++)
				snprintf(first, sizeof(first), "%s in type %u: %s", v->name, t, why);
		}
	T_CHECK(bad == 0 && variants >= 8, "platform/helpers/variants-well-formed", "%u bad of %u: %s", bad,
		variants, first);
	T_CHECK(bg_helper_proto_for(BPF_FUNC_get_socket_cookie, BPF_PROG_TYPE_SCHED_CLS)->args[0] == BG_ARG_CTX &&
			bg_helper_proto_for(BPF_FUNC_get_socket_cookie, BPF_PROG_TYPE_TRACING)->args[0] ==
				BG_ARG_BTF_ID_SOCK_COMMON_OR_NULL &&
			bg_helper_proto_for(BPF_FUNC_sk_storage_get, BPF_PROG_TYPE_CGROUP_SOCK)->args[1] == BG_ARG_CTX &&
			!bg_helper_proto_for(9999, 3),
		"platform/helpers/variant-lookup", "variant lookups");
}

static void test_known_protos(void)
{
	const struct bg_helper_proto *h = bg_helper_by_name("bpf_map_lookup_elem");
	T_CHECK(h && h->id == 1 && h->ret == BG_RET_MAP_VALUE_OR_NULL && h->args[0] == BG_ARG_CONST_MAP_PTR &&
			h->args[1] == BG_ARG_MAP_KEY && h->nargs == 2,
		"platform/helpers/map_lookup_elem", "wrong prototype");
	h = bg_helper_by_name("ringbuf_reserve");
	T_CHECK(h && h->id == 131 && h->ret == BG_RET_ALLOC_MEM_OR_NULL && (h->flags & BG_HF_ACQUIRE) &&
			h->size_arg == 2,
		"platform/helpers/ringbuf_reserve", "wrong prototype");
	h = bg_helper_by_name("bpf_ringbuf_submit");
	T_CHECK(h && (h->flags & BG_HF_RELEASE) && h->release_arg == 1 && h->args[0] == BG_ARG_RINGBUF_MEM,
		"platform/helpers/ringbuf_submit", "wrong prototype");
	h = bg_helper_by_name("bpf_sk_lookup_tcp");
	T_CHECK(h && h->ret == BG_RET_SOCKET_OR_NULL && (h->flags & BG_HF_ACQUIRE),
		"platform/helpers/sk_lookup_tcp", "wrong prototype");
	h = bg_helper_by_name("bpf_loop");
	T_CHECK(h && h->id == 181 && h->args[1] == BG_ARG_FUNC && (h->flags & BG_HF_CALLBACK) &&
			h->since == BG_KVER(5, 17),
		"platform/helpers/loop", "wrong prototype");
	h = bg_helper_by_name("bpf_probe_read_kernel_str");
	T_CHECK(h && (h->flags & BG_HF_RET_SIZE_BOUND) && h->ret_min == -4095 && (h->flags & BG_HF_GPL_ONLY),
		"platform/helpers/probe_read_kernel_str", "wrong prototype");
	h = bg_helper_by_name("bpf_xdp_adjust_head");
	T_CHECK(h && (h->flags & BG_HF_PKT_CHANGING), "platform/helpers/xdp_adjust_head-pkt-changing",
		"not packet-changing");
	h = bg_helper_by_name("bpf_skc_to_tcp_sock");
	T_CHECK(h && h->ret == BG_RET_BTF_ID_OR_NULL && h->ret_btf && !strcmp(h->ret_btf, "tcp_sock"),
		"platform/helpers/skc_to_tcp_sock", "wrong result type");
	T_CHECK(!bg_helper_by_id(0) && !bg_helper_by_id(bg_helper_max_id() + 1) && !bg_helper_by_id(1u << 31) &&
			!bg_helper_by_name("bpf_nosuch") && !bg_helper_by_name(NULL),
		"platform/helpers/unknown-lookups", "unknown ids/names must give NULL");
	T_CHECK(!strcmp(bg_arg_type_name(BG_ARG_MAP_KEY), "map_key") && !strcmp(bg_arg_type_name(99), "?") &&
			!strcmp(bg_ret_type_name(BG_RET_VOID), "void"),
		"platform/helpers/type-names", "names");
}

static void test_names_roundtrip(void)
{
	unsigned n, bad = 0;
	const struct bg_helper_proto *t = bg_helpers(&n);
	for (unsigned i = 0; i < n; i++)
		bad += bg_helper_by_name(t[i].name) != &t[i] || bg_helper_by_id(t[i].id) != &t[i] ||
		       strncmp(t[i].name, "bpf_", 4);
	T_CHECK(bad == 0, "platform/helpers/lookup-roundtrip", "%u helpers not found back", bad);
}

/* The coarse BG_PG_* groups must cover every type the exact mask allows. */
static void test_groups_cover_types(void)
{
	unsigned n, bad = 0;
	const struct bg_helper_proto *t = bg_helpers(&n);
	for (unsigned i = 0; i < n; i++)
		for (uint32_t ty = 0; ty < 33; ty++) {
			const struct bg_prog_policy *p = bg_prog_policy(ty, 0);
			if (!(t[i].prog_types & (1ull << ty)) || !strcmp(p->name, "unknown") || ty == 28)
				continue;
			bad += !(t[i].groups & BG_PG_BASE) && !(t[i].groups & p->helper_groups);
		}
	T_CHECK(bad == 0, "platform/helpers/groups-cover-types", "%u (helper, type) pairs not covered", bad);
}

static void test_allowed(void)
{
	const char *why = NULL;
	T_CHECK(!bg_helper_allowed(BPF_FUNC_redirect, BPF_PROG_TYPE_SOCKET_FILTER, 0, &why) && why &&
			strstr(why, "cannot use helper bpf_redirect#23"),
		"platform/allowed/socket-filter-redirect", "why=%s", why ? why : "(null)");
	T_CHECK(bg_helper_allowed(BPF_FUNC_redirect, BPF_PROG_TYPE_XDP, 0, &why) && !why,
		"platform/allowed/xdp-redirect", "why=%s", why ? why : "(null)");
	T_CHECK(!bg_helper_allowed(181 /* bpf_loop */, BPF_PROG_TYPE_XDP, BG_KVER(5, 15), &why) && why &&
			strstr(why, "5.17"),
		"platform/allowed/loop-on-5.15", "why=%s", why ? why : "(null)");
	T_CHECK(bg_helper_allowed(181, BPF_PROG_TYPE_XDP, BG_KVER(6, 1), NULL),
		"platform/allowed/loop-on-6.1", "refused");
	T_CHECK(!bg_helper_allowed(BPF_FUNC_ringbuf_output, BPF_PROG_TYPE_KPROBE, BG_KVER(5, 4), NULL),
		"platform/allowed/ringbuf-on-5.4", "allowed");
	T_CHECK(!bg_helper_allowed(0, BPF_PROG_TYPE_XDP, 0, &why) && !bg_helper_allowed(5000, 6, 0, &why) &&
			strstr(why, "invalid func"),
		"platform/allowed/invalid-ids", "why=%s", why ? why : "(null)");
	T_CHECK(!bg_helper_allowed(BPF_FUNC_map_lookup_elem, 200, 0, NULL),
		"platform/allowed/unknown-type", "allowed");
}

static void test_map_helpers(void)
{
	const char *why = NULL;
	T_CHECK(!bg_map_helper_ok(BPF_MAP_TYPE_HASH, BPF_FUNC_tail_call, &why) && why &&
			!strcmp(why, "cannot pass map_type 1 into func bpf_tail_call#12") &&
			bg_map_helper_ok(BPF_MAP_TYPE_PROG_ARRAY, BPF_FUNC_tail_call, &why) && !why &&
			!bg_map_helper_ok(BPF_MAP_TYPE_HASH, BPF_FUNC_ringbuf_output, NULL) &&
			bg_map_helper_ok(BPF_MAP_TYPE_RINGBUF, BPF_FUNC_ringbuf_output, NULL) &&
			bg_map_helper_ok(BPF_MAP_TYPE_HASH, BPF_FUNC_map_lookup_elem, NULL) &&
			!bg_map_helper_ok(BPF_MAP_TYPE_PROG_ARRAY, BPF_FUNC_map_lookup_elem, NULL),
		"platform/helpers/map-compat", "why=%s", why ? why : "-");
}

static void test_kfuncs_in_btf(void)
{
	unsigned n, missing = 0;
	const struct bg_helper_proto *k = bg_kfuncs(&n);
	struct btf *vm = btf__load_vmlinux_btf();
	char first[96] = "";
	T_CHECK(bg_kfunc_by_name("bpf_iter_num_next") &&
			(bg_kfunc_by_name("bpf_iter_num_next")->flags & BG_HF_ITER_NEXT) &&
			bg_kfunc_by_name("bpf_task_release")->release_arg == 1 && !bg_kfunc_by_name("bpf_nope"),
		"platform/kfuncs/lookups", "kfunc lookups");
	if (!vm) {
		T_SKIP("platform/kfuncs/in-vmlinux-btf", "no /sys/kernel/btf/vmlinux");
		return;
	}
	for (unsigned i = 0; i < n; i++)
		if (btf__find_by_name_kind(vm, k[i].name, BTF_KIND_FUNC) < 0 && !missing++)
			snprintf(first, sizeof(first), "%s", k[i].name);
	T_CHECK(missing == 0, "platform/kfuncs/in-vmlinux-btf", "%u of %u kfuncs not in BTF, first %s",
		missing, n, first);
	/* the other way: every kfunc of vmlinux (a FUNC with the "bpf_kfunc"
	 * decl tag) has a row, so no kfunc of the running kernel falls back to
	 * call.c's flag-less default (scripts/gen_kfunc_flags.py compare lists
	 * what a new kernel adds) */
	unsigned tagged = 0, norow = 0;
	first[0] = 0;
	for (unsigned id = 1; id < btf__type_cnt(vm); id++) {
		const struct btf_type *t = btf__type_by_id(vm, id);
		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1 ||
		    strcmp(btf__name_by_offset(vm, t->name_off), "bpf_kfunc"))
			continue;
		const struct btf_type *f = btf__type_by_id(vm, t->type);
		const char *fn = f && btf_is_func(f) ? btf__name_by_offset(vm, f->name_off) : NULL;
		tagged++;
		if (fn && !bg_kfunc_by_name(fn) && !norow++)
			snprintf(first, sizeof(first), "%s", fn);
	}
	btf__free(vm);
	T_CHECK(norow == 0, "platform/kfuncs/every-vmlinux-kfunc-has-a-row",
		"%u of %u vmlinux kfuncs without a row, first %s", norow, tagged, first);
}

static void test_profiles(void)
{
	unsigned n, bad = 0;
	const struct bg_kernel_profile *p = bg_profiles(&n);
	for (unsigned i = 1; i < n; i++)
		bad += p[i].version >= p[i - 1].version || (p[i].features & ~p[i - 1].features);
	T_CHECK(n >= 5 && bad == 0, "platform/profiles/ordered-monotonic", "%u bad", bad);
	T_CHECK(bg_profile_by_name("6.18") == bg_profile_default() &&
			bg_profile_by_name("5.15")->version == BG_KVER(5, 15) && !bg_profile_by_name("4.0") &&
			!bg_profile_by_name(NULL),
		"platform/profiles/by-name", "lookup");
	T_CHECK(bg_profile_has(bg_profile_by_name("6.18"), BG_KF_MAY_GOTO | BG_KF_ISA_V4 | BG_KF_ITERATORS) &&
			!bg_profile_has(bg_profile_by_name("6.1"), BG_KF_ITERATORS) &&
			bg_profile_has(bg_profile_by_name("6.1"), BG_KF_BPF_LOOP | BG_KF_DYNPTR) &&
			!bg_profile_has(bg_profile_by_name("5.15"), BG_KF_BPF_LOOP) &&
			bg_profile_has(bg_profile_by_name("5.10"), BG_KF_RINGBUF) &&
			!bg_profile_has(bg_profile_by_name("5.4"), BG_KF_RINGBUF) &&
			bg_profile_has(bg_profile_by_name("5.4"), BG_KF_BOUNDED_LOOPS),
		"platform/profiles/features", "feature bits");
	T_CHECK(bg_profile_by_version(BG_KVER(6, 5)) == bg_profile_by_name("6.1") &&
			bg_profile_by_version(BG_KVER(4, 19)) == bg_profile_by_name("4.19") &&
			bg_profile_by_version(BG_KVER(4, 9)) == &p[n - 1],
		"platform/profiles/by-version", "nearest profile");
}

/* s2prof: what a profile changes, as data (kversions.def, helper `since`) */
static void test_since_tables(void)
{
	unsigned n, bad = 0;
	const struct bg_helper_proto *h = bg_helpers(&n);
	uint32_t prev = 0, first_bad = 0;
	for (unsigned i = 0; i < n; i++) {
		/* helper ids are assigned in merge order: versions never decrease */
		if (h[i].since < prev && !bad++)
			first_bad = h[i].id;
		if (h[i].since > prev)
			prev = h[i].since;
	}
	T_CHECK(n > 200 && bad == 0, "platform/since/helpers-monotonic", "%u out of order, first id %u", bad,
		first_bad);
	const struct bg_helper_proto *k = bg_kfuncs(&n);
	bad = 0;
	for (unsigned i = 0; i < n; i++)
		bad += k[i].since < bg_feature_since(BG_KF_KFUNCS) || k[i].since > BG_KVER(6, 18);
	T_CHECK(bad == 0, "platform/since/kfuncs-after-5.13", "%u kfuncs", bad);
	struct {
		const char *en, *test;
		uint32_t (*fn)(uint32_t);
		uint32_t first;
	} e[] = { { "bpf_prog_type", "platform/since/prog-types", bg_prog_type_since, 1 },
		  { "bpf_attach_type", "platform/since/attach-types", bg_attach_type_since, 0 },
		  { "bpf_map_type", "platform/since/map-types", bg_map_type_since, 1 } };
	struct btf *vm = btf__load_vmlinux_btf();
	for (unsigned t = 0; t < 3; t++) {
		/* every value of the running kernel's enum has a row, in order */
		unsigned cnt = 0;
		int id = vm ? btf__find_by_name_kind(vm, e[t].en, BTF_KIND_ENUM) : -1;
		if (id > 0) { /* the value of __MAX_* (the enum has aliases) */
			const struct btf_type *bt = btf__type_by_id(vm, id);
			cnt = (unsigned)btf_enum(bt)[btf_vlen(bt) - 1].val;
		}
		uint32_t last = 0;
		bad = 0;
		for (uint32_t v = e[t].first; v < cnt; v++) {
			uint32_t s = e[t].fn(v);
			bad += !s || s < last || s > BG_KVER(6, 18);
			last = s ? s : last;
		}
		T_CHECK(cnt > 20 && bad == 0, e[t].test, "%s: %u values, %u bad", e[t].en, cnt, bad);
	}
	btf__free(vm);
	T_CHECK(bg_map_type_since(BPF_MAP_TYPE_RINGBUF) == BG_KVER(5, 8) &&
			bg_prog_type_since(BPF_PROG_TYPE_TRACING) == BG_KVER(5, 5) &&
			bg_helper_by_id(BPF_FUNC_loop)->since == BG_KVER(5, 17) &&
			bg_kfunc_by_name("bpf_iter_num_new")->since == BG_KVER(6, 4),
		"platform/since/known-facts", "ringbuf 5.8, tracing 5.5, bpf_loop 5.17, iter_num 6.4");
	const struct bg_kernel_profile *l[16];
	char bad_name[64] = "";
	unsigned np;
	bg_profiles(&np);
	T_CHECK(bg_profile_parse_list("5.10,6.1,5.10", l, 16, bad_name) == 2 && l[0] == bg_profile_by_name("5.10") &&
			bg_profile_parse_list("all", l, 16, bad_name) == (int)np && l[0] == bg_profiles(NULL) &&
			bg_profile_parse_list("6.1,7.7", l, 16, bad_name) == -1 && !strcmp(bad_name, "7.7") &&
			bg_profile_parse_list("", l, 16, bad_name) == -1,
		"platform/profiles/parse-list", "lists");
	const char *fname = NULL;
	T_CHECK(bg_ctx_field_since(BPF_PROG_TYPE_SCHED_CLS, offsetof(struct __sk_buff, gso_size), 4, &fname) ==
				BG_KVER(5, 7) &&
			!strcmp(fname, "__sk_buff.gso_size") &&
			bg_ctx_field_since(BPF_PROG_TYPE_SCHED_CLS, offsetof(struct __sk_buff, mark), 4, NULL) == 0 &&
			bg_ctx_field_since(BPF_PROG_TYPE_XDP, offsetof(struct xdp_md, egress_ifindex), 4, NULL) ==
				BG_KVER(5, 8) &&
			bg_ctx_field_since(BPF_PROG_TYPE_KPROBE, offsetof(struct __sk_buff, gso_size), 4, NULL) == 0,
		"platform/since/ctx-fields", "gso_size 5.7, mark old, egress_ifindex 5.8");
	char kb[16];
	T_CHECK(!strcmp(bg_kver_str(BG_KVER(5, 17), kb), "5.17") && bg_profile_by_name("4.19")->max_prog_insns == 4096 &&
			!bg_profile_has(bg_profile_by_name("4.19"), BG_KF_BOUNDED_LOOPS) &&
			bg_profile_has(bg_profile_by_name("6.6"), BG_KF_ISA_V4) &&
			!bg_profile_has(bg_profile_by_name("6.6"), BG_KF_MAY_GOTO),
		"platform/profiles/limits", "4.19 limits and features");
}

static void test_policies(void)
{
	const struct bg_prog_policy *p = bg_prog_policy(BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS);
	T_CHECK(p->check_ret && p->ret_min == 0 && p->ret_max == 3, "platform/policy/cgroup_skb-egress",
		"[%lld,%lld]", (long long)p->ret_min, (long long)p->ret_max);
	p = bg_prog_policy(BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_INGRESS);
	T_CHECK(p->check_ret && p->ret_max == 1, "platform/policy/cgroup_skb-ingress", "max %lld",
		(long long)p->ret_max);
	p = bg_prog_policy(BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_RECVMSG);
	T_CHECK(p->check_ret && p->ret_min == 1 && p->ret_max == 1, "platform/policy/recvmsg4", "range");
	p = bg_prog_policy(BPF_PROG_TYPE_XDP, 0);
	T_CHECK(!p->check_ret && p->pkt_access && p->pkt_write && p->ctx && !strcmp(p->ctx->struct_name, "xdp_md"),
		"platform/policy/xdp", "xdp policy");
	p = bg_prog_policy(BPF_PROG_TYPE_SK_SKB, BPF_SK_SKB_STREAM_VERDICT);
	T_CHECK(p->ctx && !strcmp(p->ctx->name, "skb_sk"), "platform/policy/sk_skb-verdict", "%s",
		p->ctx ? p->ctx->name : "-");
	{
		const char *why = NULL;
		T_CHECK(!bg_prog_map_fields_ok(BPF_PROG_TYPE_TRACEPOINT, BG_MAPF_SPIN_LOCK, &why) && why &&
				!strcmp(why, "tracing progs cannot use bpf_spin_lock yet") &&
				bg_prog_map_fields_ok(BPF_PROG_TYPE_SCHED_CLS, BG_MAPF_SPIN_LOCK | BG_MAPF_TIMER, &why) &&
				!why && bg_prog_map_fields_ok(BPF_PROG_TYPE_SOCKET_FILTER, BG_MAPF_TIMER, NULL) &&
				!bg_prog_map_fields_ok(BPF_PROG_TYPE_SOCKET_FILTER, BG_MAPF_SPIN_LOCK, NULL),
			"platform/policy/map-fields", "why=%s", why ? why : "-");
	}
	p = bg_prog_policy(9999, 0);
	T_CHECK(p && !p->check_ret && !p->ctx, "platform/policy/unknown", "fallback");
	/* every policy row is for a type the section table (platform/sections.c) names */
	{
		unsigned n, bad = 0;
		const struct bg_prog_policy *all = bg_prog_policies(&n);
		for (unsigned i = 0; i < n; i++)
			bad += !strcmp(bg_prog_type_name(all[i].prog_type), "unknown");
		T_CHECK(bad == 0 && n >= 50, "platform/policy/types-named", "%u rows of unnamed types", bad);
	}
}

static void test_ctx_rules(void)
{
	const struct bg_ctx_layout *tc = bg_prog_policy(BPF_PROG_TYPE_SCHED_CLS, 0)->ctx;
	const struct bg_ctx_layout *sf = bg_prog_policy(BPF_PROG_TYPE_SOCKET_FILTER, 0)->ctx;
	const struct bg_ctx_layout *xdp = bg_ctx_layout_by_name("xdp");
	const struct bg_ctx_field *f;
	const char *why = NULL;

	f = bg_ctx_field_at(tc, offsetof(struct __sk_buff, data), 4, false, NULL);
	T_CHECK(f && f->val == BG_CTXV_PKT, "platform/ctx/tc-data", "data load");
	T_CHECK(!bg_ctx_field_at(tc, offsetof(struct __sk_buff, data), 2, false, &why) && why &&
			strstr(why, "off=76 size=2"),
		"platform/ctx/tc-data-narrow", "why=%s", why ? why : "-");
	f = bg_ctx_field_at(tc, offsetof(struct __sk_buff, sk), 8, false, NULL);
	T_CHECK(f && f->val == BG_CTXV_SOCK_COMMON_OR_NULL, "platform/ctx/tc-sk", "sk");
	T_CHECK(bg_ctx_field_at(tc, offsetof(struct __sk_buff, mark), 4, true, NULL) &&
			!bg_ctx_field_at(sf, offsetof(struct __sk_buff, mark), 4, true, NULL) &&
			bg_ctx_field_at(sf, offsetof(struct __sk_buff, cb[2]), 4, true, NULL),
		"platform/ctx/skb-write-perms", "tc mark / filter mark / filter cb");
	T_CHECK(bg_ctx_field_at(tc, offsetof(struct __sk_buff, cb[0]), 8, false, NULL) &&
			!bg_ctx_field_at(tc, offsetof(struct __sk_buff, cb[4]), 8, false, NULL) &&
			bg_ctx_field_at(tc, offsetof(struct __sk_buff, len) + 2, 2, false, NULL) &&
			!bg_ctx_field_at(tc, offsetof(struct __sk_buff, len) + 1, 2, false, NULL),
		"platform/ctx/skb-sizes", "cb 8-byte, narrow, misaligned");
	T_CHECK(xdp && bg_ctx_field_at(xdp, 4, 4, false, NULL)->val == BG_CTXV_PKT_END &&
			!bg_ctx_field_at(xdp, 0, 4, true, NULL) && !bg_ctx_field_at(xdp, -4, 4, false, NULL) &&
			!bg_ctx_field_at(xdp, 1000, 4, false, NULL) && !bg_ctx_field_at(xdp, 0, 3, false, NULL),
		"platform/ctx/xdp", "xdp_md rules");
	T_CHECK(!bg_ctx_field_at(NULL, 0, 4, false, &why) && why, "platform/ctx/null-layout", "NULL layout");
}

/* Every struct layout field offset agrees with this machine's uapi header. */
static void test_ctx_offsets_uapi(void)
{
	static const struct {
		const char *layout, *field;
		size_t off;
	} want[] = {
		{ "skb_tc", "len", offsetof(struct __sk_buff, len) },
		{ "skb_tc", "cb", offsetof(struct __sk_buff, cb) },
		{ "skb_tc", "data", offsetof(struct __sk_buff, data) },
		{ "skb_tc", "data_meta", offsetof(struct __sk_buff, data_meta) },
		{ "skb_tc", "tstamp", offsetof(struct __sk_buff, tstamp) },
		{ "skb_tc", "sk", offsetof(struct __sk_buff, sk) },
		{ "skb_tc", "hwtstamp", offsetof(struct __sk_buff, hwtstamp) },
		{ "xdp", "rx_queue_index", offsetof(struct xdp_md, rx_queue_index) },
		{ "sock_addr_connect4", "user_port", offsetof(struct bpf_sock_addr, user_port) },
		{ "sock_addr_connect4", "sk", offsetof(struct bpf_sock_addr, sk) },
		{ "sock_ops", "skb_data", offsetof(struct bpf_sock_ops, skb_data) },
		{ "sk_msg", "size", offsetof(struct sk_msg_md, size) },
		{ "sk_lookup", "local_port", offsetof(struct bpf_sk_lookup, local_port) },
		{ "sockopt_get", "retval", offsetof(struct bpf_sockopt, retval) },
		{ "sysctl", "file_pos", offsetof(struct bpf_sysctl, file_pos) },
		{ "cgroup_dev", "minor", offsetof(struct bpf_cgroup_dev_ctx, minor) },
		{ "sk_reuseport", "hash", offsetof(struct sk_reuseport_md, hash) },
	};
	unsigned bad = 0;
	char first[128] = "";
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct bg_ctx_layout *l = bg_ctx_layout_by_name(want[i].layout);
		bool found = false;
		for (unsigned j = 0; l && j < l->nfields; j++)
			found |= !strcmp(l->fields[j].name, want[i].field) && l->fields[j].off == want[i].off;
		if (!found && !bad++)
			snprintf(first, sizeof(first), "%s.%s", want[i].layout, want[i].field);
	}
	T_CHECK(bad == 0, "platform/ctx/offsets-match-uapi", "%u differ, first %s", bad, first);
}

static void test_ctx_layouts_sane(void)
{
	unsigned n, bad = 0, layouts = 0;
	const struct bg_prog_policy *p = bg_prog_policies(&n);
	char first[128] = "";
	for (unsigned i = 0; i < n; i++) {
		const struct bg_ctx_layout *l = p[i].ctx;
		if (!l)
			continue;
		layouts++;
		for (unsigned j = 0; j < l->nfields; j++) {
			const struct bg_ctx_field *f = &l->fields[j];
			bool ok = f->off + f->size <= l->size && (f->rsizes | f->wsizes) <= 0xf &&
				  !!(f->perm & BG_CTX_R) == !!f->rsizes && !!(f->perm & BG_CTX_W) == !!f->wsizes;
			if (!ok && !bad++)
				snprintf(first, sizeof(first), "%s.%s", l->name, f->name);
		}
		if (bg_ctx_layout_by_name(l->name) != l && !bad++)
			snprintf(first, sizeof(first), "layout %s not found by name", l->name);
	}
	T_CHECK(bad == 0 && layouts >= 40, "platform/ctx/layouts-sane", "%u bad (%s) in %u layouts", bad,
		first, layouts);
}

int main(void)
{
	test_ids_match_uapi();
	test_protos_well_formed();
	test_known_protos();
	test_variants();
	test_names_roundtrip();
	test_groups_cover_types();
	test_allowed();
	test_map_helpers();
	test_kfuncs_in_btf();
	test_profiles();
	test_since_tables();
	test_policies();
	test_ctx_rules();
	test_ctx_offsets_uapi();
	test_ctx_layouts_sane();
	T_EXIT();
}
