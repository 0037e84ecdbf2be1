#!/usr/bin/env python3
"""Writes the seed corpus for tests/core/fuzz_frame_decoder.cpp into fuzz_corpus/frame/.
Frames follow host/PROTOCOL.md (version 1); run from anywhere: python3 make_frame_corpus.py"""
import os
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "frame")


def crc16(data, crc=0xFFFF):
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def frame(type_, seq, addr, payload=(), status=0, flags=0, version=1, length=None):
    n = len(payload) if length is None else length
    h = struct.pack("<BBBBIHBB", 0xA5, version, type_, seq, addr, n, status, flags)
    h += struct.pack("<H", crc16(h))
    body = h + b"".join(struct.pack("<I", w) for w in payload)
    return body + struct.pack("<H", crc16(body))


assert crc16(b"123456789") == 0x29B1
seeds = {
    "ping": frame(0x01, 0, 0),
    "read": frame(0x02, 1, 0x1000),
    "write": frame(0x03, 2, 0x1004, [0xDEADBEEF]),
    "burst_write_8": frame(0x04, 3, 0x2000, list(range(8))),
    "burst_write_fifo": frame(0x04, 4, 0x3000, [0xA5A5A5A5] * 4, flags=1),
    "burst_read": frame(0x05, 5, 0x4000, [16]),
    "read_reply": frame(0x82, 1, 0x1000, [0x12345678]),
    "error_reply": frame(0x82, 6, 0x7, status=4),
    "two_frames": frame(0x02, 7, 0) + frame(0x03, 8, 4, [1]),
    "garbage_then_frame": bytes([0x00, 0xA5, 0xFF, 0xA5, 0x01, 0x02]) + frame(0x02, 9, 0x40),
    "bad_crc": frame(0x03, 10, 8, [5])[:-1] + b"\x00",
    "oversize_len": frame(0x04, 11, 0, [], length=1000)[:14] + b"\x5a" * 64,
    "bad_version": frame(0x02, 12, 0, version=2),
    "truncated": frame(0x04, 13, 0, list(range(32)))[:40],
}
os.makedirs(HERE, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)
print(f"wrote {len(seeds)} seeds to {HERE}")
