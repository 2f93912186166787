# Multi-kernel verdicts (`bpfgate check --kernel ...`): each case's
# `# expect:` is the running kernel's (6.18) verdict, checked against bpf();
# each `# profile: VER accept|reject [REGEX]` is the verdict bpfgate must give
# for that kernel profile (availability of helpers, kfuncs, map and program
# types, instruction set, loops; before 5.6 global functions are verified
# as static ones, as libbpf loads them there), with REGEX matched against its
# message.
# prog-type: socket
# map: rb ringbuf entries=4096
# map: arr array key=4 value=8 entries=4
# map: q queue value=4 entries=4
# c: static __attribute__((noinline)) int loop_cb(__u32 i, void *ctx) { return 0; }
# c: const volatile int cfg = 1;
# c: extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
# c: extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
# c: extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;
# c: __attribute__((noinline)) int gderef(int *p) { return *p; }
# c: __attribute__((noinline)) int gderef_chk(int *p) { return p ? *p : 0; }
# c: __attribute__((noinline)) int gderef_nonnull(int *p __attribute__((btf_decl_tag("arg:nonnull")))) { return *p; }
# c: extern int LINUX_HAS_BPF_COOKIE __kconfig;
# c: __attribute__((noinline)) int g_pull(struct __sk_buff *sk) { return bpf_skb_pull_data(sk, 0); }
# c: static __attribute__((noinline)) int cb_zero(__u32 i, __u64 *ctx) { *ctx = 0; return 0; }

# case: uses_bpf_loop
# expect: accept
# profile: 6.1 accept
# profile: 5.15 reject helper bpf_loop \(id 181\) is not available before 5.17
# profile: 5.10 reject ld_imm64 of a function .*before 5.13
r1 = 4
r2 = %[loop_cb] ll
r3 = 0
r4 = 0
call bpf_loop
r0 = 0
exit

# case: uses_ringbuf
# expect: accept
# profile: 5.10 accept
# profile: 5.4 reject map rb of type ringbuf is not available before 5.8
r1 = %[rb] ll
r2 = 8
r3 = 0
call bpf_ringbuf_reserve
if r0 == 0 goto out
r1 = 0
*(u64 *)(r0 + 0) = r1
r1 = r0
r2 = 0
call bpf_ringbuf_submit
out:
r0 = 0
exit

# case: isa_v4_movsx
# expect: accept
# profile: 6.6 accept
# profile: 6.1 reject movsx \(ISA v4 instructions\) is not available before 6.6
r1 = -1
r0 = (s8)r1
r0 = 0
exit

# case: isa_v4_sdiv
# expect: accept
# profile: 6.6 accept
# profile: 6.1 reject sdiv .*before 6.6
r0 = -7
r1 = 2
r0 s/= r1
r0 = 0
exit

# case: isa_v4_bswap
# expect: accept
# profile: 6.6 accept
# profile: 5.15 reject bswap .*before 6.6
r0 = 258
r0 = bswap16 r0
r0 = 0
exit

# case: isa_v4_ldsx
# expect: accept
# profile: 6.6 accept
# profile: 6.1 reject sign-extending load .*before 6.6
r1 = -1
*(u64 *)(r10 - 8) = r1
r0 = *(s8 *)(r10 - 8)
r0 = 0
exit

# case: isa_v4_gotol
# expect: accept
# profile: 6.6 accept
# profile: 6.1 reject gotol .*before 6.6
# profile: 5.10 reject gotol .*before 6.6
# real: 6.1 accept 6.1 reads gotol's jump from the 16-bit offset (0 here) and accepts it as a no-op jump: the program loads but does not jump; the profile keeps refusing it
r0 = 0
r1 = 1
if r1 == 0 goto skip
gotol done
skip:
r0 = 1
done:
r0 = 0
exit

# case: may_goto_loop
# expect: accept
# profile: 6.12 accept
# profile: 6.6 reject may_goto .*before 6.9
r0 = 0
l:
may_goto out
r0 += 1
goto l
out:
r0 = 0
exit

# case: iter_num_loop
# expect: accept
# profile: 6.6 accept
# (with the kernel's image cached, check --kernel V resolves kfuncs against V's
# own BTF, which has no bpf_iter_num_new before 6.4; without it, the profile gate)
# profile: 6.1 reject (kfunc bpf_iter_num_new is not available before 6.4|kfunc bpf_iter_num_new not found in target BTF)
# profile: 5.10 reject (kfunc call \(kfunc calls\) is not available before 5.13|kfunc bpf_iter_num_new not found in target BTF)
r1 = r10
r1 += -8
r2 = 0
r3 = 10
call bpf_iter_num_new
next:
r1 = r10
r1 += -8
call bpf_iter_num_next
if r0 == 0 goto done
goto next
done:
r1 = r10
r1 += -8
call bpf_iter_num_destroy
r0 = 0
exit

# case: counted_back_edge
# expect: accept
# profile: 5.4 accept
# profile: 4.19 reject back-edge from insn 2 to 1 \(bounded loops\) is not available before 5.3
r0 = 0
l:
r0 += 1
if r0 < 10 goto l
r0 = 0
exit

# case: jmp32_branch
# expect: accept
# profile: 5.4 accept
# profile: 4.19 reject 32-bit conditional jump \(jmp32 instructions\) is not available before 5.1
r0 = 7
if w0 > 5 goto big
r0 = 0
big:
r0 = 0
exit

# case: atomic_fetch_add
# expect: accept
# profile: 5.15 accept
# profile: 5.10 reject atomic operation other than add .*before 5.12
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 1
r1 = atomic_fetch_add((u64 *)(r10 - 8), r1)
r0 = 0
exit

# case: atomic_plain_add
# expect: accept
# profile: 4.19 accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 1
lock *(u64 *)(r10 - 8) += r1
r0 = 0
exit

# case: global_data_read
# expect: accept
# profile: 5.4 accept
# profile: 4.19 reject direct map value access \(global data\) is not available before 5.2
r1 = %[cfg] ll
r0 = *(u32 *)(r1 + 0)
r0 = 0
exit

# case: const_key_lookup_no_null_check
# expect: accept
# profile: 6.12 reject map_value_or_null
# profile: 6.1 reject
r1 = 0
*(u32 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
r0 = *(u64 *)(r0 + 0)
r0 = 0
exit

# case: const_key_unaligned_zero
# expect: accept
# profile: 6.12 reject map_value_or_null
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
r0 = *(u64 *)(r0 + 0)
r0 = 0
exit

# case: const_key_spill_too_wide
# expect: reject
# message: map_value_or_null
r1 = 0
*(u64 *)(r10 - 8) = r1
r2 = r10
r2 += -8
r1 = %[arr] ll
call bpf_map_lookup_elem
r0 = *(u64 *)(r0 + 0)
r0 = 0
exit

# case: sk_lookup_prog_type
# section: sk_lookup
# expect: accept
# profile: 5.10 accept
# profile: 5.4 reject program type sk_lookup is not available before 5.9
r0 = 1
exit

# case: old_helpers_everywhere
# expect: accept
# profile: 4.19 accept
call bpf_get_prandom_u32
r0 = 0
exit

# case: global_func_deref
# expect: reject
# message: mem_or_null|invalid mem access
# profile: 6.1 reject mem_or_null
# profile: 5.10 reject Arg#0 type PTR in gderef\(\) is not supported yet
# profile: 5.4 accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call %[gderef]
r0 = 0
exit

# case: read_uninit_stack
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 reject invalid read from stack
r0 = *(u64 *)(r10 - 8)
r0 = 0
exit

# case: helper_reads_uninit_stack
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 reject invalid indirect read from stack
r1 = %[arr] ll
r2 = r10
r2 += -8
call bpf_map_lookup_elem
r0 = 0
exit

# case: read_uninit_stack_within_depth
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
# profile: 5.4 reject invalid read from stack
r1 = 0
*(u64 *)(r10 - 16) = r1
r0 = *(u64 *)(r10 - 8)
r0 = 0
exit

# case: read_uninit_stack_beyond_depth
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 reject invalid read from stack
r1 = 0
*(u64 *)(r10 - 8) = r1
r0 = *(u64 *)(r10 - 16)
r0 = 0
exit

# case: helper_reads_uninit_stack_within_depth
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 accept
r1 = 0
*(u64 *)(r10 - 16) = r1
r1 = %[arr] ll
r2 = r10
r2 += -8
call bpf_map_lookup_elem
r0 = 0
exit

# case: map_pop_writes_the_stack
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 accept
r1 = %[q] ll
r2 = r10
r2 += -4
call bpf_map_pop_elem
if r0 != 0 goto out
r0 = *(u32 *)(r10 - 4)
out:
r0 = 0
exit

# case: var_offset_stack_store
# expect: accept
# profile: 5.10 accept
# profile: 5.4 reject access through R1 at a variable stack offset .*before 5.10
call bpf_get_prandom_u32
r0 &= 7
r1 = r10
r1 += -16
r1 += r0
r2 = 0
*(u8 *)(r1 + 0) = r2
r0 = 0
exit

# case: ctx_gso_size
# section: tc
# expect: accept
# profile: 5.10 accept
# profile: 5.4 reject ctx field __sk_buff.gso_size \(off=\d+ size=4\) is not available before 5.7
r0 = *(u32 *)(r1 + 176)
r0 = 0
exit

# case: ctx_old_field_mark
# section: tc
# expect: accept
# profile: 4.19 accept
r0 = *(u32 *)(r1 + 8)
r0 = 0
exit

# case: maybe_null_to_global_func
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 reject Arg#0 type PTR in gderef_chk\(\) is not supported yet
r6 = *(u32 *)(r1 + 0)
*(u32 *)(r10 - 4) = r6
r1 = %[arr] ll
r2 = r10
r2 += -4
call bpf_map_lookup_elem
r1 = r0
call %[gderef_chk]
r0 = 0
exit

# case: maybe_null_to_global_func_deref
# expect: reject
# message: mem_or_null
# profile: 7.2 reject mem_or_null
# profile: 6.1 reject mem_or_null
# profile: 5.10 reject Arg#0 type PTR
r6 = *(u32 *)(r1 + 0)
*(u32 *)(r10 - 4) = r6
r1 = %[arr] ll
r2 = r10
r2 += -4
call bpf_map_lookup_elem
r1 = r0
call %[gderef]
r0 = 0
exit

# A NULL constant passed to a global function's pointer argument tagged
# `arg:nonnull`: 6.12 lets it through (only a maybe-NULL pointer is refused
# there), 7.2 and the running 6.18 refuse it (BG_KFEAT_NONNULL_ARG_NULL).
# case: null_to_nonnull_global_func
# expect: reject
# message: arg#0 is expected to be non-NULL
# profile: 7.2 reject arg#0 is expected to be non-NULL
# profile: 6.12 accept
r1 = 0
call %[gderef_nonnull]
r0 = 0
exit

# case: stack_to_nonnull_global_func
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = r10
r1 += -8
call %[gderef_nonnull]
r0 = 0
exit

# case: kconfig_bpf_cookie_guard
# section: kprobe/do_nanosleep
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# (LINUX_HAS_BPF_COOKIE is 0 before 5.15, as libbpf's probe and the loader give it:
# check --kernel V takes libbpf's __kconfig facts from V, so the call is dead code)
# profile: 5.10 accept
r6 = r1
r1 = %[LINUX_HAS_BPF_COOKIE] ll
r1 = *(u32 *)(r1 + 0)
if r1 == 0 goto out
r1 = r6
call bpf_get_attach_cookie
out:
r0 = 0
exit

# case: st_imm_into_ctx
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject BPF_ST stores into R1 ctx is not allowed
# profile: 5.10 reject BPF_ST stores into R1 ctx is not allowed
*(u32 *)(r1 + 48) = 1
r0 = 0
exit

# case: sock_addr_setsockopt
# (helper availability per program type, measured in each image by
# scripts/probe_kernel_helpers.py: 5.10's cgroup_sock_addr has no bpf_setsockopt)
# section: cgroup/bind4
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 reject unknown func bpf_setsockopt#49 \(kernel 5.10, measured\)
r2 = 0
*(u64 *)(r10 - 8) = r2
r2 = 1
r3 = 12
r4 = r10
r4 += -8
r5 = 4
call bpf_setsockopt
r0 = 1
exit

# case: sk_reuseport_select
# (5.10 does not check sk_reuseport's expected attach type: that came with the
# attach types themselves in 5.14; the loader leaves it out)
# section: sk_reuseport
# expect: accept
# profile: 7.2 accept
# profile: 5.10 accept
r0 = 1
exit

# ---- range tracking of older verifiers (profiles.h: BG_KF_BRANCH_JEQ_RANGE,
# BG_KF_BRANCH_CONST_DST, BG_KF_MOV32_LINK, BG_KF_BRANCH_RANGES,
# BG_KF_SPILL_LINK, BG_KF_SMALL_SPILL, BG_KF_PTR_EQ_NOT_NULL): a branch an
# older verifier cannot prove dead is walked, and the uninitialized r1 (or r9)
# read there rejects the program; the *_old_ok variants are proved dead by
# every kernel.

# case: jeq_const_outside_range
# (6.4: ==/!= a constant is decided by the other side's unsigned range;
# before, only when both sides are constants)
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject R1 !read_ok
# profile: 5.10 reject R1 !read_ok
call bpf_ktime_get_ns
if r0 < 3 goto out
if r0 == 2 goto bad
out:
r0 = 0
exit
bad:
r0 -= r1
exit

# case: jlt_const_outside_range_old_ok
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 accept
call bpf_ktime_get_ns
if r0 < 3 goto out
if r0 < 2 goto bad
out:
r0 = 0
exit
bad:
r0 -= r1
exit

# case: const_first_operand
# (6.4: `if <const> op <reg>` decided; before, only a constant source)
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject R1 !read_ok
# profile: 5.10 reject R1 !read_ok
call bpf_ktime_get_ns
if r0 > 3 goto out
r2 = 4
if r2 < r0 goto bad
out:
r0 = 0
exit
bad:
r0 -= r1
exit

# case: const_second_operand_old_ok
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 accept
call bpf_ktime_get_ns
if r0 > 3 goto out
r2 = 4
if r0 > r2 goto bad
out:
r0 = 0
exit
bad:
r0 -= r1
exit

# case: two_ranges_compared
# (6.8: a comparison of two non-constant scalars is decided by their ranges)
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject R1 !read_ok
# profile: 5.10 reject R1 !read_ok
call bpf_get_prandom_u32
r6 = r0
r6 &= 15
call bpf_get_prandom_u32
r7 = r0
r7 &= 15
r7 += 16
if r6 < r7 goto out
r0 -= r1
exit
out:
r0 = 0
exit

# case: mov32_keeps_link
# (6.4: w3 = w2 links the two when the upper 32 bits are zero; before, a
# 32-bit move never links)
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject R1 !read_ok
# profile: 5.10 reject R1 !read_ok
call bpf_get_prandom_u32
r2 = r0
r2 &= 65535
w3 = w2
if w2 < 9 goto l0
r0 = 0
exit
l0:
if r3 < 9 goto out
r0 -= r1
out:
r0 = 0
exit

# case: mov64_keeps_link_old_ok
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 accept
call bpf_get_prandom_u32
r2 = r0
r2 &= 65535
r3 = r2
if w2 < 9 goto l0
r0 = 0
exit
l0:
if r3 < 9 goto out
r0 -= r1
out:
r0 = 0
exit

# case: spill_assigns_link
# (6.9: a spill links the register with the slot; before, only a register
# linked already keeps its link through the stack)
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject R9 !read_ok
# profile: 5.10 reject R9 !read_ok
call bpf_get_prandom_u32
r0 &= 0x40000000
*(u64 *)(r10 - 8) = r0
r1 = *(u64 *)(r10 - 8)
if r1 > 5 goto out
if r0 <= 5 goto out
r0 = *(u64 *)(r9 + 0)
out:
r0 = 0
exit

# case: spill_of_linked_old_ok
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 accept
call bpf_get_prandom_u32
r0 &= 0x40000000
r2 = r0
*(u64 *)(r10 - 8) = r0
r1 = *(u64 *)(r10 - 8)
if r1 > 5 goto out
if r0 <= 5 goto out
r0 = *(u64 *)(r9 + 0)
out:
r0 = 0
exit

# case: spill_unbounded_linked
# (6.9: an unbounded scalar spills as itself; before, as unknown data, so even
# a linked register loses its link)
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject R9 !read_ok
# profile: 5.10 reject R9 !read_ok
call bpf_get_prandom_u32
r2 = r0
*(u64 *)(r10 - 8) = r0
if r0 > 16 goto out
r0 = *(u64 *)(r10 - 8)
if r0 <= 16 goto out
r0 = *(u64 *)(r9 + 0)
out:
r0 = 0
exit

# case: narrowing_fill
# (6.9: a 4-byte fill of an 8-byte spill keeps the value; before, unknown)
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject R9 !read_ok
# profile: 5.10 reject R9 !read_ok
r0 = 0
r4 = 20
*(u64 *)(r10 - 8) = r4
r4 = *(u32 *)(r10 - 8)
if r4 == 20 goto out
r0 -= r9
exit
out:
r0 = 0
exit

# case: same_size_fill_old_ok
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 accept
r0 = 0
r4 = 20
*(u64 *)(r10 - 8) = r4
r4 = *(u64 *)(r10 - 8)
if r4 == 20 goto out
r0 -= r9
exit
out:
r0 = 0
exit

# case: small_spill
# (5.16 upstream: a 4-byte spill of a scalar keeps it; before, unknown data;
# Debian's 5.10 LTS has it, measured here)
# expect: accept
# profile: 7.2 accept
# profile: 6.1 accept
# profile: 5.10 accept
# profile: 5.4 reject R9 !read_ok
r0 = 0
r4 = 20
*(u32 *)(r10 - 8) = r4
r4 = *(u32 *)(r10 - 8)
if r4 == 20 goto out
r0 -= r9
exit
out:
r0 = 0
exit

# case: ptr_eq_nonnull_ptr
# (6.2: where a maybe-NULL pointer equals a non-NULL one it is not NULL)
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject map_value_or_null
# profile: 5.10 reject map_value_or_null
call bpf_get_prandom_u32
*(u32 *)(r10 - 4) = r0
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
r6 = r0
r2 = r10
r2 += -4
r1 = %[arr] ll
call bpf_map_lookup_elem
r7 = r0
if r6 == 0 goto out
if r6 != r7 goto out
r0 = *(u64 *)(r7 + 0)
out:
r0 = 0
exit

# case: callback_zero_times
# A callback called zero or more times (from 6.7) against exactly once
# (before: BG_KFEAT_CB_ITER): the callback clears the slot holding 32, the
# caller indexes an 8-byte map value with it.
# expect: reject
# message: invalid access to map value
# profile: 7.2 reject invalid access to map value
# profile: 6.12 reject invalid access to map value
# profile: 6.1 accept
r1 = 32
*(u64 *)(r10 - 8) = r1
r1 = 4
r2 = %[cb_zero] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r1 = 0
*(u32 *)(r10 - 12) = r1
r1 = %[arr] ll
r2 = r10
r2 += -12
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r10 - 8)
r0 += r1
r0 = *(u8 *)(r0 + 0)
out:
r0 = 0
exit

# case: callback_zero_times_old_ok
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
r1 = 0
*(u64 *)(r10 - 8) = r1
r1 = 4
r2 = %[cb_zero] ll
r3 = r10
r3 += -8
r4 = 0
call bpf_loop
r1 = 0
*(u32 *)(r10 - 12) = r1
r1 = %[arr] ll
r2 = r10
r2 += -12
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = *(u64 *)(r10 - 8)
r0 += r1
r0 = *(u8 *)(r0 + 0)
out:
r0 = 0
exit

# case: global_func_pkt_changes
# A global function that may move the packet (bpf_skb_pull_data)
# invalidates the caller's packet pointers from 6.13 (in Debian's 6.12):
# BG_KFEAT_PKT_GLOBAL_CALLS (k13-kf landed the same bit first).
# section: tc
# expect: reject
# message: invalid mem access 'scalar'
# profile: 7.2 reject invalid mem access 'scalar'
# profile: 6.12 reject invalid mem access 'scalar'
# profile: 6.1 accept
# profile: 5.10 accept
r6 = r1
r2 = *(u32 *)(r6 + 76)
r3 = *(u32 *)(r6 + 80)
r4 = r2
r4 += 4
if r4 > r3 goto out
r7 = r2
r1 = r6
call %[g_pull]
r1 = 42
*(u32 *)(r7 + 0) = r1
out:
r0 = 0
exit

# case: global_func_pkt_changes_old_ok
# section: tc
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r6 = r1
r1 = r6
call %[g_pull]
r2 = *(u32 *)(r6 + 76)
r3 = *(u32 *)(r6 + 80)
r4 = r2
r4 += 4
if r4 > r3 goto out
r1 = 42
*(u32 *)(r2 + 0) = r1
out:
r0 = 0
exit

# case: loop_closed_by_fallthrough
# A bounded loop entered in its middle: check_cfg's walk closes it with the
# fall-through of `r0 += 1`, a back-edge refused before 6.7
# (BG_KFEAT_CFG_FALLTHROUGH_LOOP).
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject back-edge from insn 2 to 3
# profile: 5.10 reject back-edge from insn 2 to 3
r0 = 0
goto l0
l1:
r0 += 1
l0:
if r0 < 4 goto l1
r0 = 0
exit

# case: loop_closed_by_fallthrough_old_ok
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r0 = 0
l1:
r0 += 1
if r0 < 4 goto l1
r0 = 0
exit
