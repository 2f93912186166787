/* Attach targets of BTF-typed programs, found in vmlinux BTF.
 *
 * tp_btf, fentry/fexit/fmod_ret, lsm and iter programs are verified against a
 * kernel function or type named by the section; the kernel wants its BTF id in
 * vmlinux (attach_btf_id). The vmlinux BTF is parsed once and cached. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/btf.h>
#include <bpfgate/object.h>
#include "kern/kern_int.h"

/* Parsed once per process (pthread_once: loads run in parallel threads);
 * read-only afterwards. */
static struct btf *vmlinux_btf;
static pthread_once_t vmlinux_once = PTHREAD_ONCE_INIT;

static void load_vmlinux(void)
{
	vmlinux_btf = btf__load_vmlinux_btf();
}

static struct btf *get_vmlinux_btf(void)
{
	pthread_once(&vmlinux_once, load_vmlinux);
	return vmlinux_btf;
}

/* How the target name maps to a vmlinux BTF entry, per attach type. */
struct attach_rule {
	uint32_t attach_type;
	const char *prefix; /* prepended to the section's target */
	int kind;	    /* BTF_KIND_FUNC or BTF_KIND_TYPEDEF */
};

static const struct attach_rule attach_rules[] = {
    {BPF_TRACE_RAW_TP, "btf_trace_", BTF_KIND_TYPEDEF},
    {BPF_TRACE_FENTRY, "", BTF_KIND_FUNC},
    {BPF_TRACE_FEXIT, "", BTF_KIND_FUNC},
    {BPF_MODIFY_RETURN, "", BTF_KIND_FUNC},
    {BPF_LSM_MAC, "bpf_lsm_", BTF_KIND_FUNC},
    {BPF_LSM_CGROUP, "bpf_lsm_", BTF_KIND_FUNC},
    {BPF_TRACE_ITER, "bpf_iter_", BTF_KIND_FUNC},
};

static const struct attach_rule *rule_for(const struct bg_program *prog)
{
	uint32_t type = bg_program__type(prog), at = bg_program__attach_type(prog);

	/* raw_tp programs also use BPF_TRACE_RAW_TP as expected type in some
	 * section tables, but only tracing programs take a BTF target */
	if (type != BPF_PROG_TYPE_TRACING && type != BPF_PROG_TYPE_LSM)
		return NULL;
	for (size_t i = 0; i < sizeof(attach_rules) / sizeof(attach_rules[0]); i++)
		if (attach_rules[i].attach_type == at)
			return &attach_rules[i];
	return NULL;
}

int bg_kern_attach_btf_id(const struct bg_program *prog, char *err, size_t errsz)
{
	const struct attach_rule *r = rule_for(prog);
	const char *target = bg_program__attach_target(prog);
	struct btf *btf;
	char name[256];
	int id;

	if (!r)
		return 0;
	if (!target || !*target) {
		snprintf(err, errsz, "section '%s' names no attach target",
			 bg_program__section(prog));
		return -ENOENT;
	}
	btf = get_vmlinux_btf();
	if (!btf) {
		snprintf(err, errsz,
			 "no vmlinux BTF (/sys/kernel/btf/vmlinux) to find attach target '%s'",
			 target);
		return -ENOENT;
	}
	/* accept targets given with or without the prefix */
	if (!strncmp(target, r->prefix, strlen(r->prefix)))
		snprintf(name, sizeof(name), "%s", target);
	else
		snprintf(name, sizeof(name), "%s%s", r->prefix, target);
	id = btf__find_by_name_kind(btf, name, r->kind);
	if (id <= 0) {
		snprintf(err, errsz, "attach target '%s' (%s) not found in vmlinux BTF", target,
			 name);
		return -ENOENT;
	}
	return id;
}

int bg_kern_struct_ops_target(const struct bg_program *prog, uint32_t *member_idx, char *err,
			      size_t errsz)
{
	const char *target = bg_program__attach_target(prog);
	const char *colon = target ? strchr(target, ':') : NULL;
	struct btf *btf = get_vmlinux_btf();
	char sname[256];
	int id;

	if (!colon || (size_t)(colon - target) >= sizeof(sname)) {
		snprintf(err, errsz, "struct_ops program '%s' is not a member of a .struct_ops variable",
			 bg_program__name(prog));
		return -ENOENT;
	}
	if (!btf) {
		snprintf(err, errsz, "no vmlinux BTF (/sys/kernel/btf/vmlinux) to find struct %.*s",
			 (int)(colon - target), target);
		return -ENOENT;
	}
	memcpy(sname, target, colon - target);
	sname[colon - target] = 0;
	char *flavour = strstr(sname, "___"); /* struct tcp_congestion_ops___v2: a flavour, as in CO-RE */
	if (flavour && flavour != sname)
		*flavour = 0;
	id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	const struct btf_type *st = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	const struct btf_member *m = st ? btf_members(st) : NULL;
	for (uint16_t i = 0; st && i < btf_vlen(st); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), colon + 1)) {
			*member_idx = i;
			return id;
		}
	snprintf(err, errsz, "struct_ops target %s not found in vmlinux BTF", target);
	return -ENOENT;
}
