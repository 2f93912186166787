/* Running instrumented programs: in the kernel through BPF_PROG_TEST_RUN
 * (counters are read from the map value once, after all inputs), or in the
 * interpreter (the same instructions, the same map layout). Counts only
 * accumulate: the counters map starts at zero on every load. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpfgate/kern.h>
#include <bpfgate/vm.h>
#include "cov/cov_int.h"
#include "core/opts.h"

int bg_cov__read_kernel(struct bg_cov *c, int map_fd)
{
	uint32_t key = 0;
	uint64_t *vals = calloc(c->nctr ? c->nctr : 1, sizeof(uint64_t));
	int rc;

	if (!vals)
		return -ENOMEM;
	rc = bg_kern_map_lookup(map_fd, &key, vals);
	if (!rc)
		bg_cov__add(c, vals);
	free(vals);
	return rc;
}

int bg_cov__load_kernel(struct bg_cov *c, int *map_fd, char *err, size_t errsz)
{
	struct bg_kload_opts o = {.sz = sizeof(o), .keep_fd = 1};
	struct bg_kload_result r;
	int fd;

	memset(&r, 0, sizeof(r));
	if (bg_kern_load(c->prog, &o, &r) < 0 || r.verdict != BG_VERDICT_ACCEPTED) {
		char *why = malloc(4096);

		if (why)
			bg_cov__message(c, r.reason ? r.reason : "", why, 4096);
		snprintf(err, errsz, "instrumented program %s not loaded (%s): %s", c->prog_name,
			 bg_verdict_name(r.verdict), why ? why : "");
		free(why);
		bg_kload_result__fini(&r);
		return -EINVAL;
	}
	fd = r.prog_fd;
	*map_fd = r.map_fds && (size_t)c->map_idx < r.map_cnt ? dup(r.map_fds[c->map_idx]) : -1;
	r.prog_fd = -1; /* keep it: fini closes what it still holds */
	bg_kload_result__fini(&r);
	if (*map_fd < 0) {
		close(fd);
		snprintf(err, errsz, "counters map not created");
		return -EINVAL;
	}
	return fd;
}

/* An input the kernel refuses (EINVAL for an XDP frame under 14 bytes) is
 * skipped, not fatal: the others still run and their counts are read. */
int bg_cov__run_kernel(struct bg_cov *c, const struct bg_cov_input *in, size_t n,
		       const struct bg_cov_run_opts *opts, char *err, size_t errsz)
{
	int map_fd, fd, rc = 0;
	uint8_t *out;
	size_t refused = 0;

	if (!OPTS_VALID(opts, bg_cov_run_opts)) {
		snprintf(err, errsz, "invalid struct bg_cov_run_opts");
		return -EINVAL;
	}
	fd = bg_cov__load_kernel(c, &map_fd, err, errsz);
	out = malloc(1 << 18);
	if (fd < 0) {
		free(out);
		return fd;
	}
	for (size_t i = 0; i < n; i++) {
		struct bg_test_run_opts t = {.sz = sizeof(t), .data_in = in[i].data,
					     .data_size_in = in[i].len, .data_out = out,
					     .data_size_out = out ? 1 << 18 : 0,
					     .repeat = OPTS_GET(opts, repeat, 0) ? opts->repeat : 1};
		uint32_t ret = 0;
		int e = bg_kern_test_run(fd, &t, &ret, NULL);

		if (OPTS_GET(opts, input_errs, NULL))
			opts->input_errs[i] = e;
		if (e && !refused++)
			snprintf(err, errsz, "input %zu: BPF_PROG_TEST_RUN: %s", i, strerror(-e));
		else if (!e && OPTS_GET(opts, retvals, NULL))
			opts->retvals[i] = ret;
	}
	if (refused == n && n)
		rc = -EINVAL; /* nothing ran: err names the first refusal */
	else
		rc = bg_cov__read_kernel(c, map_fd);
	if (rc && rc != -EINVAL)
		snprintf(err, errsz, "reading the counters map: %s", strerror(-rc));
	close(map_fd);
	close(fd);
	free(out);
	return rc ? rc : (int)(refused < 1000000 ? refused : 1000000);
}

int bg_cov__run_vm(struct bg_cov *c, const struct bg_cov_input *in, size_t n,
		   const struct bg_cov_run_opts *opts, char *err, size_t errsz)
{
	struct bg_vm_opts vo = {.sz = sizeof(vo)};
	struct bg_vm *vm;
	uint32_t key = 0, repeat = OPTS_GET(opts, repeat, 0) ? opts->repeat : 1;
	uint64_t *vals;
	int rc = 0;

	if (!OPTS_VALID(opts, bg_cov_run_opts)) {
		snprintf(err, errsz, "invalid struct bg_cov_run_opts");
		return -EINVAL;
	}
	vm = bg_vm__new(c->prog, &vo);
	vals = calloc(c->nctr ? c->nctr : 1, sizeof(uint64_t));

	if (!vm || !vals) {
		snprintf(err, errsz, "cannot create the interpreter for %s: %s", c->prog_name,
			 strerror(errno));
		bg_vm__free(vm);
		free(vals);
		return -EINVAL;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		for (uint32_t k = 0; k < repeat && !rc; k++) {
			uint64_t r0 = 0;

			rc = bg_vm__set_packet(vm, in[i].data, in[i].len);
			if (!rc)
				rc = bg_vm__run(vm, &r0);
			if (rc) {
				const struct bg_vm_fault *f = bg_vm__fault(vm);

				snprintf(err, errsz, "input %zu: %s", i, f ? f->msg : strerror(-rc));
			} else if (OPTS_GET(opts, retvals, NULL)) {
				opts->retvals[i] = (uint32_t)r0;
			}
		}
	}
	if (!rc)
		rc = bg_vm__map_lookup(vm, (size_t)c->map_idx, &key, vals);
	if (!rc)
		bg_cov__add(c, vals);
	bg_vm__free(vm);
	free(vals);
	return rc;
}
