/* The object's BTF made acceptable to an older kernel.
 *
 * clang-19 emits BTF kinds that older kernels refuse outright, and a kernel
 * refusing one type refuses the whole blob: without it a program loses its
 * func_info, so its global functions are verified as static ones (with the
 * caller's arguments) and everything BTF-dependent changes. libbpf keeps the
 * BTF by rewriting what the kernel lacks; so does this file, with its own
 * rules (the facts are the kernel's: which release added what, and which
 * kinds share a record layout):
 *
 *   feature (release)        rewrite (same record size, type ids unchanged)
 *   VAR + DATASEC (5.2)      VAR -> anonymous INT of 1 byte, DATASEC ->
 *                            anonymous STRUCT whose members are the variables
 *   global FUNC (5.6)        FUNC linkage global -> static
 *   FLOAT (5.13)             anonymous empty STRUCT of the same size
 *   DECL_TAG (5.16)          anonymous INT of 1 byte (nothing refers to it)
 *   TYPE_TAG (5.17)          CONST of the same type
 *   ENUM64, signed ENUM (6.0) UNION of the same size, one 1-byte INT member
 *                            per value (name kept); ENUM kind_flag cleared
 *
 * Which features the running kernel has is probed once per process by
 * loading a tiny BTF blob per feature (the guest loaders of `kload --kernel`
 * are such processes). BG_KBTF_MISSING (a comma list of feature names, or
 * "all") makes features count as missing, for tests on a kernel that has
 * them all. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "core/log.h"
#include "kern/kern_int.h"

static const char *const feat_names[] = {"datasec", "func_global", "float",
					 "decl_tag", "type_tag", "enum64"};

const char *bg_kbtf_feature_name(unsigned bit)
{
	for (unsigned i = 0; i < sizeof(feat_names) / sizeof(feat_names[0]); i++)
		if (bit == 1u << i)
			return feat_names[i];
	return "?";
}

unsigned bg_kbtf_parse_features(const char *list)
{
	unsigned m = 0;
	char buf[256], *save = NULL;

	if (!list)
		return 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(w, "all"))
			m |= BG_KBTF_ALL;
		for (unsigned i = 0; i < sizeof(feat_names) / sizeof(feat_names[0]); i++)
			if (!strcmp(w, feat_names[i]))
				m |= 1u << i;
	}
	return m;
}

/* Does the kernel load this blob? */
static int try_load(struct btf *b)
{
	uint32_t size;
	const void *raw = b ? btf__raw_data(b, &size) : NULL;
	int fd = raw ? bpf_btf_load(raw, size, NULL) : -1;

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* One blob per feature: type 1 is "int", then the feature's types. */
static int probe(unsigned feat)
{
	struct btf *b = btf__new_empty();
	int ok, e = b ? btf__add_int(b, "int", 4, BTF_INT_SIGNED) : -1;

	switch (feat) {
	case 0: /* the base: is BTF loadable at all? */
		break;
	case BG_KBTF_DATASEC:
		e = e < 0 ? e : btf__add_var(b, "v", BTF_VAR_GLOBAL_ALLOCATED, 1);
		e = e < 0 ? e : btf__add_datasec(b, ".data", 4);
		e = e < 0 ? e : btf__add_datasec_var_info(b, 2, 0, 4);
		break;
	case BG_KBTF_FUNC_GLOBAL:
		e = e < 0 ? e : btf__add_func_proto(b, 1);
		e = e < 0 ? e : btf__add_func(b, "f", BTF_FUNC_GLOBAL, 2);
		break;
	case BG_KBTF_FLOAT:
		e = e < 0 ? e : btf__add_float(b, "float", 4);
		break;
	case BG_KBTF_DECL_TAG:
		e = e < 0 ? e : btf__add_struct(b, "s", 4);
		e = e < 0 ? e : btf__add_field(b, "a", 1, 0, 0);
		e = e < 0 ? e : btf__add_decl_tag(b, "tag", 2, 0);
		break;
	case BG_KBTF_TYPE_TAG:
		e = e < 0 ? e : btf__add_type_tag(b, "tag", 1);
		e = e < 0 ? e : btf__add_ptr(b, 2);
		break;
	case BG_KBTF_ENUM64:
		e = e < 0 ? e : btf__add_enum64(b, "e", 8, false);
		e = e < 0 ? e : btf__add_enum64_value(b, "E", 1ull << 40);
		break;
	}
	ok = e < 0 ? 0 : try_load(b);
	btf__free(b);
	return ok;
}

static unsigned features;
static pthread_once_t features_once = PTHREAD_ONCE_INIT;

static void probe_features(void)
{
	unsigned have = BG_KBTF_ALL;

	if (probe(0)) /* no BTF at all: nothing to learn, nothing a rewrite can help */
		for (unsigned bit = 1; bit & BG_KBTF_ALL; bit <<= 1)
			if (!probe(bit))
				have &= ~bit;
	features = have & ~bg_kbtf_parse_features(getenv("BG_KBTF_MISSING"));
}

unsigned bg_kbtf_features(void)
{
	pthread_once(&features_once, probe_features);
	return features;
}

static uint32_t info(uint32_t kind, uint32_t vlen, int kflag)
{
	return (kind << 24) | (vlen & 0xffff) | (kflag ? 1u << 31 : 0);
}

static void to_int8(struct btf_type *t)
{
	t->name_off = 0;
	t->info = info(BTF_KIND_INT, 0, 0);
	t->size = 1;
	*(uint32_t *)(t + 1) = 8; /* encoding 0, offset 0, 8 bits (the INT record's u32) */
}

/* The first INT of 1 byte, added when there is none (UNION members need a type). */
static int int8_id(struct btf *btf)
{
	for (uint32_t id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_is_int(t) && t->size == 1 && btf_int_bits(t) == 8 && !btf_int_offset(t))
			return (int)id;
	}
	return btf__add_int(btf, "__bg_u8", 1, 0);
}

int bg_kbtf_downgrade(struct btf *btf, unsigned have)
{
	unsigned missing = ~have & BG_KBTF_ALL;
	int n = 0, u8 = 0;

	if (!missing)
		return 0;
	if (missing & BG_KBTF_ENUM64)
		for (uint32_t id = 1; id < btf__type_cnt(btf) && !u8; id++)
			if (btf_is_enum64(btf__type_by_id(btf, id)) && (u8 = int8_id(btf)) < 0)
				return u8;
	/* DATASECs before VARs: a DATASEC's members take their variables' types */
	for (uint32_t id = 1; id < btf__type_cnt(btf); id++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, id);
		uint16_t vlen = btf_vlen(t);

		if ((missing & BG_KBTF_DATASEC) && btf_is_datasec(t)) {
			struct btf_var_secinfo *v = btf_var_secinfos(t);
			struct btf_member *m = (struct btf_member *)v;

			for (uint16_t i = 0; i < vlen; i++) {
				const struct btf_type *vt = btf__type_by_id(btf, v[i].type);
				uint32_t off = v[i].offset;
				int ok = vt && btf_is_var(vt);

				m[i].name_off = ok ? vt->name_off : 0;
				m[i].type = ok ? vt->type : 0;
				m[i].offset = off * 8;
			}
			t->name_off = 0; /* ".data" is no C identifier */
			t->info = info(BTF_KIND_STRUCT, vlen, 0);
			n++;
		} else if ((missing & BG_KBTF_FUNC_GLOBAL) && btf_is_func(t) &&
			   btf_vlen(t) == BTF_FUNC_GLOBAL) {
			t->info = info(BTF_KIND_FUNC, BTF_FUNC_STATIC, 0);
			n++;
		} else if ((missing & BG_KBTF_FLOAT) && btf_is_float(t)) {
			t->name_off = 0;
			t->info = info(BTF_KIND_STRUCT, 0, 0);
			n++;
		} else if ((missing & BG_KBTF_DECL_TAG) && btf_is_decl_tag(t)) {
			to_int8(t);
			n++;
		} else if ((missing & BG_KBTF_TYPE_TAG) && btf_is_type_tag(t)) {
			t->name_off = 0;
			t->info = info(BTF_KIND_CONST, 0, 0);
			n++;
		} else if ((missing & BG_KBTF_ENUM64) && btf_is_enum64(t)) {
			struct btf_enum64 *ev = btf_enum64(t);
			struct btf_member *m = (struct btf_member *)ev;

			for (uint16_t i = 0; i < vlen; i++) {
				uint32_t name = ev[i].name_off;

				m[i].name_off = name;
				m[i].type = (uint32_t)u8;
				m[i].offset = 0;
			}
			t->info = info(BTF_KIND_UNION, vlen, 0);
			n++;
		} else if ((missing & BG_KBTF_ENUM64) && btf_is_enum(t) && btf_kflag(t)) {
			t->info = info(BTF_KIND_ENUM, vlen, 0);
			n++;
		}
	}
	if (missing & BG_KBTF_DATASEC)
		for (uint32_t id = 1; id < btf__type_cnt(btf); id++) {
			struct btf_type *t = (struct btf_type *)btf__type_by_id(btf, id);

			if (btf_is_var(t)) {
				to_int8(t);
				n++;
			}
		}
	return n;
}
