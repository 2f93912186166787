/* Kernel version profiles as one table. Features accumulate: a profile has
 * every feature introduced at or before its version (the releases of
 * platform/kfeatures.def). */
#include "platform/profiles.h"

#include <errno.h>
#include <pthread.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "platform/ctx.h"
#include "platform/helpers.h"

/* the rows of kfeatures.def by public feature number; the count check is at
 * the public API below */
static const uint32_t feat_since[BG_KFEAT__CNT] = {
#define BG_KFEATURE(name_, since_, desc_) [BG_KFEAT_##name_] = since_,
#include "platform/kfeatures.def"
#undef BG_KFEATURE
};

static const char *const feat_names[BG_KFEAT__CNT] = {
#define BG_KFEATURE(name_, since_, desc_) [BG_KFEAT_##name_] = desc_,
#include "platform/kfeatures.def"
#undef BG_KFEATURE
};

enum {
#define BG_KFEATURE(name_, since_, desc_) KF_ROW_##name_,
#include "platform/kfeatures.def"
#undef BG_KFEATURE
	KF_ROWS
};

/* features of a version, as a constant expression is not possible from the
 * table above: profiles fill .features lazily in features_of(). */
#define PROFILE(n, a, b)                                                                 \
	{ .name = n, .version = BG_KVER(a, b), .max_processed_insns = 1000000,           \
	  .max_prog_insns = 1000000, .max_call_depth = 8, .stack_size = 512,             \
	  .max_tail_calls = 33 }
/* before 5.2: BPF_MAXINSNS (4096) instructions per program for everyone and
 * 131072 processed instructions (BPF_COMPLEXITY_LIMIT_INSNS); MAX_TAIL_CALL_CNT
 * was 32 until 5.17 */
#define PROFILE_OLD(n, a, b)                                                             \
	{ .name = n, .version = BG_KVER(a, b), .max_processed_insns = 131072,            \
	  .max_prog_insns = 4096, .max_call_depth = 8, .stack_size = 512,                \
	  .max_tail_calls = 32 }

/* newest first; DEFAULT_PROFILE is the running kernel's. 7.2 (Debian sid's
 * image, judged under QEMU) has no feature modelled beyond 6.18's. */
#define DEFAULT_PROFILE 1
static struct bg_kernel_profile profiles[] = {
	PROFILE("7.2", 7, 2),   PROFILE("6.18", 6, 18), PROFILE("6.12", 6, 12), PROFILE("6.6", 6, 6),
	PROFILE("6.1", 6, 1),   PROFILE("5.15", 5, 15), PROFILE("5.10", 5, 10),
	PROFILE("5.4", 5, 4),   PROFILE_OLD("4.19", 4, 19),
};
#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

static uint64_t features_of(uint32_t version)
{
	uint64_t f = 0;
	for (unsigned i = 0; i < BG_KFEAT__CNT; i++)
		if (feat_since[i] <= version)
			f |= 1ull << i;
	return f;
}

static pthread_once_t profiles_once = PTHREAD_ONCE_INIT;

static void fill_profiles(void)
{
	for (unsigned i = 0; i < NPROFILES; i++) {
		profiles[i].features = features_of(profiles[i].version);
		if (profiles[i].version < BG_KVER(5, 17))
			profiles[i].max_tail_calls = 32;
		if (profiles[i].features & BG_KF_CALL_FRAMES16)
			profiles[i].max_call_depth = 16;
	}
}

static void init_profiles(void)
{
	pthread_once(&profiles_once, fill_profiles);
}

const struct bg_kernel_profile *bg_profiles(unsigned *n)
{
	init_profiles();
	if (n)
		*n = NPROFILES;
	return profiles;
}

const struct bg_kernel_profile *bg_profile_default(void)
{
	init_profiles();
	return &profiles[DEFAULT_PROFILE];
}

const struct bg_kernel_profile *bg_profile_by_name(const char *name)
{
	if (!name)
		return NULL;
	init_profiles();
	if (!strcmp(name, "default") || !strcmp(name, "running"))
		return &profiles[DEFAULT_PROFILE];
	for (unsigned i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct bg_kernel_profile *bg_profile_by_version(uint32_t version)
{
	init_profiles();
	for (unsigned i = 0; i < NPROFILES; i++)
		if (profiles[i].version <= version)
			return &profiles[i];
	return &profiles[NPROFILES - 1];
}

/* ---- what a profile changes: availability tables (kversions.def) ---- */

static const struct {
	uint32_t id, since;
	const char *name;
} prog_since[] = {
#define BG_PROG_SINCE(id_, name_, since_) { id_, since_, #name_ },
#include "platform/kversions.def"
#undef BG_PROG_SINCE
}, attach_since[] = {
#define BG_ATTACH_SINCE(id_, name_, since_) { id_, since_, #name_ },
#include "platform/kversions.def"
#undef BG_ATTACH_SINCE
}, map_since[] = {
#define BG_MAP_SINCE(id_, name_, since_) { id_, since_, #name_ },
#include "platform/kversions.def"
#undef BG_MAP_SINCE
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
/* rows are in id order starting at the first id, but look up by value */
#define SINCE_LOOKUP(tab, idv)                                                           \
	do {                                                                             \
		for (unsigned i_ = 0; i_ < NELEM(tab); i_++)                             \
			if ((tab)[i_].id == (idv))                                       \
				return (tab)[i_].since;                                  \
		return 0;                                                                \
	} while (0)

uint32_t bg_prog_type_since(uint32_t prog_type)
{
	SINCE_LOOKUP(prog_since, prog_type);
}

uint32_t bg_attach_type_since(uint32_t attach_type)
{
	SINCE_LOOKUP(attach_since, attach_type);
}

uint32_t bg_map_type_since(uint32_t map_type)
{
	SINCE_LOOKUP(map_since, map_type);
}

enum ctx_struct { CS___sk_buff, CS_xdp_md, CS_bpf_sock };

static const struct {
	uint8_t cs;
	uint16_t off, size;
	uint32_t since;
	const char *name;
} ctx_since[] = {
#define BG_CTX_SINCE(st_, f_, since_)                                                     \
	{ CS_##st_, offsetof(struct st_, f_), sizeof(((struct st_ *)0)->f_), since_, #st_ "." #f_ },
#include "platform/kversions.def"
#undef BG_CTX_SINCE
};

static int ctx_struct_of(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_SOCKET_FILTER: case BPF_PROG_TYPE_SCHED_CLS: case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_CGROUP_SKB: case BPF_PROG_TYPE_LWT_IN: case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT: case BPF_PROG_TYPE_LWT_SEG6LOCAL: case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return CS___sk_buff;
	case BPF_PROG_TYPE_XDP:
		return CS_xdp_md;
	case BPF_PROG_TYPE_CGROUP_SOCK:
		return CS_bpf_sock;
	default:
		return -1;
	}
}

static const struct {
	uint32_t prog_type;
	const char *field;
	uint32_t since;
} ctx_field_since[] = {
#define BG_CTX_FIELD_SINCE(type_, field_, since_) { type_, field_, since_ },
#include "platform/kversions.def"
#undef BG_CTX_FIELD_SINCE
};

/* A field of prog_type's layout (ctx.def) newer than the oldest profile */
static uint32_t layout_field_since(uint32_t prog_type, int64_t off, uint32_t size, const char **name)
{
	const struct bg_ctx_layout *l = bg_prog_policy(prog_type, 0)->ctx;
	for (unsigned i = 0; l && i < NELEM(ctx_field_since); i++) {
		if (ctx_field_since[i].prog_type != prog_type)
			continue;
		for (unsigned k = 0; k < l->nfields; k++) {
			const struct bg_ctx_field *f = &l->fields[k];
			if (strcmp(f->name, ctx_field_since[i].field) || off >= f->off + f->size ||
			    off + (int64_t)size <= f->off)
				continue;
			if (name)
				*name = ctx_field_since[i].field;
			return ctx_field_since[i].since;
		}
	}
	return 0;
}

uint32_t bg_ctx_field_since(uint32_t prog_type, int64_t off, uint32_t size, const char **name)
{
	int cs = ctx_struct_of(prog_type);
	if (cs < 0)
		return layout_field_since(prog_type, off, size, name);
	for (unsigned i = 0; cs >= 0 && i < NELEM(ctx_since); i++)
		if (ctx_since[i].cs == cs && off < ctx_since[i].off + ctx_since[i].size &&
		    off + (int64_t)size > ctx_since[i].off) {
			if (name)
				*name = ctx_since[i].name;
			return ctx_since[i].since;
		}
	return 0;
}

bool bg_attach_type_required(uint32_t prog_type, uint32_t kver)
{
	/* the kernel checks expected_attach_type at load only for these types,
	 * from the release given (libbpf leaves it out for the others when the
	 * kernel is older): sk_reuseport's check came with its attach types in
	 * 5.14 (Debian's 5.10 loads select programs, measured) */
	static const struct {
		uint32_t type, since;
	} req[] = { { 9 /* cgroup_sock */, 0 }, { 18 /* cgroup_sock_addr */, 0 },
		    { 21 /* sk_reuseport */, BG_KVER(5, 14) }, { 25 /* cgroup_sockopt */, 0 },
		    { 26 /* tracing */, 0 }, { 28 /* ext */, 0 }, { 29 /* lsm */, 0 },
		    { 30 /* sk_lookup */, 0 }, { 32 /* netfilter */, 0 } };
	for (unsigned i = 0; i < NELEM(req); i++)
		if (req[i].type == prog_type)
			return !kver || req[i].since <= kver;
	return false;
}

const char *bg_map_type_name(uint32_t map_type)
{
	for (unsigned i = 0; i < NELEM(map_since); i++)
		if (map_since[i].id == map_type)
			return map_since[i].name;
	return NULL;
}

static int feat_index(uint64_t feat)
{
	if (!feat || (feat & (feat - 1)))
		return -1;
	return __builtin_ctzll(feat);
}

uint32_t bg_feature_since(uint64_t feat)
{
	int i = feat_index(feat);
	return i >= 0 && i < BG_KFEAT__CNT ? feat_since[i] : 0;
}

const char *bg_feature_name(uint64_t feat)
{
	int i = feat_index(feat);
	return i >= 0 && i < BG_KFEAT__CNT ? feat_names[i] : "feature";
}

const char *bg_kver_str(uint32_t kver, char *buf)
{
	snprintf(buf, 16, "%u.%u", (kver >> 16) & 0xffff, (kver >> 8) & 0xff);
	return buf;
}

static int add_unique(const struct bg_kernel_profile **out, int n, unsigned max,
		      const struct bg_kernel_profile *p)
{
	for (int i = 0; i < n; i++)
		if (out[i] == p)
			return n;
	if ((unsigned)n < max)
		out[n++] = p;
	return n;
}

int bg_profile_parse_list(const char *spec, const struct bg_kernel_profile **out, unsigned max,
			  char *bad_buf)
{
	init_profiles();
	int n = 0;
	const char *s = spec ? spec : "";
	while (*s) {
		size_t len = strcspn(s, ",");
		char name[64];
		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, s, len);
		name[len] = 0;
		s += strcspn(s, ",");
		if (*s == ',')
			s++;
		if (!name[0])
			continue;
		if (!strcmp(name, "all")) {
			for (unsigned i = 0; i < NPROFILES; i++)
				n = add_unique(out, n, max, &profiles[i]);
			continue;
		}
		const struct bg_kernel_profile *p = bg_profile_by_name(name);
		if (!p) {
			if (bad_buf)
				snprintf(bad_buf, 64, "%s", name);
			return -1;
		}
		n = add_unique(out, n, max, p);
	}
	if (!n && bad_buf)
		snprintf(bad_buf, 64, "%s", "(empty list)");
	return n ? n : -1;
}

/* ---- the public API (bpfgate/profile.h): the same table, opaque ---- */

_Static_assert((int)KF_ROWS == (int)BG_KFEAT__CNT,
	       "one row of platform/kfeatures.def per public feature (bpfgate/profile.h)");
_Static_assert(BG_KFEAT__CNT <= 64, "feature bits are one uint64_t");

size_t bg_kernel_profile__cnt(void)
{
	return NPROFILES;
}

const struct bg_kernel_profile *bg_kernel_profile__at(size_t i)
{
	init_profiles();
	return i < NPROFILES ? &profiles[i] : NULL;
}

const struct bg_kernel_profile *bg_kernel_profile__by_name(const char *name)
{
	const struct bg_kernel_profile *p = bg_profile_by_name(name);

	if (!p)
		errno = ENOENT;
	return p;
}

const struct bg_kernel_profile *bg_kernel_profile__by_version(uint32_t kver)
{
	return bg_profile_by_version(kver);
}

const struct bg_kernel_profile *bg_kernel_profile__default(void)
{
	return bg_profile_default();
}

int bg_kernel_profile__parse_list(const char *spec, const struct bg_kernel_profile **out, size_t max,
				  char *bad, size_t bad_sz)
{
	char b[64] = "";
	int n = bg_profile_parse_list(spec, out, max > UINT32_MAX ? UINT32_MAX : (unsigned)max, b);

	if (n < 0 && bad && bad_sz)
		snprintf(bad, bad_sz, "%s", b);
	return n < 0 ? -ENOENT : n;
}

const char *bg_kernel_profile__name(const struct bg_kernel_profile *p)
{
	return p ? p->name : NULL;
}

uint32_t bg_kernel_profile__version(const struct bg_kernel_profile *p)
{
	return p ? p->version : 0;
}

bool bg_kernel_profile__has(const struct bg_kernel_profile *p, enum bg_kernel_feature f)
{
	return (unsigned)f < BG_KFEAT__CNT && bg_profile_has(p, 1ull << f);
}

uint32_t bg_kernel_profile__max_prog_insns(const struct bg_kernel_profile *p)
{
	return p ? p->max_prog_insns : 0;
}

uint32_t bg_kernel_profile__max_processed_insns(const struct bg_kernel_profile *p)
{
	return p ? p->max_processed_insns : 0;
}

uint32_t bg_kernel_profile__max_call_depth(const struct bg_kernel_profile *p)
{
	return p ? p->max_call_depth : 0;
}

uint32_t bg_kernel_profile__stack_size(const struct bg_kernel_profile *p)
{
	return p ? p->stack_size : 0;
}

uint32_t bg_kernel_profile__max_tail_calls(const struct bg_kernel_profile *p)
{
	return p ? p->max_tail_calls : 0;
}

const char *bg_kernel_feature__name(enum bg_kernel_feature f)
{
	return (unsigned)f < BG_KFEAT__CNT ? feat_names[f] : NULL;
}

uint32_t bg_kernel_feature__since(enum bg_kernel_feature f)
{
	return (unsigned)f < BG_KFEAT__CNT ? bg_feature_since(1ull << f) : 0;
}

int bg_kernel_version__str(uint32_t kver, char *buf, size_t n)
{
	if (!buf && n)
		return -EINVAL;
	return snprintf(buf, n, "%u.%u", (kver >> 16) & 0xffff, (kver >> 8) & 0xff);
}
