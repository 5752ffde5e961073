#!/usr/bin/env python3
"""vlmeta written by b2nd-meta, read back and changed further by python-blosc2.

Usage (from the repository root; any python3, the driver needs only the stdlib, and
cargo to build the CLI):

    python3 tests/data/vlmeta_write/generate.py               # everything, bases too
    python3 tests/data/vlmeta_write/generate.py --keep-bases  # steps 2-4 only

1. Each python-blosc2 (2.7.1, 3.0.0, 4.14.1; venvs found as in
   tests/data/producers/generate.py: B2ND_VENV_BLOSC2_<V>, else /work/venvs/blosc2-<v>,
   else $XDG_CACHE_HOME/b2nd-meta/venvs/blosc2-<v>; this script creates none: make one
   with `python3 -m venv <dir> && <dir>/bin/pip install blosc2==<v> numpy msgpack`, the
   pins of tests/data/producers/generate.py) writes base frames into base/: a 6x10 int32 array
   in 2 chunks, contiguous (<v>.b2nd) and sparse (<v>_sparse.b2nd/), holding two
   vlmetalayers of its own ("existing" = "python wrote me", "n" = 1); and the same
   with no data (<v>_empty.b2nd, <v>_empty_sparse.b2nd: a 3x10 array shrunk to 0x10, nbytes 0, whose
   trailer C reads right after the header, so that we replace the file).
2. Our CLI (`cargo run --features cli -- set-vlmeta|del-vlmeta ...`) applies each
   scenario of SCENARIOS below to a copy of each base frame, one command per op (a
   value too long for a command line goes through stdin).
3. Each python-blosc2 opens every result and reads every vlmetalayer: the value (JSON
   mapping converted to python: $bin -> bytes, $complex -> complex, $set -> set) and the
   raw msgpack C decompresses (`vlmeta.get_vlmeta`, sha256 recorded), and the array; then,
   on a copy, sets a value (vlmeta["py_added"] = "from python"), resizes the array by 3
   rows (9x10, or 3x10 from empty: C appends a chunk) and writes the new rows, reopens
   and reads everything again.
4. manifest.json records, per result: the base, the ops, each op's exit status, the
   sha256 of the file we wrote (for a sparse frame its chunks.b2frame) and each
   version's verdict. The files we wrote are not committed (tests/frame/vlmeta_python.rs
   writes them again from the base frames and checks their sha256); the ones python
   changed further are, for the "kinds_a" scenario on contiguous frames (python_changed/),
   for our reader.

python-blosc2 3.0.0 and 4.14.1 do not write the same bytes on every run (compressed
blocks land in thread order), so a rerun rewrites some base frames: the committed ones,
and their manifest entries, are from the first run; the no-data bases were added by a
later one, whose entries for the other bases were not kept.

--keep-bases skips step 1 and runs steps 2-4 on the committed base frames (as the Rust
test does), for when what we write changes: base/ and python_changed/ are left as they
are (python's changes to the new results are still made and read back, in a temporary
directory) and manifest.json is rewritten whole. manifest.json was last recorded so, when
vlmeta values came to be stored by chunk::compress (LZ4 blocks of 256 KiB, typesize 1, no
filters): python_changed/ still holds python's changes to the files we wrote before, with
the earlier encoder (tests/frame/vlmeta_python.rs only reads them).
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
VERSIONS = ["2.7.1", "3.0.0", "4.14.1"]

MIB = {"gen": "mib"}  # a 1 MiB string: see mib_string()


def mib_string():
    # Deterministic, not compressible to nothing: letters by a multiplicative sequence.
    return "".join(chr(97 + (i * 7919 + (i >> 10)) % 26) for i in range(1 << 20))


def kinds_a():
    return [
        ("nil", "null"), ("t", "true"), ("f", "false"), ("zero", "0"), ("neg", "-1"),
        ("i64max", "9223372036854775807"), ("i64min", "-9223372036854775808"),
        ("u64max", "18446744073709551615"), ("float", "1.5"), ("str", '"hello"'),
        ("ustr", '"\u00f1and\u00fa \U0001f642"'), ("list", '[1, "a", null, 2.5]'),
        ("map", '{"a": {"b": [1, 2]}, "c": "d"}'),
    ]


def kinds_b():
    return [
        ("bin", '{"$bin": "00ff10"}'), ("complex", '{"$complex": [1.5, -2.0]}'),
        ("set", '{"$set": [1, 2, 3]}'), ("negfloat", "-0.25"), ("bigfloat", "1e+300"),
        ("nested", '[[[]], {}, [{"x": [true]}]]'),
    ]


SCENARIOS = {
    "kinds_a": [("set", n, j) for n, j in kinds_a()],
    "kinds_b": [("set", n, j) for n, j in kinds_b()],
    "empty": [("set", "estr", '""'), ("set", "elist", "[]"), ("set", "emap", "{}"),
              ("set", "ebin", '{"$bin": ""}')],
    "mib": [("set", "mib", MIB)],
    "unicode_names": [("set", "\u00f1and\u00fa", "1"), ("set", "\u65e5\u672c\u8a9e\u306e\u540d\u524d", "2"),
                      ("set", "\U0001f642" + "x" * 27, "3")],
    "sixteen": [("set", "k%02d" % i, str(i)) for i in range(14)]
               + [("set", "k14", "14")],  # a 17th entry: refused, nothing written
    "map1000": [("set", "map1000", json.dumps({"k%d" % i: i for i in range(1000)}))],
    "delete": [("del", "existing", None), ("set", "a", "1"), ("del", "a", None),
               ("del", "nope", None)],  # an unknown name: refused
    "replace": [("set", "n", "1"), ("set", "existing", '"new"')],
}
SPARSE_SCENARIOS = ["kinds_a", "delete", "mib"]
EMPTY_SCENARIOS = ["kinds_a", "delete", "mib"]


def venv_python(version):
    name = "blosc2-" + version
    env = "B2ND_VENV_" + name.upper().replace("-", "_").replace(".", "_")
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    for c in [os.environ.get(env), os.path.join("/work/venvs", name),
              os.path.join(cache, "b2nd-meta", "venvs", name)]:
        if c and os.path.exists(os.path.join(c, "bin", "python")):
            return os.path.join(c, "bin", "python")
    sys.exit("no venv for %s: set %s" % (name, env))


def sha256(path):
    if os.path.isdir(path):
        path = os.path.join(path, "chunks.b2frame")
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def copy(src, dst):
    if os.path.isdir(src):
        shutil.copytree(src, dst)
    else:
        shutil.copyfile(src, dst)


def op_json(j):
    return json.dumps(mib_string()) if j == MIB else j


# --------------------------------------------------------------------------
# Inside a venv
# --------------------------------------------------------------------------

def to_python(v):
    """The crate's JSON mapping, as the python value it stands for."""
    if isinstance(v, dict) and len(v) == 1:
        (k, b), = v.items()
        if k == "$bin":
            return bytes.fromhex(b)
        if k == "$complex":
            return complex(b[0], b[1])
        if k == "$set":
            return set(to_python(x) for x in b)
    if isinstance(v, dict):
        return {k: to_python(x) for k, x in v.items()}
    if isinstance(v, list):
        return [to_python(x) for x in v]
    return v


def norm(v):
    """Tuples (2.x/3.x decode arrays as tuples in places) as lists, recursively."""
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {norm(k) if isinstance(k, (list, tuple)) else k: norm(x) for k, x in v.items()}
    return v


def make_base(outdir, version):
    import blosc2
    import numpy as np
    data = np.arange(60, dtype=np.int32).reshape(6, 10)
    for suffix, contiguous in [("", True), ("_sparse", False)]:
        path = os.path.join(outdir, version + suffix + ".b2nd")
        a = blosc2.asarray(data, chunks=(3, 10), blocks=(3, 5), urlpath=path, mode="w",
                           contiguous=contiguous)
        a.schunk.vlmeta["existing"] = "python wrote me"
        a.schunk.vlmeta["n"] = 1
        path = os.path.join(outdir, version + "_empty" + suffix + ".b2nd")
        # 2.7.1 cannot create a 0-row array; every version shrinks one to 0 rows.
        e = blosc2.asarray(data[:3], chunks=(3, 10), blocks=(3, 5), urlpath=path, mode="w",
                           contiguous=contiguous)
        e.resize((0, 10))
        e.schunk.vlmeta["existing"] = "python wrote me"
        e.schunk.vlmeta["n"] = 1
        assert blosc2.open(path).schunk.nbytes == 0


def own_round_trip(value):
    """What this python-blosc2 makes of `value` written by itself: ("ok", value, raw
    msgpack), ("write_error", exception name) or ("read_error", exception name)."""
    import blosc2
    tmp = tempfile.mkdtemp()
    try:
        a = blosc2.zeros((4,), urlpath=os.path.join(tmp, "own.b2nd"), mode="w")
        try:
            a.schunk.vlmeta["v"] = value
        except Exception as e:  # noqa: BLE001
            return ("write_error", type(e).__name__)
        a = blosc2.open(os.path.join(tmp, "own.b2nd"))
        raw = a.schunk.vlmeta.get_vlmeta("v")
        try:
            return ("ok", a.schunk.vlmeta["v"], raw)
        except Exception as e:  # noqa: BLE001
            return ("read_error", type(e).__name__)
    finally:
        shutil.rmtree(tmp)


def read_all(path, expected, rows0, rows):
    """Reads every vlmetalayer and the array; the problems found, as strings. A value
    this python-blosc2 cannot round-trip itself must fail the same way here."""
    import blosc2
    import numpy as np
    a = blosc2.open(path)
    vl = a.schunk.vlmeta
    names = list(vl.keys())
    names = [n.decode() if isinstance(n, bytes) else n for n in names]
    raw_sha = {}
    problems = []
    same_msgpack = {}
    for name in names:
        raw = vl.get_vlmeta(name)
        raw_sha[name] = hashlib.sha256(raw).hexdigest()
        if name not in expected:
            continue
        own = own_round_trip(expected[name])
        try:
            got = ("ok", vl[name])
        except Exception as e:  # noqa: BLE001
            got = ("error", type(e).__name__)
        if own[0] == "ok":
            same_msgpack[name] = own[2] == raw
            if got[0] != "ok" or norm(got[1]) != norm(own[1]) or norm(got[1]) != norm(expected[name]):
                problems.append(("value of %r: %r" % (name, got))[:200])
        elif own[0] == "write_error":
            # This version cannot write such a value (sets, complex before 4.x); it must
            # still read ours, as msgpack gives it (an ExtType).
            if got[0] != "ok":
                problems.append(("%r: python cannot write it and fails reading ours: %r" % (name, got))[:200])
        elif got[0] == "ok" or got[1] != own[1]:
            # It cannot read back its own (2.x/3.0 fail on an empty list): ours the same.
            problems.append(("%r: python fails reading its own (%s), ours gives %r" % (name, own[1], got))[:200])
    if sorted(names) != sorted(expected):
        problems.append("names %r, expected %r" % (names, sorted(expected)))
    want = np.arange(60, dtype=np.int32).reshape(6, 10)[:rows0]
    if rows > rows0:
        want = np.concatenate([want, np.full((rows - rows0, 10), 7, dtype=np.int32)])
    if not np.array_equal(a[:], want):
        problems.append("array data differs")
    return names, raw_sha, same_msgpack, problems


def verify(jobs_path, version):
    import blosc2
    jobs = json.load(open(jobs_path))
    out = {}
    for job in jobs:
        path, expected = job["path"], {k: to_python(json.loads(op_json(v)))
                                       for k, v in job["expected"].items()}
        verdict = {}
        rows0 = job.get("rows", 6)
        try:
            names, raw, same, problems = read_all(path, expected, rows0, rows0)
            verdict["names"] = names
            verdict["raw_sha256"] = raw
            verdict["msgpack_differs_from_python"] = sorted(k for k, v in same.items() if not v)
            verdict["read"] = problems or "ok"
        except Exception as e:  # noqa: BLE001 - a verdict, not a crash
            verdict["read"] = "error: %r" % (e,)
            out[job["id"]] = verdict
            continue
        tmp = tempfile.mkdtemp()
        changed = os.path.join(tmp, os.path.basename(path))
        copy(path, changed)
        try:
            a = blosc2.open(changed, mode="a")
            # A 17th entry is refused by python too: then it replaces one.
            key = "py_added" if len(expected) < 16 else names[0]
            a.schunk.vlmeta[key] = "from python"
            a.resize((rows0 + 3, 10))
            a[rows0:rows0 + 3] = 7
            del a
            more = dict(expected)
            more[key] = "from python"
            _, _, _, problems = read_all(changed, more, rows0, rows0 + 3)
            verdict["changed_by_python"] = problems or "ok"
            if job.get("keep_changed"):
                copy(changed, job["keep_changed"])
        except Exception as e:  # noqa: BLE001
            verdict["changed_by_python"] = "error: %r" % (e,)
        shutil.rmtree(tmp)
        out[job["id"]] = verdict
    json.dump(out, sys.stdout)


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def run_ops(cli, path, ops):
    statuses = []
    for op, name, j in ops:
        if op == "set":
            text = op_json(j)
            arg = "-" if j == MIB else text
            r = subprocess.run(cli + ["set-vlmeta", path, name, arg], input=text.encode(),
                               capture_output=True)
        else:
            r = subprocess.run(cli + ["del-vlmeta", path, name], capture_output=True)
        statuses.append(r.returncode)
    return statuses


def expected_after(ops, start):
    names = dict(start)
    for op, name, j in ops:
        if op == "set":
            if name in names or len(names) < 16:
                names[name] = j
        elif name in names:
            del names[name]
    return names


def main(keep_bases):
    base_dir = os.path.join(HERE, "base")
    work = tempfile.mkdtemp()
    if keep_bases:
        for v in VERSIONS:
            venv_python(v)  # all three found before anything runs
        changed_dir = os.path.join(work, "python_changed")
        os.makedirs(changed_dir)
    else:
        shutil.rmtree(base_dir, ignore_errors=True)
        os.makedirs(base_dir)
        for v in VERSIONS:
            subprocess.run([venv_python(v), __file__, "--base", base_dir, v], check=True)
        changed_dir = os.path.join(HERE, "python_changed")
        shutil.rmtree(changed_dir, ignore_errors=True)
        os.makedirs(changed_dir)
    subprocess.run(["cargo", "build", "--quiet", "--features", "cli"], cwd=ROOT, check=True)
    cli = [os.path.join(ROOT, "target", "debug", "b2nd-meta")]
    results, jobs = [], []
    start = {"existing": '"python wrote me"', "n": "1"}
    for v in VERSIONS:
        for empty, sparse in [(False, False), (False, True), (True, False), (True, True)]:
            base = v + ("_empty" if empty else "") + ("_sparse" if sparse else "") + ".b2nd"
            for scenario, ops in SCENARIOS.items():
                if sparse and scenario not in SPARSE_SCENARIOS:
                    continue
                if empty and scenario not in EMPTY_SCENARIOS:
                    continue
                rid = "%s/%s" % (scenario, base)
                path = os.path.join(work, "%s_%s" % (scenario, base))
                copy(os.path.join(base_dir, base), path)
                statuses = run_ops(cli, path, ops)
                expected = expected_after(ops, start)
                keep = None
                if scenario == "kinds_a" and not sparse and not empty:
                    keep = os.path.join(changed_dir, "kinds_a_" + base)
                jobs.append({"id": rid, "path": path, "keep_changed": keep,
                             "expected": expected, "rows": 0 if empty else 6})
                results.append({"id": rid, "base": base, "scenario": scenario,
                                "statuses": statuses, "sha256": sha256(path),
                                "expected_names": list(expected)})
    jobs_path = os.path.join(work, "jobs.json")
    with open(jobs_path, "w") as f:
        json.dump(jobs, f)
    verdicts = {}
    for v in VERSIONS:
        r = subprocess.run([venv_python(v), __file__, "--verify", jobs_path, v],
                           check=True, stdout=subprocess.PIPE)
        verdicts[v] = json.loads(r.stdout)
    for r in results:
        r["verdicts"] = {v: verdicts[v][r["id"]] for v in VERSIONS}
        # What C decompressed, the same in every version: kept once.
        shas = [r["verdicts"][v].pop("raw_sha256", None) for v in VERSIONS]
        r["raw_sha256"] = shas[-1]
        if any(s != shas[-1] for s in shas):
            r["raw_sha256_differ_between_versions"] = shas
        for v in VERSIONS:
            r["verdicts"][v].pop("names", None)
    scenarios = {k: [[op, n, j] for op, n, j in ops] for k, ops in SCENARIOS.items()}
    manifest = {"generator": "tests/data/vlmeta_write/generate.py",
                "versions": VERSIONS, "scenarios": scenarios, "results": results}
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    shutil.rmtree(work)
    bad = [(r["id"], v, d) for r in results for v, d in r["verdicts"].items()
           if d.get("read") != "ok" or d.get("changed_by_python") != "ok"
           or d.get("msgpack_differs_from_python")]
    for b in bad:
        print("NOT OK:", b)
    print("%d results, %d verdicts not ok" % (len(results), len(bad)))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--base":
        make_base(sys.argv[2], sys.argv[3])
    elif len(sys.argv) > 1 and sys.argv[1] == "--verify":
        verify(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2 and sys.argv[1] == "--keep-bases":
        main(keep_bases=True)
    elif len(sys.argv) == 1:
        main(keep_bases=False)
    else:
        sys.exit(__doc__)
