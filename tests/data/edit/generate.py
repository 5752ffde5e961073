#!/usr/bin/env python3
"""Changing an array in place (issue 45) against numpy and python-blosc2 4.14.1
(C-Blosc2 3.3.5): `b2nd-meta write`, `resize` and `append` on arrays python wrote.

1. base/: small arrays written by python-blosc2 (nthreads=1, so the same bytes on
   every run): 1-d int32 contiguous and sparse, 2-d float64 (lz4, bitshuffle, a user
   metalayer and vlmeta, a NaN), 3-d uint8 (zstd), big-endian >i2, a structured dtype,
   bool, complex128, datetime64[ns].
2. SCENARIOS below, one line each: a base and its ops (write a slice, resize, append
   along an axis). The expected array is computed with numpy from the base's values
   (`arr[sel] = values` with numpy's broadcasting; a resize keeps the overlapping
   region and fills the rest with zeros -- not np.resize; an append is
   np.concatenate) and saved in expected/<name>.npy; the ops' values in
   inputs/<name>_<op>.npy.
3. Each scenario is applied by b2nd-meta's command line to a copy of the base, and
   python-blosc2 opens the result; manifest.json records per scenario:
   - reads_expected: python's a[...] equals expected/<name>.npy exactly (NaN where NaN);
   - meta_kept: the user metalayers and vlmeta are the base's;
   - python_continues: python then sets a[0], grows axis 0 by one, sets vlmeta["py"],
     reopens, and reads what numpy says;
   - for the shrink-then-grow scenarios, python_own_result_equals_expected: python-blosc2
     applying the same ops to the base itself. C-Blosc2 keeps a shrunk chunk's tail, so
     after growing again python shows the old values where numpy (and b2nd-meta) has
     zeros: false when the shrink cuts inside a chunk, true on a chunk boundary.
tests/array_write/edit.rs applies the same scenarios with the library (ArrayRw) and
checks them against expected/ and this manifest.

Run from the repository with the venv .ci/references installs:
    cargo build --features cli
    ~/.cache/b2nd-meta/venvs/blosc2-4.14.1/bin/python tests/data/edit/generate.py
(B2ND_META_BIN overrides the binary, target/debug/b2nd-meta by default.)
Versions: python-blosc2 4.14.1 (C-Blosc2 3.3.5), numpy 2.4.6.
"""
import json
import os
import shutil
import subprocess
import tempfile

import blosc2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")
BIN = os.environ.get("B2ND_META_BIN", os.path.join(ROOT, "target", "debug", "b2nd-meta"))
STRUCT = [("a", "<i4"), ("b", "<f8")]


def base_values():
    """name -> (values, blosc2 keyword arguments, contiguous)."""
    f8 = (np.arange(600, dtype="f8").reshape(30, 20) * 0.25) - 40.0
    f8[4, 5] = np.nan
    st = np.zeros(20, dtype=STRUCT)
    st["a"] = np.arange(20) * 3 - 10
    st["b"] = np.arange(20) / 8.0
    dates = np.datetime64("2024-01-01T00:00:00", "ns") + np.arange(11) * np.timedelta64(3600, "s")
    i4 = dict(chunks=(8,), blocks=(3,))
    return {
        "i4_1d": (np.arange(29, dtype="i4") * 7 - 50, i4, True),
        "i4_1d_sparse": (np.arange(29, dtype="i4") * 7 - 50, i4, False),
        "f8_2d": (
            f8,
            dict(
                chunks=(16, 8),
                blocks=(4, 4),
                cparams=blosc2.CParams(
                    codec=blosc2.Codec.LZ4, filters=[blosc2.Filter.BITSHUFFLE], nthreads=1
                ),
                meta={"units": {"x": "m"}},
            ),
            True,
        ),
        "u1_3d": (
            (np.arange(210) % 251 + 1).astype("u1").reshape(7, 6, 5),
            dict(chunks=(3, 4, 2), blocks=(2, 3, 2), cparams=blosc2.CParams(codec=blosc2.Codec.ZSTD, nthreads=1)),
            True,
        ),
        "i2_be": ((np.arange(70) - 30).astype(">i2").reshape(10, 7), dict(chunks=(4, 4), blocks=(2, 2)), True),
        "struct": (st, dict(chunks=(6,), blocks=(3,)), True),
        "bool": (np.arange(17) % 3 != 0, dict(chunks=(5,)), True),
        "c16": (np.arange(9) * (1.5 - 2j) + 1j, dict(chunks=(4,)), True),
        "m8": (dates, dict(chunks=(4,)), True),
        # every codec and the filters that transform values
        "i8_delta_blosclz": (
            np.arange(40, dtype="i8") * 1000 - 7,
            dict(chunks=(12,), blocks=(4,), cparams=blosc2.CParams(
                codec=blosc2.Codec.BLOSCLZ, filters=[blosc2.Filter.DELTA, blosc2.Filter.SHUFFLE], nthreads=1)),
            True,
        ),
        "i4_bytedelta_lz4hc": (
            (np.arange(54, dtype="i4") * 3).reshape(6, 9),
            dict(chunks=(4, 4), blocks=(2, 4), cparams=blosc2.CParams(
                codec=blosc2.Codec.LZ4HC, filters=[blosc2.Filter.SHUFFLE, blosc2.Filter.BYTEDELTA], nthreads=1)),
            False,
        ),
        "f4_truncprec_zlib": (
            # values of few mantissa bits: truncation to 13 bits keeps them exactly
            np.arange(50, dtype="f4") * 0.5 - 3,
            dict(chunks=(16,), blocks=(8,), cparams=blosc2.CParams(
                codec=blosc2.Codec.ZLIB, filters=[blosc2.Filter.TRUNC_PREC, blosc2.Filter.SHUFFLE],
                filters_meta=[13, 0], nthreads=1)),
            True,
        ),
        # special chunks, 0-d, 8-d, an empty axis
        "zeros_special": (np.zeros((20, 20), dtype="f8"), dict(chunks=(8, 8), blocks=(4, 4)), True),
        "i4_0d": (np.array(5, dtype="i4"), dict(), True),
        "u2_8d": (
            np.arange(576, dtype="u2").reshape(2, 3, 2, 2, 1, 2, 3, 4),
            dict(chunks=(1, 2, 2, 1, 1, 2, 2, 3), blocks=(1, 1, 1, 1, 1, 1, 2, 3)),
            True,
        ),
        "i4_empty": (np.zeros((0, 6), dtype="i4"), dict(chunks=(3, 6), blocks=(3, 2)), True),
        # chunks of several blocks, each block whole rows: writes covering chunks and
        # appends are compressed from the values a block at a time
        "f8_rows": (
            np.arange(480, dtype="f8").reshape(40, 12) * 0.5 + 1.0,
            dict(chunks=(10, 12), blocks=(2, 12), cparams=blosc2.CParams(codec=blosc2.Codec.ZSTD, nthreads=1)),
            True,
        ),
    }


def base_path(name):
    return os.path.join(HERE, "base", name + ".b2nd")


def write_bases():
    shutil.rmtree(os.path.join(HERE, "base"), ignore_errors=True)
    os.makedirs(os.path.join(HERE, "base"))
    for name, (values, kw, contiguous) in base_values().items():
        kw = dict(kw)
        kw.setdefault("cparams", blosc2.CParams(nthreads=1))
        a = blosc2.asarray(
            values, urlpath=base_path(name), mode="w", contiguous=contiguous, dparams=blosc2.DParams(nthreads=1), **kw
        )
        if name == "f8_2d":
            a.vlmeta["note"] = "written by python-blosc2"
            a.vlmeta["scale"] = [1, 2.5]
        assert same(blosc2.open(base_path(name))[...], values), name


def val(dtype, *items, shape=None):
    """An input array of `dtype` (tuples for the structured dtype)."""
    x = np.array(list(items) if len(items) != 1 else items[0], dtype=dtype)
    return x if shape is None else x.reshape(shape)


def M8(*hours):
    return np.datetime64("2000-01-01", "ns") + np.array(hours) * np.timedelta64(3600, "s")


I4, F8, U1, BE = "i4", "f8", "u1", ">i2"
# name, base, ops: ("write", SPEC, values) | ("resize", shape) | ("append", axis, values).
# A trailing True marks the shrink-then-grow scenarios (python_own_result_equals_expected).
SCENARIOS = [
    # writes
    ("i4_write_exact", "i4_1d", [("write", "3:11", val(I4, range(100, 108)))]),
    ("i4_write_scalar_all", "i4_1d", [("write", "...", val(I4, -7))]),
    ("i4_write_step", "i4_1d", [("write", "1:29:4", val(I4, range(7)))]),
    ("i4_write_negative_step", "i4_1d", [("write", "27:2:-5", val(I4, [9, 8, 7, 6, 5]))]),
    ("i4_write_int", "i4_1d", [("write", "5", val(I4, 555))]),
    ("i4_write_negative_int", "i4_1d", [("write", "-1", val(I4, -1))]),
    ("i4_write_one_value_list", "i4_1d", [("write", "10:20", val(I4, [4]))]),
    ("i4s_write_exact", "i4_1d_sparse", [("write", "6:18", val(I4, range(-12, 0)))]),
    ("i4s_write_negative_step", "i4_1d_sparse", [("write", "::-3", val(I4, range(10)))]),
    ("f8_write_block", "f8_2d", [("write", "2:20, 3:17", val(F8, np.arange(252) * 1.5, shape=(18, 14)))]),
    ("f8_write_row_broadcast", "f8_2d", [("write", "::7", val(F8, np.arange(20) - 0.5))]),
    ("f8_write_column", "f8_2d", [("write", ":, 5", val(F8, np.arange(30) * -2.0))]),
    ("f8_write_column_broadcast", "f8_2d", [("write", "10:14, :", val(F8, [[1.0], [2.0], [3.0], [4.0]]))]),
    ("f8_write_negative_steps", "f8_2d", [("write", "25:5:-4, ::-3", val(F8, np.arange(35) + 0.125, shape=(5, 7)))]),
    ("f8_write_nan_last_column", "f8_2d", [("write", "..., -1", val(F8, np.nan))]),
    ("f8_write_ints", "f8_2d", [("write", "-2, 3", val(F8, 1e300))]),
    ("u1_write_mixed", "u1_3d", [("write", "1:6, ::2, 1", val(U1, range(15), shape=(5, 3)))]),
    ("u1_write_row_broadcast", "u1_3d", [("write", "..., 0", val(U1, [9, 8, 7, 6, 5, 4]))]),
    ("u1_write_ellipsis_middle", "u1_3d", [("write", "-1, ..., 2", val(U1, 200))]),
    ("be_write_step", "i2_be", [("write", "1:9:3, 2:", val(BE, range(-300, -285), shape=(3, 5)))]),
    ("struct_write_exact", "struct", [("write", "4:9", val(STRUCT, *[(i, i / 2) for i in range(5)]))]),
    ("struct_write_scalar", "struct", [("write", "::5", val(STRUCT, (77, -1.5)))]),
    ("bool_write", "bool", [("write", "::2", val("?", True)), ("write", "3:9", val("?", [False] * 6))]),
    ("c16_write_step", "c16", [("write", "1:8:2", val("c16", [1 + 1j, 2 - 2j, -3j, 4]))]),
    ("m8_write", "m8", [("write", "2:7", M8(1, 2, 3, 4, 5))]),
    # resizes
    ("i4_grow", "i4_1d", [("resize", [45])]),
    ("i4_shrink", "i4_1d", [("resize", [13])]),
    ("i4_shrink_inside_chunk_grow", "i4_1d", [("resize", [13]), ("resize", [29])], True),
    ("i4_shrink_on_chunk_edge_grow", "i4_1d", [("resize", [16]), ("resize", [29])], True),
    ("i4_shrink_to_one_grow", "i4_1d", [("resize", [1]), ("resize", [10])], True),
    ("i4_to_empty_grow", "i4_1d", [("resize", [0]), ("resize", [20])], True),
    ("i4s_to_empty_grow", "i4_1d_sparse", [("resize", [0]), ("resize", [12])], True),
    ("f8_to_empty_append", "f8_2d", [("resize", [0, 20]), ("append", 0, val(F8, np.arange(60) * 0.25, shape=(3, 20)))]),
    ("i4s_grow", "i4_1d_sparse", [("resize", [40])]),
    ("i4s_shrink_grow", "i4_1d_sparse", [("resize", [11]), ("resize", [35])], True),
    ("f8_grow_axis0", "f8_2d", [("resize", [40, 20])]),
    ("f8_grow_axis1", "f8_2d", [("resize", [30, 27])]),
    ("f8_grow_both", "f8_2d", [("resize", [49, 33])]),
    ("f8_shrink", "f8_2d", [("resize", [17, 9])]),
    ("f8_shrink_one_grow_other", "f8_2d", [("resize", [12, 25])]),
    ("f8_shrink_grow", "f8_2d", [("resize", [17, 9]), ("resize", [30, 20])], True),
    ("u1_grow_each_axis", "u1_3d", [("resize", [10, 6, 5]), ("resize", [10, 9, 5]), ("resize", [10, 9, 7])]),
    ("u1_shrink_grow", "u1_3d", [("resize", [2, 5, 3]), ("resize", [7, 6, 5])], True),
    ("be_resize", "i2_be", [("resize", [13, 3])]),
    ("struct_grow", "struct", [("resize", [25])]),
    ("bool_shrink_grow", "bool", [("resize", [7]), ("resize", [17])], True),
    ("c16_grow", "c16", [("resize", [14])]),
    ("m8_shrink_grow", "m8", [("resize", [9]), ("resize", [15])], True),
    # appends
    ("i4_append", "i4_1d", [("append", 0, val(I4, [1, 2, 3, 4, 5]))]),
    ("i4s_append", "i4_1d_sparse", [("append", 0, val(I4, range(12)))]),
    ("f8_append_axis0", "f8_2d", [("append", 0, val(F8, np.arange(60) * 0.5, shape=(3, 20)))]),
    ("f8_append_axis1", "f8_2d", [("append", 1, val(F8, np.arange(120) * -0.5, shape=(30, 4)))]),
    ("u1_append_axis0", "u1_3d", [("append", 0, val(U1, range(30), shape=(1, 6, 5)))]),
    ("u1_append_axis2", "u1_3d", [("append", 2, val(U1, range(84), shape=(7, 6, 2)))]),
    ("be_append_axis1", "i2_be", [("append", 1, val(BE, range(20), shape=(10, 2)))]),
    ("struct_append", "struct", [("append", 0, val(STRUCT, (1, 0.5), (2, 1.5)))]),
    ("bool_append", "bool", [("append", 0, val("?", [True, True, False]))]),
    ("c16_append", "c16", [("append", 0, val("c16", [7j, 8.5]))]),
    ("m8_append", "m8", [("append", 0, M8(10, 20, 30))]),
    # every codec and value-changing filter, special chunks, 0-d, 8-d, an empty axis
    ("i8d_write", "i8_delta_blosclz", [("write", "5:30:2", val("i8", range(13)))]),
    ("i8d_grow_append", "i8_delta_blosclz", [("resize", [45]), ("append", 0, val("i8", [1, 2, 3]))]),
    ("i4bd_write_shrink_grow", "i4_bytedelta_lz4hc", [("write", "1:5, 2:7", val(I4, 9)), ("resize", [3, 5]), ("resize", [7, 10])], True),
    ("f4tp_write_append", "f4_truncprec_zlib", [("write", "::7", val("f4", 0.75)), ("append", 0, val("f4", [1.5, -2.0]))]),
    ("zeros_write_box", "zeros_special", [("write", "3:6, 9:12", val(F8, 2.5))]),
    ("zeros_grow", "zeros_special", [("resize", [25, 17])]),
    ("i4_0d_write", "i4_0d", [("write", "...", val(I4, 42))]),
    ("u2_8d_write", "u2_8d", [("write", "1, ..., 0", val("u2", 7))]),
    ("u2_8d_grow", "u2_8d", [("resize", [2, 3, 2, 2, 1, 2, 3, 6])]),
    ("i4_empty_grow_write", "i4_empty", [("resize", [5, 6]), ("write", "1:3", val(I4, 7))]),
    ("i4_empty_append", "i4_empty", [("append", 0, val(I4, range(12), shape=(2, 6)))]),
    # combinations
    (
        "i4_write_grow_append_write",
        "i4_1d",
        [
            ("write", "::3", val(I4, 3)),
            ("resize", [37]),
            ("append", 0, val(I4, [70, 71])),
            ("write", "-8:", val(I4, range(8))),
        ],
    ),
    ("i4_shrink_write_grow", "i4_1d", [("resize", [13]), ("write", "10:", val(I4, 1)), ("resize", [30])], True),
    ("i4s_append_write_negative", "i4_1d_sparse", [("append", 0, val(I4, range(5))), ("write", "::-2", val(I4, 0))]),
    (
        "f8_grow_write_append_shrink",
        "f8_2d",
        [
            ("resize", [35, 24]),
            ("write", "28:, 18:", val(F8, 6.5)),
            ("append", 1, val(F8, np.arange(70.0), shape=(35, 2))),
            ("resize", [33, 25]),
        ],
    ),
    (
        "u1_append_resize_write",
        "u1_3d",
        [("append", 1, val(U1, range(70), shape=(7, 2, 5))), ("resize", [5, 8, 6]), ("write", ":, -1, :", val(U1, 1))],
    ),
    # whole chunks from the values (f8_rows: chunks of 10 rows, blocks of 2)
    ("f8r_write_two_chunks", "f8_rows", [("write", "10:30", val(F8, np.arange(240) * -0.25, shape=(20, 12)))]),
    ("f8r_write_chunk_row_broadcast", "f8_rows", [("write", "20:30", val(F8, np.arange(12) + 0.5))]),
    ("f8r_write_chunk_zeros", "f8_rows", [("write", "0:10", val(F8, 0.0))]),
    ("f8r_write_chunk_reversed", "f8_rows", [("write", "29:9:-1", val(F8, np.arange(240.0), shape=(20, 12)))]),
    ("f8r_append_chunk_and_part", "f8_rows", [("append", 0, val(F8, np.arange(180) * 2.0, shape=(15, 12)))]),
    ("f8r_grow_then_write_new", "f8_rows", [("resize", [60, 12]), ("write", "45:55, 2:", val(F8, 3.0))]),
    ("f8r_write_columns_of_chunks", "f8_rows", [("write", "10:20, ::2", val(F8, np.arange(60.0), shape=(10, 6)))]),
    ("be_write_shrink_append", "i2_be", [("write", "...", val(BE, -1)), ("resize", [6, 7]), ("append", 0, val(BE, range(7), shape=(1, 7)))]),
]


def sel(spec):
    return eval("np.s_[" + spec + "]")


def resized(x, shape):
    """numpy's meaning of a resize: the overlapping region kept, zeros elsewhere."""
    out = np.zeros(shape, dtype=x.dtype)
    common = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, shape))
    out[common] = x[common]
    return out


def expected(x, ops):
    x = x.copy()
    for op in ops:
        if op[0] == "write":
            x[sel(op[1])] = op[2]
        elif op[0] == "resize":
            x = resized(x, tuple(op[1]))
        else:
            # (np.concatenate gives the native byte order: keep the base's)
            x = np.concatenate([x, op[2]], axis=op[1]).astype(x.dtype)
    return x


def same(a, b):
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind in "fc":
        return bool(np.array_equal(a, b, equal_nan=True))
    return a.tobytes() == b.tobytes()


def user_meta(path):
    a = blosc2.open(path)
    meta = {k: a.schunk.meta[k] for k in a.schunk.meta.keys() if k != "b2nd"}
    return meta, dict(a.schunk.vlmeta.getall())


def one(dtype):
    if dtype.names:
        return np.array((5, 2.5), dtype=dtype)
    if dtype.kind == "M":
        return np.array(np.datetime64("1999-12-31", "ns"))
    return np.ones((), dtype=dtype)


def python_continues(path, want):
    """python sets a[0], grows axis 0 by one and adds vlmeta, then reads it again."""
    a = blosc2.open(path, mode="a")
    v = one(want.dtype)
    want = want.copy()
    if want.ndim == 0:
        # a 0-d array: set its one value, nothing to grow
        a[()] = v
        want[()] = v
    else:
        if want.shape[0] > 0:
            a[0] = v
            want[0] = v
        a.resize((a.shape[0] + 1,) + tuple(a.shape[1:]))
        want = resized(want, (want.shape[0] + 1,) + want.shape[1:])
    a.vlmeta["py"] = 1
    b = blosc2.open(path)
    return same(b[...], want) and b.vlmeta["py"] == 1


def python_own(path, ops):
    """python-blosc2 applying the ops itself (an append: resize, then set the slice)."""
    a = blosc2.open(path, mode="a")
    for op in ops:
        if op[0] == "write":
            a[sel(op[1])] = op[2]
        elif op[0] == "resize":
            a.resize(tuple(op[1]))
        else:
            axis, v = op[1], op[2]
            shape = list(a.shape)
            start = shape[axis]
            shape[axis] += v.shape[axis]
            a.resize(tuple(shape))
            where = [slice(None)] * len(shape)
            where[axis] = slice(start, None)
            a[tuple(where)] = v
    return blosc2.open(path)[...]


def copy(src, dst):
    (shutil.copytree if os.path.isdir(src) else shutil.copyfile)(src, dst)


def main():
    assert blosc2.__version__ == "4.14.1", blosc2.__version__
    write_bases()
    for sub in ("expected", "inputs"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
        os.makedirs(os.path.join(HERE, sub))
    bases = base_values()
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in SCENARIOS:
            name, base, ops = scenario[:3]
            shrink_grow = len(scenario) > 3
            assert name not in [s["name"] for s in out], name
            x = bases[base][0]
            want = expected(x, ops)
            np.save(os.path.join(HERE, "expected", name + ".npy"), want)
            target = os.path.join(tmp, name + ".b2nd")
            copy(base_path(base), target)
            recorded = []
            for i, op in enumerate(ops):
                if op[0] == "resize":
                    args = ["resize", target, ",".join(map(str, op[1]))]
                    recorded.append({"op": "resize", "shape": op[1]})
                else:
                    values = np.asarray(op[-1], dtype=x.dtype)
                    npy = "inputs/%s_%d.npy" % (name, i)
                    np.save(os.path.join(HERE, npy), values)
                    if op[0] == "write":
                        args = ["write", target, "--slice", op[1], os.path.join(HERE, npy)]
                        recorded.append({"op": "write", "slice": op[1], "input": npy})
                    else:
                        args = ["append", target, "--axis", str(op[1]), os.path.join(HERE, npy)]
                        recorded.append({"op": "append", "axis": op[1], "input": npy})
                run = subprocess.run([BIN] + args, capture_output=True, text=True)
                assert run.returncode == 0 and not run.stdout and not run.stderr, (name, args, run)
            entry = {"name": name, "base": "base/" + base + ".b2nd", "ops": recorded, "expected": "expected/" + name + ".npy"}
            try:
                entry["reads_expected"] = same(blosc2.open(target)[...], want)
            except Exception as e:  # python cannot read our file
                entry["reads_expected"] = False
                entry["python_error"] = repr(e)
            entry["meta_kept"] = user_meta(target) == user_meta(base_path(base))
            try:
                entry["python_continues"] = python_continues(target, want)
            except Exception as e:
                entry["python_continues"] = False
                entry["python_error"] = repr(e)
            if shrink_grow:
                own = os.path.join(tmp, name + ".own.b2nd")
                copy(base_path(base), own)
                entry["python_own_result_equals_expected"] = same(python_own(own, ops), want)
            out.append(entry)
            print(name, {k: v for k, v in entry.items() if k.startswith(("reads", "meta", "python"))})
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump(
            {
                "producer": "b2nd-meta write/resize/append, read by python-blosc2 %s (C-Blosc2 %s), numpy %s"
                % (blosc2.__version__, blosc2.blosclib_version.split()[0], np.__version__),
                "scenarios": out,
            },
            f,
            indent=1,
        )
        f.write("\n")


if __name__ == "__main__":
    main()
