/* The guest's initrd, built on the fly as one uncompressed newc cpio:
 *   /bin/busybox (+ /bin/sh link), /init (a shell script), the loader (a
 *   bpfgate binary) at /bin/bpfgate with every shared library ldd names at
 *   its host path, the objects as /o/NNNNNN.o (index order = name order),
 *   the image's kernel configuration as /boot/config-RELEASE when cached.
 * /init mounts proc/sys/dev, lifts the memlock limit (5.10 charges BPF memory
 * to it), prints "BG-BEGIN release uptime" on /dev/ttyS1, runs one loader
 * process over every object with its records on ttyS1, prints
 * "BG-END status uptime" and powers off. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cc/spawn.h"
#include "kvm/kvm_int.h"

#define BUSYBOX_PATHS "/bin/busybox", "/usr/bin/busybox"

struct cpio {
	FILE *f;
	unsigned ino;
	int err;
};

static void pad4(struct cpio *c)
{
	long pos = ftell(c->f);

	while (pos > 0 && pos % 4) {
		fputc(0, c->f);
		pos++;
	}
}

static void entry(struct cpio *c, const char *name, unsigned mode, const void *data, size_t n)
{
	fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		++c->ino, mode, 0u, 0u, 1u, 0u, n, 0u, 0u, 0u, 0u, strlen(name) + 1, 0u);
	fwrite(name, 1, strlen(name) + 1, c->f);
	pad4(c);
	if (n && fwrite(data, 1, n, c->f) != n)
		c->err = -EIO;
	pad4(c);
}

static void dir(struct cpio *c, const char *name)
{
	entry(c, name, 040755, NULL, 0);
}

/* Every parent directory of path (without the leading '/'), once. */
static void parents(struct cpio *c, const char *path, char (*seen)[256], size_t *nseen)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path[0] == '/' ? path + 1 : path);
	for (char *p = tmp; (p = strchr(p, '/')); p++) {
		size_t i;

		*p = 0;
		for (i = 0; i < *nseen && strcmp(seen[i], tmp); i++)
			;
		if (i == *nseen && *nseen < 64) {
			snprintf(seen[(*nseen)++], 256, "%s", tmp);
			dir(c, tmp);
		}
		*p = '/';
	}
}

static int file(struct cpio *c, const char *name, const char *host, unsigned mode)
{
	size_t n = 0;
	char *buf = bg_read_file(host, &n);

	if (!buf)
		return -errno ? -errno : -EIO;
	entry(c, name, 0100000 | mode, buf, n);
	free(buf);
	return 0;
}

static const char *find_busybox(void)
{
	static const char *const paths[] = {BUSYBOX_PATHS};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

/* The shared libraries of exe (ldd), as host paths into libs[]. */
static int shared_libs(const char *exe, const char *scratch, char libs[][PATH_MAX], int max)
{
	char out[PATH_MAX + 16], *txt, *save = NULL;
	char *av[] = {(char *)"ldd", (char *)exe, NULL};
	int n = 0, rc;

	snprintf(out, sizeof(out), "%s.ldd", scratch);
	rc = bg_spawn(av, out, NULL, 30);
	txt = bg_read_file(out, NULL);
	unlink(out);
	if (rc || !txt) {
		free(txt);
		return -ENOEXEC;
	}
	for (char *l = strtok_r(txt, "\n", &save); l && n < max; l = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(l, "=> "), *p = arrow ? arrow + 3 : l, *sp;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '/')
			continue;
		sp = strchr(p, ' ');
		if (sp)
			*sp = 0;
		snprintf(libs[n++], PATH_MAX, "%s", p);
	}
	free(txt);
	return n;
}

static const char init_script[] =
    "#!/bin/sh\n"
    "export PATH=/bin\n"
    "busybox mkdir -p /proc /sys /dev /tmp\n"
    "busybox mount -t proc proc /proc\n"
    "busybox mount -t sysfs sys /sys\n"
    "busybox mount -t devtmpfs dev /dev 2>/dev/null\n"
    "ulimit -l unlimited 2>/dev/null\n"
    "[ -c /dev/ttyS1 ] || echo \"bpfgate-init: no /dev/ttyS1\" >/dev/console\n"
    "busybox stty -F /dev/ttyS1 raw -echo 2>/dev/null\n"
    "echo \"bpfgate-init: judging $(busybox ls /o | busybox wc -l) objects\" >/dev/console\n"
    "up() { read u rest </proc/uptime; echo $u; }\n"
    "echo \"BG-BEGIN $(busybox uname -r) $(up)\" >/dev/ttyS1\n"
    "/bin/bpfgate kload --records %s /o/*.o >/dev/ttyS1 2>/dev/console\n"
    "st=$?\n"
    "echo \"BG-END $st $(up)\" >/dev/ttyS1\n"
    "echo \"bpfgate-init: loader exit status $st\" >/dev/console\n"
    "busybox sync\n"
    "busybox poweroff -f\n";

int bg_kvm_initrd(const char *path, const char *loader, const char *const *objs, size_t nobj,
		  const char *loader_args, const char *config, const char *release, char *err,
		  size_t errlen)
{
	struct stat cst;
	char libs[32][PATH_MAX], seen[64][256], name[64], script[sizeof(init_script) + 256];
	size_t nseen = 0;
	const char *bb = find_busybox();
	struct cpio c = {0};
	int nlib, e;

	if (!bb) {
		snprintf(err, errlen, "busybox not found (install busybox-static)");
		return -ENOENT;
	}
	nlib = shared_libs(loader, path, libs, 32);
	if (nlib < 0) {
		snprintf(err, errlen, "cannot list the shared libraries of %s (ldd failed)", loader);
		return nlib;
	}
	if (!(c.f = fopen(path, "wb"))) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return -errno;
	}
	dir(&c, "bin");
	dir(&c, "o");
	snprintf(seen[nseen++], 256, "bin");
	if ((e = file(&c, "bin/busybox", bb, 0755))) {
		snprintf(err, errlen, "cannot read %s: %s", bb, strerror(-e));
		goto out;
	}
	entry(&c, "bin/sh", 0120777, "busybox", 7);
	snprintf(script, sizeof(script), init_script, loader_args ? loader_args : "");
	entry(&c, "init", 0100755, script, strlen(script));
	if ((e = file(&c, "bin/bpfgate", loader, 0755))) {
		snprintf(err, errlen, "cannot read the loader %s: %s", loader, strerror(-e));
		goto out;
	}
	for (int i = 0; i < nlib; i++) {
		parents(&c, libs[i], seen, &nseen);
		if ((e = file(&c, libs[i] + 1, libs[i], 0755))) {
			snprintf(err, errlen, "cannot read %s: %s", libs[i], strerror(-e));
			goto out;
		}
	}
	if (config && release && release[0] && !stat(config, &cst) && cst.st_size > 0) {
		char cname[160];
		dir(&c, "boot");
		snprintf(cname, sizeof(cname), "boot/config-%s", release);
		if ((e = file(&c, cname, config, 0644))) {
			snprintf(err, errlen, "cannot read %s: %s", config, strerror(-e));
			goto out;
		}
	}
	for (size_t i = 0; i < nobj; i++) {
		snprintf(name, sizeof(name), "o/%06zu.o", i);
		if ((e = file(&c, name, objs[i], 0644))) {
			snprintf(err, errlen, "cannot read %s: %s", objs[i], strerror(-e));
			goto out;
		}
	}
	entry(&c, "TRAILER!!!", 0, NULL, 0);
	e = c.err;
	if (e)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
out:
	if (fclose(c.f) && !e) {
		e = -EIO;
		snprintf(err, errlen, "cannot write %s", path);
	}
	return e;
}
