"""Reading array values: python-blosc2 against `b2nd-meta export`, side by side in one run.

    python benches/array_vs_python.py make DIR      # writes the three arrays (768 MiB)
    python benches/array_vs_python.py run DIR BIN [--rounds 3] [--best-of 5]

`make` writes three 256 MiB arrays with python-blosc2's defaults for their shape (chunks,
blocks, clevel 5, its two threads): a float64 ramp with noise (512, 256, 256) with
zstd + shuffle (python's default) and with lz4 + shuffle, and an int32 counter
(512, 512, 256) with zstd + bitshuffle. Nothing of it is committed.

`run` times, for each array and each case (the full array, one plane, a column across
all chunks, a 10x10x10 box, a strided slice), python's in-process
`np.asarray(arr[index])` (the array opened once, `blosc2.nthreads` threads) and the whole
`BIN export PATH --slice SPEC -o -` process, stdout to /dev/null: the best of
`--best-of` calls each, interleaved, in each of `--rounds` rounds; it prints each
round's figures, then per case the median over rounds of both, ours / python (python's
floored at 3 ms: ours starts a process) and our process's peak RSS (/usr/bin/time's
%M, one more run). Before timing, each case's output is checked against python's values.

Run it with python-blosc2 4.14.1's venv (/work/venvs/blosc2-4.14.1/bin/python) and a
release build (`cargo build --release --features cli`).
"""

import io
import os
import statistics
import subprocess
import sys
import time

import blosc2
import numpy as np

ARRAYS = {
    # name: (shape, dtype, cparams beyond python's defaults)
    "zstd_shuffle_f8": ((512, 256, 256), np.float64, {}),
    "lz4_shuffle_f8": ((512, 256, 256), np.float64, {"codec": blosc2.Codec.LZ4}),
    "zstd_bitshuffle_i4": (
        (512, 512, 256),
        np.int32,
        {"filters": [blosc2.Filter.BITSHUFFLE], "filters_meta": [0]},
    ),
}

CASES = [
    # (name, spec as inside python's brackets, python's index)
    ("full", "...", (Ellipsis,)),
    ("plane", "256", (256,)),
    ("column", ":, 100, 100", (slice(None), 100, 100)),
    ("box 10^3", "200:210, 100:110, 100:110", (slice(200, 210), slice(100, 110), slice(100, 110))),
    ("strided", "::3, ::3, ::3", (slice(None, None, 3),) * 3),
]

# Ours starts a process: python's time counts as at least this much.
FLOOR = 0.003


def data(shape, dtype):
    n = int(np.prod(shape))
    if dtype == np.float64:
        rng = np.random.default_rng(12345)
        return (np.arange(n) * 0.25 + rng.random(n) * 1e-3).reshape(shape)
    return np.arange(n, dtype=dtype).reshape(shape)


def make(folder):
    os.makedirs(folder, exist_ok=True)
    for name, (shape, dtype, cparams) in ARRAYS.items():
        path = os.path.join(folder, name + ".b2nd")
        arr = blosc2.asarray(data(shape, dtype), urlpath=path, mode="w", cparams=cparams)
        print(f"{path}: shape {arr.shape}, chunks {arr.chunks}, blocks {arr.blocks}, "
              f"{arr.schunk.cparams.codec.name} {[f.name for f in arr.schunk.cparams.filters]}, "
              f"{arr.schunk.cbytes / 2**20:.1f} MiB stored")


def ours(binary, path, spec):
    """Runs the export once: its wall time in seconds."""
    started = time.perf_counter()
    subprocess.run([binary, "export", path, "--slice", spec, "-o", "-"],
                   stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - started


def peak_rss(binary, path, spec):
    """The export's peak RSS in KiB, as /usr/bin/time reports it: a child of this
    process would count this process's own pages, which it held until its exec."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "export", path, "--slice",
                          spec, "-o", "-"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         check=True).stderr
    return int(out.split()[-1])


def check(binary, arr, path, spec, index):
    out = subprocess.run([binary, "export", path, "--slice", spec, "-o", "-"],
                         stdout=subprocess.PIPE, check=True).stdout
    got = np.load(io.BytesIO(out))
    want = np.asarray(arr[index])
    if got.shape != want.shape or got.dtype != want.dtype or not np.array_equal(got, want):
        sys.exit(f"{path} [{spec}]: ours differs from python's")


def best(f, n):
    return min(f() for _ in range(n))


def run(folder, binary, rounds, best_of):
    print(f"python-blosc2 {blosc2.__version__} (C-Blosc2 {blosc2.blosclib_version}), "
          f"blosc2.nthreads = {blosc2.nthreads}; {os.cpu_count()} CPUs; best of {best_of}, "
          f"{rounds} rounds")
    arrays = {name: blosc2.open(os.path.join(folder, name + ".b2nd")) for name in ARRAYS}
    for name, arr in arrays.items():
        for _, spec, index in CASES:
            check(binary, arr, os.path.join(folder, name + ".b2nd"), spec, index)
    figures = {}  # (array, case) -> [(python, ours, rss)]
    for r in range(rounds):
        print(f"round {r + 1}")
        for name, arr in arrays.items():
            path = os.path.join(folder, name + ".b2nd")
            for case, spec, index in CASES:
                def py():
                    started = time.perf_counter()
                    np.asarray(arr[index])
                    return time.perf_counter() - started
                py_s = best(py, best_of)
                ours_s = best(lambda: ours(binary, path, spec), best_of)
                rss = peak_rss(binary, path, spec)
                figures.setdefault((name, case), []).append((py_s, ours_s, rss))
                print(f"  {name:20} {case:9} python {py_s * 1e3:8.2f} ms  ours {ours_s * 1e3:8.2f} ms"
                      f"  RSS {rss / 1024:6.1f} MiB")
    print()
    print(f"| array | case | python (ms) | ours (ms) | ours / python | our peak RSS (MiB) |")
    print(f"|---|---|---:|---:|---:|---:|")
    for (name, case), rows in figures.items():
        py_s = statistics.median(p for p, _, _ in rows)
        ours_s = statistics.median(o for _, o, _ in rows)
        rss = max(m for _, _, m in rows)
        ratio = ours_s / max(py_s, FLOOR)
        print(f"| {name} | {case} | {py_s * 1e3:.2f} | {ours_s * 1e3:.2f} | {ratio:.2f} "
              f"| {rss / 1024:.1f} |")


def main(argv):
    if len(argv) >= 2 and argv[0] == "make":
        make(argv[1])
    elif len(argv) >= 3 and argv[0] == "run":
        opts = dict(zip(argv[3::2], argv[4::2]))
        run(argv[1], argv[2], int(opts.get("--rounds", 3)), int(opts.get("--best-of", 5)))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
