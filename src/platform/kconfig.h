/* The target kernel's build configuration, where bpfgate can read it.
 *
 * Some verifier facts are compiled in or out by the kernel's config: the
 * lwt_seg6local helpers need CONFIG_IPV6_SEG6_BPF, bpf_skb_get_xfrm_state
 * CONFIG_XFRM, the raw syncookie helpers CONFIG_SYN_COOKIES... (the
 * `#ifdef CONFIG_*` around the `case BPF_FUNC_*` of the kernel's
 * *_func_proto functions: src/platform/helper_kconfig.def). The helper
 * tables are measured on a kernel that had them; where the target kernel's
 * config is known and the option is off, the kernel does not offer the
 * helper ("program of this type cannot use helper").
 *
 * Which config: $BG_KCONFIG (a file, plain or gzip; "none": no config) for
 * the default profile; else, for a profile of the host kernel's release
 * (major.minor), the host's /proc/config.gz or /boot/config-RELEASE, as
 * libbpf reads it for __kconfig externs. Other profiles: none (no opinion).
 * Read once per process, then read-only (thread-safe). */
#ifndef BG_PLATFORM_KCONFIG_H
#define BG_PLATFORM_KCONFIG_H
#include <stdbool.h>
#include <stdint.h>

/* 1: CONFIG_<name> is y or m in kernel kver's config (0: the default
 * profile); 0: it is not set; -1: that kernel's config is not known, or name
 * is not an option of helper_kconfig.def. name is without the CONFIG_ prefix. */
int bg_kconfig_enabled(uint32_t kver, const char *name);

/* Where the config of kver comes from ("/proc/config.gz"), or NULL. */
const char *bg_kconfig_source(uint32_t kver);

/* 1: helper id is compiled into prog_type's proto on kver's kernel; 0: the
 * config leaves it out (*option set to the option's name); -1: no opinion
 * (no row for the pair, or no config known). */
int bg_helper_kconfig(uint32_t id, uint32_t prog_type, uint32_t kver, const char **option);

/* Does some row of helper_kconfig.def gate helper id? */
bool bg_kconfig_gated_helper(uint32_t id);

/* Calls fn(name, value, arg) for each "CONFIG_NAME=VALUE" line of the
 * config file path (plain or gzip), or with path NULL of the host's config
 * (/proc/config.gz, else /boot/config-RELEASE, as libbpf looks for it); name
 * keeps its CONFIG_ prefix, value loses its newline. Returns the number of
 * CONFIG_ lines seen (0: no file or none in it); *used (if not NULL) is set
 * to the file read. Both the helper gates and the .kconfig externs of an
 * object (obj/maps.c) read the config through it. */
typedef void (*bg_kconfig_line_fn)(const char *name, const char *value, void *arg);
int bg_kconfig_scan(const char *path, bg_kconfig_line_fn fn, void *arg, const char **used);

/* Read the config now (once per process): the object's open calls it when a
 * program calls a gated helper, so the analysis does not pay for it. */
void bg_kconfig_preload(void);
#endif
