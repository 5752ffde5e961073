#!/usr/bin/env python3
"""Resize interop cases: our own patch of the shape entries, checked in the producer's
library against that library's own `resize`.

Usage (from the repository root; any python3, the driver needs only the stdlib):

    python3 tests/data/resize/generate.py

For each case (CASES below) the driver copies the source frame (a file, or a sparse
directory) to a temporary place and, for an "ok" case, patches the shape entries of the
array metalayer in place: per the b2nd/caterva layout (SPEC / C-Blosc2 b2nd.c), the content
is fixarray [version, ndim, [shape: int64 (0xd3 + 8 bytes big-endian) x ndim], ...]; the
content offset comes from the frame's metalayer index. Nothing else changes. It records the
sha256 of the patched file (sparse: of chunks.b2frame).

Then a checker runs in the library's venv (python-blosc2 4.14.1 for b2nd frames; caterva
0.7.3 for caterva frames, since python-blosc2 opens those only as a plain SChunk): it opens
the patched frame (opens, shape), resizes another copy of the source with the library's own
`resize(new_shape)`, and compares the data over the retained region. It also compares the
bytes the library's resize wrote with ours: "python_resize_rewrites_chunks" is true when
they differ outside the array metalayer (the library rewrote chunks, the index or the
header), false when the library wrote exactly our bytes. Venvs: $B2ND_VENV_<NAME>, else
/work/venvs/<name>, else one created under ~/.cache/b2nd-meta/venvs/<name>.

Refused cases record the unchanged input's sha256 in after_sha256 (a refusal must leave the
file as it was), and what the library says about the input and about its own resize.
Writes cases.json (format: /work/notes/CONVENTIONS.md, "Resize interop") and the two
truncated frames.
"""

import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
CHECKERS = {
    "b2nd": ("blosc2-4.14.1", ["blosc2==4.14.1", "numpy==2.4.6"]),
    "caterva": ("caterva-0.7.3", ["caterva==0.7.3", "numpy==1.26.4"]),
}

C = "corpus/"
P4 = "producers/blosc2-4.14.1/"
PC = "producers/caterva-0.7.3/"
CASES = [
    # file, new_shape, expect, reason (refused only)
    (C + "ndim1_f8.b2nd", [12], "ok", None),
    (C + "ndim1_f8.b2nd", [9], "ok", None),
    (C + "ndim2_i4.b2nd", [12, 8], "ok", None),
    (C + "ndim2_i4.b2nd", [9, 5], "ok", None),
    (C + "ndim2_i4.b2nd", [11, 6], "ok", None),
    (C + "ndim2_i4.b2nd", [10, 7], "ok", None),
    (C + "ndim3_u2.b2nd", [4, 6, 8], "ok", None),
    (C + "ndim0_i8.b2nd", [], "ok", None),
    (C + "user_meta.b2nd", [4], "ok", None),
    (C + "empty_mid_axis.b2nd", [4, 0, 3], "ok", None),
    (P4 + "empty_axis.b2nd", [0, 3], "ok", None),
    ("producers/blosc2-2.7.1/resized_grown.b2nd", [8, 10], "ok", None),
    ("producers/blosc2-3.0.0/ndim2_i4.b2nd", [11, 8], "ok", None),
    (PC + "ndim2_i4.cat", [12, 8], "ok", None),
    (PC + "empty_axis.cat", [0, 3], "ok", None),
    (C + "sparse_2d.b2nd", [4, 3], "ok", None),
    (P4 + "sparse_2d.b2nd", [12, 8], "ok", None),
    (P4 + "sparse_2d.b2nd", [9, 5], "ok", None),
    (PC + "sparse_2d.cat", [11, 8], "ok", None),
    # refused
    (C + "ndim2_i4.b2nd", [13, 7], "refused", "grid"),
    (C + "ndim2_i4.b2nd", [8, 7], "refused", "grid"),
    (C + "ndim2_i4.b2nd", [0, 7], "refused", "grid"),
    (C + "ndim3_u2.b2nd", [4, 6, 9], "refused", "grid"),
    (P4 + "empty_axis.b2nd", [1, 4], "refused", "grid"),
    (C + "sparse_2d.b2nd", [5, 4], "refused", "grid"),
    (C + "ndim2_i4.b2nd", [10, 7, 1], "refused", "ndim"),
    (C + "ndim2_i4.b2nd", [70], "refused", "ndim"),
    (C + "ndim0_i8.b2nd", [1], "refused", "ndim"),
    (C + "ndim2_i4.b2nd", [-1, 7], "refused", "invalid"),
    (C + "ndim2_i4.b2nd", [10, -7], "refused", "invalid"),
    ("resize/truncated_data.b2nd", [12, 8], "refused", "truncated"),
    ("resize/truncated_header.b2nd", [12, 8], "refused", "truncated"),
]
TRUNCATED = [
    # name, source, keep this many bytes
    ("truncated_data.b2nd", C + "ndim2_i4.b2nd", "frame_len - 100 (the chunks are cut)"),
    ("truncated_header.b2nd", C + "ndim2_i4.b2nd", "120 (cut inside the b2nd content)"),
]


# --------------------------------------------------------------------------
# Driver side (stdlib only)
# --------------------------------------------------------------------------

def venv_python(name, pins):
    env = "B2ND_VENV_" + name.upper().replace("-", "_").replace(".", "_")
    own = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                       "b2nd-meta", "venvs", name)
    for c in (os.environ.get(env), os.path.join("/work/venvs", name), own):
        if c and os.path.exists(os.path.join(c, "bin", "python")):
            return os.path.join(c, "bin", "python")
    subprocess.run([sys.executable, "-m", "venv", own], check=True)
    py = os.path.join(own, "bin", "python")
    subprocess.run([py, "-m", "pip", "install", "-q"] + pins, check=True)
    return py


def header_path(path):
    return os.path.join(path, "chunks.b2frame") if os.path.isdir(path) else path


def sha256(path):
    with open(header_path(path), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def array_meta(buf):
    """(name, content offset) of the array metalayer: b2nd, else caterva; from the index."""
    assert buf[87] == 0x93 and buf[88] == 0xCD and buf[91] == 0xDE
    n = struct.unpack_from(">H", buf, 92)[0]
    pos, found = 94, {}
    for _ in range(n):
        ln = buf[pos] - 0xA0
        assert 0 <= ln < 32
        name = bytes(buf[pos + 1:pos + 1 + ln]).decode()
        assert buf[pos + 1 + ln] == 0xD2
        off = struct.unpack_from(">i", buf, pos + 2 + ln)[0]
        assert buf[off] == 0xC6
        found[name] = off + 5
        pos += 6 + ln
    name = "b2nd" if "b2nd" in found else "caterva"
    return name, found[name]


def patch_shape(path, new_shape):
    """Overwrite the int64 shape entries of the array metalayer, nothing else."""
    hp = header_path(path)
    with open(hp, "rb") as f:
        buf = bytearray(f.read())
    name, co = array_meta(buf)
    ndim = buf[co + 2]
    assert buf[co] in (0x95, 0x97) and buf[co + 3] == 0x90 + ndim == 0x90 + len(new_shape)
    for i, v in enumerate(new_shape):
        p = co + 4 + 9 * i
        assert buf[p] == 0xD3
        buf[p + 1:p + 9] = struct.pack(">q", v)
    with open(hp, "r+b") as f:
        f.write(buf)
    return name


def copy(src, dst):
    if os.path.isdir(src):
        shutil.copytree(src, dst)
    else:
        shutil.copyfile(src, dst)


def make_truncated():
    for name, src, how in TRUNCATED:
        with open(os.path.join(DATA, src), "rb") as f:
            buf = f.read()
        n = len(buf) - 100 if how.startswith("frame_len") else 120
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(buf[:n])


def driver():
    make_truncated()
    tmp = tempfile.mkdtemp(prefix="b2nd-resize-")
    tasks = {"b2nd": [], "caterva": []}
    out = []
    for n, (rel, new_shape, expect, reason) in enumerate(CASES):
        src = os.path.join(DATA, rel)
        if rel.endswith(".cat"):
            lib = "caterva"
        else:
            lib = "b2nd"
        case = {"file": rel, "new_shape": new_shape, "expect": expect}
        if reason:
            case["reason"] = reason
        work = os.path.join(tmp, f"{n}_ours" + os.path.splitext(rel)[1])
        copy(src, work)
        try:  # refused cases too, where the bytes allow: to see what the library rewrites
            patched = patch_shape(work, new_shape) == lib
        except (AssertionError, IndexError, struct.error):
            patched = False
        if expect == "ok":
            assert patched
            case["after_sha256"] = sha256(work)
        else:
            case["after_sha256"] = sha256(src)  # a refusal leaves the file as it was
        theirs = os.path.join(tmp, f"{n}_theirs" + os.path.splitext(rel)[1])
        copy(src, theirs)
        tasks[lib].append({"n": n, "src": src, "ours": work if patched else None,
                           "refused": expect != "ok", "theirs": theirs,
                           "new_shape": new_shape})
        out.append(case)
    for lib, ts in tasks.items():
        name, pins = CHECKERS[lib]
        py = venv_python(name, pins)
        r = subprocess.run([py, os.path.abspath(__file__), "--check", lib], input=json.dumps(ts),
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr)
            raise SystemExit(f"checker {name} failed")
        for n, res in json.loads(r.stdout).items():
            case = out[int(n)]
            case["python"] = res["python"]
            case["python_checker"] = res["checker"]
            case["python_resize"] = res["python_resize"]
            case["python_resize_shape"] = res["python_resize_shape"]
            case["python_resize_rewrites_chunks"] = res["rewrites"]
    shutil.rmtree(tmp)
    for c in out:
        if c["expect"] == "ok":
            p = c["python"]
            if not (p["opens"] and p["shape"] == c["new_shape"] and \
                p["data_equal_to_python_resize"]):
                print("NOT CONFIRMED:", c, file=sys.stderr)
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        f.write('{"generator": "tests/data/resize/generate.py", "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in out))
        f.write("\n]}\n")
    print(f"{len(out)} cases ({sum(c['expect'] == 'ok' for c in out)} ok)", file=sys.stderr)


# --------------------------------------------------------------------------
# Checker side (inside the library's venv)
# --------------------------------------------------------------------------

def tree_bytes(path):
    if os.path.isdir(path):
        out = {}
        for fn in sorted(os.listdir(path)):
            with open(os.path.join(path, fn), "rb") as f:
                out[fn] = f.read()
        return out
    with open(path, "rb") as f:
        return {"": f.read()}


def check(lib):
    import numpy as np
    tasks = json.load(sys.stdin)
    if lib == "b2nd":
        import blosc2
        blosc2.set_nthreads(1)
        checker = f"python-blosc2 {blosc2.__version__}"

        def open_(p, mode="r"):
            a = blosc2.open(p, mode=mode)
            return a, list(a.shape), a[...]
    else:
        import caterva as cat
        checker = f"caterva {cat.__version__}"

        def open_(p, mode="r"):
            a = cat.open(p)
            d = np.frombuffer(a.to_buffer(), dtype=f"V{a.itemsize}").reshape(a.shape)
            return a, list(a.shape), d

    def err(e):  # no machine-specific paths in the data
        text = f"{type(e).__name__}: {e}".splitlines()[0].replace(DATA, "tests/data")
        return re.sub(r"'/[^']*/([^'/]+)'", r"'<tmp>/\1'", text)

    res = {}
    for t in tasks:
        new = tuple(t["new_shape"])
        r = {"checker": checker}
        # the library's own resize on another copy
        theirs = None
        try:
            a, _, _ = open_(t["theirs"], "a")
            a.resize(new)
            del a
            _, tshape, theirs = open_(t["theirs"])
            r["python_resize"] = "ok"
            r["python_resize_shape"] = tshape  # what the library's resize really gave
        except Exception as e:  # noqa: BLE001
            r["python_resize"] = err(e)
            r["python_resize_shape"] = None
        # did the library's resize write anything but our metalayer bytes?
        r["rewrites"] = None if theirs is None or t["ours"] is None else \
            tree_bytes(t["theirs"]) != tree_bytes(t["ours"])
        if t["refused"]:  # what the library says about the unchanged input
            try:
                _, shape, _ = open_(t["src"])
                r["python"] = {"opens": True, "shape": shape,
                               "data_equal_to_python_resize": None}
            except Exception as e:  # noqa: BLE001
                r["python"] = {"opens": False, "error": err(e), "shape": None,
                               "data_equal_to_python_resize": None}
            res[t["n"]] = r
            continue
        _, old_shape, old = open_(t["src"])
        try:
            _, shape, ours = open_(t["ours"])
            # retained region: what old, new (and the library's result) all cover
            tsh = theirs.shape if theirs is not None else new
            keep = tuple(slice(0, min(x, y, z)) for x, y, z in zip(old_shape, new, tsh))
            eq = theirs is not None and len(tsh) == len(new) and \
                ours[keep].tobytes() == theirs[keep].tobytes() == old[keep].tobytes()
            r["python"] = {"opens": True, "shape": shape, "data_equal_to_python_resize": eq}
        except Exception as e:  # noqa: BLE001
            r["python"] = {"opens": False, "error": err(e), "shape": None,
                           "data_equal_to_python_resize": False}
        res[t["n"]] = r
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        check(sys.argv[2])
    else:
        driver()
