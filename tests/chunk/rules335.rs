//! C-Blosc2 3.3.5's rules on chunk headers and special chunks (`read_chunk_header`,
//! `initialize_context_decompression`, `blosc_d`, `set_values`, `set_nans` in
//! `blosc/blosc2.c`), one case a line. The expected verdicts are C's: when the library is
//! here (`B2ND_LIBBLOSC2_335`, tests/chunk/c335.rs) each case is asked of it too.

use b2nd_meta::chunk;

use super::c335::{self, CVerdict};
use super::differential335::special;

/// What a case gives: the decoded bytes, or a refusal at this offset whose message
/// starts so.
enum Want {
    Bytes(Vec<u8>),
    Refused(u64, &'static str),
}
use Want::{Bytes, Refused};

/// Extended-header flags: shuffle and bitshuffle both set.
const EXT: u8 = 0x05;
/// `blosc2_flags` (byte 31) bits.
const ZERO: u8 = 1;
const NAN: u8 = 2;
const VALUE: u8 = 3;
const UNINIT: u8 = 4;

/// `chunk` with byte `at` set to `value`.
fn with(mut chunk: Vec<u8>, at: usize, value: u8) -> Vec<u8> {
    chunk[at] = value;
    chunk
}

/// A chunk of 6 bytes stored as they are (csize 6), shuffled then bytedelta'd with
/// `meta`: streams 1 1 1 | 5 2 2 undo to 1 2 3 | 5 7 9, unshuffled to 1 5 2 7 3 9.
fn bytedelta(meta: u8) -> Vec<u8> {
    let mut chunk = special(5, 0x15, 2, 6, 6, 0, &[]);
    chunk[12] = 46; // cbytes: header, one bstart, csize, 6 bytes
    chunk[16..22].copy_from_slice(&[1, 35, 0, 0, 0, 0]);
    chunk[25] = meta;
    chunk.extend(36i32.to_le_bytes());
    chunk.extend(6i32.to_le_bytes());
    chunk.extend([1, 1, 1, 5, 2, 2]);
    chunk
}

fn nans32(n: usize) -> Vec<u8> {
    [0, 0, 0xc0, 0x7f].repeat(n)
}

#[rustfmt::skip]
fn cases() -> Vec<(&'static str, Vec<u8>, Want)> {
    vec![
        // Versions: any byte, unless a newer one's blosc2_flags2 has unknown features.
        ("version 7 read as 6", special(7, EXT, 1, 4, 4, ZERO, &[]), Bytes(vec![0; 4])),
        ("version 255 read as 6", special(255, EXT, 1, 4, 4, ZERO, &[]), Bytes(vec![0; 4])),
        ("version 0", special(0, EXT, 1, 4, 4, ZERO, &[]), Bytes(vec![0; 4])),
        ("version 7, flags2 bit 1", with(special(7, EXT, 1, 4, 4, ZERO, &[]), 30, 2), Refused(0, "expected a chunk format version at most 6")),
        ("version 6, flags2 bit 1 ignored", with(special(6, EXT, 1, 4, 4, ZERO, &[]), 30, 2), Bytes(vec![0; 4])),
        // A repeated value's width is cbytes - 32, not typesize.
        ("value wider than typesize", special(5, EXT, 1, 6, 6, VALUE, &[1, 2]), Bytes(vec![1, 2, 1, 2, 1, 2])),
        ("value narrower than typesize", special(5, EXT, 4, 8, 8, VALUE, &[7]), Bytes(vec![7; 8])),
        ("value of width 4, typesize 3", special(5, EXT, 3, 12, 4, VALUE, &[1, 2, 3, 4]), Bytes([1, 2, 3, 4].repeat(3))),
        ("value without bytes", special(5, EXT, 1, 4, 4, VALUE, &[]), Refused(12, "expected cbytes 32 + the width")),
        ("value, nbytes 0", special(5, EXT, 1, 0, 4, VALUE, &[9]), Refused(12, "expected cbytes 32 + the width")),
        ("value not dividing nbytes", special(5, EXT, 1, 12, 12, VALUE, &[1, 2, 3, 4, 5]), Refused(12, "expected cbytes 32 + the width")),
        ("value split by a block", special(5, EXT, 1, 12, 8, VALUE, &[1, 2, 3]), Refused(8, "expected blocksize a multiple of the special value's width")),
        // Zeros: any nbytes (memset); NaN and uninit: whole elements.
        ("zeros, nbytes not whole elements", special(5, EXT, 2, 5, 5, ZERO, &[]), Bytes(vec![0; 5])),
        ("uninit, nbytes not whole elements", special(5, EXT, 2, 5, 5, UNINIT, &[]), Refused(4, "expected nbytes a multiple of typesize")),
        ("uninit as zeros", special(5, EXT, 2, 6, 6, UNINIT, &[]), Bytes(vec![0; 6])),
        ("NaN float32", special(5, EXT, 4, 16, 8, NAN, &[]), Bytes(nans32(4))),
        ("NaN of typesize 2, nbytes 0", special(5, EXT, 2, 0, 4, NAN, &[]), Bytes(vec![])),
        ("NaN of typesize 2", special(5, EXT, 2, 8, 8, NAN, &[]), Refused(3, "expected typesize 4 or 8 for NaNs")),
        ("NaN, nbytes not whole elements", special(5, EXT, 4, 6, 6, NAN, &[]), Refused(4, "expected nbytes a multiple of typesize")),
        ("NaN split by a block", special(5, EXT, 4, 24, 6, NAN, &[]), Refused(8, "expected blocksize a multiple of the special value's width")),
        ("NaN, block under typesize", special(5, EXT, 8, 16, 4, NAN, &[]), Refused(8, "expected blocksize a multiple of the special value's width")),
        ("special 5", special(5, EXT, 1, 4, 4, 5, &[]), Refused(31, "expected special value (blosc2_flags bits 4..6) from 0 to 4")),
        // Lazy chunks need their frame, unless special or without blocks.
        ("lazy zeros", with(special(5, EXT, 1, 4, 4, ZERO, &[]), 31, 0x18), Bytes(vec![0; 4])),
        ("lazy, no block", with(special(5, EXT, 1, 0, 4, 0, &[]), 31, 0x08), Bytes(vec![])),
        ("lazy, a block", with(special(5, EXT | 0x10, 1, 4, 4, 0, &[0; 12]), 31, 0x08), Refused(31, "the chunk uses a lazy chunk")),
        ("lazy zeros with a dictionary", with(special(5, EXT, 1, 4, 4, ZERO, &[]), 31, 0x19), Refused(31, "the chunk uses a lazy chunk")),
        // Bytedelta's meta 0 takes a super-chunk's typesize: a chunk alone has none.
        ("bytedelta of meta 0", bytedelta(0), Refused(25, "expected bytedelta's meta (its element size) from 1 to 255")),
        ("bytedelta of meta 2", bytedelta(2), Bytes(vec![1, 5, 2, 7, 3, 9])),
        // Variable-length blocks are never memcpyed, never special.
        ("VL blocks memcpyed", with(special(6, EXT | 0x02, 1, 4, 1, 0, &[0; 4]), 30, 1), Refused(2, "expected flags without memcpyed")),
        ("VL blocks of zeros", with(special(6, EXT, 1, 4, 1, ZERO, &[]), 30, 1), Refused(31, "expected special value (blosc2_flags bits 4..6) 0 with variable-length blocks")),
    ]
}

#[test]
fn chunk_headers_and_special_chunks_as_c_3_3_5() {
    let cases = cases();
    for (name, bytes, want) in &cases {
        match (chunk::decode(bytes, &chunk::DecodeBudget::default()), want) {
            (Ok(got), Bytes(want)) => assert_eq!(&got, want, "{name}"),
            (Err(e), Refused(offset, start)) => {
                assert_eq!(e.offset(), Some(*offset), "{name}: {e}");
                assert!(e.to_string().starts_with(start), "{name}: {e}");
            }
            (got, _) => panic!("{name}: {got:?}"),
        }
    }
    if !c335::present("chunk_headers_and_special_chunks_as_c_3_3_5 (against C)") {
        return;
    }
    let chunks: Vec<Vec<u8>> = cases.iter().map(|(_, b, _)| b.clone()).collect();
    for ((name, _, want), c) in cases.iter().zip(c335::decompress_all(&chunks)) {
        match (c, want) {
            (CVerdict::Ok(got), Bytes(want)) => assert_eq!(&got, want, "C on {name}"),
            (CVerdict::Err(_), Refused(..)) => {}
            (c, _) => panic!("C on {name}: {c:?}"),
        }
    }
}
