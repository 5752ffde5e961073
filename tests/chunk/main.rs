//! The chunk decoder against C-Blosc2: chunks compressed by the C library (blosc2-src,
//! zstd, lz4 and blosclz compiled in; zlib is not, its chunks come from python-blosc2's
//! fixtures in tests/frame/vlmeta.rs) decode to the bytes given to it; hand-made chunks from the format
//! document decode or fail with their offset; truncations and byte changes never panic.
//! `differential` compares every verdict with C's own `blosc2_decompress` (forked);
//! `differential335` and `rules335` with C-Blosc2 3.3.5's, the reference (python-blosc2
//! 4.14.1's `libblosc2.so`, from `B2ND_LIBBLOSC2_335`); `vlblocks` and `cblosc1` read
//! python-blosc2's variable-length-block chunks and c-blosc 1.x's; `mask` the block
//! mask; `parts` ranges of blocks and chunks read in parts.

mod c335;
mod c_ref;
mod cblosc1;
mod children;
mod differential;
mod differential335;
mod into;
mod lz4_blocks;
mod lz4_ref;
mod mask;
mod parts;
mod python;
mod rules335;
mod vlblocks;
mod zstd_frames;
mod zstd_ref;
mod zstd_refusals;

use b2nd_meta::blosc::{Codec, Filter};
use b2nd_meta::chunk::{self, ChunkErrorKind};
use c_ref::{
    Params, ALWAYS_SPLIT, BITSHUFFLE, BLOSCLZ, DELTA, LZ4, LZ4HC, NEVER_SPLIT, SHUFFLE, ZSTD,
};

/// Compresses `src` with C-Blosc2, one filter in the last slot.
fn c_compress(
    src: &[u8],
    codec: u8,
    clevel: u8,
    typesize: i32,
    filter: u8,
    blocksize: i32,
    split: i32,
) -> Vec<u8> {
    c_ref::compress(
        src,
        &Params::new(codec, clevel, typesize, filter, blocksize, split),
    )
}

/// Bytes that compress somewhat: a msgpack-like ramp with repeats.
fn sample(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).max(1);
    (0..len)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            if i % 7 < 4 {
                (i / 3) as u8
            } else {
                (x % 16) as u8
            }
        })
        .collect()
}

#[test]
fn c_blosc2_chunks_decode_to_their_input() {
    // (len, codec, clevel, typesize, filter, blocksize, split)
    let cases: &[(usize, u8, u8, i32, u8, i32, i32)] = &[
        (0, ZSTD, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (4, ZSTD, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT), // python's small values: memcpyed
        (100, ZSTD, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (8619, ZSTD, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT), // python's list(range(3000))
        (300_000, ZSTD, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (300_000, ZSTD, 9, 1, SHUFFLE, 16384, NEVER_SPLIT),
        (100_000, ZSTD, 5, 4, SHUFFLE, 8192, ALWAYS_SPLIT), // split into 4 streams, unshuffled
        (100_003, ZSTD, 5, 4, SHUFFLE, 8192, NEVER_SPLIT),  // leftover block
        (65_536, ZSTD, 1, 8, SHUFFLE, 0, ALWAYS_SPLIT),
        (65_536, ZSTD, 5, 8, 0, 4096, NEVER_SPLIT),
        (50_000, ZSTD, 0, 1, SHUFFLE, 0, ALWAYS_SPLIT), // clevel 0: memcpyed
        (100, LZ4, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (300_000, LZ4, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (100_003, LZ4, 9, 4, SHUFFLE, 8192, ALWAYS_SPLIT),
        (300_000, LZ4HC, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (100_003, LZ4HC, 9, 8, 0, 16384, NEVER_SPLIT),
        (100, BLOSCLZ, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (8619, BLOSCLZ, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (300_000, BLOSCLZ, 9, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        (300_000, BLOSCLZ, 1, 1, 0, 0, NEVER_SPLIT),
        (100_003, BLOSCLZ, 5, 4, SHUFFLE, 8192, ALWAYS_SPLIT),
        (1_000_000, BLOSCLZ, 9, 1, 0, 262_144, NEVER_SPLIT), // far matches
        (10_001, ZSTD, 5, 1, BITSHUFFLE, 0, ALWAYS_SPLIT),
        (10_002, ZSTD, 5, 2, BITSHUFFLE, 1002, NEVER_SPLIT), // 501 elements a block
        (100_004, LZ4, 5, 4, BITSHUFFLE, 4004, ALWAYS_SPLIT), // 1001 elements a block
        (100_000, BLOSCLZ, 5, 8, BITSHUFFLE, 8008, NEVER_SPLIT), // 1001, leftover block
        (65_536, ZSTD, 5, 8, BITSHUFFLE, 0, ALWAYS_SPLIT),
        (77, LZ4, 5, 4, BITSHUFFLE, 0, ALWAYS_SPLIT), // 19 elements and a byte
        (100_003, ZSTD, 5, 1, DELTA, 8192, ALWAYS_SPLIT),
        (100_004, LZ4, 5, 2, DELTA, 8192, NEVER_SPLIT),
        (100_004, BLOSCLZ, 5, 4, DELTA, 4004, ALWAYS_SPLIT),
        (65_536, ZSTD, 5, 8, DELTA, 0, ALWAYS_SPLIT),
        (30_000, ZSTD, 5, 3, DELTA, 3000, ALWAYS_SPLIT), // width 1
        (48_000, LZ4, 5, 16, DELTA, 4800, NEVER_SPLIT),  // width 8
    ];
    for (i, &(len, codec, clevel, typesize, filter, blocksize, split)) in cases.iter().enumerate() {
        let src = sample(len, i as u32);
        let chunk = c_compress(&src, codec, clevel, typesize, filter, blocksize, split);
        let decoded = chunk::decode(&chunk, &chunk::DecodeBudget::default())
            .unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_eq!(decoded, src, "case {i}");
    }
}

#[test]
fn zeros_and_runs_from_c_decode() {
    // C stores a block of zeros or of one repeated byte as a zero or negative csize.
    for (len, byte) in [(10_000usize, 0u8), (10_000, 7), (131_072, 0xff)] {
        let src = vec![byte; len];
        let chunk = c_compress(&src, ZSTD, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT);
        assert_eq!(
            chunk::decode(&chunk, &chunk::DecodeBudget::default()).unwrap(),
            src,
            "{len} x {byte}"
        );
    }
}

#[test]
fn other_codecs_and_filters_are_named() {
    let src: Vec<u8> = b"abcdefgh".repeat(10_000);
    let mut reserved = c_compress(&src, BLOSCLZ, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT);
    reserved[2] = (reserved[2] & 0x1f) | (2 << 5); // codec format 2: reserved
    let err = chunk::decode(&reserved, &chunk::DecodeBudget::default())
        .map(|v| v.len())
        .unwrap_err();
    assert_eq!(
        err.kind(),
        &ChunkErrorKind::CodecNotDecoded {
            codec: Codec::Reserved(2)
        }
    );
    assert_eq!(err.offset(), Some(2));
    let mut user = c_compress(&src, ZSTD, 5, 4, SHUFFLE, 0, ALWAYS_SPLIT);
    user[21] = 200; // a user-defined filter in the last slot
    let err = chunk::decode(&user, &chunk::DecodeBudget::default())
        .map(|v| v.len())
        .unwrap_err();
    assert_eq!(
        err.kind(),
        &ChunkErrorKind::FilterNotDecoded {
            filter: Filter::Other(200)
        }
    );
    assert_eq!(err.offset(), Some(21));
    // Plugins are named with their id.
    user[21] = 32;
    let err = chunk::decode(&user, &chunk::DecodeBudget::default())
        .map(|v| v.len())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the chunk is filtered with ndcell (filter 32), which is not decoded at byte 21"
    );
    let mut ndlz = c_compress(&src, ZSTD, 5, 4, SHUFFLE, 0, ALWAYS_SPLIT);
    ndlz[2] = (ndlz[2] & 0x1f) | (6 << 5); // a user-defined codec, its id in byte 22
    ndlz[22] = 32;
    let err = chunk::decode(&ndlz, &chunk::DecodeBudget::default())
        .map(|v| v.len())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the chunk is compressed with ndlz (codec 32), which is not decoded at byte 2"
    );
}

#[test]
fn delta_over_ragged_blocks_decodes_as_c() {
    // Blocks with bytes past their last whole element: C leaves those bytes as they are.
    // The bytes expected are C's own decompression (C does not always give back its
    // input: those cases are listed by tests/chunk/differential.rs).
    let src = sample(10_001, 9);
    for typesize in [2, 4, 8, 16] {
        for split in [ALWAYS_SPLIT, NEVER_SPLIT] {
            let chunk = c_compress(&src, ZSTD, 5, typesize, DELTA, 1001, split);
            let c = c_ref::decompress_all(std::slice::from_ref(&chunk));
            assert_eq!(
                c_ref::CVerdict::Ok(
                    chunk::decode(&chunk, &chunk::DecodeBudget::default()).unwrap()
                ),
                c[0],
                "typesize {typesize}"
            );
        }
    }
}

/// An extended header (bytes 0..32), from README_CHUNK_FORMAT.rst.
fn header(
    flags: u8,
    typesize: u8,
    nbytes: i32,
    blocksize: i32,
    cbytes: i32,
    b2flags: u8,
) -> Vec<u8> {
    let mut h = vec![5, 1, flags, typesize];
    h.extend(nbytes.to_le_bytes());
    h.extend(blocksize.to_le_bytes());
    h.extend(cbytes.to_le_bytes());
    h.extend([0, 0, 0, 0, 0, SHUFFLE, 0, 0, 0, 0, 0, 0, 0, 0, 0, b2flags]);
    h
}

#[test]
fn hand_made_chunks() {
    // Special chunks: zeros (1), NaN (2), a repeated value (3), uninit (4).
    assert_eq!(
        chunk::decode(
            &header(0x05, 1, 5, 5, 32, 0x10),
            &chunk::DecodeBudget::default()
        )
        .unwrap(),
        [0; 5]
    );
    assert_eq!(
        chunk::decode(
            &header(0x05, 4, 8, 8, 32, 0x20),
            &chunk::DecodeBudget::default()
        )
        .unwrap(),
        [0, 0, 0xc0, 0x7f, 0, 0, 0xc0, 0x7f]
    );
    let mut value = header(0x05, 2, 6, 6, 34, 0x30);
    value.extend([0xab, 0xcd]);
    assert_eq!(
        chunk::decode(&value, &chunk::DecodeBudget::default()).unwrap(),
        [0xab, 0xcd, 0xab, 0xcd, 0xab, 0xcd]
    );
    assert_eq!(
        chunk::decode(
            &header(0x05, 1, 3, 3, 32, 0x40),
            &chunk::DecodeBudget::default()
        )
        .unwrap(),
        [0; 3]
    );
    // A stored stream (csize == block size) behind bstarts.
    let mut stored = header(0x95, 1, 3, 3, 43, 0);
    stored.extend(36i32.to_le_bytes());
    stored.extend(3i32.to_le_bytes());
    stored.extend([1, 2, 3]);
    assert_eq!(
        chunk::decode(&stored, &chunk::DecodeBudget::default()).unwrap(),
        [1, 2, 3]
    );
    // A run of a byte: csize -9, token 1.
    let mut run = header(0x95, 1, 4, 4, 41, 0);
    run.extend(36i32.to_le_bytes());
    run.extend((-9i32).to_le_bytes());
    run.push(1);
    assert_eq!(
        chunk::decode(&run, &chunk::DecodeBudget::default()).unwrap(),
        [9; 4]
    );
}

#[test]
fn hand_made_errors() {
    // (chunk, offset, message)
    let mut bad_start = header(0x95, 1, 3, 3, 40, 0);
    bad_start.extend(40i32.to_le_bytes());
    bad_start.extend([0; 4]);
    let mut bad_token = header(0x95, 1, 4, 4, 41, 0);
    bad_token.extend(36i32.to_le_bytes());
    bad_token.extend((-9i32).to_le_bytes());
    bad_token.push(2);
    let cases: Vec<(Vec<u8>, u64, &str)> = vec![
        (
            vec![],
            0,
            "the chunk ends at byte 0, 1 byte(s) short of the chunk format version (byte 0)",
        ),
        (
            header(0x05, 0, 1, 1, 32, 0),
            3,
            "expected typesize at least 1, found 0",
        ),
        (
            header(0x05, 1, -1, 1, 32, 0),
            4,
            "expected nbytes from 0 to 2147483615, found -1",
        ),
        (
            header(0x05, 1, 1, 0, 32, 0),
            8,
            "expected blocksize from 1 to 536866816, found 0",
        ),
        (
            header(0x05, 1, 1, 1, 31, 0),
            12,
            "expected cbytes at least 32 (the extended header), found 31",
        ),
        (
            header(0x07, 1, 4, 4, 35, 0),
            12,
            "expected cbytes nbytes + the header's length (a memcpyed chunk), found 35",
        ),
        (
            header(0x07, 1, 4, 4, 36, 0),
            32,
            "the chunk ends at byte 32, 4 byte(s) short of the cbytes the header declares",
        ),
        (
            header(0x05, 1, 4, 4, 32, 0x50),
            31,
            "expected special value (blosc2_flags bits 4..6) from 0 to 4, found 5",
        ),
        (
            header(0x05, 1, 4, 4, 32, 0x08),
            31,
            "the chunk uses a lazy chunk, which is not decoded",
        ),
        (
            header(0x05, 1, 1 << 30, 4, 32, 0x10),
            4,
            "expected at most 67108864 decompressed bytes, found nbytes 1073741824",
        ),
        (
            header(0x95, 1, 3, 3, 32, 0),
            32,
            "the chunk ends at byte 32, 4 byte(s) short of bstarts",
        ),
        (
            bad_start,
            32,
            "expected block 0 to start inside the chunk (bytes 36..40), found 40",
        ),
        (
            bad_token,
            40,
            "expected a run-length token (bit 0 set) after csize -9, found 0x02",
        ),
    ];
    for (bytes, offset, message) in cases {
        let err = chunk::decode(&bytes, &chunk::DecodeBudget::default()).unwrap_err();
        assert_eq!(
            (err.offset(), err.to_string()),
            (Some(offset), format!("{message} at byte {offset}"))
        );
    }
}

#[test]
fn every_truncation_and_byte_change_is_ok_or_err() {
    let src = sample(20_000, 3);
    let chunks = [
        c_compress(&src, ZSTD, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        c_compress(&src[..200], ZSTD, 5, 4, SHUFFLE, 64, ALWAYS_SPLIT),
        c_compress(&src[..40], ZSTD, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        c_compress(&src[..3000], LZ4, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        c_compress(&src[..3000], LZ4HC, 9, 4, BITSHUFFLE, 1000, NEVER_SPLIT),
        c_compress(&src[..3000], BLOSCLZ, 5, 1, SHUFFLE, 0, ALWAYS_SPLIT),
        c_compress(&src[..3000], BLOSCLZ, 9, 2, BITSHUFFLE, 1002, ALWAYS_SPLIT),
        c_compress(&src[..3000], LZ4, 5, 4, DELTA, 1000, ALWAYS_SPLIT),
    ];
    let mut buffer = [0; 4096];
    for chunk in &chunks {
        for len in 0..chunk.len() {
            assert!(
                chunk::decode(&chunk[..len], &chunk::DecodeBudget::default()).is_err(),
                "truncated to {len}"
            );
            assert!(chunk::decode_into(&chunk[..len], &mut [0; 4096]).is_err());
        }
        // Every byte value at every offset of the headers and the first stream bytes.
        for at in 0..chunk.len().min(64) {
            let mut changed = chunk.clone();
            for value in 0..=255u8 {
                changed[at] = value;
                check_mutation(&changed, &mut buffer);
            }
        }
        // A few values at every offset: the streams' control bytes and distances.
        for at in 0..chunk.len() {
            let mut changed = chunk.clone();
            for value in [0, 1, 0x1f, 0x20, 0xe0, 0xff, chunk[at] ^ 0x80] {
                changed[at] = value;
                check_mutation(&changed, &mut buffer);
            }
        }
    }
}

/// A changed chunk decodes within the limit, and `decode_into` a 4 KiB buffer agrees
/// with `decode` whenever it decodes.
fn check_mutation(changed: &[u8], buffer: &mut [u8]) {
    let decoded = chunk::decode(changed, &chunk::DecodeBudget::default());
    if let Ok(out) = &decoded {
        assert!(out.len() <= chunk::DEFAULT_MAX_NBYTES as usize);
    }
    if let Ok(n) = chunk::decode_into(changed, buffer) {
        assert_eq!(Some(&buffer[..n]), decoded.as_deref().ok());
    }
}
