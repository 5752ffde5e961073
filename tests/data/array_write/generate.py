"""python-blosc2 reading, and working on, arrays b2nd-meta wrote: the fixtures of
tests/array_write/python.rs. Run from the repository's root:

    python3 tests/data/array_write/generate.py

It has the writer write the fixture arrays (tests/array_write/cases.rs, `fixtures()`) into
written/ (`cargo test --test array_write write_fixture_files -- --ignored`), then, for each
python-blosc2 of /work/venvs (4.14.1, 3.0.0, 2.7.1; or B2ND_VENVS, space-separated
interpreters), opens each array and records what it reads (shape, chunks, blocks, dtype,
compression parameters, metalayers, vlmeta, the sha256 of all its elements), then works on
a copy (sets the last element, grows the first axis by 2, writes the new rows, appends
to a 1-D array, sets a vlmeta entry) and records what it reads after. 4.14.1's worked-on
copies are kept in python-4.14.1/ for our reader. Nothing here computes what the values
should be: the Rust tests do.

    python3 tests/data/array_write/generate.py --changed

is for when the writer changes the bytes of some arrays only: it writes the fixtures into a
temporary directory, replaces in written/ only the arrays whose bytes differ, has each
python-blosc2 read and work on those only, and replaces their entries in python.json and
their copies in python-4.14.1/; every other file is left as it is (python-blosc2 3.x/4.x
do not write the same bytes on every run). metas and metas_sparse were re-recorded so when
vlmeta values came to be stored by chunk::compress.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
VENVS = os.environ.get("B2ND_VENVS", " ".join(
    f"/work/venvs/blosc2-{v}/bin/python" for v in ("4.14.1", "3.0.0", "2.7.1"))).split()

# Run inside each venv: reads every array of WRITTEN, works on copies in WORK.
PROBE = r'''
import hashlib, json, os, shutil, sys
import blosc2, numpy as np

written, work, keep = sys.argv[1], sys.argv[2], sys.argv[3]

def plain(v):
    if isinstance(v, dict):
        return {plain(k) if isinstance(k, bytes) else str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, bytes):
        return v.decode("latin-1")
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    return v

def dtype_str(dt):
    return str(dt) if dt.kind == "V" and dt.fields else dt.str

def sha(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()

def num(x):
    return int(getattr(x, "value", x))

def ints(xs):
    return [num(x) for x in xs]

def read(path):
    a = blosc2.open(path)
    cp = a.schunk.cparams
    cp = cp if isinstance(cp, dict) else {k: getattr(cp, k) for k in
        ("codec", "clevel", "filters", "filters_meta", "splitmode", "typesize")}
    meta = {}
    for name in a.schunk.meta.keys():
        if name != "b2nd":
            meta[name] = plain(a.schunk.meta[name])
    vlmeta = plain(dict(a.schunk.vlmeta.getall()))
    return {
        "shape": ints(a.shape), "chunks": ints(a.chunks), "blocks": ints(a.blocks),
        "dtype": dtype_str(a.dtype), "codec": num(cp["codec"]), "clevel": num(cp["clevel"]),
        "filters": ints(cp["filters"]), "filters_meta": ints(cp["filters_meta"]),
        "splitmode": num(cp["splitmode"]), "typesize": num(cp["typesize"]),
        "meta": meta, "vlmeta": vlmeta, "values_sha256": sha(a[...]),
    }

def work_on(path):
    a = blosc2.open(path, mode="a")
    steps, errors = [], {}
    flat = np.ascontiguousarray(a[...]).reshape(-1)
    n = flat.size
    def step(name, f):
        try:
            f()
            steps.append(name)
        except Exception as e:
            errors[name] = f"{type(e).__name__}: {e}"
    if n > 0:
        mid = flat[n // 2]
        last = tuple(slice(s - 1, s) for s in a.shape)
        def set_last():
            a[last] = np.full((1,) * a.ndim, mid, dtype=a.dtype)
        step("set_last", set_last)
        if a.ndim >= 1:
            old = a.shape[0]
            step("resize2", lambda: a.resize((old + 2,) + tuple(a.shape[1:])))
            if "resize2" in steps:
                def fill_new():
                    a[old:] = np.full((2,) + tuple(a.shape[1:]), mid, dtype=a.dtype)
                step("fill_new", fill_new)
        if a.ndim == 1:
            step("append5", lambda: a.append(flat[:5]))
    def vlmeta():
        a.schunk.vlmeta["added"] = "python"
    step("vlmeta", vlmeta)
    del a
    b = blosc2.open(path)
    return {"steps": steps, "errors": errors, "shape": ints(b.shape),
            "values_sha256": sha(b[...]), "vlmeta_added": plain(b.schunk.vlmeta["added"])
            if "vlmeta" in steps else None}

out = {"python_blosc2": blosc2.__version__, "c_blosc2": blosc2.blosc2_ext.VERSION_STRING
       if hasattr(blosc2.blosc2_ext, "VERSION_STRING") else None, "cases": {}}
for name in sorted(os.listdir(written)):
    src = os.path.join(written, name)
    case = {}
    try:
        case["read"] = read(src)
    except Exception as e:
        case["error"] = f"{type(e).__name__}: {e}"
    dst = os.path.join(work, name)
    (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, dst)
    try:
        case["after"] = work_on(dst)
    except Exception as e:
        case["after_error"] = f"{type(e).__name__}: {e}"
    out["cases"][name[:-len(".b2nd")]] = case
    if keep != "-" and "after" in case:
        (shutil.copytree if os.path.isdir(dst) else shutil.copy)(dst, os.path.join(keep, name))
print(json.dumps(out, indent=1, sort_keys=True))
'''


def write_fixtures(out):
    env = dict(os.environ, B2ND_WRITE_FIXTURES=out)
    # Without `zlib-rs`: the zlib fixtures are miniz_oxide's bytes, which the test checks
    # in builds without it (with it, zlib chunks are C's bytes, checked by tests/compress).
    subprocess.run(["cargo", "test", "--release", "--features", "repo-tests", "--test", "array_write",
                    "write_fixture_files", "--", "--ignored"], cwd=ROOT, env=env, check=True)


def same(a, b):
    if os.path.isdir(a) != os.path.isdir(b):
        return False
    if os.path.isdir(a):
        return sorted(os.listdir(a)) == sorted(os.listdir(b)) and all(
            same(os.path.join(a, n), os.path.join(b, n)) for n in os.listdir(a))
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def changed():
    written = os.path.join(HERE, "written")
    tmp = tempfile.mkdtemp()
    try:
        fresh = os.path.join(tmp, "written")
        os.makedirs(fresh)
        write_fixtures(fresh)
        names = sorted(os.listdir(fresh))
        if sorted(os.listdir(written)) != names:
            sys.exit("other fixture names than written/'s: run without --changed")
        differ = [n for n in names
                  if not same(os.path.join(fresh, n), os.path.join(written, n))]
        print("changed:", " ".join(differ) or "none")
        if not differ:
            return
        only = os.path.join(tmp, "only")
        os.makedirs(only)
        for n in differ:
            for d in (os.path.join(only, n), os.path.join(written, n)):
                remove(d)
                copy(os.path.join(fresh, n), d)
        with open(os.path.join(HERE, "python.json")) as f:
            manifest = json.load(f)
        for python in VENVS:
            work = os.path.join(tmp, "work")
            keep = os.path.join(tmp, "keep")
            for d in (work, keep):
                shutil.rmtree(d, ignore_errors=True)
                os.makedirs(d)
            result = subprocess.run([python, "-c", PROBE, only, work, keep],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit(f"{python}: {result.stderr}")
            out = json.loads(result.stdout)
            version = out["python_blosc2"]
            recorded = manifest["versions"][version]
            if out["c_blosc2"] != recorded["c_blosc2"]:
                sys.exit(f"{python}: C-Blosc2 {out['c_blosc2']}, not {recorded['c_blosc2']}")
            recorded["cases"].update(out["cases"])
            if version == "4.14.1":
                for n in differ:
                    dst = os.path.join(HERE, f"python-{version}", n)
                    remove(dst)
                    if os.path.exists(os.path.join(keep, n)):
                        copy(os.path.join(keep, n), dst)
        with open(os.path.join(HERE, "python.json"), "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
            f.write("\n")
    finally:
        shutil.rmtree(tmp)


def remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


def copy(src, dst):
    (shutil.copytree if os.path.isdir(src) else shutil.copyfile)(src, dst)


def main():
    if sys.argv[1:] == ["--changed"]:
        return changed()
    if sys.argv[1:]:
        sys.exit(__doc__)
    written = os.path.join(HERE, "written")
    shutil.rmtree(written, ignore_errors=True)
    os.makedirs(written)
    write_fixtures(written)
    versions = {}
    for python in VENVS:
        work = os.path.join(HERE, "work")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        version = subprocess.run([python, "-c", "import blosc2; print(blosc2.__version__)"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        keep = "-"
        if version == "4.14.1":
            keep = os.path.join(HERE, f"python-{version}")
            shutil.rmtree(keep, ignore_errors=True)
            os.makedirs(keep)
        result = subprocess.run([python, "-c", PROBE, written, work, keep],
                                capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"{python}: {result.stderr}")
        versions[version] = json.loads(result.stdout)
        shutil.rmtree(work)
    with open(os.path.join(HERE, "python.json"), "w") as f:
        json.dump({"generator": "tests/data/array_write/generate.py", "versions": versions},
                  f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
