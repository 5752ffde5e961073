#!/usr/bin/env python3
"""Stores made and changed by our `b2nd-meta store put/rm` and by python-blosc2 4.14.1
in turns, with python's read-only view after every step, for tests/containers/write.rs.

Usage (from the repository root, after `cargo build --features cli`; python-blosc2
4.14.1 and numpy from `bash .ci/references`):

    $B2ND_VENV_BLOSC2_4_14_1/bin/python tests/data/stores/generate.py target/debug/b2nd-meta

For each scenario (a DictStore and a TreeStore, each as a .b2z zip and a .b2d
directory) a seeded random sequence of puts (a .npy imported by our CLI, a .b2nd
python wrote copied as it is, or python's `store[key] = array` in mode "a") and
removals (ours: `store rm`; python's: `del store[key]`), replacements included, is run
on one store. After every step the store is copied to
`<scenario>/step_NN.<suffix>` and python opens it read-only (`blosc2.open(path,
mode="r")`): its class, `sorted(keys())`, and per node its dtype (`arr.dtype.str`),
shape and the sha256 of its C-order bytes go to `manifest.json`, with the step (who,
what, key, input) and whether it was accepted. Steps python refuses (a TreeStore
leaf over a group or under a leaf) are run through
our CLI too and recorded with `"ok": false`: the store must be unchanged (keys python's
EmbedStore refuses, which its DictStore would file under another key, are refused
here).

A fifth scenario starts from a store python made with a `threshold`, its first node
embedded in `embed.b2e`: our changes replace and remove it there. Three more: an
EmbedStore (`.b2e`, python's `EmbedStore(path, mode="a")`, whose `store[key] = arr`
refuses a key it holds: python deletes it first), and a DictStore directory and a
TreeStore zip changed with a threshold of 32 bytes by both (our `--threshold 32`,
python's `threshold=32`), nodes under it embedded in `embed.b2e` by both. python's
view says which keys are embedded (its `_estore.keys()`).

`embed_big/` holds an EmbedStore python made whose data spans several 8 KiB chunks
(random values: its nodes' frames do not compress), and the same store after python
put `/r3` (in `inputs/embed_big_r3.b2nd`), deleted `/r1` and replaced `/r2`, with
the view of python's result and of our CLI's doing the same.

`other_kinds/` holds a DictStore zip, a TreeStore directory and an EmbedStore our CLI
put an SChunk, an ObjectArray, a BatchArray and a ListArray in (python's files), with
python's view of each (their contents' sha256) and of the files.

`generate.py --other-kinds CLI` makes other_kinds/ alone again (when our writer's bytes
change) and replaces its entry in manifest.json. `generate.py --view PATH...` prints
python's view of each store, a JSON list (the
Rust tests run it on the stores our library makes when the venv is there);
`--references PATH...` its keys and remote references (embed map entries), unread.

The inputs (.npy and .b2nd) are kept in `inputs/` so that the Rust test can replay our
steps with the library and compare with python's view of our CLI's result.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys

import blosc2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ["/k0", "/k1", "/g/k2", "/g/k3", "/h/deep/k4"]
DTYPES = ["<i4", "<f8", "<u2", "|b1", "<i8", "<f4"]
STEPS = 14


def view(path):
    store = blosc2.open(path, mode="r")
    if isinstance(store, blosc2.EmbedStore):
        embedded = sorted(store.keys())
    else:
        embedded = sorted(store._estore.keys())
    nodes = {}
    for key in sorted(store.keys()):
        value = store[key]
        if not isinstance(value, blosc2.NDArray):
            nodes[key] = {"type": type(value).__name__}
            if isinstance(value, (blosc2.SChunk, blosc2.ObjectArray, blosc2.BatchArray, blosc2.ListArray)):
                nodes[key]["sha256"] = digest(value)
            continue
        data = np.ascontiguousarray(value[()] if value.ndim == 0 else value[:])
        nodes[key] = {
            "type": "NDArray",
            "dtype": value.dtype.str,
            "shape": list(value.shape),
            "sha256": hashlib.sha256(data.tobytes()).hexdigest(),
        }
    return {
        "class": type(store).__name__,
        "keys": sorted(store.keys()),
        "embedded": embedded,
        "nodes": nodes,
    }


def digest(value):
    """The sha256 of what a node that is not an array holds: an SChunk's bytes, the
    items of an ObjectArray, a BatchArray or a ListArray."""
    if isinstance(value, blosc2.SChunk):
        data = value[:] if value.nbytes else b""
    else:
        data = repr([value[i] for i in range(len(value))]).encode()
    return hashlib.sha256(data).hexdigest()


def other_kinds(cli):
    """Nodes that are not arrays, put by our CLI as python names them: an SChunk and an
    ObjectArray (.b2f), a BatchArray and a ListArray (.b2b), from python's files in
    tests/data/containers/blosc2-4.14.1; one more SChunk inside embed.b2e by a
    threshold. python's view of each store, and of each source file."""
    out = os.path.join(HERE, "other_kinds")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    src = os.path.join(os.path.dirname(HERE), "containers", "blosc2-4.14.1")
    files = ["schunk.b2f", "objectarray.b2f", "batcharray.b2b", "listarray.b2b"]
    stores = {}
    for name in ["dict.b2z", "tree.b2d", "nodes.b2e"]:
        path = os.path.join(out, name)
        tree = ["--tree"] if name.startswith("tree") else []
        for f in files:
            ok, err = run(cli, "store", "put", *tree, path, "/" + f.split(".")[0], os.path.join(src, f))
            assert ok, err
        ok, err = run(
            cli, "store", "put", "--threshold", "100000", path, "/small/schunk", os.path.join(src, files[0])
        )
        assert ok, err
        stores[name] = view(path)
    sources = {}
    for f in files:
        value = blosc2.open(os.path.join(src, f), mode="r")
        sources[f] = {"type": type(value).__name__, "sha256": digest(value)}
    return {"files": files, "sources": sources, "stores": stores}


def snapshot(src, dst):
    if os.path.isdir(src):
        shutil.copytree(src, dst)
    else:
        shutil.copyfile(src, dst)


def values(rng, n):
    dtype = np.dtype(DTYPES[int(rng.integers(len(DTYPES)))])
    shape = [int(rng.integers(1, 12)) for _ in range(int(rng.integers(1, 3)))]
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dtype)
    if dtype.kind == "f":
        return (rng.standard_normal(shape) * 100).astype(dtype)
    return rng.integers(0, 1000, size=shape).astype(dtype)


def run(cli, *args):
    done = subprocess.run([cli, *args], capture_output=True, text=True)
    return done.returncode == 0, done.stderr.strip()


def scenario(cli, name, suffix, tree, seed, inputs, embed=False, threshold=None):
    out = os.path.join(HERE, name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    work = os.path.join(HERE, f".work.{suffix}")
    shutil.rmtree(work, ignore_errors=True)
    if os.path.exists(work):
        os.remove(work)
    rng = np.random.default_rng(seed)
    cls = blosc2.TreeStore if tree else blosc2.DictStore
    if suffix == ".b2e":
        cls = blosc2.EmbedStore
    kwargs = {} if threshold is None else {"threshold": threshold}
    present = set()
    steps = []
    plan = []
    for i in range(STEPS):
        if i == 0 and embed:
            plan.append(("put", "/k0"))
        elif i < 2 or not present or rng.random() < 0.6:
            plan.append(("put", KEYS[int(rng.integers(len(KEYS)))]))
        else:
            plan.append(("rm", sorted(present)[int(rng.integers(len(present)))]))
        op, key = plan[-1]
        if op == "put":
            present.add(key)
        else:
            present.discard(key)
    # Refusals after the random part: keys python's EmbedStore refuses (its DictStore
    # would file them under another key), and in a TreeStore a leaf over a group or
    # under a leaf, which TreeStore refuses.
    refusals = ["/bad//key", "/bad:key"]
    if tree:
        leaves = sorted(present)
        groups = sorted({k.rsplit("/", 1)[0] for k in leaves if k.count("/") > 1})
        refusals += groups[:1] + [f"{k}/under" for k in leaves[:1]]
    for i, (op, key) in enumerate(plan + [("put", k) for k in refusals]):
        actor = "us" if i == 0 or i >= len(plan) or rng.random() < 0.6 else "py"
        if i == 0 and embed:
            actor = "py"
        step = {"actor": actor, "op": op, "key": key}
        if op == "put":
            arr = values(rng, i)
            form = "npy" if rng.random() < 0.5 or actor == "py" else "b2nd"
            stem = f"{name}_{i:02d}"
            if form == "npy":
                input_name = f"{stem}.npy"
                np.save(os.path.join(inputs, input_name), arr)
            else:
                input_name = f"{stem}.b2nd"
                blosc2.asarray(
                    arr, urlpath=os.path.join(inputs, input_name), mode="w", cparams={"codec": blosc2.Codec.LZ4}
                )
            step["input"] = input_name
            if actor == "us":
                args = ["store", "put", work, key, os.path.join(inputs, input_name)]
                if tree:
                    args.insert(2, "--tree")
                if threshold is not None:
                    args[2:2] = ["--threshold", str(threshold)]
                ok, err = run(cli, *args)
            elif i == 0 and embed:
                # python's threshold keeps this node inside embed.b2e
                with cls(work, mode="w", threshold=1 << 20) as store:
                    store[key] = arr
                ok, err = True, ""
            else:
                with cls(work, mode="a", **kwargs) as store:
                    if cls is blosc2.EmbedStore and key in store:
                        del store[key]  # its __setitem__ refuses a key it holds
                    store[key] = arr
                ok, err = True, ""
        else:
            if actor == "us":
                ok, err = run(cli, "store", "rm", work, key)
            else:
                with cls(work, mode="a", **kwargs) as store:
                    del store[key]
                ok, err = True, ""
        step["ok"] = ok
        if not ok:
            step["error"] = err.replace(work, "STORE")
        step["store"] = f"{name}/step_{i:02d}{suffix}"
        snapshot(work, os.path.join(HERE, step["store"]))
        step["python"] = view(work)
        steps.append(step)
    if os.path.isdir(work):
        shutil.rmtree(work)
    else:
        os.remove(work)
    return {"suffix": suffix, "tree": tree, "threshold": threshold or 0, "steps": steps}


def big_embed(cli, inputs):
    """An EmbedStore spanning several chunks, changed by python and by our CLI."""
    out = os.path.join(HERE, "embed_big")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    rng = np.random.default_rng(54)
    start = os.path.join(out, "python.b2e")
    with blosc2.EmbedStore(start, mode="w") as store:
        store["/r1"] = rng.standard_normal(3000)
        store["/r2"] = rng.integers(0, 1 << 30, size=2000).astype("<i4")
    r3 = os.path.join(inputs, "embed_big_r3.b2nd")
    blosc2.asarray(rng.standard_normal(1500).astype("<f4"), urlpath=r3, mode="w")
    r2 = os.path.join(inputs, "embed_big_r2.b2nd")
    blosc2.asarray(rng.integers(0, 100, size=(30, 40)).astype("<i8"), urlpath=r2, mode="w")
    theirs = os.path.join(out, "python_changed.b2e")
    shutil.copyfile(start, theirs)
    with blosc2.EmbedStore(theirs, mode="a") as store:
        store["/r3"] = blosc2.open(r3, mode="r")
        del store["/r1"]
        del store["/r2"]
        store["/r2"] = blosc2.open(r2, mode="r")
    ours = os.path.join(out, "ours_changed.b2e")
    shutil.copyfile(start, ours)
    for args in (["put", ours, "/r3", r3], ["rm", ours, "/r1"], ["put", ours, "/r2", r2]):
        ok, err = run(cli, "store", *args)
        assert ok, err
    return {
        "python": view(start),
        "python_changed": view(theirs),
        "ours_changed": view(ours),
        "inputs": {"/r3": "embed_big_r3.b2nd", "/r2": "embed_big_r2.b2nd"},
    }


def main():
    cli = os.path.abspath(sys.argv[1])
    inputs = os.path.join(HERE, "inputs")
    shutil.rmtree(inputs, ignore_errors=True)
    os.makedirs(inputs)
    manifest = {
        "python-blosc2": blosc2.__version__,
        "numpy": np.__version__,
        "scenarios": {},
    }
    for seed, (name, suffix, tree) in enumerate(
        [("dict_zip", ".b2z", False), ("dict_dir", ".b2d", False), ("tree_zip", ".b2z", True), ("tree_dir", ".b2d", True)]
    ):
        manifest["scenarios"][name] = scenario(cli, name, suffix, tree, 46 + seed, inputs)
    # A store python made with a threshold: its first node embedded in embed.b2e, which
    # our changes replace and remove there.
    manifest["scenarios"]["dict_zip_embed"] = scenario(cli, "dict_zip_embed", ".b2z", False, 50, inputs, embed=True)
    manifest["scenarios"]["embed_file"] = scenario(cli, "embed_file", ".b2e", False, 51, inputs)
    manifest["scenarios"]["dict_dir_threshold"] = scenario(
        cli, "dict_dir_threshold", ".b2d", False, 52, inputs, threshold=32
    )
    manifest["scenarios"]["tree_zip_threshold"] = scenario(
        cli, "tree_zip_threshold", ".b2z", True, 53, inputs, threshold=32
    )
    manifest["embed_big"] = big_embed(cli, inputs)
    manifest["other_kinds"] = other_kinds(cli)
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


def references(path):
    """The keys of a store and its remote references (python's embed map entries of a
    C2Array), without reading them (that needs the server)."""
    store = blosc2.open(path, mode="r")
    estore = store if isinstance(store, blosc2.EmbedStore) else store._estore
    refs = {k: v for k, v in estore._embed_map.items() if "urlbase" in v}
    return {"class": type(store).__name__, "keys": sorted(store.keys()), "references": refs}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--other-kinds"]:
        # other_kinds/ alone made again (when our writer's bytes change), the rest of
        # manifest.json kept as it is.
        path = os.path.join(HERE, "manifest.json")
        with open(path) as f:
            manifest = json.load(f)
        manifest["other_kinds"] = other_kinds(os.path.abspath(sys.argv[2]))
        with open(path, "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
            f.write("\n")
    elif sys.argv[1:2] == ["--view"]:
        json.dump([view(path) for path in sys.argv[2:]], sys.stdout, sort_keys=True)
    elif sys.argv[1:2] == ["--references"]:
        json.dump([references(path) for path in sys.argv[2:]], sys.stdout, sort_keys=True)
    else:
        main()
