/* bg_trace.h - common includes of the bundled tracing examples: the kernel's
 * types from vmlinux.h (generated from /sys/kernel/btf/vmlinux), libbpf's
 * helper, tracing and CO-RE macros. bpf_tracing.h needs the target
 * architecture to find arguments in struct pt_regs. */
#ifndef BG_EXAMPLES_TRACE_H
#define BG_EXAMPLES_TRACE_H
#if !defined(__TARGET_ARCH_x86) && !defined(__TARGET_ARCH_arm64)
#if defined(__x86_64__) || !defined(__aarch64__)
#define __TARGET_ARCH_x86
#else
#define __TARGET_ARCH_arm64
#endif
#endif
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#endif
