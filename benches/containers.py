#!/usr/bin/env python3
"""Listing a 1,000-node .b2z of 1 MiB arrays: python-blosc2 against b2nd-meta.

Usage (from the repository root, with the python-blosc2 4.14.1 venv):

    /work/venvs/blosc2-4.14.1/bin/python benches/containers.py [PATH] [NODES]

Writes PATH (default /tmp/b2nd-meta-bundle.b2z; kept, reused when it exists) with
python-blosc2: a DictStore of NODES (default 1000) int64 arrays of 1 MiB of noise, all
external (threshold 0), zipped STORED. Then, five times each, best time kept:
- python: `blosc2.open(PATH)`, then every node's shape and dtype;
- ours: `target/release/b2nd-meta show PATH` (record + one JSON line per node with its
  header, metalayers, vlmeta: more than python reads), output discarded;
and, with `B2ND_BUNDLE=PATH cargo bench --bench containers --all-features`, the library
alone (open, list, each node's metadata).
"""

import os
import subprocess
import sys
import time

import blosc2
import numpy as np

path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/b2nd-meta-bundle.b2z"
nodes = int(sys.argv[2]) if len(sys.argv) > 2 else 1000

if not os.path.exists(path):
    rng = np.random.default_rng(1)
    with blosc2.DictStore(path, mode="w") as ds:
        for i in range(nodes):
            ds[f"/n{i:04d}"] = blosc2.asarray(rng.integers(0, 2**62, 2**17, dtype=np.int64))
size = os.path.getsize(path)


def python_list():
    store = blosc2.open(path, mode="r")
    out = []
    for k in store.keys():
        node = store[k]
        out.append((k, node.shape, node.dtype))
    store.close()
    return out


def ours():
    subprocess.run(["target/release/b2nd-meta", "show", path], check=True,
                   stdout=subprocess.DEVNULL)


def best(f, n=5):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


assert len(python_list()) == nodes
subprocess.run(["cargo", "build", "--release", "--features", "cli", "-q"], check=True)
tp = best(python_list)
to = best(ours)
print(f"{path}: {nodes} nodes, {size / 2**20:.0f} MiB")
print(f"python-blosc2 {blosc2.__version__}: open + shape/dtype of every node: {tp * 1e3:.1f} ms")
print(f"b2nd-meta show (all metadata as JSON): {to * 1e3:.1f} ms ({tp / to:.1f}x faster)")
