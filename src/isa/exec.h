/* Concrete semantics of ALU and JMP operations, exactly as RFC 9669 defines
 * them (division by zero gives 0, modulo by zero leaves dst, shift amounts
 * masked, 32-bit results zero-extended, sdiv/smod, movsx, byte swaps).
 * The one statement of these facts: the interpreter, the domain soundness
 * tests and constant folding in the verifier all use it. */
#ifndef BG_ISA_EXEC_H
#define BG_ISA_EXEC_H
#include <stdbool.h>
#include <stdint.h>

/* dst <op> src for a bg_alu_op (ADD..ARSH, MOV, NEG; not END). alu64 false:
 * 32-bit operation on the low halves, result zero-extended to 64 bits.
 * is_signed: sdiv/smod (DIV/MOD with off 1). ext_bits: movsx source width
 * (8/16/32) for MOV, 0 otherwise. */
uint64_t bg_alu_exec(uint8_t op, bool alu64, bool is_signed, uint8_t ext_bits, uint64_t dst,
		     uint64_t src);
/* Byte-order operation: to_be (swap on this little-endian host) or to_le
 * (truncate) at width 16/32/64; bswap (ALU64 END) is swap = true. */
uint64_t bg_end_exec(uint64_t v, uint8_t width, bool swap);
/* Jump condition for a bg_jmp_op (JEQ..JSLE, JSET); alu64 false compares low 32 bits. */
bool bg_jmp_exec(uint8_t op, bool alu64, uint64_t dst, uint64_t src);
/* Sign- or zero-extend the low `bytes` bytes of v. */
uint64_t bg_extend(uint64_t v, uint8_t bytes, bool sign);
#endif
