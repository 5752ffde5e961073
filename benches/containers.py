#!/usr/bin/env python3
"""Listing a 1,000-node .b2z of 1 MiB arrays: python-blosc2 against b2nd-meta.

Usage (from the repository root, with the python-blosc2 4.14.1 venv):

    /work/venvs/blosc2-4.14.1/bin/python benches/containers.py [PATH] [NODES]

Writes PATH (default /tmp/b2nd-meta-bundle.b2z; kept, reused when it exists) with
python-blosc2: a DictStore of NODES (default 1000) int64 arrays of 1 MiB of noise, all
external (threshold 0), zipped STORED. Then, in five interleaved rounds, best time kept:
- python: `blosc2.open(PATH)`, then every node's shape and dtype;
- ours: `examples/list_store.rs` (open, list, each node's header: shape and dtype),
  timed inside its process;
- `target/release/b2nd-meta show PATH` (process start, record + one JSON line per node
  with its header, metalayers, vlmeta: more than python reads), output discarded.
`B2ND_BUNDLE=PATH cargo bench --bench containers --all-features` runs the library's
listings under criterion.
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


def best_python(n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        python_list()
        times.append(time.perf_counter() - t)
    return min(times)


def best_ours(n):
    """Best of n listings inside one process (examples/list_store.rs), in seconds."""
    run = subprocess.run(["target/release/examples/list_store", path, str(n)], check=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return float(run.stderr.split(": ")[1].split(" ms")[0]) / 1e3


def best_show(n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run(["target/release/b2nd-meta", "show", path], check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return min(times)


assert len(python_list()) == nodes
subprocess.run(["cargo", "build", "--release", "--features", "cli", "--example", "list_store",
                "--bin", "b2nd-meta", "-q"], check=True)
# Interleaved rounds, so that a busy machine slows both alike; the best of each kept.
tp = to = ts = float("inf")
for _ in range(5):
    tp = min(tp, best_python(3))
    to = min(to, best_ours(3))
    ts = min(ts, best_show(3))
print(f"{path}: {nodes} nodes, {size / 2**20:.0f} MiB")
print(f"python-blosc2 {blosc2.__version__}: open + shape and dtype of every node: {tp * 1e3:.1f} ms")
print(f"b2nd-meta (examples/list_store: open + shape and dtype): {to * 1e3:.2f} ms, {tp / to:.1f}x faster")
print(f"b2nd-meta show (process start + every node's full report as JSON): {ts * 1e3:.1f} ms, {tp / ts:.1f}x faster")
