#!/usr/bin/env python3
"""Frames written by every producer in the wild: python-blosc2 2.7.1, 3.0.0, 3.12.2,
4.14.1 and caterva 0.7.3.

Usage (from the repository root; any python3, the driver needs only the stdlib):

    python3 tests/data/producers/generate.py            # all producers
    python3 tests/data/producers/generate.py blosc2-3.0.0 caterva-0.7.3

For each producer the driver finds a venv (env var B2ND_VENV_<NAME>, e.g.
B2ND_VENV_BLOSC2_2_7_1=/path/to/venv; else /work/venvs/<name>; else
$XDG_CACHE_HOME/b2nd-meta/venvs/<name>, created with `python3 -m venv` and the pinned
`pip install` of PRODUCERS below), wipes tests/data/producers/<name>/ and runs this same
file inside the venv (`<venv>/bin/python generate.py --produce <name> <outdir>`). The
snippet writes the files with that library, then describes each one: header facts from
our own stdlib parse of the header bytes, cross-checked with the library's properties;
metalayer bytes as C returns them (`meta__getitem__` of blosc2_ext or caterva_ext, which
call blosc2_meta_get), cross-checked byte for byte with our parse; "opens" = that library
reopens the file and reads back the data written. Any mismatch aborts the run.
The driver writes manifest.json (format: /work/notes/CONVENTIONS.md, "Producer fixtures").
"""

import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)

PRODUCERS = [
    # name, library, pip pins
    ("blosc2-2.7.1", "blosc2", ["blosc2==2.7.1", "numpy==2.4.6", "msgpack==1.2.4"]),
    ("blosc2-3.0.0", "blosc2", ["blosc2==3.0.0", "numpy==2.4.6", "msgpack==1.2.4"]),
    ("blosc2-3.12.2", "blosc2", ["blosc2==3.12.2", "numpy==2.4.6", "msgpack==1.2.4"]),
    ("blosc2-4.14.1", "blosc2", ["blosc2==4.14.1", "numpy==2.4.6", "msgpack==1.2.4"]),
    ("caterva-0.7.3", "caterva", ["caterva==0.7.3", "numpy==1.26.4", "msgpack==1.2.4"]),
]
# caterva 0.7.3 does not expose the C-Blosc2 version; this is the BLOSC2_VERSION_STRING
# found in its extension (`strings caterva_ext*.so | grep '^2\.'`).
CATERVA_C_BLOSC2 = "2.4.3.dev"


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def venv_python(name, pins):
    env = "B2ND_VENV_" + name.upper().replace("-", "_").replace(".", "_")
    cands = [os.environ.get(env), os.path.join("/work/venvs", name)]
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    own = os.path.join(cache, "b2nd-meta", "venvs", name)
    cands.append(own)
    for c in cands:
        if c and os.path.exists(os.path.join(c, "bin", "python")):
            return os.path.join(c, "bin", "python")
    subprocess.run([sys.executable, "-m", "venv", own], check=True)
    py = os.path.join(own, "bin", "python")
    subprocess.run([py, "-m", "pip", "install", "-q"] + pins, check=True)
    return py


def driver(selected):
    mpath = os.path.join(HERE, "manifest.json")
    old = []
    if os.path.exists(mpath):
        with open(mpath) as f:
            old = json.load(f)["files"]
    files = []
    for name, lib, pins in PRODUCERS:
        if selected and name not in selected:
            files += [e for e in old if e["path"].startswith(f"producers/{name}/")]
            continue
        out = os.path.join(HERE, name)
        if os.path.exists(out):
            shutil.rmtree(out)
        os.makedirs(out)
        py = venv_python(name, pins)
        r = subprocess.run([py, os.path.abspath(__file__), "--produce", name, out],
                           capture_output=True, text=True, cwd=out)
        if r.returncode != 0:
            sys.stderr.write(r.stderr)
            raise SystemExit(f"{name}: producer failed")
        entries = json.loads(r.stdout)
        print(f"{name}: {len(entries)} files", file=sys.stderr)
        files += entries
    order = [p[0] for p in PRODUCERS]
    files.sort(key=lambda e: (order.index(e["path"].split("/")[1]), e["path"]))
    with open(mpath, "w") as f:
        json.dump({"generator": "tests/data/producers/generate.py", "files": files}, f,
                  indent=1)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(dp, fn))
                for dp, _, fns in os.walk(HERE) for fn in fns)
    print(f"{len(files)} entries; tests/data/producers holds {total} bytes", file=sys.stderr)


# --------------------------------------------------------------------------
# Independent header parse (stdlib only; layout from C-Blosc2 frame.h / README_CFRAME)
# --------------------------------------------------------------------------

def parse_header(buf):
    def want(pos, byte, what):
        if buf[pos] != byte:
            raise ValueError(f"{what}: expected 0x{byte:02x} at {pos}, got 0x{buf[pos]:02x}")
    want(0, 0x9E, "fixarray(14)")
    want(1, 0xA8, "fixstr(8)")
    assert buf[2:10] == b"b2frame\x00"
    h = {}
    for key, mark, pos, fmt in [("header_len", 0xD2, 10, ">i"), ("frame_len", 0xCF, 15, ">Q"),
                                ("nbytes", 0xD3, 29, ">q"), ("cbytes", 0xD3, 38, ">q"),
                                ("typesize", 0xD2, 47, ">i"), ("blocksize", 0xD2, 52, ">i"),
                                ("chunksize", 0xD2, 57, ">i"), ("nthreads_c", 0xD1, 62, ">h"),
                                ("nthreads_d", 0xD1, 65, ">h")]:
        want(pos, mark, key)
        h[key] = struct.unpack_from(fmt, buf, pos + 1)[0]
    want(24, 0xA4, "flags")
    h["flags"] = list(buf[25:29])
    h["has_vlmetalayers"] = buf[68]
    want(69, 0xD8, "filters fixext16")
    pos = 87
    want(pos, 0x93, "metalayers fixarray(3)")
    want(pos + 1, 0xCD, "index size uint16")
    pos += 4
    want(pos, 0xDE, "map16")
    n = struct.unpack_from(">H", buf, pos + 1)[0]
    pos += 3
    idx = []
    for _ in range(n):
        ln = buf[pos] - 0xA0
        assert 0 <= ln < 32
        name = bytes(buf[pos + 1:pos + 1 + ln]).decode()
        pos += 1 + ln
        want(pos, 0xD2, "metalayer offset")
        idx.append((name, struct.unpack_from(">i", buf, pos + 1)[0]))
        pos += 5
    want(pos, 0xDC, "array16")
    assert struct.unpack_from(">H", buf, pos + 1)[0] == n
    metas = {}
    for name, off in idx:
        want(off, 0xC6, "bin32")
        ln = struct.unpack_from(">i", buf, off + 1)[0]
        metas[name] = {"offset": off, "content": bytes(buf[off + 5:off + 5 + ln])}
    h["metas"] = metas
    h["names"] = [n for n, _ in idx]
    return h


def decode_array_meta(c):
    """b2nd (fixarray 7: version, ndim, shape, chunks, blocks, dtype_format, dtype) or
    caterva (fixarray 5: version, ndim, shape, chunks, blocks), by its fixed layout."""
    assert c[0] in (0x95, 0x97), c[:1].hex()
    ndim = c[2]
    pos = 3
    out = []
    for width, mark in [(8, 0xD3), (4, 0xD2), (4, 0xD2)]:
        assert c[pos] == 0x90 + ndim, (c[pos], ndim)
        pos += 1
        v = []
        for _ in range(ndim):
            assert c[pos] == mark
            v.append(int.from_bytes(c[pos + 1:pos + 1 + width], "big", signed=True))
            pos += 1 + width
        out.append(v)
    dtype = None
    if c[0] == 0x97:
        pos += 1  # dtype format
        assert c[pos] == 0xDB
        ln = struct.unpack_from(">I", c, pos + 1)[0]
        dtype = bytes(c[pos + 5:pos + 5 + ln]).decode()
    return {"version": c[1], "shape": out[0], "chunkshape": out[1], "blockshape": out[2],
            "dtype": dtype}


# --------------------------------------------------------------------------
# Producer side (runs inside the producer's venv)
# --------------------------------------------------------------------------

def produce(name, out):
    import numpy as np
    lib = dict((p[0], p[1]) for p in PRODUCERS)[name]
    cases = []  # (fname, description, kind, writer(path) -> expected numpy array)

    def add(fname, description, kind="contiguous"):
        def deco(fn):
            cases.append((fname, description, kind, fn))
            return fn
        return deco

    a2 = np.arange(70, dtype="<i4").reshape(10, 7)
    a1 = (np.arange(400, dtype="<i2") % 7)

    if lib == "blosc2":
        import blosc2
        from blosc2 import blosc2_ext
        blosc2.set_nthreads(1)  # C-Blosc2 records nthreads in the header
        version = blosc2.__version__
        producer, c_blosc2 = f"python-blosc2 {version}", blosc2.VERSION_STRING
        CP = {"nthreads": 1}
        DP = {"nthreads": 1}

        def cp(**kw):
            return dict(CP, **kw)

        def mk(data, p, kind="contiguous", **kw):
            return blosc2.asarray(data, urlpath=p, mode="w", contiguous=(kind == "contiguous"),
                                  cparams=cp(**kw.pop("c", {})), dparams=DP, **kw)

        @add("ndim2_i4.b2nd", "(10,7) int32 arange, chunks (4,4), blocks (2,2), default codec")
        def _(p):
            mk(a2, p, chunks=(4, 4), blocks=(2, 2))
            return a2

        @add("ndim0_i8.b2nd", "0-d int64 scalar 7")
        def _(p):
            mk(np.array(7, dtype="<i8"), p)
            return np.array(7, dtype="<i8")

        def zeros_first_ok(p, shape, dtype, tries):
            for chunks, blocks in tries:  # older versions refuse some partitions of 0
                try:
                    return blosc2.zeros(shape, dtype=dtype, chunks=chunks, blocks=blocks,
                                        urlpath=p, mode="w", cparams=cp(), dparams=DP)
                except ValueError:
                    pass
            # 2.7.1 refuses every partition of an empty shape: make it by resizing.
            grown = tuple(x or 2 for x in shape)
            a = blosc2.zeros(grown, dtype=dtype, chunks=tries[0][0] or grown,
                             blocks=tries[0][1] or grown, urlpath=p, mode="w", cparams=cp(),
                             dparams=DP)
            a.resize(shape)

        @add("empty_axis.b2nd", "(0,4) float64 zeros: an axis of length 0, chunks (2,2), "
             "blocks (1,2); 2.7.1 refuses to create it, so there: zeros (2,4) resized to (0,4)")
        def _(p):
            zeros_first_ok(p, (0, 4), "<f8", [((2, 2), (1, 2))])
            return np.zeros((0, 4), "<f8")

        @add("empty_1d.b2nd", "(0,) float32 zeros, default chunks; 2.7.1 refuses to create "
             "it, so there: zeros (2,) resized to (0,)")
        def _(p):
            zeros_first_ok(p, (0,), "<f4", [(None, None)])
            return np.zeros((0,), "<f4")

        for fname, new in [("resized_grown.b2nd", (7, 9)), ("resized_shrunk.b2nd", (3, 2))]:
            @add(fname, f"(5,3) int16 arange, chunks (2,2), blocks (1,2), resized to {new}")
            def _(p, new=new):
                base = np.arange(15, dtype="<i2").reshape(5, 3)
                mk(base, p, chunks=(2, 2), blocks=(1, 2))
                a = blosc2.open(p, mode="a")
                a.resize(new)
                exp = np.zeros(new, "<i2")
                r = tuple(slice(0, min(x, y)) for x, y in zip(new, base.shape))
                exp[r] = base[r]
                return exp

        @add("sparse_2d.b2nd", "sparse frame (directory, contiguous=False): (10,7) int32 arange, "
             "chunks (4,4), blocks (2,2)", kind="sparse")
        def _(p):
            mk(a2, p, kind="sparse", chunks=(4, 4), blocks=(2, 2))
            return a2

        @add("user_meta.b2nd", "(400,) int16 arange % 7, chunks (200,), user metalayers 'mine' (map) and "
             "'other' (list), vlmeta 'note' and 'nums'")
        def _(p):
            a = mk(a1, p, chunks=(200,), blocks=(100,),
                   meta={"mine": {"answer": 42, "tag": "x"}, "other": [1, 2, 3]})
            a.schunk.vlmeta["note"] = "hello"
            a.schunk.vlmeta["nums"] = [1, 2.5, None]
            return a1

        for cname, level in [("LZ4", 1), ("ZSTD", 9), ("BLOSCLZ", 5), ("ZLIB", 6)]:
            @add(f"codec_{cname.lower()}.b2nd", f"(400,) int16 arange % 7, chunks (200,), codec {cname} "
                 f"clevel {level}")
            def _(p, cname=cname, level=level):
                mk(a1, p, chunks=(200,), blocks=(100,),
                   c={"codec": getattr(blosc2.Codec, cname), "clevel": level})
                return a1

        def describe_lib(p, kind):
            arr = blosc2.open(p, mode="r")
            s = arr.schunk
            names = list(s.meta.keys())
            metas = {n: bytes(blosc2_ext.meta__getitem__(s, n)) for n in names}
            props = {"typesize": s.typesize, "nbytes": s.nbytes, "chunksize": s.chunksize,
                     "blocksize": s.blocksize}
            vl = [k.decode() if isinstance(k, bytes) else k
                  for k in (s.vlmeta.getall().keys() if len(s.vlmeta) else [])]
            data = arr[...]
            arrinfo = {"shape": list(arr.shape), "chunkshape": list(arr.chunks),
                       "blockshape": list(arr.blocks)}
            return names, metas, props, vl, data, arrinfo

    else:
        import caterva as cat
        producer, c_blosc2 = f"caterva {cat.__version__}", CATERVA_C_BLOSC2

        def mk(data, p, kind="contiguous", **kw):
            return cat.asarray(np.ascontiguousarray(data), urlpath=p,
                               contiguous=(kind == "contiguous"), nthreads=1, **kw)

        @add("ndim2_i4.cat", "(10,7) int32 arange, chunks (4,4), blocks (2,2), default codec")
        def _(p):
            mk(a2, p, chunks=(4, 4), blocks=(2, 2))
            return a2

        @add("ndim0_i8.cat", "0-d int64 scalar 7")
        def _(p):
            # caterva refuses an empty chunks=() and asarray of a 0-d array gives shape (1,);
            # from_buffer with shape () ignores the chunk/block entries beyond ndim 0.
            cat.from_buffer(np.array(7, dtype="<i8").tobytes(), (), 8, chunks=(1,),
                            blocks=(1,), urlpath=p, contiguous=True, nthreads=1)
            return np.array(7, dtype="<i8")

        @add("empty_axis.cat", "(0,4) itemsize 8 zeros, chunks (2,2), blocks (1,2): "
             "caterva writes chunksize -1 in the header")
        def _(p):
            cat.zeros((0, 4), 8, chunks=(2, 2), blocks=(1, 2), urlpath=p, contiguous=True,
                      nthreads=1)
            return np.zeros((0, 4), "<i8")

        @add("empty_chunk0.cat", "(0,4) itemsize 8 zeros, chunks (0,4), blocks (0,2): "
             "blocksize 0 and chunksize -1 in the header")
        def _(p):
            cat.zeros((0, 4), 8, chunks=(0, 4), blocks=(0, 2), urlpath=p, contiguous=True,
                      nthreads=1)
            return np.zeros((0, 4), "<i8")

        for fname, new in [("resized_grown.cat", (7, 9)), ("resized_shrunk.cat", (3, 2))]:
            @add(fname, f"(5,3) int16 arange, chunks (2,2), blocks (1,2), resized to {new}")
            def _(p, new=new):
                base = np.arange(15, dtype="<i2").reshape(5, 3)
                a = mk(base, p, chunks=(2, 2), blocks=(1, 2))
                a.resize(new)
                exp = np.zeros(new, "<i2")
                r = tuple(slice(0, min(x, y)) for x, y in zip(new, base.shape))
                exp[r] = base[r]
                return exp

        @add("sparse_2d.cat", "sparse frame (directory, contiguous=False): (10,7) int32 "
             "arange, chunks (4,4), blocks (2,2)", kind="sparse")
        def _(p):
            mk(a2, p, kind="sparse", chunks=(4, 4), blocks=(2, 2))
            return a2

        @add("user_meta.cat", "(400,) int16 arange % 7, chunks (200,), user metalayers 'mine' and 'other' "
             "(caterva takes raw bytes: msgpack of a map and of a list)")
        def _(p):
            mk(a1, p, chunks=(200,), blocks=(100,),
               meta={"mine": bytes.fromhex("82a6616e737765722aa3746167a178"),
                     "other": bytes.fromhex("93010203")})
            return a1

        for cname, level in [("LZ4", 1), ("ZSTD", 9), ("BLOSCLZ", 5), ("ZLIB", 6)]:
            @add(f"codec_{cname.lower()}.cat", f"(400,) int16 arange % 7, chunks (200,), codec {cname} "
                 f"clevel {level}")
            def _(p, cname=cname, level=level):
                mk(a1, p, chunks=(200,), blocks=(100,), codec=getattr(cat.Codec, cname),
                   clevel=level)
                return a1

        def describe_lib(p, kind):
            arr = cat.open(p)
            names = list(arr.meta.keys())
            metas = {n: bytes(arr.meta[n]) for n in names}
            props = {"typesize": arr.itemsize, "chunksize": arr.chunksize,
                     "blocksize": arr.blocksize}
            data = np.frombuffer(arr.to_buffer(), dtype=f"V{arr.itemsize}").reshape(arr.shape)
            arrinfo = {"shape": list(arr.shape), "chunkshape": list(arr.chunks),
                       "blockshape": list(arr.blocks)}
            return names, metas, props, [], data, arrinfo

    entries = []
    for fname, description, kind, writer in cases:
        p = os.path.join(out, fname)
        expected = writer(p)
        hpath = p if kind == "contiguous" else os.path.join(p, "chunks.b2frame")
        with open(hpath, "rb") as f:
            buf = f.read()
        h = parse_header(buf)
        assert h["frame_len"] == len(buf), (fname, h["frame_len"], len(buf))
        assert (h["nthreads_c"], h["nthreads_d"]) == (1, 1), (fname, h["nthreads_c"])
        names, metas, props, vl, data, arrinfo = describe_lib(p, kind)
        # C's metalayer bytes == our parse, names in header order.
        assert names == h["names"], (fname, names, h["names"])
        for n in names:
            assert metas[n] == h["metas"][n]["content"], (fname, n)
        am = "b2nd" if "b2nd" in metas else "caterva"
        d = decode_array_meta(metas[am])
        assert [d["shape"], d["chunkshape"], d["blockshape"]] == \
            [arrinfo["shape"], arrinfo["chunkshape"], arrinfo["blockshape"]], (fname, d, arrinfo)
        # Header facts against the library's own properties.
        notes = []
        for k, v in props.items():
            if h[k] != v:
                if lib == "caterva" and k in ("chunksize", "blocksize"):
                    # caterva's properties are items of the array chunk/block, not bytes
                    notes.append(f"caterva NDArray.{k} = {v} (header {h[k]})")
                    continue
                raise AssertionError((fname, k, h[k], v))
        # Opens = the library reopened it (describe_lib) and reads the data written.
        if lib == "caterva":
            expected = np.ascontiguousarray(expected).view(
                f"V{expected.dtype.itemsize}").reshape(expected.shape)
        assert data.shape == expected.shape and data.tobytes() == expected.tobytes(), fname
        entries.append({
            "path": os.path.relpath(p, DATA),
            "producer": producer,
            "c_blosc2": c_blosc2,
            "kind": kind,
            "description": description + ("" if not notes else "; " + "; ".join(notes)),
            "opens": True,
            "typesize": h["typesize"], "nbytes": h["nbytes"], "chunksize": h["chunksize"],
            "blocksize": h["blocksize"],
            "array": {"metalayer": am, "shape": d["shape"], "chunkshape": d["chunkshape"],
                      "blockshape": d["blockshape"], "dtype": d["dtype"]},
            "metalayers": {n: metas[n].hex() for n in names},
            "vlmeta_names": vl,
        })
    json.dump(entries, sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--produce":
        produce(sys.argv[2], sys.argv[3])
    else:
        driver(sys.argv[1:])
