/* EXPECT: rejected | invalid mem access */
/* BTF kinds older kernels refuse (FLOAT 5.13, DECL_TAG 5.16, TYPE_TAG 5.17,
 * ENUM64 6.0 with clang >= 15) next to a global function that is only safe for
 * the argument its caller passes. With the object's BTF the kernel verifies
 * check_arg() on its own, for any int: rejected. Without BTF (no func_info)
 * the call is verified as a static one with x = 5: accepted. kload.test.sh
 * loads it again with those kinds counted as missing (BG_KBTF_MISSING, as in
 * a 5.10 guest): the loader must rewrite them and keep the BTF, so the
 * verdict stays "rejected"; with global linkage missing too (a 5.5 kernel)
 * the function is static and the program accepted. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

enum wide { WIDE_SMALL = 1, WIDE_BIG = 0x100000000ULL };

struct kinds {
	float ratio;
	int __attribute__((btf_type_tag("user"))) *ptr;
	enum wide w;
};

struct kinds seen __attribute__((btf_decl_tag("kept")));

__attribute__((noinline)) int check_arg(int x)
{
	if (x != 5)
		return *(volatile int *)(long)x;
	return 0;
}

SEC("socket")
int btf_new_kinds(struct __sk_buff *skb)
{
	seen.w = WIDE_SMALL;
	return check_arg(5);
}

char LICENSE[] SEC("license") = "GPL";
