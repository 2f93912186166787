#!/usr/bin/env python3
"""Write a pcap of N Ethernet frames with a skewed protocol mix, for the
profile-guided build benchmark and tests: by default 95% IPv4/TCP, 3%
IPv4/UDP, 1% IPv6, 1% ARP. Deterministic (seeded); ports vary.
usage: skewed_pcap.py OUT.pcap [N] [--mix tcp=95,udp=3,ipv6=1,arp=1] [--seed S]"""
import random, struct, sys

def eth(proto):
    return b"\x02\x00\x00\x00\x00\x01" + b"\x02\x00\x00\x00\x00\x02" + struct.pack("!H", proto)

def ipv4(proto, payload, rnd):
    tot = 20 + len(payload)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tot, rnd.randrange(65536), 0, 64, proto, 0,
                      bytes([10, 0, 0, rnd.randrange(1, 255)]), bytes([10, 0, 1, 1]))
    return hdr + payload

def tcp(rnd):
    return struct.pack("!HHIIBBHHH", rnd.randrange(1024, 65535), rnd.choice([80, 443, 8080]), 1, 0,
                       5 << 4, 0x10, 1024, 0, 0) + b"x" * 6

def udp(rnd):
    return struct.pack("!HHHH", rnd.randrange(1024, 65535), 53, 14, 0) + b"q" * 6

def frame(kind, rnd):
    if kind == "tcp":
        return eth(0x0800) + ipv4(6, tcp(rnd), rnd)
    if kind == "udp":
        return eth(0x0800) + ipv4(17, udp(rnd), rnd)
    if kind == "ipv6":
        return eth(0x86DD) + b"\x60" + b"\x00" * 39 + b"y" * 8
    return eth(0x0806) + b"\x00\x01\x08\x00\x06\x04\x00\x01" + b"\x00" * 20

def main():
    args = sys.argv[1:]
    mix = {"tcp": 95, "udp": 3, "ipv6": 1, "arp": 1}
    seed = 1
    if "--mix" in args:
        i = args.index("--mix")
        mix = {k: int(v) for k, v in (x.split("=") for x in args[i + 1].split(","))}
        del args[i:i + 2]
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    out, n = args[0], int(args[1]) if len(args) > 1 else 1000
    rnd = random.Random(seed)
    kinds = [k for k, w in mix.items() for _ in range(w)]
    with open(out, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i in range(n):
            p = frame(rnd.choice(kinds), rnd)
            p += b"\x00" * max(0, 60 - len(p))
            f.write(struct.pack("<IIII", i, 0, len(p), len(p)) + p)

main()
