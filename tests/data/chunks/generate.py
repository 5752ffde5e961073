#!/usr/bin/env python3
"""Generate the chunk-decoder fixtures from real python-blosc2 output.

Usage (from the repository root, with any python3 >= 3.10):

    python3 tests/data/chunks/generate.py

The script runs itself once per python-blosc2 version (2.7.1, 3.0.0, 4.14.1) inside
that version's venv (/work/venvs/blosc2-<version>, or $B2_VENV_<version with dots as
underscores>), each run writing `tests/data/chunks/blosc2-<version>.bin.zlib`, then
writes `tests/data/chunks/expected.json` (what each run made and skipped).

Each run compresses the same inputs with `blosc2.compress2` for every codec python
writes (BLOSCLZ, LZ4, LZ4HC, ZLIB, ZSTD) x filter pipeline (none, SHUFFLE, BITSHUFFLE,
DELTA, TRUNC_PREC, BYTEDELTA, and DELTA / BYTEDELTA before and after SHUFFLE) x typesize
(1, 2, 4, 8, 16) x clevel (0, 1, 5, 9) x use_dict (for ZSTD, LZ4, LZ4HC), skipping what
python refuses, and records the chunk and what `blosc2.decompress2` gives back: the
truth is python's own reading, not the input (TRUNC_PREC is lossy, and some C versions
do not give back what they were given).

File layout (zlib-compressed): the magic b"B2CHUNKS", u32 count, then per record:
u8 typesize, u8 codec, u8 clevel, u8 use_dict, 6 filter ids, 6 filter metas,
u32 chunk length, the chunk, u8 outcome (0: python's output is the record's input,
1: python's output follows as u32 length + bytes, 2: python refused to decompress).
All integers little-endian. The inputs are recomputed by the test from `inputs()`.
"""

import json
import os
import struct
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
VERSIONS = ["2.7.1", "3.0.0", "4.14.1"]
TYPESIZES = [1, 2, 4, 8, 16]
CLEVELS = [0, 1, 5, 9]
# Python's codec ids (blosc2.Codec).
CODECS = {"BLOSCLZ": 0, "LZ4": 1, "LZ4HC": 2, "ZLIB": 4, "ZSTD": 5}
SHUFFLE, BITSHUFFLE, DELTA, TRUNC_PREC, BYTEDELTA = 1, 2, 3, 4, 35
PIPELINES = [
    [],
    [SHUFFLE],
    [BITSHUFFLE],
    [DELTA],
    [TRUNC_PREC, SHUFFLE],
    [BYTEDELTA],
    [SHUFFLE, BYTEDELTA],
    [DELTA, SHUFFLE],
    [SHUFFLE, DELTA],
]
INPUT_LEN = 1024


def inputs(typesize):
    """The bytes compressed for a typesize: a ramp of little-endian integers of that
    width with a little noise every seventh element (the test computes the same)."""
    out = bytearray()
    x = 12345
    for i in range(INPUT_LEN // typesize):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        v = i * 3 + ((x >> 16) & 0x7 if i % 7 == 0 else 0)
        out += (v % (1 << (8 * min(typesize, 8)))).to_bytes(min(typesize, 8), "little")
        out += bytes(typesize - min(typesize, 8))
    return bytes(out)


def venv_python(version):
    env = os.environ.get("B2_VENV_" + version.replace(".", "_"))
    venv = env or f"/work/venvs/blosc2-{version}"
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        sys.exit(f"no venv with blosc2=={version} at {venv}")
    return py


def worker(version):
    import blosc2

    assert blosc2.__version__ == version, (blosc2.__version__, version)
    records = []
    skipped = 0
    for typesize in TYPESIZES:
        src = inputs(typesize)
        for codec_name, codec in CODECS.items():
            for pipeline in PIPELINES:
                for clevel in CLEVELS:
                    for use_dict in (False, True):
                        if use_dict and codec_name not in ("ZSTD", "LZ4", "LZ4HC"):
                            continue
                        filters = pipeline + [0] * (6 - len(pipeline))
                        metas = [0] * 6
                        for slot, f in enumerate(filters):
                            if f == TRUNC_PREC:
                                metas[slot] = 10 if typesize in (4, 8) else 0
                            if f == BYTEDELTA:
                                metas[slot] = typesize
                        if TRUNC_PREC in filters and typesize not in (4, 8):
                            continue
                        try:
                            chunk = blosc2.compress2(
                                src,
                                codec=blosc2.Codec(codec),
                                clevel=clevel,
                                filters=[blosc2.Filter(f) for f in filters],
                                filters_meta=metas,
                                typesize=typesize,
                                use_dict=use_dict,
                                nthreads=1,
                            )
                        except Exception:
                            skipped += 1
                            continue
                        try:
                            out = blosc2.decompress2(chunk)
                            outcome = 0 if out == src else 1
                        except Exception:
                            out, outcome = b"", 2
                        rec = struct.pack("<BBBB", typesize, codec, clevel, int(use_dict))
                        rec += bytes(filters) + bytes(metas)
                        rec += struct.pack("<I", len(chunk)) + bytes(chunk)
                        rec += bytes([outcome])
                        if outcome == 1:
                            rec += struct.pack("<I", len(out)) + bytes(out)
                        records.append((rec, outcome))
    body = b"B2CHUNKS" + struct.pack("<I", len(records)) + b"".join(r for r, _ in records)
    path = os.path.join(HERE, f"blosc2-{version}.bin.zlib")
    with open(path, "wb") as f:
        f.write(zlib.compress(body, 9))
    summary = {
        "records": len(records),
        "skipped (python refused to compress)": skipped,
        "python's output differs from the input": sum(1 for _, o in records if o == 1),
        "python refused to decompress": sum(1 for _, o in records if o == 2),
        "c_blosc2": blosc2.blosclib_version.split()[0],
    }
    print(json.dumps(summary))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
        return
    doc = {"generator": "tests/data/chunks/generate.py", "versions": {}}
    for version in VERSIONS:
        out = subprocess.check_output(
            [venv_python(version), os.path.abspath(__file__), "--worker", version]
        )
        doc["versions"][version] = json.loads(out.decode().strip().splitlines()[-1])
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
