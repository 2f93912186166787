/* BTF stage: .BTF through libbpf's btf API (btf__new), then the fix-ups the
 * kernel needs before it accepts the object's BTF (DATASEC sizes and variable
 * offsets, which clang leaves 0, taken from the ELF sections and symbols), and
 * .BTF.ext, whose layout libbpf does not export, parsed here with every count,
 * offset and record size bounds-checked. Record insn offsets become slots. */
#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "obj/internal.h"

#define BTF_EXT_MAGIC 0xeB9F

struct btf_ext_hdr {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len;
	uint32_t func_off, func_len, line_off, line_len;
	uint32_t core_off, core_len;
};

/* DATASEC size = section size, var offsets = symbol values (libbpf does the same
 * before loading BTF; the kernel rejects a DATASEC of size 0). */
static void fixup_datasecs(struct bg_object *obj)
{
	uint32_t n = btf__type_cnt(obj->btf);

	for (uint32_t id = 1; id < n; id++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(obj->btf, id);
		struct btf_var_secinfo *v;
		const char *name;
		int sec;

		if (!t || !btf_is_datasec(t))
			continue;
		name = btf__name_by_offset(obj->btf, t->name_off);
		sec = obj_find_sec(obj, name);
		if (sec < 0)
			continue;
		t->size = obj->secs[sec].size;
		v = btf_var_secinfos(t);
		for (uint16_t i = 0; i < btf_vlen(t); i++, v++) {
			const struct btf_type *var = btf__type_by_id(obj->btf, v->type);
			const struct obj_sym *y;

			if (!var || !btf_is_var(var))
				continue;
			y = obj_find_obj_sym(obj, (uint32_t)sec,
					     btf__name_by_offset(obj->btf, var->name_off) ?: "");
			if (y)
				v->offset = y->value;
		}
	}
}

#define BTF_MAX_NEST 1024 /* by-value nesting depth accepted (libbpf recurses on it) */

/* Children of id by value (struct members, array element, modifier/typedef/var
 * target, datasec vars) when contain; otherwise every referenced id. */
static uint32_t btf_refs(const struct btf_type *t, bool contain, uint32_t *out, uint32_t max)
{
	uint32_t n = 0;

	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
	case BTF_KIND_FUNC:
	case BTF_KIND_DECL_TAG:
		if (!contain)
			out[n++] = t->type;
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_VAR:
		out[n++] = t->type;
		break;
	case BTF_KIND_ARRAY:
		out[n++] = btf_array(t)->type;
		if (!contain)
			out[n++] = btf_array(t)->index_type;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (uint16_t i = 0; i < btf_vlen(t) && n < max; i++)
			out[n++] = btf_members(t)[i].type;
		break;
	case BTF_KIND_FUNC_PROTO:
		if (contain)
			break;
		out[n++] = t->type;
		for (uint16_t i = 0; i < btf_vlen(t) && n < max; i++)
			out[n++] = btf_params(t)[i].type;
		break;
	case BTF_KIND_DATASEC:
		for (uint16_t i = 0; i < btf_vlen(t) && n < max; i++)
			out[n++] = btf_var_secinfos(t)[i].type;
		break;
	default:
		break;
	}
	return n;
}

/* Hostile-BTF guard: libbpf 1.x trusts type references (btf__align_of
 * dereferences missing types and recurses through by-value members), so every
 * referenced id must exist and by-value nesting must be acyclic and shallow.
 * Returns NULL or a static reason; *bad_id gets the offending type. */
const char *obj_btf_validate(const struct btf *btf, uint32_t *bad_id)
{
	uint32_t n = btf__type_cnt(btf), *refs = malloc((65536 + 2) * sizeof(uint32_t));
	uint16_t *depth = calloc(n ? n : 1, sizeof(*depth));
	struct {
		uint32_t id, next;
	} *stack = malloc((BTF_MAX_NEST + 2) * sizeof(*stack));
	const char *why = NULL;

	if (!depth || !stack || !refs) {
		free(depth);
		free(stack);
		free(refs);
		return "out of memory";
	}
	for (uint32_t id = 1; id < n && !why; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		uint32_t k = t ? btf_refs(t, false, refs, 65536) : 0;

		*bad_id = id;
		if (!t)
			why = "missing type";
		for (uint32_t i = 0; i < k && !why; i++)
			if (refs[i] >= n)
				why = "reference to a type id out of range";
	}
	/* depth[id]: 0 unvisited, 0xffff on the stack, else 1 + deepest child */
	for (uint32_t root = 1; root < n && !why; root++) {
		size_t sp = 0;

		if (depth[root])
			continue;
		stack[sp++] = (typeof(*stack)){root, 0};
		depth[root] = 0xffff;
		while (sp && !why) {
			uint32_t id = stack[sp - 1].id, k, child;

			k = btf_refs(btf__type_by_id(btf, id), true, refs, 65536);
			if (stack[sp - 1].next >= k) {
				uint16_t d = 1;
				for (uint32_t i = 0; i < k; i++)
					if (refs[i] && depth[refs[i]] + 1 > d)
						d = depth[refs[i]] + 1;
				depth[id] = d;
				sp--;
				continue;
			}
			child = refs[stack[sp - 1].next++];
			if (!child || (depth[child] && depth[child] != 0xffff))
				continue;
			*bad_id = child;
			if (depth[child] == 0xffff)
				why = "a type contains itself";
			else if (sp > BTF_MAX_NEST)
				why = "types nested too deeply";
			else {
				depth[child] = 0xffff;
				stack[sp++] = (typeof(*stack)){child, 0};
			}
		}
	}
	free(depth);
	free(stack);
	free(refs);
	return why;
}

/* A malformed .BTF is set aside, not fatal: its problem is kept as a warning
 * (bg_object__btf_error) and the object is read without BTF or BTF.ext, so
 * the programs are still listed; what needs BTF (BTF-defined maps, CO-RE)
 * fails later naming this problem. */
static int btf_set_aside(struct bg_object *obj, const struct obj_sec *s, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	btf__free(obj->btf);
	obj->btf = NULL;
	free(obj->btf_error);
	obj->btf_error = obj_asprintf("section %u (.BTF) at offset 0x%llx: %s", s->idx,
				      (unsigned long long)s->off, why);
	return obj->btf_error ? 0 : -ENOMEM;
}

int obj_btf_parse(struct bg_object *obj)
{
	const char *why;
	uint32_t bad = 0;
	const struct obj_sec *s;
	libbpf_print_fn_t old;

	if (obj->btf_sec < 0)
		return 0;
	s = &obj->secs[obj->btf_sec];
	if (!s->data || s->size > UINT32_MAX)
		return btf_set_aside(obj, s, "empty or too large");
	old = libbpf_set_print(NULL);
	obj->btf = btf__new(s->data, (uint32_t)s->size);
	libbpf_set_print(old);
	if (!obj->btf) {
		int e = errno;
		obj->btf = NULL;
		return btf_set_aside(obj, s, "malformed BTF (%s)", strerror(e));
	}
	why = obj_btf_validate(obj->btf, &bad);
	if (why)
		return btf_set_aside(obj, s, "type %u: %s", bad, why);
	fixup_datasecs(obj);
	if (obj->btf_ext_sec >= 0)
		return obj_btf_ext_parse(obj);
	return 0;
}

const struct ext_sec *obj_ext_sec(const struct bg_object *obj, uint32_t sec)
{
	for (size_t i = 0; i < obj->next_secs; i++)
		if (obj->ext_secs[i].sec == sec)
			return &obj->ext_secs[i];
	return NULL;
}

static struct ext_sec *get_ext_sec(struct bg_object *obj, uint32_t sec)
{
	struct ext_sec *e = (struct ext_sec *)obj_ext_sec(obj, sec);

	if (e)
		return e;
	e = realloc(obj->ext_secs, (obj->next_secs + 1) * sizeof(*e));
	if (!e)
		return NULL;
	obj->ext_secs = e;
	e = &e[obj->next_secs++];
	memset(e, 0, sizeof(*e));
	e->sec = sec;
	return e;
}

enum ext_part { PART_FUNC, PART_LINE, PART_CORE };
static const char *const part_names[] = {"func_info", "line_info", "CO-RE relocation"};
static const uint32_t part_min_rec[] = {8, 16, 16};

/* Every record type starts with its slot (size_t insn). */
static int rec_cmp(const void *a, const void *b, void *unused)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	(void)unused;
	return x < y ? -1 : x > y;
}

size_t obj_ext_lower(const void *arr, size_t n, size_t rec, size_t insn)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (*(const size_t *)((const char *)arr + mid * rec) < insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Store n records of one section (raw points at them, rec bytes each). */
static int store_records(struct bg_object *obj, enum ext_part part, struct ext_sec *e,
			 const uint8_t *raw, uint32_t n, uint32_t rec, size_t at)
{
	const struct obj_sec *s = &obj->secs[e->sec];
	void *arr;

	arr = calloc(n ? n : 1, part == PART_FUNC   ? sizeof(struct ext_func)
				: part == PART_LINE ? sizeof(struct ext_line)
						    : sizeof(struct ext_core));
	if (!arr)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t w[4] = {0};

		memcpy(w, raw + (size_t)i * rec, part == PART_FUNC ? 8 : 16);
		if (w[0] % 8 || (s->kind == SEC_CODE && w[0] / 8 >= s->nslots) ||
		    s->kind != SEC_CODE) {
			free(arr);
			return obj_err(obj,
				       "section %d (.BTF.ext) at offset 0x%zx: %s record %u: insn "
				       "offset 0x%x outside section %s",
				       obj->btf_ext_sec, at + (size_t)i * rec, part_names[part], i,
				       w[0], s->name);
		}
		if (part == PART_FUNC)
			((struct ext_func *)arr)[i] = (struct ext_func){w[0] / 8, w[1]};
		else if (part == PART_LINE)
			((struct ext_line *)arr)[i] = (struct ext_line){w[0] / 8, w[1], w[2], w[3]};
		else
			((struct ext_core *)arr)[i] = (struct ext_core){w[0] / 8, w[1], w[2], w[3]};
	}
	/* sorted by insn so that users can bisect (clang emits them sorted already) */
	qsort_r(arr, n,
		part == PART_FUNC   ? sizeof(struct ext_func)
		: part == PART_LINE ? sizeof(struct ext_line)
				    : sizeof(struct ext_core),
		rec_cmp, NULL);
	if (part == PART_FUNC) {
		free(e->funcs);
		e->funcs = arr, e->nfuncs = n;
	} else if (part == PART_LINE) {
		free(e->lines);
		e->lines = arr, e->nlines = n;
	} else {
		free(e->cores);
		e->cores = arr, e->ncores = n;
	}
	return 0;
}

/* Parse one info part: u32 rec_size, then {sec_name_off, num_info, records}*. */
static int parse_part(struct bg_object *obj, enum ext_part part, const uint8_t *p, uint32_t len,
		      size_t file_off)
{
	uint32_t rec, pos = 4;

	if (!len)
		return 0;
	if (len < 4)
		return obj_err(obj, "section %d (.BTF.ext) at offset 0x%zx: %s part too short",
			       obj->btf_ext_sec, file_off, part_names[part]);
	memcpy(&rec, p, 4);
	if (rec < part_min_rec[part] || rec > 1024 || rec % 4)
		return obj_err(obj, "section %d (.BTF.ext) at offset 0x%zx: bad %s record size %u",
			       obj->btf_ext_sec, file_off, part_names[part], rec);
	if (part == PART_FUNC)
		obj->ext_func_rec = rec;
	else if (part == PART_LINE)
		obj->ext_line_rec = rec;
	while (pos < len) {
		uint32_t hdr[2];
		const char *name;
		struct ext_sec *e;
		int sec, err;

		if (len - pos < 8)
			return obj_err(obj,
				       "section %d (.BTF.ext) at offset 0x%zx: truncated %s header",
				       obj->btf_ext_sec, file_off + pos, part_names[part]);
		memcpy(hdr, p + pos, 8);
		pos += 8;
		if (hdr[1] > (len - pos) / rec)
			return obj_err(
			    obj, "section %d (.BTF.ext) at offset 0x%zx: %u %s records do not fit",
			    obj->btf_ext_sec, file_off + pos - 8, hdr[1], part_names[part]);
		name = btf__name_by_offset(obj->btf, hdr[0]);
		sec = obj_find_sec(obj, name);
		if (sec < 0)
			return obj_err(
			    obj,
			    "section %d (.BTF.ext) at offset 0x%zx: %s for unknown section '%s'",
			    obj->btf_ext_sec, file_off + pos - 8, part_names[part],
			    name ? name : "<bad string offset>");
		e = get_ext_sec(obj, sec);
		if (!e)
			return -ENOMEM;
		if ((err = store_records(obj, part, e, p + pos, hdr[1], rec, file_off + pos)))
			return err;
		pos += hdr[1] * rec;
	}
	return 0;
}

int obj_btf_ext_parse(struct bg_object *obj)
{
	const struct obj_sec *s = &obj->secs[obj->btf_ext_sec];
	struct btf_ext_hdr h = {0};
	const uint8_t *body;
	uint32_t blen;
	uint32_t offs[3][2];
	int err;

	if (!s->data || s->size < 24 || s->size > UINT32_MAX)
		return obj_err(obj,
			       "section %u (.BTF.ext) at offset 0x%llx: too short for a header",
			       s->idx, (unsigned long long)s->off);
	memcpy(&h, s->data, s->size < sizeof(h) ? 24 : sizeof(h));
	if (h.magic != BTF_EXT_MAGIC || h.version != 1)
		return obj_err(
		    obj, "section %u (.BTF.ext) at offset 0x%llx: bad magic 0x%x or version %u",
		    s->idx, (unsigned long long)s->off, h.magic, h.version);
	if (h.hdr_len < 24 || h.hdr_len > s->size || h.hdr_len % 4)
		return obj_err(obj, "section %u (.BTF.ext) at offset 0x%llx: bad header length %u",
			       s->idx, (unsigned long long)s->off, h.hdr_len);
	if (h.hdr_len < 32)
		h.core_off = h.core_len = 0;
	body = s->data + h.hdr_len;
	blen = (uint32_t)s->size - h.hdr_len;
	offs[0][0] = h.func_off, offs[0][1] = h.func_len;
	offs[1][0] = h.line_off, offs[1][1] = h.line_len;
	offs[2][0] = h.core_off, offs[2][1] = h.core_len;
	for (int i = 0; i < 3; i++) {
		if (offs[i][0] > blen || offs[i][1] > blen - offs[i][0] || offs[i][0] % 4)
			return obj_err(obj,
				       "section %u (.BTF.ext) at offset 0x%llx: %s part (off %u "
				       "len %u) outside the section",
				       s->idx, (unsigned long long)s->off, part_names[i],
				       offs[i][0], offs[i][1]);
		err = parse_part(obj, (enum ext_part)i, body + offs[i][0], offs[i][1],
				 s->off + h.hdr_len + offs[i][0]);
		if (err)
			return err;
	}
	return 0;
}
