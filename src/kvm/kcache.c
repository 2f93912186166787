/* The kernel image cache: Debian's kernel packages fetched with a private apt
 * configuration and unpacked with dpkg-deb, keeping only the image.
 *
 * Layout under the root ($XDG_CACHE_HOME/bpfgate or ~/.cache/bpfgate):
 *   apt/sources.list, apt/parts/, apt/state/, apt/cache/  - apt's own world
 *   kernels/VER/vmlinuz, kernels/VER/info                  - one image per series
 * apt-get runs with Dir::Etc::SourceList/SourceParts/State/Cache pointing
 * there, so the host's sources and package state are never read or written;
 * `apt-get download` only fetches a .deb, which is unpacked into a scratch
 * dir and deleted. A series name resolves to the newest plain amd64 image of
 * that series in the suites below (backports to older suites last). */
#define _GNU_SOURCE /* strverscmp */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cc/spawn.h"
#include "kvm/kvm.h"

/* Where each series lives: the suites listed in the private sources.list.
 * The mirror is Debian's default one; $BPFGATE_DEBIAN_MIRROR overrides. */
static const struct {
	const char *archive; /* path under the mirror */
	const char *suite;
} suites[] = {
	{"debian-security", "bullseye-security"}, /* 5.10 */
	{"debian-security", "bookworm-security"}, /* 6.1, 6.12 */
	{"debian", "sid"},                        /* the newest (7.x) */
};
#define KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg"
#define LISTS_MAX_AGE (24 * 3600)
#define APT_TIMEOUT 600

int bg_kcache_default_root(const char *x, const char *home, char *buf, size_t n)
{
	int k;

	if (x && *x)
		k = snprintf(buf, n, "%s/bpfgate", x);
	else if (home && *home)
		k = snprintf(buf, n, "%s/.cache/bpfgate", home);
	else
		return -ENOENT;
	return k < 0 || (size_t)k >= n ? -ENAMETOOLONG : 0;
}

bool bg_kcache_valid_ver(const char *v)
{
	int dots = 0;

	if (!v || !isdigit((unsigned char)*v) || strlen(v) > 16)
		return 0;
	for (; *v; v++) {
		if (*v == '.' && isdigit((unsigned char)v[1]))
			dots++;
		else if (!isdigit((unsigned char)*v))
			return 0;
	}
	return dots == 1;
}

static int mkdirs(const char *path)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int rmtree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d)
		return unlink(path) ? -errno : 0;
	while ((e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (!lstat(sub, &st) && S_ISDIR(st.st_mode))
			rmtree(sub);
		else
			unlink(sub);
	}
	closedir(d);
	return rmdir(path) ? -errno : 0;
}

/* Run argv in cwd (NULL: here) with stdout to *out and stderr to *err
 * (malloc'd, may be NULL). Returns the exit status or a negative errno. */
static int run(char *const argv[], const char *cwd, const char *scratch, char **out, char **err)
{
	char op[PATH_MAX], ep[PATH_MAX];
	int rc;
	pid_t pid;

	snprintf(op, sizeof(op), "%s/.out.%d", scratch, (int)getpid());
	snprintf(ep, sizeof(ep), "%s/.err.%d", scratch, (int)getpid());
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int o = open(op, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(ep, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_RDONLY);

		if (o < 0 || e < 0 || nul < 0 || (cwd && chdir(cwd)))
			_exit(127);
		dup2(nul, 0);
		dup2(o, 1);
		dup2(e, 2);
		alarm(APT_TIMEOUT);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &rc, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (out)
		*out = bg_read_file(op, NULL);
	if (err)
		*err = bg_read_file(ep, NULL);
	unlink(op);
	unlink(ep);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
}

/* The apt options that make apt-get/apt-cache use only the cache's files. */
struct aptcfg {
	char root[PATH_MAX];
	char opt[8][PATH_MAX + 64];
	int nopt;
};

static int apt_setup(struct aptcfg *c, const char *root, const char *mirror, char *err,
		     size_t errlen)
{
	char p[PATH_MAX + 64];
	FILE *f;
	int e;

	if (!root || !*root) {
		snprintf(err, errlen, "no cache directory (set XDG_CACHE_HOME or HOME)");
		return -ENOENT;
	}
	if (snprintf(c->root, sizeof(c->root), "%s", root) >= (int)sizeof(c->root)) {
		snprintf(err, errlen, "cache directory name too long");
		return -ENAMETOOLONG;
	}
	static const char *const dirs[] = {"apt/parts", "apt/state/lists/partial",
					   "apt/cache/archives/partial", "kernels", "tmp"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", c->root, dirs[i]);
		if ((e = mkdirs(p)) < 0) {
			snprintf(err, errlen, "cannot create %s: %s", p, strerror(-e));
			return e;
		}
	}
	snprintf(p, sizeof(p), "%s/apt/sources.list", c->root);
	if (!(f = fopen(p, "w"))) {
		snprintf(err, errlen, "cannot write %s: %s", p, strerror(errno));
		return -errno;
	}
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		fprintf(f, "deb [signed-by=%s] %s/%s %s main\n", KEYRING,
			mirror && *mirror ? mirror : "http://deb.debian.org", suites[i].archive,
			suites[i].suite);
	fclose(f);
	snprintf(p, sizeof(p), "%s/apt/state/status", c->root);
	if ((f = fopen(p, "a")))
		fclose(f);
	c->nopt = 0;
	snprintf(p, sizeof(p), "%s", c->root);
#define OPT(...) snprintf(c->opt[c->nopt++], sizeof(c->opt[0]), __VA_ARGS__)
	OPT("Dir::Etc::SourceList=%s/apt/sources.list", p);
	OPT("Dir::Etc::SourceParts=%s/apt/parts", p);
	OPT("Dir::State=%s/apt/state", p);
	OPT("Dir::State::status=%s/apt/state/status", p);
	OPT("Dir::Cache=%s/apt/cache", p);
	OPT("Acquire::Languages=none");
	OPT("APT::Architecture=amd64");
	OPT("APT::Architectures::=amd64");
#undef OPT
	return 0;
}

/* argv = tool, -o opt..., then extra (NULL-terminated); static storage. */
static char **apt_argv(struct aptcfg *c, const char *tool, const char *const *extra)
{
	static char *av[64];
	int n = 0;

	av[n++] = (char *)tool;
	for (int i = 0; i < c->nopt; i++) {
		av[n++] = (char *)"-o";
		av[n++] = c->opt[i];
	}
	for (; *extra && n < 62; extra++)
		av[n++] = (char *)*extra;
	av[n] = NULL;
	return av;
}

static char *last_line(char *s)
{
	char *e, *b;

	if (!s)
		return (char *)"";
	e = s + strlen(s);
	while (e > s && (e[-1] == '\n' || e[-1] == ' '))
		*--e = 0;
	b = strrchr(s, '\n');
	return b ? b + 1 : s;
}

/* apt-get update when the lists are missing, older than a day, or force. */
static int apt_update(struct aptcfg *c, int force, char *err, size_t errlen)
{
	char stamp[PATH_MAX + 32], scratch[PATH_MAX + 8], *eo = NULL;
	const char *extra[] = {"-q", "update", NULL};
	struct stat st;
	int rc;

	snprintf(stamp, sizeof(stamp), "%s/apt/state/updated", c->root);
	if (!force && !stat(stamp, &st) && time(NULL) - st.st_mtime < LISTS_MAX_AGE)
		return 0;
	snprintf(scratch, sizeof(scratch), "%s/tmp", c->root);
	rc = run(apt_argv(c, "apt-get", extra), NULL, scratch, NULL, &eo);
	/* apt-get update exits 0 with "W: Failed to fetch" when offline */
	if (rc || (eo && (strstr(eo, "Failed to fetch") || strstr(eo, "Could not resolve")))) {
		snprintf(err, errlen,
			 "Debian's package registry is unreachable (apt-get update: %s)",
			 rc < 0 ? strerror(-rc) : last_line(eo));
		free(eo);
		return BG_KCACHE_UNREACHABLE;
	}
	free(eo);
	{
		FILE *f = fopen(stamp, "w");

		if (f)
			fclose(f);
	}
	return 0;
}

/* Is name "linux-image-REL-amd64" with REL in series ver? Copies REL. */
static int image_release(const char *name, const char *ver, char *rel, size_t n)
{
	const char *pre = "linux-image-", *suf = "-amd64";
	size_t ln = strlen(name), lv = strlen(ver), lp = strlen(pre), ls = strlen(suf);
	char c;

	if (ln <= lp + ls || strncmp(name, pre, lp) || strcmp(name + ln - ls, suf))
		return 0;
	if (strncmp(name + lp, ver, lv))
		return 0;
	c = name[lp + lv];
	if (c != '.' && c != '-' && c != '+')
		return 0;
	if (strstr(name + lp, "cloud") || strstr(name + lp, "-rt-") ||
	    ln - lp - ls >= n || !isdigit((unsigned char)name[lp + lv + 1]))
		return 0;
	/* "6.1-amd64" is the meta package; a release has a patch level */
	memcpy(rel, name + lp, ln - lp - ls);
	rel[ln - lp - ls] = 0;
	return strchr(rel + lv + 1, '.') || strchr(rel + lv, '-') || strchr(rel, '+');
}

/* Backports to an older suite ("6.1.0-0.deb11.52") sort below the series' own. */
static int rel_better(const char *a, const char *b)
{
	int ba = strstr(a, "-0.deb") != NULL, bb = strstr(b, "-0.deb") != NULL;

	if (ba != bb)
		return bb;
	return strverscmp(a, b) > 0;
}

static int resolve(struct aptcfg *c, const char *ver, char *rel, size_t n)
{
	char pfx[64], scratch[PATH_MAX + 8], *out = NULL, *save = NULL;
	const char *extra[] = {"pkgnames", pfx, NULL};
	int rc;

	snprintf(pfx, sizeof(pfx), "linux-image-%s", ver);
	snprintf(scratch, sizeof(scratch), "%s/tmp", c->root);
	rc = run(apt_argv(c, "apt-cache", extra), NULL, scratch, &out, NULL);
	rel[0] = 0;
	if (rc == 0 && out) {
		for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char r[96];

			if (image_release(l, ver, r, sizeof(r)) && (!rel[0] || rel_better(r, rel)))
				snprintf(rel, n, "%s", r);
		}
	}
	free(out);
	return rel[0] ? 0 : BG_KCACHE_NO_VERSION;
}

/* Find a file whose name starts with prefix under dir (boot/vmlinuz-REL or
 * usr/lib/modules/REL/vmlinuz; boot/config-REL); path into out. */
static int find_named(const char *dir, const char *prefix, char *out, size_t n, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d || depth > 6) {
		if (d)
			closedir(d);
		return 0;
	}
	while (!found && (e = readdir(d))) {
		char sub[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (lstat(sub, &st))
			continue;
		if (S_ISREG(st.st_mode) && !strncmp(e->d_name, prefix, strlen(prefix))) {
			snprintf(out, n, "%s", sub);
			found = 1;
		} else if (S_ISDIR(st.st_mode) && strcmp(e->d_name, "kernel")) {
			found = find_named(sub, prefix, out, n, depth + 1);
		}
	}
	closedir(d);
	return found;
}

/* apt-get download pkg into dl/, unpack every .deb into x/. */
static int download_unpack(struct aptcfg *c, const char *pkg, const char *dl, const char *x,
			   char *pkgver, size_t pvlen, char *err, size_t errlen)
{
	const char *extra[] = {"-q", "download", pkg, NULL};
	char scratch[PATH_MAX + 8], *eo = NULL;
	DIR *d;
	struct dirent *e;
	int rc;

	snprintf(scratch, sizeof(scratch), "%s/tmp", c->root);
	rc = run(apt_argv(c, "apt-get", extra), dl, scratch, NULL, &eo);
	if (rc) {
		snprintf(err, errlen, "apt-get download %s failed: %s", pkg,
			 rc < 0 ? strerror(-rc) : last_line(eo));
		free(eo);
		return rc < 0 ? rc : -EIO;
	}
	free(eo);
	if (!(d = opendir(dl)))
		return -errno;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char deb[PATH_MAX];

		if (l < 5 || strcmp(e->d_name + l - 4, ".deb"))
			continue;
		snprintf(deb, sizeof(deb), "%s/%s", dl, e->d_name);
		char *av[] = {(char *)"dpkg-deb", (char *)"-x", deb, (char *)x, NULL};
		char *fv[] = {(char *)"dpkg-deb", (char *)"-f", deb, (char *)"Version", NULL};
		char *vo = NULL;

		if (!run(fv, NULL, scratch, &vo, NULL) && vo && !pkgver[0])
			snprintf(pkgver, pvlen, "%s", last_line(vo));
		free(vo);
		rc = run(av, NULL, scratch, NULL, &eo);
		unlink(deb);
		if (rc) {
			snprintf(err, errlen, "dpkg-deb -x %s failed: %s", e->d_name, last_line(eo));
			free(eo);
			closedir(d);
			return -EIO;
		}
		free(eo);
	}
	closedir(d);
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	size_t n = 0;
	char *buf = bg_read_file(from, &n);
	FILE *f;
	int ok;

	if (!buf)
		return -errno;
	f = fopen(to, "wb");
	ok = f && fwrite(buf, 1, n, f) == n;
	if (f && fclose(f))
		ok = 0;
	free(buf);
	return ok ? 0 : -EIO;
}

static int read_info(const char *dir, const char *ver, struct bg_kimage *k)
{
	char p[PATH_MAX], line[512];
	FILE *f;

	memset(k, 0, sizeof(*k));
	snprintf(k->ver, sizeof(k->ver), "%s", ver);
	snprintf(k->vmlinuz, sizeof(k->vmlinuz), "%s/vmlinuz", dir);
	snprintf(p, sizeof(p), "%s/info", dir);
	if (access(k->vmlinuz, R_OK) || !(f = fopen(p, "r")))
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '='), *nl = strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (!eq)
			continue;
		*eq++ = 0;
		if (!strcmp(line, "release"))
			snprintf(k->release, sizeof(k->release), "%s", eq);
		else if (!strcmp(line, "package"))
			snprintf(k->package, sizeof(k->package), "%s", eq);
		else if (!strcmp(line, "version"))
			snprintf(k->pkgver, sizeof(k->pkgver), "%s", eq);
	}
	fclose(f);
	return 0;
}

int bg_kcache_get(const char *root, const char *ver, struct bg_kimage *out)
{
	char dir[PATH_MAX + 64];

	if (!bg_kcache_valid_ver(ver))
		return -EINVAL;
	if (!root || !*root)
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/kernels/%s", root, ver);
	return read_info(dir, ver, out);
}

static int cmp_kimage(const void *a, const void *b)
{
	return strverscmp(((const struct bg_kimage *)a)->ver, ((const struct bg_kimage *)b)->ver);
}

int bg_kcache_list(const char *root, struct bg_kimage **out, size_t *n)
{
	char dir[PATH_MAX + 16];
	struct dirent *e;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (!root || !*root)
		return 0;
	snprintf(dir, sizeof(dir), "%s/kernels", root);
	if (!(d = opendir(dir)))
		return 0;
	while ((e = readdir(d))) {
		struct bg_kimage k, *grown;

		if (!bg_kcache_valid_ver(e->d_name) || bg_kcache_get(root, e->d_name, &k))
			continue;
		grown = realloc(*out, (*n + 1) * sizeof(k));
		if (!grown)
			break;
		*out = grown;
		(*out)[(*n)++] = k;
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_kimage);
	return 0;
}

int bg_kcache_remove(const char *root, const char *ver)
{
	char dir[PATH_MAX + 64];
	struct bg_kimage k;

	if (bg_kcache_get(root, ver, &k))
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/kernels/%s", root, ver);
	return rmtree(dir);
}

/* usr/lib/modules/REL/config under x (newer packaging: linux-base-REL holds
 * it); path into out. */
static bool modules_config(const char *x, char *out, size_t n)
{
	char dir[PATH_MAX + 32];
	DIR *d;
	struct dirent *e;
	bool found = false;

	snprintf(dir, sizeof(dir), "%s/usr/lib/modules", x);
	if (!(d = opendir(dir)))
		return false;
	while (!found && (e = readdir(d))) {
		char p[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		if (snprintf(p, sizeof(p), "%s/%s/config", dir, e->d_name) < (int)sizeof(p) && !stat(p, &st) &&
		    S_ISREG(st.st_mode)) {
			snprintf(out, n, "%s", p);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* Keep the kernel configuration the unpacked packages under x hold
 * (boot/config-REL, or usr/lib/modules/REL/config) as dst/config, written under a temporary name and
 * renamed (a concurrent boot reads either none or all of it); an empty file
 * when there is none, so a later fetch does not look again. */
static void keep_config(const char *x, const char *dst)
{
	char cfg[PATH_MAX], tmp[PATH_MAX + 80], p[PATH_MAX + 80];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/config.%d", dst, (int)getpid());
	snprintf(p, sizeof(p), "%s/config", dst);
	bool found = find_named(x, "config-", cfg, sizeof(cfg), 0) || modules_config(x, cfg, sizeof(cfg));
	if (found ? copy_file(cfg, tmp) : !(f = fopen(tmp, "w")) || fclose(f))
		return;
	if (rename(tmp, p))
		unlink(tmp);
}

/* The image in linux-binary-REL: its configuration is in linux-base-REL
 * (Debian's packaging from 7.x); unpacked into x too. Best effort. */
static void base_package(struct aptcfg *c, const char *image_pkg, const char *dl, const char *x)
{
	char pkg[200], pkgver[64], err[256];

	if (strncmp(image_pkg, "linux-binary-", 13))
		return;
	snprintf(pkg, sizeof(pkg), "linux-base-%s", image_pkg + 13);
	download_unpack(c, pkg, dl, x, pkgver, sizeof(pkgver), err, sizeof(err));
}

/* An image cached before configurations were kept: download its package
 * again (the same package name, so the same release) for boot/config-REL.
 * Best effort: an unreachable registry leaves it for a later fetch. */
static void fetch_config(const char *root, const char *mirror, const struct bg_kimage *k)
{
	struct aptcfg c;
	char work[PATH_MAX + 64], dl[PATH_MAX + 80], x[PATH_MAX + 80], dst[PATH_MAX + 64];
	char err[512], pkgver[64] = "";

	if (apt_setup(&c, root, mirror, err, sizeof(err)) || apt_update(&c, 0, err, sizeof(err)))
		return;
	snprintf(work, sizeof(work), "%s/tmp/config-%s.%d", root, k->ver, (int)getpid());
	snprintf(dl, sizeof(dl), "%s/dl", work);
	snprintf(x, sizeof(x), "%s/x", work);
	snprintf(dst, sizeof(dst), "%s/kernels/%s", root, k->ver);
	rmtree(work);
	if (!mkdirs(dl) && !mkdirs(x) && !download_unpack(&c, k->package, dl, x, pkgver, sizeof(pkgver), err, sizeof(err))) {
		/* newer packaging splits linux-binary-REL (the image) from
		 * linux-base-REL (usr/lib/modules/REL/config) */
		base_package(&c, k->package, dl, x);
		keep_config(x, dst);
		if (!strncmp(k->package, "linux-binary-", 13)) {
			char p[PATH_MAX + 80];
			FILE *f;
			snprintf(p, sizeof(p), "%s/base-looked", dst);
			if ((f = fopen(p, "w")))
				fclose(f);
		}
	}
	rmtree(work);
}

/* Download the image package of rel (and its linux-binary package when the
 * image is not in the first) and keep vmlinuz in kernels/ver. */
static int fetch_release(struct aptcfg *c, const char *ver, const char *rel, char *err,
			 size_t errlen)
{
	char work[PATH_MAX + 64], dl[PATH_MAX + 80], x[PATH_MAX + 80], img[PATH_MAX];
	char dst[PATH_MAX + 64], pkg[160], p[PATH_MAX + 80], pkgver[64] = "";
	const char *pkgs[2][2] = {{"linux-image-%s-amd64", NULL}, {"linux-binary-%s-amd64", NULL}};
	int e = 0, found = 0;
	FILE *f;

	snprintf(work, sizeof(work), "%s/tmp/fetch-%s.%d", c->root, ver, (int)getpid());
	snprintf(dl, sizeof(dl), "%s/dl", work);
	snprintf(x, sizeof(x), "%s/x", work);
	rmtree(work);
	if ((e = mkdirs(dl)) || (e = mkdirs(x))) {
		snprintf(err, errlen, "cannot create %s: %s", work, strerror(-e));
		return e;
	}
	for (int i = 0; i < 2 && !found; i++) {
		snprintf(pkg, sizeof(pkg), pkgs[i][0], rel);
		if ((e = download_unpack(c, pkg, dl, x, pkgver, sizeof(pkgver), err, errlen)))
			break;
		found = find_named(x, "vmlinuz", img, sizeof(img), 0);
	}
	if (!e && !found) {
		snprintf(err, errlen, "no vmlinuz in the packages of %s", rel);
		e = -ENOENT;
	}
	snprintf(dst, sizeof(dst), "%s/kernels/%s", c->root, ver);
	if (!e && !(e = mkdirs(dst))) {
		base_package(c, pkg, dl, x);
		keep_config(x, dst);
		snprintf(p, sizeof(p), "%s/vmlinuz", dst);
		e = copy_file(img, p);
		snprintf(p, sizeof(p), "%s/info", dst);
		if (!e && (f = fopen(p, "w"))) {
			fprintf(f, "release=%s-amd64\npackage=%s\nversion=%s\n", rel, pkg, pkgver);
			fclose(f);
		}
		if (e)
			snprintf(err, errlen, "cannot write %s: %s", dst, strerror(-e));
	}
	rmtree(work);
	return e;
}

int bg_kcache_fetch(const char *root, const char *mirror, const char *ver, struct bg_kimage *out,
		    char *err, size_t errlen)
{
	struct aptcfg c;
	char rel[96];
	int e;

	err[0] = 0;
	if (!bg_kcache_valid_ver(ver)) {
		snprintf(err, errlen, "'%s' is not a kernel series (like 5.10 or 6.12)", ver);
		return -EINVAL;
	}
	if (!bg_kcache_get(root, ver, out)) {
		char p[PATH_MAX + 80];
		struct stat st;
		char b[PATH_MAX + 80];
		snprintf(p, sizeof(p), "%s/kernels/%s/config", root, ver);
		snprintf(b, sizeof(b), "%s/kernels/%s/base-looked", root, ver);
		/* none kept yet, or an empty one of a linux-binary image cached
		 * before linux-base-REL was looked at */
		if (stat(p, &st) || (!st.st_size && !strncmp(out->package, "linux-binary-", 13) && access(b, F_OK)))
			fetch_config(root, mirror, out);
		return 0;
	}
	if ((e = apt_setup(&c, root, mirror, err, errlen)) || (e = apt_update(&c, 0, err, errlen)))
		return e;
	/* a version missing from day-old lists may have appeared since */
	if (resolve(&c, ver, rel, sizeof(rel)) &&
	    ((e = apt_update(&c, 1, err, errlen)) || resolve(&c, ver, rel, sizeof(rel)))) {
		if (!e) {
			int k = snprintf(err, errlen,
					 "Debian's registry has no amd64 kernel image of the %s series "
					 "(suites searched:",
					 ver);

			for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
				if (k > 0 && (size_t)k < errlen)
					k += snprintf(err + k, errlen - (size_t)k, " %s",
						      suites[i].suite);
			if (k > 0 && (size_t)k + 2 < errlen)
				snprintf(err + k, errlen - (size_t)k, ")");
			e = BG_KCACHE_NO_VERSION;
		}
		return e;
	}
	if ((e = fetch_release(&c, ver, rel, err, errlen)))
		return e;
	return bg_kcache_get(root, ver, out);
}
