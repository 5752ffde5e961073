#!/usr/bin/env python3
"""Our writes under C-Blosc2 3.3's lock protocol, against python-blosc2 4.14.1.

Usage (from the repository root):

    /work/venvs/blosc2-4.14.1/bin/python tests/data/vlmeta_write/lock_check.py \
        target/debug/b2nd-meta > tests/data/vlmeta_write/lock_check.json

(tests/cli/vlmeta_lock.rs checks the committed result, and runs this script again when
the venv exists.) For a contiguous and a sparse frame made with locking=True:

- blocks: while a python handle holds `holding_lock()`, our `set-vlmeta` (the sidecar
  exists, so we take part) has not finished after 0.5 s; it finishes, successfully,
  once python releases the lock;
- refresh: a python handle opened with locking=True before our `set-vlmeta` and
  `set-shape` sees the new value and the new shape at its next locked access
  (`refresh()`); set-shape leaves frame_len as it was, so only the generation counter
  we bump tells python the frame changed: without it (sidecar moved away during our
  write) python's refresh() sees nothing (the control case);
- no data: for a frame without data (0x10, nbytes 0), which our set-vlmeta replaces by a
  new file renamed over it, the same blocking; then python handles opened with
  locking=True before our write, a reader and a writer, follow the path to the new file
  at their next locked access: the reader sees our value after refresh(), the writer's
  own vlmeta change and resize land in the new file beside ours (no lost update).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import blosc2
import numpy as np

CLI = os.path.abspath(sys.argv[1])


def make(path, contiguous):
    data = np.arange(60, dtype=np.int32).reshape(6, 10)
    a = blosc2.asarray(data, chunks=(3, 10), blocks=(3, 5), urlpath=path, mode="w",
                       contiguous=contiguous, locking=True)
    a.schunk.vlmeta["k"] = "v"
    del a


def seq(path, contiguous):
    lock = path + (".b2lock" if contiguous else "/.b2lock")
    with open(lock, "rb") as f:
        f.seek(8)
        b = f.read(8)
    return int.from_bytes(b, sys.byteorder) if len(b) == 8 else 0


def check(tmp, contiguous):
    path = os.path.join(tmp, "c.b2nd" if contiguous else "s.b2nd")
    make(path, contiguous)
    out = {"sidecar_exists": os.path.exists(path + (".b2lock" if contiguous else "/.b2lock"))}
    # blocks
    h = blosc2.open(path, mode="a", locking=True)
    before = seq(path, contiguous)
    with h.holding_lock():
        p = subprocess.Popen([CLI, "set-vlmeta", path, "k", '"held"'],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(0.5)
        out["blocked_while_held"] = p.poll() is None
    rc = p.wait(timeout=10)
    out["finished_after_release"] = rc == 0
    out["generation_bumped"] = seq(path, contiguous) > before
    del h
    # refresh
    r = blosc2.open(path, mode="r", locking=True)
    out["before"] = {"k": r.schunk.vlmeta["k"], "shape": list(r.shape)}
    header = path if contiguous else os.path.join(path, "chunks.b2frame")
    rc1 = subprocess.run([CLI, "set-vlmeta", path, "k", '"new"']).returncode
    size = os.path.getsize(header)
    rc2 = subprocess.run([CLI, "set-shape", path, "5,10"]).returncode
    out["set_shape_left_the_length"] = os.path.getsize(header) == size
    out["our_writes_ok"] = rc1 == 0 and rc2 == 0
    r.refresh()
    out["after_refresh"] = {"k": r.schunk.vlmeta["k"], "shape": list(r.shape)}
    out["data_after_refresh_ok"] = bool(
        np.array_equal(r[:], np.arange(50, dtype=np.int32).reshape(5, 10)))
    out["ok"] = (out["sidecar_exists"] and out["blocked_while_held"]
                 and out["finished_after_release"] and out["generation_bumped"]
                 and out["our_writes_ok"] and out["set_shape_left_the_length"] and out["before"] == {"k": "held", "shape": [6, 10]}
                 and out["after_refresh"] == {"k": "new", "shape": [5, 10]}
                 and out["data_after_refresh_ok"])
    return out


def make_no_data(path, contiguous):
    data = np.arange(30, dtype=np.int32).reshape(3, 10)
    a = blosc2.asarray(data, chunks=(3, 10), blocks=(3, 5), urlpath=path, mode="w",
                       contiguous=contiguous, locking=True)
    a.resize((0, 10))
    a.schunk.vlmeta["k"] = "v"
    del a


def check_no_data(tmp, contiguous):
    path = os.path.join(tmp, "e.b2nd" if contiguous else "es.b2nd")
    make_no_data(path, contiguous)
    header = path if contiguous else os.path.join(path, "chunks.b2frame")
    out = {"no_data": blosc2.open(path).schunk.nbytes == 0}
    # blocks
    h = blosc2.open(path, mode="a", locking=True)
    before = seq(path, contiguous)
    with h.holding_lock():
        p = subprocess.Popen([CLI, "set-vlmeta", path, "k", '"held"'],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(0.5)
        out["blocked_while_held"] = p.poll() is None
    rc = p.wait(timeout=10)
    out["finished_after_release"] = rc == 0
    out["generation_bumped"] = seq(path, contiguous) > before
    del h
    # handles opened before our write follow the path to the new file
    r = blosc2.open(path, mode="r", locking=True)
    w = blosc2.open(path, mode="a", locking=True)
    out["before"] = {"k": r.schunk.vlmeta["k"], "shape": list(r.shape)}
    inode = os.stat(header).st_ino
    rc = subprocess.run([CLI, "set-vlmeta", path, "ours", '"new"']).returncode
    out["our_write_ok"] = rc == 0
    out["replaced"] = os.stat(header).st_ino != inode
    r.refresh()
    out["reader_after_refresh"] = {"ours": r.schunk.vlmeta["ours"], "shape": list(r.shape)}
    w.schunk.vlmeta["theirs"] = "python"
    w.resize((3, 10))
    w[0:3] = 7
    del w, r
    f = blosc2.open(path)
    out["after_python"] = {k: f.schunk.vlmeta[k] for k in ["k", "ours", "theirs"]
                           if k in f.schunk.vlmeta}
    out["data_ok"] = bool(np.array_equal(f[:], np.full((3, 10), 7, dtype=np.int32)))
    out["ok"] = (out["no_data"] and out["blocked_while_held"]
                 and out["finished_after_release"] and out["generation_bumped"]
                 and out["our_write_ok"] and out["replaced"]
                 and out["before"] == {"k": "held", "shape": [0, 10]}
                 and out["reader_after_refresh"] == {"ours": "new", "shape": [0, 10]}
                 and out["after_python"] == {"k": "held", "ours": "new", "theirs": "python"}
                 and out["data_ok"])
    return out


def control(tmp):
    """The same set-shape with the sidecar moved away (so we do not take part and
    bump nothing): python's refresh() does not see it. The counter is what tells."""
    path = os.path.join(tmp, "control.b2nd")
    make(path, True)
    r = blosc2.open(path, mode="r", locking=True)
    os.rename(path + ".b2lock", path + ".away")
    rc = subprocess.run([CLI, "set-shape", path, "5,10"]).returncode
    os.rename(path + ".away", path + ".b2lock")
    refreshed = r.refresh()
    return {"our_write_ok": rc == 0, "refreshed": refreshed, "shape": list(r.shape),
            "ok": rc == 0 and not refreshed and list(r.shape) == [6, 10]}


def main():
    tmp = tempfile.mkdtemp()
    try:
        result = {"python_blosc2": blosc2.__version__,
                  "c_blosc2": blosc2.blosc2_ext.VERSION_STRING if hasattr(blosc2.blosc2_ext, "VERSION_STRING") else None,
                  "contiguous": check(tmp, True), "sparse": check(tmp, False),
                  "no_data": check_no_data(tmp, True),
                  "no_data_sparse": check_no_data(tmp, False),
                  "without_the_bump_python_misses_the_change": control(tmp)}
    finally:
        shutil.rmtree(tmp)
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")


main()
