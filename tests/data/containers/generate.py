#!/usr/bin/env python3
"""Containers and stores written by python-blosc2: EmbedStore (.b2e), DictStore and
TreeStore (.b2d directories, .b2z zips), CTables, and the single-frame kinds
(ObjectArray, BatchArray, ListArray, b2o carriers, SChunk, NDArray), with python's own
view of each recorded as JSON for tests/containers/ to compare ours with.

Usage (from the repository root; any python3, the driver needs only the stdlib):

    python3 tests/data/containers/generate.py            # every producer
    python3 tests/data/containers/generate.py blosc2-4.14.1

For each producer the driver finds a venv (env var B2ND_VENV_<NAME>, else
/work/venvs/<name>, else $XDG_CACHE_HOME/b2nd-meta/venvs/<name> created with the pins
below), wipes tests/data/containers/<name>/ and runs this file inside the venv
(`--produce <name> <outdir>`). python-blosc2 3.0.0 has none of the stores; from it
come a plain NDArray, an SChunk and a saved LazyExpr (the legacy `LazyArray`
metalayer). 3.12.2 has EmbedStore, DictStore and TreeStore (since 3.7), whose
`embed.b2e` it marks `b2embed`: 4.x's `blosc2.open` refuses those stores, so their view
is taken with the class that wrote them (`"open"` then names it, `"opened_with"` says
so). Each fixture gets `<fixture>.json`: what `blosc2.open` returns,
`keys()`, and per node its type, shape, dtype, chunks, blocks, meta and vlmeta as python
reads them (values that JSON cannot hold are given as their repr).
"""

import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

PRODUCERS = [
    ("blosc2-3.0.0", ["blosc2==3.0.0", "numpy==2.4.6", "msgpack==1.2.4"]),
    ("blosc2-3.12.2", ["blosc2==3.12.2", "numpy==2.4.6", "msgpack==1.2.4"]),
    ("blosc2-4.14.1", ["blosc2==4.14.1", "numpy==2.4.6", "msgpack==1.2.4"]),
]


def venv_python(name, pins):
    env = "B2ND_VENV_" + name.upper().replace("-", "_").replace(".", "_")
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    own = os.path.join(cache, "b2nd-meta", "venvs", name)
    for c in (os.environ.get(env), os.path.join("/work/venvs", name), own):
        if c and os.path.exists(os.path.join(c, "bin", "python")):
            return os.path.join(c, "bin", "python")
    subprocess.run([sys.executable, "-m", "venv", own], check=True)
    subprocess.run([os.path.join(own, "bin", "pip"), "install", *pins], check=True)
    return os.path.join(own, "bin", "python")


def drive(names):
    for name, pins in PRODUCERS:
        if names and name not in names:
            continue
        out = os.path.join(HERE, name)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        py = venv_python(name, pins)
        subprocess.run([py, os.path.abspath(__file__), "--produce", name, out], check=True)


# --------------------------------------------------------------------------
# Inside the venv
# --------------------------------------------------------------------------

def jsonable(v):
    """A value as JSON holds it; what it cannot hold becomes its repr."""
    import numpy as np

    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, bytes):
        try:
            return v.decode()
        except UnicodeDecodeError:
            return repr(v)
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return jsonable(v.item())
    return repr(v)


def describe_obj(obj):
    """python's view of one opened object (a frame's worth of metadata)."""
    d = {"type": type(obj).__name__}
    for attr in ("shape", "chunks", "blocks"):
        try:
            val = getattr(obj, attr)
            d[attr] = list(val) if val is not None else None
        except Exception:
            pass
    try:
        d["dtype"] = obj.dtype.str
    except Exception:
        pass
    sc = getattr(obj, "schunk", None) or getattr(obj, "_schunk", None)
    if sc is None and type(obj).__name__ == "SChunk":
        sc = obj
    if sc is not None:
        try:
            d["meta"] = sorted(sc.meta.keys())
        except Exception:
            pass
        try:
            d["vlmeta"] = {k: jsonable(sc.vlmeta[k]) for k in sc.vlmeta.keys()}
        except Exception as e:
            d["vlmeta_error"] = type(e).__name__
        for attr in ("typesize", "chunksize", "nbytes"):
            try:
                d[attr] = int(getattr(sc, attr))
            except Exception:
                pass
    return d


def python_view(path, store_cls=None):
    """What blosc2.open (safe, then full when safe refuses) says about `path`; or, with
    `store_cls`, what that store class reads."""
    import blosc2

    view = {}
    if store_cls is not None:
        obj = getattr(blosc2, store_cls)(path, mode="r")
        view["opened_with"] = store_cls + "(path)"
    else:
        try:
            obj = blosc2.open(path, mode="r")
        except Exception as e:
            view["open_error"] = type(e).__name__
            obj = blosc2.open(path, mode="r", deserialize="full")
    view["open"] = type(obj).__name__
    if hasattr(obj, "keys") and type(obj).__name__ in ("EmbedStore", "DictStore", "TreeStore"):
        view["keys"] = sorted(obj.keys())
        nodes = {}
        store = obj
        # Every node as DictStore/EmbedStore hold it (TreeStore groups are not nodes).
        raw = blosc2.DictStore(path, mode="r") if type(obj).__name__ == "TreeStore" else obj
        if type(obj).__name__ == "TreeStore":
            view["raw_keys"] = sorted(raw.keys())
        for key in sorted(raw.keys()):
            try:
                nodes[key] = describe_obj(raw[key])
            except Exception as e:
                nodes[key] = {"error": type(e).__name__}
        view["nodes"] = nodes
        if type(obj).__name__ == "TreeStore":
            view["groups"] = sorted(k for k in store.keys() if k not in raw.keys())
            try:
                view["root_attrs"] = jsonable(dict(store.vlmeta[:]))
            except Exception:
                view["root_attrs"] = None
    elif type(obj).__name__ == "CTable":
        view["ctable"] = {
            "columns": list(obj.col_names),
            "nrows": len(obj),
        }
    else:
        view["node"] = describe_obj(obj)
    return view


def write_view(out, name, view):
    """Writes `view`; nodes that look alike share one entry of "node_views" (1,000
    tiny nodes differ only by key), and "nodes" maps each key to its view's index."""
    if "nodes" in view:
        distinct, index = [], {}
        for key, node in view["nodes"].items():
            text = json.dumps(node, sort_keys=True)
            if text not in index:
                index[text] = len(distinct)
                distinct.append(node)
            view["nodes"][key] = index[text]
        view["node_views"] = distinct
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(view, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


def produce_3(out):
    import blosc2
    import numpy as np

    os.chdir(out)
    blosc2.asarray(np.arange(12, dtype="i4").reshape(3, 4), urlpath="ndarray.b2nd", mode="w",
                   chunks=(2, 4), blocks=(1, 4))
    sc = blosc2.SChunk(chunksize=40, data=np.arange(30, dtype="i4"), urlpath="schunk.b2frame",
                       mode="w")
    sc.vlmeta["note"] = "plain"
    a = blosc2.asarray(np.arange(10, dtype="f8"), urlpath="op_a.b2nd", mode="w")
    b = blosc2.asarray(np.arange(10, dtype="f8"), urlpath="op_b.b2nd", mode="w")
    expr = blosc2.lazyexpr("a + b", operands={"a": a, "b": b})
    expr.save(urlpath="lazyarray.b2nd")
    for name in ("ndarray.b2nd", "schunk.b2frame", "lazyarray.b2nd"):
        write_view(out, name, python_view(name))


def recompress_embed(path):
    """Rewrites the EmbedStore at `path` with its data compressed at once, through
    python-blosc2's own SChunk API (same metalayer, same `estore_metadata` vlmeta).

    A store on disk recompresses its chunk at every append and leaves the old bytes
    behind in the frame: 160 KB for 1,000 tiny nodes, 4 KB once rewritten.
    """
    import blosc2

    old = blosc2.blosc2_ext.open(path, mode="r", offset=0)
    data = old[:]
    metadata = old.vlmeta["estore_metadata"]
    registry = old.vlmeta["_object_registry"] if "_object_registry" in old.vlmeta else None
    meta = {name: old.meta[name] for name in old.meta.keys()}
    del old
    os.remove(path)
    new = blosc2.SChunk(chunksize=2**13, data=data, urlpath=path, mode="w",
                        cparams=blosc2.CParams(typesize=1, clevel=9), meta=meta)
    new.vlmeta["estore_metadata"] = metadata
    if registry is not None:
        new.vlmeta["_object_registry"] = registry


def produce_312(out):
    """The stores of python-blosc2 3.12.2: EmbedStore, DictStore, TreeStore."""
    import blosc2
    import numpy as np

    os.chdir(out)
    es = blosc2.EmbedStore("embed.b2e", mode="w")
    es["/a"] = blosc2.asarray(np.arange(6, dtype="f8").reshape(2, 3))
    es["/b"] = small(1)
    del es
    # Default threshold (8 KiB): small values embedded, the large one external.
    for path in ("dict.b2d", "dict.b2z"):
        with blosc2.DictStore(path, mode="w") as ds:
            ds["/small"] = small(2)
            ds["/dir/big"] = blosc2.asarray(np.arange(5000, dtype="i8"))
            ds["/sc"] = blosc2.SChunk(chunksize=400, data=np.arange(100, dtype="i4"))
    for path in ("tree.b2d", "tree.b2z"):
        with blosc2.TreeStore(path, mode="w") as ts:
            ts["/x"] = small(0)
            ts["/g1/a"] = blosc2.asarray(np.arange(3000, dtype="f4"))
            ts["/g1/g2/b"] = small(10, 3, "i2")
            ts.vlmeta["title"] = "root attrs"
            ts["/g1"].vlmeta["level"] = 1
    views = [("embed.b2e", "EmbedStore"), ("dict.b2d", "DictStore"), ("dict.b2z", "DictStore"),
             ("tree.b2d", "TreeStore"), ("tree.b2z", "TreeStore")]
    for name, cls in views:
        write_view(out, name, python_view(name, cls))


def small(i, n=4, dtype="i4"):
    import blosc2
    import numpy as np

    return blosc2.asarray(np.arange(i, i + n, dtype=dtype))


def produce_4(out):
    import dataclasses

    import blosc2
    import numpy as np

    os.chdir(out)
    fixtures = []

    # EmbedStores: 0, 1 and 1,000 nodes; one spanning chunks; deleted keys.
    with blosc2.EmbedStore("embed_empty.b2e", mode="w"):
        pass
    with blosc2.EmbedStore("embed_one.b2e", mode="w") as es:
        es["/a"] = blosc2.asarray(np.arange(6, dtype="f8").reshape(2, 3), chunks=(1, 3),
                                  blocks=(1, 3))
    with blosc2.EmbedStore("embed_many.b2e", mode="w") as es:
        for i in range(1000):
            es[f"/n{i:04d}"] = small(i % 200, 2, "u1")
    recompress_embed("embed_many.b2e")
    rng = np.random.default_rng(7)
    with blosc2.EmbedStore("embed_span.b2e", mode="w") as es:
        es["/first"] = small(0)
        # ~20 KiB of noise, stored uncompressed: the frame spans three 8 KiB chunks.
        noise = rng.integers(0, 256, 20000, dtype=np.uint8)
        big = blosc2.asarray(noise, cparams=blosc2.CParams(clevel=0))
        big.vlmeta["what"] = "noise"
        es["/big"] = big
        es["/deleted"] = small(5)
        es["/last"] = blosc2.SChunk(chunksize=16, data=np.arange(8, dtype="i4"))
        del es["/deleted"]
    fixtures += ["embed_empty.b2e", "embed_one.b2e", "embed_many.b2e", "embed_span.b2e"]

    # Every single-frame kind.
    oa = blosc2.ObjectArray(urlpath="objectarray.b2f", mode="w")
    oa.append({"a": 1})
    oa.append([1, 2, 3])
    ba = blosc2.BatchArray(urlpath="batcharray.b2b", mode="w")
    ba.append([1, 2, 3])
    ba.append(["x", "y"])
    la = blosc2.ListArray(item_spec=blosc2.int64(), urlpath="listarray.b2b", mode="w")
    la.append([1, 2])
    la.append([3])
    sc = blosc2.SChunk(chunksize=40, data=np.arange(30, dtype="i4"), urlpath="schunk.b2f",
                       mode="w")
    sc.vlmeta["note"] = "plain"
    arr = blosc2.asarray(np.arange(12, dtype="i4").reshape(3, 4), urlpath="ndarray.b2nd",
                         mode="w", chunks=(2, 4), blocks=(1, 4))
    arr.vlmeta["unit"] = "m"
    a = blosc2.asarray(np.arange(10, dtype="f8"), urlpath="op_a.b2nd", mode="w")
    b = blosc2.asarray(np.arange(10, dtype="f8"), urlpath="op_b.b2nd", mode="w")
    blosc2.lazyexpr("a + b", operands={"a": a, "b": b}).save(urlpath="lazyexpr.b2nd")
    fixtures += ["objectarray.b2f", "batcharray.b2b", "listarray.b2b", "schunk.b2f",
                 "ndarray.b2nd", "lazyexpr.b2nd"]

    # DictStores: a directory and a zip, embedded (under the threshold) and external
    # leaves, nested keys, every leaf kind; sidecars that are not nodes.
    for path in ("dict.b2d", "dict.b2z"):
        with blosc2.DictStore(path, mode="w", threshold=64) as ds:
            ds["/tiny"] = blosc2.asarray(np.arange(2, dtype="u1"), cparams=blosc2.CParams(clevel=0))
            ds["/dir1/big"] = blosc2.asarray(np.arange(200, dtype="i8"))
            ds["/dir1/dir2/sc"] = blosc2.SChunk(chunksize=400, data=np.arange(100, dtype="i4"))
            obj = blosc2.ObjectArray()
            obj.append("hello")
            ds["/objs"] = obj
            batch = blosc2.BatchArray()
            batch.append([1, 2])
            ds["/batches"] = batch
            ds["/gone"] = small(1)
            del ds["/gone"]
    with open(os.path.join("dict.b2d", "embed.b2e.b2lock"), "wb"):
        pass
    shutil.copy(os.path.join("dict.b2d", "dir1", "big.b2nd"),
                os.path.join("dict.b2d", "dir1", "big.b2nd.4242.tmp"))
    with blosc2.DictStore("dict_empty.b2z", mode="w"):
        pass
    with blosc2.DictStore("dict_one.b2d", mode="w"):
        pass
    with blosc2.DictStore("dict_one.b2d", mode="a") as ds:
        ds["/only"] = small(3)
    fixtures += ["dict.b2d", "dict.b2z", "dict_empty.b2z", "dict_one.b2d"]

    # TreeStores: nested groups with attrs, a CTable inside, 1,000 embedded nodes.
    @dataclasses.dataclass
    class Row:
        id: int = blosc2.field(blosc2.int64())
        score: float = blosc2.field(blosc2.float64())
        flag: bool = blosc2.field(blosc2.bool())
        name: str = blosc2.field(blosc2.string(max_length=8))
        text: str = blosc2.field(blosc2.utf8())
        tags: list[int] = blosc2.field(blosc2.list(blosc2.int64()))
        cat: str = blosc2.field(blosc2.dictionary())
        maybe: int = blosc2.field(blosc2.int32(nullable=True))

    def table():
        t = blosc2.CTable(Row)
        t.append(Row(id=1, score=0.5, flag=True, name="a", text="alpha", tags=[1, 2],
                     cat="x", maybe=3))
        t.append(Row(id=2, score=1.5, flag=False, name="b", text="beta", tags=[],
                     cat="y", maybe=None))
        t.vlmeta["owner"] = "me"
        return t

    for path in ("tree.b2z", "tree.b2d"):
        with blosc2.TreeStore(path, mode="w", threshold=100) as ts:
            ts["/x"] = small(0)
            ts["/g1/a"] = blosc2.asarray(np.arange(300, dtype="f4"))
            ts["/g1/g2/b"] = small(10, 3, "i2")
            ts["/g1/g2/c"] = blosc2.asarray(np.ones((2, 2), dtype="c16"))
            ts.vlmeta["title"] = "root attrs"
            ts["/g1"].vlmeta["level"] = 1
            ts["/g1/g2"].vlmeta["level"] = 2
            ts["/tables/t1"] = table()
    with blosc2.TreeStore("tree_empty.b2z", mode="w"):
        pass
    with blosc2.TreeStore("tree_one.b2d", mode="w") as ts:
        ts["/only/leaf"] = small(7)
    with blosc2.DictStore("dict_many.b2d", mode="w", threshold=10**9) as ds:
        for i in range(1000):
            ds[f"/d{i % 7}/n{i:04d}"] = small(i % 200, 2, "u1")
    recompress_embed(os.path.join("dict_many.b2d", "embed.b2e"))

    # A CTable of the other column kinds, saved at the root of its own bundle.
    @dataclasses.dataclass
    class Other:
        c: complex = blosc2.field(blosc2.complex128())
        ts: np.datetime64 = blosc2.field(blosc2.timestamp())
        vb: bytes = blosc2.field(blosc2.vlbytes())
        vs: str = blosc2.field(blosc2.vlstring())
        by: bytes = blosc2.field(blosc2.bytes(max_length=4))
        u8: int = blosc2.field(blosc2.uint8())

    other = blosc2.CTable(Other)
    other.append(Other(c=1 + 2j, ts=np.datetime64("2024-01-01T00:00:00", "ns"), vb=b"xy",
                       vs="hi", by=b"ab", u8=7))
    other.save("ctable_other.b2z")
    with blosc2.TreeStore("tree_many.b2d", mode="w", threshold=10**9) as ts:
        for i in range(1000):
            ts[f"/g{i % 10}/n{i:04d}"] = small(i % 200, 2, "u1")
    recompress_embed(os.path.join("tree_many.b2d", "embed.b2e"))
    with blosc2.DictStore("tree_many.b2d", mode="r") as ds:
        ds.to_b2z(filename="tree_many.b2z")
    shutil.rmtree("tree_many.b2d")
    table().save("ctable.b2z")
    fixtures += ["tree.b2z", "tree.b2d", "tree_empty.b2z", "tree_one.b2d", "tree_many.b2z",
                 "dict_many.b2d", "ctable.b2z", "ctable_other.b2z"]

    for name in fixtures:
        write_view(out, name, python_view(name))
    for name in ("op_a.b2nd", "op_b.b2nd"):
        pass


def produce(name, out):
    if name == "blosc2-3.12.2":
        produce_312(out)
    elif name.startswith("blosc2-3"):
        produce_3(out)
    else:
        produce_4(out)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--produce":
        produce(sys.argv[2], sys.argv[3])
    else:
        drive(sys.argv[1:])
