/* Large programs: fully unrolled payload processing (hashing, signature
 * matching, checksums over whole frames) and wide per-field processing,
 * the shapes that push programs past thousands of instructions. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, __u64);
} field_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u32);
} payload_hashes SEC(".maps");

static __always_inline __u32 rotl32(__u32 x, int r)
{
	return (x << r) | (x >> (32 - r));
}

/* FNV-1a-style hash with a rotate over up to 2048 payload bytes, unrolled:
 * one bounds check per byte. */
SEC("xdp")
int xdp_payload_hash_2k(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 h = 2166136261u, *seen;

#pragma unroll
	for (int i = 0; i < 2048; i++) {
		if ((void *)(p + i + 1) > end)
			break;
		h = rotl32(h ^ p[i], 5) * 16777619u;
	}
	seen = bpf_map_lookup_elem(&payload_hashes, &h);
	if (seen) {
		*seen += 1;
		return XDP_DROP;
	}
	return XDP_PASS;
}

/* Internet checksum of up to 1500 bytes of a frame in 16-bit words,
 * unrolled, with a second running sum (Fletcher-like) for good measure. */
SEC("tc")
int tc_frame_checksum_1500(struct __sk_buff *skb)
{
	__u16 *w = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	__u32 sum = 0, sum2 = 0;

#pragma unroll
	for (int i = 0; i < 750; i++) {
		if ((void *)(w + i + 1) > end)
			break;
		sum += w[i];
		sum2 += sum ^ (__u32)i;
		sum2 = rotl32(sum2, 3);
	}
	skb->mark = csum_fold32(sum) ^ (sum2 & 0xffff0000);
	return TC_ACT_OK;
}

/* Match 8 four-byte signatures at each of the first 96 payload offsets. */
static const __u32 sigs[8] = {0x47455420, 0x504f5354, 0x48545450, 0x16030100,
			      0x53534830, 0x00000001, 0xdeadbeef, 0x7f454c46};

SEC("xdp")
int xdp_signature_scan(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

#pragma unroll
	for (int off = 42; off < 42 + 96; off++) {
		__u32 w;

		if ((void *)(p + off + 4) > end)
			break;
		w = (__u32)p[off] << 24 | (__u32)p[off + 1] << 16 | (__u32)p[off + 2] << 8 | p[off + 3];
#pragma unroll
		for (int s = 0; s < 8; s++)
			if (w == sigs[s]) {
				__u32 k = s;
				__u64 *c = bpf_map_lookup_elem(&field_stats, &k);

				if (c)
					*c += 1;
				return XDP_DROP;
			}
	}
	return XDP_PASS;
}

/* Per-field statistics over the first 64 16-bit fields of the frame. */
SEC("tc")
int tc_per_field_stats(struct __sk_buff *skb)
{
	__u16 *w = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;

#pragma unroll
	for (int i = 0; i < 64; i++) {
		__u32 k;
		__u64 *c;

		if ((void *)(w + i + 1) > end)
			break;
		k = (i * 4 + (w[i] & 3)) & 255;
		c = bpf_map_lookup_elem(&field_stats, &k);
		if (c)
			*c += w[i];
	}
	return TC_ACT_OK;
}

/* Byte-frequency profile of the first 512 bytes (DDoS payload entropy). */
SEC("xdp")
int xdp_byte_profile_512(struct xdp_md *ctx)
{
	__u8 *p = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u32 zeros = 0, high = 0, ascii = 0;

#pragma unroll
	for (int i = 0; i < 512; i++) {
		__u8 b;

		if ((void *)(p + i + 1) > end)
			break;
		b = p[i];
		/* branch-free counting: a compare per byte would double the paths */
		zeros += ((__u32)b - 1) >> 31;
		high += b >> 7;
		ascii += ((__u32)b - 0x20) >> 31 ^ 1;
	}
	if (zeros > 400 || high > 480)
		return XDP_DROP;
	return ascii > 256 ? XDP_PASS : XDP_PASS;
}

/* 32 rounds of a mixing function over 16 words of the packet header area. */
SEC("tc")
int tc_header_digest(struct __sk_buff *skb)
{
	__u32 *w = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	__u32 st[4] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a};

	if ((void *)(w + 16) > end)
		return TC_ACT_OK;
#pragma unroll
	for (int r = 0; r < 32; r++) {
		st[r & 3] += w[r & 15] ^ rotl32(st[(r + 1) & 3], 7);
		st[(r + 2) & 3] ^= rotl32(st[r & 3], 13);
	}
	skb->mark = st[0] ^ st[1] ^ st[2] ^ st[3];
	return TC_ACT_OK;
}
