/* libFuzzer target over the object loader: open the input as an object from
 * memory and walk every getter (programs, decoded and raw instructions, line
 * and func info, CO-RE failures, maps and their initial bytes), so that ASan
 * and UBSan see every byte the loader hands out. CO-RE and kfuncs resolve
 * against a small target BTF given in $FUZZ_TARGET_BTF (parsed once), or are
 * left unapplied when it is not set. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <bpfgate/bpfgate.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct btf *target;
static volatile uint64_t sink;

static int quiet(enum bg_print_level l, const char *f, va_list ap)
{
	(void)l, (void)f, (void)ap;
	return 0;
}

static int lquiet(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l, (void)f, (void)ap;
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *p = getenv("FUZZ_TARGET_BTF");

	(void)argc, (void)argv;
	bg_set_print(quiet);
	libbpf_set_print(lquiet);
	if (p && *p)
		target = btf__parse(p, NULL);
	return 0;
}

static void walk_prog(const struct bg_program *p)
{
	size_t n, m, cnt;
	const struct bg_raw_insn *r = bg_program__raw(p, &n);
	const struct bg_insn *in = bg_program__insns(p, &m);
	uint32_t rec;
	char buf[128];

	sink += bg_program__type(p) + bg_program__attach_type(p) + bg_program__prog_flags(p);
	sink += (uintptr_t)bg_program__name(p)[0] + (uintptr_t)bg_program__section(p)[0];
	sink += bg_program__type_name(p)[0];
	if (bg_program__decode_error(p))
		sink += (uint8_t)bg_program__decode_error(p)[0];
	if (bg_program__attach_target(p))
		sink += bg_program__attach_target(p)[0];
	for (size_t i = 0; i < n; i++) {
		const struct bg_line *l = bg_program__line(p, i);
		sink += r[i].code;
		if (i < m)
			sink += in[i].kind + (uint64_t)bg_insn_format(&in[i], buf, sizeof(buf));
		if (l)
			sink += l->line + l->col + (uint8_t)l->file[0] + (uint8_t)l->text[0];
	}
	for (size_t i = 0; i < bg_program__func_cnt(p); i++) {
		const struct bg_func_info *f = bg_program__func(p, i);
		sink += f->insn + f->btf_type_id + (uint8_t)f->name[0];
	}
	for (size_t i = 0; i < bg_program__core_failure_cnt(p); i++)
		sink += bg_program__core_failure(p, i)->insn + (uint8_t)bg_program__core_failure(p, i)->reason[0];
	const uint32_t *fi = bg_program__btf_func_info(p, &cnt, &rec);
	for (size_t i = 0; fi && i < cnt * rec / 4; i++)
		sink += fi[i];
	const uint32_t *li = bg_program__btf_line_info(p, &cnt, &rec);
	for (size_t i = 0; li && i < cnt * rec / 4; i++)
		sink += li[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bg_open_opts o = {.sz = sizeof(o), .target_btf = target, .no_core = !target,
				 .keep_malformed = (int)(size & 1)};
	char err[256];
	struct bg_object *obj = bg_object__open_mem(data, size, "fuzz.o", &o, err, sizeof(err));

	if (!obj) {
		sink += err[0];
		return 0;
	}
	sink += bg_object__kversion(obj) + bg_object__has_btf_ext(obj);
	if (bg_object__license(obj))
		sink += bg_object__license(obj)[0];
	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++)
		walk_prog(bg_object__prog(obj, i));
	for (size_t i = 0; i < bg_object__map_cnt(obj); i++) {
		const struct bg_map_def *m = bg_object__map(obj, i);
		sink += m->type + m->key_size + m->max_entries + m->map_flags + (uint8_t)m->name[0];
		for (uint32_t b = 0; m->init_data && b < m->value_size; b++)
			sink += ((const uint8_t *)m->init_data)[b];
	}
	bg_object__free(obj);
	return 0;
}
