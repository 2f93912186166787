# Conntrack kfuncs (net/netfilter/nf_conntrack_bpf.c): bpf_skb_ct_alloc
# returns a reference to a struct nf_conn___init, which only
# bpf_ct_insert_entry (releasing it, returning a struct nf_conn reference),
# the set_* kfuncs and bpf_ct_set_nat_info take; bpf_skb_ct_lookup returns a
# struct nf_conn, which bpf_ct_release and the change_* kfuncs take.
# nf_conn___init is a no-cast alias of nf_conn: the kernel matches the two
# strictly (btf_type_ids_nocast_alias), although nf_conn___init starts with
# a struct nf_conn. tc and xdp programs may write an entry's mark (at 168)
# and no other field (_nf_conntrack_btf_struct_access). On 6.18 the tuple
# and the options (memory with a __sz size) may not be NULL.
# prog-type: tc
# c: struct bpf_ct_opts___local { s32 netns_id; s32 error; u8 l4proto; u8 reserved[3]; } __attribute__((preserve_access_index));
# c: extern struct nf_conn___init *bpf_skb_ct_alloc(struct __sk_buff *, struct bpf_sock_tuple *, u32, struct bpf_ct_opts___local *, u32) __ksym;
# c: extern struct nf_conn *bpf_skb_ct_lookup(struct __sk_buff *, struct bpf_sock_tuple *, u32, struct bpf_ct_opts___local *, u32) __ksym;
# c: extern struct nf_conn *bpf_xdp_ct_lookup(struct xdp_md *, struct bpf_sock_tuple *, u32, struct bpf_ct_opts___local *, u32) __ksym;
# c: extern struct nf_conn *bpf_ct_insert_entry(struct nf_conn___init *) __ksym;
# c: extern void bpf_ct_release(struct nf_conn *) __ksym;
# c: extern void bpf_ct_set_timeout(struct nf_conn___init *, u32) __ksym;
# c: extern int bpf_ct_change_timeout(struct nf_conn *, u32) __ksym;

# case: alloc_set_insert_release
# expect: accept
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_alloc
if r0 == 0 goto out
r6 = r0
r1 = r0
r2 = 1000
call bpf_ct_set_timeout
r1 = 77
*(u32 *)(r6 + 168) = r1
r1 = r6
call bpf_ct_insert_entry
if r0 == 0 goto out
r6 = r0
r1 = r0
r2 = 1000
call bpf_ct_change_timeout
r1 = r6
call bpf_ct_release
out:
r0 = 0
exit

# case: alloc_release
# expect: reject
# message: kernel function bpf_ct_release args#0 expected pointer to STRUCT nf_conn but R1 has a pointer to STRUCT nf_conn___init
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_alloc
if r0 == 0 goto out
r1 = r0
call bpf_ct_release
out:
r0 = 0
exit

# case: alloc_change_timeout
# expect: reject
# message: kernel function bpf_ct_change_timeout args#0 expected pointer to STRUCT nf_conn but R1 has a pointer to STRUCT nf_conn___init
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_alloc
if r0 == 0 goto out
r6 = r0
r1 = r0
r2 = 1000
call bpf_ct_change_timeout
r1 = r6
call bpf_ct_insert_entry
if r0 == 0 goto out
r1 = r0
call bpf_ct_release
out:
r0 = 0
exit

# case: lookup_set_timeout
# expect: reject
# message: kernel function bpf_ct_set_timeout args#0 expected pointer to STRUCT nf_conn___init but R1 has a pointer to STRUCT nf_conn
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_lookup
if r0 == 0 goto out
r6 = r0
r1 = r0
r2 = 1000
call bpf_ct_set_timeout
r1 = r6
call bpf_ct_release
out:
r0 = 0
exit

# case: lookup_insert
# expect: reject
# message: kernel function bpf_ct_insert_entry args#0 expected pointer to STRUCT nf_conn___init but R1 has a pointer to STRUCT nf_conn
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_lookup
if r0 == 0 goto out
r1 = r0
call bpf_ct_insert_entry
if r0 == 0 goto out
r1 = r0
call bpf_ct_release
out:
r0 = 0
exit

# case: lookup_leak
# expect: reject
# message: Unreleased reference
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_lookup
r0 = 0
exit

# case: lookup_write_mark
# expect: accept
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_lookup
if r0 == 0 goto out
r1 = 5
*(u32 *)(r0 + 168) = r1
r1 = r0
call bpf_ct_release
out:
r0 = 0
exit

# case: lookup_write_status
# expect: reject
# message: no write support to nf_conn at off 128
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_lookup
if r0 == 0 goto out
r1 = 5
*(u64 *)(r0 + 128) = r1
r1 = r0
call bpf_ct_release
out:
r0 = 0
exit

# case: lookup_write_past_mark
# expect: reject
# message: write access at off 168 with size 8 beyond the member of nf_conn ended at 172
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_lookup
if r0 == 0 goto out
r1 = 5
*(u64 *)(r0 + 168) = r1
r1 = r0
call bpf_ct_release
out:
r0 = 0
exit

# case: xdp_lookup_write_mark
# section: xdp
# expect: accept
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = r10
r4 += -32
r5 = 12
call bpf_xdp_ct_lookup
if r0 == 0 goto out
r1 = 5
*(u32 *)(r0 + 168) = r1
r1 = r0
call bpf_ct_release
out:
r0 = 2
exit

# case: lookup_null_tuple
# expect: reject
# message: Possibly NULL pointer passed to trusted arg1
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = 0
r3 = 0
r4 = r10
r4 += -32
r5 = 12
call bpf_skb_ct_lookup
if r0 == 0 goto out
r1 = r0
call bpf_ct_release
out:
r0 = 0
exit

# case: lookup_null_opts
# expect: reject
# message: Possibly NULL pointer passed to trusted arg3
r0 = 0
*(u64 *)(r10 - 8) = r0
*(u64 *)(r10 - 16) = r0
*(u64 *)(r10 - 24) = r0
*(u64 *)(r10 - 32) = r0
r2 = r10
r2 += -16
r3 = 12
r4 = 0
r5 = 0
call bpf_skb_ct_lookup
if r0 == 0 goto out
r1 = r0
call bpf_ct_release
out:
r0 = 0
exit
