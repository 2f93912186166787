/* cc-test: clangs=14,19 flags= expect=fixed fix=-mcpu=v3
 * Safe: the int length returned by bpf_probe_read_kernel_str is checked to
 * be in (0, 64] before it sizes the ringbuf output. At -mcpu=v1 the checks
 * run on a sign-extended copy and the size register stays unbounded. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8[128]);
} names SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

SEC("kprobe/do_nanosleep")
int copy_name(void *ctx)
{
	__u32 k = 0;
	__u8 *src = bpf_map_lookup_elem(&names, &k);
	char buf[64];
	int ret;

	if (!src)
		return 0;
	ret = bpf_probe_read_kernel_str(buf, sizeof(buf), src);
	if (ret <= 0 || ret > 64)
		return 0;
	bpf_ringbuf_output(&events, buf, ret, 0);
	return 0;
}
char LICENSE[] SEC("license") = "GPL";
