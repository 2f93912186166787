/* Options struct validation and copy (see opts.h). */
#include <errno.h>
#include <string.h>
#include "core/log.h"
#include "core/opts.h"

bool bg_opts_valid(const void *opts, size_t known, const char *type)
{
	const unsigned char *p = opts;
	size_t sz;

	if (!opts)
		return true;
	memcpy(&sz, opts, sizeof(sz));
	if (sz < sizeof(size_t)) {
		pr_warn("%s: sz %zu is too small (set sz = sizeof(struct %s))\n", type, sz, type);
		return false;
	}
	for (size_t i = known; i < sz; i++)
		if (p[i]) {
			pr_warn("%s: unknown non-zero field at byte offset %zu (this library knows %zu bytes)\n",
				type, i, known);
			return false;
		}
	return true;
}

int bg_opts_copy(void *dst, size_t dst_sz, const void *opts, size_t known, const char *type)
{
	size_t sz = 0, n;

	memset(dst, 0, dst_sz);
	if (opts) {
		if (!bg_opts_valid(opts, known, type))
			return -EINVAL;
		memcpy(&sz, opts, sizeof(sz));
		n = sz < known ? sz : known;
		if (n > dst_sz)
			n = dst_sz;
		memcpy(dst, opts, n);
	}
	memcpy(dst, &dst_sz, sizeof(dst_sz));
	return 0;
}
