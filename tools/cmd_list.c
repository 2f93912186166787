/* bpfgate list OBJ: what an object holds, as the loader prepared it:
 * programs (section, type, attach target, size in slots, subprograms, line
 * info, CO-RE failures), maps, BTF presence and license. Bad input -> exit 2
 * with the loader's message (file and offset). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include <bpfgate/bpfgate.h>
#include "bg_json.h"
#include "cli.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: bpfgate list OBJ [--json] [--btf FILE] [--no-core]\n"
		   "  programs (name, section, type, attach target, instructions in 8-byte slots,\n"
		   "  subprograms, line info), maps (type, key/value size, max_entries, flags),\n"
		   "  BTF/BTF.ext presence and license of a BPF object.\n"
		   "  --btf FILE   target BTF for CO-RE/kfuncs (default /sys/kernel/btf/vmlinux)\n"
		   "  --no-core    leave CO-RE relocations unapplied (poisoned)\n"
		   "exit: 0 listed, 2 bad input or usage\n");
}

static const char *map_type_name(uint32_t t, char *buf, size_t sz)
{
	const char *s = libbpf_bpf_map_type_str((enum bpf_map_type)t);

	if (s)
		return s;
	snprintf(buf, sz, "type_%u", t);
	return buf;
}

/* Name of what an initial slot holds: a program (prog array) or a map. */
static const char *slot_name(const struct bg_object *obj, const struct bg_map_def *m, int32_t v)
{
	if (m->type == BPF_MAP_TYPE_PROG_ARRAY)
		return bg_program__name(bg_object__prog(obj, (size_t)v));
	return bg_object__map(obj, (size_t)v) ? bg_object__map(obj, (size_t)v)->name : "?";
}

static void json_prog(struct bg_json *j, const struct bg_object *obj, const struct bg_program *p)
{
	size_t n;

	bg_program__raw(p, &n);
	bg_json_obj_begin(j);
	bg_json_kstr(j, "object", bg_object__path(obj));
	bg_json_kstr(j, "program", bg_program__name(p));
	bg_json_kstr(j, "section", bg_program__section(p));
	bg_json_kstr(j, "type", bg_program__type_name(p));
	bg_json_kuint(j, "prog_type", bg_program__type(p));
	bg_json_kstr(j, "attach_type", bg_program__attach_type_name(p));
	bg_json_kstr(j, "attach_target", bg_program__attach_target(p));
	bg_json_kuint(j, "insns", n);
	bg_json_key(j, "subprograms");
	bg_json_arr_begin(j);
	for (size_t i = 1; i < bg_program__func_cnt(p); i++)
		bg_json_str(j, bg_program__func(p, i)->name);
	bg_json_arr_end(j);
	bg_json_kbool(j, "line_info", bg_program__btf_line_info(p, NULL, NULL) != NULL);
	bg_json_key(j, "core_failures");
	bg_json_arr_begin(j);
	for (size_t i = 0; i < bg_program__core_failure_cnt(p); i++) {
		const struct bg_core_failure *f = bg_program__core_failure(p, i);
		bg_json_obj_begin(j);
		bg_json_kuint(j, "insn", f->insn);
		bg_json_kstr(j, "reason", f->reason);
		bg_json_obj_end(j);
	}
	bg_json_arr_end(j);
	bg_json_obj_end(j);
}

static void json_map(struct bg_json *j, const struct bg_object *obj, const struct bg_map_def *m)
{
	char buf[32];

	bg_json_obj_begin(j);
	bg_json_kstr(j, "name", m->name);
	bg_json_kstr(j, "type", map_type_name(m->type, buf, sizeof(buf)));
	bg_json_kuint(j, "key_size", m->key_size);
	bg_json_kuint(j, "value_size", m->value_size);
	bg_json_kuint(j, "max_entries", m->max_entries);
	bg_json_kuint(j, "flags", m->map_flags);
	bg_json_kint(j, "inner_map", m->inner_map);
	bg_json_kbool(j, "global_data", m->is_global_data);
	bg_json_kbool(j, "readonly", m->readonly);
	if (m->init_slots) {
		bg_json_key(j, "init_slots");
		bg_json_obj_begin(j);
		for (uint32_t k = 0; k < m->init_slot_cnt; k++) {
			char key[16];
			if (m->init_slots[k] < 0)
				continue;
			snprintf(key, sizeof(key), "%u", k);
			bg_json_kstr(j, key, slot_name(obj, m, m->init_slots[k]));
		}
		bg_json_obj_end(j);
	}
	bg_json_obj_end(j);
}

static void print_json(const struct bg_object *obj)
{
	struct bg_json j;

	bg_json_init(&j, stdout, true);
	bg_json_obj_begin(&j);
	bg_json_kstr(&j, "object", bg_object__path(obj));
	bg_json_kstr(&j, "license", bg_object__license(obj));
	bg_json_kbool(&j, "btf", bg_object__btf(obj) != NULL);
	bg_json_kstr(&j, "btf_error", bg_object__btf_error(obj));
	bg_json_kbool(&j, "btf_ext", bg_object__has_btf_ext(obj));
	bg_json_key(&j, "programs");
	bg_json_arr_begin(&j);
	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++)
		json_prog(&j, obj, bg_object__prog(obj, i));
	bg_json_arr_end(&j);
	bg_json_key(&j, "maps");
	bg_json_arr_begin(&j);
	for (size_t i = 0; i < bg_object__map_cnt(obj); i++)
		json_map(&j, obj, bg_object__map(obj, i));
	bg_json_arr_end(&j);
	bg_json_obj_end(&j);
	fputc('\n', stdout);
}

static void print_prog(const struct bg_program *p)
{
	size_t n;

	bg_program__raw(p, &n);
	printf("  %-24s %-22s %-14s %5zu insns", cli_safe(bg_program__name(p)),
	       cli_safe(bg_program__section(p)),
	       bg_program__type_name(p), n);
	if (bg_program__attach_target(p))
		printf("  attach %s", cli_safe(bg_program__attach_target(p)));
	if (bg_program__func_cnt(p) > 1) {
		size_t nf = bg_program__func_cnt(p);

		printf("  subprogs");
		for (size_t i = 1; i < nf && i <= 8; i++)
			printf("%c%s", i == 1 ? ' ' : ',', cli_safe(bg_program__func(p, i)->name));
		if (nf > 9)
			printf(",... (%zu in all)", nf - 1);
	}
	printf("  line info %s\n", bg_program__btf_line_info(p, NULL, NULL) ? "yes" : "no");
	for (size_t i = 0; i < bg_program__core_failure_cnt(p); i++)
		printf("    insn %zu: %s\n", bg_program__core_failure(p, i)->insn,
		       cli_safe(bg_program__core_failure(p, i)->reason));
}

static void print_text(const struct bg_object *obj)
{
	char buf[32];

	printf("%s: license %s, BTF %s, BTF.ext %s\n", cli_safe(bg_object__path(obj)),
	       bg_object__license(obj) ? cli_safe(bg_object__license(obj)) : "(none)",
	       bg_object__btf(obj) ? "yes" : "no", bg_object__has_btf_ext(obj) ? "yes" : "no");
	printf("programs (%zu):\n", bg_object__prog_cnt(obj));
	for (size_t i = 0; i < bg_object__prog_cnt(obj); i++)
		print_prog(bg_object__prog(obj, i));
	printf("maps (%zu):\n", bg_object__map_cnt(obj));
	for (size_t i = 0; i < bg_object__map_cnt(obj); i++) {
		const struct bg_map_def *m = bg_object__map(obj, i);
		printf("  %-24s %-16s key %u value %u max_entries %u flags 0x%x%s", cli_safe(m->name),
		       map_type_name(m->type, buf, sizeof(buf)), m->key_size, m->value_size,
		       m->max_entries, m->map_flags, m->readonly ? " (read-only)" : "");
		for (uint32_t k = 0; m->init_slots && k < m->init_slot_cnt; k++)
			if (m->init_slots[k] >= 0)
				printf(" [%u]=%s", k, cli_safe(slot_name(obj, m, m->init_slots[k])));
		putchar('\n');
	}
}

int cmd_list(int argc, char **argv)
{
	struct bg_open_opts opts = {.sz = sizeof(opts)};
	const char *path = NULL;
	struct bg_object *obj;
	char err[512];
	int json = 0;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--no-core"))
			opts.no_core = 1;
		else if (!strcmp(argv[i], "--btf")) {
			if (!(opts.btf_path = cli_value("list", argc, argv, &i)))
				return EXIT_BAD;
		}
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_error("list", "unknown option '%s' (see --help)", argv[i]);
		else if (path)
			return cli_error("list", "one object at a time ('%s' and '%s')", path,
					 argv[i]);
		else
			path = argv[i];
	}
	if (!path) {
		usage(stderr);
		return EXIT_BAD;
	}
	obj = bg_object__open(path, &opts, err, sizeof(err));
	if (!obj)
		return cli_error("list", "%s", err[0] ? err : bg_strerror(-errno));
	cli_object_warnings("list", obj);
	if (json)
		print_json(obj);
	else
		print_text(obj);
	bg_object__free(obj);
	return EXIT_OK;
}
