#!/usr/bin/env python3
"""Program generator for the scaling benchmark of `bpfgate check`.

gen KIND N: about N instructions of BPF assembly (socket filter) in the
syntax of `bpfgate asm`:
  straight  ALU chains and stack spills/fills, no branches
  branchy   a sequence of if/else diamonds on a packet-length scalar, each
            followed by a join (the shape that makes path enumeration explode)
  loops     nested bounded loops (outer 4 x inner 8 iterations) in sequence
  nestedD   counted loops nested D = 1..4 deep (4 iterations each), in sequence
"""
import sys


def straight(n):
    out = ["r6 = r1", "r0 = 0", "r2 = 1"]
    i = 0
    while len(out) < n - 2:
        k = i % 6
        if k == 0:
            out.append("r2 += %d" % (i % 97 + 1))
        elif k == 1:
            out.append("r3 = r2")
        elif k == 2:
            out.append("r3 &= 255")
        elif k == 3:
            out.append("*(u64 *)(r10 - %d) = r3" % (8 * (i % 64 + 1)))
        elif k == 4:
            out.append("r4 = *(u64 *)(r10 - %d) " % (8 * (i % 64 + 1)))
        else:
            out.append("r0 ^= r4")
        i += 1
    out += ["r0 = 0", "exit"]
    return out


def branchy(n):
    out = ["r6 = r1", "r7 = *(u32 *)(r6 + 0)", "r0 = 0"]
    i = 0
    while len(out) < n - 2:
        out += ["if r7 > %d goto L%d_a" % (5000 + (i % 1000) * 7, i),
                "r0 += 1",
                "r8 = r0",
                "goto L%d_b" % i,
                "L%d_a:" % i,
                "r0 += 2",
                "r8 = r7",
                "L%d_b:" % i,
                "r8 &= 1023"]
        i += 1
    out += ["r0 = 0", "exit"]
    return out


def loops(n):
    out = ["r6 = r1", "r0 = 0"]
    i = 0
    while len(out) < n - 2:
        out += ["r1 = 0",
                "O%d:" % i,
                "r2 = 0",
                "I%d:" % i,
                "r0 += r2",
                "r0 &= 65535",
                "r2 += 1",
                "if r2 < 1000 goto I%d" % i,
                "r1 += 1",
                "if r1 < 100 goto O%d" % i]
        i += 1
    out += ["r0 = 0", "exit"]
    return out


def nested(depth):
    """nested counted loops `depth` deep (counters r1..r4, 4 iterations each,
    r0 and a stack slot stepped inside), repeated in sequence"""
    def gen(n):
        out = ["r6 = r1", "r0 = 0", "r7 = 0", "*(u64 *)(r10 - 8) = r7"]
        i = 0
        while len(out) < n - 2:
            for d in range(depth):
                out += ["r%d = 0" % (d + 1), "N%d_%d:" % (i, d)]
            out += ["r0 += r%d" % depth, "r0 &= 65535", "r7 = *(u64 *)(r10 - 8)",
                    "r7 ^= r0", "*(u64 *)(r10 - 8) = r7"]
            for d in reversed(range(depth)):
                out += ["r%d += 1" % (d + 1), "if r%d < 4 goto N%d_%d" % (d + 1, i, d)]
            i += 1
        out += ["r0 = 0", "exit"]
        return out
    return gen


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    gens = {"straight": straight, "branchy": branchy, "loops": loops}
    for d in range(1, 5):
        gens["nested%d" % d] = nested(d)
    prog = gens[kind](n)
    sys.stdout.write("\n".join(prog) + "\n")


if __name__ == "__main__":
    main()
