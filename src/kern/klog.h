/* Kernel verifier log parsing (klog.c): statistics, the verdict message and
 * where the verifier stopped. Internal to the library but shared: the kernel
 * oracle (src/kern) and the compile driver's judge (src/cc) read logs only
 * through these, so both agree on what "the error" of a log is.
 * Logs are hostile text: any length, any shape; nothing here trusts them. */
#ifndef BG_KERN_KLOG_H
#define BG_KERN_KLOG_H

/* The declarations are public API: include/bpfgate/kern.h ("Kernel verifier
 * logs"). */
#include <bpfgate/kern.h>
#endif
