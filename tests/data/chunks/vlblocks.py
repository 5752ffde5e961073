"""Chunks of variable-length blocks (C-Blosc2 3.x VL-blocks), made by python-blosc2 4.14.1
(C-Blosc2 3.3.5): its BatchArray's chunks, and `blosc2_ext.vlcompress` (what BatchArray
calls) for every codec x filter pipeline x typesize x block set, with dictionaries.
Each is stored with what C-Blosc2 3.3.5 decompresses it to (`blosc2.decompress`, i.e.
`blosc2_decompress`: the blocks one after the other), or as refused.

Run with the venv of python-blosc2 4.14.1, from the repository root:

    /work/venvs/blosc2-4.14.1/bin/python tests/data/chunks/vlblocks.py

Writes tests/data/chunks/vlblocks.bin.zlib: b"B2VLCHNK", a u32 count, then per chunk
(little-endian): u16 label length, label (UTF-8), u32 chunk length, chunk, u8 1 and a
u32 length and C's bytes (or u8 0 when C refuses it).
"""

import pathlib
import random
import struct
import zlib

import blosc2

OUT = pathlib.Path(__file__).with_name("vlblocks.bin.zlib")
assert blosc2.__version__ == "4.14.1", blosc2.__version__

F = blosc2.Filter
CODECS = [blosc2.Codec.BLOSCLZ, blosc2.Codec.LZ4, blosc2.Codec.LZ4HC, blosc2.Codec.ZLIB, blosc2.Codec.ZSTD]
PIPELINES = [
    ([], []),
    ([F.SHUFFLE], [0]),
    ([F.BITSHUFFLE], [0]),
    ([F.DELTA], [0]),
    ([F.DELTA, F.SHUFFLE], [0, 0]),
    ([F.SHUFFLE, F.BYTEDELTA], [0, 0]),
    ([F.TRUNC_PREC, F.SHUFFLE], [10, 0]),
]


def block_sets():
    rng = random.Random(31)
    text = b"the quick brown fox jumps over the lazy dog " * 20
    ramp = b"".join(struct.pack("<i", i * 3) for i in range(400))
    return {
        # Blocks shorter and longer than the first: delta reads past the first block.
        "text, growing": [text[:40], text[:301], text[:700]],
        "ramp, shrinking": [ramp[:1600], ramp[:600], ramp[:64]],
        "ragged lengths": [ramp[:17], ramp[100:333], bytes(5), ramp[7:1207]],
        "incompressible": [bytes(rng.getrandbits(8) for _ in range(n)) for n in (300, 77, 600)],
        "one-byte blocks": [b"a", b"b", b"\x00", b"\xff"],
        "one block": [ramp],
        "runs": [bytes(1000), b"\x07" * 599, text[:300]],
    }


def records():
    out = []
    for codec in CODECS:
        for filters, metas in PIPELINES:
            for typesize in (1, 2, 4, 8) if filters else (1,):
                for name, blocks in block_sets().items():
                    for clevel in (1, 9) if name == "ramp, shrinking" else (5,):
                        label = (
                            f"vlcompress {codec.name} clevel {clevel} typesize {typesize} "
                            f"filters {[f.name for f in filters]} {metas}: {name}"
                        )
                        try:
                            chunk = blosc2.blosc2_ext.vlcompress(
                                blocks, codec=codec, clevel=clevel, typesize=typesize,
                                filters=filters, filters_meta=metas,
                            )
                        except Exception as e:  # noqa: BLE001 - C refusing parameters
                            print("C refuses to compress", label, e)
                            continue
                        out.append((label, bytes(chunk)))
    for codec in (blosc2.Codec.ZSTD, blosc2.Codec.LZ4, blosc2.Codec.LZ4HC):
        for name, blocks in block_sets().items():
            label = f"vlcompress {codec.name} dictionary: {name}"
            chunk = blosc2.blosc2_ext.vlcompress(blocks * 3, codec=codec, use_dict=True, typesize=1)
            out.append((label, bytes(chunk)))
    batches = blosc2.BatchArray()
    batches.append([1, 2, 3, "abc", {"x": 1.5}])
    batches.append(list(range(1000)))
    batches.append([{"name": f"item {i}", "values": list(range(i % 13))} for i in range(300)])
    for i in range(batches.schunk.nchunks):
        out.append((f"BatchArray chunk {i}", bytes(batches.schunk.get_chunk(i))))
    return out


def main():
    body = bytearray(b"B2VLCHNK")
    recs = records()
    body += struct.pack("<I", len(recs))
    for label, chunk in recs:
        assert chunk[0] == 6 and chunk[30] & 1, label
        raw = label.encode()
        body += struct.pack("<H", len(raw)) + raw
        body += struct.pack("<I", len(chunk)) + chunk
        try:
            decoded = blosc2.decompress(chunk)
        except Exception:  # noqa: BLE001 - C refusing the chunk is a verdict
            body += b"\x00"
        else:
            body += b"\x01" + struct.pack("<I", len(decoded)) + decoded
    OUT.write_bytes(zlib.compress(bytes(body), 9))
    print(f"{len(recs)} chunks, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
