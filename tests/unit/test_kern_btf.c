/* The loader's BTF rewrites for older kernels (src/kern/kbtfcompat.c): for
 * each feature a kernel may lack, a BTF blob using it is rewritten with that
 * feature missing; no type needing it may remain, no other type may change
 * size or id, and the running kernel must still load the result (it loads
 * every older subset). With nothing missing the blob stays byte for byte.
 * The running kernel must report every feature (6.0 or newer). */
/* min-pass: 18 (PASS lines when bpf() is usable) */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpfgate/bpfgate.h>
#include "kern/kern_int.h"
#include "test.h"

/* Every kind the rewrites touch, in one blob. */
static struct btf *sample(void)
{
	struct btf *b = btf__new_empty();
	int i_int, i_flt, i_tt, i_ptr, i_sgn, i_s, i_proto, i_fn, i_var;

	i_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	i_flt = btf__add_float(b, "float", 4);
	i_tt = btf__add_type_tag(b, "user", i_int);
	i_ptr = btf__add_ptr(b, i_tt);
	btf__add_enum64(b, "wide", 8, false);
	btf__add_enum64_value(b, "WIDE_A", 1);
	btf__add_enum64_value(b, "WIDE_B", 1ull << 40);
	i_sgn = btf__add_enum(b, "sgn", 4);
	btf__add_enum_value(b, "SGN_NEG", -1);
	if (i_sgn > 0) /* signed (6.0): kind_flag set */
		((struct btf_type *)btf__type_by_id(b, i_sgn))->info |= 1u << 31;
	i_s = btf__add_struct(b, "s", 16);
	btf__add_field(b, "a", i_int, 0, 0);
	btf__add_field(b, "f", i_flt, 32, 0);
	btf__add_field(b, "p", i_ptr, 64, 0);
	btf__add_decl_tag(b, "on_struct", i_s, -1);
	btf__add_decl_tag(b, "on_field", i_s, 1);
	i_proto = btf__add_func_proto(b, i_int);
	btf__add_func_param(b, "x", i_int);
	i_fn = btf__add_func(b, "g", BTF_FUNC_GLOBAL, i_proto);
	btf__add_decl_tag(b, "arg", i_fn, 0);
	i_var = btf__add_var(b, "v", BTF_VAR_GLOBAL_ALLOCATED, i_s);
	btf__add_datasec(b, ".data", 16);
	if (btf__add_datasec_var_info(b, i_var, 0, 16) < 0) {
		btf__free(b);
		return NULL;
	}
	return b;
}

/* Does a type of the rewritten blob still need the feature? */
static int needs(const struct btf_type *t, unsigned feat)
{
	switch (feat) {
	case BG_KBTF_DATASEC:
		return btf_is_var(t) || btf_is_datasec(t);
	case BG_KBTF_FUNC_GLOBAL:
		return btf_is_func(t) && btf_vlen(t) == BTF_FUNC_GLOBAL;
	case BG_KBTF_FLOAT:
		return btf_is_float(t);
	case BG_KBTF_DECL_TAG:
		return btf_is_decl_tag(t);
	case BG_KBTF_TYPE_TAG:
		return btf_is_type_tag(t);
	case BG_KBTF_ENUM64:
		return btf_is_enum64(t) || (btf_is_enum(t) && btf_kflag(t));
	}
	return 0;
}

static int kernel_loads(struct btf *b, char *log, size_t logsz)
{
	uint32_t size;
	const void *raw = btf__raw_data(b, &size);
	LIBBPF_OPTS(bpf_btf_load_opts, o, .log_buf = log, .log_size = (uint32_t)logsz,
		    .log_level = 1);
	int fd;

	log[0] = 0;
	fd = raw ? bpf_btf_load(raw, size, &o) : -EINVAL;
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static void check_missing(unsigned missing, int kernel)
{
	struct btf *orig = sample(), *b;
	const void *raw;
	uint32_t size, norig;
	char name[96], log[4096];
	int n, bad = 0, resized = 0;

	snprintf(name, sizeof(name), "kern_btf/missing-%s",
		 missing == BG_KBTF_ALL ? "all" : bg_kbtf_feature_name(missing));
	if (!orig) {
		T_FAIL(name, "cannot build the sample BTF");
		return;
	}
	raw = btf__raw_data(orig, &size);
	b = btf__new(raw, size);
	norig = btf__type_cnt(orig);
	n = b ? bg_kbtf_downgrade(b, BG_KBTF_ALL & ~missing) : -ENOMEM;
	if (n <= 0) {
		T_FAIL(name, "rewrote %d types", n);
		goto out;
	}
	for (uint32_t id = 1; id < btf__type_cnt(b); id++)
		for (unsigned bit = 1; bit & BG_KBTF_ALL; bit <<= 1)
			if ((bit & missing) && needs(btf__type_by_id(b, id), bit))
				bad++;
	/* every sized type keeps its size (FLOAT -> STRUCT, ENUM64 -> UNION, ...) */
	for (uint32_t id = 1; id < norig; id++) {
		const struct btf_type *t = btf__type_by_id(orig, id);

		if (!btf_is_func(t) && !btf_is_func_proto(t) && !btf_is_decl_tag(t) &&
		    !btf_is_var(t) && btf__resolve_size(orig, id) != btf__resolve_size(b, id))
			resized++;
	}
	if (bad || resized || btf__type_cnt(b) < norig || btf__type_cnt(b) > norig + 1) {
		T_FAIL(name, "%d types still need it, %d resized, %u -> %u types", bad, resized,
		       norig, btf__type_cnt(b));
		goto out;
	}
	T_PASS(name);
	snprintf(name + strlen(name), sizeof(name) - strlen(name), "/loads");
	if (!kernel)
		T_SKIP(name, "bpf() unavailable");
	else
		T_CHECK(kernel_loads(b, log, sizeof(log)), name, "kernel refuses it: %s", log);
out:
	btf__free(b);
	btf__free(orig);
}

int main(void)
{
	const char *why;
	int kernel = bg_kern_available(&why);
	struct btf *orig = sample(), *b;
	const void *raw, *raw2;
	uint32_t size, size2;

	T_CHECK(bg_kbtf_parse_features("decl_tag, float") == (BG_KBTF_DECL_TAG | BG_KBTF_FLOAT) &&
			bg_kbtf_parse_features("all") == BG_KBTF_ALL &&
			bg_kbtf_parse_features("nonsense") == 0 && bg_kbtf_parse_features(NULL) == 0,
		"kern_btf/parse-features", "feature list parsing");
	/* nothing missing: nothing rewritten, the bytes as they were */
	raw = orig ? btf__raw_data(orig, &size) : NULL;
	b = raw ? btf__new(raw, size) : NULL;
	T_CHECK(b && bg_kbtf_downgrade(b, BG_KBTF_ALL) == 0 && (raw2 = btf__raw_data(b, &size2)) &&
			size2 == size && !memcmp(raw, raw2, size),
		"kern_btf/nothing-missing-unchanged", "the blob changed");
	btf__free(b);
	btf__free(orig);
	for (unsigned bit = 1; bit & BG_KBTF_ALL; bit <<= 1)
		check_missing(bit, kernel);
	check_missing(BG_KBTF_ALL, kernel);
	if (!kernel) {
		T_SKIP("kern_btf/kernel", "bpf() unavailable: %s", why);
		T_EXIT();
	}
	/* the sample as it is: the running kernel (>= 6.0) loads it and has every feature */
	orig = sample();
	{
		char log[4096];

		T_CHECK(orig && kernel_loads(orig, log, sizeof(log)), "kern_btf/sample-loads",
			"the running kernel refuses the sample: %s", log);
	}
	btf__free(orig);
	if (getenv("BG_KBTF_MISSING"))
		T_SKIP("kern_btf/running-has-all", "BG_KBTF_MISSING is set");
	else
		T_CHECK(bg_kbtf_features() == BG_KBTF_ALL, "kern_btf/running-has-all",
			"probed features 0x%x of 0x%x", bg_kbtf_features(), BG_KBTF_ALL);
	T_EXIT();
}
