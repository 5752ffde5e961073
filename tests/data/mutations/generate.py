#!/usr/bin/env python3
"""Header mutations of real frames, with python-blosc2 4.14.1's verdict on each.

Usage (from the repository root):

    python3 tests/data/mutations/generate.py

Runs itself inside a python that has blosc2 4.14.1: this python if it has it, else the venv
named by B2ND_VENV_BLOSC2_4_14_1, else /work/venvs/blosc2-4.14.1, else a venv it creates
under ~/.cache/b2nd-meta/venvs/ (pip install blosc2==4.14.1 numpy==2.4.6).

For each source frame (FILES) and each mutation (one overwrite of bytes at an offset of
the fixed header, the metalayer index or a metalayer's bin32 header), a forked child calls
`blosc2.schunk_from_cframe(bytes(buf), copy=True)` (C's blosc2_schunk_from_buffer) and,
when that succeeds, reads every metalayer C lists (`blosc2_ext.meta__getitem__`, C's
blosc2_meta_get). A child killed by a signal is recorded as
`"opens": false, "error": "crash: signal N"`. Each child has a 20 s alarm and an 8 GiB
address-space limit (so a bogus length cannot take the machine): a child stopped that way
is a crash too (signal 14 = SIGALRM); MemoryError inside C shows as an error text.
Every case runs in 4 fresh worker processes (4 ASLR layouts): C reads outside the buffer
for some bogus lengths, so a few verdicts depend on the memory layout; when the workers
differ, a crash in any wins and the error says "(nondeterministic; otherwise: ...)".
The child runs with BLOSC_TRACE=1; C-Blosc2's [error]/[warning] lines are appended to
the error text as "(C trace: <message> [frame.c:LINE]; ...)".
Writes cases.json (format: /work/notes/CONVENTIONS.md, "Header mutations").
"""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)
VERSION = "4.14.1"

FILES = [
    "corpus/ndim2_i4.b2nd",                      # plain 2-d, one metalayer
    "corpus/user_meta.b2nd",                     # b2nd + 2 user metalayers + vlmeta
    "corpus/empty_1d.b2nd",                      # chunksize 0, general flags 0x53
    "producers/caterva-0.7.3/empty_axis.cat",    # caterva metalayer, chunksize -1
    "producers/blosc2-2.7.1/resized_shrunk.b2nd",  # old producer, other flags 0
]


def ensure_python():
    try:
        import blosc2
        if blosc2.__version__ == VERSION:
            return
    except ImportError:
        pass
    if os.environ.get("B2ND_REEXEC"):
        raise SystemExit("blosc2 %s not importable in %s" % (VERSION, sys.executable))
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        raise SystemExit("a worker must run in the blosc2 %s python" % VERSION)
    name = "blosc2-" + VERSION
    cands = [os.environ.get("B2ND_VENV_BLOSC2_4_14_1"), "/work/venvs/" + name]
    own = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
                       "b2nd-meta", "venvs", name)
    cands.append(own)
    py = next((os.path.join(c, "bin", "python") for c in cands
               if c and os.path.exists(os.path.join(c, "bin", "python"))), None)
    if py is None:
        subprocess.run([sys.executable, "-m", "venv", own], check=True)
        py = os.path.join(own, "bin", "python")
        subprocess.run([py, "-m", "pip", "install", "-q", "blosc2==" + VERSION,
                        "numpy==2.4.6"], check=True)
    env = dict(os.environ, B2ND_REEXEC="1")
    raise SystemExit(subprocess.run([py, os.path.abspath(__file__)] + sys.argv[1:],
                                    env=env).returncode)


# --------------------------------------------------------------------------
# Where things are (C-Blosc2 blosc/frame.h)
# --------------------------------------------------------------------------

MARKERS = [  # offset, expected byte, what
    (0, 0x9E, "fixarray(14)"), (1, 0xA8, "fixstr(8)"), (10, 0xD2, "header_len int32"),
    (15, 0xCF, "frame_len uint64"), (24, 0xA4, "flags fixstr(4)"), (29, 0xD3, "nbytes int64"),
    (38, 0xD3, "cbytes int64"), (47, 0xD2, "typesize int32"), (52, 0xD2, "blocksize int32"),
    (57, 0xD2, "chunksize int32"), (62, 0xD1, "nthreads_c int16"),
    (65, 0xD1, "nthreads_d int16"), (69, 0xD8, "filters fixext16"),
    (87, 0x93, "metalayers fixarray(3)"), (88, 0xCD, "index size uint16"),
    (91, 0xDE, "map16"),
]


def index_layout(buf):
    """Offsets of the metalayer index: [(name, name_pos, offset_pos, offset)], the
    array16 position."""
    pos = 92 + 2
    n = struct.unpack_from(">H", buf, 92)[0]
    entries = []
    for _ in range(n):
        ln = buf[pos] & 0x1F
        name = bytes(buf[pos + 1:pos + 1 + ln]).decode()
        opos = pos + 1 + ln
        entries.append((name, pos, opos + 1, struct.unpack_from(">i", buf, opos + 1)[0]))
        pos = opos + 5
    assert buf[pos] == 0xDC
    return entries, pos


def be(fmt, v):
    return struct.pack(fmt, v)


def mutations(buf):
    """Yield (field, label, offset, bytes)."""
    flen = len(buf)
    hlen = struct.unpack_from(">i", buf, 11)[0]
    out = []

    def add(field, label, off, b):
        out.append((field, label, off, bytes(b)))

    add("none", "original (no change)", 0, buf[0:1])
    for off, byte, what in MARKERS:
        for v in sorted({0x00, 0xFF, byte ^ 0x01, byte ^ 0x10}):
            add(f"marker@{off}", f"{what}: 0x{byte:02x} -> 0x{v:02x}", off, [v])
    add("magic", "b2frame -> b2frXme", 2, b"b2frXme\x00")
    add("magic", "trailing NUL -> 0x20", 9, b" ")
    add("magic", "all zero", 2, bytes(8))
    # header_len (int32 at 11)
    for label, v in [("0", 0), ("1", 1), ("86", 86), ("87", 87), ("-1", -1),
                     ("i32 max", 2**31 - 1), ("i32 min", -2**31), ("frame_len", flen),
                     ("frame_len+1", flen + 1), ("frame_len-1", flen - 1),
                     ("header_len-1", hlen - 1), ("header_len+1", hlen + 1)]:
        add("header_len", label, 11, be(">i", v))
    # frame_len (uint64 at 16)
    for label, v in [("0", 0), ("1", 1), ("-1 (0xff..ff)", 2**64 - 1), ("file_len-1", flen - 1),
                     ("file_len+1", flen + 1), ("i64 max", 2**63 - 1), ("2^63", 2**63),
                     ("2^32", 2**32), ("header_len", hlen), ("header_len-1", hlen - 1),
                     ("2^40 (huge)", 2**40)]:
        add("frame_len", label, 16, be(">Q", v))
    g = buf[25]
    for bit in range(8):
        add("general_flags", f"bit {bit} flipped (0x{g:02x} -> 0x{g ^ (1 << bit):02x})", 25,
            [g ^ (1 << bit)])
    for nib in range(16):
        if nib != g & 0x0F:
            add("general_flags", f"version nibble {nib} (0x{(g & 0xF0) | nib:02x})", 25,
                [(g & 0xF0) | nib])
    add("general_flags", "0x00", 25, [0])
    add("general_flags", "0xff", 25, [0xFF])
    for v in (0, 1, 2, 3, 255):
        if v != buf[26]:
            add("frame_type", str(v), 26, [v])
    c = buf[27]
    for nib in range(16):
        if nib != c & 0x0F:
            add("codec_flags", f"codec nibble {nib} (0x{(c & 0xF0) | nib:02x})", 27,
                [(c & 0xF0) | nib])
        if nib != c >> 4:
            add("codec_flags", f"clevel nibble {nib} (0x{(nib << 4) | (c & 0x0F):02x})", 27,
                [(nib << 4) | (c & 0x0F)])
    o = buf[28]
    for bit in range(8):
        add("other_flags", f"bit {bit} flipped (0x{o:02x} -> 0x{o ^ (1 << bit):02x})", 28,
            [o ^ (1 << bit)])
    add("other_flags", "0xff", 28, [0xFF])
    for field, off, fmt, bits in [("nbytes", 30, ">q", 64), ("cbytes", 39, ">q", 64),
                                  ("typesize", 48, ">i", 32), ("blocksize", 53, ">i", 32),
                                  ("chunksize", 58, ">i", 32), ("nthreads_c", 63, ">h", 16),
                                  ("nthreads_d", 66, ">h", 16)]:
        cur = struct.unpack_from(fmt, buf, off)[0]
        vals = [("0", 0), ("-1", -1), ("1", 1), ("max", 2**(bits - 1) - 1),
                ("min", -2**(bits - 1)), ("+1", cur + 1), ("-1 from original", cur - 1),
                ("x2", cur * 2)]
        seen = {cur}
        for label, v in vals:
            if v in seen or not -2**(bits - 1) <= v < 2**(bits - 1):
                continue
            seen.add(v)
            add(field, f"{label} ({v})", off, be(fmt, v))
    for v in (0xC2, 0xC3, 0x00, 0x01, 0xC0, 0xFF):
        if v != buf[68]:
            add("has_vlmetalayers", f"0x{v:02x}", 68, [v])
    for v in (0, 1, 6, 7, 8, 9, 255):
        if v != buf[70]:
            add("filters_count", str(v), 70, [v])
    for slot in range(6):
        for v in (0, 1, 255):
            if v != buf[71 + slot]:
                add("filter_code", f"slot {slot} = {v}", 71 + slot, [v])
        if buf[79 + slot] != 255:
            add("filter_meta", f"slot {slot} = 255", 79 + slot, [255])
    add("filter_code", "slots 6,7 (beyond 6 filters) = 1", 77, [1, 1])
    for v in (0, 255):
        if v != buf[77]:
            add("udcodec", str(v), 77, [v])
        if v != buf[78]:
            add("codec_meta", str(v), 78, [v])
    for v in (1, 255):
        add("other_flags2", f"0x{v:02x}", 85, [v])
    add("reserved", "byte 86 = 0xff", 86, [0xFF])
    # metalayer index
    entries, arr16 = index_layout(buf)
    n = len(entries)
    isz = struct.unpack_from(">H", buf, 89)[0]
    for label, v in [("0", 0), ("1", 1), ("0xffff", 0xFFFF), ("+1", isz + 1), ("-1", isz - 1)]:
        add("index_size", label, 89, be(">H", v & 0xFFFF))
    for v in sorted({0, 1, n - 1, n + 1, 16, 17, 0xFFFF} - {n}):
        if v >= 0:
            add("map16_count", str(v), 92, be(">H", v))
    add("array16_marker", "0xdc -> 0x00", arr16, [0])
    for v in sorted({0, 1, n - 1, n + 1, 0xFFFF} - {n}):
        if v >= 0:
            add("array16_count", str(v), arr16 + 1, be(">H", v))
    for k, (name, npos, opos, off) in enumerate(entries[:2]):
        add("metalayer_name", f"#{k} '{name}': fixstr byte 0x{buf[npos]:02x} -> 0xc4 (bin8)",
            npos, [0xC4])
        add("metalayer_name", f"#{k} '{name}': first char -> 0xff (invalid UTF-8)", npos + 1,
            [0xFF])
        if len(name) > 0 and name != "b2nd":
            add("metalayer_name", f"#{k} '{name}' renamed to caterva-like 'c'*len",
                npos + 1, b"c" * len(name))
        add("metalayer_offset_marker", f"#{k} '{name}': 0xd2 -> 0xd3", opos - 1, [0xD3])
        for label, v in [("0", 0), ("-1", -1), ("+1", off + 1), ("-1 from original", off - 1),
                         ("header_len", hlen), ("file_len", flen), ("i32 max", 2**31 - 1),
                         ("87", 87)]:
            add("metalayer_offset", f"#{k} '{name}': {label} ({v})", opos, be(">i", v))
        clen = struct.unpack_from(">i", buf, off + 1)[0]
        add("metalayer_bin32_marker", f"#{k} '{name}': 0xc6 -> 0xc5 (bin16)", off, [0xC5])
        add("metalayer_bin32_marker", f"#{k} '{name}': 0xc6 -> 0x00", off, [0])
        for label, v in [("0", 0), ("-1", -1), ("+1", clen + 1), ("-1 from original", clen - 1),
                         ("to header_len", hlen - off - 5), ("past header_len", hlen - off - 4),
                         ("to file_len", flen - off - 5), ("past file_len", flen - off - 4),
                         ("i32 max", 2**31 - 1)]:
            add("metalayer_content_len", f"#{k} '{name}': {label} ({v})", off + 1, be(">i", v))
    return out


# --------------------------------------------------------------------------
# Verdicts, one forked child each
# --------------------------------------------------------------------------

def verdict_child(data, wfd):
    import resource
    import signal
    import blosc2
    from blosc2 import blosc2_ext
    signal.alarm(20)
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
    os.environ["BLOSC_TRACE"] = "1"  # C-Blosc2 reads it at each trace: says why it refused
    try:
        s = blosc2.schunk_from_cframe(data, copy=True)
        res = {"opens": True, "error": None}
        try:
            names = list(s.meta.keys())
            res["metalayers"] = {n: bytes(blosc2_ext.meta__getitem__(s, n)).hex()
                                 for n in names}
        except Exception as e:  # noqa: BLE001
            res["metalayers"] = None
            res["error"] = f"reading metalayers: {type(e).__name__}: {e}"
    except Exception as e:  # noqa: BLE001
        res = {"opens": False, "error": f"{type(e).__name__}: {e}", "metalayers": None}
    os.write(wfd, json.dumps(res).encode())


def c_trace(path):
    """C-Blosc2's [error]/[warning] trace lines, source path shortened to file:line."""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    out = []
    for ln in lines:
        m = re.match(r"\[(error|warning)\] - (.*?)\s*\(.*/([^/]+:\d+)\)$", ln)
        if m:
            out.append(f"{m.group(2)} [{m.group(3)}]")
    return out


def verdict(data):
    r, w = os.pipe()
    tpath = os.path.join(tempfile.gettempdir(), f"b2nd-mut-trace-{os.getpid()}")
    pid = os.fork()
    if pid == 0:
        os.close(r)
        devnull = os.open(os.devnull, os.O_WRONLY)
        tfd = os.open(tpath, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(tfd, 2)
        os.dup2(devnull, 1)
        try:
            verdict_child(data, w)
        finally:
            os._exit(0)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 65536)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    trace = c_trace(tpath)
    os.unlink(tpath)
    if os.WIFSIGNALED(status):
        res = {"opens": False, "error": f"crash: signal {os.WTERMSIG(status)}",
               "metalayers": None}
    else:
        res = json.loads(b"".join(chunks))
    if trace and res["error"]:
        res["error"] += " (C trace: " + "; ".join(trace) + ")"
    return res


WORKERS = 4


def all_cases():
    for rel in FILES:
        with open(os.path.join(DATA, rel), "rb") as f:
            orig = f.read()
        for field, label, off, b in mutations(orig):
            buf = bytearray(orig)
            buf[off:off + len(b)] = b
            yield rel, field, label, off, b, bytes(buf)


def worker(out):
    """One pass over every case, one forked child per case, in this fresh process."""
    import blosc2
    blosc2.set_nthreads(1)
    with open(out, "w") as f:
        json.dump([verdict(buf) for *_, buf in all_cases()], f)


def merge(runs):
    """C reads outside the buffer for some bogus lengths, so a verdict can depend on the
    process's memory layout (ASLR): a crash in any worker wins, marked."""
    if all(r == runs[0] for r in runs):
        return runs[0]
    crash = next((r for r in runs if r["error"] and r["error"].startswith("crash")), None)
    other = sorted({r["error"] or "opens" for r in runs
                    if not (r["error"] or "").startswith("crash")} - {None})
    res = dict(crash if crash is not None else runs[0])
    res["error"] = (res["error"] or "") + " (nondeterministic; " + \
        ("otherwise: " if crash is not None else "also: ") + " | ".join(other) + ")"
    return res


def main():
    ensure_python()
    import blosc2
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        return worker(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="b2nd-mut-")
    outs = [os.path.join(tmp, f"w{k}.json") for k in range(WORKERS)]
    for k in range(0, WORKERS, 2):  # two at a time: fresh processes, fresh ASLR layouts
        ps = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", o])
              for o in outs[k:k + 2]]
        assert all(p.wait() == 0 for p in ps)
    runs = []
    for o in outs:
        with open(o) as f:
            runs.append(json.load(f))
        os.unlink(o)
    os.rmdir(tmp)
    cases = []
    counts = {}
    for n, (rel, field, label, off, b, _) in enumerate(all_cases()):
        v = merge([r[n] for r in runs])
        cases.append({"file": rel, "field": field, "label": label, "offset": off,
                      "bytes_hex": b.hex(), "python": v})
        k = "opens" if v["opens"] else ("crash" if v["error"].startswith("crash")
                                        else "refused")
        counts[k] = counts.get(k, 0) + 1
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        # one case per line: diffable, and about half the size of indented JSON
        head = {"generator": "tests/data/mutations/generate.py",
                "python_blosc2": blosc2.__version__, "c_blosc2": blosc2.VERSION_STRING}
        f.write(json.dumps(head)[:-1] + ', "cases": [\n')
        f.write(",\n".join(json.dumps(c, separators=(",", ":")) for c in cases))
        f.write("\n]}\n")
    print(f"{len(cases)} cases: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
