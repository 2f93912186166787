/* Oracle test: our prepared programs against libbpf's. For every example and
 * test object, libbpf opens and loads the object (relocations, subprogram
 * appending, CO-RE against the running kernel's BTF) and we compare its final
 * instructions with ours slot by slot. Map references differ only in form
 * (libbpf: fd, ours: map index), so those are compared by map name. Programs
 * with a CO-RE/kfunc failure on our side are not loaded by libbpf. */
/* min-pass: 37 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <dirent.h>
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpfgate/bpfgate.h>
#include "test.h"
#include "test_obj_util.h"

static const char *libbpf_map_name(struct bpf_object *lo, int fd)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, lo)
		if (bpf_map__fd(m) == fd)
			return bpf_map__name(m);
	return NULL;
}

/* libbpf names global data maps "<obj prefix>.data"; ours are ".data". */
static int same_map(const char *lib, const char *ours)
{
	size_t a = lib ? strlen(lib) : 0, b = strlen(ours);

	if (!lib)
		return 0;
	if (ours[0] == '.')
		return a >= b && !strcmp(lib + a - b, ours);
	return !strcmp(lib, ours);
}

static int compare_prog(const char *tname, struct bpf_object *lo, struct bpf_program *lp,
			const struct bg_object *obj, const struct bg_program *p)
{
	const struct bpf_insn *li = bpf_program__insns(lp);
	size_t ln = bpf_program__insn_cnt(lp), n;
	const struct bg_raw_insn *r = bg_program__raw(p, &n);

	if (ln != n) {
		T_FAIL(tname, "%zu slots, libbpf has %zu", n, ln);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *a = &li[i];
		const struct bg_raw_insn *b = &r[i];

		if (a->code == 0x18 && (a->src_reg == BPF_PSEUDO_MAP_FD || a->src_reg == BPF_PSEUDO_MAP_VALUE)) {
			const struct bg_map_def *m = bg_object__map(obj, (size_t)b->imm);
			int want = a->src_reg == BPF_PSEUDO_MAP_FD ? BG_PSEUDO_MAP_IDX : BG_PSEUDO_MAP_IDX_VALUE;

			if (b->src_reg != want || !m || !same_map(libbpf_map_name(lo, a->imm), m->name) ||
			    (want == BG_PSEUDO_MAP_IDX_VALUE && a[1].imm != b[1].imm)) {
				T_FAIL(tname, "insn %zu: map reference src %u imm %d (+%d), libbpf map %s src %u (+%d)",
				       i, b->src_reg, b->imm, b[1].imm, libbpf_map_name(lo, a->imm), a->src_reg,
				       a[1].imm);
				return -1;
			}
			i++;
			continue;
		}
		if (memcmp(a, b, sizeof(*a))) {
			T_FAIL(tname, "insn %zu: ours %02x %u/%u off %d imm %d, libbpf %02x %u/%u off %d imm %d", i,
			       b->code, b->dst_reg, b->src_reg, b->off, b->imm, a->code, a->dst_reg, a->src_reg,
			       a->off, a->imm);
			return -1;
		}
	}
	return 0;
}

static void compare_object(const char *path)
{
	char err[512], tname[512];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct bg_object *obj = bg_object__open(path, NULL, err, sizeof(err));
	struct bpf_object *lo;
	struct bpf_program *lp;
	int rc;

	snprintf(tname, sizeof(tname), "libbpf-agree-%s", base);
	if (!obj) {
		T_FAIL(tname, "open: %s", err);
		return;
	}
	lo = bpf_object__open_file(path, NULL);
	if (!lo) {
		T_SKIP(tname, "libbpf cannot open it (%s)", strerror(errno));
		bg_object__free(obj);
		return;
	}
	/* first everything (a poisoned insn on a dead branch still loads), then
	 * without the programs we poisoned */
	rc = bpf_object__load(lo);
	if (rc) {
		bpf_object__close(lo);
		lo = bpf_object__open_file(path, NULL);
		if (!lo) {
			T_FAIL(tname, "libbpf reopen failed");
			bg_object__free(obj);
			return;
		}
		bpf_object__for_each_program(lp, lo) {
			const struct bg_program *p = bg_object__find_prog(obj, bpf_program__name(lp));
			if (!p || bg_program__core_failure_cnt(p))
				bpf_program__set_autoload(lp, false);
		}
		rc = bpf_object__load(lo);
	}
	if (rc) {
		T_SKIP(tname, "libbpf load failed: %s", strerror(-rc));
		goto out;
	}
	bpf_object__for_each_program(lp, lo) {
		const struct bg_program *p = bg_object__find_prog(obj, bpf_program__name(lp));
		char pn[600];

		if (!bpf_program__autoload(lp))
			continue;
		snprintf(pn, sizeof(pn), "%s:%s", tname, bpf_program__name(lp));
		if (!p)
			T_FAIL(pn, "program missing from our object");
		else if (!compare_prog(pn, lo, lp, obj, p))
			T_PASS(pn);
	}
out:
	bpf_object__close(lo);
	bg_object__free(obj);
}

static int silent(enum libbpf_print_level l, const char *f, va_list ap)
{
	(void)l, (void)f, (void)ap;
	return 0;
}

int main(void)
{
	static const char *const data[] = {"calls", "maps", "core"};
	char buf[PATH_MAX], dir[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (geteuid() != 0 || bg_kern_available(NULL) != 1) {
		T_SKIP("libbpf-agree", "bpf() unavailable: libbpf must load to finalize instructions");
		return 0;
	}
	libbpf_set_print(silent);
	d = opendir(tu_examples_dir(dir, sizeof(dir)));
	while (d && (de = readdir(d))) {
		if (strlen(de->d_name) > 2 && !strcmp(de->d_name + strlen(de->d_name) - 2, ".o")) {
			snprintf(buf, sizeof(buf), "%s/%s", dir, de->d_name);
			compare_object(buf);
		}
	}
	if (d)
		closedir(d);
	if (tu_compile_all())
		T_FAIL("libbpf-agree-compile", "cannot compile tests/data/obj");
	for (size_t i = 0; i < sizeof(data) / sizeof(data[0]); i++)
		for (size_t vi = 0; vi < sizeof(tu_variants) / sizeof(tu_variants[0]); vi++)
			if (!access(tu_obj(data[i], tu_variants[vi], buf, sizeof(buf)), R_OK))
				compare_object(buf);
	tu_cleanup();
	T_EXIT();
}
