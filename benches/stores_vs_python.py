#!/usr/bin/env python3
"""Store changes, our `b2nd-meta store put/rm` against python-blosc2 4.14.1, whole
processes timed (start-up included), best of --runs, each on a fresh copy of the store.

A .b2z DictStore of 100 nodes (10000 float64 each, made by python-blosc2); added to it:
a small node (1000 int32) and a 64 MiB node (8 Mi float64 normals), each from a .npy
(ours: imported, then put; python: `store[key] = np.load(npy)`) and from a .b2nd
(ours: copied as it is; python: `store[key] = blosc2.open(b2nd)`); then one node
removed (`store rm`; python: `del store[key]`). python opens the store with
`DictStore(path, mode="a")`, which unpacks the zip and packs it again on close.

Then the same on a .b2e EmbedStore of 100 nodes (python: `EmbedStore(path, mode="a")`,
which appends in place; ours writes the EmbedStore anew beside itself, its full chunks
copied as they are, and renames it), from a .b2nd.

Usage (python-blosc2 4.14.1 and numpy from `bash .ci/references`):

    cargo build --release --features cli
    $B2ND_VENV_BLOSC2_4_14_1/bin/python benches/stores_vs_python.py target/release/b2nd-meta
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

import blosc2
import numpy as np

PY_OP = """
import blosc2, numpy as np, sys
path, op, key = sys.argv[1:4]
cls = blosc2.EmbedStore if path.endswith(".b2e") else blosc2.DictStore
with cls(path, mode="a") as s:
    if op == "rm":
        del s[key]
    elif sys.argv[4].endswith(".npy"):
        s[key] = np.load(sys.argv[4])
    else:
        s[key] = blosc2.open(sys.argv[4])
"""


def prepare(d):
    with blosc2.DictStore(os.path.join(d, "base.b2z"), mode="w") as s:
        for i in range(100):
            s[f"/n{i:03d}"] = np.arange(10000, dtype="f8") + i
    with blosc2.EmbedStore(os.path.join(d, "base.b2e"), mode="w") as s:
        for i in range(100):
            s[f"/n{i:03d}"] = np.arange(10000, dtype="f8") + i
    small = np.arange(1000, dtype="i4")
    big = np.random.default_rng(0).standard_normal(8 << 20)
    for name, arr in [("small", small), ("big", big)]:
        np.save(os.path.join(d, f"{name}.npy"), arr)
        blosc2.asarray(arr, urlpath=os.path.join(d, f"{name}.b2nd"), mode="w")


def timed(d, argv, runs, suffix):
    best = None
    for _ in range(runs):
        store = os.path.join(d, "s" + suffix)
        shutil.copyfile(os.path.join(d, "base" + suffix), store)
        args = [a.replace("STORE", store) for a in argv]
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best


def main():
    cli = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as d:
        prepare(d)
        rows = []
        for suffix, what, key, src in [
            (".b2z", "add small node (.npy)", "/new", "small.npy"),
            (".b2z", "add small node (.b2nd)", "/new", "small.b2nd"),
            (".b2z", "add 64 MiB node (.npy)", "/new", "big.npy"),
            (".b2z", "add 64 MiB node (.b2nd)", "/new", "big.b2nd"),
            (".b2z", "remove a node", "/n050", None),
            (".b2e", "add small node (.b2nd)", "/new", "small.b2nd"),
            (".b2e", "add 64 MiB node (.b2nd)", "/new", "big.b2nd"),
            (".b2e", "remove a node", "/n050", None),
        ]:
            if src is None:
                ours = [cli, "store", "rm", "STORE", key]
                theirs = [sys.executable, "-c", PY_OP, "STORE", "rm", key]
            else:
                path = os.path.join(d, src)
                ours = [cli, "store", "put", "STORE", key, path]
                theirs = [sys.executable, "-c", PY_OP, "STORE", "put", key, path]
            ours_t = timed(d, ours, runs, suffix)
            rows.append((suffix, what, ours_t, timed(d, theirs, runs, suffix)))
    print(f"| change to a store of 100 nodes | b2nd-meta | python-blosc2 {blosc2.__version__} |")
    print("|---|---:|---:|")
    for suffix, what, ours, theirs in rows:
        print(f"| {suffix}: {what} | {ours * 1000:.0f} ms | {theirs * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
