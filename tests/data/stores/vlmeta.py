#!/usr/bin/env python3
"""Stores python-blosc2 4.14.1 made with vlmeta (attributes) on their nodes and, for a
TreeStore, on the store (`tstore.vlmeta`, kept in the SChunk at `/__vlmeta__`), for
tests/containers/store_vlmeta.rs.

Usage (from the repository root):

    $B2ND_VENV_BLOSC2_4_14_1/bin/python tests/data/stores/vlmeta.py target/debug/b2nd-meta

writes `vlmeta/` (a TreeStore directory and zip, a DictStore zip whose node `/small`
is embedded in `embed.b2e` by a threshold, an EmbedStore) and `vlmeta/views.json`,
python's view of each: per node its vlmeta, and the TreeStore's own. Then `vlmeta/ours/`:
copies our CLI changed (`set-vlmeta --key KEY ... ours '{"n": 1}'` and `del-vlmeta
--key KEY` of the node's first name, on every node; `--key /` on a TreeStore, `ours`
set and `count` deleted, and on an EmbedStore, `ours` set), with python's view of
each in `views.json` under `"ours"`.

    vlmeta.py --view PATH...     python's view of each store, a JSON list
    vlmeta.py --write PATH       python's turn: `py2` = 2 set on every node (and on a
                                 TreeStore), `first` deleted from the store's vlmeta

(the Rust test runs these on the stores our library changed, when the venv exists).
"""

import json
import os
import shutil
import subprocess
import sys

import blosc2
import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vlmeta")


def node(values, **vlmeta):
    arr = blosc2.asarray(values)
    for k, v in vlmeta.items():
        arr.vlmeta[k] = v
    return arr


def view(path):
    store = blosc2.open(path, mode="r")
    out = {"class": type(store).__name__, "nodes": {}}
    for key in sorted(store.keys()):
        value = store[key]
        if isinstance(value, blosc2.NDArray):
            out["nodes"][key] = {k: value.vlmeta[k] for k in value.vlmeta}
    if isinstance(store, blosc2.TreeStore):
        out["store"] = store.vlmeta[:]
    return out


def write(path):
    store = blosc2.open(path, mode="a")
    is_tree = isinstance(store, blosc2.TreeStore)
    for key in sorted(store.keys()):
        value = store[key]
        if isinstance(value, blosc2.NDArray):
            value.vlmeta["py2"] = 2
            if isinstance(store, (blosc2.EmbedStore,)) or key in getattr(store, "_estore", {}):
                # An embedded node is a copy: put it back, as python users must.
                if isinstance(store, blosc2.EmbedStore):
                    del store[key]
                store[key] = value
    if is_tree:
        store.vlmeta["py2"] = 2
        del store.vlmeta["first"]
    if hasattr(store, "close"):
        store.close()


def ours(cli, names):
    """Copies of the stores changed by our CLI, and python's view of each."""
    out = os.path.join(HERE, "ours")
    os.makedirs(out)
    views = {}
    for name in names:
        src, dst = os.path.join(HERE, name), os.path.join(out, name)
        (shutil.copytree if os.path.isdir(src) else shutil.copyfile)(src, dst)
        before = view(dst)
        steps = []
        for key, vlmeta in before["nodes"].items():
            steps.append(["set-vlmeta", "--key", key, dst, "ours", '{"n": 1}'])
            steps.append(["del-vlmeta", "--key", key, dst, sorted(vlmeta)[0]])
        if before["class"] == "TreeStore":
            steps.append(["set-vlmeta", "--key", "/", dst, "ours", '{"n": 1}'])
            steps.append(["del-vlmeta", "--key", "/", dst, "count"])
        if before["class"] == "EmbedStore":
            steps.append(["set-vlmeta", "--key", "/", dst, "ours", '{"n": 1}'])
        for step in steps:
            subprocess.run([cli, *step], check=True)
        views[name] = view(dst)
    return views


def make(cli):
    shutil.rmtree(HERE, ignore_errors=True)
    os.makedirs(HERE)
    for name in ["tree.b2d", "tree.b2z"]:
        with blosc2.TreeStore(os.path.join(HERE, name), mode="w") as t:
            t["/g/a"] = node(np.arange(10, dtype="<i4"), units="m", scale=2.5)
            t["/b"] = node(np.ones((3, 4)), note="plain")
            t.vlmeta["first"] = "python"
            t.vlmeta["count"] = 3
    with blosc2.DictStore(os.path.join(HERE, "dict.b2z"), mode="w", threshold=100) as d:
        d["/small"] = node(np.arange(4, dtype="<i2"), units="s")
        d["/big"] = node(np.arange(200, dtype="<i8"), units="kg")
    with blosc2.EmbedStore(os.path.join(HERE, "nodes.b2e"), mode="w") as e:
        e["/a"] = node(np.arange(6, dtype="<u1"), units="px")
        e["/b"] = node(np.zeros(3), tags=["x", "y"])
    names = sorted(os.listdir(HERE))
    views = {name: view(os.path.join(HERE, name)) for name in names}
    views["python-blosc2"] = blosc2.__version__
    views["ours"] = ours(cli, names)
    with open(os.path.join(HERE, "views.json"), "w") as f:
        json.dump(views, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--view"]:
        json.dump([view(p) for p in sys.argv[2:]], sys.stdout, sort_keys=True)
    elif sys.argv[1:2] == ["--write"]:
        write(sys.argv[2])
    else:
        make(os.path.abspath(sys.argv[1]))
