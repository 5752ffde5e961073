//! Chunks of the c-blosc 1.x line (format version 2), with bitshuffle and byte shuffle,
//! from releases on both sides of its bitshuffle changes (tests/data/chunks/cblosc1.py):
//! every byte C-Blosc2 3.3.5 writes, ours equal; the bytes it leaves unwritten (a
//! version-2 block bitshuffles only whole groups of 8 elements, and 3.3.5 no longer
//! copies the bytes after the last whole element: the destination keeps what it held),
//! ours are the writer's own reading wherever the writer reads its input back (c-blosc
//! 1.12.1 and, for some leftovers, 1.16.3 and 1.17.1 do not: they compressed bytes of a
//! buffer they never wrote, which no reader can recover).

use std::collections::BTreeMap;
use std::path::Path;

/// One chunk of the fixture.
struct C1Chunk {
    label: String,
    bytes: Vec<u8>,
    /// What its own c-blosc decompressed it to.
    writer: Vec<u8>,
    /// C-Blosc2 3.3.5's bytes into a destination of zeros, and of 0xff (empty: refused).
    c_zeros: Vec<u8>,
    c_ones: Vec<u8>,
}

/// The input of `n` bytes the chunks were made of (`data` in cblosc1.py).
fn input(n: usize) -> Vec<u8> {
    (0..n)
        .map(|i| ((i * 7 + i / 13 + (i * i) % 5) & 255) as u8)
        .collect()
}

/// The bytes of every chunk of the fixture.
pub(super) fn chunk_bytes() -> Vec<Vec<u8>> {
    chunks().into_iter().map(|c| c.bytes).collect()
}

fn chunks() -> Vec<C1Chunk> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chunks/cblosc1.bin.zlib");
    let body = miniz_oxide::inflate::decompress_to_vec_zlib(&std::fs::read(path).unwrap()).unwrap();
    let mut b = &body[..];
    let mut take = |n: usize| {
        let (head, rest) = b.split_at(n);
        b = rest;
        head.to_vec()
    };
    assert_eq!(take(8), b"B2C1CHNK");
    let u32_of = |v: Vec<u8>| u32::from_le_bytes(v.try_into().unwrap());
    let count = u32_of(take(4));
    let mut out = Vec::new();
    for _ in 0..count {
        let n = u16::from_le_bytes(take(2).try_into().unwrap()) as usize;
        let label = String::from_utf8(take(n)).unwrap();
        let n = u32_of(take(4)) as usize;
        let bytes = take(n);
        let nbytes = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
        let mut next = || match u32_of(take(4)) {
            u32::MAX => input(nbytes),
            n => take(n as usize),
        };
        let (writer, c_zeros, c_ones) = (next(), next(), next());
        out.push(C1Chunk {
            label,
            bytes,
            writer,
            c_zeros,
            c_ones,
        });
    }
    out
}

#[test]
fn c_blosc_1x_chunks_decode_as_c_3_3_5_and_their_writer() {
    let chunks = chunks();
    // Per release: chunks, those with bytes 3.3.5 leaves unwritten, and those whose
    // writer does not give its input back.
    let mut by_release: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    for c in &chunks {
        let release = c
            .label
            .split(" blosclz")
            .next()
            .unwrap()
            .split(" lz4")
            .next()
            .unwrap();
        let release = release
            .split(" zlib")
            .next()
            .unwrap()
            .split(" zstd")
            .next()
            .unwrap();
        let entry = by_release.entry(release.to_string()).or_default();
        entry.0 += 1;
        assert!(
            !c.c_zeros.is_empty(),
            "{}: C-Blosc2 3.3.5 refuses it",
            c.label
        );
        let ours =
            super::into::decode_both(&c.bytes).unwrap_or_else(|e| panic!("{}: {e}", c.label));
        let mut unwritten = 0;
        for (i, &byte) in ours.iter().enumerate() {
            if c.c_zeros[i] == c.c_ones[i] {
                assert_eq!(byte, c.c_zeros[i], "{}: byte {i}, which C writes", c.label);
            } else {
                unwritten += 1;
                if c.writer == input(ours.len()) {
                    assert_eq!(
                        byte, c.writer[i],
                        "{}: byte {i}, as its writer reads it",
                        c.label
                    );
                }
            }
        }
        entry.1 += usize::from(unwritten > 0);
        entry.2 += usize::from(c.writer != input(ours.len()));
    }
    for (release, (n, unwritten, writer)) in &by_release {
        eprintln!("{release}: {n} chunks, {unwritten} with bytes 3.3.5 leaves unwritten, {writer} the writer does not read back");
    }
    assert!(by_release.len() >= 6, "{by_release:?}");
    assert!(
        by_release.values().any(|v| v.1 > 0),
        "no chunk with unwritten bytes"
    );
}

/// A chunk of the fixture that C-Blosc2 3.3.5 leaves bytes of unwritten, and C's answer
/// into a destination of 0xff bytes.
pub(super) fn with_unwritten_bytes() -> (Vec<u8>, Vec<u8>) {
    let c = chunks()
        .into_iter()
        .find(|c| !c.c_zeros.is_empty() && c.c_zeros != c.c_ones)
        .expect("the fixture has chunks with bytes C leaves unwritten");
    (c.bytes, c.c_ones)
}
