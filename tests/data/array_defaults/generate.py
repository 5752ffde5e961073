"""python-blosc2's own chunk and block choices (`blosc2.compute_chunks_blocks`) for new
arrays, with the machine's cache sizes it used, as tests/array_write/defaults.rs reads
them. Run with python-blosc2 4.14.1's interpreter from this directory:

    /work/venvs/blosc2-4.14.1/bin/python generate.py > defaults.json
"""

import json
import platform

import blosc2
import numpy as np

SHAPES = [
    (10,), (1000,), (1_000_003,), (10_000_000,), (100_000_000,),
    (1000, 1000), (3, 5), (7919, 13), (4096, 4096), (100_000, 3), (3, 100_000),
    (50, 60, 70), (1, 1, 1), (2, 3, 5, 7), (100, 100, 100, 10), (8,) * 8,
    (0,), (10, 0), (0, 0, 3),
]
DTYPES = ["u1", "<i2", "<i4", "<f8", "<c16", "S3", "S300"]
GIVEN = [
    # (shape, dtype, chunks, blocks)
    ((1000, 1000), "<f8", (100, 100), None),
    ((1000, 1000), "<f8", None, (10, 10)),
    ((1000, 1000), "<f8", (100, 100), (10, 10)),
    ((1000, 1000), "<f8", (100, 100), (200, 10)),
    ((1000, 1000), "<f8", (100,), None),
    ((1000, 1000), "<f8", None, (0, 10)),
    ((1000,), "<f8", (1000,), (1000,)),
    ((10, 0), "<i4", (5, 0), None),
]


def case(shape, dtype, chunks=None, blocks=None):
    entry = {"shape": list(shape), "itemsize": np.dtype(dtype).itemsize,
             "chunks_given": list(chunks) if chunks is not None else None,
             "blocks_given": list(blocks) if blocks is not None else None}
    try:
        c, b = blosc2.compute_chunks_blocks(shape, chunks, blocks, dtype=np.dtype(dtype))
        entry["chunks"] = [int(x) for x in c]
        entry["blocks"] = [int(x) for x in b]
    except ValueError as e:
        entry["error"] = str(e)
    return entry


cases = [case(s, d) for s in SHAPES for d in DTYPES]
cases += [case(s, d, c, b) for s, d, c, b in GIVEN]
info = blosc2.cpu_info
print(json.dumps({
    "python_blosc2": blosc2.__version__,
    "machine": platform.machine(),
    "system": platform.system(),
    "l1_data_cache_size": info.get("l1_data_cache_size"),
    "l2_cache_size": info.get("l2_cache_size"),
    "l3_cache_size": info.get("l3_cache_size"),
    "cases": cases,
}, indent=1))
