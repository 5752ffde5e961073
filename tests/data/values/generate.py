#!/usr/bin/env python3
"""Generate the user-metalayer and vlmeta value fixtures from real python-blosc2 output.

Usage (from the repository root, with any python3 >= 3.10):

    python3 tests/data/values/generate.py

The script runs itself once per python-blosc2 version (2.7.1, 3.0.0, 3.12.2, 4.14.1)
inside that version's venv (see `find_python` for where it looks and how it creates
one), each run writing `tests/data/values/blosc2-<version>/` (wiped first), then
merges what the runs report into `tests/data/values/expected.json`.

Where the truths come from:
- metalayer "hex": C-Blosc2's own `blosc2_meta_get` (`blosc2_ext.meta__getitem__`),
  checked against this script's independent parse of the frame header;
- metalayer / vlmeta "json": the value python-blosc2 itself reads back
  (`schunk.meta[name]`, `arr.vlmeta[name]`), mapped to JSON by the CONVENTIONS.md
  table; the order of set items and of map keys is the stored msgpack order (taken from
  an independent walk of the stored bytes, which must agree with python's value);
- vlmeta "chunk": read from the chunk header bytes found by this script's own parse of
  the frame trailer (C-Blosc2 `frame_update_trailer` layout); the clevel is found by
  recompressing with `blosc2.compress2` until the same bytes come out;
- rewrites: our own in-place patch of the metalayer content, checked by reopening with
  python-blosc2 4.14.1, and compared with python-blosc2's own `schunk.meta[name] = v`.
"""

import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
VERSIONS = ["2.7.1", "3.0.0", "3.12.2", "4.14.1"]
PINS = {"numpy": "2.4.6", "msgpack": "1.2.4"}


# --------------------------------------------------------------------------
# Orchestrator: find or create one venv per version, run the workers, merge.
# --------------------------------------------------------------------------

def find_python(version):
    """Python of a venv with blosc2==version.

    Looked up in order: $B2_VENV_<version with dots as underscores> (a venv dir),
    /work/venvs/blosc2-<version>, tests/data/values/.venvs/blosc2-<version>; the last
    one is created (python3 -m venv + pinned pip installs) when none exists.
    """
    env = os.environ.get("B2_VENV_" + version.replace(".", "_"))
    cands = [env] if env else []
    cands += [f"/work/venvs/blosc2-{version}", os.path.join(HERE, ".venvs", f"blosc2-{version}")]
    for c in cands:
        py = os.path.join(c, "bin", "python")
        if os.path.exists(py):
            return py
    venv = cands[-1]
    base = shutil.which("python3.11") or sys.executable  # the fixtures were made with 3.11
    subprocess.check_call([base, "-m", "venv", venv])
    py = os.path.join(venv, "bin", "python")
    subprocess.check_call([py, "-m", "pip", "install", "--quiet", f"blosc2=={version}",
                           f"numpy=={PINS['numpy']}", f"msgpack=={PINS['msgpack']}"])
    return py


def layout(doc):
    """expected.json text: one line per file field, metalayer, vlmeta and rewrite."""
    def c(v):
        return json.dumps(v, ensure_ascii=False, allow_nan=False)

    out = ["{", f' "generator": {c(doc["generator"])},', f' "versions": {c(doc["versions"])},',
           ' "files": [']
    for i, e in enumerate(doc["files"]):
        out.append("  {")
        for k in ("path", "producer", "c_blosc2", "kind", "description"):
            out.append(f"   {c(k)}: {c(e[k])},")
        for k in e:
            if k.startswith("read_by_"):
                out.append(f"   {c(k)}: {c(e[k])},")
        for k in ("metalayers", "vlmeta"):
            items = list(e[k].items())
            if not items:
                out.append(f"   {c(k)}: {{}}" + ("," if k == "metalayers" else ""))
                continue
            out.append(f"   {c(k)}: {{")
            for j, (n, v) in enumerate(items):
                out.append(f"    {c(n)}: {c(v)}" + ("," if j + 1 < len(items) else ""))
            out.append("   }" + ("," if k == "metalayers" else ""))
        out.append("  }" + ("," if i + 1 < len(doc["files"]) else ""))
    out.append(" ],")
    out.append(' "rewrites": [')
    rw = doc["rewrites"]
    for i, r in enumerate(rw):
        out.append(f"  {c(r)}" + ("," if i + 1 < len(rw) else ""))
    out.append(" ]")
    out.append("}")
    text = "\n".join(out) + "\n"
    assert json.loads(text) == json.loads(c(doc))
    return text


def orchestrate():
    files, rewrites, versions = [], [], {}
    for v in VERSIONS:
        py = find_python(v)
        out = os.path.join(tempfile.mkdtemp(), "out.json")
        env = dict(os.environ, PYTHONHASHSEED="0")  # set iteration order is stored
        subprocess.check_call([py, os.path.abspath(__file__), "--worker", v, out], env=env)
        with open(out) as f:
            res = json.load(f)
        files += res["files"]
        rewrites += res["rewrites"]
        versions[v] = res["versions"]
    # python-blosc2 4.14.1 reads the older versions' files too: record where it differs
    tmp = os.path.join(tempfile.mkdtemp(), "files.json")
    with open(tmp, "w") as f:
        json.dump(files, f)
    subprocess.check_call([find_python("4.14.1"), os.path.abspath(__file__), "--crossread",
                           tmp], env=dict(os.environ, PYTHONHASHSEED="0"))
    with open(tmp) as f:
        files = json.load(f)
    doc = {
        "generator": "tests/data/values/generate.py",
        "versions": versions,
        "files": files,
        "rewrites": rewrites,
    }
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        f.write(layout(doc))
    nm = sum(len(e["metalayers"]) for e in files)
    nv = sum(len(e["vlmeta"]) for e in files)
    total = 0
    for root, _, names in os.walk(HERE):
        if ".venvs" in root:
            continue
        total += sum(os.path.getsize(os.path.join(root, n)) for n in names)
    print(f"{len(files)} files, {nm} user metalayers, {nv} vlmetas, {len(rewrites)} rewrites; "
          f"{total} bytes under tests/data/values")


if __name__ == "__main__" and "--worker" not in sys.argv and "--crossread" not in sys.argv:
    orchestrate()
    sys.exit(0)


# --------------------------------------------------------------------------
# Worker (runs inside one venv)
# --------------------------------------------------------------------------

import msgpack  # noqa: E402
import numpy as np  # noqa: E402

import blosc2  # noqa: E402
from blosc2 import blosc2_ext  # noqa: E402

VERSION = blosc2.__version__
V4 = VERSION.startswith("4.")
OUTDIR = os.path.join(HERE, f"blosc2-{VERSION}")


def rel(p):
    return os.path.relpath(p, DATA).replace(os.sep, "/")


def header_file(path):
    return os.path.join(path, "chunks.b2frame") if os.path.isdir(path) else path


def sha256_bytes(b):
    return hashlib.sha256(b).hexdigest()


# ---- independent frame parsing (layout: C-Blosc2 blosc/frame.c) ----

def parse_metalayers(buf):
    """(name, content_offset, content) for each metalayer of the frame header."""
    assert buf[0] == 0x9E and buf[2:10] == b"b2frame\x00"
    pos = 87
    assert buf[pos] == 0x93 and buf[pos + 1] == 0xCD
    pos += 4
    assert buf[pos] == 0xDE
    n = struct.unpack(">H", buf[pos + 1:pos + 3])[0]
    pos += 3
    entries = []
    for _ in range(n):
        ln = buf[pos] & 0x1F
        assert buf[pos] & 0xE0 == 0xA0
        name = bytes(buf[pos + 1:pos + 1 + ln]).decode()
        pos += 1 + ln
        assert buf[pos] == 0xD2
        off = struct.unpack(">i", buf[pos + 1:pos + 5])[0]
        pos += 5
        entries.append((name, off))
    out = []
    for name, off in entries:
        assert buf[off] == 0xC6
        ln = struct.unpack(">i", buf[off + 1:off + 5])[0]
        out.append((name, off + 5, bytes(buf[off + 5:off + 5 + ln])))
    return out


def parse_trailer(buf):
    """name -> raw vlmeta chunk (as stored) from the frame trailer."""
    frame_len = struct.unpack(">Q", buf[16:24])[0]
    assert frame_len == len(buf), (frame_len, len(buf))
    assert buf[-23] == 0xCE and buf[-18] == 0xD8
    tlen = struct.unpack(">I", buf[-22:-18])[0]
    t = buf[len(buf) - tlen:]
    assert t[0] == 0x94 and t[2] == 0x93 and t[3] == 0xCD and t[6] == 0xDE, t[:8].hex()
    n = struct.unpack(">H", t[7:9])[0]
    pos = 9
    entries = []
    for _ in range(n):
        assert t[pos] & 0xE0 == 0xA0
        ln = t[pos] & 0x1F
        name = bytes(t[pos + 1:pos + 1 + ln]).decode()
        pos += 1 + ln
        assert t[pos] == 0xD2
        entries.append((name, struct.unpack(">i", t[pos + 1:pos + 5])[0]))
        pos += 5
    assert t[pos] == 0xDC and struct.unpack(">H", t[pos + 1:pos + 3])[0] == n
    out = {}
    for name, off in entries:
        assert t[off] == 0xC6
        ln = struct.unpack(">i", t[off + 1:off + 5])[0]
        out[name] = bytes(t[off + 5:off + 5 + ln])
    return out


CODECS = {0: "blosclz", 1: "lz4", 3: "zlib", 4: "zstd"}


def chunk_info(chunk, content):
    """Describe a vlmeta chunk from its header bytes (blosc2.h BLOSC2_CHUNK_*)."""
    flags = chunk[2]
    nbytes, blocksize, cbytes = struct.unpack("<iii", chunk[4:16])
    assert cbytes == len(chunk) and nbytes == len(content)
    info = {
        "version": chunk[0], "versionlz": chunk[1], "flags": flags, "typesize": chunk[3],
        "nbytes": nbytes, "blocksize": blocksize, "cbytes": cbytes,
        "filters": list(chunk[16:22]), "filters_meta": list(chunk[24:30]),
        "blosc2_flags": chunk[31],
    }
    memcpyed = bool(flags & 0x02)
    info["memcpyed"] = memcpyed
    codec = CODECS.get(flags >> 5, f"code{flags >> 5}")
    info["codec"] = codec
    info["codec_id"] = chunk[22]  # BLOSC_* codec code (LZ4HC is 2 with lz4 format bits)
    if memcpyed:
        assert chunk[32:] == content
        kind = "memcpyed"
    else:
        kind = codec
        # blocks: int32 LE bstarts after the 32-byte header, then per block and stream
        # an int32 LE csize and the codec's bytes (csize == stream length: stored raw)
        nblocks = -(-nbytes // blocksize)
        nstreams = 1 if (flags & 0x10) else chunk[3]
        bstarts = list(struct.unpack(f"<{nblocks}i", chunk[32:32 + 4 * nblocks]))
        streams = []
        for b, start in enumerate(bstarts):
            bsize = min(blocksize, nbytes - b * blocksize)
            leftover = bsize < blocksize
            ns = 1 if leftover else nstreams
            pos = start
            for _ in range(ns):
                cs = struct.unpack("<i", chunk[pos:pos + 4])[0]
                kindw = ("zeros" if cs == 0 else "run" if cs < 0 else
                         "raw" if cs == bsize // ns else codec)
                if kindw == "zstd":
                    assert chunk[pos + 4:pos + 8] == b"\x28\xb5\x2f\xfd"  # zstd frame magic
                streams.append({"block": b, "offset": pos, "csize": cs, "neblock": bsize // ns,
                                "kind": kindw})
                pos += 4 + max(cs, 0) + (1 if cs < 0 else 0)
        assert pos == len(chunk)
        info["nblocks"] = nblocks
        info["bstarts"] = bstarts
        info["streams"] = streams
        # Which clevel/splitmode reproduces these exact bytes?
        clevels, splitmodes = set(), set()
        for clevel in range(10):
            for sm in (blosc2.SplitMode.ALWAYS_SPLIT, blosc2.SplitMode.NEVER_SPLIT,
                       blosc2.SplitMode.AUTO_SPLIT):
                try:
                    c = blosc2.compress2(content, typesize=1, clevel=clevel, nthreads=1,
                                         codec=blosc2.Codec(chunk[22]),
                                         filters=[blosc2.Filter(f) for f in info["filters"]],
                                         filters_meta=info["filters_meta"], splitmode=sm)
                except Exception:  # noqa: BLE001
                    continue
                if bytes(c) == chunk:
                    clevels.add(clevel)
                    splitmodes.add(sm.name)
        # blosc2.compress2 with typesize=1 and these filters gives these exact bytes
        info["reproduced_by_clevels"] = sorted(clevels)
        info["reproduced_by_splitmodes"] = sorted(splitmodes)
    assert bytes(blosc2.decompress2(chunk)) == content
    return kind, info


# ---- JSON mapping (CONVENTIONS.md) ----

def jfloat(x):
    if x != x:
        return "NaN"
    if x == float("inf"):
        return "Infinity"
    if x == float("-inf"):
        return "-Infinity"
    return x


def key_text(kjson):
    if isinstance(kjson, str):
        return kjson
    return json.dumps(kjson, separators=(",", ":"), ensure_ascii=False)


class Map:
    def __init__(self, pairs):
        self.pairs = pairs


def is_tuple_list(obj):
    # 4.x: obj and isinstance(obj[0], str) and obj[0] == "__tuple__"
    return bool(obj) and isinstance(obj[0], str) and obj[0] == "__tuple__"


def stored_to_json(raw):
    """Independent walk of stored msgpack bytes -> JSON (keeps stored orders)."""

    def ext(code, data):
        return msgpack.ExtType(code, data)

    def unpack(b):
        return msgpack.unpackb(b, raw=False, strict_map_key=False, object_pairs_hook=Map,
                               ext_hook=ext)

    def conv(v):
        if isinstance(v, Map):
            return {key_text(conv(k)): conv(x) for k, x in v.pairs}
        if isinstance(v, list):
            if is_tuple_list(v):
                v = v[1:]
            return [conv(x) for x in v]
        if isinstance(v, bytes):
            return {"$bin": v.hex()}
        if isinstance(v, float):
            return jfloat(v)
        if isinstance(v, msgpack.ExtType):
            if v.code == 44:
                re, im = struct.unpack(">dd", v.data)
                return {"$complex": [jfloat(re), jfloat(im)]}
            if v.code == 45:
                return {"$set": conv(unpack(v.data))}
            if v.code == 46:
                p = {k: x for k, x in unpack(v.data).pairs}
                d = {k: x for k, x in p["dtype"].pairs}
                if "str" in d:
                    dt = np.dtype(d["str"])
                else:
                    dt = np.dtype([tuple(f[1:]) if is_tuple_list(f) else tuple(f)
                                   for f in d["descr"]])
                return {"$ndarray": {"dtype": dt.str, "shape": list(p["shape"]),
                                     "data_hex": p["data"].hex()}}
            return {"$ext": {"type": v.code, "data_hex": v.data.hex()}}
        return v

    return conv(unpack(raw))


def py_to_json(v):
    """python-blosc2's decoded value -> JSON (sets: sorted, for comparison only)."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return jfloat(v)
    if isinstance(v, bytes):
        return {"$bin": v.hex()}
    if isinstance(v, (list, tuple)):
        return [py_to_json(x) for x in v]
    if isinstance(v, dict):
        return {key_text(py_to_json(k)): py_to_json(x) for k, x in v.items()}
    if isinstance(v, complex):
        return {"$complex": [jfloat(v.real), jfloat(v.imag)]}
    if isinstance(v, (set, frozenset)):
        return {"$set": sorted((py_to_json(x) for x in v), key=json.dumps)}
    if isinstance(v, np.ndarray):
        return {"$ndarray": {"dtype": v.dtype.str, "shape": list(v.shape),
                             "data_hex": np.ascontiguousarray(v).tobytes().hex()}}
    return {"$python": type(v).__name__}


def canon(j):
    """Make stored_to_json output comparable with py_to_json output."""
    if isinstance(j, list):
        return [canon(x) for x in j]
    if isinstance(j, dict):
        if set(j) == {"$set"}:
            return {"$set": sorted((canon(x) for x in j["$set"]), key=json.dumps)}
        if set(j) == {"$ext"}:
            return {"$python": "ext"}
        return {k: canon(x) for k, x in j.items()}
    return j


def check_same(stored_json, pyval):
    pj = py_to_json(pyval)
    if isinstance(pj, dict) and "$python" in pj:
        pj = {"$python": "ext"}
    a, b = json.dumps(canon(stored_json), sort_keys=False), json.dumps(canon(pj))
    assert a == b, (a, b)


def err_text(e):
    return f"{type(e).__name__}: {e}"


# ---- packing as python-blosc2 does ----

def pack(value):
    """Bytes python-blosc2 of this version writes for a user metalayer / vlmeta value."""
    if V4:
        from blosc2.msgpack_utils import msgpack_packb
        return msgpack_packb(value)
    return msgpack.packb(value, default=blosc2_ext.encode_tuple, strict_types=True,
                         use_bin_type=True)


def placeholder(n):
    """A plain value whose packed form has exactly n bytes (a str; fixstr/str8/str16)."""
    for overhead, lo, hi in ((1, 0, 31), (2, 32, 255), (3, 256, 65535)):
        k = n - overhead
        if lo <= k <= hi:
            ph = "p" * k
            assert len(pack(ph)) == n
            return ph
    raise ValueError(n)


def vlmeta_of(arr):
    return arr.vlmeta if hasattr(arr, "vlmeta") else arr.schunk.vlmeta


def open_reader(path, full=False):
    if V4:
        return blosc2.open(path, mode="r", deserialize="full" if full else "safe")
    return blosc2.open(path, mode="r")


# ---- describing a written file ----

def describe(path, description, meta_notes=None, kind_of=None):
    meta_notes = meta_notes or {}
    with open(header_file(path), "rb") as f:
        buf = f.read()
    obj = open_reader(path)
    schunk = obj.schunk if hasattr(obj, "schunk") else obj
    parsed = parse_metalayers(buf)
    assert [n for n, _, _ in parsed] == list(schunk.meta.keys())
    metas = {}
    for name, _, content in parsed:
        c_raw = bytes(blosc2_ext.meta__getitem__(schunk, name))
        assert c_raw == content, name
        if name in ("b2nd", "caterva"):
            continue
        ent = {"hex": c_raw.hex()}
        decoded = True
        try:
            sj = stored_to_json(c_raw)
        except Exception as e:  # noqa: BLE001
            decoded = False
            sj = None
            ent["decode_error"] = err_text(e)
        ent["json"] = sj
        try:
            pv = schunk.meta[name]
            if not decoded:
                raise AssertionError(f"python reads {name} but msgpack does not")
            check_same(sj, pv)
        except AssertionError:
            raise
        except Exception as e:  # noqa: BLE001
            ent["python_error"] = err_text(e)
            if V4:
                try:
                    full = open_reader(path, full=True)
                    pv = full.schunk.meta[name]
                    check_same(sj, pv)
                    ent["python_reads_with_deserialize_full"] = True
                except Exception as e2:  # noqa: BLE001
                    ent["python_reads_with_deserialize_full"] = False
                    if not isinstance(e2, AssertionError):
                        pass
                    else:
                        raise
        if name in meta_notes:
            ent["note"] = meta_notes[name]
        metas[name] = ent

    vl = {}
    chunks = parse_trailer(buf)
    vm = schunk.vlmeta
    names = list(vm)
    assert names == list(chunks), (names, list(chunks))
    for name in names:
        content = bytes(blosc2_ext.vlmeta.get_vlmeta(vm, name))
        kind, info = chunk_info(chunks[name], content)
        ent = {"json": stored_to_json(content), "chunk": kind}
        # the decompressed msgpack C returns (blosc2_vlmeta_get); hex only when short
        if len(content) <= 256:
            ent["hex"] = content.hex()
        ent["sha256"] = sha256_bytes(content)
        ent["chunk_header"] = info
        try:
            check_same(ent["json"], vm[name])
        except AssertionError:
            raise
        except Exception as e:  # noqa: BLE001
            ent["python_error"] = err_text(e)
            if V4:
                full = open_reader(path, full=True)
                check_same(ent["json"], full.schunk.vlmeta[name])
                ent["python_reads_with_deserialize_full"] = True
        vl[name] = ent
    return {
        "path": rel(path),
        "producer": f"python-blosc2 {VERSION}",
        "c_blosc2": blosc2.VERSION_STRING,
        "kind": "sparse" if os.path.isdir(path) else "contiguous",
        "description": description,
        "metalayers": metas,
        "vlmeta": vl,
    }


# --------------------------------------------------------------------------
# The values
# --------------------------------------------------------------------------

INTS = [0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1,
        -1, -32, -33, -128, -129, -32768, -32769, -2**31, -2**31 - 1, -2**63]
FLOATS = [0.0, -0.0, 1.5, -2.25, 1e300, 5e-324, float("nan"), float("inf"), float("-inf")]


def scalar_metas():
    return {
        "nil": None,
        "true": True,
        "false": False,
        "posfixint": 7,
        "uint64": 2**64 - 1,
        "int64": -2**63,
        "gt2_32": 2**32 + 5,
        "float": 1.5,
        "nan": float("nan"),
        "inf": float("inf"),
        "str": "hello",
        "str_empty": "",
        "ints": INTS,
        "floats": FLOATS,
    }


def container_metas():
    big = {"rows": [{"id": i, "name": f"item-{i:04d}", "w": i * 0.5} for i in range(160)]}
    return {
        "dict": {"units": "m", "scale": 10},
        "nested": {"a": {"b": {"c": [1, {"d": None}]}}, "e": [[], [[]], {}]},
        "list": [1, "two", 3.0, None, True],
        "tuple": (1, "a", 2.5),
        "tuple_empty": (),
        "tuple_nested": ((1, 2), [3, (4,)], {"t": (5, 6)}),
        "list_tuple_marker": ["__tuple__"],
        "bytes": b"\x00\x01\xfe\xff",
        "bytes_long": bytes(range(256)) + b"\x00" * 44,
        "strs": ["", "a" * 31, "b" * 32, "c" * 256, "héllo ☃ 😀"],
        "map16": {f"k{i:02d}": i for i in range(20)},
        "array16": list(range(20)),
        "big": big,
        "bytes_key": {b"k": 1, "s": 2},
        "empty_map": {},
    }


def key_metas():
    return {
        "int_keys": {1: "a", -2: "b", 300: "c"},
        "mixed_keys": {True: 1, None: 2, 1.5: 3, (1, 2): 4, "s": 5},
    }


def ext_metas():
    return {
        "complex": complex(1.5, -2.0),
        "complex_nan": complex(float("nan"), float("inf")),
        "set_ints": {3, 1, 2},
        "set_strs": {"b", "a", "c"},
        "set_mixed": {(1, 2), "x", 7},
        "set_empty": set(),
        "nd_f8_2x3": np.arange(6, dtype="<f8").reshape(2, 3),
        "nd_i4": np.array([-1, 0, 1, 2**31 - 1], dtype="<i4"),
        "nd_0d": np.array(2.5, dtype="<f8"),
        "nd_empty": np.zeros((0, 3), dtype="<i8"),
        "nd_be_i2": np.array([1, 256, -2], dtype=">i2"),
        "nd_b1_u1": [np.array([True, False]), np.array([255, 0], dtype="u1")],
        "nd_c16_U3_S2": {"c": np.array([1 + 2j], dtype="<c16"),
                         "u": np.array(["ab", "xyz"], dtype="<U3"),
                         "s": np.array([b"q", b"rs"], dtype="S2")},
        "nd_fortran": np.asfortranarray(np.arange(6, dtype="<u2").reshape(2, 3)),
        "np_scalars": [np.int8(-3), np.uint64(2**64 - 1), np.float32(1.5), np.bool_(True),
                       np.str_("s"), np.bytes_(b"b"), np.complex128(1j)],
    }


def ext_other_metas():
    arr = blosc2.asarray(np.arange(4, dtype="<i2"))
    return {
        "ext42_ndarray": arr,
        "ext43_ref": blosc2.Ref(kind="urlpath", urlpath="other.b2nd"),
        "nd_struct": np.array([(1, 2.0)], dtype=[("a", "<i4"), ("b", "<f8")]),
    }


def make_user_meta_file(path, metas, contiguous=True, setitem=False, raw=None):
    """An array whose user metalayers hold `metas` packed as python-blosc2 packs them.

    setitem=False: passed as `meta=` at creation (blosc2_ext packb + encode_tuple).
    setitem=True: created with a same-length placeholder, then `schunk.meta[name] = v`
    (4.x: msgpack_utils.msgpack_packb, the only way to store ext types).
    raw: name -> bytes stored verbatim with blosc2_ext.meta__setitem__ (not msgpack).
    """
    raw = raw or {}
    if setitem:
        init = {k: placeholder(len(pack(v))) for k, v in metas.items()}
    else:
        init = dict(metas)
    init.update({k: placeholder(len(b)) for k, b in raw.items()})
    a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=path, mode="w",
                       contiguous=contiguous, meta=init)
    if setitem:
        for k, v in metas.items():
            a.schunk.meta[k] = v
    for k, b in raw.items():
        blosc2_ext.meta__setitem__(a.schunk, k, b)
    del a
    # every stored content is exactly python's packing of the value
    with open(header_file(path), "rb") as f:
        got = {n: c for n, _, c in parse_metalayers(f.read())}
    for k, v in metas.items():
        assert got[k] == pack(v), k
    for k, b in raw.items():
        assert got[k] == b


def vlmeta_values():
    rng = np.random.default_rng(12345)
    vals = {
        "str": "hello",
        "int": 42,
        "neg": -2**40,
        "float": 2.5,
        "nan": float("nan"),
        "none": None,
        "bool": True,
        "list": [1, 2.5, None, "x"],
        "dict": {"units": "m", "scale": [1, 2]},
        "nested": {"a": {"b": [{"c": (1, 2)}]}, "t": ("x", ("y",))},
        "bytes": b"\x00\x01\x02",
        "str31": "a" * 30,
        "str32": "b" * 31,
        "str40": "c" * 40,
        "big_list": list(range(1000)),
        "big_str": "blosc2 " * 400,
        "big_dict": {f"key{i:03d}": {"v": i, "s": "x" * (i % 7)} for i in range(200)},
        "big_random_bytes": rng.integers(0, 256, 2000, dtype="u1").tobytes(),
    }
    return vals


def vlmeta_v4_values():
    return {
        "nd_small": np.array([1, 2, 3], dtype="<i4"),
        "nd_big": np.arange(600, dtype="<i4").reshape(6, 100),
        "complex": 3 - 4j,
        "set": {1, 2, 3},
        "empty_list": [],
    }


# --------------------------------------------------------------------------
# Rewrites (4.x only)
# --------------------------------------------------------------------------

REWRITES = [
    # name, old value, new value (JSON), expect
    ("dict", {"units": "m", "scale": 10}, {"units": "s", "scale": 20}, "ok"),
    ("list", [1, 2, 3], [4, 5, 6], "ok"),
    ("str", "hello", "world", "ok"),
    ("float", 1.5, 2.5, "ok"),
    ("nested", {"a": [1, {"b": None}], "c": "xy"}, {"a": [9, {"b": True}], "c": "zw"}, "ok"),
    ("longer", "hello", "hello!", "refused"),
]


def do_rewrites():
    path = os.path.join(OUTDIR, "rewrite_user_meta.b2nd")
    make_user_meta_file(path, {n: old for n, old, _, _ in REWRITES})
    with open(path, "rb") as f:
        orig = f.read()
    parsed = {n: (off, c) for n, off, c in parse_metalayers(orig)}
    out = []
    for name, old, new, expect in REWRITES:
        off, content = parsed[name]
        new_b = pack(new)
        ent = {"file": rel(path), "name": name, "new_json": py_to_json(new),
               "new_hex": new_b.hex(), "expect": expect, "old_len": len(content),
               "new_len": len(new_b)}
        if expect == "refused":
            assert len(new_b) != len(content)
            # python-blosc2 refuses it too
            with tempfile.TemporaryDirectory() as td:
                tp = os.path.join(td, "x.b2nd")
                shutil.copyfile(path, tp)
                a = blosc2.open(tp, mode="a")
                try:
                    a.schunk.meta[name] = new
                    ent["python_setitem"] = "accepted"
                except Exception as e:  # noqa: BLE001
                    ent["python_setitem"] = "refused: " + err_text(e)
            out.append(ent)
            continue
        assert len(new_b) == len(content), name
        patched = bytearray(orig)
        patched[off:off + len(new_b)] = new_b
        with tempfile.TemporaryDirectory() as td:
            tp = os.path.join(td, "after.b2nd")
            with open(tp, "wb") as f:
                f.write(patched)
            reader = open_reader(tp)
            back = reader.schunk.meta[name]
            assert py_to_json(back) == py_to_json(new)
            others = {n: py_to_json(reader.schunk.meta[n]) for n in parsed
                      if n not in ("b2nd", name)}
            del reader
            assert all(others[n] == py_to_json(o) for n, o, _, _ in REWRITES if n in others)
            # python-blosc2's own in-place update of a copy of the original
            tp2 = os.path.join(td, "theirs.b2nd")
            shutil.copyfile(path, tp2)
            a = blosc2.open(tp2, mode="a")
            a.schunk.meta[name] = new
            del a
            with open(tp2, "rb") as f:
                theirs = f.read()
        ent.update({"after_sha256": sha256_bytes(bytes(patched)),
                    "python_reads_back": py_to_json(back),
                    "python_setitem_identical": theirs == bytes(patched),
                    "differing_offsets": [off, off + len(new_b)]})
        out.append(ent)
    return path, out


# --------------------------------------------------------------------------
# Worker main
# --------------------------------------------------------------------------

def worker(out_json):
    blosc2.set_nthreads(1)  # nthreads is recorded in frame headers
    if os.path.exists(OUTDIR):
        shutil.rmtree(OUTDIR)
    os.makedirs(OUTDIR)
    P = lambda n: os.path.join(OUTDIR, n)  # noqa: E731
    files = []

    # ---- user metalayers ----
    make_user_meta_file(P("user_meta_scalars.b2nd"), scalar_metas())
    files.append(describe(P("user_meta_scalars.b2nd"),
                          "user metalayers (meta= at creation): nil, bools, ints of every "
                          "width, floats incl. NaN/inf, strings"))
    make_user_meta_file(P("user_meta_containers.b2nd"), container_metas())
    files.append(describe(P("user_meta_containers.b2nd"),
                          "user metalayers (meta= at creation): dicts, nested, lists, tuples "
                          "(['__tuple__', ...]), bytes, str widths, map16/array16, a ~5 KB "
                          "value, a bytes map key"))
    make_user_meta_file(P("user_meta_keys.b2nd"), key_metas())
    files.append(describe(P("user_meta_keys.b2nd"),
                          "user metalayers with non-string map keys (python-blosc2 writes "
                          "them but its reader refuses them: strict_map_key)"))
    make_user_meta_file(P("user_meta_sparse.b2nd"),
                        {"dict": {"units": "m"}, "tuple": (1, 2), "bytes": b"ab"},
                        contiguous=False)
    files.append(describe(P("user_meta_sparse.b2nd"), "sparse frame with user metalayers"))
    raw = {"not_msgpack": b"\xc1\x00\x01", "truncated": b"\x92\x01",
           "trailing": b"\x01\x02", "empty_bin_marker": b"\xc4"}
    make_user_meta_file(P("user_meta_raw.b2nd"), {"ok": [1, 2]}, raw=raw)
    files.append(describe(
        P("user_meta_raw.b2nd"),
        "metalayers whose content is not one msgpack value, stored verbatim with "
        "blosc2_ext.meta__setitem__ (bypasses python's packing)",
        meta_notes={"not_msgpack": "0xc1 is never used in msgpack",
                    "truncated": "fixarray(2) with one element",
                    "trailing": "one msgpack value (1) followed by a stray byte",
                    "empty_bin_marker": "bin8 marker without its length"}))
    if V4:
        make_user_meta_file(P("user_meta_ext.b2nd"), ext_metas(), setitem=True)
        files.append(describe(P("user_meta_ext.b2nd"),
                              "user metalayers written with schunk.meta[name] = value "
                              "(msgpack_utils.msgpack_packb): complex (ext 44), sets (ext 45), "
                              "NumPy arrays (ext 46), numpy scalars"))
        make_user_meta_file(P("user_meta_ext_other.b2nd"), ext_other_metas(), setitem=True)
        files.append(describe(
            P("user_meta_ext_other.b2nd"),
            "ext 42 (nested Blosc2 cframe of an NDArray), ext 43 (structured reference "
            "blosc2.Ref), ext 46 with a structured dtype (payload 'descr', not 'str')",
            meta_notes={"ext42_ndarray": "python reads it back only with deserialize='full' "
                                         "(an NDArray); JSON keeps the cframe payload",
                        "ext43_ref": "python reads it back only with deserialize='full' "
                                     "(blosc2.Ref); payload is msgpack "
                                     "{kind, version, ref}",
                        "nd_struct": "dtype payload is {'descr': [['__tuple__','a','<i4'], "
                                     "...]}; JSON dtype is numpy's dtype.str ('|V12')"}))

    # ---- vlmeta ----
    # C-Blosc2's frame_update_trailer refuses more than 16 (BLOSC2_MAX_METALAYERS)
    # vlmetas in a frame, in every version here, so the values are spread over files.
    vals = vlmeta_values()
    if V4:
        vals.update(vlmeta_v4_values())
    small = ["str", "int", "neg", "float", "nan", "none", "bool", "list", "dict", "nested",
             "bytes", "str31", "str32", "str40"]
    large = [k for k in vals if k not in small]
    sparse = ["str", "dict", "nested", "big_list", "big_str"] + (["nd_big"] if V4 else [])
    for fname, keys, contiguous, what in (
            ("vlmeta_small.b2nd", small, True, "small values (memcpyed chunks)"),
            ("vlmeta_large.b2nd", large, True, "large values (compressed chunks) and, in "
             "4.x, NumPy arrays, complex, set, empty list"),
            ("vlmeta_sparse.b2nd", sparse, False, "sparse frame: small and large values")):
        a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=P(fname), mode="w",
                           contiguous=contiguous)
        vm = vlmeta_of(a)
        for k in keys:
            vm[k] = vals[k]
        del a
        files.append(describe(P(fname), f"{'contiguous' if contiguous else 'sparse'} frame "
                              f"with vlmeta: {what}"))
    if VERSION in ("2.7.1", "4.14.1"):
        a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=P("vlmeta_multiblock.b2nd"),
                           mode="w")
        vlmeta_of(a)["floats"] = [float(i % 10) for i in range(8000)]
        del a
        files.append(describe(P("vlmeta_multiblock.b2nd"),
                              "one vlmeta of 72003 bytes: a compressed chunk with several "
                              "blocks (automatic blocksize), the last one shorter"))
    a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=P("vlmeta_many.b2nd"), mode="w")
    for i in range(16):
        vlmeta_of(a)[f"v{i:02d}"] = {"i": i, "sq": i * i} if i % 2 else [i] * i
    try:
        vlmeta_of(a)["v16"] = 16
        refused = "accepted"
    except Exception as e:  # noqa: BLE001
        refused = "refused (" + err_text(e) + ")"
    del a
    files.append(describe(P("vlmeta_many.b2nd"),
                          f"16 vlmetas, the most a frame takes; a 17th was {refused} and "
                          "the file keeps 16"))
    a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=P("vlmeta_deleted.b2nd"), mode="w")
    for k in ("keep1", "gone", "keep2"):
        vlmeta_of(a)[k] = {"name": k, "data": list(range(50))}
    del vlmeta_of(a)["gone"]
    vlmeta_of(a)["keep1"] = "updated"
    del a
    files.append(describe(P("vlmeta_deleted.b2nd"),
                          "3 vlmetas, then 'gone' deleted and 'keep1' updated to a shorter "
                          "value"))
    s = blosc2.SChunk(chunksize=16, data=np.arange(8, dtype="<i4").tobytes(),
                      urlpath=P("schunk_vlmeta.b2frame"), mode="w", contiguous=True,
                      cparams={"typesize": 4}, meta={"mine": {"x": 1}})
    s.vlmeta["attrs"] = {"title": "plain SChunk", "n": 8}
    s.vlmeta["big"] = list(range(300))
    del s
    files.append(describe(P("schunk_vlmeta.b2frame"),
                          "plain SChunk (no b2nd metalayer): user metalayer and vlmeta"))
    if V4:
        a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=P("vlmeta_ext.b2nd"), mode="w")
        a.vlmeta["ext42"] = blosc2.asarray(np.arange(3, dtype="<i4"))
        a.vlmeta["ext43"] = blosc2.Ref(kind="urlpath", urlpath="other.b2nd")
        del a
        files.append(describe(P("vlmeta_ext.b2nd"),
                              "vlmeta ext 42 (NDArray cframe) and ext 43 (blosc2.Ref); "
                              "python reads them only with deserialize='full'"))

    if V4:
        # vlmeta compression follows blosc2.cparams_dflts (only typesize is forced to 1),
        # so changing the defaults gives genuine vlmeta chunks with other codecs.
        a = blosc2.asarray(np.arange(4, dtype="<i2"), urlpath=P("vlmeta_codecs.b2nd"),
                           mode="w")
        saved = dict(blosc2.cparams_dflts)
        value = {"codec test": list(range(300)), "text": "vlmeta " * 40}
        for label, kw in (("lz4", {"codec": blosc2.Codec.LZ4}),
                          ("lz4hc", {"codec": blosc2.Codec.LZ4HC}),
                          ("blosclz", {"codec": blosc2.Codec.BLOSCLZ}),
                          ("zlib", {"codec": blosc2.Codec.ZLIB}),
                          ("zstd_clevel9", {"clevel": 9}),
                          ("clevel0", {"clevel": 0}),
                          ("bitshuffle", {"filters": [blosc2.Filter.BITSHUFFLE]})):
            blosc2.cparams_dflts.update(kw)
            try:
                a.vlmeta[label] = value
            finally:
                blosc2.cparams_dflts.clear()
                blosc2.cparams_dflts.update(saved)
        del a
        files.append(describe(P("vlmeta_codecs.b2nd"),
                              "the same 819-byte value as vlmeta chunks made with other "
                              "blosc2.cparams_dflts: LZ4, LZ4HC, BLOSCLZ, ZLIB, ZSTD clevel 9, "
                              "clevel 0 (memcpyed), BITSHUFFLE filter"))

    rewrites = []
    if V4:
        path, rewrites = do_rewrites()
        files.append(describe(path, "source file of the rewrite cases"))

    res = {"versions": {"python_blosc2": VERSION, "c_blosc2": blosc2.VERSION_STRING,
                        "numpy": np.__version__,
                        "msgpack": ".".join(map(str, msgpack.version))},
           "files": files, "rewrites": rewrites}
    with open(out_json, "w") as f:
        json.dump(res, f, allow_nan=False)


def crossread(path):
    """Add to each older file what python-blosc2 4.x reads where it differs."""
    with open(path) as f:
        files = json.load(f)
    for e in files:
        if e["producer"] == f"python-blosc2 {VERSION}":
            continue
        obj = open_reader(os.path.join(DATA, e["path"]))
        schunk = obj.schunk if hasattr(obj, "schunk") else obj
        diffs = {}
        for kind, getter in (("metalayers", lambda n: schunk.meta[n]),
                             ("vlmeta", lambda n: schunk.vlmeta[n])):
            for n, ent in e[kind].items():
                try:
                    v = getter(n)
                    if ent["json"] is None and "decode_error" in ent:
                        diffs[f"{kind}/{n}"] = "reads a value where msgpack fails"
                        continue
                    check_same(ent["json"], v)
                    if "python_error" in ent:
                        diffs[f"{kind}/{n}"] = "reads it (the producer's python-blosc2 fails)"
                except AssertionError:
                    diffs[f"{kind}/{n}"] = "reads a different value"
                except Exception as ex:  # noqa: BLE001
                    if "python_error" not in ent:
                        diffs[f"{kind}/{n}"] = "fails: " + err_text(ex)
        del obj
        e[f"read_by_python_blosc2_{VERSION}"] = diffs or "same"
    with open(path, "w") as f:
        json.dump(files, f)


if __name__ == "__main__":
    if "--crossread" in sys.argv:
        crossread(sys.argv[sys.argv.index("--crossread") + 1])
    else:
        worker(sys.argv[sys.argv.index("--worker") + 2])
