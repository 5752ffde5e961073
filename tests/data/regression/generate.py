#!/usr/bin/env python3
"""Fixtures of tests/regression/issue_20.rs, written by python-blosc2 itself.

Usage (from the repository root), with python-blosc2 4.14.1:

    /work/venvs/blosc2-4.14.1/bin/python tests/data/regression/generate.py

(any python with blosc2 4.14.1 installed will do).

caterva_beside_b2nd.b2nd: `blosc2.zeros((10,), dtype="f8", chunks=(10,), blocks=(10,),
meta={"caterva": [0, 1, 2]})`: the array is read through `b2nd`; `caterva` is a user
metalayer. caterva_beside_b2nd_after.b2nd: the same file after python-blosc2's own
`schunk.meta["caterva"] = [1, 0, 3]`, which it allows (same length, user data).
"""

import os
import shutil
import sys

import blosc2

assert blosc2.__version__ == "4.14.1", blosc2.__version__
here = os.path.dirname(os.path.abspath(__file__))
before = os.path.join(here, "caterva_beside_b2nd.b2nd")
after = os.path.join(here, "caterva_beside_b2nd_after.b2nd")
for p in (before, after):
    if os.path.exists(p):
        os.remove(p)

a = blosc2.zeros((10,), dtype="f8", chunks=(10,), blocks=(10,), meta={"caterva": [0, 1, 2]},
                 urlpath=before, mode="w")
assert list(a.schunk.meta.keys()) == ["b2nd", "caterva"]
del a
shutil.copyfile(before, after)
a = blosc2.open(after, mode="a")
a.schunk.meta["caterva"] = [1, 0, 3]
del a
a = blosc2.open(after)
assert a.schunk.meta["caterva"] == [1, 0, 3] and a.shape == (10,)
print("wrote", before, after, file=sys.stderr)
