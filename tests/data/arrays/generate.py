#!/usr/bin/env python3
"""Arrays written by python-blosc2, and python's values for slices of each, for the
value reader (tests/array/). The tests read these files; they never need Python.

Usage (from the repository root; any python3, the driver needs only the stdlib):

    python3 tests/data/arrays/generate.py                 # every producer
    python3 tests/data/arrays/generate.py blosc2-4.14.1   # one

For each producer the driver finds a venv (env var B2ND_VENV_<NAME>, else
/work/venvs/<name>, else $XDG_CACHE_HOME/b2nd-meta/venvs/<name> created with the pins
below), wipes tests/data/arrays/<name>/ and runs this file inside the venv
(`--produce <name> <outdir>`).

python-blosc2 4.14.1 (C-Blosc2 3.3.5) writes most of the fixtures: every NumPy dtype
kind in both byte orders, ndim 0 to 8, shapes that are not multiples of the chunks and
chunks that are not multiples of the blocks, every codec and filter pipeline, special
chunks (zeros, NaN, a value, uninitialised), sparse frames, resized arrays, store nodes
(.b2z, .b2d, .b2e, a TreeStore leaf) and chunks of variable-length blocks (made with
python's own `blosc2_ext.vlcompress`, appended to an SChunk that carries a `b2nd`
metalayer: frames python reads but does not write as arrays). 2.7.1 and 3.0.0
(C-Blosc2 2.15) add a few arrays in their formats.

Each producer directory gets `manifest.json` and `values/<id>.bin`. Per fixture: the
path (and store key), python's dtype, shape, chunks and blocks, the header `np.save`
writes for the full read (`npy_header`, hex), and per slice the spec
as written inside python's brackets, the result's shape and where its bytes are in the
values file (C order, the stored dtype and byte order).

The values are numpy's indexing of python's FULL read (`arr[...]`), which is C-Blosc2's
full-chunk decode; the script requires that full read to equal the data written (when
the pipeline is lossless). python's own `arr[spec]` (C's partial read: block masks and
`blosc2_getitem`) is compared with it and each difference or error is recorded under
"python_partial" and listed in "findings": where they disagree, the full decode is
right (it is the data written).
"""

import io
import json
import os
import shutil
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

PRODUCERS = [
    ("blosc2-2.7.1", ["blosc2==2.7.1", "numpy==2.4.6"]),
    ("blosc2-3.0.0", ["blosc2==3.0.0", "numpy==2.4.6"]),
    ("blosc2-4.14.1", ["blosc2==4.14.1", "numpy==2.4.6"]),
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
        os.makedirs(os.path.join(out, "values"))
        py = venv_python(name, pins)
        subprocess.run([py, os.path.abspath(__file__), "--produce", name, out], check=True)


# --------------------------------------------------------------------------
# Inside the venv
# --------------------------------------------------------------------------


def data(shape, dtype, seed):
    """Deterministic values of every kind: ramps with noise, NaN/inf/-0.0 in floats,
    every byte value in raw kinds."""
    import numpy as np

    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    rng = np.random.default_rng(seed)
    if dt.fields is not None:
        out = np.zeros(n, dtype=dt)
        for i, name in enumerate(dt.names):
            sub = dt.fields[name][0]
            base = sub.base
            vals = data((n,) + sub.shape, base, seed + i + 1)
            out[name] = vals.reshape((n,) + sub.shape)
        return out.reshape(shape)
    k = dt.kind
    if k == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif k in "iu":
        info = np.iinfo(dt)
        ramp = np.arange(n, dtype=np.int64) * 37 + rng.integers(-3, 4, n)
        v = (ramp % (int(info.max) - int(info.min) + 1 if dt.itemsize < 8 else 2**62)) + (
            int(info.min) if dt.itemsize < 8 else 0
        )
        v = v.astype(dt)
        if n > 2:
            v[1] = info.max
            v[2] = info.min
    elif k == "f":
        v = (np.arange(n) * 0.75 - n / 3 + rng.standard_normal(n)).astype(dt)
        for i, x in enumerate([np.nan, np.inf, -np.inf, -0.0]):
            if n > 3 * i + 1:
                v[3 * i + 1] = x
    elif k == "c":
        re = np.arange(n) * 0.5 - 3
        v = (re + 1j * rng.standard_normal(n)).astype(dt)
        if n > 1:
            v[1] = complex(np.nan, 1.0)
    elif k in "mM":
        v = (np.arange(n, dtype=np.int64) * 86_399 - 5000 + rng.integers(0, 9, n)).astype(
            "<i8"
        ).view(dt.newbyteorder("<"))
        if n > 1:
            v[1] = np.array("NaT", dtype=v.dtype)
        v = v.astype(dt)
    elif k == "S":
        raw = rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8).tobytes()
        v = np.frombuffer(raw, dtype=dt).copy()
    elif k == "U":
        chars = rng.integers(0x20, 0x2FFF, n * (dt.itemsize // 4), dtype=np.uint32)
        v = chars.astype(dt.byteorder + "u4" if dt.byteorder in "<>" else "<u4")
        v = v.view(dt).copy()
    elif k == "V":
        raw = rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8).tobytes()
        v = np.frombuffer(raw, dtype=dt).copy()
    else:
        raise ValueError(dt)
    return v.reshape(shape)


def slice_text(start, stop, step):
    t = ("" if start is None else str(start)) + ":" + ("" if stop is None else str(stop))
    if step is not None:
        t += ":" + str(step)
    return t


def specs_for(shape, fid):
    """The slices read of an array of `shape`: the whole, integers (negative ones too),
    ranges with steps (negative too) and clipped bounds, `...`, `None`, empty results,
    and two random ones (seeded by the fixture's id)."""
    import numpy as np

    nd = len(shape)
    if nd == 0:
        return ["...", "()", "..., None"]
    out = ["...", ":"]
    if shape[0] > 0:
        out += ["-1", "0"]
    out.append(", ".join(slice_text(1, -1, None) for _ in shape))
    out.append(", ".join(slice_text(None, None, 2 if i % 2 == 0 else 3) for i in range(nd)))
    out.append("..., " + str(shape[-1] // 2) if shape[-1] > 0 else "..., 0:0")
    out.append(", ".join(slice_text(-1000, 1000, None) for _ in shape))
    out.append("::-1" if nd == 1 else "::-2, ..., 1::-1")
    out.append("3:1")
    out.append("None, " + ", ".join(":" for _ in shape))
    rng = np.random.default_rng(zlib.crc32(fid.encode()))
    for _ in range(2):
        parts = []
        for n in shape:
            r = rng.integers(0, 4)
            if r == 0 and n > 0:
                i = int(rng.integers(-n, n))
                parts.append(str(i))
            else:
                a = int(rng.integers(-n - 2, n + 2)) if rng.integers(0, 3) else None
                b = int(rng.integers(-n - 2, n + 2)) if rng.integers(0, 3) else None
                s = int(rng.choice([1, 2, 3, 5, -1, -3])) if rng.integers(0, 2) else None
                parts.append(slice_text(a, b, s))
        out.append(", ".join(parts))
    return out


class Producer:
    def __init__(self, name, out):
        import blosc2

        self.name = name
        self.out = out
        self.fixtures = []
        self.findings = []
        self.v4 = blosc2.__version__.startswith("4.")
        os.chdir(out)

    def cparams(self, codec="ZSTD", clevel=5, filters=None, filters_meta=None, **kw):
        import blosc2

        filters = ["SHUFFLE"] if filters is None else filters
        meta = filters_meta or [0] * len(filters)
        fs = [getattr(blosc2.Filter, f) for f in filters]
        if hasattr(blosc2, "CParams"):
            extra = {}
            if "splitmode" in kw:
                extra["splitmode"] = getattr(blosc2.SplitMode, kw["splitmode"])
            if "use_dict" in kw:
                extra["use_dict"] = kw["use_dict"]
            return blosc2.CParams(
                codec=getattr(blosc2.Codec, codec), clevel=clevel, filters=fs,
                filters_meta=meta, nthreads=1, **extra)
        return {"codec": getattr(blosc2.Codec, codec), "clevel": clevel, "filters": fs,
                "filters_meta": meta, "nthreads": 1}

    def add(self, fid, path, opened, source=None, key=None, notes=None, extra_specs=()):
        """Records fixture `fid`: `opened` is python's array (read back from `path`);
        `source` the data written (None for lossy pipelines or unwritten data)."""
        import numpy as np

        arr = opened()
        full = np.asarray(arr[...])
        if source is not None:
            src = np.asarray(source)
            if full.shape != src.shape or full.tobytes() != src.tobytes():
                # C's decode is what a reader must match; the difference is recorded.
                self.findings.append(f"{fid}: python's full read differs from the data "
                                     "written (the values are the full read)")
        entry = {
            "id": fid,
            "path": path,
            "dtype": full.dtype.str,
            "dtype_repr": str(full.dtype),
            "itemsize": full.dtype.itemsize,
            "shape": list(arr.shape),
            "chunks": list(arr.chunks),
            "blocks": list(arr.blocks),
            "slices": [],
        }
        # np.save's header for the full read: what `b2nd-meta export` must write.
        saved = io.BytesIO()
        np.save(saved, full)
        entry["npy_header"] = saved.getvalue()[: len(saved.getvalue()) - full.nbytes].hex()
        if key is not None:
            entry["key"] = key
        if notes:
            entry["notes"] = notes
        values = bytearray()
        for spec in specs_for(tuple(arr.shape), fid) + list(extra_specs):
            index = eval("np.s_[" + spec + "]", {"np": np})
            # A scalar result (integers on every axis) comes back in the machine's byte
            # order: cast back to the stored dtype, values unchanged.
            expected = np.array(full[index], dtype=full.dtype, order="C", copy=True)
            row = {
                "spec": spec,
                "shape": list(expected.shape),
                "offset": len(values),
                "nbytes": expected.nbytes,
            }
            values += expected.tobytes()
            try:
                got = np.asarray(opened()[index])
                if got.dtype.newbyteorder("=") == expected.dtype.newbyteorder("="):
                    # A 0-d result comes back as a scalar in the machine's byte order.
                    got = got.astype(expected.dtype)
                if got.shape != expected.shape or got.tobytes() != expected.tobytes():
                    row["python_partial"] = "differs"
            except Exception as e:  # noqa: BLE001 - recorded, not hidden
                row["python_partial"] = "error: " + type(e).__name__ + ": " + str(e)
            if "python_partial" in row:
                self.findings.append(f"{fid} [{spec}]: python's arr[spec] "
                                     f"{row['python_partial']} (full read is the data)")
            entry["slices"].append(row)
        with open(os.path.join(self.out, "values", fid + ".bin"), "wb") as f:
            f.write(values)
        entry["values"] = "values/" + fid + ".bin"
        self.fixtures.append(entry)

    def array(self, fid, src, chunks, blocks, contiguous=True, notes=None, extra_specs=(),
              **cp):
        """asarray(src) to `<fid>.b2nd` (a directory when not contiguous)."""
        import blosc2

        path = fid + ".b2nd"
        kw = {"urlpath": path, "mode": "w", "chunks": chunks, "blocks": blocks,
              "cparams": self.cparams(**cp)}
        if not contiguous:
            kw["contiguous"] = False
        blosc2.asarray(src, **kw)
        lossy = any(f in ("TRUNC_PREC", "INT_TRUNC") for f in cp.get("filters", []))
        self.add(fid, path, lambda: blosc2.open(path, mode="r"),
                 None if lossy else src, notes=notes, extra_specs=extra_specs)

    def write(self):
        import blosc2
        import numpy as np

        manifest = {
            "schema_version": 1,
            "generator": "tests/data/arrays/generate.py",
            "producer": self.name,
            "versions": {
                "python_blosc2": blosc2.__version__,
                "c_blosc2": blosc2.blosc2_ext.VERSION_STRING,
                "numpy": np.__version__,
            },
            "findings": self.findings,
            "fixtures": self.fixtures,
        }
        if self.v4:
            manifest["npy_cases"] = npy_cases()
        with open(os.path.join(self.out, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
            f.write("\n")


DTYPES = [
    "?", "i1", "<i2", "<i4", "<i8", "u1", "<u2", "<u4", "<u8", "<f2", "<f4", "<f8",
    "<c8", "<c16", "<M8[ns]", "<M8[D]", "<m8[s]", "S5", "<U3", "V4",
    ">i2", ">i4", ">i8", ">u4", ">f2", ">f4", ">f8", ">c8", ">c16", ">M8[ms]", ">m8[us]",
    ">U2",
]
STRUCTS = {
    "struct_simple": [("a", "<i4"), ("b", "<f8")],
    "struct_mixed": [("a", ">i2"), ("s", "S3"), ("u", "<U2"), ("f", "?")],
    "struct_nested": [("a", "<i4"), ("n", [("x", "<f4"), ("y", "u1")]), ("v", "<i2", (2,))],
}


def dtype_id(dt):
    return (dt.replace("<", "le_").replace(">", "be_").replace("?", "bool")
            .replace("[", "_").replace("]", ""))


def produce_4(p):
    import blosc2
    import numpy as np

    # Every dtype kind, both byte orders: 7x5, chunks 4x3, blocks 2x2.
    for i, dt in enumerate(DTYPES):
        p.array("dtype_" + dtype_id(dt), data((7, 5), dt, i), (4, 3), (2, 2))
    for i, (name, dt) in enumerate(STRUCTS.items()):
        p.array("dtype_" + name, data((6, 4), dt, 100 + i), (4, 3), (3, 2))

    # ndim 0 to 8, edges: shapes not multiples of chunks, chunks not of blocks.
    p.array("ndim0_f8", np.array(2.5), (), ())
    p.array("ndim1_i4", data((29,), "<i4", 1), (8,), (3,))
    p.array("ndim2_u2", data((13, 11), "<u2", 2), (5, 4), (2, 3))
    p.array("ndim3_f4", data((7, 6, 5), "<f4", 3), (3, 4, 2), (2, 3, 2))
    p.array("ndim4_i2", data((5, 4, 3, 6), "<i2", 4), (2, 3, 2, 4), (1, 2, 2, 3))
    p.array("ndim5_u1", data((3, 4, 2, 3, 5), "u1", 5), (2, 2, 2, 2, 3), (1, 2, 1, 2, 2))
    p.array("ndim6_i8", data((2, 3, 2, 3, 2, 3), "<i8", 6), (1, 2, 2, 2, 1, 2),
            (1, 1, 2, 1, 1, 2))
    p.array("ndim7_f8", data((2, 2, 3, 2, 2, 3, 2), "<f8", 7), (2, 1, 2, 2, 1, 2, 2),
            (1, 1, 2, 1, 1, 1, 2))
    p.array("ndim8_i2", data((2, 3, 2, 3, 2, 2, 3, 2), "<i2", 8),
            (1, 2, 2, 2, 1, 2, 2, 2), (1, 1, 2, 1, 1, 1, 2, 1))
    p.array("edge_one_chunk", data((6, 5), "<i4", 9), (6, 5), (6, 5))
    p.array("edge_block_is_chunk", data((9, 10), "<i4", 10), (4, 5), (4, 5))
    p.array("edge_unit_blocks", data((5, 7), "<i4", 11), (3, 4), (1, 1))
    p.array("edge_rows", data((11, 9), "<f8", 12), (4, 9), (1, 9))
    p.array("edge_many_chunks", data((60, 50), "<i4", 13), (8, 7), (3, 4))
    p.array("edge_chunk_past_shape", data((3, 4), "<u2", 14), (8, 8), (4, 8))
    p.array("empty_1d", np.zeros((0,), "<i4"), (5,), (2,))
    p.array("empty_mid_axis", np.zeros((3, 0, 4), "<f4"), (2, 3, 2), (1, 2, 2))

    # Every codec with shuffle; every filter pipeline with ZSTD and LZ4.
    base = data((23, 17), "<i4", 20)
    floats = data((23, 17), "<f8", 21)
    for codec in ("BLOSCLZ", "LZ4", "LZ4HC", "ZLIB", "ZSTD"):
        for clevel in (1, 9):
            p.array(f"codec_{codec.lower()}_{clevel}", base, (10, 8), (4, 3), codec=codec,
                    clevel=clevel)
    pipelines = {
        "none": [], "shuffle": ["SHUFFLE"], "bitshuffle": ["BITSHUFFLE"],
        "delta": ["DELTA"], "shuffle_delta": ["SHUFFLE", "DELTA"],
        "delta_shuffle": ["DELTA", "SHUFFLE"], "bytedelta": ["BYTEDELTA"],
        "shuffle_bytedelta": ["SHUFFLE", "BYTEDELTA"],
        "trunc_prec_shuffle": ["TRUNC_PREC", "SHUFFLE"], "int_trunc": ["INT_TRUNC"],
        "shuffle_bitshuffle_delta": ["SHUFFLE", "BITSHUFFLE", "DELTA"],
    }
    for name, filters in pipelines.items():
        for codec in ("ZSTD", "LZ4"):
            src = floats if "TRUNC_PREC" in filters else base
            meta = [0] * len(filters)
            if "TRUNC_PREC" in filters:
                meta[filters.index("TRUNC_PREC")] = 23
            if "INT_TRUNC" in filters:
                meta[filters.index("INT_TRUNC")] = 20
            p.array(f"filter_{name}_{codec.lower()}", src, (10, 8), (4, 3), codec=codec,
                    filters=filters, filters_meta=meta)
    # C's partial read (blosc2_getitem of single blocks) of a DELTA-only pipeline gives
    # other values than its full decode here.
    ramp = (np.arange(40 * 60).reshape(40, 60) * 3
            + np.random.default_rng(1).integers(0, 5, (40, 60))).astype("<i4")
    for codec in ("ZSTD", "LZ4"):
        p.array(f"filter_delta_partial_{codec.lower()}", ramp, (20, 30), (5, 10), codec=codec,
                filters=["DELTA"], extra_specs=["7, 13", "12:14, 40:45", "0:3"])
    p.array("memcpyed_clevel0", base, (10, 8), (4, 3), clevel=0)
    p.array("dict_zstd", data((40, 30), "<i4", 22), (20, 30), (5, 30), use_dict=True)
    p.array("dict_lz4", data((40, 30), "<i4", 23), (20, 30), (5, 30), codec="LZ4",
            use_dict=True)
    p.array("split_always", floats, (10, 8), (4, 3), splitmode="ALWAYS_SPLIT")
    p.array("split_never", floats, (10, 8), (4, 3), splitmode="NEVER_SPLIT")
    p.array("struct_shuffle_bitshuffle", data((9, 7), STRUCTS["struct_nested"], 24), (4, 4),
            (2, 3), filters=["SHUFFLE", "BITSHUFFLE"])

    # Special chunks.
    def special(fid, make, source):
        path = fid + ".b2nd"
        make(path)
        p.add(fid, path, lambda: blosc2.open(path, mode="r"), source)

    kw = {"chunks": (4, 3), "blocks": (2, 2), "mode": "w"}
    special("special_zeros", lambda u: blosc2.zeros((9, 7), "<i4", urlpath=u, **kw),
            np.zeros((9, 7), "<i4"))
    special("special_nans_f4", lambda u: blosc2.nans((9, 7), "<f4", urlpath=u, **kw), None)
    special("special_nans_f8", lambda u: blosc2.nans((9, 7), "<f8", urlpath=u, **kw), None)
    special("special_full_nan_f8",
            lambda u: blosc2.full((9, 7), np.nan, "<f8", urlpath=u, **kw), None)
    special("special_full_value_i2", lambda u: blosc2.full((9, 7), 7, "<i2", urlpath=u, **kw),
            np.full((9, 7), 7, "<i2"))
    special("special_full_value_be_f8",
            lambda u: blosc2.full((9, 7), -1.5, ">f8", urlpath=u, **kw),
            np.full((9, 7), -1.5, ">f8"))
    sdt = np.dtype(STRUCTS["struct_simple"])
    special("special_full_value_struct",
            lambda u: blosc2.full((9, 7), (3, 2.5), sdt, urlpath=u, **kw),
            np.full((9, 7), np.array((3, 2.5), sdt), sdt))
    special("special_empty_uninit", lambda u: blosc2.empty((9, 7), "<i4", urlpath=u, **kw),
            None)

    def mixed(u):
        a = blosc2.zeros((9, 7), "<f8", urlpath=u, **kw)
        a[2:5, 1:4] = np.arange(9.0).reshape(3, 3) + 1
        a[8, 6] = -2.0

    src = np.zeros((9, 7), "<f8")
    src[2:5, 1:4] = np.arange(9.0).reshape(3, 3) + 1
    src[8, 6] = -2.0
    special("special_zeros_partly_written", mixed, src)

    # Sparse frames.
    p.array("sparse_2d", data((13, 11), "<i4", 30), (5, 4), (2, 3), contiguous=False)
    p.array("sparse_ndim0", np.array(-7, "<i8"), (), (), contiguous=False)

    def sparse_zeros(u):
        a = blosc2.zeros((9, 7), "<u2", urlpath=u, contiguous=False, **kw)
        a[0:4, 0:3] = 5

    src = np.zeros((9, 7), "<u2")
    src[0:4, 0:3] = 5
    special("sparse_zeros_partly_written", sparse_zeros, src)

    # Resized arrays.
    def resized(fid, shape, new_shape, write=None):
        path = fid + ".b2nd"
        src = data(shape, "<i4", 40 + len(p.fixtures))
        a = blosc2.asarray(src, urlpath=path, mode="w", chunks=(4, 3), blocks=(2, 2),
                           cparams=p.cparams())
        a.resize(new_shape)
        if write is not None:
            a[write] = -1
        p.add(fid, path, lambda: blosc2.open(path, mode="r"))

    resized("resize_grown", (7, 5), (10, 9))
    resized("resize_shrunk", (9, 7), (5, 4))
    resized("resize_shrunk_then_grown", (9, 7), (5, 4))
    b = blosc2.open("resize_shrunk_then_grown.b2nd", mode="a")
    b.resize((9, 8))
    p.fixtures.pop()
    p.add("resize_shrunk_then_grown", "resize_shrunk_then_grown.b2nd",
          lambda: blosc2.open("resize_shrunk_then_grown.b2nd", mode="r"))
    resized("resize_grown_written", (7, 5), (11, 6), np.s_[6:9, 2:5])
    resized("resize_to_empty", (7, 5), (0, 5))

    # Store nodes: embedded and external, DictStore .b2z/.b2d, EmbedStore, TreeStore.
    emb_src = data((6, 5), "<f8", 50)
    ext_src = data((30, 20), "<i4", 51)
    sp_src = data((9, 7), "<u2", 52)
    for path in ("store_dict.b2z", "store_dict.b2d"):
        with blosc2.DictStore(path, mode="w", threshold=1000) as ds:
            ds["/emb"] = blosc2.asarray(emb_src, chunks=(4, 3), blocks=(2, 2))
            ds["/dir/ext"] = blosc2.asarray(ext_src, chunks=(16, 8), blocks=(4, 4))
            ds["/dir/zeros"] = blosc2.zeros((5, 6), "<i2", chunks=(2, 4), blocks=(1, 2))
        for key, src in (("/emb", emb_src), ("/dir/ext", ext_src),
                         ("/dir/zeros", np.zeros((5, 6), "<i2"))):
            def node(path=path, key=key):
                return blosc2.DictStore(path, mode="r")[key]
            fid = path.replace(".", "_") + key.replace("/", "_")
            p.add(fid, path, node, src, key=key)
    with blosc2.EmbedStore("store_embed.b2e", mode="w") as es:
        es["/a"] = blosc2.asarray(emb_src, chunks=(4, 3), blocks=(2, 2))
        es["/big"] = blosc2.asarray(ext_src, chunks=(16, 8), blocks=(4, 4))
    for key, src in (("/a", emb_src), ("/big", ext_src)):
        p.add("store_embed_b2e" + key.replace("/", "_"), "store_embed.b2e",
              lambda key=key: blosc2.EmbedStore("store_embed.b2e", mode="r")[key], src,
              key=key)
    with blosc2.TreeStore("store_tree.b2z", mode="w", threshold=1000) as ts:
        ts["/g/leaf"] = blosc2.asarray(emb_src, chunks=(4, 3), blocks=(2, 2))
        ts["/g/h/big"] = blosc2.asarray(sp_src, chunks=(4, 4), blocks=(2, 2))
        ts["/g"].vlmeta["level"] = 1
    for key, src in (("/g/leaf", emb_src), ("/g/h/big", sp_src)):
        p.add("store_tree_b2z" + key.replace("/", "_"), "store_tree.b2z",
              lambda key=key: blosc2.TreeStore("store_tree.b2z", mode="r")[key], src, key=key)

    # Chunks of variable-length blocks (C-Blosc2 3.x's VL-blocks, byte 30's flag).
    vl_blocks(p)
    variable_chunksize(p)


def vl_blocks(p):
    """An SChunk of VL-block chunks carrying a `b2nd` metalayer: python opens it as an
    NDArray. With blocks of the b2nd blocksize python reads any slice; with uneven
    blocks only whole-chunk reads (C's full decode) work: its partial reads fail."""
    import blosc2
    import numpy as np

    shape, chunks, blocks = (12, 8), (4, 8), (2, 8)
    src = data(shape, "<i4", 60)
    template = blosc2.asarray(src, chunks=chunks, blocks=blocks)
    raw = blosc2.blosc2_ext.meta__getitem__(template.schunk, "b2nd")
    chunk_nbytes = 4 * 8 * 4
    for fid, cuts in (("vlblocks_aligned", [64]), ("vlblocks_uneven", [40, 100])):
        path = fid + ".b2nd"
        sc = blosc2.SChunk(chunksize=chunk_nbytes, urlpath=path, mode="w",
                           meta={"b2nd": b"\0" * (len(raw) - 2)},
                           cparams=blosc2.CParams(typesize=4, nthreads=1))
        blosc2.blosc2_ext.meta__setitem__(sc, "b2nd", raw)
        for c in range(shape[0] // chunks[0]):
            b = src[c * chunks[0]:(c + 1) * chunks[0]].tobytes()
            edges = [0] + cuts + [len(b)]
            parts = [b[x:y] for x, y in zip(edges, edges[1:])]
            sc.append_chunk(blosc2.blosc2_ext.vlcompress(parts, typesize=4, clevel=5,
                                                         filters=[blosc2.Filter.SHUFFLE]))
        del sc
        # Each chunk's full decode (the fast path of a whole-chunk slice) is the data.
        arr = blosc2.open(path, mode="r")
        for c in range(shape[0] // chunks[0]):
            rows = np.s_[c * chunks[0]:(c + 1) * chunks[0]]
            if arr[rows].tobytes() != src[rows].tobytes():
                raise SystemExit(f"{fid}: chunk {c} does not decode to the data")

        class FullByChunks:
            """python's array, whose full read is assembled from whole-chunk reads
            (its `arr[...]` fails on uneven blocks)."""

            def __init__(self, path):
                self.a = blosc2.open(path, mode="r")
                self.shape, self.chunks, self.blocks = self.a.shape, self.a.chunks, self.a.blocks

            def __getitem__(self, index):
                if index is Ellipsis:
                    return np.concatenate([self.a[c * chunks[0]:(c + 1) * chunks[0]]
                                           for c in range(shape[0] // chunks[0])])
                return self.a[index]

        p.add(fid, path, lambda path=path: FullByChunks(path), src,
              notes="VL-block chunks: an SChunk of blosc2_ext.vlcompress chunks with a b2nd "
                    "metalayer; blocks " + ("of the b2nd blocksize" if len(cuts) == 1 else
                                            "of 40, 60 and 28 bytes"))


def variable_chunksize(p):
    """An SChunk made with chunksize=0 (C's variable-size chunks: frame flag bit 6,
    chunksize 0 in the header) carrying a `b2nd` metalayer and an array's chunks:
    python opens and reads it as that NDArray."""
    import blosc2

    src = data((12, 8), "<i4", 61)
    template = blosc2.asarray(src, chunks=(4, 8), blocks=(2, 8), cparams=p.cparams())
    raw = blosc2.blosc2_ext.meta__getitem__(template.schunk, "b2nd")
    path = "varsize_chunks.b2nd"
    sc = blosc2.SChunk(chunksize=0, urlpath=path, mode="w",
                       meta={"b2nd": b"\0" * (len(raw) - 2)},
                       cparams=blosc2.CParams(typesize=4, nthreads=1))
    blosc2.blosc2_ext.meta__setitem__(sc, "b2nd", raw)
    for c in range(template.schunk.nchunks):
        sc.append_chunk(template.schunk.get_chunk(c))
    del sc
    p.add("varsize_chunks", path, lambda: blosc2.open(path, mode="r"), src,
          notes="a frame of variable-size chunks (chunksize 0) holding an array's chunks")


def produce_old(p):
    """python-blosc2 2.7.1 and 3.0.0 (C-Blosc2 2.15): a few arrays in their formats."""
    import blosc2
    import numpy as np

    p.array("old_lz4_shuffle_i4", data((13, 11), "<i4", 70), (5, 4), (2, 3), codec="LZ4")
    p.array("old_zstd_bitshuffle_f8", data((13, 11), "<f8", 71), (5, 4), (2, 3),
            filters=["BITSHUFFLE"])
    p.array("old_blosclz_delta_u2", data((7, 6, 5), "<u2", 72), (3, 4, 2), (2, 3, 2),
            codec="BLOSCLZ", filters=["SHUFFLE", "DELTA"])
    p.array("old_zlib_struct", data((6, 4), STRUCTS["struct_simple"], 73), (4, 3), (3, 2),
            codec="ZLIB")
    p.array("old_ndim0", np.array(11, "<i2"), (), ())
    p.array("old_sparse", data((13, 11), ">f4", 74), (5, 4), (2, 3), contiguous=False)
    path = "old_zeros.b2nd"
    blosc2.zeros((9, 7), "<i8", urlpath=path, mode="w", chunks=(4, 3), blocks=(2, 2))
    p.add("old_zeros", path, lambda: blosc2.open(path, mode="r"), np.zeros((9, 7), "<i8"))


def npy_cases():
    """np.save's header for dtypes and shapes the fixtures do not reach: names outside
    Latin-1 (format 3.0), a header past 65535 bytes (2.0), titles, gaps, nested fields,
    subarrays, 0-d and long shapes. The dtype as python-blosc2 stores it."""
    import numpy as np
    import warnings

    import numpy.lib._format_impl as format_impl

    texts = [
        ("[('\u00e9', '<i4')]", (2,)),
        ("[('\u263a', '<i4')]", (2,)),
        ("[" + ", ".join(f"('f{i}', '<i4')" for i in range(5000)) + "]", (2,)),
        ("{'names': ['a', 'b'], 'formats': ['<i4', '<f8'], 'offsets': [0, 8], "
         "'itemsize': 24, 'titles': ['T', 'U']}", (3,)),
        ("[('a', '<i4'), ('n', [('x', '>f4'), ('y', 'u1')]), ('v', '<i2', (2, 3))]", (4, 5)),
        ("<M8[ns]", ()),
        (">U3", (10**15, 2)),
        ("|b1", (0, 3)),
    ]
    cases = []
    for text, shape in texts:
        import ast

        dt = np.dtype(ast.literal_eval(text) if text[0] in "[{" else text)
        saved = io.BytesIO()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            header = {"descr": np.lib.format.dtype_to_descr(dt), "fortran_order": False,
                      "shape": shape}
            format_impl._write_array_header(saved, header, None)
        cases.append({"dtype": text, "shape": list(shape), "npy_header": saved.getvalue().hex()})
    return cases


def produce(name, out):
    import blosc2

    blosc2.set_nthreads(1)
    p = Producer(name, out)
    if p.v4:
        produce_4(p)
    else:
        produce_old(p)
    p.write()
    print(f"{name}: {len(p.fixtures)} fixtures, {len(p.findings)} findings")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "--produce":
        produce(sys.argv[2], sys.argv[3])
    else:
        drive(sys.argv[1:])
