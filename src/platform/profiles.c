/* Kernel version profiles as one table. Features accumulate: a profile has
 * every feature introduced at or before its version (FEAT_SINCE). */
#include "platform/profiles.h"

#include <pthread.h>
#include <string.h>

#include "platform/helpers.h"

static const struct {
	uint64_t feat;
	uint32_t since;
} feat_since[] = {
	{ BG_KF_BPF2BPF_CALLS, BG_KVER(4, 16) },  { BG_KF_JMP32, BG_KVER(5, 1) },
	{ BG_KF_SPIN_LOCK, BG_KVER(5, 1) },       { BG_KF_1M_INSNS, BG_KVER(5, 2) },
	{ BG_KF_BOUNDED_LOOPS, BG_KVER(5, 3) },   { BG_KF_GLOBAL_FUNCS, BG_KVER(5, 6) },
	{ BG_KF_RINGBUF, BG_KVER(5, 8) },         { BG_KF_TAILCALL_SUBPROG, BG_KVER(5, 10) },
	{ BG_KF_ATOMICS, BG_KVER(5, 12) },        { BG_KF_KFUNCS, BG_KVER(5, 13) },
	{ BG_KF_TIMER, BG_KVER(5, 15) },          { BG_KF_BPF_LOOP, BG_KVER(5, 17) },
	{ BG_KF_DYNPTR, BG_KVER(5, 19) },         { BG_KF_KPTR, BG_KVER(5, 19) },
	{ BG_KF_LOCAL_OBJ, BG_KVER(6, 2) },       { BG_KF_ITERATORS, BG_KVER(6, 4) },
	{ BG_KF_ISA_V4, BG_KVER(6, 6) },          { BG_KF_EXCEPTIONS, BG_KVER(6, 7) },
	{ BG_KF_MAY_GOTO, BG_KVER(6, 9) },        { BG_KF_ARENA, BG_KVER(6, 9) },
	{ BG_KF_LOAD_ACQ_STORE_REL, BG_KVER(6, 15) },
};

/* features of a version, as a constant expression is not possible from the
 * table above: profiles fill .features lazily in features_of(). */
#define PROFILE(n, a, b)                                                                 \
	{ .name = n, .version = BG_KVER(a, b), .max_processed_insns = 1000000,           \
	  .max_prog_insns = 1000000, .max_call_depth = 8, .stack_size = 512,             \
	  .max_tail_calls = 33 }

static struct bg_kernel_profile profiles[] = {
	PROFILE("6.18", 6, 18), PROFILE("6.1", 6, 1), PROFILE("5.15", 5, 15),
	PROFILE("5.10", 5, 10), PROFILE("5.4", 5, 4),
};
#define NPROFILES (sizeof(profiles) / sizeof(profiles[0]))

static uint64_t features_of(uint32_t version)
{
	uint64_t f = 0;
	for (unsigned i = 0; i < sizeof(feat_since) / sizeof(feat_since[0]); i++)
		if (feat_since[i].since <= version)
			f |= feat_since[i].feat;
	return f;
}

static pthread_once_t profiles_once = PTHREAD_ONCE_INIT;

static void fill_profiles(void)
{
	for (unsigned i = 0; i < NPROFILES; i++)
		profiles[i].features = features_of(profiles[i].version);
}

static void init_profiles(void)
{
	pthread_once(&profiles_once, fill_profiles);
}

const struct bg_kernel_profile *bg_profiles(unsigned *n)
{
	init_profiles();
	if (n)
		*n = NPROFILES;
	return profiles;
}

const struct bg_kernel_profile *bg_profile_default(void)
{
	init_profiles();
	return &profiles[0];
}

const struct bg_kernel_profile *bg_profile_by_name(const char *name)
{
	if (!name)
		return NULL;
	init_profiles();
	if (!strcmp(name, "default") || !strcmp(name, "running"))
		return &profiles[0];
	for (unsigned i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct bg_kernel_profile *bg_profile_by_version(uint32_t version)
{
	init_profiles();
	for (unsigned i = 0; i < NPROFILES; i++)
		if (profiles[i].version <= version)
			return &profiles[i];
	return &profiles[NPROFILES - 1];
}
