/* Rejected: malformed instruction streams (jump outside the program or into
 * an ld_imm64, unknown opcode, reserved fields set). Kept in their own object because loaders
 * that validate the instruction stream (bpfgate's own) refuse the whole
 * object, not just the program. */
#include "corpus.h"

char LICENSE[] SEC("license") = "GPL";

/* unsafe: jump target outside the program */
SEC("socket")
__naked int sock_jump_out_of_range(void)
{
	asm volatile("goto +100;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: jump into the middle of a 16-byte ld_imm64 */
SEC("socket")
__naked int sock_jump_into_ldimm64(void)
{
	asm volatile("if r1 == 0 goto +1;"
		     "r1 = 0x1122334455667788 ll;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: invalid opcode (0xff) */
SEC("socket")
__naked int sock_invalid_opcode(void)
{
	asm volatile(".8byte 0x00000000000000ff;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* unsafe: ALU instruction with reserved fields set (mov r0, 0 with off=1) */
SEC("socket")
__naked int sock_reserved_fields(void)
{
	asm volatile(".8byte 0x00000000000100b7;"
		     "exit;" ::: "memory");
}
