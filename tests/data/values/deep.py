#!/usr/bin/env python3
"""Deeply nested user metalayers, and what python-blosc2 4.14.1 reads from them.

Usage (from the repository root, any python3 >= 3.10):

    python3 tests/data/values/deep.py

It runs itself inside the python-blosc2 4.14.1 venv ($B2_VENV_4_14_1, else
/work/venvs/blosc2-4.14.1, else tests/data/values/.venvs/blosc2-4.14.1, as generate.py
looks), writes tests/data/values/deep/deep.b2nd (wiped first) and deep.json, and stops
on any failed check. Two runs give the same bytes.

The file holds one user metalayer per case: arrays (and maps, and array16 headers)
nested 129 to 1,025 deep, stored verbatim with C-Blosc2's `blosc2_meta_add`/`update`
(`blosc2_ext.meta__setitem__`). For each, deep.json records what python-blosc2 reads
(`schunk.meta[name]`): "ok" with the nesting depth and the innermost value, or the
exception's name with the offset msgpack's `Unpacker.tell()` reports when it raises.
msgpack-python's C unpacker holds at most 1,024 open arrays and maps
(`StackError` beyond), while its packer writes at most 511 levels (`ValueError`), so
the deeper cases are written from bytes; those up to 500 deep are also checked to be
exactly what `msgpack.packb` writes for the value.
"""

import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "deep")
VERSION = "4.14.1"


def find_python():
    env = os.environ.get("B2_VENV_" + VERSION.replace(".", "_"))
    cands = [env] if env else []
    cands += [f"/work/venvs/blosc2-{VERSION}", os.path.join(HERE, ".venvs", f"blosc2-{VERSION}")]
    for c in cands:
        py = os.path.join(c, "bin", "python")
        if os.path.exists(py):
            return py
    sys.exit("no python-blosc2 4.14.1 venv: see tests/data/values/README.md")


def cases():
    """name -> the stored msgpack bytes."""
    out = {}
    for d in (129, 200, 500, 1024, 1025):
        out[f"list{d}"] = b"\x91" * d + b"\x2a"  # [[...[42]...]]
    for d in (1024, 1025):
        out[f"map{d}"] = b"\x81\xa1k" * d + b"\x2a"  # {"k": {"k": ... 42}}
        out[f"array16_{d}"] = b"\xdc\x00\x01" * d + b"\x2a"
    # Empty containers count: 1,023 arrays around an empty one, then 1,024 around one.
    out["list1023_empty"] = b"\x91" * 1023 + b"\x90"
    out["list1024_empty"] = b"\x91" * 1024 + b"\x90"
    return out


def worker():
    import msgpack
    import numpy as np

    import blosc2
    from blosc2 import blosc2_ext

    blosc2.set_nthreads(1)
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    path = os.path.join(OUT, "deep.b2nd")
    raw = cases()
    # A str of the same packed length holds each place, then the bytes replace it.
    init = {k: "p" * (len(b) - (2 if len(b) < 258 else 3)) for k, b in raw.items()}
    for k, v in init.items():
        assert len(msgpack.packb(v)) == len(raw[k]), k
    a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=path, mode="w", meta=init)
    for k, b in raw.items():
        blosc2_ext.meta__setitem__(a.schunk, k, b)
    del a

    arr = blosc2.open(path)
    doc = {}
    for name, b in raw.items():
        assert bytes(blosc2_ext.meta__getitem__(arr.schunk, name)) == b, name
        try:
            v = arr.schunk.meta[name]
        except Exception as e:  # what python refuses, and where msgpack stops
            u = msgpack.Unpacker()
            u.feed(b)
            try:
                u.unpack()
                raise AssertionError(name)
            except type(e):
                pass
            doc[name] = {"python": type(e).__name__, "offset": u.tell()}
            continue
        depth = 0
        while isinstance(v, (list, dict)) and v:
            v = v[0] if isinstance(v, list) else v["k"]
            depth += 1
        if isinstance(v, (list, dict)):  # the innermost, empty container
            depth += 1
        if depth <= 500:
            value = msgpack.unpackb(b)
            assert msgpack.packb(value) == b, name
        doc[name] = {"python": "ok", "depth": depth, "innermost": v}
    with open(os.path.join(OUT, "deep.json"), "w") as f:
        f.write("{\n" + ",\n".join(f' "{k}": {json.dumps(v)}' for k, v in doc.items()) + "\n}\n")
    print(json.dumps(doc))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker()
    else:
        subprocess.check_call([find_python(), os.path.abspath(__file__), "--worker"])
