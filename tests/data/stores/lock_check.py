#!/usr/bin/env python3
"""Our store writes under the lock python-blosc2 4.14.1 takes for stores.

Usage (from the repository root, after `cargo build --features cli`):

    $B2ND_VENV_BLOSC2_4_14_1/bin/python tests/data/stores/lock_check.py \
        target/debug/b2nd-meta > tests/data/stores/lock_check.json

(tests/containers/write.rs checks the committed result, and runs this script again
when the venv exists.) python-blosc2 locks a store only when asked (`locking=True`, or
BLOSC_LOCKING): a `.b2d` DictStore through the frame lock of its `embed.b2e`
(`embed.b2e.b2lock`) held for a whole mutation, an EmbedStore through its own
(`x.b2e.b2lock`); a `.b2z` never. For a DictStore directory and an EmbedStore python
made with locking:

- blocks: while a python handle holds the lock (`holding_lock()`), our `store put`
  (the sidecar exists, so we take part) has not finished after 0.5 s; it finishes once
  python releases the lock;
- follows: a python handle opened with locking before our `store put` and `store rm`
  sees the key we put, reads its values, and no longer lists the key we removed, at its
  next access (it re-syncs when the generation counter, and for a DictStore the
  `dstore_tick` we bump, say the store changed);
- python writes after ours, through that same handle, land beside ours.
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


def put(store, key, src):
    return subprocess.Popen([CLI, "store", "put", store, key, src],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def check(tmp, kind):
    src = os.path.join(tmp, "in.b2nd")
    blosc2.asarray(np.arange(12, dtype="<i4"), urlpath=src, mode="w")
    if kind == "dict_dir":
        path = os.path.join(tmp, "s.b2d")
        sidecar = os.path.join(path, "embed.b2e.b2lock")
        opener = lambda mode: blosc2.DictStore(path, mode=mode, locking=True)
        schunk = lambda h: h._estore._backing_schunk
    else:
        path = os.path.join(tmp, "e.b2e")
        sidecar = path + ".b2lock"
        opener = lambda mode: blosc2.EmbedStore(
            path, mode=mode,
            storage=blosc2.Storage(contiguous=True, urlpath=path, mode=mode, locking=True))
        schunk = lambda h: h._backing_schunk
    store = opener("w")
    store["/py"] = np.arange(5, dtype="<i8")
    if kind == "dict_dir":
        store.close()
    del store
    out = {"sidecar_exists": os.path.exists(sidecar)}
    # blocks
    held = opener("a")
    with schunk(held).holding_lock():
        p = put(path, "/held", src)
        time.sleep(0.5)
        out["blocked_while_held"] = p.poll() is None
    out["finished_after_release"] = p.wait(timeout=20) == 0
    # follows
    reader = opener("a")
    out["before"] = sorted(reader.keys())
    ok = put(path, "/ours", src).wait(timeout=20) == 0
    ok = ok and subprocess.run([CLI, "store", "rm", path, "/py"]).returncode == 0
    out["our_writes_ok"] = ok
    out["after"] = sorted(reader.keys())
    out["ours_read"] = bool(np.array_equal(reader["/ours"][:], np.arange(12, dtype="<i4")))
    # python writes after ours, through the same handle
    reader["/theirs"] = np.arange(3, dtype="<i2")
    if kind == "dict_dir":
        reader.close()
    del reader, held
    final = blosc2.open(path, mode="r")
    out["final"] = sorted(final.keys())
    out["ok"] = (out["sidecar_exists"] and out["blocked_while_held"]
                 and out["finished_after_release"] and out["our_writes_ok"]
                 and out["before"] == ["/held", "/py"]
                 and out["after"] == ["/held", "/ours"] and out["ours_read"]
                 and out["final"] == ["/held", "/ours", "/theirs"])
    return out


def main():
    tmp = tempfile.mkdtemp()
    try:
        result = {"python_blosc2": blosc2.__version__}
        for kind in ["dict_dir", "embed_file"]:
            os.makedirs(os.path.join(tmp, kind))
            result[kind] = check(os.path.join(tmp, kind), kind)
    finally:
        shutil.rmtree(tmp)
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


main()
