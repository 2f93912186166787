; A socket filter with two subprograms: the entry calls double(), which
; calls inc(); both go to .text with symbols, the entry's call is relocated.
	r1 = 20
	call double
	if r0 != 42 goto bad
	r0 = 0
	exit
bad:
	r0 = -1
	exit
double:
	r1 <<= 1
	call inc
	exit
inc:
	r0 = r1
	r0 += 2
	exit
