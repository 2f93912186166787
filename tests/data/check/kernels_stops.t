# What a TCP congestion control (struct_ops tcp_congestion_ops) may write per
# kernel (src/platform/stops.def STOPS_WRITE with its release): snd_cwnd on
# every kernel, sk_pacing_rate from 6.0 (5.10 refuses), app_limited on 6.12
# (6.1 refuses). The writes are CO-RE field accesses in C subprograms (the
# offsets differ per kernel); `# profile:` lines are checked against the
# booted Debian kernels.
# prog-type: struct_ops
# c: static __attribute__((noinline)) int w_cwnd(struct tcp_sock *tp) { tp->snd_cwnd = 10; return 0; }
# c: static __attribute__((noinline)) int w_pacing(struct tcp_sock *tp) { ((struct sock *)tp)->sk_pacing_rate = 1000; return 0; }
# c: static __attribute__((noinline)) int w_app_limited(struct tcp_sock *tp) { tp->app_limited = 1; return 0; }
# c: int ca_write_cwnd(void);
# c: int ca_write_pacing(void);
# c: int ca_write_app_limited(void);
# c: int ca_ssthresh_kf(void);
# c: int ca_undo_kf(void);
# c: SEC(".struct_ops") struct tcp_congestion_ops kf_ca = { .cwnd_event = (void *)ca_write_cwnd, .cong_control = (void *)ca_write_pacing, .cong_avoid = (void *)ca_write_app_limited, .ssthresh = (void *)ca_ssthresh_kf, .undo_cwnd = (void *)ca_undo_kf, .name = "bg_kf_ca" };

# case: ca_write_cwnd
# section: struct_ops/cwnd_event
# expect: accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 accept
r1 = *(u64 *)(r1 + 0)
call %[w_cwnd]
r0 = 0
exit

# case: ca_write_pacing
# section: struct_ops/cong_control
# expect: accept
# profile: 6.12 accept
# profile: 6.1 accept
# profile: 5.10 reject only read is supported
r1 = *(u64 *)(r1 + 0)
call %[w_pacing]
r0 = 0
exit

# case: ca_write_app_limited
# section: struct_ops/cong_avoid
# expect: accept
# profile: 7.2 accept
# profile: 6.12 accept
# profile: 6.1 reject only read is supported
r1 = *(u64 *)(r1 + 0)
call %[w_app_limited]
r0 = 0
exit

# case: ca_ssthresh_kf
# section: struct_ops/ssthresh
# expect: accept
# profile: 6.1 accept
r0 = 2
exit

# case: ca_undo_kf
# section: struct_ops/undo_cwnd
# expect: accept
# profile: 6.1 accept
r0 = 2
exit
