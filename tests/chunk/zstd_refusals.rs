//! Zstd streams C-Blosc2 made, with one byte changed, that libzstd refuses (ruzstd, our
//! decoder before src/codec/zstd/, decoded them): each is refused here at its byte. The expected verdict is libzstd's, asked of it directly (and C-Blosc2
//! refuses the chunk): the error's name, and the field our refusal names.

use b2nd_meta::chunk::{self, ChunkErrorKind};

use super::c_ref::{
    self, CVerdict, Params, ALWAYS_SPLIT as ALWAYS, BITSHUFFLE, NEVER_SPLIT as NEVER, ZSTD,
};
use super::differential::{counter, float_ramp};
use super::zstd_ref::{self, ZVerdict};

/// A byte of the chunk set to a value, or bits set in the first zstd frame's byte.
enum Change {
    Chunk(usize, u8),
    Frame(usize, u8),
}
use Change::{Chunk, Frame};

/// Data (4096 bytes: "counter" or "float"), clevel, typesize, filter, split mode,
/// the change, libzstd's error, and what our refusal expected.
type Case = (
    &'static str,
    u8,
    i32,
    u8,
    i32,
    Change,
    &'static str,
    &'static str,
);

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Found by the differential sweep (tests/chunk/differential.rs):
    ("counter", 5, 2, BITSHUFFLE, ALWAYS, Chunk(59, 0x81), "Data corruption detected", "reserved bits 0-1 clear"),
    ("counter", 1, 1, BITSHUFFLE, ALWAYS, Chunk(63, 0xda), "Data corruption detected", "every literal's code within its single Huffman stream"),
    ("counter", 9, 4, BITSHUFFLE, NEVER, Chunk(60, 0x27), "Data corruption detected", "at most 255 Huffman weights"),
    ("counter", 9, 1, BITSHUFFLE, ALWAYS, Chunk(54, 0x00), "Data corruption detected", "an even number of Huffman weight 1, at least 2"),
    // Header fields set to what the format reserves:
    ("counter", 5, 8, 0, ALWAYS, Frame(4, 0x08), "Unsupported frame parameter", "reserved bit 3 clear"),
    ("counter", 5, 8, 0, ALWAYS, Frame(7, 0x06), "Data corruption detected", "block type 0, 1 or 2"),
];

#[test]
fn zstd_refusals_match_libzstd() {
    for (data, clevel, typesize, filter, split, change, libzstd, expected) in CASES {
        let src = if *data == "counter" {
            counter(4096)
        } else {
            float_ramp(4096)
        };
        let p = Params::new(ZSTD, *clevel, *typesize, *filter, 0, *split);
        let mut chunk = c_ref::compress(&src, &p);
        let first = zstd_ref::streams(&chunk)[0].at;
        match *change {
            Chunk(at, value) => chunk[at] = value,
            Frame(at, bits) => chunk[first + at] |= bits,
        }
        let case = format!(
            "{p:?} {}",
            match change {
                Chunk(a, v) => format!("byte {a} = {v:#04x}"),
                Frame(a, b) => format!("frame byte {a} |= {b:#04x}"),
            }
        );
        let streams = zstd_ref::streams(&chunk);
        let verdicts = zstd_ref::decompress_all(&streams);
        let refused = streams.iter().zip(&verdicts).find_map(|(s, v)| match v {
            ZVerdict::Err(name) => Some((s.at, name.clone())),
            _ => None,
        });
        let Some((at, name)) = refused else {
            panic!("{case}: libzstd decodes every stream")
        };
        assert_eq!(&name, libzstd, "{case}");
        assert!(
            matches!(
                c_ref::decompress_all(std::slice::from_ref(&chunk))[0],
                CVerdict::Err(_)
            ),
            "{case}"
        );
        let err = chunk::decode(&chunk, &chunk::DecodeBudget::default()).expect_err(&case);
        let ChunkErrorKind::ZstdHeader {
            expected: ours,
            frame_offset,
            ..
        } = err.kind()
        else {
            panic!("{case}: {err}")
        };
        assert_eq!(ours, expected, "{case}: {err}");
        assert_eq!(
            err.offset(),
            Some(at as u64 + frame_offset),
            "{case}: {err}"
        );
        eprintln!("{case}: {err}");
    }
}
