#!/usr/bin/env python3
"""What python-blosc2 4.14.1 reports (`.info`, `.cparams`, `.nchunks`, `.cratio`) for
every producer fixture it opens: the truth for the fields `b2nd-meta show` prints beside
the header facts (filters and their meta, splitmode, use_dict, nchunks, cratio).

Usage (from the repository root, any python3 >= 3.10):

    python3 tests/data/producers/info.py

It runs itself inside the python-blosc2 4.14.1 venv ($B2ND_VENV_BLOSC2_4_14_1, else
/work/venvs/blosc2-4.14.1, as generate.py looks) and writes
tests/data/producers/info.json: one line per file, the path relative to
tests/data/producers, with python's values. A file python does not open is listed with
"error" (its exception's name). Two runs give the same bytes.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def find_python():
    env = os.environ.get("B2ND_VENV_BLOSC2_4_14_1")
    for c in ([env] if env else []) + ["/work/venvs/blosc2-4.14.1"]:
        py = os.path.join(c, "bin", "python")
        if os.path.exists(py):
            return py
    sys.exit("no python-blosc2 4.14.1 venv: see tests/data/producers/README.md")


def worker():
    import blosc2

    out = {}
    for producer in sorted(os.listdir(HERE)):
        folder = os.path.join(HERE, producer)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            rel = f"{producer}/{name}"
            try:
                obj = blosc2.open(os.path.join(folder, name), mode="r")
            except Exception as e:  # recorded: python does not open it
                out[rel] = {"error": type(e).__name__}
                continue
            sc = obj.schunk if hasattr(obj, "schunk") else obj
            cp = sc.cparams
            info = dict(obj.info_items)
            entry = {
                "codec": int(cp.codec.value),
                "codec_meta": int(cp.codec_meta),
                "clevel": int(cp.clevel),
                "use_dict": bool(cp.use_dict),
                "splitmode": int(cp.splitmode.value),
                "filters": [int(f.value) for f in cp.filters],
                "filters_meta": [int(m) for m in cp.filters_meta],
                "nchunks": int(sc.nchunks),
                "nbytes": int(sc.nbytes),
                "cbytes": int(sc.cbytes),
                "cratio": float(sc.cratio),
                "info_cratio": info["cratio"],
            }
            out[rel] = entry
    with open(os.path.join(HERE, "info.json"), "w") as f:
        f.write("{\n" + ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in out.items()) + "\n}\n")


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker()
    else:
        subprocess.check_call([find_python(), os.path.abspath(__file__), "--worker"])
