# The graph peeks of 6.16 (kernel/bpf/helpers.c generic_btf_ids:
# bpf_rbtree_root/left/right, bpf_list_front/back, all KF_RET_NULL): like
# bpf_rbtree_first they return a non-owning reference to the node's struct,
# NULL-checked, only while the root's lock is held.
# prog-type: tc
# c: struct rnode { long key; struct bpf_rb_node rb; };
# c: struct lnode { long key; struct bpf_list_node ln; };
# c: struct holder { struct bpf_spin_lock lock; struct bpf_rb_root root __attribute__((btf_decl_tag("contains:rnode:rb"))); struct bpf_list_head head __attribute__((btf_decl_tag("contains:lnode:ln"))); };
# c: struct rnode full_rnode; struct lnode full_lnode;
# c: extern struct bpf_rb_node *bpf_rbtree_root(struct bpf_rb_root *root) __ksym;
# c: extern struct bpf_rb_node *bpf_rbtree_left(struct bpf_rb_root *root, struct bpf_rb_node *node) __ksym;
# c: extern struct bpf_list_node *bpf_list_front(struct bpf_list_head *head) __ksym;
# map: graph array key=u32 value=struct_holder entries=1

# case: rbtree_root_locked
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[graph] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_spin_lock
r1 = r6
r1 += 8
call bpf_rbtree_root
if r0 == 0 goto unlock
r7 = *(u64 *)(r0 - 8)
r2 = r0
r1 = r6
r1 += 8
call bpf_rbtree_left
unlock:
r1 = r6
call bpf_spin_unlock
out:
r0 = 0
exit

# case: rbtree_root_unlocked
# expect: reject
# message: spin_lock
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[graph] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r1 = r0
r1 += 8
call bpf_rbtree_root
out:
r0 = 0
exit

# case: list_front_unchecked
# expect: reject
# message: invalid mem access
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[graph] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_spin_lock
r1 = r6
r1 += 24
call bpf_list_front
r7 = *(u64 *)(r0 - 8)
r1 = r6
call bpf_spin_unlock
out:
r0 = 0
exit

# case: list_front_checked
# expect: accept
r1 = 0
*(u32 *)(r10 - 4) = r1
r2 = r10
r2 += -4
r1 = %[graph] ll
call bpf_map_lookup_elem
if r0 == 0 goto out
r6 = r0
r1 = r0
call bpf_spin_lock
r1 = r6
r1 += 24
call bpf_list_front
if r0 == 0 goto unlock
r7 = *(u64 *)(r0 - 8)
unlock:
r1 = r6
call bpf_spin_unlock
out:
r0 = 0
exit
