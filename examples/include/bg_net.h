/* bg_net.h - small packet-parsing helpers shared by the bundled examples that
 * use the <linux/...> uapi headers (not vmlinux.h). Every accessor checks the bound
 * against data_end before it returns a pointer, so callers only test NULL. */
#ifndef BG_EXAMPLES_NET_H
#define BG_EXAMPLES_NET_H
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

/* A cursor over a packet: pos advances as headers are consumed. */
struct hdr_cursor {
	void *pos;
	void *end;
};

/* Return a pointer to the next len bytes and advance, or NULL when the packet
 * is too short. The comparison is on the advanced pointer, which is the form
 * the verifier tracks as a packet range. */
static __always_inline void *cursor_pull(struct hdr_cursor *c, __u32 len)
{
	void *p = c->pos;

	if (p + len > c->end)
		return 0;
	c->pos = p + len;
	return p;
}
#endif
