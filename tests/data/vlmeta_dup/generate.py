#!/usr/bin/env python3
"""A frame whose vlmeta index names one vlmetalayer twice, and what python-blosc2 makes of it.

Usage (from the repository root, python-blosc2 4.14.1's venv):

    /work/venvs/blosc2-4.14.1/bin/python tests/data/vlmeta_dup/generate.py

C-Blosc2 never writes a name twice (`blosc2_vlmeta_add` refuses a name it has), but it
opens such a frame: its lookups (`blosc2_vlmeta_exists`, `_get`, `_update`, `_delete`)
take the first entry of a name. python-blosc2 4.14.1 writes dup_base.b2nd, a 100-int64
array with vlmeta "aa" = 1 and "ab" = 2; dup.b2nd is it with the index's "ab" changed
to "aa" (dup_base.b2nd is then removed). python then, on copies, sets vlmeta["aa"] = 5 (python_set.b2nd) and deletes
vlmeta["aa"] (python_del.b2nd), and verdicts.json records what it reads from each file:
the names (`keys()`), the value of each name (`vlmeta[name]`) and `getall()`.
"""

import json
import os
import shutil

import blosc2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def read(name):
    array = blosc2.open(path(name))
    v = array.schunk.vlmeta
    keys = list(v.keys())
    return {"keys": keys, "get": {k: v[k] for k in keys}, "getall": v.getall()}


def main():
    a = blosc2.asarray(np.arange(100), urlpath=path("dup_base.b2nd"), mode="w")
    a.schunk.vlmeta["aa"] = 1
    a.schunk.vlmeta["ab"] = 2
    del a
    data = bytearray(open(path("dup_base.b2nd"), "rb").read())
    # The trailer's index: fixstr 0xa2 "ab", then 0xd2 and the offset.
    at = data.rindex(b"\xa2ab\xd2")
    data[at + 1:at + 3] = b"aa"
    open(path("dup.b2nd"), "wb").write(data)
    os.remove(path("dup_base.b2nd"))
    shutil.copy(path("dup.b2nd"), path("python_set.b2nd"))
    changed = blosc2.open(path("python_set.b2nd"), mode="a")
    changed.schunk.vlmeta["aa"] = 5
    del changed
    shutil.copy(path("dup.b2nd"), path("python_del.b2nd"))
    changed = blosc2.open(path("python_del.b2nd"), mode="a")
    del changed.schunk.vlmeta["aa"]
    del changed
    verdicts = {
        "blosc2": blosc2.__version__,
        "generator": "tests/data/vlmeta_dup/generate.py",
        "dup.b2nd": read("dup.b2nd"),
        "python_set.b2nd": read("python_set.b2nd"),
        "python_del.b2nd": read("python_del.b2nd"),
    }
    with open(path("verdicts.json"), "w") as f:
        json.dump(verdicts, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
