/* Pure naming rules of the kernel oracle: kernel object names and the load
 * flags a section name implies. No kernel or object access, so unit tests
 * link them alone. */
#include <string.h>
#include <linux/bpf.h>
#include "kern/kern_int.h"

void bg_kern_objname(char *dst, size_t dstsz, const char *src)
{
	size_t n = 0;

	if (!dstsz)
		return;
	for (; src && *src && n + 1 < dstsz && n < BPF_OBJ_NAME_LEN - 1; src++) {
		char c = *src;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '_' || c == '.';
		dst[n++] = ok ? c : '_';
	}
	dst[n] = 0;
}

uint32_t bg_kern_prog_flags(const char *section)
{
	const char *slash;
	size_t head;

	if (!section)
		return 0;
	if (*section == '?') /* libbpf: "?sec" is sec with autoload off */
		section++;
	if (!strcmp(section, "syscall"))
		return BPF_F_SLEEPABLE; /* syscall programs are always sleepable */
	if (!strncmp(section, "xdp.frags", 9))
		return BPF_F_XDP_HAS_FRAGS;
	/* "fentry.s/f", "lsm.s/x", "uprobe.s", "iter.s/task": the kind ends in ".s" */
	slash = strchr(section, '/');
	head = slash ? (size_t)(slash - section) : strlen(section);
	if (head >= 2 && !strncmp(section + head - 2, ".s", 2))
		return BPF_F_SLEEPABLE;
	return 0;
}
