/* bpfgate run: run a program of an object in the sanitizing interpreter on a
 * packet, a pcap, or ctx bytes; print r0 (with its action name), the packet
 * as it leaves when changed, map entries that changed, captured printk /
 * ringbuf / perf output and the instruction count. A fault prints the
 * sanitizer report and exits 1.
 * `bpfgate run --conformance-plugin [MEMHEX]` speaks the bpf_conformance
 * plugin protocol (program bytes as hex on stdin). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <bpfgate/bpfgate.h>
#include <bpfgate/vm.h>

#include "cli.h"
#include "bg_json.h"
#include "run_jumps.h"
#include <bpfgate/packets.h>


static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfgate run OBJ --prog NAME [--packet FILE | --pcap FILE | --ctx FILE]\n"
		"                   [--map NAME=FILE]... [--mem ADDR=FILE]... [--repeat N]\n"
		"                   [--prog-array MAP:KEY=PROG]...\n"
		"                   [--no-sanitize] [--allow-uninit-stack] [--json]\n"
		"       bpfgate run --conformance-plugin [MEMHEX] < PROGRAM_HEX\n"
		"Runs one program in the sanitizing interpreter. --packet gives the frame (XDP,\n"
		"tc, socket filter), --pcap runs every packet of a capture and summarizes the\n"
		"actions, --ctx gives the context bytes (pt_regs, tracepoint args, __sk_buff\n"
		"fields), --map loads key+value records into a map, --mem makes bytes readable\n"
		"through bpf_probe_read_* at ADDR, --prog-array puts a program of the object\n"
		"into a prog array for bpf_tail_call. Exit 0 when the program ran to its exit, 1\n"
		"when the sanitizer stopped it, 2 on bad input.\n");
}

/* ---------- small I/O helpers ---------- */

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 4096;
			if (cap > (256u << 20)) {
				free(buf);
				fclose(f);
				errno = EFBIG;
				return NULL;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	if (ferror(f)) { /* a directory opens but does not read: EISDIR */
		int e = errno ? errno : EIO;

		free(buf);
		fclose(f);
		errno = e;
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parse hex bytes separated by optional whitespace. Returns length or -1
 * with *bad set to the offending offset. */
static long parse_hex(const char *s, uint8_t *out, size_t cap, size_t *bad)
{
	size_t n = 0, i = 0;

	while (s[i]) {
		int hi, lo;

		if (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
			i++;
			continue;
		}
		hi = hexval((unsigned char)s[i]);
		lo = s[i + 1] ? hexval((unsigned char)s[i + 1]) : -1;
		if (hi < 0 || lo < 0 || n >= cap) {
			*bad = i;
			return -1;
		}
		out[n++] = (uint8_t)(hi << 4 | lo);
		i += 2;
	}
	return (long)n;
}

static void print_hex(FILE *f, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%02x%s", p[i], (i % 16 == 15 || i + 1 == n) ? "\n" : " ");
}

static char *hex_string(const uint8_t *p, size_t n)
{
	char *s = malloc(n * 2 + 1);
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", p[i]);
	s[2 * n] = 0;
	return s;
}

/* ---------- conformance plugin ---------- */

static int conformance_plugin(int argc, char **argv)
{
	static char text[1 << 20];
	static uint8_t bytes[1 << 18], memb[1 << 16];
	struct bg_vm_opts o = { .sz = sizeof(o) };
	struct bg_insn *ins;
	struct bg_vm *vm;
	size_t n = fread(text, 1, sizeof(text) - 1, stdin), bad = 0, bad_pc = 0;
	const char *why = NULL;
	long len, mlen = 0;
	uint64_t r0;
	int err;

	text[n] = 0;
	len = parse_hex(text, bytes, sizeof(bytes), &bad);
	if (len < 0 || len % 8) {
		fprintf(stderr, "bpfgate run: program hex on stdin is malformed at offset %zu\n",
			len < 0 ? bad : (size_t)len);
		return EXIT_BAD;
	}
	if (argc > 2 && argv[2][0]) {
		mlen = parse_hex(argv[2], memb, sizeof(memb), &bad);
		if (mlen < 0) {
			fprintf(stderr, "bpfgate run: memory hex is malformed at offset %zu\n", bad);
			return EXIT_BAD;
		}
	}
	n = (size_t)len / 8;
	ins = calloc(n ? n : 1, sizeof(*ins));
	if (!ins)
		return EXIT_BAD;
	err = bg_prog_decode((const struct bg_raw_insn *)bytes, n, ins, &bad_pc, &why);
	if (err) {
		fprintf(stderr, "bpfgate run: insn %zu: %s\n", bad_pc, why ? why : "invalid");
		free(ins);
		return EXIT_REJECTED;
	}
	vm = bg_vm__new_insns(ins, n, &o);
	free(ins);
	if (!vm) {
		fprintf(stderr, "bpfgate run: %s\n", strerror(errno));
		return EXIT_BAD;
	}
	if (mlen)
		bg_vm__set_ctx(vm, memb, (size_t)mlen);
	err = bg_vm__run(vm, &r0);
	if (err) {
		const struct bg_vm_fault *f = bg_vm__fault(vm);

		fprintf(stderr, "bpfgate run: insn %zu: %s\n", f ? f->pc : 0,
			f ? f->msg : strerror(-err));
		bg_vm__free(vm);
		return EXIT_REJECTED;
	}
	printf("%" PRIx64 "\n", r0);
	bg_vm__free(vm);
	return EXIT_OK;
}

/* ---------- map snapshots ---------- */

struct snap {
	uint8_t *data; /* n records of key_size + value_size */
	size_t n, ks, vs;
};

#define SNAP_MAX 65536

static void snap_take(struct bg_vm *vm, size_t m, const struct bg_map_def *d, struct snap *s)
{
	uint8_t key[512], next[512];
	size_t rec = (size_t)d->key_size + d->value_size;
	int err;

	memset(s, 0, sizeof(*s));
	s->ks = d->key_size;
	s->vs = d->value_size;
	if (d->key_size > sizeof(key) || !rec)
		return;
	err = bg_vm__map_next_key(vm, m, NULL, next);
	while (!err && s->n < SNAP_MAX) {
		uint8_t *nd = realloc(s->data, (s->n + 1) * rec);

		if (!nd)
			break;
		s->data = nd;
		memcpy(s->data + s->n * rec, next, d->key_size);
		if (bg_vm__map_lookup(vm, m, next, s->data + s->n * rec + d->key_size) == 0)
			s->n++;
		memcpy(key, next, d->key_size);
		err = bg_vm__map_next_key(vm, m, key, next);
	}
}

static const uint8_t *snap_find(const struct snap *s, const uint8_t *key)
{
	size_t i, rec = s->ks + s->vs;

	for (i = 0; i < s->n; i++)
		if (!memcmp(s->data + i * rec, key, s->ks))
			return s->data + i * rec + s->ks;
	return NULL;
}

/* Print entries of `after` that differ from `before`. Returns the count. */
static size_t snap_diff(const char *name, const struct snap *before, const struct snap *after,
			struct bg_json *j)
{
	size_t i, rec = after->ks + after->vs, changed = 0;

	for (i = 0; i < after->n; i++) {
		const uint8_t *k = after->data + i * rec, *v = k + after->ks;
		const uint8_t *old = snap_find(before, k);

		if (old && !memcmp(old, v, after->vs))
			continue;
		changed++;
		if (j) {
			char *ks = hex_string(k, after->ks), *vs = hex_string(v, after->vs);
			char *os = old ? hex_string(old, after->vs) : NULL;

			bg_json_obj_begin(j);
			bg_json_kstr(j, "map", name);
			bg_json_kstr(j, "key", ks);
			bg_json_kstr(j, "old", os);
			bg_json_kstr(j, "new", vs);
			bg_json_obj_end(j);
			free(ks);
			free(vs);
			free(os);
		} else {
			size_t b;

			printf("  map %s key ", cli_safe(name));
			for (b = 0; b < after->ks; b++)
				printf("%02x", k[b]);
			printf(": ");
			if (old) {
				for (b = 0; b < after->vs; b++)
					printf("%02x", old[b]);
				printf(" -> ");
			} else {
				printf("(new) ");
			}
			for (b = 0; b < after->vs; b++)
				printf("%02x", v[b]);
			printf("\n");
		}
	}
	for (i = 0; i < before->n; i++) {
		const uint8_t *k = before->data + i * (before->ks + before->vs);

		if (!snap_find(after, k)) {
			changed++;
			if (!j)
				printf("  map %s: an entry was deleted\n", cli_safe(name));
		}
	}
	return changed;
}

/* ---------- running an object's program ---------- */

struct run_args {
	const char *obj, *prog, *packet, *pcap, *ctx;
	const char *maps[32];
	int nmaps;
	const char *mems[32];
	int nmems;
	const char *tails[32];
	int ntails;
	long repeat;
	bool json, no_sanitize, allow_uninit;
};

static int load_inputs(struct bg_vm *vm, const struct run_args *a)
{
	int i;

	for (i = 0; i < a->nmaps; i++) {
		const char *eq = strchr(a->maps[i], '=');
		char name[128];
		uint8_t *buf;
		size_t len;
		int m, err;

		if (!eq || (size_t)(eq - a->maps[i]) >= sizeof(name))
			return cli_error("run", "--map wants NAME=FILE, got '%s'", a->maps[i]);
		memcpy(name, a->maps[i], (size_t)(eq - a->maps[i]));
		name[eq - a->maps[i]] = 0;
		m = bg_vm__map_find(vm, name);
		if (m < 0)
			return cli_error("run", "%s: no map named '%s'", a->obj, name);
		buf = read_file(eq + 1, &len);
		if (!buf)
			return cli_error("run", "%s: %s", eq + 1, strerror(errno));
		err = bg_vm__map_load(vm, (size_t)m, buf, len);
		free(buf);
		if (err)
			return cli_error("run", "%s: offset 0: cannot load into map %s: %s "
					 "(want records of key+value bytes)", eq + 1, name,
					 strerror(-err));
	}
	for (i = 0; i < a->ntails; i++) {
		char name[128];
		unsigned key;
		char prog[128];
		int m, err;

		if (sscanf(a->tails[i], "%127[^:]:%u=%127s", name, &key, prog) != 3)
			return cli_error("run", "--prog-array wants MAP:KEY=PROG, got '%s'", a->tails[i]);
		m = bg_vm__map_find(vm, name);
		err = m < 0 ? m : bg_vm__prog_array_set(vm, (size_t)m, key, prog);
		if (err)
			return cli_error("run", "%s: --prog-array %s: %s", a->obj, a->tails[i],
					 m < 0 ? "no such map" : err == -ENOENT ? "no such program"
					 : "not a prog array / bad key");
	}
	for (i = 0; i < a->nmems; i++) {
		const char *eq = strchr(a->mems[i], '=');
		char *end;
		unsigned long long addr;
		uint8_t *buf;
		size_t len;

		if (!eq)
			return cli_error("run", "--mem wants ADDR=FILE, got '%s'", a->mems[i]);
		addr = strtoull(a->mems[i], &end, 0);
		if (end != eq)
			return cli_error("run", "--mem: bad address in '%s'", a->mems[i]);
		buf = read_file(eq + 1, &len);
		if (!buf)
			return cli_error("run", "%s: %s", eq + 1, strerror(errno));
		if (len)
			bg_vm__add_mem(vm, addr, buf, len);
		free(buf);
	}
	if (a->ctx) {
		size_t len;
		uint8_t *buf = read_file(a->ctx, &len);

		if (!buf)
			return cli_error("run", "%s: %s", a->ctx, strerror(errno));
		bg_vm__set_ctx(vm, buf, len);
		free(buf);
	}
	return 0;
}

static void print_fault(const struct run_args *a, const struct bg_vm_fault *f, struct bg_json *j)
{
	char where[512] = "";

	if (f->line && f->line->file)
		snprintf(where, sizeof(where), "%s:%u:%u: ", cli_safe(f->line->file), f->line->line,
			 f->line->col);
	if (j) {
		bg_json_key(j, "fault");
		bg_json_obj_begin(j);
		bg_json_kuint(j, "insn", f->pc);
		bg_json_kstr(j, "message", f->msg);
		if (f->line && f->line->file) {
			bg_json_kstr(j, "file", f->line->file);
			bg_json_kuint(j, "line", f->line->line);
			bg_json_kuint(j, "col", f->line->col);
		}
		bg_json_kuint(j, "addr", f->addr);
		bg_json_kstr(j, "region", f->region);
		bg_json_kuint(j, "region_lo", f->region_lo);
		bg_json_kuint(j, "region_hi", f->region_hi);
		bg_json_obj_end(j);
		return;
	}
	printf("%s: %sinsn %zu: %s\n", cli_safe(a->obj), where, f->pc, cli_safe(f->msg));
	if (f->line && f->line->text && f->line->text[0])
		printf("    %s\n", cli_safe_src(f->line->text));
}

/* The head of a run's JSON record, the same for a capture and a single run:
 * object, program, section, type, verdict (rejected: the run faulted). */
static void json_run_begin(struct bg_json *j, const struct run_args *a, const struct bg_program *p,
			   bool faulted)
{
	bg_json_obj_begin(j);
	bg_json_kstr(j, "object", a->obj);
	bg_json_kstr(j, "program", bg_program__name(p));
	bg_json_kstr(j, "section", bg_program__section(p));
	bg_json_kstr(j, "type", bg_program__type_name(p));
	bg_json_kstr(j, "verdict", faulted ? "rejected" : "accepted");
}

/* Run every packet of a capture (read and checked whole by bg_packets__add_capture
 * first, so a damaged file is refused before anything runs). */
static int run_pcap(struct bg_vm *vm, const struct run_args *a, const struct bg_program *p,
		    struct bg_json *j, struct run_jumps *rj)
{
	struct bg_packets *ps = bg_packets__new();
	struct bg_packets_opts po = {.sz = sizeof(po)};
	size_t npk, nfault = 0;
	uint64_t counts[16] = { 0 }, other = 0, insns = 0;
	char err[512] = "";
	int i;

	bool takes;
	po.form = cli_packet_input(p, &takes);

	if (!ps)
		return cli_error("run", "%s", strerror(ENOMEM));
	if (bg_packets__add_capture(ps, a->pcap, &po, err, sizeof(err))) {
		bg_packets__free(ps);
		return cli_error("run", "%s", err);
	}
	for (npk = 0; npk < bg_packets__cnt(ps); npk++) {
		uint64_t r0;
		uint32_t len;
		const void *d = bg_packets__data(ps, npk, &len);

		if (bg_vm__set_packet(vm, d, len)) {
			cli_error("run", "%s: offset %llu: record %zu: packet of %u bytes is too large "
				  "for the interpreter", a->pcap, (unsigned long long)bg_packets__offset(ps, npk),
				  npk + 1, len);
			bg_packets__free(ps);
			return EXIT_BAD;
		}
		if (bg_vm__run(vm, &r0)) {
			if (!nfault++ && !j)
				print_fault(a, bg_vm__fault(vm), NULL);
			continue;
		}
		if (rj)
			run_jumps_end_run(rj);
		insns += bg_vm__insn_count(vm);
		if (r0 < 16)
			counts[r0]++;
		else
			other++;
	}
	bg_packets__free(ps);
	if (j) {
		json_run_begin(j, a, p, nfault != 0);
		bg_json_kuint(j, "packets", npk);
		bg_json_kuint(j, "faults", nfault);
		bg_json_kuint(j, "insns", insns);
		if (rj)
			run_jumps_json(rj, p, npk - nfault, insns, j);
		bg_json_key(j, "actions");
		bg_json_obj_begin(j);
		for (i = 0; i < 16; i++)
			if (counts[i]) {
				const char *an = bg_vm__action_name(vm, (uint64_t)i);
				char num[16];

				snprintf(num, sizeof(num), "%d", i);
				bg_json_kuint(j, an ? an : num, counts[i]);
			}
		if (other)
			bg_json_kuint(j, "other", other);
		bg_json_obj_end(j);
		bg_json_obj_end(j);
	} else {
		printf("%s %s: %zu packets, %zu faults, %" PRIu64 " instructions\n", cli_safe(a->obj),
		       cli_safe(bg_program__name(p)), npk, nfault, insns);
		for (i = 0; i < 16; i++)
			if (counts[i]) {
				const char *an = bg_vm__action_name(vm, (uint64_t)i);

				printf("  %-16s %" PRIu64 "\n", an ? an : "", counts[i]);
				if (!an)
					printf("  (r0 = %d)\n", i);
			}
		if (other)
			printf("  other            %" PRIu64 "\n", other);
	}
	return nfault ? EXIT_REJECTED : EXIT_OK;
}

static int run_once(struct bg_vm *vm, const struct run_args *a, const struct bg_program *p,
		    const uint8_t *pkt, size_t pkt_len, struct bg_json *j, struct run_jumps *rj)
{
	const struct bg_object *o = bg_program__object(p);
	size_t nm = bg_vm__map_cnt(vm), i, olen, plen;
	struct snap *before = calloc(nm ? nm : 1, sizeof(*before));
	struct snap *after = calloc(nm ? nm : 1, sizeof(*after));
	uint64_t r0 = 0;
	int err = 0;
	long k;
	struct timespec t0, t1;
	const uint8_t *out;
	const char *text;

	if (!before || !after) {
		free(before);
		free(after);
		return EXIT_BAD;
	}
	for (i = 0; i < nm; i++)
		snap_take(vm, i, bg_object__map(o, i), &before[i]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (k = 0; k < a->repeat && !err; k++)
		err = bg_vm__run(vm, &r0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (i = 0; i < nm; i++)
		snap_take(vm, i, bg_object__map(o, i), &after[i]);
	out = bg_vm__packet(vm, &plen);
	text = bg_vm__output(vm, &olen);
	if (j) {
		json_run_begin(j, a, p, err != 0);
		if (err) {
			print_fault(a, bg_vm__fault(vm), j);
		} else {
			bg_json_kuint(j, "r0", r0);
			bg_json_kstr(j, "action", bg_vm__action_name(vm, r0));
		}
		bg_json_kuint(j, "insns", bg_vm__insn_count(vm));
		if (rj && !err)
			run_jumps_json(rj, p, (uint64_t)k, bg_vm__insn_count(vm) * (uint64_t)k, j);
		bg_json_kdouble(j, "ns_per_run", ((t1.tv_sec - t0.tv_sec) * 1e9 +
						  (t1.tv_nsec - t0.tv_nsec)) / (double)k);
		if (out) {
			char *hx = hex_string(out, plen);

			bg_json_kbool(j, "packet_changed", plen != pkt_len || (plen && memcmp(out, pkt, plen)));
			bg_json_kstr(j, "packet", hx);
			free(hx);
		}
		bg_json_key(j, "map_changes");
		bg_json_arr_begin(j);
		for (i = 0; i < nm; i++)
			snap_diff(bg_vm__map_name(vm, i), &before[i], &after[i], j);
		bg_json_arr_end(j);
		bg_json_kstr(j, "output", text);
		bg_json_kuint(j, "records", bg_vm__record_cnt(vm));
		bg_json_obj_end(j);
	} else {
		printf("%s %s (%s):\n", cli_safe(a->obj), cli_safe(bg_program__name(p)),
		       cli_safe(bg_program__section(p)));
		if (err) {
			print_fault(a, bg_vm__fault(vm), NULL);
		} else {
			const char *an = bg_vm__action_name(vm, r0);

			printf("  r0 = %" PRIu64 " (0x%" PRIx64 ")%s%s\n", r0, r0, an ? " " : "",
			       an ? an : "");
		}
		printf("  instructions executed: %" PRIu64 "\n", bg_vm__insn_count(vm));
		if (out && (plen != pkt_len || (plen && memcmp(out, pkt, plen)))) {
			printf("  packet out (%zu bytes):\n", plen);
			print_hex(stdout, out, plen);
		}
		for (i = 0; i < nm; i++)
			snap_diff(bg_vm__map_name(vm, i), &before[i], &after[i], NULL);
		if (olen) {
			printf("  output:\n");
			cli_print_lines("", text);
		}
		for (i = 0; i < bg_vm__record_cnt(vm); i++) {
			const struct bg_vm_record *rec = bg_vm__record(vm, i);

			printf("  record %zu (map %s, %zu bytes):\n", i,
			       cli_safe(bg_vm__map_name(vm, (size_t)rec->map)), rec->len);
			print_hex(stdout, rec->data, rec->len);
		}
	}
	for (i = 0; i < nm; i++) {
		free(before[i].data);
		free(after[i].data);
	}
	free(before);
	free(after);
	return err ? EXIT_REJECTED : EXIT_OK;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->repeat = 1;
	for (i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "--json"))
			a->json = true;
		else if (!strcmp(s, "--no-sanitize"))
			a->no_sanitize = true;
		else if (!strcmp(s, "--allow-uninit-stack"))
			a->allow_uninit = true;
		else if (!strcmp(s, "--prog") || !strcmp(s, "--packet") || !strcmp(s, "--pcap") ||
			 !strcmp(s, "--ctx") || !strcmp(s, "--map") || !strcmp(s, "--mem") ||
			 !strcmp(s, "--prog-array") || !strcmp(s, "--repeat")) {
			const char *v = cli_value("run", argc, argv, &i);
			char *end;

			if (!v)
				return EXIT_BAD;
			if (!strcmp(s, "--prog"))
				a->prog = v;
			else if (!strcmp(s, "--packet"))
				a->packet = v;
			else if (!strcmp(s, "--pcap"))
				a->pcap = v;
			else if (!strcmp(s, "--ctx"))
				a->ctx = v;
			else if ((!strcmp(s, "--map") && a->nmaps == 32) ||
				 (!strcmp(s, "--mem") && a->nmems == 32) ||
				 (!strcmp(s, "--prog-array") && a->ntails == 32))
				return cli_error("run", "at most 32 %s options", s);
			else if (!strcmp(s, "--map"))
				a->maps[a->nmaps++] = v;
			else if (!strcmp(s, "--mem"))
				a->mems[a->nmems++] = v;
			else if (!strcmp(s, "--prog-array"))
				a->tails[a->ntails++] = v;
			else {
				a->repeat = strtol(v, &end, 10);
				if (*end || a->repeat < 1 || a->repeat > 100000000)
					return cli_error("run", "--repeat wants a count from 1 to 1e8");
			}
		} else if (s[0] == '-' && s[1]) {
			usage(stderr);
			return cli_error("run", "unknown or incomplete option '%s'", s);
		} else if (!a->obj) {
			a->obj = s;
		} else {
			return cli_error("run", "unexpected argument '%s'", s);
		}
	}
	if (!a->obj)
		return cli_error("run", "no object given (see --help)");
	if (!!a->packet + !!a->pcap > 1)
		return cli_error("run", "--packet and --pcap are exclusive");
	return 0;
}

/* Refuse inputs the program's type has no place for: a packet for a type
 * without one (kprobe, tracepoint...); warn about --ctx on XDP, whose
 * xdp_md data pointers come from the packet, not from the bytes given. */
static int check_inputs(const struct run_args *a, const struct bg_program *p)
{
	bool takes;

	cli_packet_input(p, &takes);
	if ((a->packet || a->pcap) && !takes)
		return cli_error("run", "%s: %s: a %s program has no packet; --%s does not apply "
			       "(use --ctx for its context bytes)", a->obj, bg_program__name(p),
			       bg_program__type_name(p), a->packet ? "packet" : "pcap");
	if (a->ctx && bg_program__type(p) == BPF_PROG_TYPE_XDP)
		fprintf(stderr, "bpfgate run: warning: --ctx on an XDP program: only xdp_md's "
			"ifindex and queue fields are taken from %s; the packet comes from "
			"--packet/--pcap\n", cli_safe(a->ctx));
	return 0;
}

static const struct bg_program *pick_prog(struct bg_object *obj, const struct run_args *a)
{
	if (a->prog)
		return bg_object__find_prog(obj, a->prog);
	if (bg_object__prog_cnt(obj) == 1)
		return bg_object__prog(obj, 0);
	return NULL;
}

int cmd_run(int argc, char **argv)
{
	struct bg_vm_opts vo = { .sz = sizeof(vo) };
	const struct bg_program *p;
	struct bg_object *obj;
	struct run_args a;
	struct bg_vm *vm;
	struct bg_json js, *j = NULL;
	struct run_jumps rj = {0}, *rjp = NULL;
	char err[512] = "";
	uint8_t *pkt = NULL;
	size_t pkt_len = 0;
	int rc;

	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 1 && !strcmp(argv[1], "--conformance-plugin"))
		return conformance_plugin(argc, argv);
	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	obj = bg_object__open(a.obj, NULL, err, sizeof(err));
	if (!obj)
		return cli_error("run", "%s", err[0] ? err : strerror(errno));
	p = pick_prog(obj, &a);
	if (!p) {
		bg_object__free(obj);
		return cli_error("run", "%s: %s", a.obj,
				 a.prog ? "no program of that name" : "several programs: pick one with --prog");
	}
	vo.no_sanitize = a.no_sanitize;
	vo.allow_uninit_stack = a.allow_uninit;
	/* jump counts with --json, except when timing repeated runs (the hook costs) */
	if (a.json && (a.pcap || a.repeat <= 1) && run_jumps_init(&rj, p) == 0) {
		vo.hook = run_jumps_hook;
		vo.hook_cookie = &rj;
		rjp = &rj;
	}
	vm = bg_vm__new(p, &vo);
	if (!vm) {
		rc = cli_error("run", "%s: cannot prepare %s: %s", a.obj, bg_program__name(p),
			       strerror(errno));
		run_jumps_free(&rj);
		bg_object__free(obj);
		return rc;
	}
	rc = check_inputs(&a, p);
	if (!rc)
		rc = load_inputs(vm, &a);
	if (!rc && a.packet) {
		pkt = read_file(a.packet, &pkt_len);
		if (!pkt)
			rc = cli_error("run", "%s: %s", a.packet, strerror(errno));
		else if (bg_vm__set_packet(vm, pkt, pkt_len))
			rc = cli_error("run", "%s: packet of %zu bytes is too large", a.packet,
				       pkt_len);
	}
	if (!rc) {
		if (a.json) {
			bg_json_init(&js, stdout, true);
			j = &js;
		}
		if (a.pcap)
			rc = run_pcap(vm, &a, p, j, rjp);
		else
			rc = run_once(vm, &a, p, pkt, pkt_len, j, rjp);
		if (j)
			printf("\n");
	}
	free(pkt);
	bg_vm__free(vm);
	run_jumps_free(&rj);
	bg_object__free(obj);
	return rc;
}
