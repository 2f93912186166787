/* Helpers the interpreter models without sockets or a call stack, on the
 * programs of tests/data/vm/helpers/no_sock_stack.bpf.c (compiled here with
 * clang-14): sockmap/sockhash redirects of sk_skb and sk_msg programs return
 * SK_DROP (no socket at any key, as the kernel answers for a missing entry),
 * bpf_get_stackid/bpf_get_stack return the kernel's flag errors (-EINVAL)
 * and otherwise -EFAULT (no stack), get_stack zeroes its buffer,
 * bpf_get_attach_cookie returns bg_vm_opts.attach_cookie (0 by default), and
 * bpf_get_current_task_btf the same task address as bpf_get_current_task;
 * an sk_msg has no message bytes (msg_pull_data -EINVAL, apply/cork 0). */
/* min-pass: 18 (PASS lines when clang, bpf() and the corpus are there (about 90% of a full run)) */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpfgate/object.h>
#include <bpfgate/vm.h>
#include "test.h"

static const char *const src = "tests/data/vm/helpers/no_sock_stack.bpf.c";

/* Run program `name` once (sanitizing on and off); r0 must be `want`. */
static void expect(struct bg_object *obj, const char *name, uint64_t cookie, uint64_t want)
{
	struct bg_program *p = bg_object__find_prog(obj, name);
	int s;

	for (s = 0; s < 2; s++) {
		struct bg_vm_opts o = { .sz = sizeof(o), .no_sanitize = !s, .attach_cookie = cookie };
		struct bg_vm *vm = p ? bg_vm__new(p, &o) : NULL;
		const struct bg_vm_fault *f;
		uint64_t r0 = 0;
		char tn[160];
		int err;

		snprintf(tn, sizeof(tn), "vm_helpers/%s%s%s", name, cookie ? "/cookie" : "",
			 s ? "" : "/nosan");
		if (!vm) {
			T_FAIL(tn, "no program or bg_vm__new failed: %s", strerror(errno));
			continue;
		}
		err = bg_vm__run(vm, &r0);
		f = bg_vm__fault(vm);
		T_CHECK(!err && r0 == want, tn, "err %d r0 %lld want %lld%s%s", err, (long long)r0,
			(long long)want, f ? ": " : "", f ? f->msg : "");
		bg_vm__free(vm);
	}
}

int main(void)
{
	char root[PATH_MAX], dir[] = "/tmp/bg_vm_helpers.XXXXXX", cmd[3 * PATH_MAX], obj_path[PATH_MAX];
	struct bg_object *obj;

	if (access("/usr/bin/clang-14", X_OK)) {
		T_SKIP("vm_helpers", "clang-14 not installed");
		T_EXIT();
	}
	test_root_dir(root, sizeof(root));
	if (!mkdtemp(dir)) {
		T_FAIL("vm_helpers/compile", "mkdtemp: %s", strerror(errno));
		T_EXIT();
	}
	snprintf(obj_path, sizeof(obj_path), "%s/no_sock_stack.o", dir);
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/clang-14 -O2 -g -target bpf -I/usr/include/x86_64-linux-gnu -c '%s/%s' -o '%s'",
		 root, src, obj_path);
	if (system(cmd)) {
		T_FAIL("vm_helpers/compile", "%s failed", cmd);
		rmdir(dir);
		T_EXIT();
	}
	obj = bg_object__open(obj_path, NULL, NULL, 0);
	unlink(obj_path);
	rmdir(dir);
	if (!obj) {
		T_FAIL("vm_helpers/open", "bg_object__open: %s", strerror(errno));
		T_EXIT();
	}
	expect(obj, "skb_redir_map", 0, 40);  /* SK_DROP + 40 */
	expect(obj, "skb_redir_hash", 0, 40);
	expect(obj, "msg_redir_map", 0, 40);
	expect(obj, "msg_redir_hash", 0, 40);
	expect(obj, "msg_data", 0, 0xf);
	expect(obj, "stackid", 0, 0x1f);      /* every check of the program holds */
	expect(obj, "stack", 0, 0x7f);
	expect(obj, "cookie", 0, 40);         /* no cookie: 0, as the kernel */
	expect(obj, "cookie", 0x123456789ull, 0x123456789ull + 40);
	expect(obj, "task_btf", 0, 40);
	bg_object__free(obj);
	T_EXIT();
}
