"""Editing in place: python-blosc2 4.14.1 against `b2nd-meta write/append/resize`, in one run.

    python benches/edit_vs_python.py make DIR           # the arrays (about 0.6 GB) and inputs
    python benches/edit_vs_python.py run DIR BIN [--rounds 5] [--syncs 1] [--only WORDS]

`make` writes a 256 MiB float64 array (512, 256, 256), a ramp with noise, three times
with python-blosc2 4.14.1 (zstd 5 + shuffle, its defaults): with python's default
chunks and blocks for the shape (a contiguous frame), with small chunks (16, 32, 32) and
python's blocks for them (a contiguous frame, and the same as a sparse frame); and the
`.npy` inputs of the cases. Nothing of it is committed.

`run` times each case on each array: python's in-process `blosc2.open(path, mode="a")`
then the edit (`arr[SPEC] = values`, `arr.resize(shape)`, an append as
`arr.resize(...)` then `arr[n:] = rows`, python's own `append` being for 1-D arrays; its
`blosc2.nthreads` threads) on a fresh copy of the array, and the whole `BIN write PATH
--slice SPEC IN.npy`, `BIN append PATH IN.npy`, `BIN resize PATH SHAPE` process on
another fresh copy (both copies synced to disk first), interleaved, in each of
`--rounds` rounds; it prints per case the medians, ours / python (python's floored at
5 ms: ours starts a process), and the bytes each wrote: a contiguous frame's growth, a
sparse frame's new or rewritten files (chunk files and `chunks.b2frame`). The bound on
ours is read from the edited file itself: the compressed size of the chunks the edit
touches (in the new frame's index; special chunks take none), plus the offsets chunk and
the trailer (contiguous), plus `chunks.b2frame` whole (sparse: header, offsets and trailer
in one file). Our fsyncs are part of its crash safety; with `--syncs 1` one more run per
case under `strace -f -w -c` reports the time they took apart. Before timing, each case's
result is checked: python reads our file and python's equal. `--only "default,slab"`
runs the cases whose "array: case" holds every word.

Run it with python-blosc2 4.14.1's venv (`bash .ci/references` installs it in
~/.cache/b2nd-meta/venvs/blosc2-4.14.1) and a release build
(`cargo build --release --features cli`).
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import blosc2
import numpy as np

SHAPE = (512, 256, 256)
SMALL = (16, 32, 32)
ARRAYS = {
    # name: (chunks or None for python's default, contiguous)
    "default chunks": (None, True),
    "small chunks": (SMALL, True),
    "small chunks, sparse": (SMALL, False),
}
# Ours starts a process: python's time counts as at least this much.
FLOOR = 0.005


def cases(chunks):
    """(name, kind, argument, python's index or new shape) for an array of `chunks`."""
    c0 = chunks[0]
    return [
        ("box 10^3", "write", "200:210, 100:110, 100:110",
         (slice(200, 210), slice(100, 110), slice(100, 110))),
        ("plane", "write", "300", (300,)),
        ("slab, chunk-aligned", "write", f"{2 * c0}:{3 * c0}", (slice(2 * c0, 3 * c0),)),
        ("append 10 rows", "append", None, 10),
        ("grow to 600 rows", "resize", "600,256,256", (600, 256, 256)),
        ("shrink to 500 rows", "resize", "500,256,256", (500, 256, 256)),
    ]


def base_path(folder, name):
    return os.path.join(folder, name.replace(", ", "-").replace(" ", "-") + ".b2nd")


def values_for(index):
    """The values a write case puts: a ramp of the selection's shape."""
    shape = np.empty(SHAPE, dtype=np.uint8)[index].shape
    return (np.arange(int(np.prod(shape)), dtype=np.float64) * -0.5).reshape(shape)


def rows(n):
    return np.full((n,) + SHAPE[1:], 7.25)


def input_path(folder, case):
    name = "".join(c if c.isalnum() else "-" for c in case)
    return os.path.join(folder, "in-" + name + ".npy")


def make(folder):
    os.makedirs(folder, exist_ok=True)
    n = int(np.prod(SHAPE))
    rng = np.random.default_rng(12345)
    data = (np.arange(n) * 0.25 + rng.random(n) * 1e-3).reshape(SHAPE)
    for name, (chunks, contiguous) in ARRAYS.items():
        path = base_path(folder, name)
        kw = {"chunks": chunks} if chunks else {}
        arr = blosc2.asarray(data, urlpath=path, mode="w", contiguous=contiguous, **kw)
        print(f"{path}: chunks {arr.chunks}, blocks {arr.blocks}, "
              f"{arr.schunk.nchunks} chunks, {arr.schunk.cbytes / 2**20:.1f} MiB stored")
        for case, kind, _, index in cases(arr.chunks):
            if kind == "write":
                np.save(input_path(folder, case + str(arr.chunks[0])), values_for(index))
    np.save(os.path.join(folder, "in-rows.npy"), rows(10))


# --- the edits ---------------------------------------------------------------------------

def python_edit(path, kind, index):
    """Python's open and edit, in process: (seconds with the open, seconds of the edit)."""
    started = time.perf_counter()
    arr = blosc2.open(path, mode="a")
    opened = time.perf_counter()
    if kind == "write":
        arr[index] = values_for(index)
    elif kind == "append":
        n = arr.shape[0]
        arr.resize((n + index,) + arr.shape[1:])
        arr[n:] = rows(index)
    else:
        arr.resize(index)
    del arr
    done = time.perf_counter()
    return done - started, done - opened


def our_command(binary, folder, path, kind, spec, chunk0, case):
    if kind == "write":
        return [binary, "write", path, "--slice", spec, input_path(folder, case + str(chunk0))]
    if kind == "append":
        return [binary, "append", path, os.path.join(folder, "in-rows.npy")]
    return [binary, "resize", path, spec]


def ours(command):
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - started


def fsync_seconds(command):
    """Seconds our process spent in fsync/fdatasync (strace's wall time per call)."""
    out = subprocess.run(["strace", "-f", "-w", "-c", "-e", "trace=fsync,fdatasync"] + command,
                         stderr=subprocess.PIPE, text=True, check=True).stderr
    total = 0.0
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[-1] in ("fsync", "fdatasync"):
            total += float(parts[1])
    return total


# --- bytes --------------------------------------------------------------------------------

def snapshot(path):
    """What a frame is on disk: its size (a file), or each file's identity (a directory)."""
    if os.path.isfile(path):
        return os.path.getsize(path)
    out = {}
    for name in os.listdir(path):
        st = os.stat(os.path.join(path, name))
        out[name] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return out


def bytes_written(before, path):
    """A file's growth; a directory's new or rewritten files' sizes."""
    after = snapshot(path)
    if isinstance(before, int):
        return after - before
    return sum(a[1] for name, a in after.items() if before.get(name) != a)


def be(raw, at, n, signed=False):
    return int.from_bytes(raw[at:at + n], "big", signed=signed)


def frame_parts(path):
    """(header file bytes, header_len, offsets (int64), offsets chunk's length)."""
    header_file = path if os.path.isfile(path) else os.path.join(path, "chunks.b2frame")
    with open(header_file, "rb") as f:
        raw = f.read() if header_file != path else f.read(4096)
        header_len = be(raw, 11, 4)
        frame_len = be(raw, 16, 8)
        cbytes = be(raw, 39, 8, signed=True)
        at = header_len + (cbytes if header_file == path else 0)
        f.seek(at)
        head = f.read(32)
        offsets_len = int.from_bytes(head[12:16], "little")
        f.seek(at)
        offsets_chunk = f.read(offsets_len)
    offsets = np.frombuffer(blosc2.decompress(offsets_chunk), dtype="<i8")
    return header_file, header_len, frame_len, offsets, offsets_len, at


def chunk_len(path, header_len, offset):
    """The stored bytes of the chunk at `offset` (a special chunk: none)."""
    if offset < 0:
        return 0
    if os.path.isfile(path):
        with open(path, "rb") as f:
            f.seek(header_len + offset)
            return int.from_bytes(f.read(16)[12:16], "little")
    return os.path.getsize(os.path.join(path, f"{offset:08X}.chunk"))


def touched(kind, index, old_shape, new_shape, chunks):
    """The chunk numbers (in the new grid) an edit touches."""
    grid = [-(-n // c) for n, c in zip(new_shape, chunks)]
    ranges = []
    if kind == "write":
        full = tuple(index) + (slice(None),) * (len(new_shape) - len(index))
        for d, ix in enumerate(full):
            if isinstance(ix, int):
                ranges.append(range(ix // chunks[d], ix // chunks[d] + 1))
            else:
                start, stop, _ = ix.indices(new_shape[d])
                ranges.append(range(start // chunks[d], (stop - 1) // chunks[d] + 1))
    else:
        lo, hi = min(old_shape[0], new_shape[0]), max(old_shape[0], new_shape[0])
        ranges.append(range(lo // chunks[0], min(-(-hi // chunks[0]), grid[0])))
        ranges += [range(g) for g in grid[1:]]
    numbers = [0]
    for d, r in enumerate(ranges):
        numbers = [n * grid[d] + i for n in numbers for i in r]
    return numbers


def bound(path, kind, index, old_shape, chunks):
    arr = blosc2.open(path)
    new_shape = arr.shape
    header_file, header_len, frame_len, offsets, offsets_len, at = frame_parts(path)
    data = sum(chunk_len(path, header_len, int(offsets[n]))
               for n in touched(kind, index, old_shape, new_shape, chunks))
    if header_file == path:
        return data + frame_len - at  # the offsets chunk and the trailer
    return data + os.path.getsize(header_file)  # chunks.b2frame whole


# --- running -------------------------------------------------------------------------------

def fresh_copy(src, dst):
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    elif os.path.exists(dst):
        os.remove(dst)
    if os.path.isdir(src):
        shutil.copytree(src, dst)
    else:
        shutil.copyfile(src, dst)


def fresh_pair(src, work):
    py, us = os.path.join(work, "py.b2nd"), os.path.join(work, "ours.b2nd")
    fresh_copy(src, py)
    fresh_copy(src, us)
    os.sync()  # the copies' dirty pages are not our edit's to flush
    return py, us


def check(py, us):
    a, b = blosc2.open(py), blosc2.open(us)
    if a.shape != b.shape or not np.array_equal(a[...], b[...]):
        sys.exit(f"{us}: ours differs from python's")


def run(folder, binary, rounds, syncs, only=()):
    load = os.getloadavg()
    print(f"python-blosc2 {blosc2.__version__} (C-Blosc2 {blosc2.blosclib_version}), "
          f"blosc2.nthreads = {blosc2.nthreads}; {os.cpu_count()} CPUs; {rounds} rounds; "
          f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    work = tempfile.mkdtemp(dir=folder, prefix="work-")
    figures = {}  # (array, case) -> [(python, python_edit, ours, py_bytes, our_bytes, bound)]
    sync_s = {}
    try:
        for r in range(rounds + 1):  # round 0 checks and is not counted
            print(f"round {r}" + (" (check)" if r == 0 else ""), flush=True)
            for name, (want_chunks, _) in ARRAYS.items():
                src = base_path(folder, name)
                base = blosc2.open(src)
                chunks, shape = base.chunks, base.shape
                del base
                for case, kind, spec, index in cases(chunks):
                    if not all(w in f"{name}: {case}" for w in only):
                        continue
                    py, us = fresh_pair(src, work)
                    command = our_command(binary, folder, us, kind, spec, chunks[0], case)
                    if r == 0:
                        python_edit(py, kind, index)
                        ours(command)
                        check(py, us)
                        if syncs:
                            fresh_pair(src, work)
                            sync_s[(name, case)] = fsync_seconds(command)
                        continue
                    py_before, us_before = snapshot(py), snapshot(us)
                    # Alternate who goes first from round to round.
                    if r % 2:
                        py_s, py_edit = python_edit(py, kind, index)
                        ours_s = ours(command)
                    else:
                        ours_s = ours(command)
                        py_s, py_edit = python_edit(py, kind, index)
                    py_b, us_b = bytes_written(py_before, py), bytes_written(us_before, us)
                    limit = bound(us, kind, index, shape, chunks)
                    figures.setdefault((name, case), []).append(
                        (py_s, py_edit, ours_s, py_b, us_b, limit))
                    print(f"  {name:22} {case:20} python {py_s * 1e3:8.2f} ms "
                          f"(edit {py_edit * 1e3:8.2f})  ours {ours_s * 1e3:8.2f} ms  "
                          f"bytes python {py_b:>10} ours {us_b:>10} bound {limit:>10}",
                          flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load = os.getloadavg()
    print(f"\nload at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    print("| array | case | python (ms) | ours (ms) | ours / python | of ours, fsync (ms) "
          "| bytes written: ours / bound | python's |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for (name, case), rows_ in figures.items():
        py_s = statistics.median(x[0] for x in rows_)
        ours_s = statistics.median(x[2] for x in rows_)
        us_b = max(x[4] for x in rows_)
        limit = min(x[5] for x in rows_)
        py_b = max(x[3] for x in rows_)
        ratio = ours_s / max(py_s, FLOOR)
        fs = sync_s.get((name, case))
        fs = f"{fs * 1e3:.1f}" if fs is not None else "-"
        print(f"| {name} | {case} | {py_s * 1e3:.1f} | {ours_s * 1e3:.1f} | {ratio:.2f} | {fs} "
              f"| {us_b:,} / {limit:,} {'ok' if us_b <= limit else 'OVER'} | {py_b:,} |")


def main(argv):
    if len(argv) >= 2 and argv[0] == "make":
        make(argv[1])
    elif len(argv) >= 3 and argv[0] == "run":
        opts = dict(zip(argv[3::2], argv[4::2]))
        only = [w for w in opts.get("--only", "").split(",") if w]
        run(argv[1], argv[2], int(opts.get("--rounds", 5)), int(opts.get("--syncs", 1)), only)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
