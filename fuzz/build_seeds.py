#!/usr/bin/env python3
"""Write the seed corpora of the fuzz targets into fuzz/corpus/<target>/.

Every seed comes from the committed real files: the metalayer contents C-Blosc2
returned for tests/data/corpus (tests/data/manifest.json), the header files of that
corpus and of tests/data/frame, and the dtype strings and array shapes the manifest
records, and the chunks python-blosc2 and c-blosc 1.x wrote for tests/data/chunks. Standard library only; run from anywhere:

    python3 fuzz/build_seeds.py

The corpora are not committed (fuzz/corpus is in .gitignore): this script makes them
again, and re-running it only adds files (names are content hashes).
"""

import hashlib
import json
import os
import pathlib
import struct
import zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
OUT = ROOT / "fuzz" / "corpus"


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def meta_json(layout, shape, chunks, blocks, dtype, with_layout=True):
    obj = {}
    if with_layout:
        obj["layout"] = layout
    obj.update(version=0, ndim=len(shape), shape=shape, chunkshape=chunks, blockshape=blocks)
    if layout == "b2nd-v1":
        obj["dtype_format"] = 0
    if layout != "caterva-v0":
        obj["dtype"] = dtype
    return json.dumps(obj, separators=(",", ":"))


def main():
    manifest = json.loads((DATA / "manifest.json").read_text())
    counts = {}

    # metalayer_decode: every real content, and the caterva/draft forms of each b2nd one.
    raws = set()
    for f in manifest["files"]:
        for layer in f["metalayers"]:
            raw = bytes.fromhex(layer["raw_hex"])
            raws.add(raw)
            if layer["name"] == "b2nd":
                common = 6 + 19 * raw[2]
                raws.add(b"\x95" + raw[1:common])
                raws.add(b"\x96" + raw[1:common] + raw[common + 1 :])
    for line in (ROOT / "examples" / "metalayers.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            raws.add(bytes.fromhex(line.split()[1]))
    for raw in raws:
        write("metalayer_decode", raw)
    counts["metalayer_decode"] = len(raws)

    # frame_header: every real header file, whole (bytes past header_len included).
    headers = {DATA / f["header_path"] for f in manifest["files"]}
    headers |= {
        DATA / "frame" / "contiguous.b2nd",
        DATA / "frame" / "sparse.b2nd" / "chunks.b2frame",
        DATA / "frame" / "usermeta.b2nd",
    }
    for path in headers:
        write("frame_header", path.read_bytes())
    counts["frame_header"] = len(headers)

    # dtype_parse: every dtype string stored in the corpus, and the other spellings
    # the parser documents (NumPy names, dict and subarray forms, quoted strings).
    dtypes = {f["dtype_stored"] for f in manifest["files"] if f.get("dtype_stored")}
    dtypes |= {
        "int32", "uint8", "float64", "complex256", "bool", "object", "str", "bytes",
        "void", "datetime64[ns]", "timedelta64", "?", "b", "D", "=f8", "<m8[10ms]",
        "M8", "|O", "a5", "'<i4'", "('<i4', (2, 3))",
        "[(('title', 'a'), '<i4', (2,)), ('b', [('c', 'u1')])]",
        "{'names': ['a'], 'formats': ['<i4'], 'titles': ['t'], 'aligned': True}",
    }
    for s in dtypes:
        write("dtype_parse", s)
    counts["dtype_parse"] = len(dtypes)

    # json_to_bytes: every b2nd array of the corpus as JSON, in each layout, with and
    # without the "layout" field.
    jsons = set()
    for f in manifest["files"]:
        if not f.get("is_ndarray"):
            continue
        args = (f["shape"], f["chunks"], f["blocks"], f["dtype_stored"])
        for layout in ("b2nd-v1", "b2nd", "caterva-v0"):
            jsons.add(meta_json(layout, *args))
        jsons.add(meta_json("b2nd-v1", *args, with_layout=False))
    for s in jsons:
        write("json_to_bytes", s)
    counts["json_to_bytes"] = len(jsons)

    # chunk (and vlmeta, which decodes its input as a chunk too): every chunk
    # python-blosc2 wrote for tests/data/chunks (every codec, filter pipeline, typesize,
    # clevel and dictionary python accepts), from the fixtures' layout.
    n = 0
    for packed in sorted((DATA / "chunks").glob("blosc2-*.bin.zlib")):
        body = zlib.decompress(packed.read_bytes())
        assert body[:8] == b"B2CHUNKS"
        (count,) = struct.unpack_from("<I", body, 8)
        at = 12
        for _ in range(count):
            at += 16
            (length,) = struct.unpack_from("<I", body, at)
            chunk = body[at + 4:at + 4 + length]
            at += 4 + length
            outcome = body[at]
            at += 1
            if outcome == 1:
                (out_len,) = struct.unpack_from("<I", body, at)
                at += 4 + out_len
            write("chunk", chunk)
            write("vlmeta", chunk)
            n += 1
    # Chunks of variable-length blocks (vlblocks.py) and of c-blosc 1.x (cblosc1.py):
    # a u16 label length and label, then length-prefixed byte strings, the chunk first
    # (a length of 0xffffffff stands for the chunk's input, not stored).
    for name, magic, strings in (("vlblocks", b"B2VLCHNK", None), ("cblosc1", b"B2C1CHNK", 4)):
        body = zlib.decompress((DATA / "chunks" / f"{name}.bin.zlib").read_bytes())
        assert body[:8] == magic
        (count,) = struct.unpack_from("<I", body, 8)
        at = 12
        for _ in range(count):
            (label_len,) = struct.unpack_from("<H", body, at)
            at += 2 + label_len
            (length,) = struct.unpack_from("<I", body, at)
            chunk = body[at + 4:at + 4 + length]
            at += 4 + length
            if strings is None:  # vlblocks: an outcome byte, then C's bytes
                at += 1
                if body[at - 1] == 1:
                    (out_len,) = struct.unpack_from("<I", body, at)
                    at += 4 + out_len
            else:
                for _ in range(strings - 1):
                    (out_len,) = struct.unpack_from("<I", body, at)
                    at += 4 + (0 if out_len == 0xFFFFFFFF else out_len)
            write("chunk", chunk)
            n += 1
    counts["chunk"] = n

    # containers and vlmeta_frame: a mode byte picking the real (or issue 31's hostile)
    # store or frame the patches that follow apply to; each base unpatched.
    for target, modes in (("containers", 7), ("vlmeta_frame", 4)):
        for mode in range(modes):
            write(target, bytes([mode]))
        counts[target] = modes

    for target, n in counts.items():
        print(f"{OUT / target}: {n} seeds")


if __name__ == "__main__":
    main()
