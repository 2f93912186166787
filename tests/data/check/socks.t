# Socket pointers (PTR_TO_SOCKET, PTR_TO_SOCK_COMMON, PTR_TO_TCP_SOCK): the
# kernel's per-field read rules (net/core/filter.c bpf_sock_is_valid_access,
# bpf_sock_common_is_valid_access, bpf_tcp_sock_is_valid_access), pointers
# derived from a referenced socket (bpf_sk_fullsock, bpf_tcp_sock: released
# with it, is_ptr_cast_function), and NULL inference from comparing two
# socket pointers (check_cond_jmp_op). __sk_buff->sk is at 168; struct
# bpf_sock: type 8, priority 20, dst_port 48 (__be16 + 2 bytes padding),
# dst_ip4 52, rx_queue_mapping 76, 80 bytes; bpf_tcp_sock: bytes_acked 88 (u64),
# dsack_dups 96, 112 bytes.
# prog-type: cgroup/skb
# c: extern __u64 *bpf_session_cookie(void) __ksym;

# case: sock_common_dst_port_bytes
# expect: accept
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
r0 = *(u8 *)(r1 + 48)
r0 = *(u8 *)(r1 + 49)
r0 = *(u16 *)(r1 + 48)
r0 = *(u32 *)(r1 + 48)
out:
r0 = 1
exit

# case: sock_common_dst_port_padding
# expect: reject
# message: invalid sock_common access off=50 size=2
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
r0 = *(u16 *)(r1 + 50)
out:
r0 = 1
exit

# case: sock_common_has_no_type
# expect: reject
# message: invalid sock_common access off=8 size=4
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
r0 = *(u32 *)(r1 + 8)
out:
r0 = 1
exit

# case: fullsock_type_and_narrow_ip
# expect: accept
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
call bpf_sk_fullsock
if r0 == 0 goto out
r1 = *(u32 *)(r0 + 8)
r1 = *(u8 *)(r0 + 55)
r1 = *(u16 *)(r0 + 76)
out:
r0 = 1
exit

# case: fullsock_beyond_last_field
# expect: reject
# message: invalid sock access off=80 size=4
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
call bpf_sk_fullsock
if r0 == 0 goto out
r1 = *(u32 *)(r0 + 80)
out:
r0 = 1
exit

# case: fullsock_64bit_read
# expect: reject
# message: invalid sock access off=0 size=8
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
call bpf_sk_fullsock
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 0)
out:
r0 = 1
exit

# case: fullsock_narrow_priority
# expect: reject
# message: invalid sock access off=20 size=2
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
call bpf_sk_fullsock
if r0 == 0 goto out
r1 = *(u16 *)(r0 + 20)
out:
r0 = 1
exit

# case: tcp_sock_u64_field
# expect: accept
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
call bpf_tcp_sock
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 88)
r1 = *(u32 *)(r0 + 108)
out:
r0 = 1
exit

# case: tcp_sock_u32_field_as_u64
# expect: reject
# message: invalid tcp_sock access off=96 size=8
r1 = *(u64 *)(r1 + 168)
if r1 == 0 goto out
call bpf_tcp_sock
if r0 == 0 goto out
r1 = *(u64 *)(r0 + 96)
out:
r0 = 1
exit

# case: equal_to_non_null_socket_is_not_null
# expect: accept
r6 = *(u64 *)(r1 + 168)
if r6 == 0 goto out
r1 = r6
call bpf_sk_fullsock
r7 = r0
r1 = r6
call bpf_sk_fullsock
if r0 == 0 goto out
if r0 != r7 goto out
r0 = *(u32 *)(r7 + 8)
out:
r0 = 1
exit

# case: compare_with_register_zero_is_no_null_check
# expect: reject
# message: invalid mem access 'sock_or_null'
r6 = *(u64 *)(r1 + 168)
if r6 == 0 goto out
r1 = r6
call bpf_sk_fullsock
r7 = r0
r1 = r6
call bpf_sk_fullsock
if r0 != 0 goto out
if r0 != r7 goto use
goto out
use:
r0 = *(u32 *)(r7 + 8)
out:
r0 = 1
exit

# case: fullsock_of_lookup_used_before_release
# section: tc
# expect: accept
r2 = 0
*(u32 *)(r10 - 8) = r2
*(u64 *)(r10 - 16) = r2
*(u64 *)(r10 - 24) = r2
*(u64 *)(r10 - 32) = r2
*(u64 *)(r10 - 40) = r2
*(u64 *)(r10 - 48) = r2
r2 = r10
r2 += -48
r3 = 36
r4 = 0
r5 = 0
call bpf_sk_lookup_tcp
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_sk_fullsock
if r0 == 0 goto release
r7 = *(u32 *)(r0 + 8)
release:
r1 = r6
call bpf_sk_release
out:
r0 = 0
exit

# case: fullsock_of_lookup_used_after_release
# section: tc
# expect: reject
# message: R7 invalid mem access 'scalar'
r2 = 0
*(u32 *)(r10 - 8) = r2
*(u64 *)(r10 - 16) = r2
*(u64 *)(r10 - 24) = r2
*(u64 *)(r10 - 32) = r2
*(u64 *)(r10 - 40) = r2
*(u64 *)(r10 - 48) = r2
r2 = r10
r2 += -48
r3 = 36
r4 = 0
r5 = 0
call bpf_sk_lookup_tcp
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_sk_fullsock
r7 = r0
r1 = r6
call bpf_sk_release
if r7 == 0 goto out
r0 = *(u32 *)(r7 + 8)
out:
r0 = 0
exit

# case: session_cookie_is_writable_u64
# section: kprobe.session/bpf_fentry_test1
# expect: accept
call bpf_session_cookie
r1 = 1
*(u64 *)(r0 + 0) = r1
r0 = 0
exit

# case: session_cookie_is_8_bytes
# section: kprobe.session/bpf_fentry_test1
# expect: reject
# message: invalid access to memory
call bpf_session_cookie
r1 = *(u64 *)(r0 + 8)
r0 = 0
exit

# case: session_cookie_in_plain_kprobe
# section: kprobe/bpf_fentry_test1
# expect: reject
# message: calling kernel function bpf_session_cookie is not allowed
call bpf_session_cookie
r0 = 0
exit

# Iterator programs: the tcp and unix socket iterators add bpf_setsockopt /
# bpf_getsockopt on the socket (bpf_iter_reg.get_func_proto, asked for
# BPF_TRACE_ITER after the tracing set); other targets (udp) do not.
# struct bpf_iter__tcp / __unix: sk_common / unix_sk at 8. SOL_SOCKET 1,
# SO_SNDBUF 7.
# case: iter_tcp_setsockopt
# section: iter/tcp
# expect: accept
r6 = *(u64 *)(r1 + 8)
if r6 == 0 goto out
r1 = 4096
*(u64 *)(r10 - 8) = r1
r1 = r6
r2 = 1
r3 = 7
r4 = r10
r4 += -8
r5 = 4
call bpf_setsockopt
r1 = r6
r2 = 1
r3 = 7
r4 = r10
r4 += -8
r5 = 4
call bpf_getsockopt
out:
r0 = 0
exit

# case: iter_unix_setsockopt
# section: iter/unix
# expect: accept
r6 = *(u64 *)(r1 + 8)
if r6 == 0 goto out
r1 = 4096
*(u64 *)(r10 - 8) = r1
r1 = r6
r2 = 1
r3 = 7
r4 = r10
r4 += -8
r5 = 4
call bpf_setsockopt
out:
r0 = 0
exit

# case: iter_udp_setsockopt
# section: iter/udp
# expect: reject
# message: cannot use helper bpf_setsockopt
r6 = *(u64 *)(r1 + 8)
if r6 == 0 goto out
r1 = 4096
*(u64 *)(r10 - 8) = r1
r1 = r6
r2 = 1
r3 = 7
r4 = r10
r4 += -8
r5 = 4
call bpf_setsockopt
out:
r0 = 0
exit

# The socket is the first argument: the iterator's ctx is no socket.
# case: iter_tcp_setsockopt_ctx
# section: iter/tcp
# expect: reject
r1 = 4096
*(u64 *)(r10 - 8) = r1
r2 = 1
r3 = 7
r4 = r10
r4 += -8
r5 = 4
call bpf_setsockopt
r0 = 0
exit
