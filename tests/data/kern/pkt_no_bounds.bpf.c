/* EXPECT: rejected | ^pkt_no_bounds.bpf.c:12: insn 1: invalid access to packet */
/* Reads the EtherType without checking it lies before data_end. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int pkt_no_bounds(struct xdp_md *ctx)
{
	struct ethhdr *eth = (void *)(long)ctx->data;

	return eth->h_proto == 0x0008 ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
