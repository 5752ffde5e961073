#!/usr/bin/env python3
"""A 16 MiB vlmeta value, and what python-blosc2 4.14.1 reads from it.

Usage (from the repository root, any python3 >= 3.10):

    python3 tests/data/values/big.py

It runs itself inside the python-blosc2 4.14.1 venv ($B2_VENV_4_14_1, else
/work/venvs/blosc2-4.14.1, else tests/data/values/.venvs/blosc2-4.14.1, as generate.py
looks), writes tests/data/values/big/big.b2nd (wiped first) and big.json, and stops on
any failed check. Two runs give the same bytes.

The array's vlmeta "big" is 16 MiB of bytes (`i % 251` for byte i, a pattern no codec
turns into a run), stored the way python-blosc2 stores every vlmeta value: msgpack-packed
(a bin32 here) and compressed as one Blosc2 chunk. big.json records what python reads
back: the value's length, the packed bytes' length, their first bytes and their CRC-32
(zlib's), so that a test can check every byte without Python and without 16 MiB of hex.
"""

import json
import os
import shutil
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from deep import find_python  # noqa: E402  (the same 4.14.1 venv, found the same way)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "big")
LEN = 16 << 20


def worker():
    import msgpack
    import numpy as np

    import blosc2

    blosc2.set_nthreads(1)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    path = os.path.join(OUT, "big.b2nd")
    value = bytes(i % 251 for i in range(LEN))
    a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=path, mode="w")
    a.vlmeta["big"] = value
    del a

    arr = blosc2.open(path)
    read = arr.vlmeta["big"]
    assert read == value
    packed = msgpack.packb(read)
    doc = {
        "name": "big",
        "value_len": len(read),
        "pattern": "byte i is i % 251",
        "msgpack_len": len(packed),
        "msgpack_head_hex": packed[:8].hex(),
        "msgpack_crc32": zlib.crc32(packed),
        "file_len": os.path.getsize(path),
    }
    with open(os.path.join(OUT, "big.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(json.dumps(doc))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker()
    else:
        subprocess.check_call([find_python(), os.path.abspath(__file__), "--worker"])
