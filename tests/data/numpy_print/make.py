"""numpy's print of small arrays, recorded for `show -H --slice ...` (tests/cli/human.rs).

Writes cases.json: for each case its name, the array as np.save writes it (hex) and
str(arr), which print writes. Run with the venv of .ci/references:
    ~/.cache/b2nd-meta/venvs/blosc2-4.14.1/bin/python tests/data/numpy_print/make.py
Each array is short enough that numpy does not wrap its lines (75 characters) nor
summarize it (1000 elements)."""
import io
import json
import pathlib

import numpy as np

nan, inf = np.nan, np.inf
CASES = {
    "f8_whole": np.array([30.0, 1.0, -2.0]),
    "f8_mixed": np.array([30.0, 1.5, 2.25, -100.125]),
    "f8_tenths": np.array([0.1, 0.2, 0.1 + 0.2]),
    "f8_thirds": np.array([1 / 3, 2 / 3, 10.0]),
    "f8_small": np.array([1e-5, 1.0, 2.5]),
    "f8_large": np.array([1.5e10, 2.0, -3.25]),
    "f8_ratio": np.array([0.5, 1000.0, 2.0]),
    "f8_ratio_over": np.array([0.5, 1000.5, 2.0]),
    "f8_wide_exponent": np.array([1e300, 1e-300, 1.0]),
    "f8_nonfinite": np.array([nan, inf, -inf, 1.5]),
    "f8_nan_only": np.array([nan, nan]),
    "f8_zeros": np.array([0.0, -0.0, 0.0]),
    "f8_zero_and_small": np.array([0.0, 1e-7]),
    "f8_2d": np.array([[1.5, 2.0, 300.0], [4.125, -0.5, 6.0]]),
    "f8_3d": np.arange(12, dtype="f8").reshape(2, 3, 2) / 4,
    "f8_big_endian": np.array([1.25, -7.0], dtype=">f8"),
    "f4_tenths": np.array([0.1, 0.2, 1 / 3], dtype="f4"),
    "f4_small": np.array([1e-5, 1e5, 3.0], dtype="f4"),
    "f2_tenths": np.array([0.1, 0.5, 1000.0], dtype="f2"),
    "f2_range": np.array([65504.0, 0.001, -2.0], dtype="f2"),
    "i4": np.array([[1, -20], [300, 4]], dtype="i4"),
    "bool": np.array([True, False, True]),
}

out = []
for name, arr in CASES.items():
    buf = io.BytesIO()
    np.save(buf, arr)
    out.append({"name": name, "npy_hex": buf.getvalue().hex(), "print": str(arr)})
path = pathlib.Path(__file__).with_name("cases.json")
path.write_text(json.dumps({"numpy": np.__version__, "cases": out}, indent=1) + "\n")
