/* Loader unit tests on objects compiled from tests/data/obj (clang-14 and
 * clang-19): program/section/type mapping, subprogram placement and call
 * offsets, callbacks, map definitions, global data references (checked through
 * the initial bytes they point at), line info against the source text, CO-RE
 * values against the target BTF read independently, kfunc/ksym resolution, and
 * failures recorded for what the target BTF lacks. */
/* min-pass: 162 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <errno.h>
#include <bpf/btf.h>
#include <linux/bpf.h>
#include <bpfgate/bpfgate.h>
#include "test.h"
#include "test_obj_util.h"

static char name_buf[256];
static const char *tn(const char *obj, int v, const char *what)
{
	snprintf(name_buf, sizeof(name_buf), "obj-%s-%d-%s", obj, v, what);
	return name_buf;
}

static struct bg_object *open_obj(const char *name, int v, const struct bg_open_opts *o)
{
	char path[PATH_MAX], err[512];
	struct bg_object *obj = bg_object__open(tu_obj(name, v, path, sizeof(path)), o, err, sizeof(err));

	if (!obj)
		T_FAIL(tn(name, v, "open"), "%s", err);
	return obj;
}

/* Every local call / callback lands on the first slot of a listed function. */
static int calls_land_on_funcs(const struct bg_program *p, char *why, size_t wsz)
{
	size_t n;
	const struct bg_insn *in = bg_program__insns(p, &n);

	for (size_t i = 0; i < n; i++) {
		int32_t target = -1;
		bool ok = false;

		if (in[i].kind == BG_K_CALL && in[i].pseudo == BG_CALL_LOCAL)
			target = in[i].target;
		else if (in[i].kind == BG_K_LD_IMM64 && in[i].pseudo == BG_PSEUDO_FUNC)
			target = (int32_t)(i + 1 + in[i].imm);
		else
			continue;
		for (size_t f = 0; f < bg_program__func_cnt(p); f++)
			ok |= bg_program__func(p, f)->insn == (size_t)target;
		if (!ok) {
			snprintf(why, wsz, "insn %zu targets slot %d, not a function start", i, target);
			return 0;
		}
	}
	return 1;
}

static const char *func_names(const struct bg_program *p, char *buf, size_t sz)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < bg_program__func_cnt(p) && o < sz; i++)
		o += snprintf(buf + o, sz - o, "%s%s", i ? "," : "", bg_program__func(p, i)->name);
	return buf;
}

/* Global data loads: the value at the referenced offset is the initializer. */
static int32_t data_at(const struct bg_object *obj, const struct bg_program *p, const char *map,
		       int *found)
{
	size_t n;
	const struct bg_raw_insn *r = bg_program__raw(p, &n);

	for (size_t i = 0; i + 1 < n; i++) {
		const struct bg_map_def *m;
		int32_t v = 0;

		if (r[i].code != 0x18 || r[i].src_reg != BG_PSEUDO_MAP_IDX_VALUE)
			continue;
		m = bg_object__map(obj, (size_t)r[i].imm);
		if (!m || strcmp(m->name, map) || !m->init_data || r[i + 1].imm + 4u > m->value_size)
			continue;
		memcpy(&v, (const char *)m->init_data + r[i + 1].imm, 4);
		*found = 1;
		return v;
	}
	*found = 0;
	return 0;
}

static void test_calls(int v)
{
	struct bg_object *obj = open_obj("calls", v, NULL);
	const struct bg_program *a, *b, *c;
	char why[256], buf[256];
	int found;

	if (!obj)
		return;
	a = bg_object__find_prog(obj, "prog_a");
	b = bg_object__find_prog(obj, "prog_b");
	c = bg_object__find_prog(obj, "prog_c");
	T_CHECK(bg_object__prog_cnt(obj) == 3 && a && b && c, tn("calls", v, "programs"),
		"%zu programs", bg_object__prog_cnt(obj));
	if (!a || !b || !c)
		goto out;
	T_CHECK(!strcmp(func_names(a, buf, sizeof(buf)), "prog_a,loop_cb,middle,leaf"),
		tn("calls", v, "subprog-order"), "prog_a functions: %s", buf);
	T_CHECK(!strcmp(func_names(b, buf, sizeof(buf)), "prog_b,global_helper"),
		tn("calls", v, "global-subprog"), "prog_b functions: %s", buf);
	T_CHECK(bg_program__func(b, 1)->linkage == 1 && bg_program__func(a, 3)->linkage == 0,
		tn("calls", v, "linkage"), "global_helper %d leaf %d", bg_program__func(b, 1)->linkage,
		bg_program__func(a, 3)->linkage);
	T_CHECK(!strcmp(func_names(c, buf, sizeof(buf)), "prog_c,leaf"), tn("calls", v, "shared-subprog"),
		"prog_c functions: %s", buf);
	T_CHECK(calls_land_on_funcs(a, why, sizeof(why)) && calls_land_on_funcs(b, why, sizeof(why)) &&
			calls_land_on_funcs(c, why, sizeof(why)),
		tn("calls", v, "call-targets"), "%s", why);
	T_CHECK(bg_program__type(a) == BPF_PROG_TYPE_XDP && bg_program__type(c) == BPF_PROG_TYPE_SCHED_CLS &&
			!strcmp(bg_program__type_name(c), "sched_cls") && !strcmp(bg_program__section(b), "xdp"),
		tn("calls", v, "types"), "types %u %u", bg_program__type(a), bg_program__type(c));
	T_CHECK(data_at(obj, a, ".rodata", &found) == 42 && found, tn("calls", v, "rodata-ref"),
		"ro_val reference does not read 42");
	T_CHECK(data_at(obj, a, ".data", &found) == 7 || data_at(obj, a, ".data", &found) == 9,
		tn("calls", v, "data-ref"), "no .data reference reading 7 or 9");
	T_CHECK(data_at(obj, b, ".data.custom", &found) == 0x1234 && found, tn("calls", v, "custom-data-ref"),
		"custom_data reference does not read 0x1234");
	T_CHECK(data_at(obj, b, ".rodata.custom", &found) == 0x55aa && found,
		tn("calls", v, "custom-rodata-ref"), "custom_ro reference does not read 0x55aa");
	for (size_t i = 0; i < bg_object__map_cnt(obj); i++) {
		const struct bg_map_def *m = bg_object__map(obj, i);
		int ro = !strncmp(m->name, ".rodata", 7);

		T_CHECK(m->is_global_data && m->type == BPF_MAP_TYPE_ARRAY && m->max_entries == 1 &&
				m->key_size == 4 && m->readonly == ro && (!strcmp(m->name, ".bss") ? !m->init_data : !!m->init_data),
			tn("calls", v, m->name), "map %s: type %u ro %d init %p", m->name, m->type, m->readonly,
			m->init_data);
	}
out:
	bg_object__free(obj);
}

static int map_index(const struct bg_object *obj, const char *name)
{
	for (size_t j = 0; j < bg_object__map_cnt(obj); j++)
		if (!strcmp(bg_object__map(obj, j)->name, name))
			return (int)j;
	return -1;
}

/* `.values = { [2] = &tail_a }` and `{ [1] = &m_in1 }`: slots filled, others -1. */
static void test_map_inits(const struct bg_object *obj, int v)
{
	int jmp = map_index(obj, "m_jmp"), aom = map_index(obj, "m_aom"), in1 = map_index(obj, "m_in1");
	const struct bg_map_def *j = jmp >= 0 ? bg_object__map(obj, (size_t)jmp) : NULL;
	const struct bg_map_def *a = aom >= 0 ? bg_object__map(obj, (size_t)aom) : NULL;
	int tail = -1;

	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++)
		if (!strcmp(bg_program__name(bg_object__prog(obj, i)), "tail_a"))
			tail = (int)i;
	T_CHECK(j && j->init_slots && j->init_slot_cnt == 3 && j->init_slots[2] == tail &&
			j->init_slots[0] == -1 && j->init_slots[1] == -1,
		tn("maps", v, "prog-array-init"), "m_jmp slots %u", j ? j->init_slot_cnt : 0);
	T_CHECK(a && a->init_slots && a->init_slot_cnt == 2 && a->init_slots[1] == in1 && a->init_slots[0] == -1 &&
			a->inner_map >= 0 && !bg_object__map(obj, (size_t)map_index(obj, "m_hash"))->init_slots,
		tn("maps", v, "map-in-map-init"), "m_aom slots %u", a ? a->init_slot_cnt : 0);
}

static void test_maps(int v)
{
	struct bg_object *obj = open_obj("maps", v, NULL);
	static const struct {
		const char *name;
		uint32_t type, key, value, max, flags;
		int inner;
	} want[] = {
		{"m_hash", BPF_MAP_TYPE_HASH, 4, 32, 1000, BPF_F_NO_PREALLOC, -1},
		{"m_pcpu", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 16, 3, 0, -1},
		{"m_ring", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0, -1},
		{"m_outer", BPF_MAP_TYPE_HASH_OF_MAPS, 4, 4, 16, 0, 1},
		{"m_outer.inner", BPF_MAP_TYPE_ARRAY, 4, 8, 8, 0, -1},
		{"m_progs", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 4, 0, -1},
	};

	if (!obj)
		return;
	test_map_inits(obj, v);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct bg_map_def *m = NULL;

		for (size_t j = 0; j < bg_object__map_cnt(obj); j++)
			if (!strcmp(bg_object__map(obj, j)->name, want[i].name))
				m = bg_object__map(obj, j);
		if (!m) {
			T_FAIL(tn("maps", v, want[i].name), "missing");
			continue;
		}
		T_CHECK(m->type == want[i].type && m->key_size == want[i].key &&
				m->value_size == want[i].value && m->max_entries == want[i].max &&
				m->map_flags == want[i].flags && (m->inner_map >= 0) == (want[i].inner >= 0) &&
				!m->is_global_data,
			tn("maps", v, want[i].name), "type %u key %u value %u max %u flags %u inner %d", m->type,
			m->key_size, m->value_size, m->max_entries, m->map_flags, m->inner_map);
		if (m->inner_map >= 0)
			T_CHECK(!strcmp(bg_object__map(obj, (size_t)m->inner_map)->name, "m_outer.inner") &&
					bg_object__map(obj, (size_t)m->inner_map)->inner_of >= 0,
				tn("maps", v, "inner-link"), "inner map index %d", m->inner_map);
	}
	bg_object__free(obj);
}

static void test_legacy(int v)
{
	struct bg_object *obj = open_obj("legacy", v, NULL);
	const struct bg_map_def *h, *a;
	const struct bg_program *p;

	if (!obj)
		return;
	h = bg_object__map(obj, 0);
	a = bg_object__map(obj, 1);
	p = bg_object__prog(obj, 0);
	T_CHECK(bg_object__map_cnt(obj) == 2 && !strcmp(h->name, "old_hash") && h->type == BPF_MAP_TYPE_HASH &&
			h->key_size == 4 && h->value_size == 8 && h->max_entries == 64 &&
			!strcmp(a->name, "old_array") && a->value_size == 16 && a->max_entries == 2,
		tn("legacy", v, "maps"), "%zu maps", bg_object__map_cnt(obj));
	T_CHECK(p && bg_program__type(p) == BPF_PROG_TYPE_KPROBE && bg_program__attach_target(p) &&
			!strcmp(bg_program__attach_target(p), "do_nanosleep"),
		tn("legacy", v, "kprobe-target"), "type/target wrong");
	bg_object__free(obj);
}

/* Line info: every slot with a position names calls.bpf.c and its text is the
 * source line; kernel-format records are increasing and start at slot 0. */
static void test_lines(int v)
{
	struct bg_object *obj = open_obj("calls", v, NULL);
	char path[PATH_MAX], lines[200][160];
	size_t nl = 0;
	FILE *f;

	if (!obj)
		return;
	snprintf(path, sizeof(path), "%s/tests/data/obj/calls.bpf.c", tu_root_dir());
	f = fopen(path, "r");
	while (f && nl < 200 && fgets(lines[nl], sizeof(lines[0]), f))
		lines[nl][strcspn(lines[nl], "\n")] = '\0', nl++;
	if (f)
		fclose(f);
	for (size_t pi = 0; pi < bg_object__prog_cnt(obj); pi++) {
		const struct bg_program *p = bg_object__prog(obj, pi);
		const struct bpf_line_info *li;
		const struct bpf_func_info *fi;
		size_t n, cnt, fcnt, checked = 0;
		uint32_t rec;
		char why[300] = "";

		bg_program__raw(p, &n);
		for (size_t i = 0; i < n && !why[0]; i++) {
			const struct bg_line *l = bg_program__line(p, i);

			if (!l)
				continue;
			checked++;
			if (l->line == 0 && !l->text[0])
				continue; /* compiler-generated code has line 0 */
			if (!strstr(l->file, "calls.bpf.c") || l->line > nl)
				snprintf(why, sizeof(why), "slot %zu: %s:%u", i, l->file, l->line);
			else if (l->text[0] && !strstr(lines[l->line - 1], l->text))
				snprintf(why, sizeof(why), "slot %zu: line %u text '%s' is not '%s'", i, l->line,
					 l->text, lines[l->line - 1]);
		}
		T_CHECK(!why[0] && checked == n && n > 0, tn("calls", v, bg_program__name(p)),
			"line info: %s (%zu of %zu slots)", why, checked, n);
		li = bg_program__btf_line_info(p, &cnt, &rec);
		fi = bg_program__btf_func_info(p, &fcnt, &rec);
		why[0] = '\0';
		if (!li || !cnt || li[0].insn_off != 0)
			snprintf(why, sizeof(why), "no line info at slot 0");
		for (size_t i = 1; li && i < cnt && !why[0]; i++)
			if (li[i].insn_off <= li[i - 1].insn_off || li[i].insn_off >= n)
				snprintf(why, sizeof(why), "line_info[%zu] at %u", i, li[i].insn_off);
		if (!fi || fcnt != bg_program__func_cnt(p))
			snprintf(why, sizeof(why), "func_info count %zu", fcnt);
		for (size_t i = 0; fi && i < fcnt && !why[0]; i++)
			if (fi[i].insn_off != bg_program__func(p, i)->insn || !fi[i].type_id)
				snprintf(why, sizeof(why), "func_info[%zu] at %u", i, fi[i].insn_off);
		T_CHECK(!why[0], tn("calls", v, "kernel-line-func-info"), "%s: %s", bg_program__name(p), why);
	}
	bg_object__free(obj);
}

/* Byte offset of a (nested) member in the target BTF, computed here directly. */
static long member_off(const struct btf *btf, const char *type, const char *member)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;

	for (uint16_t i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_members(t)[i].name_off), member))
			return btf_member_bit_offset(t, i) / 8;
	return -1;
}

/* Does p access offset off: an LDX of that size, or the constant added to a
 * pointer (BPF_CORE_READ passes the address to bpf_probe_read_kernel)? */
static int has_ldx_off(const struct bg_program *p, long off, uint8_t size)
{
	size_t n;
	const struct bg_insn *in = bg_program__insns(p, &n);

	for (size_t i = 0; i < n; i++)
		if ((in[i].kind == BG_K_LDX && in[i].off == off && in[i].size == size) ||
		    (in[i].kind == BG_K_ALU && !in[i].src_is_reg &&
		     (in[i].op == BG_ALU_ADD || in[i].op == BG_ALU_MOV) && in[i].imm == off))
			return 1;
	return 0;
}

/* The value stored into out[idx]: "rX = IMM; *(u32 *)(rY + 4*idx) = rX". */
static int stored_const(const struct bg_program *p, int idx, int64_t *val)
{
	size_t n;
	const struct bg_insn *in = bg_program__insns(p, &n);

	for (size_t i = 1; i < n; i++) {
		if (in[i].kind != BG_K_STX || in[i].off != 4 * idx || in[i].size != 4)
			continue;
		for (size_t j = i; j-- > 0;) {
			if (in[j].dst == in[i].src && in[j].kind == BG_K_ALU && in[j].op == BG_ALU_MOV &&
			    !in[j].src_is_reg) {
				*val = in[j].imm;
				return 1;
			}
			if (in[j].dst == in[i].src && in[j].kind == BG_K_LD_IMM64 && !in[j].pseudo) {
				*val = (int64_t)in[j].imm64;
				return 1;
			}
			if (in[j].dst == in[i].src)
				break;
		}
	}
	return 0;
}

static void test_core(int v)
{
	struct bg_object *obj = open_obj("core", v, NULL);
	const struct btf *vm;
	const struct bg_program *p, *miss;
	struct bg_open_opts o = {.sz = sizeof(o)};
	char path[PATH_MAX];
	int64_t val;
	int ok;

	if (!obj)
		return;
	vm = bg_object__target_btf(obj);
	if (!vm) {
		T_SKIP(tn("core", v, "vmlinux"), "no /sys/kernel/btf/vmlinux");
		bg_object__free(obj);
		return;
	}
	p = bg_object__find_prog(obj, "core_reads");
	miss = bg_object__find_prog(obj, "core_missing");
	T_CHECK(p && !bg_program__core_failure_cnt(p), tn("core", v, "reads-no-failure"), "%s",
		p && bg_program__core_failure_cnt(p) ? bg_program__core_failure(p, 0)->reason : "missing");
	if (!p || !miss)
		goto out;
	T_CHECK(has_ldx_off(p, member_off(vm, "task_struct", "pid"), 4), tn("core", v, "pid-offset"),
		"no access at task_struct.pid offset %ld", member_off(vm, "task_struct", "pid"));
	T_CHECK(has_ldx_off(p, member_off(vm, "task_struct", "real_parent"), 8),
		tn("core", v, "real_parent-offset"), "no access at real_parent offset %ld",
		member_off(vm, "task_struct", "real_parent"));
	ok = stored_const(p, 2, &val);
	T_CHECK(ok && val == 0, tn("core", v, "field-exists-missing"), "out[2] = %lld", (long long)val);
	ok = stored_const(p, 3, &val);
	T_CHECK(ok && val == 16, tn("core", v, "field-size"), "out[3] = %lld", (long long)val);
	ok = stored_const(p, 4, &val);
	T_CHECK(ok && val == 0, tn("core", v, "type-exists-missing"), "out[4] = %lld", (long long)val);
	ok = stored_const(p, 5, &val);
	T_CHECK(ok && val == btf__resolve_size(vm, btf__find_by_name_kind(vm, "task_struct", BTF_KIND_STRUCT)),
		tn("core", v, "type-size"), "out[5] = %lld", (long long)val);
	ok = stored_const(p, 6, &val);
	T_CHECK(ok && val == 1, tn("core", v, "enum-exists"), "out[6] = %lld", (long long)val);
	ok = stored_const(p, 7, &val);
	T_CHECK(ok && val == BPF_MAP_TYPE_RINGBUF, tn("core", v, "enum-value"), "out[7] = %lld", (long long)val);
	ok = stored_const(p, 9, &val);
	T_CHECK(ok && val == btf__find_by_name_kind(vm, "task_struct", BTF_KIND_STRUCT),
		tn("core", v, "type-id-target"), "out[9] = %lld", (long long)val);
	ok = stored_const(p, 10, &val);
	T_CHECK(ok && val == 1, tn("core", v, "field-exists"), "out[10] = %lld", (long long)val);
	ok = stored_const(p, 11, &val);
	T_CHECK(ok && val == 0, tn("core", v, "enum-missing"), "out[11] = %lld", (long long)val);
	ok = stored_const(p, 14, &val);
	T_CHECK(ok && val == 0, tn("core", v, "type-size-missing"), "out[14] = %lld", (long long)val);
	ok = stored_const(p, 15, &val);
	T_CHECK(ok && val == 0, tn("core", v, "type-id-target-missing"), "out[15] = %lld", (long long)val);
	T_CHECK(bg_program__core_failure_cnt(miss) == 1 &&
			strstr(bg_program__core_failure(miss, 0)->reason, "field_not_in_kernel") &&
			bg_program__raw(miss, NULL)[bg_program__core_failure(miss, 0)->insn].imm == 0xbad2310,
		tn("core", v, "missing-field-poisoned"), "%zu failures",
		bg_program__core_failure_cnt(miss));
	bg_object__free(obj);
	/* a target BTF without task_struct.tgid: only that relocation fails */
	snprintf(path, sizeof(path), "%s/btf_nofield.o", tu_dir);
	o.btf_path = path;
	obj = open_obj("core", v, &o);
	p = obj ? bg_object__find_prog(obj, "core_reads") : NULL;
	ok = 0;
	for (size_t i = 0; p && i < bg_program__core_failure_cnt(p); i++)
		ok += !!strstr(bg_program__core_failure(p, i)->reason, "task_struct___local.tgid");
	T_CHECK(p && ok == 1 && has_ldx_off(p, 8, 4), tn("core", v, "custom-btf"),
		"failures mentioning tgid: %d (pid at 8 in the custom BTF)", ok);
	bg_object__free(obj);
	/* --no-core poisons everything that needs the target */
	o.btf_path = NULL;
	o.no_core = 1;
	obj = open_obj("core", v, &o);
	p = obj ? bg_object__find_prog(obj, "core_reads") : NULL;
	T_CHECK(p && bg_program__core_failure_cnt(p) >= 10, tn("core", v, "no-core"), "%zu failures",
		p ? bg_program__core_failure_cnt(p) : 0);
	/* a bad --btf path is an error of the open */
	bg_object__free(obj);
	{
		char err[512];
		o.no_core = 0;
		o.btf_path = "/nonexistent/btf";
		obj = bg_object__open(tu_obj("core", v, path, sizeof(path)), &o, err, sizeof(err));
		T_CHECK(!obj && strstr(err, "/nonexistent/btf"), tn("core", v, "bad-btf-path"), "%s", err);
	}
out:
	bg_object__free(obj);
}

/* CONFIG_HZ as the running kernel's configuration states it, or -1. */
static long config_hz(void)
{
	FILE *p = popen("zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_HZ=//p'", "r");
	long hz = -1;

	if (p && fscanf(p, "%ld", &hz) != 1)
		hz = -1;
	if (p)
		pclose(p);
	return hz;
}

/* kconfig_vals reads CONFIG_HZ from .kconfig: the value there is the kernel's;
 * kconfig_missing uses an option no kernel has: poisoned with the reason. */
static void test_kconfig(const struct bg_object *obj, int v)
{
	const struct bg_program *p = bg_object__find_prog(obj, "kconfig_vals");
	const struct bg_program *miss = bg_object__find_prog(obj, "kconfig_missing");
	long hz = config_hz();
	int32_t got = -1;
	size_t n;

	if (hz < 0) {
		T_SKIP(tn("externs", v, "kconfig-hz"), "no /proc/config.gz");
		return;
	}
	const struct bg_raw_insn *r = p ? bg_program__raw(p, &n) : NULL;
	for (size_t i = 0; r && i + 1 < n; i++) {
		const struct bg_map_def *m;
		if (r[i].code != 0x18 || r[i].src_reg != BG_PSEUDO_MAP_IDX_VALUE)
			continue;
		m = bg_object__map(obj, (size_t)r[i].imm);
		if (m && !strcmp(m->name, ".kconfig") && got < 0 && (uint32_t)r[i + 1].imm + 4 <= m->value_size)
			memcpy(&got, (const char *)m->init_data + r[i + 1].imm, 4);
	}
	T_CHECK(got == hz, tn("externs", v, "kconfig-hz"), "CONFIG_HZ read as %d, kernel has %ld", got, hz);
	T_CHECK(miss && bg_program__core_failure_cnt(miss) == 1 &&
			strstr(bg_program__core_failure(miss, 0)->reason, "CONFIG_BPFGATE_NO_SUCH_OPTION"),
		tn("externs", v, "kconfig-missing"), "no failure recorded");
}

static void test_externs(int v)
{
	struct bg_object *obj = open_obj("externs", v, NULL);
	const struct bg_program *k, *ks, *miss;
	const struct btf *vm;
	int want, found = 0;
	size_t n;

	if (!obj)
		return;
	vm = bg_object__target_btf(obj);
	k = bg_object__find_prog(obj, "kfuncs");
	ks = bg_object__find_prog(obj, "ksym_var");
	miss = bg_object__find_prog(obj, "missing_kfunc");
	if (!vm || !k || !ks || !miss) {
		T_SKIP(tn("externs", v, "all"), "no target BTF or programs missing");
		bg_object__free(obj);
		return;
	}
	want = btf__find_by_name_kind(vm, "bpf_task_from_pid", BTF_KIND_FUNC);
	const struct bg_insn *in = bg_program__insns(k, &n);
	for (size_t i = 0; i < n; i++)
		found += in[i].kind == BG_K_CALL && in[i].pseudo == BG_CALL_KFUNC && in[i].imm == want;
	T_CHECK(found == 1 && !bg_program__core_failure_cnt(k), tn("externs", v, "kfunc-btf-id"),
		"calls to btf id %d: %d", want, found);
	want = btf__find_by_name_kind(vm, "bpf_prog_active", BTF_KIND_VAR);
	in = bg_program__insns(ks, &n);
	found = 0;
	for (size_t i = 0; i < n; i++)
		found += in[i].kind == BG_K_LD_IMM64 && in[i].pseudo == BG_PSEUDO_BTF_ID && in[i].imm == want;
	T_CHECK(found == 1, tn("externs", v, "ksym-btf-id"), "ld_imm64 of btf id %d: %d", want, found);
	{
		/* the verifier looks a typed ksym up in kallsyms (check_pseudo_btf_id):
		 * without CONFIG_KALLSYMS_ALL a per-cpu variable is not there, and the
		 * loader records the kernel's refusal at the ld_imm64 */
		FILE *f = fopen("/proc/kallsyms", "re");
		char line[512];
		int listed = -1;

		if (f) {
			listed = 0;
			while (fgets(line, sizeof(line), f))
				listed |= strstr(line, " bpf_prog_active\n") != NULL;
			fclose(f);
		}
		if (listed < 0)
			T_SKIP(tn("externs", v, "ksym-kallsyms"), "no /proc/kallsyms");
		else
			T_CHECK(listed ? !bg_program__core_failure_cnt(ks)
				       : bg_program__core_failure_cnt(ks) == 1 &&
					     strstr(bg_program__core_failure(ks, 0)->reason,
						    "failed to find the address for kernel symbol "
						    "'bpf_prog_active'"),
				tn("externs", v, "ksym-kallsyms"), "kallsyms %s it, %zu failures",
				listed ? "lists" : "lacks", bg_program__core_failure_cnt(ks));
	}
	T_CHECK(bg_program__core_failure_cnt(miss) == 1 &&
			strstr(bg_program__core_failure(miss, 0)->reason, "bpf_no_such_kfunc_here not found"),
		tn("externs", v, "missing-kfunc"), "%s",
		bg_program__core_failure_cnt(miss) ? bg_program__core_failure(miss, 0)->reason : "no failure");
	found = 0;
	for (size_t i = 0; i < bg_object__map_cnt(obj); i++) {
		const struct bg_map_def *m = bg_object__map(obj, i);
		uint32_t kv = 0;
		if (strcmp(m->name, ".kconfig") || !m->readonly || !m->init_data)
			continue;
		in = bg_program__insns(k, &n);
		for (size_t j = 0; j + 1 < n; j++)
			if (in[j].kind == BG_K_LD_IMM64 && in[j].pseudo == BG_PSEUDO_MAP_IDX_VALUE &&
			    (size_t)in[j].imm == i && (uint32_t)in[j + 1].imm + 4 <= m->value_size) {
				memcpy(&kv, (const char *)m->init_data + in[j + 1].imm, 4);
				found += kv >> 16 >= 5; /* LINUX_KERNEL_VERSION is set */
			}
	}
	T_CHECK(found >= 1, tn("externs", v, "kconfig"), "no .kconfig reference reads a kernel version");
	test_kconfig(obj, v);
	bg_object__free(obj);
}

static void test_malformed(int v)
{
	struct bg_open_opts o = {.sz = sizeof(o), .keep_malformed = 1};
	char path[PATH_MAX], err[512];
	struct bg_object *obj = bg_object__open(tu_obj("malformed", v, path, sizeof(path)), NULL, err, sizeof(err));
	const struct bg_program *bad, *good;

	T_CHECK(!obj && strstr(err, "program bad_jump (section socket): insn 0"), tn("malformed", v, "strict"),
		"%s", obj ? "opened" : err);
	bg_object__free(obj);
	obj = open_obj("malformed", v, &o);
	bad = obj ? bg_object__find_prog(obj, "bad_jump") : NULL;
	good = obj ? bg_object__find_prog(obj, "good") : NULL;
	T_CHECK(bad && good && !bg_program__insns(bad, NULL) && bg_program__decode_error(bad) &&
			bg_program__raw(bad, NULL) && bg_program__insns(good, NULL) &&
			!bg_program__decode_error(good),
		tn("malformed", v, "kept"), "bad %p good %p", (void *)bad, (void *)good);
	/* the kept reason says where: the file, the slot, its section offset and opcode */
	T_CHECK(bad && bg_program__decode_error(bad) &&
			strstr(bg_program__decode_error(bad), path) &&
			strstr(bg_program__decode_error(bad),
			       ": insn 0 (section socket offset 0x0, opcode 0x05): jump or call target "
			       "outside the program"),
		tn("malformed", v, "reason"), "%s",
		bad && bg_program__decode_error(bad) ? bg_program__decode_error(bad) : "(none)");
	T_CHECK(strstr(err, "(section socket offset 0x0, opcode 0x05)"),
		tn("malformed", v, "strict-offset"), "%s", err);
	bad = obj ? bg_object__find_prog(obj, "calls_bad") : NULL;
	T_CHECK(bad && bg_program__decode_error(bad) &&
			strstr(bg_program__decode_error(bad), "(section .text offset 0x") &&
			strstr(bg_program__decode_error(bad), ", opcode 0xff): unknown opcode"),
		tn("malformed", v, "subprog-reason"), "%s",
		bad && bg_program__decode_error(bad) ? bg_program__decode_error(bad) : "(none)");
	bg_object__free(obj);
}

int main(void)
{
	if (tu_compile_all()) {
		T_FAIL("obj-compile", "cannot compile tests/data/obj with clang-14");
		tu_cleanup();
		T_EXIT();
	}
	for (size_t vi = 0; vi < sizeof(tu_variants) / sizeof(tu_variants[0]); vi++) {
		int v = tu_variants[vi];
		char p[PATH_MAX];
		if (access(tu_obj("calls", v, p, sizeof(p)), R_OK)) {
			T_SKIP(tn("all", v, "compiler"), "clang-%d not installed", v > 100 ? v / 10 : v);
			continue;
		}
		test_calls(v);
		test_maps(v);
		test_legacy(v);
		test_lines(v);
		test_core(v);
		test_externs(v);
		test_malformed(v);
	}
	tu_cleanup();
	T_EXIT();
}
