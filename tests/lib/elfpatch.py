"""Hostile variants of a BPF object, for the output-contract tests: rename a
string (a program, map, function or section name) in every string table it
appears in (.strtab, .shstrtab, the .BTF string section), or replace the
license. Renames keep the length, so every offset stays valid and only the
bytes a reader prints change. Usage as a script:
  elfpatch.py rename IN OUT OLD NEWHEX     (NEWHEX: the new bytes in hex)
  elfpatch.py license IN OUT NEWHEX
  elfpatch.py strings IN                   (names that can be renamed, one a line)
"""
import struct
import sys


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    hdrs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        hdrs.append((name, typ, off, size))
    stroff = hdrs[shstrndx][2]
    out = []
    for name, typ, off, size in hdrs:
        end = data.index(b"\0", stroff + name)
        out.append((data[stroff + name:end].decode("latin-1"), typ, off, size))
    return out


def string_tables(data):
    """(start, end) of every string table: SHT_STRTAB sections and BTF strings."""
    for name, typ, off, size in sections(data):
        if typ == 3:
            yield off, off + size
        elif name == ".BTF" and size >= 24:
            hdr_len, = struct.unpack_from("<I", data, off + 4)
            str_off, str_len = struct.unpack_from("<II", data, off + 16)
            s = off + hdr_len + str_off
            yield s, s + str_len


def rename(data, old, new):
    assert len(old) == len(new) and old and b"\0" not in new
    buf = bytearray(data)
    hits = 0
    for s, e in string_tables(data):
        i = s
        while True:
            i = buf.find(old + b"\0", i, e)
            if i < 0:
                break
            if i == s or buf[i - 1] == 0:
                buf[i:i + len(old)] = new
                hits += 1
            i += 1
    return bytes(buf), hits


def names(data):
    seen = []
    for s, e in string_tables(data):
        for w in data[s:e].split(b"\0"):
            if len(w) >= 3 and w not in seen and not w.startswith(b"."):
                seen.append(w)
    return seen


def set_license(data, new):
    for name, typ, off, size in sections(data):
        if name == "license":
            assert len(new) < size
            buf = bytearray(data)
            buf[off:off + size] = new + b"\0" * (size - len(new))
            return bytes(buf)
    raise SystemExit("no license section")


def main(argv):
    cmd = argv[1]
    data = open(argv[2], "rb").read()
    if cmd == "strings":
        for w in names(data):
            sys.stdout.buffer.write(w + b"\n")
        return 0
    if cmd == "rename":
        data, hits = rename(data, argv[4].encode("latin-1"), bytes.fromhex(argv[5]))
        if not hits:
            raise SystemExit("elfpatch: %s not found" % argv[4])
    elif cmd == "license":
        data = set_license(data, bytes.fromhex(argv[4]))
    open(argv[3], "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
