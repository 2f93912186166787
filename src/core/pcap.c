/* Packet inputs (bpfgate/packets.h). Everything is read into memory; a packet is
 * at most 256 KiB, a raw file at most 1 GiB. Captures are parsed by libpcap. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcap/pcap.h>
#include "core/pcap.h"
#include "core/opts.h"

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
	t[ps->n].off = 0;
	t[ps->n++].len = len;
	return 0;
}

/* ---- captures, through libpcap (pcap and pcapng, any byte order) ---- */

#define SLL_HLEN 16
#define SLL2_HLEN 20

/* The Ethernet header a frame gets when its capture had another link layer:
 * destination zero (unknown), source as given (or zero), and the EtherType. */
static int push_eth(struct bg_packets *ps, const uint8_t *src, uint16_t proto,
		    const uint8_t *l3, uint32_t len)
{
	uint8_t *f = malloc((size_t)len + 14);
	int rc;

	if (!f)
		return -ENOMEM;
	memset(f, 0, 12);
	if (src)
		memcpy(f + 6, src, 6);
	f[12] = (uint8_t)(proto >> 8);
	f[13] = (uint8_t)proto;
	memcpy(f + 14, l3, len);
	rc = push(ps, f, len + 14);
	free(f);
	return rc;
}

/* One record as an Ethernet frame; a message in err (without the file and
 * record prefix) when it cannot become one. */
static int convert(struct bg_packets *ps, int dlt, const uint8_t *d, uint32_t len,
		   char *err, size_t errsz)
{
	uint16_t proto;

	switch (dlt) {
	case DLT_EN10MB:
		return push(ps, d, len);
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2: {
		bool v2 = dlt == DLT_LINUX_SLL2;
		size_t hl = v2 ? SLL2_HLEN : SLL_HLEN;
		const uint8_t *addr = d + (v2 ? 12 : 6);
		unsigned halen;

		if (len < hl) {
			snprintf(err, errsz, "cooked header truncated (%u bytes)", len);
			return -EINVAL;
		}
		proto = v2 ? (uint16_t)(d[0] << 8 | d[1]) : (uint16_t)(d[14] << 8 | d[15]);
		halen = v2 ? d[11] : (unsigned)(d[4] << 8 | d[5]);
		if (proto < 0x600) {
			snprintf(err, errsz,
				 "cooked capture protocol 0x%04x is not an EtherType: no Ethernet "
				 "frame can carry it", proto);
			return -EINVAL;
		}
		return push_eth(ps, halen == 6 ? addr : NULL, proto, d + hl, len - (uint32_t)hl);
	}
	default: /* raw IP (DLT_RAW, DLT_IPV4, DLT_IPV6): version from the first nibble */
		if (!len || ((d[0] >> 4) != 4 && (d[0] >> 4) != 6)) {
			snprintf(err, errsz, "raw IP record of %u bytes is neither IPv4 nor IPv6", len);
			return -EINVAL;
		}
		return push_eth(ps, NULL, (d[0] >> 4) == 4 ? 0x0800 : 0x86dd, d, len);
	}
}

/* Can records of this link type become the program's input? */
static const char *link_refusal(int dlt, enum bg_packet_form want)
{
	switch (dlt) {
	case DLT_EN10MB:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
		return NULL;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		return want == BG_PACKET_ETH_L3 ? NULL
					     : "raw IP has no link-layer header, and this program "
					       "reads the Ethernet header";
	default:
		return "only Ethernet, Linux cooked (SLL, SLL2) and, for programs that see "
		       "L3, raw IP captures can become a program's input";
	}
}

static int add_capture(struct bg_packets *ps, const char *path, enum bg_packet_form want,
		       char *err, size_t errsz)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	struct pcap_pkthdr *h;
	const u_char *d;
	const char *why;
	pcap_t *p = pcap_open_offline(path, perr);
	size_t rec = 0;
	long off;
	int dlt, r, rc = 0;

	if (!p) {
		snprintf(err, errsz, "%s: offset 0: %s", path, perr);
		return -EINVAL;
	}
	dlt = pcap_datalink(p);
	why = link_refusal(dlt, want);
	if (why) {
		const char *name = pcap_datalink_val_to_name(dlt);
		snprintf(err, errsz, "%s: link type %s (%d) refused: %s", path, name ? name : "?",
			 dlt, why);
		pcap_close(p);
		return -EINVAL;
	}
	for (;;) {
		off = ftell(pcap_file(p));
		r = pcap_next_ex(p, &h, &d);
		if (r != 1)
			break;
		rec++;
		if (h->caplen > MAX_PACKET) {
			snprintf(err, errsz, "%s: offset %ld: record %zu: %u bytes is larger than a "
				 "packet (%u)", path, off, rec, h->caplen, MAX_PACKET);
			rc = -EINVAL;
			break;
		}
		rc = convert(ps, dlt, d, h->caplen, perr, sizeof(perr));
		if (!rc)
			ps->p[ps->n - 1].off = (uint64_t)off;
		if (rc) {
			snprintf(err, errsz, "%s: offset %ld: record %zu: %s", path, off, rec,
				 rc == -ENOMEM ? strerror(ENOMEM) : perr);
			break;
		}
	}
	if (!rc && r == PCAP_ERROR) {
		snprintf(err, errsz, "%s: offset %ld: record %zu: %s", path, off, rec + 1,
			 pcap_geterr(p));
		rc = -EINVAL;
	}
	pcap_close(p);
	return rc;
}

static int add_file(struct bg_packets *ps, const char *path, char *err, size_t errsz)
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

static int add_dir(struct bg_packets *ps, const char *path, char *err, size_t errsz)
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
		if (!t || !(t[n] = strdup(e->d_name))) {
			names = t ? t : names;
			rc = -ENOMEM;
			snprintf(err, errsz, "%s: %s", path, strerror(ENOMEM));
			break;
		}
		names = t;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		snprintf(full, sizeof(full), "%s/%s", path, names[i]);
		if (!rc)
			rc = add_file(ps, full, err, errsz);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* ---- the public list (bpfgate/packets.h) ---- */

struct bg_packets *bg_packets__new(void)
{
	struct bg_packets *ps = calloc(1, sizeof(*ps));

	if (!ps)
		errno = ENOMEM;
	return ps;
}

void bg_packets__free(struct bg_packets *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++)
		free(ps->p[i].data);
	free(ps->p);
	free(ps);
}

/* err may be NULL: the message goes to a scratch buffer */
#define ERRBUF(err, errsz, tmp) ((err) && (errsz) ? (err) : (tmp)), ((err) && (errsz) ? (errsz) : sizeof(tmp))

int bg_packets__add_capture(struct bg_packets *ps, const char *path, const struct bg_packets_opts *opts,
			    char *err, size_t errsz)
{
	char tmp[256];
	enum bg_packet_form form;

	if (!ps || !path || !OPTS_VALID(opts, bg_packets_opts))
		return -EINVAL;
	form = OPTS_GET(opts, form, BG_PACKET_ETH);
	if (form != BG_PACKET_ETH && form != BG_PACKET_ETH_L3)
		return -EINVAL;
	return add_capture(ps, path, form, ERRBUF(err, errsz, tmp));
}

int bg_packets__add_file(struct bg_packets *ps, const char *path, char *err, size_t errsz)
{
	char tmp[256];

	return ps && path ? add_file(ps, path, ERRBUF(err, errsz, tmp)) : -EINVAL;
}

int bg_packets__add_dir(struct bg_packets *ps, const char *path, char *err, size_t errsz)
{
	char tmp[256];

	return ps && path ? add_dir(ps, path, ERRBUF(err, errsz, tmp)) : -EINVAL;
}

size_t bg_packets__cnt(const struct bg_packets *ps)
{
	return ps ? ps->n : 0;
}

const void *bg_packets__data(const struct bg_packets *ps, size_t i, uint32_t *len)
{
	if (!ps || i >= ps->n) {
		if (len)
			*len = 0;
		return NULL;
	}
	if (len)
		*len = ps->p[i].len;
	return ps->p[i].data;
}

uint64_t bg_packets__offset(const struct bg_packets *ps, size_t i)
{
	return ps && i < ps->n ? ps->p[i].off : 0;
}
