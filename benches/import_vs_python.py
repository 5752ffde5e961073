"""`b2nd-meta import` (the whole process) against python-blosc2 4.14.1 in-process
(np.load + blosc2.asarray to a file, its default threads) on 256 MB .npy inputs: a
float64 ramp with noise and an int32 counter, each case with the same codec, level and
filter. Prints, per case, the medians of RUNS runs of each (alternating) of the wall time and
of the CPU time (all threads; python's of the timed part, ours of the whole process),
their ratios (ours / python's), and both files' sizes. The machine is shared: medians
of several runs, and the CPU times, which other processes disturb less.

    python3 benches/import_vs_python.py [RUNS]    # from the repository's root

It builds the binary (cargo build --release --features cli) and writes the inputs and
outputs under /tmp/b2nd-meta-import-bench (about 1.5 GB), removed at the end.
"""

import json
import os
import resource
import shutil
import subprocess
import sys
import time

PYTHON = os.environ.get("B2ND_PYTHON", "/work/venvs/blosc2-4.14.1/bin/python")
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BIN = os.path.join(ROOT, "target", "release", "b2nd-meta")
TMP = "/tmp/b2nd-meta-import-bench"
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5

CASES = [  # (name, codec, clevel, filter)
    ("zstd 5 + shuffle", "zstd", 5, "shuffle"),
    ("zstd 1 + shuffle", "zstd", 1, "shuffle"),
    ("lz4 5 + shuffle", "lz4", 5, "shuffle"),
    ("zstd 1 + bitshuffle", "zstd", 1, "bitshuffle"),
    ("blosclz 5 + shuffle", "blosclz", 5, "shuffle"),
]

MAKE = r'''
import numpy as np, sys
n = 256 * 2**20
rng = np.random.default_rng(0)
ramp = np.linspace(0, 1000, n // 8) + rng.normal(0, 1e-3, n // 8)
np.save(sys.argv[1] + "/f64_ramp.npy", ramp)
np.save(sys.argv[1] + "/i32_counter.npy", np.arange(n // 4, dtype=np.int32))
'''

# One python-blosc2 run: seconds for np.load + blosc2.asarray, and the file's size.
PY = r'''
import os, sys, time
import numpy as np, blosc2
src, dst, codec, clevel, filt = sys.argv[1:6]
cparams = blosc2.CParams(codec=blosc2.Codec[codec.upper()], clevel=int(clevel),
                         filters=[blosc2.Filter[filt.upper()]], filters_meta=[0])
t, c = time.perf_counter(), time.process_time()
a = np.load(src)
b = blosc2.asarray(a, urlpath=dst, mode="w", cparams=cparams)
del b
print(time.perf_counter() - t, time.process_time() - c, os.path.getsize(dst))
'''


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def ours(src, dst, codec, clevel, filt):
    t, c = time.perf_counter(), cpu_of_children()
    subprocess.run([BIN, "import", src, dst, "--force", "--codec", codec, "--clevel",
                    str(clevel), "--filter", filt], check=True)
    return time.perf_counter() - t, cpu_of_children() - c, os.path.getsize(dst)


def python(src, dst, codec, clevel, filt):
    out = subprocess.run([PYTHON, "-c", PY, src, dst, codec, str(clevel), filt],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2])


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main():
    subprocess.run(["cargo", "build", "--release", "--features", "cli", "--bin", "b2nd-meta"],
                   cwd=ROOT, check=True)
    os.makedirs(TMP, exist_ok=True)
    subprocess.run([PYTHON, "-c", MAKE, TMP], check=True)
    rows = []
    try:
        for data in ("f64_ramp", "i32_counter"):
            src = os.path.join(TMP, data + ".npy")
            for name, codec, clevel, filt in CASES:
                times = {"ours": [], "python": []}
                cpus = {"ours": [], "python": []}
                sizes = {}
                for _ in range(RUNS):
                    for who, f in (("python", python), ("ours", ours)):
                        dst = os.path.join(TMP, f"{who}.b2nd")
                        t, c, size = f(src, dst, codec, clevel, filt)
                        times[who].append(t)
                        cpus[who].append(c)
                        sizes[who] = size
                o, p = median(times["ours"]), median(times["python"])
                oc, pc = median(cpus["ours"]), median(cpus["python"])
                rows.append({"data": data, "case": name, "ours_s": round(o, 3),
                             "python_s": round(p, 3), "time_ratio": round(o / p, 2),
                             "ours_cpu_s": round(oc, 3), "python_cpu_s": round(pc, 3),
                             "cpu_ratio": round(oc / pc, 2),
                             "ours_bytes": sizes["ours"], "python_bytes": sizes["python"],
                             "size_ratio": round(sizes["ours"] / sizes["python"], 4)})
                r = rows[-1]
                print(f"{data:12} {name:20} wall {o:6.3f} / {p:6.3f} s x{r['time_ratio']:<5}"
                      f" cpu {oc:6.3f} / {pc:6.3f} s x{r['cpu_ratio']:<5}"
                      f" size {r['ours_bytes']:>10} / {r['python_bytes']:>10} = {r['size_ratio']}",
                      flush=True)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
