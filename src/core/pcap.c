/* Packet inputs (see pcap.h). Everything is read into memory; a packet is
 * at most 256 KiB, a file at most 1 GiB. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/pcap.h"

#define MAX_PACKET (256u * 1024)
#define MAX_FILE (1u << 30)

/* Read the whole file in growing chunks, so pipes and /dev/stdin work too. */
static uint8_t *slurp(const char *path, size_t *len, char *err, size_t errsz)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *nb;
	size_t cap = 0, n = 0, r;

	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			nb = cap > MAX_FILE ? NULL : realloc(buf, cap);
			if (!nb) {
				snprintf(err, errsz, "%s: %s", path,
					 cap > MAX_FILE ? "larger than 1 GiB" : strerror(ENOMEM));
				goto fail;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	if (ferror(f)) {
		snprintf(err, errsz, "%s: offset %zu: %s", path, n, strerror(errno ? errno : EIO));
		goto fail;
	}
	fclose(f);
	*len = n;
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

static int push(struct bg_packets *ps, const uint8_t *data, uint32_t len)
{
	struct bg_packet *t = realloc(ps->p, (ps->n + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	ps->p = t;
	t[ps->n].data = malloc(len ? len : 1);
	if (!t[ps->n].data)
		return -ENOMEM;
	memcpy(t[ps->n].data, data, len);
	t[ps->n++].len = len;
	return 0;
}

static uint32_t rd32(const uint8_t *p, int swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

int bg_packets_pcap(struct bg_packets *ps, const char *path, char *err, size_t errsz)
{
	size_t len, off = 24;
	uint8_t *b = slurp(path, &len, err, errsz);
	uint32_t magic;
	int swap, rc = 0;

	if (!b)
		return -EINVAL;
	if (len < 24) {
		snprintf(err, errsz, "%s: offset 0: truncated pcap header", path);
		free(b);
		return -EINVAL;
	}
	magic = rd32(b, 0);
	if (magic == 0xa1b2c3d4 || magic == 0xa1b23c4d) {
		swap = 0;
	} else if (magic == 0xd4c3b2a1 || magic == 0x4d3cb2a1) {
		swap = 1;
	} else {
		snprintf(err, errsz, "%s: offset 0: not a pcap file (magic 0x%08x)", path, magic);
		free(b);
		return -EINVAL;
	}
	while (off < len && !rc) {
		uint32_t incl;

		if (len - off < 16) {
			snprintf(err, errsz, "%s: offset %zu: truncated record header", path, off);
			rc = -EINVAL;
			break;
		}
		incl = rd32(b + off + 8, swap);
		if (incl > MAX_PACKET || incl > len - off - 16) {
			snprintf(err, errsz, "%s: offset %zu: record length %u beyond the file", path, off, incl);
			rc = -EINVAL;
			break;
		}
		rc = push(ps, b + off + 16, incl);
		off += 16 + (size_t)incl;
	}
	free(b);
	return rc;
}

int bg_packets_file(struct bg_packets *ps, const char *path, char *err, size_t errsz)
{
	size_t len;
	uint8_t *b = slurp(path, &len, err, errsz);
	int rc;

	if (!b)
		return -EINVAL;
	if (len > MAX_PACKET) {
		snprintf(err, errsz, "%s: %zu bytes is larger than a packet (%u)", path, len, MAX_PACKET);
		free(b);
		return -EINVAL;
	}
	rc = push(ps, b, (uint32_t)len);
	free(b);
	return rc;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int bg_packets_dir(struct bg_packets *ps, const char *path, char *err, size_t errsz)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **names = NULL, full[4096];
	size_t n = 0;
	int rc = 0;

	if (!d) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while ((e = readdir(d))) {
		char **t;

		if (e->d_name[0] == '.')
			continue;
		t = realloc(names, (n + 1) * sizeof(*t));
		if (!t)
			break;
		names = t;
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		snprintf(full, sizeof(full), "%s/%s", path, names[i]);
		if (!rc)
			rc = bg_packets_file(ps, full, err, errsz);
		free(names[i]);
	}
	free(names);
	return rc;
}

void bg_packets_free(struct bg_packets *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->p[i].data);
	free(ps->p);
	ps->p = NULL;
	ps->n = 0;
}
