/* Debug metadata of a textual LLVM IR module (see irmeta.h). One pass
 * indexes the `!N = ...` lines; lookups follow scope chains by id, bounded
 * by a depth limit so a cyclic (hostile) chain cannot loop. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cc/irmeta.h"
#include "cc/spawn.h"

#define MAX_SCOPE_DEPTH 64

/* The unsigned value after "key: " in s, or 0. */
static uint32_t field_u(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? (uint32_t)strtoul(p + strlen(key), NULL, 10) : 0;
}

/* The metadata id after "key: !" in s, or -1. */
static long field_ref(const char *s, const char *key)
{
	char k[32];
	const char *p;

	snprintf(k, sizeof(k), "%s: !", key);
	p = strstr(s, k);
	return p && p[strlen(k)] >= '0' && p[strlen(k)] <= '9' ? strtol(p + strlen(k), NULL, 10)
							       : -1;
}

/* Copy the quoted string after key: "..." into out. */
static bool field_str(const char *s, const char *key, char *out, size_t sz)
{
	char k[32];
	const char *p, *e;

	snprintf(k, sizeof(k), "%s: \"", key);
	p = strstr(s, k);
	if (!p)
		return false;
	p += strlen(k);
	e = strchr(p, '"');
	if (!e)
		return false;
	snprintf(out, sz, "%.*s", (int)(e - p), p);
	return true;
}

static const char *md_get(const struct ir_meta *m, long id)
{
	return id >= 0 && (size_t)id < m->nmd ? m->md[id] : NULL;
}

/* The filename of the scope chain starting at id (DISubprogram,
 * DILexicalBlock... all carry file:). */
static bool scope_file(const struct ir_meta *m, long id, char *out, size_t sz)
{
	for (int d = 0; d < MAX_SCOPE_DEPTH; d++) {
		const char *s = md_get(m, id), *f;

		if (!s)
			return false;
		f = md_get(m, field_ref(s, "file"));
		if (f && field_str(f, "filename", out, sz))
			return true;
		id = field_ref(s, "scope");
	}
	return false;
}

static int index_md(struct ir_meta *m)
{
	size_t max = 0;

	for (char *p = m->text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (p[0] == '!' && p[1] >= '0' && p[1] <= '9') {
			size_t id = strtoul(p + 1, NULL, 10);

			if (id < (1u << 24) && id + 1 > max)
				max = id + 1;
		}
	m->md = calloc(max ? max : 1, sizeof(char *));
	if (!m->md)
		return -ENOMEM;
	m->nmd = max;
	for (char *p = m->text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *eq;
		size_t id;

		if (p[0] != '!' || p[1] < '0' || p[1] > '9')
			continue;
		id = strtoul(p + 1, &eq, 10);
		if (id < max && !strncmp(eq, " = ", 3))
			m->md[id] = eq + 3;
	}
	/* terminate each line so lookups cannot run into the next one */
	for (char *p = m->text; (p = strchr(p, '\n')); p++)
		*p = 0;
	return 0;
}

static int collect(struct ir_meta *m)
{
	size_t cap_sp = 0;

	for (size_t i = 0; i < m->nmd; i++) {
		const char *s = m->md[i];
		struct ir_subprogram sp = {0};

		if (!s || !strstr(s, "DISubprogram(") || !strstr(s, "DISPFlagDefinition"))
			continue;
		if (!field_str(s, "name", sp.name, sizeof(sp.name)) ||
		    !scope_file(m, (long)i, sp.file, sizeof(sp.file)))
			continue;
		sp.line = field_u(s, "line: ");
		if (m->nsps == cap_sp) {
			void *t = realloc(m->sps, (cap_sp = cap_sp ? 2 * cap_sp : 16) * sizeof(sp));

			if (!t)
				return -ENOMEM;
			m->sps = t;
		}
		m->sps[m->nsps++] = sp;
	}
	return 0;
}

/* Positions of llvm.expect calls: lines before the metadata (code lines
 * were NUL-terminated by index_md, so walk them by length). */
static int collect_expects(struct ir_meta *m, size_t len)
{
	size_t cap = 0;

	for (size_t off = 0; off < len;) {
		const char *line = m->text + off, *dbg;
		size_t l = strlen(line);
		struct ir_pos pos = {0};
		const char *loc;

		off += l + 1;
		if (!strstr(line, "@llvm.expect.") || !strstr(line, "call ") ||
		    !(dbg = strstr(line, "!dbg !")))
			continue;
		loc = md_get(m, strtol(dbg + 6, NULL, 10));
		if (!loc || !strstr(loc, "DILocation("))
			continue;
		pos.line = field_u(loc, "line: ");
		pos.col = field_u(loc, "column: ");
		if (!scope_file(m, field_ref(loc, "scope"), pos.file, sizeof(pos.file)))
			continue;
		if (m->nexpects == cap) {
			void *t = realloc(m->expects, (cap = cap ? 2 * cap : 16) * sizeof(pos));

			if (!t)
				return -ENOMEM;
			m->expects = t;
		}
		m->expects[m->nexpects++] = pos;
	}
	return 0;
}

int ir_meta_load(struct ir_meta *m, const char *path)
{
	size_t len = 0;
	int err;

	memset(m, 0, sizeof(*m));
	m->text = bg_read_file(path, &len);
	if (!m->text)
		return -errno;
	len = strlen(m->text);
	err = index_md(m);
	err = err ?: collect(m);
	err = err ?: collect_expects(m, len);
	if (err)
		ir_meta_free(m);
	return err;
}

void ir_meta_free(struct ir_meta *m)
{
	free(m->text);
	free(m->md);
	free(m->sps);
	free(m->expects);
	memset(m, 0, sizeof(*m));
}

bool ir_same_file(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	const char *lng = la >= lb ? a : b, *sht = la >= lb ? b : a;
	size_t ll = la >= lb ? la : lb, ls = la >= lb ? lb : la;

	while (ls > 2 && !strncmp(sht, "./", 2)) {
		sht += 2;
		ls -= 2;
	}
	if (!ls || strcmp(lng + ll - ls, sht))
		return false;
	return ll == ls || lng[ll - ls - 1] == '/';
}
