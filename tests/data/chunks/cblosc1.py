"""Chunks the c-blosc 1.x line wrote (chunk format version 2) with bitshuffle and byte
shuffle, from several releases around its bitshuffle changes: c-blosc 1.12.1
(bitshuffle even of blocks shorter than the type), 1.16.3 and 1.17.1 (leftover bytes
after the last whole element not copied), 1.18.0 and 1.21.6 (copied), each built from
its git tag (BloscLZ only), and python-blosc 1.11.4's wheel (c-blosc 1.21.7.dev: every
codec). Each chunk is stored with its input, what its own c-blosc decompresses it to
(the writer's reading), and what C-Blosc2 3.3.5 (python-blosc2 4.14.1's libblosc2.so)
gives into a destination of zeros and one of 0xff (C leaves some bytes unwritten).

From the repository root, with the venv of python-blosc2 4.14.1, a c-blosc git
checkout (https://github.com/Blosc/c-blosc) and a venv with `pip install blosc==1.11.4`:

    /work/venvs/blosc2-4.14.1/bin/python tests/data/chunks/cblosc1.py \\
        --c-blosc /path/to/c-blosc --blosc1-python /work/venvs/blosc1-1.11.4/bin/python

Writes tests/data/chunks/cblosc1.bin.zlib: b"B2C1CHNK", a u32 count, then per chunk
(little-endian): u16 label length, label, then four byte strings each as u32 length +
bytes: the chunk, the writer's reading, C-Blosc2 3.3.5's into zeros, into 0xff (empty
when C refuses it); a length of 0xffffffff stands for the input itself, byte i being
`(7i + i // 13 + i * i % 5) & 255` (`data`).
"""

import argparse
import ctypes
import json
import pathlib
import struct
import subprocess
import sys
import tempfile
import zlib

import blosc2

OUT = pathlib.Path(__file__).with_name("cblosc1.bin.zlib")
TAGS = ["v1.12.1", "v1.16.3", "v1.17.1", "v1.18.0", "v1.21.6"]
SOURCES = ["blosc.c", "blosclz.c", "shuffle.c", "shuffle-generic.c", "bitshuffle-generic.c"]
SHUFFLES = {1: "shuffle", 2: "bitshuffle"}
# (typesize, nbytes, forced blocksize or 0): whole blocks, leftover blocks shorter
# than the type, leftovers of 8 elements and a few bytes, blocks not a multiple of 8
# elements.
CASES = [
    (t, n, b)
    for t in (1, 2, 4, 8, 16)
    for n, b in ((1000, 0), (1027, 0), (2048 + 35, 1024), (2048 + 8 * t + 3, 1024), (1031, 0), (1500, 500), (777, 64))
]

assert blosc2.__version__ == "4.14.1", blosc2.__version__
C2 = ctypes.CDLL(str(pathlib.Path(blosc2.__file__).parent / "lib" / "libblosc2.so"))
C2.blosc2_init()


def data(n):
    return bytes((i * 7 + i // 13 + (i * i) % 5) & 255 for i in range(n))


def c2_decompress(chunk, fill):
    n = struct.unpack("<i", chunk[4:8])[0]
    dest = ctypes.create_string_buffer(bytes([fill]) * n, n)
    rc = C2.blosc2_decompress(chunk, len(chunk), dest, n)
    return dest.raw if rc >= 0 else b""


def built_records(c_blosc):
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for tag in TAGS:
            src = pathlib.Path(tmp) / tag
            src.mkdir()
            archive = subprocess.run(["git", "-C", c_blosc, "archive", tag, "blosc"], check=True, capture_output=True).stdout
            subprocess.run(["tar", "x", "-C", str(src)], input=archive, check=True)
            lib = src / "libblosc1.so"
            # fastcopy.c appeared in 1.16; no SIMD shuffle: the generic one writes the same.
            sources = SOURCES + [s for s in ("fastcopy.c",) if (src / "blosc" / s).exists()]
            subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", str(lib), *sources, "-lpthread"], cwd=src / "blosc", check=True)
            c1 = ctypes.CDLL(str(lib))
            c1.blosc_init()
            c1.blosc_set_nthreads(1)
            for shuffle in SHUFFLES:
                for typesize, n, blocksize in CASES:
                    c1.blosc_set_blocksize(blocksize)
                    src_bytes = data(n)
                    dest = ctypes.create_string_buffer(n + 64)
                    size = c1.blosc_compress(5, shuffle, typesize, n, src_bytes, dest, n + 64)
                    assert size > 0
                    chunk = dest.raw[:size]
                    back = ctypes.create_string_buffer(n)
                    assert c1.blosc_decompress(chunk, back, n) == n
                    label = f"c-blosc {tag[1:]} blosclz {SHUFFLES[shuffle]} typesize {typesize} nbytes {n} blocksize {blocksize}"
                    out.append((label, chunk, src_bytes, back.raw))
    return out


WHEEL_SCRIPT = """
import json, sys, blosc
out = []
for cname in blosc.cnames:
    for shuffle in (1, 2):
        for typesize, n, blocksize in json.loads(sys.argv[1]):
            blosc.set_blocksize(blocksize)
            src = bytes((i * 7 + i // 13 + (i * i) % 5) & 255 for i in range(n))
            chunk = blosc.compress(src, typesize=typesize, clevel=5, shuffle=shuffle, cname=cname)
            out.append([cname, shuffle, typesize, n, blocksize, chunk.hex(), blosc.decompress(chunk).hex()])
print(json.dumps([blosc.__version__, blosc.blosclib_version, out]))
"""


def wheel_records(python):
    run = subprocess.run([python, "-c", WHEEL_SCRIPT, json.dumps(CASES)], check=True, capture_output=True, text=True)
    version, lib, rows = json.loads(run.stdout)
    assert version == "1.11.4", version
    out = []
    for cname, shuffle, typesize, n, blocksize, chunk, back in rows:
        label = f"python-blosc {version} (c-blosc {lib.split()[0]}) {cname} {SHUFFLES[shuffle]} typesize {typesize} nbytes {n} blocksize {blocksize}"
        out.append((label, bytes.fromhex(chunk), data(n), bytes.fromhex(back)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--c-blosc", required=True)
    ap.add_argument("--blosc1-python", required=True)
    args = ap.parse_args()
    recs = built_records(args.c_blosc) + wheel_records(args.blosc1_python)
    body = bytearray(b"B2C1CHNK") + struct.pack("<I", len(recs))
    for label, chunk, src, back in recs:
        assert chunk[0] == 2, label
        raw = label.encode()
        body += struct.pack("<H", len(raw)) + raw
        body += struct.pack("<I", len(chunk)) + chunk
        for b in (back, c2_decompress(chunk, 0), c2_decompress(chunk, 0xFF)):
            # The input itself (most of them) as a length of 0xffffffff.
            body += struct.pack("<I", 0xFFFFFFFF) if b == src else struct.pack("<I", len(b)) + b
    OUT.write_bytes(zlib.compress(bytes(body), 9))
    print(f"{len(recs)} chunks, {OUT.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
