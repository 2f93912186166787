/* Contexts as the kernel presents them to a compiled program.
 *
 * The ctx region holds the uapi struct (xdp_md, __sk_buff, pt_regs, a
 * tracepoint argument buffer). Loads of the packet pointer fields (32-bit in
 * the uapi struct) yield 64-bit host pointers, as the kernel's ctx rewriting
 * makes them 64-bit loads of kernel pointers; every other field reads the
 * struct bytes, which vm_ctx_sync keeps equal to what the kernel computes
 * (len, protocol, pkt_type, ifindex) for BPF_PROG_TEST_RUN.
 * A socket filter (and cgroup_skb) sees the packet after the Ethernet header,
 * as the kernel's test run presents it; XDP and tc see the whole frame. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>

#include "vm/vm_int.h"

#define XDP_FRAME_SIZE 4096
#define XDP_SHINFO 320   /* tailroom the kernel keeps for skb_shared_info */
#define PT_REGS_SIZE 168 /* struct pt_regs on x86-64 */

enum ctx_kind { CTX_RAW, CTX_XDP, CTX_SKB, CTX_PLAIN };

static enum ctx_kind ctx_kind(uint32_t t)
{
	switch (t) {
	case BPF_PROG_TYPE_UNSPEC: return CTX_RAW;
	case BPF_PROG_TYPE_XDP: return CTX_XDP;
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_SK_SKB:
		return CTX_SKB;
	default: return CTX_PLAIN;
	}
}

/* Packet starts after the Ethernet header (the kernel test run pulls it). */
static bool l2_hidden(uint32_t t)
{
	return t == BPF_PROG_TYPE_SOCKET_FILTER || t == BPF_PROG_TYPE_CGROUP_SKB;
}

/* The packet pointer fields vm_load answers without vm_ctx_load; socket
 * filters in sanitizing mode are left out (their loads fault there). */
static void ctx_ptr_table(struct bg_vm *vm, enum ctx_kind k)
{
	memset(vm->ctx_ptr, 0, sizeof(vm->ctx_ptr));
	if (k == CTX_XDP) {
		vm->ctx_ptr[offsetof(struct xdp_md, data) / 4] = 1;
		vm->ctx_ptr[offsetof(struct xdp_md, data_end) / 4] = 2;
		vm->ctx_ptr[offsetof(struct xdp_md, data_meta) / 4] = 3;
	} else if (k == CTX_SKB &&
		   !(vm->prog_type == BPF_PROG_TYPE_SOCKET_FILTER && vm->sanitize)) {
		vm->ctx_ptr[offsetof(struct __sk_buff, data) / 4] = 1;
		vm->ctx_ptr[offsetof(struct __sk_buff, data_end) / 4] = 2;
		vm->ctx_ptr[offsetof(struct __sk_buff, data_meta) / 4] = 3;
	}
}

int vm_ctx_prepare(struct bg_vm *vm)
{
	enum ctx_kind k = ctx_kind(vm->prog_type);

	vm->has_pkt = k == CTX_XDP || k == CTX_SKB;
	vm->pkt_writable = k == CTX_XDP || vm->prog_type == BPF_PROG_TYPE_SCHED_CLS ||
			   vm->prog_type == BPF_PROG_TYPE_SCHED_ACT ||
			   vm->prog_type == BPF_PROG_TYPE_LWT_XMIT;
	vm->pkt_region = -1;
	ctx_ptr_table(vm, k);
	if (vm->has_pkt) {
		vm->pkt_region = vm_add_region(vm, 0, 0, VM_R_PKT, vm->pkt_writable, -1);
		if (vm->pkt_region < 0)
			return -ENOMEM;
	}
	/* fixed: its bounds and kind are patched by every vm_ctx_reset */
	vm->ctx_region = vm_add_region(vm, 0, 0, k == CTX_RAW ? VM_R_MEM : VM_R_CTX, true, -1);
	return vm->ctx_region < 0 ? -ENOMEM : 0;
}

/* Size of the ctx struct for the program type (RAW/PLAIN: from the input). */
static size_t ctx_size(struct bg_vm *vm, enum ctx_kind k)
{
	switch (k) {
	case CTX_XDP: return sizeof(struct xdp_md);
	case CTX_SKB: return sizeof(struct __sk_buff);
	case CTX_RAW: return vm->ctx_in_len;
	default:
		if (vm->prog_type == BPF_PROG_TYPE_KPROBE && vm->ctx_in_len < PT_REGS_SIZE)
			return PT_REGS_SIZE;
		return vm->ctx_in_len ? vm->ctx_in_len : 64;
	}
}

static int build_packet(struct bg_vm *vm, enum ctx_kind k)
{
	size_t len = vm->pkt_in_len, need;

	need = VM_PKT_HEADROOM + len + XDP_SHINFO;
	if (k == CTX_XDP && need < XDP_FRAME_SIZE)
		need = XDP_FRAME_SIZE;
	if (k == CTX_SKB)
		need += VM_PKT_TAILROOM;
	if (need > vm->pktbuf_size) {
		uint8_t *b = realloc(vm->pktbuf, need);

		if (!b)
			return -ENOMEM;
		vm->pktbuf = b;
		vm->pktbuf_size = need;
		vm->pkt_low = b;
	}
	/* headroom is visible after bpf_xdp_adjust_head/meta (vm_pkt_update
	 * records how low data_meta went): zero it only when a run exposed it.
	 * Bytes past the end are zeroed by the helpers that grow the packet. */
	if (vm->pkt_low < vm->pktbuf + VM_PKT_HEADROOM) {
		memset(vm->pktbuf, 0, VM_PKT_HEADROOM);
		vm->pkt_low = vm->pktbuf + VM_PKT_HEADROOM;
	}
	if (len)
		memcpy(vm->pktbuf + VM_PKT_HEADROOM, vm->pkt_in, len);
	vm->data = vm->pktbuf + VM_PKT_HEADROOM;
	vm->data_end = vm->data + len;
	vm->l2_hidden = 0;
	if (k == CTX_SKB && l2_hidden(vm->prog_type)) {
		vm->l2_hidden = len < ETH_HLEN ? len : ETH_HLEN;
		vm->data += vm->l2_hidden;
	}
	vm->data_meta = vm->data;
	return 0;
}

/* What eth_type_trans() computes for the kernel's test-run device (loopback,
 * all-zero address). */
static void eth_facts(struct bg_vm *vm, uint32_t *proto, uint32_t *pkt_type)
{
	const uint8_t *eth = vm->data - vm->l2_hidden;
	size_t len = (size_t)(vm->data_end - eth);
	static const uint8_t zero[6];
	uint16_t p;

	*proto = 0;
	*pkt_type = 0;
	if (len < ETH_HLEN)
		return;
	if (eth[0] & 1)
		*pkt_type = memcmp(eth, "\xff\xff\xff\xff\xff\xff", 6) ? 2 : 1;
	else if (memcmp(eth, zero, 6))
		*pkt_type = 3; /* PACKET_OTHERHOST */
	p = (uint16_t)(eth[12] << 8 | eth[13]);
	if (p >= ETH_P_802_3_MIN)
		*proto = (uint32_t)eth[12] | (uint32_t)eth[13] << 8; /* __be16 as stored */
	else if (len >= 16 && eth[14] == 0xff && eth[15] == 0xff)
		*proto = (uint32_t)__builtin_bswap16(ETH_P_802_3);
	else
		*proto = (uint32_t)__builtin_bswap16(ETH_P_802_2);
}

void vm_ctx_sync(struct bg_vm *vm)
{
	struct __sk_buff *skb;
	uint32_t proto, pkt_type;

	if (ctx_kind(vm->prog_type) != CTX_SKB || !vm->ctx)
		return;
	skb = (struct __sk_buff *)vm->ctx;
	skb->len = (uint32_t)(vm->data_end - vm->data);
	eth_facts(vm, &proto, &pkt_type);
	skb->protocol = proto;
	skb->pkt_type = pkt_type;
}

int vm_ctx_reset(struct bg_vm *vm, uint64_t *r)
{
	enum ctx_kind k = ctx_kind(vm->prog_type);
	size_t sz = ctx_size(vm, k);
	int err;

	if (sz > vm->ctx_size || !vm->ctx) {
		uint8_t *c = realloc(vm->ctx, sz ? sz : 1);

		if (!c)
			return -ENOMEM;
		vm->ctx = c;
	}
	vm->ctx_size = sz;
	vm->ctx_special = k != CTX_RAW;
	memset(vm->ctx, 0, sz ? sz : 1);
	if (vm->ctx_in_len)
		memcpy(vm->ctx, vm->ctx_in, vm->ctx_in_len < sz ? vm->ctx_in_len : sz);
	vm->out_pkt = NULL;
	vm->out_pkt_len = 0;
	if (k == CTX_RAW) {
		/* r1 = memory, r2 = its length; legacy packet loads read it too */
		vm->data = vm->data_meta = sz ? vm->ctx : NULL;
		vm->data_end = vm->data ? vm->data + sz : NULL;
		vm->regions[vm->ctx_region].lo = sz ? (uint64_t)vm->ctx : 0;
		vm->regions[vm->ctx_region].hi = sz ? (uint64_t)vm->ctx + sz : 0;
		r[1] = sz ? (uint64_t)vm->ctx : 0;
		r[2] = sz;
		return 0;
	}
	if (vm->has_pkt) {
		err = build_packet(vm, k);
		if (err)
			return err;
		vm_pkt_update(vm);
	} else {
		vm->data = vm->data_end = vm->data_meta = NULL;
	}
	if (k == CTX_SKB) {
		struct __sk_buff *skb = (struct __sk_buff *)vm->ctx;

		if (!skb->ifindex)
			skb->ifindex = 1; /* the test run's loopback device */
		if (!skb->wire_len)
			skb->wire_len = (uint32_t)(vm->data_end - vm->data + vm->l2_hidden);
		if (!skb->gso_segs)
			skb->gso_segs = 1;
		vm_ctx_sync(vm);
	}
	vm->regions[vm->ctx_region].lo = (uint64_t)vm->ctx;
	vm->regions[vm->ctx_region].hi = (uint64_t)vm->ctx + sz;
	r[1] = (uint64_t)vm->ctx;
	return 0;
}

void vm_ctx_finish(struct bg_vm *vm)
{
	uint8_t *from;

	if (!vm->has_pkt || !vm->data)
		return;
	/* as BPF_PROG_TEST_RUN returns it: XDP output starts at the metadata;
	 * socket filters get a zeroed L2 header pushed back (the bytes before
	 * data are ours: headroom) */
	from = ctx_kind(vm->prog_type) == CTX_XDP ? vm->data_meta : vm->data - vm->l2_hidden;
	memset(from, 0, vm->l2_hidden);
	vm->out_pkt = from;
	vm->out_pkt_len = (size_t)(vm->data_end - from);
}

static int ctx_fault(struct bg_vm *vm, uint64_t off, uint32_t size, bool write, const char *why)
{
	int err = vm_fault(vm, BG_VM_FAULT_CTX, (uint64_t)vm->ctx + off, size,
			   "invalid %s ctx access off=%llu size=%u: %s", write ? "write to" : "read of",
			   (unsigned long long)off, size, why);

	vm->fault.region = "ctx";
	vm->fault.region_lo = (uint64_t)vm->ctx;
	vm->fault.region_hi = (uint64_t)vm->ctx + vm->ctx_size;
	return err;
}

/* Is off one of the packet pointer fields? Returns its value. */
static bool pkt_field(struct bg_vm *vm, enum ctx_kind k, uint64_t off, uint64_t *val)
{
	if (k == CTX_XDP) {
		if (off == offsetof(struct xdp_md, data))
			*val = (uint64_t)vm->data;
		else if (off == offsetof(struct xdp_md, data_end))
			*val = (uint64_t)vm->data_end;
		else if (off == offsetof(struct xdp_md, data_meta))
			*val = (uint64_t)vm->data_meta;
		else
			return false;
		return true;
	}
	if (off == offsetof(struct __sk_buff, data))
		*val = (uint64_t)vm->data;
	else if (off == offsetof(struct __sk_buff, data_end))
		*val = (uint64_t)vm->data_end;
	else if (off == offsetof(struct __sk_buff, data_meta))
		*val = (uint64_t)vm->data_meta;
	else
		return false;
	return true;
}

int vm_ctx_load(struct bg_vm *vm, uint64_t off, uint32_t size, uint64_t *val)
{
	enum ctx_kind k = ctx_kind(vm->prog_type);
	uint64_t p;

	*val = 0;
	if (off + size > vm->ctx_size)
		return ctx_fault(vm, off, size, false, "beyond the end of the context");
	if (vm->sanitize && off % size)
		return ctx_fault(vm, off, size, false, "misaligned");
	if ((k == CTX_XDP || k == CTX_SKB) && pkt_field(vm, k, off & ~3ull, &p)) {
		if (vm->prog_type == BPF_PROG_TYPE_SOCKET_FILTER && vm->sanitize)
			return ctx_fault(vm, off, size, false,
					 "socket filters have no direct packet access");
		if (size != 4 || (off & 3))
			return ctx_fault(vm, off, size, false,
					 "packet pointer fields must be loaded whole (4 bytes)");
		*val = p;
		return 1; /* the kernel rewrites this load into a 64-bit pointer load */
	}
	if (k == CTX_SKB && (off == offsetof(struct __sk_buff, sk) ||
			     off == offsetof(struct __sk_buff, flow_keys))) {
		if (size != 8)
			return ctx_fault(vm, off, size, false, "pointer field must be loaded whole");
		return 0; /* NULL: no socket / flow keys in a test run */
	}
	memcpy(val, vm->ctx + off, size);
	return 0;
}

static bool skb_writable(uint64_t off, uint32_t size)
{
	static const struct { uint16_t lo, hi; } w[] = {
		{ offsetof(struct __sk_buff, mark), offsetof(struct __sk_buff, mark) + 4 },
		{ offsetof(struct __sk_buff, priority), offsetof(struct __sk_buff, priority) + 4 },
		{ offsetof(struct __sk_buff, queue_mapping),
		  offsetof(struct __sk_buff, queue_mapping) + 4 },
		{ offsetof(struct __sk_buff, tc_index), offsetof(struct __sk_buff, tc_index) + 4 },
		{ offsetof(struct __sk_buff, cb), offsetof(struct __sk_buff, cb) + 20 },
		{ offsetof(struct __sk_buff, tc_classid),
		  offsetof(struct __sk_buff, tc_classid) + 4 },
		{ offsetof(struct __sk_buff, tstamp), offsetof(struct __sk_buff, tstamp) + 8 },
	};
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (off >= w[i].lo && off + size <= w[i].hi)
			return true;
	return false;
}

int vm_ctx_store(struct bg_vm *vm, uint64_t off, uint32_t size, uint64_t val)
{
	enum ctx_kind k = ctx_kind(vm->prog_type);

	if (off + size > vm->ctx_size)
		return ctx_fault(vm, off, size, true, "beyond the end of the context");
	if (off % size)
		return ctx_fault(vm, off, size, true, "misaligned");
	if (k != CTX_SKB || !skb_writable(off, size))
		return ctx_fault(vm, off, size, true, "field is read-only");
	memcpy(vm->ctx + off, &val, size);
	return 0;
}
