/* Guest -> host records: what `bpfgate kload --records` prints in the guest,
 * one line per program, read back by the host from the second serial port.
 * Fields are tab-separated with \t \n \r \\ escaped, so a line is a record
 * whatever the kernel's messages hold; a serial line may add '\r', which the
 * parser ignores. Unknown or short lines are not records (console noise).
 *   P obj prog section type insns verdict err processed vtime fail_insn
 *     fail_line fail_file fail_source reason message log
 *   E obj message                                 (object did not open) */
#include <stdlib.h>
#include <string.h>
#include "kern/klog.h"
#include "kvm/kvm.h"

#define NFIELDS 17

static void put(FILE *f, const char *s)
{
	fputc('\t', f);
	for (; s && *s; s++) {
		switch (*s) {
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\\': fputs("\\\\", f); break;
		default: fputc(*s, f);
		}
	}
}

void bg_kvm_record_prog(FILE *f, size_t obj, const struct bg_program *p,
			const struct bg_kload_result *r, int with_log)
{
	size_t n = 0;
	char *msg = r->verdict == BG_VERDICT_REJECTED ? bg_klog_message(r->log, 1) : NULL;

	bg_program__raw(p, &n);
	fprintf(f, "P\t%zu", obj);
	put(f, bg_program__name(p));
	put(f, bg_program__section(p));
	put(f, bg_program__type_name(p));
	fprintf(f, "\t%zu\t%d\t%d\t%ld\t%ld\t%ld\t%u", n, (int)r->verdict, r->err,
		r->insns_processed, r->verif_time_usec, r->fail_insn, r->fail_line);
	put(f, r->fail_file);
	put(f, r->fail_source);
	put(f, r->reason);
	put(f, msg);
	put(f, with_log ? r->log : NULL);
	fputc('\n', f);
	fflush(f);
	free(msg);
}

void bg_kvm_record_obj_error(FILE *f, size_t obj, const char *msg)
{
	fprintf(f, "E\t%zu", obj);
	put(f, msg);
	fputc('\n', f);
	fflush(f);
}

/* Split at tabs in place, unescaping; returns the field count. */
static int split(char *s, char **fld, int max)
{
	int n = 0;
	char *w = s;

	fld[n++] = w;
	for (char *p = s; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			*w++ = *p == 't' ? '\t' : *p == 'n' ? '\n' : *p == 'r' ? '\r' : *p;
		} else if (*p == '\t' && n < max) {
			*w++ = 0;
			fld[n++] = w;
		} else if (*p != '\r') {
			*w++ = *p;
		}
	}
	*w = 0;
	return n;
}

static char *dup_or_null(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

int bg_kvm_record_parse(char *line, struct bg_kvm_prog *o)
{
	char *f[NFIELDS];
	int n;

	memset(o, 0, sizeof(*o));
	o->r.prog_fd = -1;
	if ((line[0] != 'P' && line[0] != 'E') || line[1] != '\t')
		return 0;
	n = split(line + 2, f, NFIELDS - 1);
	o->obj = strtoul(f[0], NULL, 10);
	if (line[0] == 'E') {
		if (n < 2)
			return 0;
		o->prog = strdup("-");
		o->obj_error = strdup(f[1]);
		o->r.verdict = BG_VERDICT_UNAVAILABLE;
		o->r.reason = strdup(f[1]);
		o->r.insns_processed = o->r.verif_time_usec = o->r.fail_insn = -1;
		return 1;
	}
	if (n < NFIELDS - 1)
		return 0;
	o->prog = strdup(f[1]);
	o->section = strdup(f[2]);
	o->type = strdup(f[3]);
	o->insns = strtoul(f[4], NULL, 10);
	o->r.verdict = (enum bg_verdict)atoi(f[5]);
	if (o->r.verdict > BG_VERDICT_UNAVAILABLE)
		o->r.verdict = BG_VERDICT_UNAVAILABLE;
	o->r.err = atoi(f[6]);
	o->r.insns_processed = atol(f[7]);
	o->r.verif_time_usec = atol(f[8]);
	o->r.fail_insn = atol(f[9]);
	o->r.fail_line = (uint32_t)strtoul(f[10], NULL, 10);
	o->r.fail_file = dup_or_null(f[11]);
	o->r.fail_source = dup_or_null(f[12]);
	o->r.reason = dup_or_null(f[13]);
	o->message = dup_or_null(f[14]);
	o->r.log = dup_or_null(f[15]);
	return 1;
}

void bg_kvm_prog__fini(struct bg_kvm_prog *p)
{
	if (!p)
		return;
	free(p->prog);
	free(p->section);
	free(p->type);
	free(p->message);
	free(p->obj_error);
	free(p->r.reason);
	free(p->r.log);
	free(p->r.fail_file);
	free(p->r.fail_source);
	memset(p, 0, sizeof(*p));
}
