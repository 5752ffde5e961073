"""Which filter pipelines python-blosc2 4.14.1 (C-Blosc2 3.3.5) reads back exactly from
the files b2nd-meta writes.

Every pipeline of 1 to 3 filters from shuffle, bitshuffle, delta and bytedelta (slot 0
first) on int8/16/32/64 arrays of 200x200 in chunks of 100x200 and blocks of 10x200:
written by `b2nd-meta import` with the pipeline check off
(B2ND_META_UNCHECKED_PIPELINES=1, honoured with the repo-tests feature only), then read
by python-blosc2 with 1 and with 4 decompression threads, 4 times each with new random
values. `exact` is true when every read gave the input back; `ours` when b2nd-meta's own
export did. tests/array_write/pipelines.rs holds the crate's refusals against it.

Run from the repository with the venv .ci/references installs:
    cargo build --features cli,repo-tests
    ~/.cache/b2nd-meta/venvs/blosc2-4.14.1/bin/python tests/data/pipelines/generate.py
"""
import itertools
import json
import os
import subprocess
import tempfile

import blosc2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "..", "..", "..", "target", "debug", "b2nd-meta")
FILTERS = ["shuffle", "bitshuffle", "delta", "bytedelta"]
DTYPES = ["i1", "i2", "i4", "i8"]


def verdict(combo, dtype, rng, tmp):
    npy, frame, back = (os.path.join(tmp, n) for n in ("x.npy", "x.b2nd", "y.npy"))
    env = dict(os.environ, B2ND_META_UNCHECKED_PIPELINES="1")
    exact = ours = True
    for _ in range(4):
        x = rng.integers(0, 1000, 40000).astype(dtype).reshape(200, 200)
        np.save(npy, x)
        args = [BIN, "import", npy, frame, "--force", "--chunks", "100,200", "--blocks", "10,200"]
        for f in combo:
            args += ["--filter", f]
        subprocess.run(args, env=env, check=True)
        for threads in (1, 4):
            if not np.array_equal(blosc2.open(frame, dparams=dict(nthreads=threads))[:], x):
                exact = False
        subprocess.run([BIN, "export", frame, "-o", back, "--force"], check=True)
        if not np.array_equal(np.load(back), x):
            ours = False
    return exact, ours


def main():
    assert blosc2.__version__ == "4.14.1", blosc2.__version__
    rng = np.random.default_rng(44)
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1, 2, 3):
            for combo in itertools.product(FILTERS, repeat=n):
                for dtype in DTYPES:
                    exact, ours = verdict(combo, dtype, rng, tmp)
                    cases.append({"filters": list(combo), "dtype": "<" + dtype, "exact": exact, "ours": ours})
    with open(os.path.join(HERE, "pipelines.json"), "w") as f:
        json.dump({"producer": "b2nd-meta, read by python-blosc2 " + blosc2.__version__, "cases": cases}, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
