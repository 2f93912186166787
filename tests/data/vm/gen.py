#!/usr/bin/env python3
"""Generates the interpreter conformance cases in this directory (one file per
case, grouped in a folder per opcode family). Expected values come from the
small RFC 9669 model below, written independently of the C interpreter; edge
cases (division by zero, shift masking, sign extension, 32-bit zero
extension, atomics on r0, legacy packet loads, frames) are chosen by hand.
Run: python3 tests/data/vm/gen.py  (rewrites the generated files).

File format:
    # one line saying what the case checks
    -- asm
    <program in the bpfgate assembler syntax>
    -- mem
    <optional memory bytes as hex; r1 points to them, r2 = length>
    -- result
    0x<expected r0>          (or:  -- error  followed by a message substring)
"""
import os, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
cases = []

def s64(v): v &= M64; return v - (1 << 64) if v >> 63 else v
def s32(v): v &= M32; return v - (1 << 32) if v >> 31 else v
def tdiv(a, b): q = abs(a) // abs(b); return q if (a < 0) == (b < 0) else -q
def tmod(a, b): return a - tdiv(a, b) * b

def alu(op, a64, d, s):
    """RFC 9669 4.1 semantics. d, s: unsigned operands (64-bit or low 32)."""
    if a64:
        m, sx = M64, s64
    else:
        m, sx = M32, s32
        d &= M32; s &= M32
    sh = 63 if a64 else 31
    if op == 'add': r = d + s
    elif op == 'sub': r = d - s
    elif op == 'mul': r = d * s
    elif op == 'div': r = d // s if s else 0
    elif op == 'sdiv': r = tdiv(sx(d), sx(s)) if s else 0
    elif op == 'mod': r = d % s if s else d
    elif op == 'smod': r = tmod(sx(d), sx(s)) if s else d
    elif op == 'or': r = d | s
    elif op == 'and': r = d & s
    elif op == 'xor': r = d ^ s
    elif op == 'lsh': r = d << (s & sh)
    elif op == 'rsh': r = d >> (s & sh)
    elif op == 'arsh': r = sx(d) >> (s & sh)
    elif op == 'mov': r = s
    else: raise ValueError(op)
    return r & m

SYM = {'add': '+=', 'sub': '-=', 'mul': '*=', 'div': '/=', 'sdiv': 's/=', 'mod': '%=',
       'smod': 's%=', 'or': '|=', 'and': '&=', 'xor': '^=', 'lsh': '<<=', 'rsh': '>>=',
       'arsh': 's>>=', 'mov': '='}

def case(group, name, desc, asm, result=None, mem=None, error=None):
    cases.append((group, name, desc, asm, result, mem, error))

def hx(v): return '0x%x' % (v & M64)

def ld64(reg, v): return '%s = %s ll' % (reg, hx(v))

# ---------------- ALU ----------------
VALS64 = [0, 1, 2, 7, M64, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffff,
          0x80000000, 0x7fffffff, 0xdeadbeefcafebabe, 63, 64, 65, 31, 32, 33, (-7) & M64, 3]
PAIRS = {
    'add': [(M64, 1), (0x7fffffffffffffff, 1), (0xffffffff, 1), (0x80000000, 0x80000000)],
    'sub': [(0, 1), (0x8000000000000000, 1), (5, 7), (0x100000000, 1)],
    'mul': [(0xffffffff, 0xffffffff), (M64, M64), (0x100000000, 2), ((-7) & M64, 3)],
    'div': [(7, 0), (7, 2), (M64, 0xffffffff), (0x100000005, 0x100000000), (M64, M64)],
    'sdiv': [((-7) & M64, 2), (7, (-2) & M64), (0x8000000000000000, M64), (5, 0),
             (0x80000000, 0xffffffff)],
    'mod': [(7, 0), (7, 3), (0xffffffff00000007, 0), (M64, 0x10), (0x100000005, 0x100000000)],
    'smod': [((-7) & M64, 2), (7, (-2) & M64), (0x8000000000000000, M64), (5, 0),
             ((-7) & M64, 0)],
    'or': [(0xf0, 0x0f), (0xffffffff00000000, 0xff), (0, 0)],
    'and': [(0xff, 0x0f), (M64, 0x80000000), (0xffffffff00000000, M64)],
    'xor': [(M64, 0xffffffff), (0x1234, 0x1234), (0xdeadbeefcafebabe, 0x80000000)],
    'lsh': [(1, 63), (1, 64), (1, 65), (1, 31), (1, 32), (1, 33), (0xff, 0xffffffff)],
    'rsh': [(0x8000000000000000, 63), (M64, 64), (M64, 65), (0x80000000, 31), (M64, 33)],
    'arsh': [(0x8000000000000000, 63), (0x8000000000000000, 64), ((-16) & M64, 2),
             (0x80000000, 31), (0x80000000, 33), (0x40000000, 1)],
    'mov': [(5, M64), (5, 0xffffffff), (5, 0x80000000), (5, 0x1122334455667788)],
}

for op, pairs in PAIRS.items():
    for i, (d, s) in enumerate(pairs):
        for a64 in (True, False):
            R = 'r' if a64 else 'w'
            # register form
            exp = alu(op, a64, d, s)
            case('alu64' if a64 else 'alu32', '%s_x_%d' % (op, i),
                 '%s %s register: dst=%s src=%s' % ('64-bit' if a64 else '32-bit', op, hx(d), hx(s)),
                 [ld64('r0', d), ld64('r1', s), '%s0 %s %s1' % (R, SYM[op], R), 'exit'], exp)
            # immediate form: imm is the low 32 bits, sign-extended for 64-bit ops
            imm = s32(s)
            sv = imm & M64 if a64 else imm & M32
            exp = alu(op, a64, d, sv)
            case('alu64' if a64 else 'alu32', '%s_k_%d' % (op, i),
                 '%s %s immediate %d: dst=%s' % ('64-bit' if a64 else '32-bit', op, imm, hx(d)),
                 [ld64('r0', d), '%s0 %s %d' % (R, SYM[op], imm), 'exit'], exp)

# 32-bit ops clear the upper half even when the value does not change
case('alu32', 'mov32_self_zero_extends', 'w0 = w0 clears the upper 32 bits',
     [ld64('r0', 0x1234567800000009), 'w0 = w0', 'exit'], 9)
case('alu32', 'add32_zero_upper', 'w0 += 0 clears the upper 32 bits',
     [ld64('r0', 0xffffffffffffffff), 'w0 += 0', 'exit'], 0xffffffff)

for i, v in enumerate([0, 5, 0x8000000000000000, M64, 0xffffffff00000001]):
    case('alu64', 'neg64_%d' % i, 'neg64 of %s' % hx(v), [ld64('r0', v), 'r0 = -r0', 'exit'],
         (-v) & M64)
    case('alu32', 'neg32_%d' % i, 'neg32 of %s (low half, zero-extended)' % hx(v),
         [ld64('r0', v), 'w0 = -w0', 'exit'], (-(v & M32)) & M32)

for bits in (8, 16, 32):
    for i, v in enumerate([0x7f, 0x80, 0xff, 0x8000, 0x7fff, 0x80000000, 0xffffffff7fffffff]):
        m = (1 << bits) - 1
        x = v & m
        sx = x - (1 << bits) if x >> (bits - 1) else x
        case('movsx', 'movsx64_s%d_%d' % (bits, i), 'r0 = (s%d)r1 with r1=%s' % (bits, hx(v)),
             [ld64('r1', v), 'r0 = (s%d)r1' % bits, 'exit'], sx & M64)
        if bits < 32:
            case('movsx', 'movsx32_s%d_%d' % (bits, i), 'w0 = (s%d)w1 with r1=%s' % (bits, hx(v)),
                 [ld64('r1', v), 'w0 = (s%d)w1' % bits, 'exit'], sx & M32)

V = 0x1122334455667788
for w in (16, 32, 64):
    m = (1 << w) - 1
    le = V & m
    be = int.from_bytes((V & m).to_bytes(w // 8, 'little'), 'big')
    case('end', 'le%d' % w, 'to_le %d truncates on a little-endian machine' % w,
         [ld64('r0', V), 'r0 = le%d r0' % w, 'exit'], le)
    case('end', 'be%d' % w, 'to_be %d swaps and zero-extends' % w,
         [ld64('r0', V), 'r0 = be%d r0' % w, 'exit'], be)
    case('end', 'bswap%d' % w, 'bswap %d (ALU64 END) swaps unconditionally' % w,
         [ld64('r0', V), 'r0 = bswap%d r0' % w, 'exit'], be)

case('ldimm64', 'lddw_full', 'ld_imm64 loads all 64 bits', [ld64('r0', 0xfedcba9876543210), 'exit'],
     0xfedcba9876543210)
case('ldimm64', 'lddw_hi_only', 'ld_imm64 with only the upper half set',
     [ld64('r0', 0x8000000000000000), 'exit'], 0x8000000000000000)
case('ldimm64', 'mov64_imm_sign_extends', 'r0 = -1 (imm) sign-extends to 64 bits',
     ['r0 = -1', 'exit'], M64)
case('ldimm64', 'mov32_imm_zero_extends', 'w0 = -1 (imm) zero-extends', ['w0 = -1', 'exit'], M32)

# ---------------- jumps ----------------
JOPS = {'==': lambda a, b, sx: a == b, '!=': lambda a, b, sx: a != b,
        '>': lambda a, b, sx: a > b, '>=': lambda a, b, sx: a >= b,
        '<': lambda a, b, sx: a < b, '<=': lambda a, b, sx: a <= b,
        '&': lambda a, b, sx: (a & b) != 0,
        's>': lambda a, b, sx: sx(a) > sx(b), 's>=': lambda a, b, sx: sx(a) >= sx(b),
        's<': lambda a, b, sx: sx(a) < sx(b), 's<=': lambda a, b, sx: sx(a) <= sx(b)}
JNAME = {'==': 'jeq', '!=': 'jne', '>': 'jgt', '>=': 'jge', '<': 'jlt', '<=': 'jle', '&': 'jset',
         's>': 'jsgt', 's>=': 'jsge', 's<': 'jslt', 's<=': 'jsle'}
JPAIRS = [(5, 5), (M64, 1), (1, M64), (0x100000001, 1), (0x80000000, 0x7fffffff), (0, 0x80000000)]
for sym, f in JOPS.items():
    for i, (d, s) in enumerate(JPAIRS):
        for a64 in (True, False):
            R = 'r' if a64 else 'w'
            m = M64 if a64 else M32
            sx = s64 if a64 else s32
            taken = f(d & m, s & m, sx)
            case('jmp' if a64 else 'jmp32', '%s_x_%d' % (JNAME[sym], i),
                 'if %s0 %s %s1 with %s, %s: %s' % (R, sym, R, hx(d), hx(s),
                                                     'taken' if taken else 'not taken'),
                 [ld64('r1', d), ld64('r2', s), 'r0 = 1', 'if %s1 %s %s2 goto +1' % (R, sym, R),
                  'r0 = 2', 'exit'], 1 if taken else 2)
            if i in (0, 1, 5):
                imm = s32(s)
                sv = (imm & M64) if a64 else (imm & M32)
                taken = f(d & m, sv, sx)
                case('jmp' if a64 else 'jmp32', '%s_k_%d' % (JNAME[sym], i),
                     'if %s1 %s %d with %s: %s' % (R, sym, imm, hx(d), 'taken' if taken else 'not taken'),
                     [ld64('r1', d), 'r0 = 1', 'if %s1 %s %d goto +1' % (R, sym, imm), 'r0 = 2', 'exit'],
                     1 if taken else 2)

case('jmp', 'ja_forward', 'goto skips an instruction', ['r0 = 1', 'goto +1', 'r0 = 2', 'exit'], 1)
case('jmp', 'ja_label', 'goto a label', ['r0 = 1', 'goto out', 'r0 = 2', 'out:', 'exit'], 1)
case('jmp', 'ja_backward_loop', 'a counted loop with a backward jump',
     ['r0 = 0', 'r1 = 0', 'loop:', 'r0 += 3', 'r1 += 1', 'if r1 < 100 goto loop', 'exit'], 300)
case('jmp', 'gotol_forward', 'gotol (32-bit offset in imm)', ['r0 = 1', 'gotol +1', 'r0 = 2', 'exit'], 1)
case('jmp', 'may_goto_falls_through', 'may_goto falls through while the budget lasts',
     ['r0 = 1', 'may_goto +1', 'r0 = 2', 'exit'], 2)
case('jmp', 'may_goto_budget_8M', 'may_goto jumps after 8M iterations (the kernel budget)',
     ['r0 = 0', 'again:', 'may_goto +2', 'r0 += 1', 'goto again', 'exit'], 8 * 1024 * 1024)
case('jmp', 'fall_off_end', 'running past the last instruction is an error',
     ['r0 = 0', 'r0 += 1'], error='invalid instruction')
case('jmp', 'infinite_loop_budget', 'an endless loop stops at the instruction budget',
     ['r0 = 0', 'l:', 'goto l'], error='budget')

# ---------------- memory ----------------
MEM = '01 02 03 04 05 06 07 08 f1 f2 f3 f4 f5 f6 f7 f8'
MB = bytes.fromhex(MEM.replace(' ', ''))
for sz, t in ((1, 'u8'), (2, 'u16'), (4, 'u32'), (8, 'u64')):
    for off in sorted({0, 1, 8, 16 - sz}):
        v = int.from_bytes(MB[off:off + sz], 'little')
        case('ldx', 'ldx_%s_off%d' % (t, off), 'load %s at offset %d of memory' % (t, off),
             ['r0 = *(%s *)(r1 + %d)' % (t, off), 'exit'], v, mem=MEM)
    case('ldx', 'ldx_%s_oob' % t, 'load %s one byte past the end of memory is reported' % t,
         ['r0 = *(%s *)(r1 + %d)' % (t, 17 - sz), 'exit'], mem=MEM, error='past the end of memory'
         if sz == 1 else 'crosses the end of memory')
    case('ldx', 'ldx_%s_neg' % t, 'load %s before the start of memory is reported' % t,
         ['r0 = *(%s *)(r1 - %d)' % (t, sz), 'exit'], mem=MEM, error='before memory')
for sz, t in ((1, 's8'), (2, 's16'), (4, 's32')):
    for off in (0, 8):
        v = int.from_bytes(MB[off:off + sz], 'little', signed=True)
        case('ldsx', 'ldsx_%s_off%d' % (t, off), 'sign-extending load %s at %d' % (t, off),
             ['r0 = *(%s *)(r1 + %d)' % (t, off), 'exit'], v & M64, mem=MEM)
for sz, t in ((1, 'u8'), (2, 'u16'), (4, 'u32'), (8, 'u64')):
    m = (1 << (8 * sz)) - 1
    case('st', 'st_%s_imm' % t, 'store immediate -2 as %s, read back' % t,
         ['*(%s *)(r10 - 8) = -2' % t, 'r0 = *(%s *)(r10 - 8)' % t, 'exit'], (-2) & m)
    case('st', 'stx_%s_reg' % t, 'store a register as %s, read back' % t,
         [ld64('r1', 0x1122334455667788), '*(%s *)(r10 - 8) = r1' % t,
          'r0 = *(%s *)(r10 - 8)' % t, 'exit'], 0x1122334455667788 & m)
    case('st', 'stx_%s_mem' % t, 'store %s into memory, read the whole memory word' % t,
         [ld64('r2', M64), '*(%s *)(r1 + 0) = r2' % t, 'r0 = *(u64 *)(r1 + 0)', 'exit'],
         (int.from_bytes(MB[0:8], 'little') & ~m | m) & M64, mem=MEM)
case('st', 'stack_uninit_read', 'reading stack bytes never written is reported',
     ['r0 = *(u64 *)(r10 - 16)', 'exit'], error='uninitialized stack')
case('st', 'stack_partial_init', 'reading 8 bytes when only 4 were written is reported',
     ['*(u32 *)(r10 - 8) = 1', 'r0 = *(u64 *)(r10 - 8)', 'exit'], error='uninitialized stack byte fp-4')
case('st', 'stack_top', 'the byte at r10 is outside the frame',
     ['*(u8 *)(r10 + 0) = 1', 'r0 = 0', 'exit'], error='past the end of stack')
case('st', 'stack_bottom', 'the frame is 512 bytes: r10-512 is inside',
     ['*(u64 *)(r10 - 512) = 7', 'r0 = *(u64 *)(r10 - 512)', 'exit'], 7)
case('st', 'stack_below_frame', 'r10-520 is below the frame',
     ['*(u64 *)(r10 - 520) = 7', 'r0 = 0', 'exit'], error='before stack')
case('st', 'wild_pointer', 'a store through a scalar is reported',
     ['r1 = 4096', '*(u64 *)(r1 + 0) = 1', 'r0 = 0', 'exit'], error='store of 8 bytes at 0x1000')
case('st', 'null_pointer', 'a load through NULL is reported',
     ['r1 = 0', 'r0 = *(u32 *)(r1 + 0)', 'exit'], error='load of 4 bytes at 0x0 is outside any region (NULL pointer dereference)')
case('st', 'store_mem_byte', 'a store into memory is visible through a later load',
     ['*(u8 *)(r1 + 3) = 0x55', 'r0 = *(u32 *)(r1 + 0)', 'exit'], 0x55030201, mem=MEM)

# ---------------- atomics ----------------
AOPS = {'add': lambda a, b: a + b, 'or': lambda a, b: a | b, 'and': lambda a, b: a & b,
        'xor': lambda a, b: a ^ b}
ASYM = {'add': '+=', 'or': '|=', 'and': '&=', 'xor': '^='}
for name, f in AOPS.items():
    for sz, t, m in ((8, 'u64', M64), (4, 'u32', M32)):
        init, arg = 0xf0f0f0f0ffffffff & m, 0x0f0f0f0f00000001 & m if sz == 8 else 0x00000001
        if sz == 4:
            init, arg = 0xffffffff, 0x0f0f0f01
        new = f(init, arg) & m
        R = 'r' if sz == 8 or name == 'add' else 'w'
        st = [ld64('r1', init), '*(%s *)(r10 - 8) = r1' % t, ld64('r2', arg)]
        case('atomic%d' % (sz * 8), '%s' % name, 'lock %s of %s: memory becomes %s' % (name, t, hx(new)),
             st + ['lock *(%s *)(r10 - 8) %s %s2' % (t, ASYM[name], R),
                   'r0 = *(%s *)(r10 - 8)' % t, 'exit'], new)
        RR = 'r' if sz == 8 else 'w'
        case('atomic%d' % (sz * 8), 'fetch_%s_old' % name, 'atomic_fetch_%s returns the old value' % name,
             st + ['%s2 = atomic_fetch_%s((%s *)(r10 - 8), %s2)' % (RR, name, t, RR), 'r0 = r2', 'exit'],
             init)
        case('atomic%d' % (sz * 8), 'fetch_%s_new' % name, 'atomic_fetch_%s updates memory' % name,
             st + ['%s2 = atomic_fetch_%s((%s *)(r10 - 8), %s2)' % (RR, name, t, RR),
                   'r0 = *(%s *)(r10 - 8)' % t, 'exit'], new)
case('atomic64', 'xchg', 'xchg_64 returns the old value',
     ['r1 = 5', '*(u64 *)(r10 - 8) = r1', 'r2 = 9', 'r2 = xchg_64(r10 - 8, r2)', 'r0 = r2', 'exit'], 5)
case('atomic64', 'xchg_mem', 'xchg_64 stores the new value',
     ['r1 = 5', '*(u64 *)(r10 - 8) = r1', 'r2 = 9', 'r2 = xchg_64(r10 - 8, r2)',
      'r0 = *(u64 *)(r10 - 8)', 'exit'], 9)
case('atomic32', 'xchg', 'xchg32_32 returns the old value zero-extended',
     [ld64('r1', 0xfffffffe), '*(u32 *)(r10 - 8) = r1', ld64('r2', 0xffffffff00000009),
      'w2 = xchg32_32(r10 - 8, w2)', 'r0 = r2', 'exit'], 0xfffffffe)
case('atomic64', 'cmpxchg_success', 'cmpxchg_64 stores when r0 matches; r0 = old',
     ['r1 = 5', '*(u64 *)(r10 - 8) = r1', 'r0 = 5', 'r2 = 9', 'r0 = cmpxchg_64(r10 - 8, r0, r2)',
      'r3 = *(u64 *)(r10 - 8)', 'r3 <<= 8', 'r0 |= r3', 'exit'], 0x905)
case('atomic64', 'cmpxchg_fail', 'cmpxchg_64 leaves memory when r0 differs; r0 = old',
     ['r1 = 5', '*(u64 *)(r10 - 8) = r1', 'r0 = 6', 'r2 = 9', 'r0 = cmpxchg_64(r10 - 8, r0, r2)',
      'r3 = *(u64 *)(r10 - 8)', 'r3 <<= 8', 'r0 |= r3', 'exit'], 0x505)
case('atomic32', 'cmpxchg_low_half', 'cmpxchg32 compares only the low 32 bits of r0',
     ['r1 = 5', '*(u32 *)(r10 - 8) = r1', ld64('r0', 0x700000005), 'r2 = 9',
      'w0 = cmpxchg32_32(r10 - 8, w0, w2)', 'r3 = *(u32 *)(r10 - 8)', 'r3 <<= 8', 'r0 |= r3', 'exit'],
     0x905)
case('atomic32', 'cmpxchg_fail', 'cmpxchg32 failure: r0 = old value zero-extended',
     [ld64('r1', 0xfffffff0), '*(u32 *)(r10 - 8) = r1', ld64('r0', M64), 'r2 = 9',
      'w0 = cmpxchg32_32(r10 - 8, w0, w2)', 'exit'], 0xfffffff0)
case('atomic64', 'misaligned', 'a misaligned atomic is reported',
     ['r1 = 0', '*(u64 *)(r10 - 16) = r1', '*(u64 *)(r10 - 8) = r1', 'r2 = 1',
      'lock *(u64 *)(r10 - 12) += r2', 'r0 = 0', 'exit'], error='misaligned atomic')
for sz, t in ((1, 'u8'), (2, 'u16'), (4, 'u32'), (8, 'u64')):
    v = int.from_bytes(MB[8:8 + sz], 'little')
    R = 'r' if sz == 8 else 'w'
    case('acqrel', 'load_acquire_%s' % t, 'load_acquire of %s zero-extends' % t,
         ['%s0 = load_acquire((%s *)(r1 + 8))' % (R, t), 'exit'], v, mem=MEM)
    case('acqrel', 'store_release_%s' % t, 'store_release of %s writes %d bytes' % (t, sz),
         [ld64('r2', M64), 'store_release((%s *)(r1 + 0), %s2)' % (t, R), 'r0 = *(u64 *)(r1 + 0)',
          'exit'], (int.from_bytes(MB[0:8], 'little') | ((1 << (8 * sz)) - 1)) & M64, mem=MEM)

# ---------------- legacy packet loads ----------------
for sz, t in ((1, 'u8'), (2, 'u16'), (4, 'u32')):
    for off in (0, 5, 16 - sz):
        v = int.from_bytes(MB[off:off + sz], 'big')
        case('packet', 'ldabs_%s_%d' % (t, off), 'ld_abs %s at %d is big-endian' % (t, off),
             ['r0 = *(%s *)skb[%d]' % (t, off), 'exit'], v, mem=MEM)
        case('packet', 'ldind_%s_%d' % (t, off), 'ld_ind %s at r2(%d)+1' % (t, off - 1 if off else 0),
             ['r2 = %d' % (off - 1 if off else 0), 'r0 = *(%s *)skb[r2 + %d]' % (t, 1 if off else 0),
              'exit'], v, mem=MEM)
    case('packet', 'ldabs_%s_oob' % t, 'ld_abs past the end ends the program with r0 = 0',
         ['r0 = 7', 'r0 = *(%s *)skb[%d]' % (t, 17 - sz), 'r0 = 9', 'exit'], 0, mem=MEM)
    case('packet', 'ldind_%s_neg' % t, 'ld_ind at a negative offset ends the program with r0 = 0',
         ['r2 = -1', 'r0 = *(%s *)skb[r2 + 0]' % t, 'r0 = 9', 'exit'], 0, mem=MEM)

# ---------------- calls ----------------
case('call', 'local_call', 'bpf-to-bpf call returns in r0',
     ['r1 = 20', 'call f', 'r0 += 1', 'exit', 'f:', 'r0 = r1', 'r0 *= 2', 'exit'], 41)
case('call', 'callee_saved', 'r6-r9 survive a call even when the callee writes them',
     ['r6 = 1', 'r7 = 2', 'r8 = 3', 'r9 = 4', 'call f', 'r0 = r6', 'r0 += r7', 'r0 += r8',
      'r0 += r9', 'exit', 'f:', 'r6 = 100', 'r7 = 100', 'r8 = 100', 'r9 = 100', 'r0 = 0', 'exit'], 10)
case('call', 'own_stack', 'each frame has its own 512-byte stack',
     ['r1 = 5', '*(u64 *)(r10 - 8) = r1', 'call f', 'r0 = *(u64 *)(r10 - 8)', 'exit',
      'f:', 'r1 = 9', '*(u64 *)(r10 - 8) = r1', 'r0 = 0', 'exit'], 5)
case('call', 'caller_stack_ptr', 'a callee may write through a pointer to the caller frame',
     ['r1 = r10', 'r1 += -8', 'call f', 'r0 = *(u64 *)(r10 - 8)', 'exit',
      'f:', 'r2 = 77', '*(u64 *)(r1 + 0) = r2', 'r0 = 0', 'exit'], 77)
case('call', 'depth_8_ok', 'eight frames deep is allowed',
     ['r0 = 0', 'call f1', 'exit', 'f1:', 'call f2', 'r0 += 1', 'exit', 'f2:', 'call f3', 'r0 += 1',
      'exit', 'f3:', 'call f4', 'r0 += 1', 'exit', 'f4:', 'call f5', 'r0 += 1', 'exit',
      'f5:', 'call f6', 'r0 += 1', 'exit', 'f6:', 'call f7', 'r0 += 1', 'exit', 'f7:', 'r0 = 1', 'exit'], 7)
case('call', 'depth_9_fails', 'a ninth frame is refused',
     ['call f1', 'exit', 'f1:', 'call f2', 'exit', 'f2:', 'call f3', 'exit', 'f3:', 'call f4', 'exit',
      'f4:', 'call f5', 'exit', 'f5:', 'call f6', 'exit', 'f6:', 'call f7', 'exit', 'f7:', 'call f8',
      'exit', 'f8:', 'r0 = 1', 'exit'], error='8 frames')
case('call', 'recursion', 'unbounded recursion stops at the frame limit',
     ['f:', 'call f', 'exit'], error='8 frames')
case('call', 'callx_func', 'callx through a func pointer from ld_imm64',
     ['r2 = func(f) ll', 'r1 = 4', 'callx r2', 'exit', 'f:', 'r0 = r1', 'r0 += 1', 'exit'], 5)
case('call', 'helper5_unwind', 'helper 5 (unwind) returns its argument',
     ['r1 = 3', 'call 5', 'exit'], 3)
case('call', 'helper5_unwind_zero', 'helper 5 with 0 ends the program returning 0',
     ['r1 = 0', 'call 5', 'r0 = 9', 'exit'], 0)
case('call', 'unknown_helper', 'an unimplemented helper stops the run naming it',
     ['call 9999', 'exit'], error='not implemented')

def write():
    for d in os.listdir(HERE):
        p = os.path.join(HERE, d)
        if os.path.isdir(p) and d != 'progs':  # progs/: hand-written BPF C, kept
            shutil.rmtree(p)
    seen = set()
    for group, name, desc, asm, result, mem, error in cases:
        key = (group, name)
        assert key not in seen, key
        seen.add(key)
        os.makedirs(os.path.join(HERE, group), exist_ok=True)
        with open(os.path.join(HERE, group, name + '.data'), 'w') as f:
            f.write('# %s\n-- asm\n' % desc)
            for line in asm:
                f.write(line + '\n')
            if mem:
                f.write('-- mem\n%s\n' % mem)
            if error:
                f.write('-- error\n%s\n' % error)
            else:
                f.write('-- result\n0x%x\n' % (result & M64))
    print('%d cases' % len(cases))

write()
