; A socket filter exercising the forms the examples do not: legacy packet
; loads, every atomic (32/64, fetch, xchg, cmpxchg, acquire/release), v4
; movsx / MEMSX / sdiv / smod / bswap, gotol, may_goto. Loaded with log
; level 2 by tests/isa_kernel_log.test.sh to compare our kernel syntax.
	r6 = r1
	r0 = *(u8 *)skb[0]
	r7 = 1
	r0 = *(u16 *)skb[r7 + 2]
	r0 = *(u32 *)skb[r7]
	r1 = 0
	*(u64 *)(r10 - 8) = r1
	*(u32 *)(r10 - 16) = 0
	r2 = 1
	lock *(u64 *)(r10 - 8) += r2
	lock *(u64 *)(r10 - 8) |= r2
	lock *(u64 *)(r10 - 8) &= r2
	lock *(u64 *)(r10 - 8) ^= r2
	r2 = atomic_fetch_add((u64 *)(r10 - 8), r2)
	r2 = atomic_fetch_or((u64 *)(r10 - 8), r2)
	r2 = atomic_fetch_and((u64 *)(r10 - 8), r2)
	r2 = atomic_fetch_xor((u64 *)(r10 - 8), r2)
	r2 = xchg_64(r10 - 8, r2)
	r0 = 0
	r0 = cmpxchg_64(r10 - 8, r0, r2)
	w2 = 1
	lock *(u32 *)(r10 - 16) += r2
	lock *(u32 *)(r10 - 16) |= w2
	lock *(u32 *)(r10 - 16) &= w2
	lock *(u32 *)(r10 - 16) ^= w2
	w2 = atomic_fetch_add((u32 *)(r10 - 16), w2)
	w2 = atomic_fetch_xor((u32 *)(r10 - 16), w2)
	w2 = xchg32_32(r10 - 16, w2)
	w0 = 0
	w0 = cmpxchg32_32(r10 - 16, w0, w2)
	r3 = *(s32 *)(r10 - 16)
	r3 = *(s8 *)(r10 - 8)
	r3 = (s8)r3
	w3 = (s16)w3
	r3 = (s32)r3
	r3 s/= 3
	r3 s%= 5
	w3 s/= w2
	r3 = bswap32 r3
	r3 = be16 r3
	r3 = le32 r3
	r4 = load_acquire((u64 *)(r10 - 8))
	w4 = load_acquire((u32 *)(r10 - 16))
	w4 = load_acquire((u8 *)(r10 - 16))
	store_release((u64 *)(r10 - 8), r4)
	store_release((u16 *)(r10 - 16), w4)
	r5 = 0x123456789 ll
	if r5 s> -3 goto next
next:
	if w5 & 0x10 goto l2
l2:
	gotol l3
l3:
	may_goto l4
l4:
	r0 = 0
	exit
