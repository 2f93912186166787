#!/usr/bin/env python3
"""Write damaged copies of a BPF object, one per kind of damage, for
tests/obj_bad.test.sh. Usage: mutate.py GOOD.o OUTDIR
Prints one line per file: NAME<TAB>expected message fragment<TAB>error|warn
(a malformed .BTF is set aside with a warning: the programs are still read)."""
import struct, sys, os

good, out = sys.argv[1], sys.argv[2]
data = open(good, 'rb').read()
shoff, = struct.unpack_from('<Q', data, 0x28)
shnum, shstrndx = struct.unpack_from('<HH', data, 0x3c)

def shdr(i):
    return list(struct.unpack_from('<IIQQQQIIQQ', data, shoff + 64 * i))

secs = [shdr(i) for i in range(shnum)]
strtab_off = secs[shstrndx][4]
def name(i):
    o = strtab_off + secs[i][0]
    return data[o:data.index(b'\0', o)].decode()
byname = {name(i): i for i in range(shnum)}

def put_shdr(buf, i, h):
    struct.pack_into('<IIQQQQIIQQ', buf, shoff + 64 * i, *h)

def emit(tag, buf, msg, mode='error'):
    """mode 'error': refused (exit 2); 'warn': read anyway, msg as a warning (exit 0)."""
    p = os.path.join(out, tag + '.o')
    open(p, 'wb').write(bytes(buf))
    print(f'{tag}\t{msg}\t{mode}')

emit('empty', b'', 'not an ELF file')
emit('garbage', bytes((i * 37 + 11) & 0xff for i in range(4096)), 'not an ELF file')
emit('trunc-header', data[:40], 'truncated ELF header')
emit('trunc-half', data[:len(data) // 2], 'truncated: the section header table at offset 0x%x' % shoff)
emit('trunc-last-byte', data[:-1], 'truncated: the section header table at offset 0x%x' % shoff)
b = bytearray(data); struct.pack_into('<H', b, 0x12, 62)
emit('machine', b, 'EM_BPF')
b = bytearray(data); h = secs[byname['xdp']][:]; h[4] = len(data) + 4096; put_shdr(b, byname['xdp'], h)
emit('sec-offset', b, 'truncated: section %d (xdp) at offset' % byname['xdp'])
b = bytearray(data); h = secs[byname['xdp']][:]; h[0] = 0x7ffffff0; put_shdr(b, byname['xdp'], h)
emit('sec-name', b, 'bad name offset')
b = bytearray(data); h = secs[byname['xdp']][:]; h[5] = 12; put_shdr(b, byname['xdp'], h)
emit('code-size', b, 'not a multiple of 8')

# relocations of the xdp section
ri = byname['.relxdp']
roff, rsize = secs[ri][4], secs[ri][5]
rels = [struct.unpack_from('<QQ', data, roff + 16 * k) for k in range(rsize // 16)]
xoff = secs[byname['xdp']][4]
def insn_code(off):
    return data[xoff + off]
k64 = next(k for k, (o, inf) in enumerate(rels) if inf & 0xffffffff == 1)
bad_at = next(o for o in range(0, secs[byname['xdp']][5], 8) if insn_code(o) not in (0x18, 0x85, 0))
b = bytearray(data); struct.pack_into('<Q', b, roff + 16 * k64, bad_at)
emit('rel-not-ldimm', b, 'section %d (.relxdp): relocation %d at offset 0x%x: not an ld_imm64 instruction' % (ri, k64, bad_at))
kc = next(k for k, (o, inf) in enumerate(rels) if inf & 0xffffffff == 10)
b = bytearray(data); struct.pack_into('<Q', b, roff + 16 * kc, bad_at)
emit('rel-not-call', b, 'relocation %d at offset 0x%x: not a call instruction' % (kc, bad_at))
b = bytearray(data); struct.pack_into('<Q', b, roff + 16 * k64 + 8, (0xfffff << 32) | 1)
emit('rel-symbol', b, 'symbol index 1048575 out of range')
b = bytearray(data); struct.pack_into('<Q', b, roff + 16 * k64, 0x100000)
emit('rel-offset', b, 'relocation %d at offset 0x100000: outside section' % k64)
b = bytearray(data); struct.pack_into('<Q', b, roff + 16 * k64 + 8, (rels[k64][1] & ~0xffffffff) | 7)
emit('rel-type', b, 'relocation type 7 is not supported')

# symbols
si = byname['.symtab']
b = bytearray(data); struct.pack_into('<I', b, secs[si][4] + 24 * 2, 0x7fffffff)
emit('sym-name', b, 'bad name offset 0x7fffffff')
b = bytearray(data); struct.pack_into('<H', b, secs[si][4] + 24 * 2 + 6, 0xff00 - 1)
emit('sym-shndx', b, 'section index 65279 out of range')

# BTF and BTF.ext
bi, ei = byname['.BTF'], byname['.BTF.ext']
b = bytearray(data); struct.pack_into('<H', b, secs[bi][4], 0x1234)
emit('btf-magic', b, 'section %d (.BTF) at offset 0x%x: malformed BTF' % (bi, secs[bi][4]), 'warn')
b = bytearray(data); struct.pack_into('<I', b, secs[bi][4] + 12, 0x7fffffff)
emit('btf-types-len', b, 'malformed BTF', 'warn')
b = bytearray(data); struct.pack_into('<H', b, secs[ei][4], 0x1234)
emit('btfext-magic', b, 'section %d (.BTF.ext) at offset 0x%x: bad magic' % (ei, secs[ei][4]))
hdr_len, fo, fl, lo, ll = struct.unpack_from('<IIIII', data, secs[ei][4] + 4)
b = bytearray(data); struct.pack_into('<I', b, secs[ei][4] + hdr_len + fo, 3)
emit('btfext-recsize', b, 'bad func_info record size 3')
b = bytearray(data); struct.pack_into('<I', b, secs[ei][4] + 12, 0x7ffffff0)
emit('btfext-len', b, 'func_info part')
# first line_info record of the first section: insn_off far outside
b = bytearray(data); struct.pack_into('<I', b, secs[ei][4] + hdr_len + lo + 4 + 8, 0x7ffff8)
emit('btfext-insn', b, 'insn offset 0x7ffff8 outside section')
b = bytearray(data); struct.pack_into('<I', b, secs[ei][4] + hdr_len + lo + 4, 0x7fffffff)
emit('btfext-secname', b, 'unknown section')

# BTF type graph: walk the types to the first struct with members
boff = secs[bi][4]
bhdr_len, btype_off, btype_len = struct.unpack_from('<III', data, boff + 4)
pos, end, tid, target = boff + bhdr_len + btype_off, boff + bhdr_len + btype_off + btype_len, 1, None
extra = {1: lambda v: 4, 3: lambda v: 12, 4: lambda v: 12 * v, 5: lambda v: 12 * v, 6: lambda v: 8 * v,
         13: lambda v: 8 * v, 14: lambda v: 4, 15: lambda v: 12 * v, 17: lambda v: 4, 19: lambda v: 12 * v}
while pos < end:
    info, = struct.unpack_from('<I', data, pos + 4)
    kind, vlen = (info >> 24) & 0x1f, info & 0xffff
    if kind in (4, 5) and vlen and target is None:
        target = (pos, tid)
    pos += 12 + extra.get(kind, lambda v: 0)(vlen)
    tid += 1
spos, sid = target
b = bytearray(data); struct.pack_into('<I', b, spos + 12 + 4, 0xffffff)
emit('btf-member-type', b, 'type %d: reference to a type id out of range' % sid, 'warn')
b = bytearray(data); struct.pack_into('<I', b, spos + 12 + 4, sid)
emit('btf-self-contained', b, 'type %d: a type contains itself' % sid, 'warn')
