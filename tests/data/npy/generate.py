"""`.npy` files as np.save writes them, for tests/cli/import.rs: the header versions
(1.0; 2.0 for a header over 64 KiB; 3.0 for a field name outside Latin-1), Fortran
order (and the same array in C order), structs with padding, and a pickled object array (refused);
and in headers.json, np.save's headers of larger arrays (dtype, shape, header as hex) whose
values the test makes itself. Run from this
directory with python-blosc2 4.14.1's interpreter (numpy 2.4.6):

    /work/venvs/blosc2-4.14.1/bin/python generate.py
"""

import io
import json

import numpy as np

FILES = {
    "v1_f8.npy": np.arange(60, dtype="<f8").reshape(6, 10) / 3,
    "v2_long_header.npy": np.zeros(2, dtype=[(f"field_{i:05d}", "<i2") for i in range(3000)]),
    "v3_utf8_name.npy": np.ones(4, dtype=[("Δt", "<f4")]),
    "fortran_i4.npy": np.asfortranarray(np.arange(60, dtype="<i4").reshape(3, 4, 5)),
    # The same array in C order: what exporting the import of fortran_i4.npy gives.
    "fortran_i4_as_c.npy": np.arange(60, dtype="<i4").reshape(3, 4, 5),
    "padded_struct.npy": np.zeros(5, dtype=np.dtype({"names": ["a", "b"], "formats": ["u1", "<f8"],
                                                     "offsets": [2, 8], "itemsize": 24})),
    "aligned_struct.npy": np.ones(3, dtype=np.dtype([("a", "u1"), ("b", "<i8")], align=True)),
    "big_endian.npy": np.arange(7, dtype=">u4"),
    "scalar.npy": np.array(2.5, dtype="<f4"),
    "empty.npy": np.zeros((0, 4), dtype="<i8"),
    "bool.npy": np.arange(11) % 3 == 0,
    "pickled.npy": np.array([1, "a", None], dtype=object),
}

for name, array in FILES.items():
    np.save(name, array, allow_pickle=True)

# Larger arrays, several chunks each: only np.save's header is recorded.
LARGER = [
    ("<f8", (1000, 301)),
    ("<i4", (250000,)),
    ("<u2", (7, 130, 257)),
    ("|S7", (40000,)),
    (">f4", (300, 3, 333)),
    ("<c16", (2, 3, 4, 5, 6, 7)),
    ("|b1", (123457,)),
]
headers = []
for dtype, shape in LARGER:
    saved = io.BytesIO()
    np.save(saved, np.zeros(shape, dtype=dtype))
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    header = saved.getvalue()[: len(saved.getvalue()) - nbytes]
    headers.append({"dtype": dtype, "shape": list(shape), "header": header.hex()})
with open("headers.json", "w") as f:
    json.dump(headers, f, indent=1)
    f.write("\n")
