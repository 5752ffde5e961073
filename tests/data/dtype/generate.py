#!/usr/bin/env python3
"""Ask NumPy about every dtype string in inputs.json; write what it says to numpy.json.

Usage (from the repository root):

    python3 tests/data/dtype/generate.py

Needs NumPy 2.4.6, the version the expectations came from. The script runs under the
first Python that has it: the current one, the venv named by $B2ND_META_VENV, one under
/work/venvs/, or else a venv it creates in tests/data/dtype/.venv (`python3 -m venv`,
then `pip install numpy==2.4.6`). With that NumPy the output is the same on every run
(on x86-64 Linux, where NumPy's native byte order is little-endian).

How a string is read is python-blosc2's (4.14.1, `blosc2_ext.pyx`, `NDArray.dtype`):
`np.dtype(s)`, and on ValueError or TypeError `np.dtype(ast.literal_eval(s))`. What it
stores for a dtype is python-blosc2's too (`blosc2_ext.pyx`, `create_array`):
`str(dtype)` when `dtype.kind == 'V'`, else `dtype.str`.

For each string of inputs.json's `table` (NumPy must read it), numpy.json gives:
- `canonical`: the stored string of NumPy's reading;
- `stable`: whether NumPy reads `canonical` back to an equal dtype stored the same way;
- `itemsize`, `kind` (this crate's `Kind::name()`: NumPy's kind, with 'V' split into
  struct, subarray and void), `order` (`dtype.byteorder`, '=' resolved to '<');
- only when they apply: `aligned` (`dtype.isalignedstruct` of a struct), `datetime`
  (`np.datetime_data`), `string_len` (bytes for 'S', characters for 'U'), `subarray`
  (stored string of `subdtype[0]`, and the shape), `fields` (from `dtype.names` and
  `dtype.fields`: name, title, offset, itemsize, shape, stored string of the full dtype).
The script stops if a `numpy_rejects` or `accepted_past_numpy_limits` string is read,
or a `table` or `deliberately_rejected` string is not.
"""

import ast
import glob
import json
import os
import platform
import re
import subprocess
import sys
import warnings

NUMPY_VERSION = "2.4.6"
HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs.json")
OUTPUT = os.path.join(HERE, "numpy.json")
REEXEC = "B2ND_META_DTYPE_GENERATOR_REEXEC"


def has_numpy(python):
    probe = f"import numpy, sys; sys.exit(numpy.__version__ != {NUMPY_VERSION!r})"
    return subprocess.run([python, "-c", probe], capture_output=True).returncode == 0


def ensure_numpy():
    """Re-runs this script under a Python with NumPy NUMPY_VERSION unless this one has it."""
    try:
        import numpy

        if numpy.__version__ == NUMPY_VERSION:
            return
    except ImportError:
        pass
    if os.environ.get(REEXEC):
        sys.exit(f"{sys.executable} still lacks numpy {NUMPY_VERSION}")
    venvs = [os.environ.get("B2ND_META_VENV"), os.path.join(HERE, ".venv")]
    # python-blosc2 4.14.1's venv first: the NumPy the expectations came from.
    venvs += sorted(glob.glob("/work/venvs/*"), key=lambda v: not v.endswith("blosc2-4.14.1"))
    pythons = [os.path.join(v, "bin", "python") for v in venvs if v]
    python = next((p for p in pythons if os.path.exists(p) and has_numpy(p)), None)
    if python is None:
        venv = os.path.join(HERE, ".venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        subprocess.run([python, "-m", "pip", "install", f"numpy=={NUMPY_VERSION}"], check=True)
    print(f"running under {python}", file=sys.stderr)
    os.execve(python, [python, os.path.abspath(__file__)], {**os.environ, REEXEC: "1"})


def read(np, s):
    """python-blosc2's reading of a stored dtype string."""
    try:
        return np.dtype(s)
    except (ValueError, TypeError):
        return np.dtype(ast.literal_eval(s))


def stored(dt):
    """The string python-blosc2 stores for a dtype."""
    return str(dt) if dt.kind == "V" else dt.str


KINDS = {
    "b": "bool", "i": "int", "u": "uint", "f": "float", "c": "complex", "S": "bytes",
    "U": "unicode", "M": "datetime", "m": "timedelta", "O": "object",
}


def kind(dt):
    if dt.kind != "V":
        return KINDS[dt.kind]
    if dt.names is not None:
        return "struct"
    return "subarray" if dt.subdtype is not None else "void"


def describe(np, s):
    dt = read(np, s)
    canonical = stored(dt)
    try:
        again = read(np, canonical)
        stable = again == dt and stored(again) == canonical
    except Exception:  # noqa: BLE001 - any failure to read back is "not stable"
        stable = False
    case = {
        "input": s,
        "canonical": canonical,
        "stable": bool(stable),
        "itemsize": dt.itemsize,
        "kind": kind(dt),
        "order": "<" if dt.byteorder == "=" else dt.byteorder,
    }
    if dt.names is not None and dt.isalignedstruct:
        # Structs only: NumPy also flags a subarray of an aligned struct.
        case["aligned"] = True
    if dt.kind in "Mm":
        unit, count = np.datetime_data(dt)
        case["datetime"] = [unit, count]
    if dt.kind == "S":
        case["string_len"] = dt.itemsize
    elif dt.kind == "U":
        case["string_len"] = dt.itemsize // 4
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        case["subarray"] = [stored(base), list(shape)]
    if dt.names is not None:
        fields = []
        for name in dt.names:
            entry = dt.fields[name]
            field_dt, offset = entry[0], entry[1]
            fields.append({
                "name": name,
                "title": entry[2] if len(entry) > 2 else None,
                "offset": offset,
                "itemsize": field_dt.itemsize,
                "shape": list(field_dt.shape),
                "dtype": stored(field_dt),
            })
        case["fields"] = fields
    return case


def error_of(np, s):
    """Why python-blosc2 cannot read a string, or None if it can: the error of
    `np.dtype(s)` when `s` is not a Python literal either, else the error of
    `np.dtype(ast.literal_eval(s))`. Object addresses are blanked (they vary per run)."""
    try:
        np.dtype(s)
        return None
    except Exception as e:  # noqa: BLE001 - python-blosc2 lets every error through
        error = e
    if isinstance(error, (ValueError, TypeError)):
        try:
            value = ast.literal_eval(s)
        except Exception:  # noqa: BLE001 - not a literal: NumPy's own error says more
            pass
        else:
            try:
                np.dtype(value)
                return None
            except Exception as e:  # noqa: BLE001
                error = e
    message = f"{type(error).__name__}: {error}".splitlines()[0]
    message = re.sub(r" at 0x[0-9a-f]+", "", message)
    return message if len(message) <= 120 else message[:117] + "..."


def main():
    ensure_numpy()
    import numpy as np

    warnings.simplefilter("ignore")  # deprecated aliases ('a5') still read
    with open(INPUTS, encoding="utf-8") as f:
        inputs = json.load(f)

    table = [describe(np, s) for s in inputs["table"]]
    problems = []
    rejects = []
    for s in inputs["numpy_rejects"]:
        err = error_of(np, s)
        if err is None:
            problems.append(f"numpy_rejects: NumPy reads {s!r}")
        rejects.append({"input": s, "numpy_error": err})
    deliberate = []
    for s in inputs["deliberately_rejected"]:
        err = error_of(np, s)
        if err is not None:
            problems.append(f"deliberately_rejected: NumPy rejects {s!r}: {err}")
            continue
        deliberate.append({"input": s, "numpy_reads": stored(read(np, s))})
    past = []
    for s in inputs["accepted_past_numpy_limits"]:
        err = error_of(np, s)
        if err is None:
            problems.append(f"accepted_past_numpy_limits: NumPy reads {s!r}")
        past.append({"input": s, "numpy_error": err})
    if problems:
        sys.exit("\n".join(problems))

    def block(key, cases):
        rows = [json.dumps(c) for c in cases]
        body = ",\n".join(f"    {r}" for r in rows)
        return f'  "{key}": [\n{body}\n  ]'

    header = {
        "generator": "tests/data/dtype/generate.py",
        "inputs": "tests/data/dtype/inputs.json",
        "numpy": np.__version__,
        "python": platform.python_version(),
        "machine": f"{platform.machine()} {platform.system()}",
        "read_as": "np.dtype(s), else np.dtype(ast.literal_eval(s)) (python-blosc2 4.14.1)",
        "stored_as": "str(dtype) if dtype.kind == 'V' else dtype.str (python-blosc2 4.14.1)",
    }
    parts = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in header.items()]
    parts += [
        block("table", table),
        block("numpy_rejects", rejects),
        block("deliberately_rejected", deliberate),
        block("accepted_past_numpy_limits", past),
    ]
    with open(OUTPUT, "w", encoding="utf-8") as f:
        f.write("{\n" + ",\n".join(parts) + "\n}\n")
    print(
        f"{OUTPUT}: {len(table)} readings, {len(rejects)} NumPy rejections, "
        f"{len(deliberate)} deliberate rejections, {len(past)} past NumPy's limits",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
