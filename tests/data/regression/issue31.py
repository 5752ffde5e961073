#!/usr/bin/env python3
"""The hostile files of issue 31 (tests/regression/issue_31/), written by C-Blosc2 3.3.5
through python-blosc2 4.14.1, with the chunks C does not make itself assembled by hand.

Usage (from the repository root), with python-blosc2 4.14.1 (C-Blosc2 3.3.5):

    /work/venvs/blosc2-4.14.1/bin/python tests/data/regression/issue31.py

It rewrites tests/data/regression/issue31/ and checks, with C-Blosc2 itself, that each
file reads as the comment above its function says. The same versions give the same
bytes on every run (one thread; no random data).

- vlmeta_64_bins.b2nd (136 KB): an array with 64 vlmeta entries, each a 2.1 KB LZ4
  chunk (256 KiB blocks of zeros) that decodes to a valid 64 MiB msgpack bin; python
  reads each one. (C adds at most 16 vlmetalayers and reads up to 8,192: the trailer
  is assembled here, by a writer checked against C's own.)
- vlmeta_512_special.b2nd (25 KB): 512 vlmeta entries, each a 33-byte special-value
  chunk (C's own, from `fill_special`) declaring 64 MiB of one byte.
- embed_huge_chunksize.b2e (under 500 bytes): an EmbedStore whose chunksize and only
  chunk say 1.75 GiB (seven blocks of zeros, csize 0), one node in it.
- embed_alternating.b2e (about 90 KB): an EmbedStore of two 32 MiB chunks and 100,000
  keys whose nodes alternate between them (none of them a frame: each is an error).
- embed_1gib_chunks.b2e (under 2 KB): an EmbedStore of two 1 GiB chunks (zero blocks),
  eight nodes spread over both.
- keys_control.b2z: a TreeStore whose zip member names and embed map keys hold ESC,
  BEL, NUL and newlines (python-blosc2 refuses some of them as keys; a file can hold
  them anyway).
- double_meta.b2nd: an array with a user metalayer "x" holding the double 0.5, for
  set-meta with other doubles of the same length.
"""

import io
import os
import shutil
import struct
import sys
import tempfile
import zipfile

import numpy as np

import blosc2
import blosc2.blosc2_ext as ext
from blosc2.msgpack_utils import msgpack_packb, msgpack_unpackb

assert blosc2.__version__ == "4.14.1", blosc2.__version__
blosc2.set_nthreads(1)
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "issue31")
MiB = 1 << 20
# C-Blosc2's BLOSC2_MAXBLOCKSIZE.
MAX_BLOCKSIZE = 536866816


def path(name):
    return os.path.join(HERE, name)


def zero_block_chunk(nbytes, blocksize):
    """A chunk of `nbytes` zeros in blocks of `blocksize`, each a single stream whose
    csize is 0 (C's "zeros" stream, which blosc_d fills with memset): 32 + 8 bytes per
    block. The header is C's own for an LZ4 chunk without filters, split never; only
    nbytes, blocksize and cbytes change."""
    ref = blosc2.compress2(b"\0" * 4 + b"\1" + b"\0" * 8187, typesize=1, clevel=5,
                           codec=blosc2.Codec.LZ4, blocksize=8192,
                           splitmode=blosc2.SplitMode.NEVER_SPLIT,
                           filters=[blosc2.Filter.NOFILTER])
    n = -(-nbytes // blocksize)
    header = bytearray(ref[:32])
    struct.pack_into("<iii", header, 4, nbytes, blocksize, 32 + 8 * n)
    bstarts = b"".join(struct.pack("<i", 32 + 4 * n + 4 * i) for i in range(n))
    chunk = bytes(header) + bstarts + b"\0" * (4 * n)
    # C decodes the same layout, at a size python can hold.
    small = zero_block_chunk_small(header, 3 * 4096 + 5, 4096)
    assert blosc2.decompress2(small) == b"\0" * (3 * 4096 + 5)
    return chunk


def zero_block_chunk_small(header, nbytes, blocksize):
    n = -(-nbytes // blocksize)
    h = bytearray(header)
    struct.pack_into("<iii", h, 4, nbytes, blocksize, 32 + 8 * n)
    bstarts = b"".join(struct.pack("<i", 32 + 4 * n + 4 * i) for i in range(n))
    return bytes(h) + bstarts + b"\0" * (4 * n)


def trailer_bytes(entries):
    """The trailer C-Blosc2's frame_update_trailer writes for `entries` (name, stored
    chunk): fixarray 4, version 1, fixarray 3 (uint16 index size, map16 name -> int32
    offset, array16 of bin32 contents), uint32 trailer length, fixext 16 of type 0.
    C refuses to add a 17th vlmetalayer, but reads up to 8,192: files with more are
    assembled here, with this function checked against C's own 16-entry trailer."""
    index = b"".join(bytes([0xA0 + len(n)]) + n.encode() + b"\xd2" + b"\0" * 4 for n, _ in entries)
    idx_size = 6 + len(index)
    out = bytearray(b"\x94\x01\x93\xcd" + struct.pack(">H", idx_size) + b"\xde"
                    + struct.pack(">H", len(entries)))
    offset = 3 + idx_size + 3
    for name, content in entries:
        out += bytes([0xA0 + len(name)]) + name.encode() + b"\xd2" + struct.pack(">i", offset)
        offset += 5 + len(content)
    out += b"\xdc" + struct.pack(">H", len(entries))
    for _, content in entries:
        out += b"\xc6" + struct.pack(">i", len(content)) + content
    out += b"\xce" + struct.pack(">I", offset + 23) + b"\xd8\x00" + b"\0" * 16
    return bytes(out)


def frame_trailer(data):
    """(where the trailer starts, its length) in a contiguous frame file's bytes."""
    (frame_len,) = struct.unpack(">Q", data[16:24])
    assert data[frame_len - 23] == 0xCE
    (tlen,) = struct.unpack(">I", data[frame_len - 22 : frame_len - 18])
    return frame_len - tlen, tlen


def with_vlmeta(path, entries):
    """The frame at `path` with its trailer replaced by one holding `entries`, and the
    header's frame_len (bytes 16-23) set to the new length."""
    data = bytearray(open(path, "rb").read())
    start, _ = frame_trailer(data)
    frame = data[:start] + trailer_bytes(entries)
    frame[16:24] = struct.pack(">Q", len(frame))
    open(path, "wb").write(frame)


def c_vlmeta(path):
    """The vlmetalayers C wrote in the frame at `path`: (name, stored chunk), in order,
    read from its trailer, which trailer_bytes must give back exactly."""
    data = open(path, "rb").read()
    start, tlen = frame_trailer(data)
    trailer = data[start : start + tlen]
    (n,) = struct.unpack(">H", trailer[7:9])
    at, names = 9, []
    for _ in range(n):
        ln = trailer[at] - 0xA0
        names.append(trailer[at + 1 : at + 1 + ln].decode())
        at += 1 + ln + 5
    at += 3
    entries = []
    for name in names:
        (ln,) = struct.unpack(">i", trailer[at + 1 : at + 5])
        entries.append((name, trailer[at + 5 : at + 5 + ln]))
        at += 5 + ln
    assert trailer_bytes(entries) == trailer, "the trailer writer differs from C's"
    return entries


def vlmeta_64_bins():
    """64 entries, each python's msgpack of 64 MiB - 5 zero bytes (a bin32 of exactly
    64 MiB, the decoder's largest chunk) compressed by C with LZ4 in 256 KiB blocks
    (C writes 16; the 64 are its 16 chunks four times)."""
    p = path("vlmeta_64_bins.b2nd")
    a = blosc2.zeros((10,), dtype="u1", urlpath=p, mode="w")
    packed = msgpack_packb(bytes(64 * MiB - 5))
    assert len(packed) == 64 * MiB
    for i in range(16):
        ext.vlmeta.set_vlmeta(a.schunk.vlmeta, f"v{i:02}", packed, typesize=1,
                              codec=blosc2.Codec.LZ4, clevel=5, blocksize=256 * 1024,
                              nthreads=1)
    del a
    chunks = [chunk for _, chunk in c_vlmeta(p)]
    with_vlmeta(p, [(f"v{i:02}", chunks[i % 16]) for i in range(64)])
    a = blosc2.open(p)
    assert len(a.vlmeta.keys()) == 64
    assert a.vlmeta["v63"] == bytes(64 * MiB - 5)


def vlmeta_512_special():
    """512 entries, each C's own 33-byte special-value chunk of 64 MiB of zeros
    (`fill_special(VALUE)`): C decodes it to 64 MiB; as msgpack it is 0 followed by
    64 MiB - 1 bytes python refuses as extra data."""
    s = blosc2.SChunk(chunksize=64 * MiB, cparams={"typesize": 1, "nthreads": 1})
    s.fill_special(64 * MiB, blosc2.SpecialValue.VALUE, value=np.uint8(0))
    special = s.get_chunk(0)
    assert len(special) == 33 and special[31] == 0x30, special.hex()
    p = path("vlmeta_512_special.b2nd")
    a = blosc2.zeros((10,), dtype="u1", urlpath=p, mode="w")
    a.vlmeta["s000"] = 0
    del a
    c_vlmeta(p)
    with_vlmeta(p, [(f"s{i:03}", special) for i in range(512)])
    a = blosc2.open(p)
    assert len(a.schunk.vlmeta.keys()) == 512
    assert a.schunk.vlmeta.get_vlmeta("s511") == bytes(64 * MiB)
    try:
        a.vlmeta["s000"]
        raise AssertionError("python read 64 MiB of zeros as one msgpack value")
    except Exception as e:  # msgpack's ExtraData
        assert "extra" in type(e).__name__.lower() or "extra" in str(e).lower(), repr(e)


def embed(name, chunksize, chunks, embed_map, current_offset):
    """An EmbedStore (meta b2embed) whose data is `chunks` (raw chunks appended as
    they are) and whose vlmeta estore_metadata is the map given, as python writes it."""
    p = path(name)
    s = blosc2.SChunk(chunksize=chunksize, cparams={"typesize": 1, "nthreads": 1},
                      urlpath=p, mode="w", meta={"b2embed": {"version": 1}})
    for chunk in chunks:
        s.append_chunk(chunk)
    s.vlmeta["estore_metadata"] = {"embed_map": embed_map, "current_offset": current_offset}
    del s
    return p


def embed_huge_chunksize():
    """One chunk of 1.75 GiB of zeros (C's largest blocks), one node at its start."""
    nbytes = 0x70000000
    p = embed("embed_huge_chunksize.b2e", nbytes, [zero_block_chunk(nbytes, MAX_BLOCKSIZE)],
              {"/a": {"offset": 0, "length": 4096}}, 4096)
    s = blosc2.open(p)._store
    assert (s.nbytes, s.chunksize) == (nbytes, nbytes)
    assert os.path.getsize(p) < 500, os.path.getsize(p)


def embed_alternating():
    """Two 32 MiB chunks C compressed (a counting pattern in the first 4 KiB, zeros
    after it), 100,000 nodes of 1,000 bytes alternating between the start of one and of
    the other."""
    size = 32 * MiB
    chunks = []
    for k in range(2):
        data = bytearray(size)
        for i in range(0, 4096, 8):
            data[i : i + 8] = struct.pack("<Q", i + k)
        chunks.append(blosc2.compress2(bytes(data), typesize=1, clevel=5,
                                       codec=blosc2.Codec.LZ4, nthreads=1))
    embed_map = {f"/n{i:06}": {"offset": (i % 2) * size, "length": 1000} for i in range(100_000)}
    p = embed("embed_alternating.b2e", size, chunks, embed_map, 2 * size)
    s = blosc2.open(p)._store
    assert s.nchunks == 2 and len(msgpack_unpackb(s.vlmeta.get_vlmeta("estore_metadata"))["embed_map"]) == 100_000


def embed_1gib_chunks():
    """Two chunks of 1 GiB of zeros, eight nodes of 4 KiB, four in each."""
    gib = 1 << 30
    chunk = zero_block_chunk(gib, MAX_BLOCKSIZE)
    embed_map = {f"/n{i}": {"offset": (i % 2) * gib + (i // 2) * 4096, "length": 4096}
                 for i in range(8)}
    p = embed("embed_1gib_chunks.b2e", gib, [chunk, chunk], embed_map, 2 * gib)
    assert os.path.getsize(p) < 2048, os.path.getsize(p)


# A key and member name for each control character the terminal would act on: ESC
# (clear the screen, set the title), BEL, a newline that fakes an output line, NUL
# (patched into the zip afterwards: python's zipfile cuts names at NUL).
CONTROL_NAMES = ["\x1b[2J\x1b]0;title\x07clear", "bell\x07", "fake\nb2nd-meta: line", "nul#byte"]


def keys_control():
    """A TreeStore: two embedded leaves and one external leaf per control name; the
    embed map keys and the member names are then given the control characters."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.b2z")
        ts = blosc2.TreeStore(src, mode="w", threshold=1000)
        ts["/emb/a"] = np.arange(3, dtype="i4")
        ts["/emb/b"] = np.arange(4, dtype="i2")
        ts["/ext/c"] = np.arange(2000, dtype="i8")
        ts.close()
        with zipfile.ZipFile(src) as z:
            members = {i.filename: z.read(i) for i in z.infolist()}
        # The embed map's keys, rewritten in the embed store's own vlmeta.
        e = os.path.join(tmp, "embed.b2e")
        open(e, "wb").write(members.pop("embed.b2e"))
        s = ext.open(e, mode="a", offset=0, mmap_mode=None, locking=False)
        meta = msgpack_unpackb(s.vlmeta.get_vlmeta("estore_metadata"))
        old = meta["embed_map"]
        names = {"/emb/a": "/emb/" + CONTROL_NAMES[0], "/emb/b": "/" + CONTROL_NAMES[1] + "/b"}
        meta["embed_map"] = {names.get(k, k): v for k, v in old.items()}
        s.vlmeta["estore_metadata"] = meta
        del s
        embed_bytes = open(e, "rb").read()
    out = path("keys_control.b2z")
    ext_leaf = next(v for k, v in members.items() if k.endswith(".b2nd"))
    buf = io.BytesIO()
    # A fixed date: the same bytes on every run.
    stored = lambda name: zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0))
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr(stored("embed.b2e"), embed_bytes)
        for name in CONTROL_NAMES[2:]:
            z.writestr(stored(f"ext/{name}.b2nd"), ext_leaf)
    data = buf.getvalue()
    # NUL in both of the name's copies (local header and central directory).
    assert data.count(b"nul#byte") == 2
    data = data.replace(b"nul#byte", b"nul\0byte")
    open(out, "wb").write(data)
    with zipfile.ZipFile(out) as z:
        assert len(z.namelist()) == 3


def double_meta():
    """`meta={"x": 0.5}`: a 9-byte float64 content, rewritable with any other double."""
    p = path("double_meta.b2nd")
    blosc2.zeros((2,), dtype="f8", urlpath=p, mode="w", meta={"x": 0.5})
    a = blosc2.open(p)
    assert a.schunk.meta["x"] == 0.5


if __name__ == "__main__":
    shutil.rmtree(HERE, ignore_errors=True)
    os.makedirs(HERE)
    for make in (vlmeta_64_bins, vlmeta_512_special, embed_huge_chunksize, embed_alternating,
                 embed_1gib_chunks, keys_control, double_meta):
        make()
        print(make.__name__, "ok", file=sys.stderr)
    for name in sorted(os.listdir(HERE)):
        print(f"{os.path.getsize(path(name)):>9} {name}", file=sys.stderr)
