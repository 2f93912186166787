; Every syntax feature of the assembler: labels, local calls, comments,
; hex and decimal immediates, ld_imm64, atomics, v4 forms.
main:
	r1 = 0x10                ; hex immediate
	r2 = -16                 # decimal, negative
	*(u64 *)(r10 - 8) = r1   // a store
	r3 = r10
	r3 += -8
	lock *(u64 *)(r3 + 0) += r2
	r4 = atomic_fetch_add((u64 *)(r3 + 0), r4)
	r0 = cmpxchg_64(r3 + 0, r0, r4)
	r5 = 0x1122334455667788 ll
	r5 = bswap64 r5
	r6 = (s8)r5
	r6 s/= r1
	r7 = *(s16 *)(r10 - 8)
	call sub
	if w0 != 0 goto out
	gotol out
	may_goto out
out:
	w0 = 2
	exit
sub:	r0 = 1
	exit
