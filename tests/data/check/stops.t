# struct_ops members a BPF program may implement (src/platform/stops.def): a
# member whose kernel stub is missing (tcp_congestion_ops.get_info), or, for
# bpf_dummy_ops, any member but test_sleepable in a sleepable program, is
# refused before any instruction: "attach to unsupported member" (the
# kernel's check_struct_ops_btf_id).
# prog-type: struct_ops
# c: int dummy_sleepable_test_2(void);
# c: int dummy_sleepable_test_sleepable(void);
# c: int dummy_test_1(void);
# c: int ca_get_info(void);
# c: int ca_ssthresh(void);
# c: SEC(".struct_ops") struct bpf_dummy_ops dummy_ops = { .test_1 = (void *)dummy_test_1, .test_2 = (void *)dummy_sleepable_test_2, .test_sleepable = (void *)dummy_sleepable_test_sleepable };
# c: SEC(".struct_ops") struct tcp_congestion_ops ca_ops = { .get_info = (void *)ca_get_info, .ssthresh = (void *)ca_ssthresh, .name = "bg_ca" };

# case: dummy_sleepable_test_2
# expect: reject
# message: attach to unsupported member test_2 of struct bpf_dummy_ops
# section: struct_ops.s/test_2
r0 = 0
exit

# case: dummy_sleepable_test_sleepable
# expect: accept
# section: struct_ops.s/test_sleepable
r0 = 0
exit

# case: dummy_test_1
# expect: accept
# section: struct_ops/test_1
r0 = 0
exit

# case: ca_get_info
# expect: reject
# message: attach to unsupported member get_info of struct tcp_congestion_ops
# section: struct_ops/get_info
r0 = 0
exit

# case: ca_ssthresh
# expect: accept
# section: struct_ops/ssthresh
r0 = 1
exit
