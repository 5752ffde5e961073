#!/usr/bin/env python3
"""The crafted files of issue 44 (tests/regression/issue_44/), written by C-Blosc2 3.3.5
through python-blosc2 4.14.1, one of them then changed by hand.

Usage (from the repository root), with the references `.ci/references` installs:

    "$(bash .ci/references | sed -n 's/^B2ND_VENV_BLOSC2_4_14_1=//p')/bin/python" \
        tests/data/regression/issue44.py

It rewrites tests/data/regression/issue44/ and checks with python-blosc2 that each file
reads as said below. The same versions give the same bytes on every run.

- many.b2nd (221 bytes): 2^24 chunks of one uint8 zero each (C's special zero chunks),
  so its offsets index declares 128 MiB in a few bytes; python-blosc2 opens it.
- bad.b2nd: 40 int32 (0..39) in four chunks of 10, stored uncompressed (clevel 0, so
  the offsets index is stored as is), whose 4th chunk offset is then set past the end
  of the file (C-Blosc2 refuses to open it).
- late.b2nd: the same array, whose 4th chunk's header then says 44 bytes where the
  chunk holds 40: python opens it and reads the first three chunks, not the 4th, so a
  reader fails only after it has read (and an export written) 30 values.
"""

import os
import struct

import blosc2
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "issue44")


def many():
    path = os.path.join(OUT, "many.b2nd")
    a = blosc2.zeros((2**24,), dtype="u1", chunks=(1,), blocks=(1,), urlpath=path, mode="w")
    assert a.schunk.nchunks == 2**24
    b = blosc2.open(path)
    assert b.shape == (2**24,) and b[2**24 - 1] == 0


def four_chunks(path):
    """The array of bad.b2nd and late.b2nd, its bytes, and where its offsets are."""
    blosc2.asarray(
        np.arange(40, dtype="i4"),
        chunks=(10,),
        blocks=(10,),
        urlpath=path,
        mode="w",
        cparams=blosc2.CParams(clevel=0, nthreads=1),
    )
    data = bytearray(open(path, "rb").read())
    # The offsets index: a chunk of 4 int64 (typesize 8, nbytes 32) stored as is.
    found = [
        i
        for i in range(len(data) - 16)
        if data[i + 3] == 8 and struct.unpack("<i", data[i + 4 : i + 8])[0] == 32
    ]
    assert len(found) == 1, found
    return data, found[0] + 32


def bad():
    path = os.path.join(OUT, "bad.b2nd")
    data, offsets = four_chunks(path)
    at = offsets + 3 * 8
    assert struct.unpack("<q", data[at : at + 8])[0] > 0
    data[at : at + 8] = struct.pack("<q", len(data) + 1000)
    open(path, "wb").write(bytes(data))
    try:
        blosc2.open(path)
    except RuntimeError:
        pass
    else:
        raise AssertionError("python opened bad.b2nd")


def late():
    path = os.path.join(OUT, "late.b2nd")
    data, offsets = four_chunks(path)
    # The header: fixarray, str "b2frame\0", then int32 0xd2 header_len.
    assert data[10] == 0xD2
    header_len = struct.unpack(">i", data[11:15])[0]
    chunk = header_len + struct.unpack("<q", data[offsets + 24 : offsets + 32])[0]
    # The 4th chunk: version 5 (or 4), typesize 4, nbytes 40.
    assert data[chunk + 3] == 4 and struct.unpack("<i", data[chunk + 4 : chunk + 8])[0] == 40
    data[chunk + 4 : chunk + 8] = struct.pack("<i", 44)
    open(path, "wb").write(bytes(data))
    a = blosc2.open(path)
    assert list(a[:30]) == list(range(30))
    try:
        a[30:]
    except Exception:
        pass
    else:
        raise AssertionError("python read the 4th chunk of late.b2nd")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    many()
    bad()
    late()
