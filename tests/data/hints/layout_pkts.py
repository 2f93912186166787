#!/usr/bin/env python3
# Packets for layout_calls.bpf.c: OUT.pcap with N random 60-byte frames, a
# share SKEW of them in one hot shape (seeded, reproducible). With --split DIR
# every frame is also written as DIR/NNN.bin (single runs).
import os, random, struct, sys
out, n, seed, skew = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
split = sys.argv[6] if len(sys.argv) > 6 and sys.argv[5] == "--split" else None
rnd = random.Random(seed)
with open(out, "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for i in range(n):
        p = bytearray(rnd.getrandbits(8) for _ in range(60))
        if rnd.random() < skew:  # the hot shape
            p[14] = rnd.randrange(0, 100); p[15] = 2; p[16] = rnd.randrange(0, 50); p[17] = p[16] + 3
            p[18] = 0x10; p[19] = 5
        f.write(struct.pack("<IIII", i, 0, len(p), len(p)) + bytes(p))
        if split:
            os.makedirs(split, exist_ok=True)
            open(os.path.join(split, "%03d.bin" % i), "wb").write(bytes(p))
