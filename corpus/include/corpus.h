/* corpus.h - shared definitions for the bpfgate corpus programs.
 *
 * Everything a typical libbpf project pulls in: vmlinux.h (CO-RE), the
 * libbpf helper headers, protocol constants that vmlinux.h does not carry
 * (they are #defines in the uapi headers), and the open-coded iterator
 * macro built on the bpf_iter_num_* kfuncs.
 */
#ifndef BPFGATE_CORPUS_H
#define BPFGATE_CORPUS_H

#ifndef __TARGET_ARCH_x86
#define __TARGET_ARCH_x86
#endif
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

/* bpf_helpers.h defines offsetof() through a NULL pointer; with vmlinux.h's
 * preserve_access_index types that becomes a CO-RE access. Use the builtin. */
#undef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define ETH_P_8021Q	0x8100
#define ETH_P_8021AD	0x88A8
#define ETH_P_ARP	0x0806
#define ETH_ALEN	6
#define ETH_HLEN	14

#define IPPROTO_HOPOPTS_	0
#define IPPROTO_ROUTING_	43
#define IPPROTO_FRAGMENT_	44
#define IPPROTO_DSTOPTS_	60
#define IPPROTO_NONE_		59
#define IPPROTO_ICMPV6_		58

#define TC_ACT_OK	0
#define TC_ACT_SHOT	2
#define TC_ACT_REDIRECT	7

#define IP_MF		0x2000
#define IP_OFFSET	0x1FFF

#define TCPOPT_EOL	0
#define TCPOPT_NOP	1
#define TCPOPT_MSS	2
#define TCPOPT_WSCALE	3
#define TCPOPT_SACKOK	4
#define TCPOPT_SACK	5
#define TCPOPT_TS	8

#define BPF_F_CURRENT_CPU_	0xffffffffULL

#ifndef __noinline
#define __noinline __attribute__((noinline))
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/* clang-14 emits no BTF for extern kfunc declarations, so libbpf cannot
 * resolve them: programs using kfuncs are built with clang >= 15 only. */
#if __clang_major__ >= 15
#define CORPUS_HAVE_KFUNCS 1
#else
#define CORPUS_HAVE_KFUNCS 0
#endif

/* Hand-written instruction sequences (reject/ and correlated/ use them to
 * pin down exact bytecode shapes that a compiler would not emit). */
#define __naked __attribute__((naked))
#define __imm(name) [name] "i"(name)
#define __imm_addr(name) [name] "i"(&(name))
#define __imm_const(name, expr) [name] "i"(expr)

/* Open-coded numeric iterator (kernel 6.4+). The value check keeps the
 * verifier's range of i inside [start, end) on every iteration. */
extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;

#define corpus_for(i, start, end)                                                        \
	for (struct bpf_iter_num ___it __attribute__((cleanup(bpf_iter_num_destroy))),     \
	     *___pit = (bpf_iter_num_new(&___it, (start), (end)), &___it);                 \
	     ({                                                                             \
		     int *___v = bpf_iter_num_next(___pit);                                 \
		     int ___ok = 0;                                                         \
		     if (___v) {                                                            \
			     int ___x = *___v;                                              \
			     barrier_var(___x);                                             \
			     if (___x >= (start) && ___x < (end)) {                         \
				     (i) = ___x;                                            \
				     ___ok = 1;                                             \
			     }                                                              \
		     }                                                                      \
		     ___ok;                                                                 \
	     });)

/* Incremental checksum update (RFC 1624) on a 16-bit folded sum. */
static __always_inline __u16 csum_fold32(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

static __always_inline __u16 csum_replace2(__u16 check, __u16 old, __u16 new_)
{
	__u32 sum = (__u16)~check + (__u16)~old + new_;
	return csum_fold32(sum);
}

#endif
