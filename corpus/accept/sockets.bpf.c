/* Socket-level programs: sockmap/sockhash redirection (sk_msg, sk_skb),
 * cgroup sock_addr hooks (connect/bind/sendmsg/recvmsg/getpeername),
 * sockops, cgroup sysctl/sockopt/device/sock hooks, sk_lookup,
 * flow dissector and lightweight tunnels. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

#define AF_INET 2
#define AF_INET6 10
#define SOCK_STREAM 1
#define SOL_SOCKET 1
#define SO_SNDBUF 7
#define SOL_TCP 6
#define TCP_CONGESTION 13
#define BPF_DEVCG_DEV_CHAR_ (1 << 1)
#define BPF_DEVCG_ACC_WRITE_ (1 << 2)

struct sock_key {
	__u32 sip, dip;
	__u32 sport, dport;
	__u32 family;
};

struct {
	__uint(type, BPF_MAP_TYPE_SOCKHASH);
	__uint(max_entries, 65535);
	__type(key, struct sock_key);
	__type(value, int);
} sock_ops_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} sockmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} svc_backend SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u16);
	__type(value, __u8);
} allowed_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

const volatile __u32 proxy_ip = 0x0100007f;
const volatile __u16 proxy_port = 15001;

static __always_inline void stat_inc(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &i);

	if (v)
		__sync_fetch_and_add(v, 1);
}

/* ---- sockops: record established sockets in the sockhash ---- */
SEC("sockops")
int sockops_track_established(struct bpf_sock_ops *skops)
{
	struct sock_key key = {};

	if (skops->family != AF_INET)
		return 1;
	switch (skops->op) {
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
		key.sip = skops->local_ip4;
		key.dip = skops->remote_ip4;
		key.sport = skops->local_port;
		key.dport = bpf_ntohl(skops->remote_port);
		key.family = skops->family;
		bpf_sock_hash_update(skops, &sock_ops_map, &key, BPF_NOEXIST);
		break;
	}
	return 1;
}

SEC("sockops")
int sockops_rtt_tuning(struct bpf_sock_ops *skops)
{
	int rv = -1;

	switch (skops->op) {
	case BPF_SOCK_OPS_TIMEOUT_INIT:
		rv = 10; /* initial RTO in jiffies for a LAN */
		break;
	case BPF_SOCK_OPS_RWND_INIT:
		rv = 40;
		break;
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
		bpf_sock_ops_cb_flags_set(skops, BPF_SOCK_OPS_RTT_CB_FLAG | BPF_SOCK_OPS_STATE_CB_FLAG);
		rv = 1;
		break;
	case BPF_SOCK_OPS_RTT_CB:
		stat_inc(skops->srtt_us > 10000 ? 1 : 0);
		rv = 1;
		break;
	}
	skops->reply = rv;
	return 1;
}

SEC("sockops")
int sockops_set_cong(struct bpf_sock_ops *skops)
{
	char cc[] = "cubic";
	int bufsz = 1 << 20;

	if (skops->op != BPF_SOCK_OPS_TCP_CONNECT_CB)
		return 1;
	bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, cc, sizeof(cc));
	bpf_setsockopt(skops, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz));
	return 1;
}

/* ---- sk_msg: short-circuit local TCP through the sockhash ---- */
SEC("sk_msg")
int skmsg_redirect_local(struct sk_msg_md *msg)
{
	struct sock_key key = {};

	if (msg->family != AF_INET)
		return SK_PASS;
	key.sip = msg->remote_ip4;
	key.dip = msg->local_ip4;
	key.dport = msg->local_port;
	key.sport = bpf_ntohl(msg->remote_port);
	key.family = msg->family;
	bpf_msg_redirect_hash(msg, &sock_ops_map, &key, BPF_F_INGRESS);
	return SK_PASS;
}

SEC("sk_msg")
int skmsg_inspect_prefix(struct sk_msg_md *msg)
{
	void *data, *end;
	__u8 *p;

	if (bpf_msg_pull_data(msg, 0, 8, 0))
		return SK_PASS;
	data = msg->data;
	end = msg->data_end;
	p = data;
	if ((void *)(p + 4) > end)
		return SK_PASS;
	/* drop HTTP CONNECT attempts */
	if (p[0] == 'C' && p[1] == 'O' && p[2] == 'N' && p[3] == 'N')
		return SK_DROP;
	return SK_PASS;
}

SEC("sk_msg")
int skmsg_cork_small(struct sk_msg_md *msg)
{
	if (msg->size < 64)
		bpf_msg_cork_bytes(msg, 64);
	stat_inc(2);
	return SK_PASS;
}

/* ---- sk_skb: stream parser and verdict for a sockmap ---- */
SEC("sk_skb/stream_parser")
int skskb_parser(struct __sk_buff *skb)
{
	return skb->len;
}

SEC("sk_skb/stream_verdict")
int skskb_verdict(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	__u8 *p = data;
	__u32 idx;

	if ((void *)(p + 1) > end)
		return SK_PASS;
	idx = p[0] & 63;
	return bpf_sk_redirect_map(skb, &sockmap, idx, 0);
}

/* ---- cgroup sock_addr: transparent proxying and policy ---- */
SEC("cgroup/connect4")
int cg_connect4_proxy(struct bpf_sock_addr *ctx)
{
	__u32 dst = ctx->user_ip4;
	__u32 *be;

	if (ctx->type != SOCK_STREAM)
		return 1;
	be = bpf_map_lookup_elem(&svc_backend, &dst);
	if (!be)
		return 1;
	ctx->user_ip4 = *be;
	return 1;
}

SEC("cgroup/connect4")
int cg_connect4_redirect_port(struct bpf_sock_addr *ctx)
{
	if (ctx->user_port == bpf_htons(80)) {
		ctx->user_ip4 = proxy_ip;
		ctx->user_port = bpf_htons(proxy_port);
	}
	return 1;
}

SEC("cgroup/connect6")
int cg_connect6_block_v4mapped(struct bpf_sock_addr *ctx)
{
	/* ::ffff:a.b.c.d */
	if (ctx->user_ip6[0] == 0 && ctx->user_ip6[1] == 0 &&
	    ctx->user_ip6[2] == bpf_htonl(0x0000ffff))
		return 0;
	return 1;
}

SEC("cgroup/bind4")
int cg_bind4_ports(struct bpf_sock_addr *ctx)
{
	__u16 port = bpf_ntohs(ctx->user_port);

	if (port == 0 || port >= 1024)
		return 1;
	return bpf_map_lookup_elem(&allowed_ports, &port) ? 1 : 0;
}

SEC("cgroup/bind6")
int cg_bind6_any(struct bpf_sock_addr *ctx)
{
	return ctx->user_port == bpf_htons(22) ? 0 : 1;
}

SEC("cgroup/sendmsg4")
int cg_sendmsg4_dns(struct bpf_sock_addr *ctx)
{
	if (ctx->user_port == bpf_htons(53) && ctx->type == 2 /* SOCK_DGRAM */)
		ctx->user_ip4 = proxy_ip;
	return 1;
}

SEC("cgroup/recvmsg4")
int cg_recvmsg4_restore(struct bpf_sock_addr *ctx)
{
	if (ctx->user_ip4 == proxy_ip)
		ctx->user_port = bpf_htons(53);
	return 1;
}

SEC("cgroup/getpeername4")
int cg_getpeername4(struct bpf_sock_addr *ctx)
{
	stat_inc(3);
	return 1;
}

/* ---- other cgroup hooks ---- */
SEC("cgroup/sock_create")
int cg_sock_create(struct bpf_sock *sk)
{
	/* no raw sockets in this cgroup */
	return sk->type == 3 /* SOCK_RAW */ ? 0 : 1;
}

SEC("cgroup/post_bind4")
int cg_post_bind4(struct bpf_sock *sk)
{
	return sk->src_port == 0 || sk->src_port > 1023 || sk->src_port == 80 ? 1 : 0;
}

SEC("cgroup/sysctl")
int cg_sysctl_readonly(struct bpf_sysctl *ctx)
{
	char name[32];

	if (!ctx->write)
		return 1;
	if (bpf_sysctl_get_name(ctx, name, sizeof(name), 0) < 0)
		return 0;
	/* forbid writes to net.* */
	return !(name[0] == 'n' && name[1] == 'e' && name[2] == 't');
}

SEC("cgroup/getsockopt")
int cg_getsockopt_passthru(struct bpf_sockopt *ctx)
{
	stat_inc(4);
	return 1;
}

SEC("cgroup/setsockopt")
int cg_setsockopt_clamp_sndbuf(struct bpf_sockopt *ctx)
{
	void *data = ctx->optval, *end = ctx->optval_end;
	int *val = data;

	if (ctx->level != SOL_SOCKET || ctx->optname != SO_SNDBUF)
		return 1;
	if ((void *)(val + 1) > end)
		return 1;
	if (*val > (4 << 20))
		*val = 4 << 20;
	return 1;
}

SEC("cgroup/dev")
int cg_dev_policy(struct bpf_cgroup_dev_ctx *ctx)
{
	__u16 type = ctx->access_type & 0xffff;
	__u16 access = ctx->access_type >> 16;

	/* allow /dev/null, /dev/zero, /dev/urandom (char 1:3, 1:5, 1:9) */
	if (type == BPF_DEVCG_DEV_CHAR_ && ctx->major == 1 &&
	    (ctx->minor == 3 || ctx->minor == 5 || ctx->minor == 9))
		return 1;
	return !(access & BPF_DEVCG_ACC_WRITE_);
}

/* ---- sk_lookup: steer a port range to one listening socket ---- */
SEC("sk_lookup")
int sklookup_port_range(struct bpf_sk_lookup *ctx)
{
	struct bpf_sock *sk;
	__u32 zero = 0;
	long err;

	if (ctx->protocol != IPPROTO_TCP || ctx->local_port < 7000 || ctx->local_port > 7999)
		return SK_PASS;
	sk = bpf_map_lookup_elem(&sockmap, &zero);
	if (!sk)
		return SK_PASS;
	err = bpf_sk_assign(ctx, sk, 0);
	bpf_sk_release(sk);
	return err ? SK_DROP : SK_PASS;
}

/* ---- flow dissector: IPv4 + ports ---- */
SEC("flow_dissector")
int flow_dissect_ipv4(struct __sk_buff *skb)
{
	struct bpf_flow_keys *keys = skb->flow_keys;
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	__u16 nhoff = keys->nhoff;
	struct iphdr *ip;
	__u16 *ports;

	if (keys->n_proto != bpf_htons(ETH_P_IP))
		return BPF_DROP;
	if (nhoff > 128) /* bound the offset before comparing with data_end */
		return BPF_DROP;
	ip = data + nhoff;
	if ((void *)(ip + 1) > end || ip->ihl != 5)
		return BPF_DROP;
	keys->addr_proto = ETH_P_IP;
	keys->ipv4_src = ip->saddr;
	keys->ipv4_dst = ip->daddr;
	keys->ip_proto = ip->protocol;
	keys->thoff = nhoff + sizeof(*ip);
	if (ip->frag_off & bpf_htons(IP_MF | IP_OFFSET)) {
		keys->is_frag = 1;
		return BPF_OK;
	}
	ports = data + nhoff + sizeof(*ip);
	if ((void *)(ports + 2) > end)
		return BPF_OK;
	keys->sport = ports[0];
	keys->dport = ports[1];
	return BPF_OK;
}

/* ---- lightweight tunnels ---- */
SEC("lwt_in")
int lwt_in_count(struct __sk_buff *skb)
{
	stat_inc(5);
	return skb->len > 9000 ? BPF_DROP : BPF_OK;
}

SEC("lwt_xmit")
int lwt_xmit_mark(struct __sk_buff *skb)
{
	skb->mark = 0x42;
	return BPF_OK;
}

SEC("lwt_out")
int lwt_out_filter(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct iphdr *ip = data;

	if ((void *)(ip + 1) > end)
		return BPF_OK;
	return ip->ttl == 0 ? BPF_DROP : BPF_OK;
}
