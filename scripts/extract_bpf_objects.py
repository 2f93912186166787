#!/usr/bin/env python3
"""Copy the BPF ELF objects out of files: a file that is itself a BPF object
(e_machine EM_BPF) is copied whole; any other file (an executable or shared
library with a BPF skeleton) is scanned for embedded little-endian 64-bit ELF
images whose e_machine is EM_BPF, each cut at the end of its section header
table (where a skeleton's object ends: libbpf and bpftool write it last).

    extract_bpf_objects.py OUTDIR FILE...

Objects are named after the file: NAME.o for the first, NAME.N.o for the
N-th further one in the same file. Prints one line per object written.
Exit 2 on an unreadable file or a cut that runs past the file's end."""
import os
import struct
import sys

EM_BPF = 247
MAGIC = b"\x7fELF\x02\x01\x01"  # ELFCLASS64, little-endian, EV_CURRENT


def images(data):
    """(offset, size) of every embedded EM_BPF image in data."""
    at = data.find(MAGIC)
    while at >= 0:
        if len(data) - at >= 64 and struct.unpack_from("<H", data, at + 18)[0] == EM_BPF:
            shoff, = struct.unpack_from("<Q", data, at + 0x28)
            shentsize, shnum = struct.unpack_from("<HH", data, at + 0x3A)
            size = shoff + shentsize * shnum
            if shnum == 0 or shentsize != 64 or size > len(data) - at:
                raise ValueError("offset %#x: EM_BPF image with a section table past the end" % at)
            yield at, size
            at = data.find(MAGIC, at + size)
        else:
            at = data.find(MAGIC, at + 1)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    for path in argv[2:]:
        try:
            with open(path, "rb") as f:
                data = f.read()
            found = list(images(data))
        except (OSError, ValueError) as e:
            sys.stderr.write("extract_bpf_objects: %s: %s\n" % (path, e))
            return 2
        base = os.path.basename(path)
        if base.endswith(".o"):
            base = base[:-2]
        for n, (at, size) in enumerate(found):
            name = "%s.o" % base if n == 0 else "%s.%d.o" % (base, n)
            with open(os.path.join(out, name), "wb") as f:
                f.write(data[at:at + size])
            print("%s\t%s\t%#x\t%d" % (name, path, at, size))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
