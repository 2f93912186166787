/* The running kernel's symbol table (/proc/kallsyms), read once per process.
 * Two facts come from it, as they do for libbpf and the kernel:
 *  - a typeless ksym (`extern const void sym __ksym;`) gets the symbol's
 *    address as a plain constant (libbpf's kallsyms_cb);
 *  - the verifier refuses an ld_imm64 of a typed ksym whose name kallsyms
 *    does not know ("ldimm64 failed to find the address for kernel symbol",
 *    check_pseudo_btf_id): a kernel without CONFIG_KALLSYMS_ALL lists
 *    functions only, so per-cpu and data variables fail there.
 * Only meaningful when the target is the running kernel (no --btf). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "obj/internal.h"

struct ksym_ent {
	const char *name;
	uint64_t addr;
};

static struct {
	struct ksym_ent *e;
	size_t n;
	char *names;
	bool ok;
} tab;
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

static int ent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ksym_ent *)a)->name, ((const struct ksym_ent *)b)->name);
}

static void tab_read(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t cap = 0, ncap = 0, nlen = 0, n = 0;
	struct ksym_ent *e = NULL;
	char *names = NULL, line[512];
	unsigned long long addr;
	char type, name[256];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t l;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		l = strlen(name) + 1;
		if (nlen + l > ncap) {
			char *nn = realloc(names, ncap = (ncap + l) * 2);

			if (!nn)
				goto fail;
			names = nn;
		}
		if (n == cap) {
			struct ksym_ent *ne = realloc(e, (cap = cap ? cap * 2 : 4096) * sizeof(*e));

			if (!ne)
				goto fail;
			e = ne;
		}
		memcpy(names + nlen, name, l);
		e[n++] = (struct ksym_ent){(const char *)(uintptr_t)nlen, addr};
		nlen += l;
	}
	fclose(f);
	for (size_t i = 0; i < n; i++)
		e[i].name = names + (uintptr_t)e[i].name;
	if (n)
		qsort(e, n, sizeof(*e), ent_cmp);
	tab.e = e, tab.n = n, tab.names = names, tab.ok = n > 0;
	return;
fail:
	fclose(f);
	free(e);
	free(names);
}

int obj_kallsyms_find(const char *name, uint64_t *addr)
{
	struct ksym_ent key = {name, 0}, *hit;

	pthread_once(&tab_once, tab_read);
	if (!tab.ok)
		return -1;
	hit = bsearch(&key, tab.e, tab.n, sizeof(*tab.e), ent_cmp);
	if (!hit)
		return 0;
	if (addr)
		*addr = hit->addr;
	return 1;
}
