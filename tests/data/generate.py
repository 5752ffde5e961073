#!/usr/bin/env python3
"""Generate the b2nd-meta test corpus from real python-blosc2 output.

Usage (from the repository root):

    pip install blosc2==4.14.1 msgpack==1.2.4
    python tests/data/generate.py

Writes `tests/data/corpus/` (wiped first) and `tests/data/manifest.json`.
Everything is deterministic: fixed data, fixed chunk/block shapes, and the
thread count pinned to 1 (C-Blosc2 records nthreads in the frame header, so
an unpinned run would embed the machine's core count).

For every file we take the raw metalayer bytes from C-Blosc2 itself
(`blosc2_meta_get`, reached through `blosc2.blosc2_ext.meta__getitem__`) and
check them byte-for-byte against an independent Python parse of the frame
header written below.  The script aborts on any disagreement.
"""

import hashlib
import json
import os
import platform
import shutil
import struct
import sys
import tempfile

import msgpack
import numpy as np

import blosc2
from blosc2 import blosc2_ext

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
MANIFEST = os.path.join(HERE, "manifest.json")

RAW_SOURCE = "c-blosc2:blosc2_meta_get"
RAW_SOURCE_DETAIL = (
    "Raw metalayer content bytes are C-Blosc2's own answer: "
    "blosc2.blosc2_ext.meta__getitem__(schunk, name), a thin Cython wrapper that calls "
    "blosc2_meta_get() on the schunk C-Blosc2 built when opening the file. They were then "
    "checked byte-for-byte against this script's independent parse of the frame header "
    "(parse_frame_header); the names and their order come from the parse and were checked "
    "against schunk.meta.keys()."
)


# --------------------------------------------------------------------------
# Independent frame-header parser (layout from C-Blosc2 blosc/frame.h, frame.c)
# --------------------------------------------------------------------------

def _expect(buf, pos, byte, what):
    if buf[pos] != byte:
        raise ValueError(f"{what}: expected 0x{byte:02x} at {pos}, got 0x{buf[pos]:02x}")


def parse_frame_header(buf):
    """Parse the fixed part of a frame header and its metalayer section."""
    _expect(buf, 0, 0x9E, "fixarray(14)")
    _expect(buf, 1, 0xA8, "fixstr(8)")
    if buf[2:10] != b"b2frame\x00":
        raise ValueError("bad magic")
    _expect(buf, 10, 0xD2, "header_len marker")
    header_len = struct.unpack(">i", buf[11:15])[0]
    _expect(buf, 15, 0xCF, "frame_len marker")
    frame_len = struct.unpack(">Q", buf[16:24])[0]
    _expect(buf, 24, 0xA4, "flags marker")
    flags = list(buf[25:29])
    _expect(buf, 29, 0xD3, "nbytes marker")
    nbytes = struct.unpack(">q", buf[30:38])[0]
    _expect(buf, 38, 0xD3, "cbytes marker")
    cbytes = struct.unpack(">q", buf[39:47])[0]
    _expect(buf, 47, 0xD2, "typesize marker")
    typesize = struct.unpack(">i", buf[48:52])[0]
    _expect(buf, 52, 0xD2, "blocksize marker")
    blocksize = struct.unpack(">i", buf[53:57])[0]
    _expect(buf, 57, 0xD2, "chunksize marker")
    chunksize = struct.unpack(">i", buf[58:62])[0]
    _expect(buf, 62, 0xD1, "nthreads_c marker")
    nthreads_c = struct.unpack(">h", buf[63:65])[0]
    _expect(buf, 65, 0xD1, "nthreads_d marker")
    nthreads_d = struct.unpack(">h", buf[66:68])[0]
    has_vlmetalayers = {0xC2: False, 0xC3: True}[buf[68]]
    _expect(buf, 69, 0xD8, "filter pipeline fixext16 marker")

    # Metalayer section
    pos = 87
    _expect(buf, pos, 0x93, "metalayer fixarray(3)")
    _expect(buf, pos + 1, 0xCD, "index size marker")
    index_size = struct.unpack(">H", buf[pos + 2:pos + 4])[0]
    pos += 4
    _expect(buf, pos, 0xDE, "map16 marker")
    n = struct.unpack(">H", buf[pos + 1:pos + 3])[0]
    pos += 3
    entries = []
    for _ in range(n):
        b = buf[pos]
        if not (0xA0 <= b <= 0xBF):
            raise ValueError(f"metalayer name at {pos} is not a fixstr (0x{b:02x})")
        ln = b & 0x1F
        name = bytes(buf[pos + 1:pos + 1 + ln]).decode("utf-8")
        pos += 1 + ln
        _expect(buf, pos, 0xD2, "metalayer offset marker")
        off = struct.unpack(">i", buf[pos + 1:pos + 5])[0]
        pos += 5
        entries.append((name, off))
    index_end = pos  # position of the 0xdc
    _expect(buf, pos, 0xDC, "array16 marker")
    n2 = struct.unpack(">H", buf[pos + 1:pos + 3])[0]
    if n2 != n:
        raise ValueError("index/contents count mismatch")
    pos += 3
    metas = []
    for name, off in entries:
        if off != pos:
            raise ValueError(f"metalayer {name}: offset {off} != running position {pos}")
        _expect(buf, off, 0xC6, "bin32 marker")
        ln = struct.unpack(">i", buf[off + 1:off + 5])[0]
        content = bytes(buf[off + 5:off + 5 + ln])
        metas.append({"name": name, "offset": off, "content_offset": off + 5,
                      "content_len": ln, "content": content})
        pos = off + 5 + ln
    return {
        "header_len": header_len,
        "frame_len": frame_len,
        "flags": flags,
        "nbytes": nbytes,
        "cbytes": cbytes,
        "typesize": typesize,
        "blocksize": blocksize,
        "chunksize": chunksize,
        "nthreads_c": nthreads_c,
        "nthreads_d": nthreads_d,
        "has_vlmetalayers": has_vlmetalayers,
        "metalayer_index_size": index_size,
        "metalayer_index_end": index_end,
        "metalayers_end": pos,
        "metas": metas,
    }


# --------------------------------------------------------------------------
# Independent b2nd (v1 layout) content decoder/encoder
# --------------------------------------------------------------------------

def decode_b2nd(c):
    """Decode b2nd content by its fixed layout (not via msgpack)."""
    if c[0] != 0x97:
        raise ValueError("b2nd: not fixarray(7)")
    version = c[1]
    ndim = c[2]
    pos = 3

    def arr_hdr():
        nonlocal pos
        if c[pos] != 0x90 + ndim:
            raise ValueError(f"b2nd: bad array header 0x{c[pos]:02x} for ndim {ndim}")
        pos += 1

    arr_hdr()
    shape = []
    for _ in range(ndim):
        assert c[pos] == 0xD3
        shape.append(struct.unpack(">q", c[pos + 1:pos + 9])[0])
        pos += 9
    out = []
    for _ in range(2):
        arr_hdr()
        v = []
        for _ in range(ndim):
            assert c[pos] == 0xD2
            v.append(struct.unpack(">i", c[pos + 1:pos + 5])[0])
            pos += 5
        out.append(v)
    dtype_format = c[pos]
    pos += 1
    assert c[pos] == 0xDB
    ln = struct.unpack(">I", c[pos + 1:pos + 5])[0]
    pos += 5
    dtype = c[pos:pos + ln].decode("utf-8")
    pos += ln
    if pos != len(c):
        raise ValueError("b2nd: trailing bytes")
    return {"version": version, "ndim": ndim, "shape": shape, "chunks": out[0],
            "blocks": out[1], "dtype_format": dtype_format, "dtype": dtype}


def encode_b2nd(d):
    """Encode b2nd content with C-Blosc2's fixed-width layout."""
    ndim = d["ndim"]
    b = bytearray([0x97, d["version"], ndim, 0x90 + ndim])
    for s in d["shape"]:
        b += b"\xd3" + struct.pack(">q", s)
    for key in ("chunks", "blocks"):
        b.append(0x90 + ndim)
        for s in d[key]:
            b += b"\xd2" + struct.pack(">i", s)
    b.append(d["dtype_format"])
    ds = d["dtype"].encode("utf-8")
    b += b"\xdb" + struct.pack(">I", len(ds)) + ds
    return bytes(b)


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def rel(path):
    return os.path.relpath(path, HERE).replace(os.sep, "/")


def header_file(path):
    return os.path.join(path, "chunks.b2frame") if os.path.isdir(path) else path


def file_list(path):
    if os.path.isdir(path):
        names = sorted(os.listdir(path))
        paths = [os.path.join(path, n) for n in names]
    else:
        paths = [path]
    return [{"path": rel(p), "size": os.path.getsize(p), "sha256": sha256(p)} for p in paths]


def jsonable(v):
    if isinstance(v, bytes):
        return {"$bytes_hex": v.hex()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return v.item()
    return v


def stored_dtype_string(dtype):
    # What python-blosc2 writes (blosc2_ext.pyx): str(dtype) for kind 'V', else dtype.str
    return str(dtype) if dtype.kind == "V" else dtype.str


def msgpack_crosscheck(raw, arr):
    """Unpack b2nd content with the msgpack package and compare to python-blosc2."""
    res = {}
    try:
        up = msgpack.Unpacker(raw=False, strict_map_key=False)
        up.feed(raw)
        obj = next(up)
        leftover = len(raw) - up.tell()
        res["decoded"] = jsonable(obj)
        res["leftover_bytes"] = leftover
        ok = (
            leftover == 0
            and isinstance(obj, list) and len(obj) == 7
            and tuple(obj[2]) == tuple(arr.shape)
            and tuple(obj[3]) == tuple(arr.chunks)
            and tuple(obj[4]) == tuple(arr.blocks)
            and obj[6] == stored_dtype_string(arr.dtype)
        )
        res["ok"] = bool(ok)
        res["error"] = None
    except Exception as e:  # noqa: BLE001
        res["decoded"] = None
        res["leftover_bytes"] = None
        res["ok"] = False
        res["error"] = f"{type(e).__name__}: {e}"
    return res


def open_any(path):
    obj = blosc2.open(path, mode="r")
    return obj


def describe(name, path, description, expect_b2nd=True):
    """Open a written file and build its manifest entry (with all cross-checks)."""
    hpath = header_file(path)
    with open(hpath, "rb") as f:
        buf = f.read()
    hdr = parse_frame_header(buf)

    obj = open_any(path)
    is_nd = isinstance(obj, blosc2.NDArray)
    schunk = obj.schunk if is_nd else obj
    c_names = list(schunk.meta.keys())
    p_names = [m["name"] for m in hdr["metas"]]
    assert c_names == p_names, (name, c_names, p_names)

    metalayers = []
    for m in hdr["metas"]:
        c_raw = blosc2_ext.meta__getitem__(schunk, m["name"])
        assert c_raw == m["content"], (name, m["name"], c_raw.hex(), m["content"].hex())
        entry = {
            "name": m["name"],
            "offset": m["offset"],
            "content_offset": m["content_offset"],
            "content_len": m["content_len"],
            "raw_hex": c_raw.hex(),
        }
        if m["name"] != "b2nd":
            # user metalayers: python-blosc2 msgpack-packs the value it was given
            entry["value"] = jsonable(msgpack.unpackb(c_raw, raw=False, strict_map_key=False))
        metalayers.append(entry)

    cp = schunk.cparams
    e = {
        "name": name,
        "description": description,
        "path": rel(path),
        "kind": "sparse" if os.path.isdir(path) else "cframe",
        "header_path": rel(hpath),
        "files": file_list(path),
        "is_ndarray": is_nd,
    }
    if is_nd:
        d = decode_b2nd(next(m["content"] for m in hdr["metas"] if m["name"] == "b2nd"))
        dt = obj.dtype
        assert d["shape"] == list(obj.shape), (name, d, obj.shape)
        assert d["chunks"] == list(obj.chunks)
        assert d["blocks"] == list(obj.blocks)
        assert d["dtype"] == stored_dtype_string(dt), (d["dtype"], stored_dtype_string(dt))
        assert np.dtype(dt) == dt
        e.update({
            "ndim": obj.ndim,
            "shape": list(obj.shape),
            "chunks": list(obj.chunks),
            "blocks": list(obj.blocks),
            "b2nd_version": d["version"],
            "dtype_format": d["dtype_format"],
            "dtype_stored": d["dtype"],
            "dtype_numpy_str": dt.str,
            "dtype_kind": dt.kind,
            "dtype_itemsize": dt.itemsize,
        })
    else:
        assert not expect_b2nd
        e.update({k: None for k in ("ndim", "shape", "chunks", "blocks", "b2nd_version",
                                    "dtype_format", "dtype_stored", "dtype_numpy_str",
                                    "dtype_kind", "dtype_itemsize")})
    e.update({
        "typesize": schunk.typesize,
        "codec": cp.codec.name,
        "codec_code": int(cp.codec.value),
        "clevel": int(cp.clevel),
        "nbytes": int(schunk.nbytes),
        "cbytes": int(schunk.cbytes),
        "nchunks": int(schunk.nchunks),
        "chunksize": int(schunk.chunksize),
        "blocksize": int(schunk.blocksize),
        "contiguous": bool(schunk.contiguous),
        "header_len": hdr["header_len"],
        "frame_len": hdr["frame_len"],
        "header": {
            "flags": hdr["flags"],
            "nbytes": hdr["nbytes"],
            "cbytes": hdr["cbytes"],
            "typesize": hdr["typesize"],
            "blocksize": hdr["blocksize"],
            "chunksize": hdr["chunksize"],
            "nthreads_c": hdr["nthreads_c"],
            "nthreads_d": hdr["nthreads_d"],
            "has_vlmetalayers": hdr["has_vlmetalayers"],
            "metalayer_index_size": hdr["metalayer_index_size"],
            "metalayer_index_end": hdr["metalayer_index_end"],
            "metalayers_end": hdr["metalayers_end"],
        },
        "metalayer_names": p_names,
        "metalayers": metalayers,
        "vlmeta": jsonable(dict(schunk.vlmeta.getall())) if len(schunk.vlmeta) else {},
    })
    # Sanity relations between the header and python-blosc2's view.
    assert hdr["typesize"] == schunk.typesize
    assert hdr["nbytes"] == schunk.nbytes, (name, hdr["nbytes"], schunk.nbytes)
    assert hdr["cbytes"] == schunk.cbytes, (name, hdr["cbytes"], schunk.cbytes)
    # For a sparse frame, frame_len covers chunks.b2frame only.
    assert hdr["frame_len"] == os.path.getsize(hpath)
    if is_nd:
        e["msgpack_crosscheck"] = msgpack_crosscheck(
            next(m["content"] for m in hdr["metas"] if m["name"] == "b2nd"), obj)
    else:
        e["msgpack_crosscheck"] = None
    return e


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------

def P(fname):
    return os.path.join(CORPUS, fname)


def cases():
    """Yield (name, filename, description, writer) tuples."""
    C = []

    def add(name, fname, description):
        def deco(fn):
            C.append((name, fname, description, fn))
            return fn
        return deco

    # ---- ndim ----
    @add("ndim0_i8", "ndim0_i8.b2nd", "0-d array (scalar 7), int64")
    def _(p):
        blosc2.asarray(np.array(7, dtype="<i8"), urlpath=p, mode="w")

    @add("ndim1_f8", "ndim1_f8.b2nd", "1-d arange(10) float64, chunks (4,), blocks (2,)")
    def _(p):
        blosc2.asarray(np.arange(10, dtype="<f8"), chunks=(4,), blocks=(2,), urlpath=p, mode="w")

    @add("ndim2_i4", "ndim2_i4.b2nd", "2-d arange int32 (10,7), chunks (4,4), blocks (2,2)")
    def _(p):
        blosc2.asarray(np.arange(70, dtype="<i4").reshape(10, 7), chunks=(4, 4), blocks=(2, 2),
                       urlpath=p, mode="w")

    @add("ndim3_u2", "ndim3_u2.b2nd", "3-d arange uint16 (3,4,5), chunks (2,3,4), blocks (1,2,2)")
    def _(p):
        blosc2.asarray(np.arange(60, dtype="<u2").reshape(3, 4, 5), chunks=(2, 3, 4),
                       blocks=(1, 2, 2), urlpath=p, mode="w")

    shape8 = (2, 3, 1, 2, 1, 1, 2, 1)

    @add("ndim8_u1", "ndim8_u1.b2nd", "8-d arange uint8 with distinct axis lengths")
    def _(p):
        blosc2.asarray(np.arange(int(np.prod(shape8)), dtype="u1").reshape(shape8),
                       chunks=(1, 2, 1, 2, 1, 1, 1, 1), blocks=(1, 1, 1, 1, 1, 1, 1, 1),
                       urlpath=p, mode="w")

    shape15 = (2,) + (1,) * 13 + (3,)

    @add("ndim15_i2", "ndim15_i2.b2nd", "15-d arange int16, shape (2,1..1,3)")
    def _(p):
        blosc2.asarray(np.arange(6, dtype="<i2").reshape(shape15),
                       chunks=(1,) + (1,) * 13 + (2,), blocks=(1,) * 15, urlpath=p, mode="w")

    shape16 = (3,) + (1,) * 14 + (2,)

    @add("ndim16_u1", "ndim16_u1.b2nd",
         "16-d (B2ND_MAX_DIM) arange uint8, shape (3,1..1,2); array headers are 0x90+16 = 0xa0")
    def _(p):
        blosc2.asarray(np.arange(6, dtype="u1").reshape(shape16),
                       chunks=(2,) + (1,) * 14 + (2,), blocks=(1,) * 15 + (2,), urlpath=p, mode="w")

    # ---- empty axes / huge axes ----
    @add("empty_1d", "empty_1d.b2nd", "1-d shape (0,), float32")
    def _(p):
        blosc2.zeros((0,), dtype="<f4", urlpath=p, mode="w")

    @add("empty_mid_axis", "empty_mid_axis.b2nd", "3-d shape (3,0,4) float32, chunks (2,1,2)")
    def _(p):
        blosc2.zeros((3, 0, 4), dtype="<f4", chunks=(2, 1, 2), blocks=(1, 1, 2), urlpath=p, mode="w")

    @add("bigaxis_emptyaxis", "bigaxis_emptyaxis.b2nd",
         "shape (2**31+5, 0) float64: axis > 2^31 but zero items; chunks (1000,1)")
    def _(p):
        blosc2.zeros((2**31 + 5, 0), dtype="<f8", chunks=(1000, 1), blocks=(100, 1),
                     urlpath=p, mode="w")

    @add("bigaxis_emptyaxis_chunk0", "bigaxis_emptyaxis_chunk0.b2nd",
         "shape (2**31+5, 0) float64 with a 0 in chunkshape and blockshape (1000,0)/(100,0)")
    def _(p):
        blosc2.zeros((2**31 + 5, 0), dtype="<f8", chunks=(1000, 0), blocks=(100, 0),
                     urlpath=p, mode="w")

    @add("bigaxis_zeros_1d", "bigaxis_zeros_1d.b2nd",
         "1-d shape (3_000_000_000,) int8 via blosc2.zeros, chunks (2**30,), 3 special zero chunks")
    def _(p):
        blosc2.zeros((3_000_000_000,), dtype="i1", chunks=(2**30,), blocks=(2**20,),
                     urlpath=p, mode="w")

    @add("bigaxis_empty_1d", "bigaxis_empty_1d.b2nd",
         "1-d shape (3_000_000_000,) int8 via blosc2.empty (uninitialized special chunks)")
    def _(p):
        blosc2.empty((3_000_000_000,), dtype="i1", chunks=(2**30,), blocks=(2**20,),
                     urlpath=p, mode="w")

    # ---- dtypes ----
    simple = [
        ("bool", "?", np.array([True, False, True])),
        ("int8", "i1", None), ("int16", "<i2", None), ("int32", "<i4", None), ("int64", "<i8", None),
        ("uint8", "u1", None), ("uint16", "<u2", None), ("uint32", "<u4", None), ("uint64", "<u8", None),
        ("float16", "<f2", None), ("float32", "<f4", None), ("float64", "<f8", None),
        ("complex64", "<c8", None), ("complex128", "<c16", None),
        ("be_int32", ">i4", None), ("be_float64", ">f8", None),
        ("bytes_S5", "S5", np.array([b"ab", b"hello", b""], dtype="S5")),
        ("unicode_U3", "<U3", np.array(["a", "xyz", ""], dtype="<U3")),
        ("void_V8", "V8", np.zeros(3, dtype="V8")),
        ("datetime64_ns", "<M8[ns]", np.array([0, 1, 1_700_000_000_000_000_000], dtype="<M8[ns]")),
        ("timedelta64_s", "<m8[s]", np.array([0, -5, 3600], dtype="<m8[s]")),
    ]
    for label, dts, data in simple:
        def w(p, dts=dts, data=data):
            if data is None:
                data = np.arange(3).astype(dts)
            blosc2.asarray(data, urlpath=p, mode="w")
        C.append((f"dtype_{label}", f"dtype_{label}.b2nd", f"1-d, 3 items, dtype {dts!r}", w))

    structured = [
        ("struct_simple", [("a", "<i4"), ("b", "<f8", (2,))]),
        ("struct_offsets", {"names": ["a", "b"], "formats": ["<i4", "<f8"],
                            "offsets": [0, 8], "itemsize": 24}),
        ("struct_nested", [("a", "<i4"), ("n", [("x", "<f4"), ("y", "u1")])]),
        ("struct_mixed", [("a", ">i2"), ("s", "S3"), ("u", "<U2")]),
    ]
    for label, spec in structured:
        def w(p, spec=spec):
            dt = np.dtype(spec)
            blosc2.asarray(np.zeros(2, dtype=dt), urlpath=p, mode="w")
        C.append((f"dtype_{label}", f"dtype_{label}.b2nd",
                  f"1-d, 2 zero items via blosc2.asarray, structured dtype {spec!r}", w))

    # blosc2.asarray hands create_b2nd_context a dtype.descr list, which rebuilds the
    # dtype (explicit offsets become padding fields, plain 'V8' becomes [('f0','V8')]).
    # blosc2.zeros passes the dtype itself, so str(dtype) is stored verbatim.
    for label, spec in [("void_V8_zeros", "V8"), ("struct_offsets_zeros", structured[1][1]),
                        ("struct_simple_zeros", structured[0][1])]:
        def w(p, spec=spec):
            blosc2.zeros((2,), dtype=np.dtype(spec), urlpath=p, mode="w")
        C.append((f"dtype_{label}", f"dtype_{label}.b2nd",
                  f"1-d, 2 items via blosc2.zeros, dtype {spec!r}", w))

    # ---- codecs / clevels ----
    data2 = np.arange(70, dtype="<i4").reshape(10, 7)
    for label, codec, clevel in [("zstd9", blosc2.Codec.ZSTD, 9), ("lz4_1", blosc2.Codec.LZ4, 1),
                                 ("blosclz_0", blosc2.Codec.BLOSCLZ, 0), ("zlib_6", blosc2.Codec.ZLIB, 6)]:
        def w(p, codec=codec, clevel=clevel):
            blosc2.asarray(data2, chunks=(4, 4), blocks=(2, 2), urlpath=p, mode="w",
                           cparams={"codec": codec, "clevel": clevel})
        C.append((f"codec_{label}", f"codec_{label}.b2nd",
                  f"(10,7) int32 arange, codec {codec.name} clevel {clevel}", w))

    # ---- resize ----
    @add("resize_larger", "resize_larger.b2nd", "(10,7) int32 chunks (4,4) resized to (13,9)")
    def _(p):
        blosc2.asarray(data2, chunks=(4, 4), blocks=(2, 2), urlpath=p, mode="w")
        a = blosc2.open(p, mode="a")
        a.resize((13, 9))

    @add("resize_smaller", "resize_smaller.b2nd", "(10,7) int32 chunks (4,4) resized to (5,3)")
    def _(p):
        blosc2.asarray(data2, chunks=(4, 4), blocks=(2, 2), urlpath=p, mode="w")
        a = blosc2.open(p, mode="a")
        a.resize((5, 3))

    @add("resize_to_empty", "resize_to_empty.b2nd", "(10,7) int32 chunks (4,4) resized to (0,7)")
    def _(p):
        blosc2.asarray(data2, chunks=(4, 4), blocks=(2, 2), urlpath=p, mode="w")
        a = blosc2.open(p, mode="a")
        a.resize((0, 7))

    # ---- user metalayers and vlmeta ----
    @add("user_meta", "user_meta.b2nd",
         "(4,) int16 with user metalayers 'mine' (map) and 'other' (list), plus vlmeta")
    def _(p):
        a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=p, mode="w",
                           meta={"mine": {"answer": 42, "tag": "x"}, "other": [1, 2, 3]})
        a.vlmeta["note"] = "hello"
        a.vlmeta["nums"] = [1, 2.5, None]

    @add("user_meta_name31", "user_meta_name31.b2nd",
         "user metalayer whose name is 31 bytes (the fixstr maximum)")
    def _(p):
        blosc2.zeros((2,), dtype="u1", urlpath=p, mode="w", meta={"n" * 31: 1})

    @add("user_meta_many", "user_meta_many.b2nd",
         "15 user metalayers + b2nd = 16 (BLOSC2_MAX_METALAYERS)")
    def _(p):
        blosc2.zeros((2,), dtype="u1", urlpath=p, mode="w",
                     meta={f"m{i:02d}": i for i in range(15)})

    @add("vlmeta_only", "vlmeta_only.b2nd", "(3,) float32 with vlmeta only (no user metalayers)")
    def _(p):
        a = blosc2.asarray(np.arange(3, dtype="<f4"), urlpath=p, mode="w")
        a.vlmeta["k"] = {"a": [1, 2]}

    # ---- sparse frames ----
    @add("sparse_2d", "sparse_2d.b2nd",
         "sparse frame (directory): (3,4) int16 arange, chunks (2,2), user meta 'mine'")
    def _(p):
        blosc2.asarray(np.arange(12, dtype="<i2").reshape(3, 4), chunks=(2, 2), blocks=(1, 2),
                       urlpath=p, mode="w", contiguous=False, meta={"mine": [7, 8]})

    @add("sparse_ndim0", "sparse_ndim0.b2nd", "sparse frame (directory): 0-d float64 scalar 1.5")
    def _(p):
        blosc2.asarray(np.array(1.5, dtype="<f8"), urlpath=p, mode="w", contiguous=False)

    # ---- plain SChunk (no b2nd metalayer) ----
    @add("schunk_no_b2nd", "schunk_no_b2nd.b2frame",
         "plain SChunk (not an NDArray): only a user metalayer 'mine', no 'b2nd'")
    def _(p):
        blosc2.SChunk(chunksize=16, data=np.arange(8, dtype="<i4").tobytes(), urlpath=p,
                      mode="w", contiguous=True, cparams={"typesize": 4}, meta={"mine": "abc"})

    return C


REWRITES = [
    # name, description, writer(path), new_shape
    ("rewrite_2d",
     "(10,7) int32 arange chunks (4,4) [grid 3x2] -> shape (12,8) [grid 3x2]",
     lambda p: blosc2.asarray(np.arange(70, dtype="<i4").reshape(10, 7), chunks=(4, 4),
                              blocks=(2, 2), urlpath=p, mode="w", meta={"mine": 1}),
     (12, 8)),
    ("rewrite_3d",
     "(3,5,9) uint8 arange chunks (2,2,4) [grid 2x3x3] -> shape (4,6,10) [grid 2x3x3]",
     lambda p: blosc2.asarray((np.arange(135) % 251).astype("u1").reshape(3, 5, 9),
                              chunks=(2, 2, 4), blocks=(1, 2, 2), urlpath=p, mode="w"),
     (4, 6, 10)),
]


def do_rewrite(name, description, writer, new_shape):
    before = P(f"{name}_before.b2nd")
    after = P(f"{name}_after.b2nd")
    writer(before)
    old = blosc2.open(before, mode="r")
    old_shape = tuple(old.shape)
    old_vals = old[...]
    chunks = tuple(old.chunks)
    del old

    with open(before, "rb") as f:
        buf = bytearray(f.read())
    hdr = parse_frame_header(buf)
    m = next(m for m in hdr["metas"] if m["name"] == "b2nd")
    d = decode_b2nd(m["content"])
    grid = lambda s: [-(-x // c) for x, c in zip(s, chunks)]  # noqa: E731
    assert grid(old_shape) == grid(new_shape), (grid(old_shape), grid(new_shape))
    d["shape"] = list(new_shape)
    new_content = encode_b2nd(d)
    assert len(new_content) == m["content_len"]
    buf[m["content_offset"]:m["content_offset"] + len(new_content)] = new_content
    with open(before, "rb") as f:
        orig = f.read()
    with open(after, "wb") as f:
        f.write(bytes(buf))
    diff = [i for i in range(len(orig)) if orig[i] != buf[i]]

    res = {
        "name": name,
        "description": description,
        "before_path": rel(before),
        "after_path": rel(after),
        "old_shape": list(old_shape),
        "new_shape": list(new_shape),
        "chunks": list(chunks),
        "chunk_grid": grid(new_shape),
        "b2nd_offset": m["offset"],
        "b2nd_content_offset": m["content_offset"],
        "b2nd_content_len": m["content_len"],
        "old_content_hex": m["content"].hex(),
        "new_content_hex": new_content.hex(),
        "differing_offsets": diff,
        "differing_bytes": [{"offset": i, "before": orig[i], "after": buf[i]} for i in diff],
    }
    # Open the rewritten file with python-blosc2.
    try:
        a = blosc2.open(after, mode="r")
        res["after_opens"] = True
        res["after_reported_shape"] = list(a.shape)
        res["after_reported_chunks"] = list(a.chunks)
        res["after_reported_blocks"] = list(a.blocks)
        try:
            vals = a[...]
            res["after_read_ok"] = True
            res["after_read_shape"] = list(vals.shape)
            sl = tuple(slice(0, s) for s in old_shape)
            res["after_read_overlap_matches_before"] = bool(np.array_equal(vals[sl], old_vals))
            mask = np.ones(vals.shape, dtype=bool)
            mask[sl] = False
            res["after_read_new_region_unique_values"] = sorted(
                int(x) for x in np.unique(vals[mask]))
        except Exception as e:  # noqa: BLE001
            res["after_read_ok"] = False
            res["after_read_error"] = f"{type(e).__name__}: {e}"
        del a
    except Exception as e:  # noqa: BLE001
        res["after_opens"] = False
        res["after_open_error"] = f"{type(e).__name__}: {e}"
    assert res.get("after_reported_shape") == list(new_shape), res

    # Compare with what python-blosc2's own resize() writes for the same change.
    with tempfile.TemporaryDirectory() as td:
        tp = os.path.join(td, "r.b2nd")
        shutil.copyfile(before, tp)
        a = blosc2.open(tp, mode="a")
        a.resize(new_shape)
        del a
        with open(tp, "rb") as f:
            theirs = f.read()
    res["blosc2_resize_len"] = len(theirs)
    res["blosc2_resize_identical"] = theirs == bytes(buf)
    res["blosc2_resize_differing_offsets"] = (
        [i for i in range(min(len(theirs), len(buf))) if theirs[i] != buf[i]]
        if len(theirs) == len(buf) else None)
    return res


def main():
    blosc2.set_nthreads(1)  # nthreads is recorded in the frame header
    if os.path.exists(CORPUS):
        shutil.rmtree(CORPUS)
    os.makedirs(CORPUS)

    files = []
    for name, fname, description, writer in cases():
        p = P(fname)
        writer(p)
        files.append(describe(name, p, description, expect_b2nd=(name != "schunk_no_b2nd")))

    rewrites = []
    for name, description, writer, new_shape in REWRITES:
        rw = do_rewrite(name, description, writer, new_shape)
        files.append(describe(f"{name}_before", P(f"{name}_before.b2nd"),
                              f"rewrite case {name}, before: {description}"))
        files.append(describe(f"{name}_after", P(f"{name}_after.b2nd"),
                              f"rewrite case {name}, after in-place b2nd rewrite: {description}"))
        rewrites.append(rw)

    # Max ndim supported by this blosc2 build.
    max_ndim = int(blosc2.MAX_DIM)
    try:
        blosc2.zeros((1,) * (max_ndim + 1), dtype="u1")
        over = "accepted"
    except Exception as e:  # noqa: BLE001
        over = f"{type(e).__name__}: {e}"

    total = sum(f["size"] for e in files for f in e["files"])
    manifest = {
        "schema_version": 1,
        "generator": "tests/data/generate.py",
        "versions": {
            "python_blosc2": blosc2.__version__,
            "c_blosc2": blosc2.VERSION_STRING,
            "numpy": np.__version__,
            "msgpack": ".".join(map(str, msgpack.version)),
            "python": platform.python_version(),
        },
        "max_ndim": max_ndim,
        "ndim_over_max_error": over,
        "raw_source": RAW_SOURCE,
        "raw_source_detail": RAW_SOURCE_DETAIL,
        "total_corpus_bytes": total,
        "files": files,
        "rewrites": rewrites,
    }
    with open(MANIFEST, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"wrote {len(files)} entries, {total} bytes of corpus, manifest {rel(MANIFEST)}")


if __name__ == "__main__":
    sys.exit(main())
