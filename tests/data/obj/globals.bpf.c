/* Loader and concurrency test: global (non-static) functions whose callers
 * pass valid and invalid arguments. Each bad call is refused with "Caller
 * passes invalid args into func#N" and a reason of its own (a ctx pointer
 * where memory is expected, a read-only map value written by the callee, NULL
 * for an arg:nonnull pointer), or the callee's prototype is refused (a pointer
 * returned, an `arg:ctx` of the wrong type), so tests/unit/test_threads.c sees the
 * global-function diagnostics computed by several threads at once. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

const volatile int ro_val = 1;
int rw_val;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, int);
} vals SEC(".maps");

__attribute__((noinline)) int g_store(int *p)
{
	if (p)
		*p = 42;
	return 0;
}

__attribute__((noinline)) int g_nonnull(int *p __attribute__((btf_decl_tag("arg:nonnull"))))
{
	return *p;
}

/* prototypes the kernel refuses, whichever arguments are passed */
__attribute__((noinline)) int *g_ptr_ret(int *p)
{
	return *p ? p : 0;
}

__attribute__((noinline)) int g_ctx_wrong(long *c __attribute__((btf_decl_tag("arg:ctx"))))
{
	return c != 0;
}

SEC("tc")
int store_ok(struct __sk_buff *skb)
{
	int v = skb->len;

	g_store(&v);
	return g_store(&rw_val) + v;
}

SEC("tc")
int store_ctx(struct __sk_buff *skb)
{
	return g_store((int *)skb);
}

SEC("tc")
int store_rodata(struct __sk_buff *skb)
{
	int *p = (int *)&ro_val;

	asm volatile("" : "+r"(p)); /* the compiler must not see the write to a const */
	return g_store(p) + skb->len;
}

SEC("tc")
int nonnull_null(struct __sk_buff *skb)
{
	int *p = 0;

	asm volatile("" : "+r"(p)); /* a NULL the compiler cannot see */
	return g_nonnull(p) + skb->len;
}

SEC("tc")
int nonnull_maybe_null(struct __sk_buff *skb)
{
	int key = 0;
	int *p = bpf_map_lookup_elem(&vals, &key); /* maybe NULL, not checked */

	return g_nonnull(p) + skb->len;
}

SEC("tc")
int ptr_return(struct __sk_buff *skb)
{
	int *p = &rw_val;

	asm volatile("" : "+r"(p));
	return g_ptr_ret(p) != 0;
}

SEC("tc")
int ctx_tag_wrong_type(struct __sk_buff *skb)
{
	return g_ctx_wrong((long *)skb);
}

char _license[] SEC("license") = "GPL";
