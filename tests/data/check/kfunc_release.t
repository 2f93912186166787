# Release kfuncs of vmlinux that take an object out of a map's kptr field
# (net/bpf/test_run.c's test_sk_check_kfunc_ids: bpf_kfunc_call_test_release,
# KF_RELEASE, for tc among others). bpf_kptr_xchg hands the old object back
# as a reference; the release kfunc ends it, a second release of it (or a
# release of a pointer that holds no reference) is refused, and an object
# never released leaks.
# prog-type: tc
# c: struct mval { struct prog_test_ref_kfunc __kptr *val; u64 other; };
# c: struct prog_test_ref_kfunc full_btf_of_prog_test_ref_kfunc; /* else clang emits only a FWD: no kptr */
# c: extern void bpf_kfunc_call_test_release(struct prog_test_ref_kfunc *p) __ksym;
# map: refs array key=u32 value=struct_mval entries=1

# case: xchg_then_release
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[refs] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_kptr_xchg
if r0 == 0 goto out
r1 = r0
call bpf_kfunc_call_test_release
out:
r0 = 0
exit

# case: xchg_not_released
# expect: reject
# message: Unreleased reference
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[refs] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_kptr_xchg
out:
r0 = 0
exit

# case: release_twice
# expect: reject
# message: R1 type=scalar expected
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[refs] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r2 = 0
call bpf_kptr_xchg
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_kfunc_call_test_release
r1 = r6
call bpf_kfunc_call_test_release
out:
r0 = 0
exit

# case: release_loaded_kptr
# expect: reject
# message: release
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[refs] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 0)
if r1 == 0 goto out
call bpf_kfunc_call_test_release
out:
r0 = 0
exit
