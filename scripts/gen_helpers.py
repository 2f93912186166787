#!/usr/bin/env python3
"""Generate src/platform/helpers.def, the one helper-prototype table.

Inputs (all facts, no code copied):
  * ids and names: the __BPF_FUNC_MAPPER list of the uapi header
    (/usr/include/linux/bpf.h; ids past its end are listed in EXTRA_IDS);
  * C prototypes: the helper documentation comment of the same header
    (used for the arity and as a comment on each row);
  * verifier argument/return kinds, flags and first kernel version: SPEC
    below, restated from the helper documentation (man bpf-helpers(7)) and
    the public "BPF features by kernel version" list;
  * which program types may call a helper, which are GPL-only and which
    might sleep: measured on the running kernel by
    `build/tests/test_platform_kernel --dump > scripts/data/helpers-6.18.avail`
    (privileged, one tiny program per (type, helper)), plus KNOWN_EXTRA for
    program types that cannot be loaded here (lsm, struct_ops, lirc_mode2).

Usage: python3 scripts/gen_helpers.py [bpf.h] > src/platform/helpers.def
       python3 scripts/gen_helpers.py --attach > src/platform/helper_attach.def
  (--attach: the helpers a type allows under some attach types but not under
   others, from `test_platform_kernel --dump-helpers-attach`, kept in
   scripts/data/helpers-attach-6.18.txt)
       python3 scripts/gen_helpers.py --maps > src/platform/map_helpers.def
       python3 scripts/gen_helpers.py --kavail > src/platform/helper_kavail.def
  (--kavail: per real kernel (5.10, 6.1, 6.12, 7.2), the helpers each (type,
   attach) may call, measured in its image by scripts/probe_kernel_helpers.py
   into scripts/data/helpers-attach-V.txt)
  (--maps: (map type, helper) pairs the kernel refuses, from
   `test_platform_kernel --dump-map-helpers` in scripts/data/map-helpers-6.18.txt)
       python3 scripts/gen_helpers.py --pkt > src/platform/helper_pkt.def
  (--pkt: per program type, the helpers that refuse a packet pointer argument
   ("helper access to the packet is not allowed": the prototype's pkt_access
   is false, or the type lets no helper take one), from
   `test_platform_kernel --dump-helpers-pkt` in scripts/data/helpers-pkt-6.18.txt)
"""
import re
import sys

ATTACH_MODE = "--attach" in sys.argv[1:]
MAPS_MODE = "--maps" in sys.argv[1:]
KAVAIL_MODE = "--kavail" in sys.argv[1:]
PKT_MODE = "--pkt" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a not in ("--attach", "--maps", "--kavail", "--pkt")]
UAPI = ARGS[0] if ARGS else "/usr/include/linux/bpf.h"
AVAIL_ATTACH = "scripts/data/helpers-attach-6.18.txt"
AVAIL = "scripts/data/helpers-6.18.avail"

EXTRA_IDS = {210: "cgrp_storage_get", 211: "cgrp_storage_delete"}
EXTRA_PROTOS = {
    "cgrp_storage_get": "void *bpf_cgrp_storage_get(struct bpf_map *map, struct cgroup *cgroup, void *value, u64 flags)",
    "cgrp_storage_delete": "long bpf_cgrp_storage_delete(struct bpf_map *map, struct cgroup *cgroup)",
}

# enum bpf_prog_type, as numbered by the uapi header (6.18 adds netfilter = 32)
PROG_TYPES = ["unspec", "socket_filter", "kprobe", "sched_cls", "sched_act", "tracepoint", "xdp",
              "perf_event", "cgroup_skb", "cgroup_sock", "lwt_in", "lwt_out", "lwt_xmit", "sock_ops",
              "sk_skb", "cgroup_device", "sk_msg", "raw_tracepoint", "cgroup_sock_addr",
              "lwt_seg6local", "lirc_mode2", "sk_reuseport", "flow_dissector", "cgroup_sysctl",
              "raw_tracepoint_writable", "cgroup_sockopt", "tracing", "struct_ops", "ext", "lsm",
              "sk_lookup", "syscall", "netfilter"]

# Argument kinds: short name -> enum bg_arg_type
ARG = {
    "any": "ANYTHING", "map": "CONST_MAP_PTR", "key": "MAP_KEY", "val": "MAP_VALUE",
    "mem": "MEM", "memn": "MEM_OR_NULL", "umem": "UNINIT_MEM", "sz": "CONST_SIZE",
    "sz0": "CONST_SIZE_OR_ZERO", "ctx": "CTX", "ctxn": "CTX_OR_NULL", "skc": "SOCK_COMMON",
    "sock": "SOCKET", "sockn": "SOCKET_OR_NULL", "btf": "BTF_ID", "lock": "SPIN_LOCK",
    "timer": "TIMER", "rbm": "RINGBUF_MEM", "fn": "FUNC", "stkn": "STACK_OR_NULL",
    "long": "LONG", "int": "INT", "str": "CONST_STR", "dyn": "DYNPTR",
    "asz0": "CONST_ALLOC_SIZE_OR_ZERO", "pcpu": "PERCPU_BTF_ID", "valn": "MAP_VALUE_OR_NULL",
    "uval": "UNINIT_MAP_VALUE", "bskc": "BTF_ID_SOCK_COMMON", "btfn": "BTF_ID_OR_NULL",
    "kptr": "KPTR", "fixed": "FIXED_MEM", "stk": "STACK", "bskcn": "BTF_ID_SOCK_COMMON_OR_NULL",
}
RET = {
    "int": "INTEGER", "void": "VOID", "mvn": "MAP_VALUE_OR_NULL", "sockn": "SOCKET_OR_NULL",
    "tcpn": "TCP_SOCK_OR_NULL", "skcn": "SOCK_COMMON_OR_NULL", "allocn": "ALLOC_MEM_OR_NULL",
    "membtfn": "MEM_OR_BTF_ID_OR_NULL", "btfn": "BTF_ID_OR_NULL", "btf": "BTF_ID",
    "mv": "MAP_VALUE", "dynmemn": "DYNPTR_MEM_OR_NULL", "membtf": "MEM_OR_BTF_ID",
    "kptrn": "KPTR_OR_NULL",
}
FLAG = {
    "pkt": "BG_HF_PKT_CHANGING", "acq": "BG_HF_ACQUIRE", "rel": "BG_HF_RELEASE",
    "cb": "BG_HF_CALLBACK", "rsz": "BG_HF_RET_SIZE_BOUND", "gpl": "BG_HF_GPL_ONLY",
    "sleep": "BG_HF_MIGHT_SLEEP", "restricted": "BG_HF_RESTRICTED", "config": "BG_HF_CONFIG",
    "trusted": "BG_HF_RET_TRUSTED", "fastcall": "BG_HF_FASTCALL",
}

# name: "ret | args | flags | since"
#  arg "btf:T" = BTF pointer to struct T; "fixed:N" = N readable bytes;
#  ret "btfn:T"; flag "rel=N" releases arg N; "range=a,b" integer result range;
#  "trusted": the BTF pointer returned is trusted (RET_PTR_TO_BTF_ID_TRUSTED;
#  without it a helper's BTF pointer is the legacy plain kind);
#  "fastcall": allow_fastcall and inlined on x86-64 (the verifier's
#  verifier_inlines_helper_call, with the JIT on), so the bpf_fastcall
#  spill/fill pairs around a call are removed before the stack-depth check.
SPEC = """
map_lookup_elem        mvn   | map key                  |                 | 3.19
map_update_elem        int   | map key val any          |                 | 3.19
map_delete_elem        int   | map key                  |                 | 3.19
probe_read             int   | umem sz0 any             |                 | 4.1
ktime_get_ns           int   |                          |                 | 4.1
trace_printk           int   | mem sz                   |                 | 4.1
get_prandom_u32        int   |                          |                 | 4.1
get_smp_processor_id   int   |                          | range=0,8191    | 4.1
skb_store_bytes        int   | ctx any mem sz any       | pkt             | 4.1
l3_csum_replace        int   | ctx any any any any      | pkt             | 4.1
l4_csum_replace        int   | ctx any any any any      | pkt             | 4.1
tail_call              void  | ctx map any              |                 | 4.2
clone_redirect         int   | ctx any any              | pkt             | 4.2
get_current_pid_tgid   int   |                          |                 | 4.2
get_current_uid_gid    int   |                          |                 | 4.2
get_current_comm       int   | umem sz                  |                 | 4.2
get_cgroup_classid     int   | ctx                      |                 | 4.3
skb_vlan_push          int   | ctx any any              | pkt             | 4.3
skb_vlan_pop           int   | ctx                      | pkt             | 4.3
skb_get_tunnel_key     int   | ctx umem sz any          |                 | 4.3
skb_set_tunnel_key     int   | ctx mem sz any           |                 | 4.3
perf_event_read        int   | map any                  |                 | 4.3
redirect               int   | any any                  |                 | 4.4
get_route_realm        int   | ctx                      |                 | 4.4
perf_event_output      int   | ctx map any mem sz0      |                 | 4.4
skb_load_bytes         int   | ctx any umem sz          |                 | 4.5
get_stackid            int   | ctx map any              |                 | 4.6
csum_diff              int   | memn sz0 memn sz0 any    |                 | 4.6
skb_get_tunnel_opt     int   | ctx umem sz              |                 | 4.6
skb_set_tunnel_opt     int   | ctx mem sz               |                 | 4.6
skb_change_proto       int   | ctx any any              | pkt             | 4.8
skb_change_type        int   | ctx any                  |                 | 4.8
skb_under_cgroup       int   | ctx map any              |                 | 4.8
get_hash_recalc        int   | ctx                      |                 | 4.8
get_current_task       int   |                          |                 | 4.8
probe_write_user       int   | any mem sz               | config          | 4.8
current_task_under_cgroup int | map any                 |                 | 4.9
skb_change_tail        int   | ctx any any              | pkt             | 4.9
skb_pull_data          int   | ctx any                  | pkt             | 4.9
csum_update            int   | ctx any                  |                 | 4.9
set_hash_invalid       int   | ctx                      |                 | 4.9
get_numa_node_id       int   |                          |                 | 4.10
skb_change_head        int   | ctx any any              | pkt             | 4.10
xdp_adjust_head        int   | ctx any                  | pkt             | 4.10
probe_read_str         int   | umem sz0 any             | rsz range=-4095,9223372036854775807 | 4.11
get_socket_cookie      int   | ctx                      |                 | 4.12
get_socket_uid         int   | ctx                      |                 | 4.12
set_hash               int   | ctx any                  |                 | 4.13
setsockopt             int   | ctx any any mem sz       |                 | 4.13
skb_adjust_room        int   | ctx any any any          | pkt             | 4.13
redirect_map           int   | map any any              |                 | 4.14
sk_redirect_map        int   | ctx map any any          |                 | 4.14
sock_map_update        int   | ctx map key any          |                 | 4.14
xdp_adjust_meta        int   | ctx any                  | pkt             | 4.15
perf_event_read_value  int   | map any umem sz          |                 | 4.15
perf_prog_read_value   int   | ctx umem sz              |                 | 4.15
getsockopt             int   | ctx any any umem sz      |                 | 4.15
override_return        int   | ctx any                  | config          | 4.16
sock_ops_cb_flags_set  int   | ctx any                  |                 | 4.16
msg_redirect_map       int   | ctx map any any          |                 | 4.17
msg_apply_bytes        int   | ctx any                  |                 | 4.17
msg_cork_bytes         int   | ctx any                  |                 | 4.17
msg_pull_data          int   | ctx any any any          | pkt             | 4.17
bind                   int   | ctx mem sz               |                 | 4.17
xdp_adjust_tail        int   | ctx any                  | pkt             | 4.18
skb_get_xfrm_state     int   | ctx any umem sz any      |                 | 4.18
get_stack              int   | ctx umem sz0 any         | rsz range=-4095,9223372036854775807 | 4.18
skb_load_bytes_relative int  | ctx any umem sz any      |                 | 4.18
fib_lookup             int   | ctx mem sz any           |                 | 4.18
sock_hash_update       int   | ctx map key any          |                 | 4.18
msg_redirect_hash      int   | ctx map key any          |                 | 4.18
sk_redirect_hash       int   | ctx map key any          |                 | 4.18
lwt_push_encap         int   | ctx any mem sz           | pkt             | 4.18
lwt_seg6_store_bytes   int   | ctx any mem sz           | pkt             | 4.18
lwt_seg6_adjust_srh    int   | ctx any any              | pkt             | 4.18
lwt_seg6_action        int   | ctx any mem sz           | pkt             | 4.18
rc_repeat              int   | ctx                      |                 | 4.18
rc_keydown             int   | ctx any any any          |                 | 4.18
skb_cgroup_id          int   | ctx                      |                 | 4.18
get_current_cgroup_id  int   |                          |                 | 4.18
get_local_storage      mv    | map any                  |                 | 4.19
sk_select_reuseport    int   | ctx map key any          |                 | 4.19
skb_ancestor_cgroup_id int   | ctx any                  |                 | 4.19
sk_lookup_tcp          sockn | ctx mem sz0 any any       | acq             | 4.20
sk_lookup_udp          sockn | ctx mem sz0 any any       | acq             | 4.20
sk_release             int   | bskc                     | rel=1           | 4.20
map_push_elem          int   | map val any              |                 | 4.20
map_pop_elem           int   | map uval                 |                 | 4.20
map_peek_elem          int   | map uval                 |                 | 4.20
msg_push_data          int   | ctx any any any          | pkt             | 4.20
msg_pop_data           int   | ctx any any any          | pkt             | 5.0
rc_pointer_rel         int   | ctx any any              |                 | 5.0
spin_lock              void  | lock                     |                 | 5.1
spin_unlock            void  | lock                     |                 | 5.1
sk_fullsock            sockn | skc                      |                 | 5.1
tcp_sock               tcpn  | skc                      |                 | 5.1
skb_ecn_set_ce         int   | ctx                      |                 | 5.1
get_listener_sock      sockn | skc                      |                 | 5.1
skc_lookup_tcp         skcn  | ctx mem sz0 any any       | acq             | 5.2
tcp_check_syncookie    int   | bskc mem sz mem sz       |                 | 5.2
sysctl_get_name        int   | ctx umem sz any          |                 | 5.2
sysctl_get_current_value int | ctx umem sz              |                 | 5.2
sysctl_get_new_value   int   | ctx umem sz              |                 | 5.2
sysctl_set_new_value   int   | ctx mem sz               |                 | 5.2
strtol                 int   | mem sz any long          |                 | 5.2
strtoul                int   | mem sz any long          |                 | 5.2
sk_storage_get         mvn   | map bskc valn any        |                 | 5.2
sk_storage_delete      int   | map bskc                 |                 | 5.2
send_signal            int   | any                      |                 | 5.3
tcp_gen_syncookie      int   | bskc mem sz mem sz       |                 | 5.3
skb_output             int   | btf:sk_buff map any mem sz0 |              | 5.5
probe_read_user        int   | umem sz0 any             |                 | 5.5
probe_read_kernel      int   | umem sz0 any             |                 | 5.5
probe_read_user_str    int   | umem sz0 any             | rsz range=-4095,9223372036854775807 | 5.5
probe_read_kernel_str  int   | umem sz0 any             | rsz range=-4095,9223372036854775807 | 5.5
tcp_send_ack           int   | btf:tcp_sock any         |                 | 5.6
send_signal_thread     int   | any                      |                 | 5.6
jiffies64              int   |                          |                 | 5.6
read_branch_records    int   | ctx memn sz0 any         |                 | 5.7
get_ns_current_pid_tgid int  | any any umem sz          |                 | 5.7
xdp_output             int   | btf:xdp_buff map any mem sz0 |             | 5.7
get_netns_cookie       int   | ctxn                     |                 | 5.7
get_current_ancestor_cgroup_id int | any                |                 | 5.7
sk_assign              int   | ctx bskc any             |                 | 5.7
ktime_get_boot_ns      int   |                          |                 | 5.7
seq_printf             int   | btf:seq_file mem sz memn sz0 |             | 5.8
seq_write              int   | btf:seq_file mem sz0     |                 | 5.8
sk_cgroup_id           int   | bskc                     |                 | 5.8
sk_ancestor_cgroup_id  int   | bskc any                 |                 | 5.8
ringbuf_output         int   | map mem sz0 any          |                 | 5.8
ringbuf_reserve        allocn | map asz0 any            | acq             | 5.8
ringbuf_submit         void  | rbm any                  | rel=1           | 5.8
ringbuf_discard        void  | rbm any                  | rel=1           | 5.8
ringbuf_query          int   | map any                  |                 | 5.8
csum_level             int   | ctx any                  |                 | 5.8
skc_to_tcp6_sock       btfn:tcp6_sock | bskc            |                 | 5.9
skc_to_tcp_sock        btfn:tcp_sock | bskc             |                 | 5.9
skc_to_tcp_timewait_sock btfn:tcp_timewait_sock | bskc  |                 | 5.9
skc_to_tcp_request_sock btfn:tcp_request_sock | bskc    |                 | 5.9
skc_to_udp6_sock       btfn:udp6_sock | bskc            |                 | 5.9
get_task_stack         int   | btf:task_struct umem sz0 any | rsz range=-4095,9223372036854775807 | 5.9
load_hdr_opt           int   | ctx mem sz any           |                 | 5.10
store_hdr_opt          int   | ctx mem sz any           |                 | 5.10
reserve_hdr_opt        int   | ctx any any              |                 | 5.10
inode_storage_get      mvn   | map btf:inode valn any   |                 | 5.10
inode_storage_delete   int   | map btf:inode            |                 | 5.10
d_path                 int   | btf:path umem sz0        | restricted      | 5.10
copy_from_user         int   | umem sz0 any             |                 | 5.10
snprintf_btf           int   | umem sz mem sz any       |                 | 5.10
seq_printf_btf         int   | btf:seq_file mem sz any  |                 | 5.10
skb_cgroup_classid     int   | ctx                      |                 | 5.10
redirect_neigh         int   | any memn sz0 any         |                 | 5.10
per_cpu_ptr            membtfn | pcpu any               |                 | 5.10
this_cpu_ptr           membtf | pcpu                    |                 | 5.10
redirect_peer          int   | any any                  |                 | 5.10
task_storage_get       mvn   | map btfn:task_struct valn any |            | 5.11
task_storage_delete    int   | map btfn:task_struct     |                 | 5.11
get_current_task_btf   btf:task_struct |                | trusted         | 5.11
bprm_opts_set          int   | btf:linux_binprm any     |                 | 5.11
ktime_get_coarse_ns    int   |                          |                 | 5.11
ima_inode_hash         int   | btf:inode umem sz        |                 | 5.11
sock_from_file         btfn:socket | btf:file           |                 | 5.11
check_mtu              int   | ctx any int any any      |                 | 5.12
for_each_map_elem      int   | map fn stkn any          | cb              | 5.13
snprintf               int   | memn sz0 str memn sz0    |                 | 5.13
sys_bpf                int   | any mem sz               |                 | 5.14
btf_find_by_name_kind  int   | mem sz any any           |                 | 5.14
sys_close              int   | any                      |                 | 5.14
timer_init             int   | timer map any            |                 | 5.15
timer_set_callback     int   | timer fn                 | cb              | 5.15
timer_start            int   | timer any any            |                 | 5.15
timer_cancel           int   | timer                    |                 | 5.15
get_func_ip            int   | ctx                      |                 | 5.15
get_attach_cookie      int   | ctx                      |                 | 5.15
task_pt_regs           btf:pt_regs | btf:task_struct    |                 | 5.15
get_branch_snapshot    int   | umem sz0 any             |                 | 5.16
trace_vprintk          int   | mem sz memn sz0          |                 | 5.16
skc_to_unix_sock       btfn:unix_sock | bskc            |                 | 5.16
kallsyms_lookup_name   int   | mem sz0 any long          |                 | 5.16
find_vma               int   | btf:task_struct any fn stkn any | cb       | 5.17
loop                   int   | any fn stkn any          | cb              | 5.17
strncmp                int   | mem sz str               |                 | 5.17
get_func_arg           int   | ctx any long             |                 | 5.17
get_func_ret           int   | ctx long                 |                 | 5.17
get_func_arg_cnt       int   | ctx                      |                 | 5.17
get_retval             int   |                          |                 | 5.18
set_retval             int   | any                      |                 | 5.18
xdp_get_buff_len       int   | ctx                      |                 | 5.18
xdp_load_bytes         int   | ctx any umem sz          |                 | 5.18
xdp_store_bytes        int   | ctx any mem sz           |                 | 5.18
copy_from_user_task    int   | umem sz0 any btf:task_struct any |         | 5.18
skb_set_tstamp         int   | ctx any any              |                 | 5.18
ima_file_hash          int   | btf:file umem sz         |                 | 5.18
kptr_xchg              kptrn | kptr btfn                | acq rel=2       | 5.19
map_lookup_percpu_elem mvn   | map key any              |                 | 5.19
skc_to_mptcp_sock      btfn:mptcp_sock | bskc           |                 | 5.19
dynptr_from_mem        int   | umem sz0 any dyn         |                 | 5.19
ringbuf_reserve_dynptr int   | map any any dyn          | acq             | 5.19
ringbuf_submit_dynptr  void  | dyn any                  | rel=1           | 5.19
ringbuf_discard_dynptr void  | dyn any                  | rel=1           | 5.19
dynptr_read            int   | umem sz0 dyn any any     |                 | 5.19
dynptr_write           int   | dyn any mem sz0 any      |                 | 5.19
dynptr_data            dynmemn | dyn any asz0           |                 | 5.19
tcp_raw_gen_syncookie_ipv4 int | fixed:20 mem sz0       |                 | 6.0
tcp_raw_gen_syncookie_ipv6 int | fixed:40 mem sz0       |                 | 6.0
tcp_raw_check_syncookie_ipv4 int | fixed:20 fixed:20    |                 | 6.0
tcp_raw_check_syncookie_ipv6 int | fixed:40 fixed:20    |                 | 6.0
ktime_get_tai_ns       int   |                          |                 | 6.1
user_ringbuf_drain     int   | map fn stkn any          | cb              | 6.1
cgrp_storage_get       mvn   | map btfn:cgroup valn any  |                 | 6.2
cgrp_storage_delete    int   | map btfn:cgroup          |                 | 6.2
"""

# Per-program-type variants of a prototype (the kernel has several
# bpf_func_proto for one helper id): name -> [(program types, "ret | args"
# [| flags added to the base row's])]. Version and availability are the base
# row's; test_platform_kernel probes the arguments in every program type
# that may call the helper. get_smp_processor_id: bpf_base_func_proto's is
# bpf_get_raw_smp_processor_id_proto; tracing, tc, xdp and lwt types get
# bpf_get_smp_processor_id_proto, the one with allow_fastcall (measured on
# 6.18 with a fastcall pair: tests/data/check/fastcall.t).
TRACING_LIKE = ["tracing", "lsm", "struct_ops", "syscall"]
VARIANTS = {
    "get_cgroup_classid": [(["socket_filter", "kprobe", "tracepoint", "xdp", "perf_event", "cgroup_skb",
                             "cgroup_sock", "sock_ops", "sk_skb", "cgroup_device", "sk_msg",
                             "raw_tracepoint", "cgroup_sock_addr", "sk_reuseport", "flow_dissector",
                             "cgroup_sysctl", "raw_tracepoint_writable", "cgroup_sockopt", "sk_lookup",
                             "netfilter"] + TRACING_LIKE, "int |")],
    "get_socket_cookie": [(["sk_reuseport"] + TRACING_LIKE, "int | bskcn")],
    "setsockopt": [(["cgroup_sockopt", "lsm", "struct_ops"], "int | bskc any any mem sz")],
    "getsockopt": [(["cgroup_sockopt", "lsm", "struct_ops"], "int | bskc any any umem sz")],
    "sk_storage_get": [(TRACING_LIKE, "mvn | map btfn:sock_common valn any"),
                       (["cgroup_sock"], "mvn | map ctx valn any")],
    "sk_storage_delete": [(TRACING_LIKE, "int | map btfn:sock_common")],
    "sk_assign": [(["sk_lookup"], "int | ctx sockn any")],
    "xdp_get_buff_len": [(TRACING_LIKE, "int | btf:xdp_buff")],
    "get_smp_processor_id": [(["kprobe", "tracepoint", "perf_event", "raw_tracepoint",
                               "raw_tracepoint_writable", "tracing", "lsm", "syscall", "sched_cls",
                               "sched_act", "xdp", "lwt_in", "lwt_out", "lwt_xmit", "lwt_seg6local"],
                              "int | | fastcall")],
}

# Program types that cannot be loaded on this machine (EPERM before
# verification, config off) get their helper sets from documentation:
# lsm = the tracing set plus the LSM-only helpers; struct_ops (tcp
# congestion control) = the tracing set plus tcp_send_ack; lirc_mode2 = the
# base set plus rc_*; ext = whatever its target allows (all).
KNOWN_EXTRA = {
    "lsm": ["inode_storage_get", "inode_storage_delete", "bprm_opts_set", "ima_inode_hash",
            "ima_file_hash", "get_retval", "set_retval", "sk_storage_get", "sk_storage_delete",
            "get_func_arg", "get_func_ret", "get_func_arg_cnt", "d_path"],
    "struct_ops": ["tcp_send_ack", "sk_storage_get", "sk_storage_delete", "setsockopt",
                   "getsockopt"],
    "lirc_mode2": ["rc_repeat", "rc_keydown", "rc_pointer_rel"],
    # tracing covers fentry/fexit (get_func_*) and iter (seq_*) attach types too
    "tracing": ["get_func_arg", "get_func_ret", "get_func_arg_cnt"],
}
BASE_OF = {"lsm": "tracing", "struct_ops": "tracing", "lirc_mode2": "socket_filter#base",
           "ext": "*"}

# Coarse BG_PG_* group of each program type (helpers.h).
GROUP = {
    "socket_filter": "SOCKFILT", "kprobe": "TRACING", "sched_cls": "SKB", "sched_act": "SKB",
    "tracepoint": "TRACING", "xdp": "XDP", "perf_event": "TRACING", "cgroup_skb": "CGSKB",
    "cgroup_sock": "CGSOCK", "cgroup_sock_addr": "CGSOCK", "cgroup_sysctl": "CGSOCK",
    "cgroup_sockopt": "CGSOCK", "cgroup_device": "CGSOCK", "sock_ops": "SOCKOPS",
    "sk_msg": "SOCKOPS", "sk_skb": "SOCKOPS", "raw_tracepoint": "TRACING",
    "raw_tracepoint_writable": "TRACING", "tracing": "TRACING", "lsm": "LSM",
    "syscall": "SYSCALL",
}


def parse_uapi(path):
    text = open(path).read()
    m = re.search(r"#define __BPF_FUNC_MAPPER\(FN\)(.*?)/\* \*/", text, re.S)
    if not m:
        sys.exit("gen_helpers: no __BPF_FUNC_MAPPER in " + path)
    names = re.findall(r"FN\((\w+)", m.group(1))
    ids = {i: n for i, n in enumerate(names)}
    for i, n in EXTRA_IDS.items():
        ids.setdefault(i, n)
    protos = {}
    for line in text.splitlines():
        pm = re.match(r"^ \* ((?:[\w ]+?)[ *]+bpf_(\w+)\((.*)\))\s*$", line)
        if pm and pm.group(2) not in protos:
            protos[pm.group(2)] = pm.group(1)
    protos.update({k: v for k, v in EXTRA_PROTOS.items() if k not in protos})
    return ids, protos


def arity(proto):
    args = proto[proto.index("(") + 1:proto.rindex(")")].strip()
    if args in ("", "void"):
        return 0
    return min(5, len([a for a in args.split(",") if a.strip() != "..."]) +
               (3 if "..." in args else 0))


def parse_avail(path):
    avail, gpl, sleep, measured = {}, set(), set(), set()
    for line in open(path):
        f = line.split()
        if len(f) < 3:
            continue
        t, h = f[0], int(f[1])
        measured.add(t)
        if f[2] == "yes":
            avail.setdefault(h, set()).add(t)
        if "gpl" in f[3:]:
            gpl.add(h)
        if "sleep" in f[3:]:
            sleep.add(h)
    return avail, gpl, sleep, measured


def encode_args(args):
    at, ab, asz = [], [], []
    for a in args + [None] * (5 - len(args)):
        if a is None:
            at.append("BG_ARG_NONE"); ab.append("NULL"); asz.append("0")
            continue
        kind, _, extra = a.partition(":")
        at.append("BG_ARG_" + ARG[kind])
        ab.append(cstr(extra) if kind in ("btf", "btfn") else "NULL")
        asz.append(extra if kind == "fixed" else "8" if kind == "long" else "4" if kind == "int" else "0")
    return at, ab, asz


def kver(s):
    a, b = s.split(".")
    return "BG_KVER(%s, %s)" % (a, b)


def cstr(s):
    return '"%s"' % s if s else "NULL"


def main():
    ids, protos = parse_uapi(UAPI)
    avail, gpl, sleep, measured = parse_avail(AVAIL)
    by_name = {n: i for i, n in ids.items()}
    base = None  # helpers every measured type may call
    for h in ids:
        if h and avail.get(h, set()) >= measured:
            base = (base or set()) | {h}
    out = ["/* GENERATED by scripts/gen_helpers.py from %s, scripts/data/helpers-6.18.avail"
           % UAPI.split("/")[-1],
           " * and its SPEC table; do not edit by hand: edit the generator and re-run.",
           " * BG_HELPER(id, name, ret, ret_btf, a1..a5, b1..b5 (BTF names), s1..s5 (fixed",
           " *           sizes), nargs, size_arg, ret_min, ret_max, release_arg, flags,",
           " *           groups, prog_types, since)",
           " * prog_types: bit n = enum bpf_prog_type n may call it (privileged, 6.18). */"]
    seen, variants = set(), []
    for line in SPEC.strip().splitlines():
        cols = [c.strip() for c in line.split("|")]
        name, ret = cols[0].split(None, 1)
        ret = ret.strip()
        args = cols[1].split()
        flags = cols[2].split()
        since = cols[3]
        if name not in by_name:
            sys.exit("gen_helpers: %s not in uapi ids" % name)
        hid = by_name[name]
        seen.add(name)
        proto = protos.get(name, "")
        n = arity(proto) if proto else len(args)
        if name not in ("trace_printk",) and proto and n != len(args):
            sys.exit("gen_helpers: %s: uapi prototype has %d args, SPEC %d" % (name, n, len(args)))
        at, ab, asz = encode_args(args)
        rkind, _, rbtf = ret.partition(":")
        rmin, rmax, rel, fl = "1", "0", "0", []
        for f in flags:
            if f.startswith("range="):
                rmin, rmax = f[6:].split(",")
            elif f.startswith("rel="):
                rel = f[4:]; fl.append(FLAG["rel"])
            else:
                fl.append(FLAG[f])
        if hid in gpl:
            fl.append(FLAG["gpl"])
        if hid in sleep:
            fl.append(FLAG["sleep"])
        size_arg = "0"
        if "rsz" in flags or rkind in ("allocn", "dynmemn"):
            for i, a in enumerate(args):
                if a in ("sz", "sz0", "asz0"):
                    size_arg = str(i + 1)
                    break
        types = set(avail.get(hid, set()))
        for t, extra in KNOWN_EXTRA.items():
            if name in extra:
                types.add(t)
        for t, b in BASE_OF.items():
            if b == "*" or (b == "tracing" and "tracing" in types) or \
               (b.endswith("#base") and hid in (base or set())):
                types.add(t)
        mask = 0
        for t in types:
            mask |= 1 << PROG_TYPES.index(t)
        groups = sorted({GROUP.get(t, "OTHER") for t in types if t != "ext"})
        if hid in (base or set()):
            groups = ["BASE"]
        g = "|".join("BG_PG_" + x for x in groups) or "0"
        out.append("/* %s */" % (proto or name))
        row = "(%d, %s, BG_RET_%s, %s, %s, %s, %s, %d, %s, %s, %s, %s, %s, %s, 0x%xull, %s)"
        out.append("BG_HELPER" + row
                   % (hid, name, RET[rkind], cstr(rbtf), ", ".join(at), ", ".join(ab),
                      ", ".join(asz), len(args), size_arg,
                      rmin + ("ll" if len(rmin) > 9 else ""), rmax + ("ll" if len(rmax) > 9 else ""),
                      rel, "|".join(fl) or "0", g, mask, kver(since)))
        for vtypes, vspec in VARIANTS.get(name, []):
            vparts = [c.strip() for c in vspec.split("|")]
            vret, vargs = vparts[:2]
            vargs = vargs.split()
            vfl = fl + [FLAG[x] for x in (vparts[2].split() if len(vparts) > 2 else [])]
            vkind, _, vbtf = vret.partition(":")
            vat, vab, vasz = encode_args(vargs)
            vmask = 0
            for t in vtypes:
                vmask |= 1 << PROG_TYPES.index(t)
            variants.append("BG_HELPER_VARIANT" + row
                            % (hid, name, RET[vkind], cstr(vbtf), ", ".join(vat), ", ".join(vab),
                               ", ".join(vasz), len(vargs), "0",
                               rmin + ("ll" if len(rmin) > 9 else ""),
                               rmax + ("ll" if len(rmax) > 9 else ""),
                               rel, "|".join(vfl) or "0", g, vmask, kver(since)))
    missing = [n for i, n in sorted(ids.items()) if i and n not in seen]
    if missing:
        sys.exit("gen_helpers: no SPEC for " + ", ".join(missing))
    out.append("/* Per-program-type variants (prog_types: the types where the variant applies) */")
    print("\n".join(out + variants))


def attach_main():
    rows = [l.split() for l in open(AVAIL_ATTACH) if l.strip()]
    union = {}
    for r in rows:
        union.setdefault(int(r[1]), set()).update(int(x) for x in r[3:])
    out = ["/* GENERATED by scripts/gen_helpers.py --attach from %s: (helper id, prog type," % AVAIL_ATTACH,
           " * expected attach type) the kernel refuses although the type allows the helper",
           " * under another attach type. */"]
    for r in rows:
        t, a, allowed = int(r[1]), int(r[2]), {int(x) for x in r[3:]}
        for h in sorted(union[t] - allowed):
            out.append("BG_HELPER_ATTACH_DENY(%d, %d, %d) /* %s */" % (h, t, a, r[0]))
    print("\n".join(out))


# Map types the probe cannot create here (they need BTF, an inner map or a
# cgroup): the only helpers taking a map argument that accept them, restated
# from the kernel's check_map_func_compatibility (6.12). kptr_xchg takes no
# map argument and is not listed.
KNOWN_MAP_ONLY = {
    12: ["map_lookup_elem"],                                   # array_of_maps
    13: ["map_lookup_elem"],                                   # hash_of_maps
    19: ["get_local_storage"],                                 # cgroup_storage
    21: ["get_local_storage"],                                 # percpu_cgroup_storage
    24: ["sk_storage_get", "sk_storage_delete"],               # sk_storage
    28: ["inode_storage_get", "inode_storage_delete"],         # inode_storage
    29: ["task_storage_get", "task_storage_delete"],           # task_storage
    32: ["cgrp_storage_get", "cgrp_storage_delete"],           # cgrp_storage
}


def map_arg_helpers():
    """(id, name) of every helper with a map argument (SPEC kind 'map')."""
    ids, _ = parse_uapi(UAPI)
    spec = {}
    for line in SPEC.strip().splitlines():
        f = line.split("|")
        spec[f[0].split()[0]] = f[1].split()
    return sorted((i, n) for i, n in ids.items() if i and "map" in spec.get(n, []))


def maps_main():
    src = "scripts/data/map-helpers-6.18.txt"
    out = ["/* GENERATED by scripts/gen_helpers.py --maps from %s: (map type, helper id)" % src,
           " * pairs the kernel refuses (\"cannot pass map_type N into func ...\"); map types",
           " * the probe cannot create: from KNOWN_MAP_ONLY (the kernel's rules). */"]
    for line in open(src):
        m, h, verdict = line.split()
        if verdict == "no":
            out.append("BG_MAP_HELPER_DENY(%s, %s)" % (m, h))
    helpers = map_arg_helpers()
    for m, only in sorted(KNOWN_MAP_ONLY.items()):
        for h, n in helpers:
            if n not in only:
                out.append("BG_MAP_HELPER_DENY(%d, %d) /* %s */" % (m, h, n))
    print("\n".join(out))


def id_words(ids):
    """Helper ids (decimal strings, < 256) as the four 64-bit words the
    BG_HELPER_KAVAIL / BG_HELPER_PKT_DENY rows carry."""
    w = [0, 0, 0, 0]
    for i in ids:
        w[int(i) // 64] |= 1 << (int(i) % 64)
    return w


def kavail_main():
    """Helper availability per (program type, expected attach type) measured on
    each real kernel (scripts/probe_kernel_helpers.py in Debian's images under
    QEMU): one row per kernel and target, the allowed ids as four 64-bit words."""
    import glob
    out = ["/* GENERATED by scripts/gen_helpers.py --kavail from scripts/data/helpers-attach-V.txt",
           " * (scripts/probe_kernel_helpers.py: measured in Debian's kernel images under QEMU):",
           " * BG_HELPER_KAVAIL(kernel version, prog type, expected attach type, allowed ids 0-63,",
           " * 64-127, 128-191, 192-255). check --kernel V uses V's rows instead of the helper's",
           " * first release and the running kernel's per-type table. */"]
    files = []
    for path in glob.glob("scripts/data/helpers-attach-*.txt"):
        ver = path.rsplit("-", 1)[1][:-4]
        if ver == "6.18":  # the running kernel's: helpers.def and helper_attach.def have it
            continue
        files.append((tuple(int(x) for x in ver.split(".")), path))
    for (a, b), path in sorted(files):
        for line in open(path):
            f = line.split()
            if len(f) < 3:
                continue
            w = id_words(f[3:])
            out.append("BG_HELPER_KAVAIL(BG_KVER(%d, %d), %s, %s, 0x%xull, 0x%xull, 0x%xull, 0x%xull) /* %s */"
                       % (a, b, f[1], f[2], w[0], w[1], w[2], w[3], f[0]))
    print("\n".join(out))


def pkt_main():
    """Per program type, the helpers that refuse a packet pointer as an
    argument, measured on the running kernel: one row per type, the ids as
    four 64-bit words. The attach types of one type must agree."""
    src = "scripts/data/helpers-pkt-6.18.txt"
    out = ["/* GENERATED by scripts/gen_helpers.py --pkt from %s" % src,
           " * (test_platform_kernel --dump-helpers-pkt: a bounds-checked packet pointer in",
           " * r1-r5 of each callable helper): BG_HELPER_PKT_DENY(prog type, ids 0-63, 64-127,",
           " * 128-191, 192-255), the helpers whose first argument that is not ARG_ANYTHING",
           " * refuses it (\"helper access to the packet is not allowed\": the kernel's",
           " * may_access_direct_pkt_data with the prototype's pkt_access). Types without a",
           " * row have no packet pointers. */"]
    rows = {}
    for line in open(src):
        f = line.split()
        if len(f) < 3:
            continue
        w = id_words(f[3:])
        if f[1] in rows and rows[f[1]][0] != w:
            sys.exit("gen_helpers: %s: attach types %s and %s of type %s differ"
                     % (src, rows[f[1]][1], f[0], f[1]))
        rows.setdefault(f[1], (w, f[0]))
    for t, (w, name) in sorted(rows.items(), key=lambda r: int(r[0])):
        out.append("BG_HELPER_PKT_DENY(%s, 0x%xull, 0x%xull, 0x%xull, 0x%xull) /* %s */"
                   % (t, w[0], w[1], w[2], w[3], name))
    print("\n".join(out))


if PKT_MODE:
    pkt_main()
elif KAVAIL_MODE:
    kavail_main()
elif ATTACH_MODE:
    attach_main()
elif MAPS_MODE:
    maps_main()
else:
    main()
