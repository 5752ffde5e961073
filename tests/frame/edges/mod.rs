//! Named tests for the edges that crafted files aim at (the classes C-Blosc2 fixed in
//! 2026: lengths at their limits and negative as i32, ndim 9 to 16 and beyond, frame
//! offsets outside the file or backwards, too many metalayers, long names), each with
//! the exact answer: `Ok`, or the error kind and offset.
//!
//! One module per concern, declared below; the helpers they share are here, and
//! `crate::common` is `tests/common`.

use crate::common;

mod contents;
mod dtype_length;
mod header_len;
mod index;
mod ndim;

use b2nd_meta::frame::{self, FrameError, FrameErrorKind, FrameHeader};
use b2nd_meta::{Error, Meta, MetaB2ndV1, MetaRef};
use common::frame::{build_with, fixstr, real_fixed_part, Built};

// ---------------------------------------------------------------------------
// Metalayer helpers

/// A b2nd v1 metalayer of ndim 0 whose dtype str32 declares `len` and holds `payload`.
fn v1_dtype(len: u32, payload: &[u8]) -> Vec<u8> {
    let mut b = vec![0x97, 0x00, 0x00, 0x90, 0x90, 0x90, 0x00, 0xdb];
    b.extend_from_slice(&len.to_be_bytes());
    b.extend_from_slice(payload);
    b
}

/// Decoding fails, the same way through `Meta`, the typed struct and `MetaRef`.
#[track_caller]
fn decode_err(bytes: &[u8]) -> Error {
    let err = b2nd_meta::from_slice::<Meta>(bytes).expect_err("must be refused");
    let view = MetaRef::parse(bytes).expect_err("MetaRef must refuse it too");
    assert_eq!(view.offset(), err.offset(), "{view} / {err}");
    if bytes.first() == Some(&0x97) {
        let typed = b2nd_meta::from_slice::<MetaB2ndV1>(bytes).unwrap_err();
        assert_eq!(typed.offset(), err.offset(), "{typed} / {err}");
    }
    err
}

/// Decoding succeeds and re-encodes to the same bytes.
#[track_caller]
fn decode_ok(bytes: &[u8]) -> Meta {
    let meta: Meta = b2nd_meta::from_slice(bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b2nd_meta::to_vec(&meta).unwrap(), bytes);
    assert_eq!(MetaRef::parse(bytes).unwrap().to_meta(), meta);
    meta
}

fn meta_with_ndim(ndim: usize) -> MetaB2ndV1 {
    MetaB2ndV1::new(
        (0..ndim as i64).map(|i| 1000 + i).collect::<Vec<_>>(),
        (0..ndim as i32).map(|i| 100 + i).collect::<Vec<_>>(),
        (0..ndim as i32).map(|i| 10 + i).collect::<Vec<_>>(),
        "<f8",
    )
}

// ---------------------------------------------------------------------------
// Frame helpers

/// A header on the real fixed part (python-blosc2's contiguous fixture).
fn build(entries: &[(Vec<u8>, Vec<u8>)]) -> Built {
    build_with(&real_fixed_part(), entries)
}

fn set_frame_len(b: &mut [u8], v: u64) {
    b[16..24].copy_from_slice(&v.to_be_bytes());
}

/// Two metalayers: a b2nd one and a user one.
fn two() -> Built {
    let b2nd = b2nd_meta::to_vec(&meta_with_ndim(2)).unwrap();
    build(&[
        (fixstr(b"b2nd"), b2nd),
        (fixstr(b"user"), b"\x81\xa6answer\x2a".to_vec()),
    ])
}

/// Parsing fails, the same way through `parse_header` and `read_header`.
#[track_caller]
fn frame_err(bytes: &[u8]) -> FrameError {
    let err = frame::parse_header(bytes).expect_err("must be refused");
    let read = frame::read_header(bytes).expect_err("read_header must refuse it too");
    assert_eq!(read.to_string(), err.to_string());
    err
}

/// Parsing succeeds (as C-Blosc2 reads it), with notes at these offsets.
#[track_caller]
fn noted(bytes: &[u8]) -> Vec<u64> {
    frame_ok(bytes)
        .info
        .notes
        .iter()
        .map(|n| n.offset)
        .collect()
}

#[track_caller]
fn frame_ok(bytes: &[u8]) -> FrameHeader {
    let header = frame::parse_header(bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(frame::read_header(bytes).unwrap(), header);
    header
}

#[track_caller]
fn assert_invalid_field(err: &FrameError, at: u64, name: &str) {
    assert!(
        matches!(*err.kind(), FrameErrorKind::InvalidField { field, .. } if err.offset().unwrap() == at && field == name),
        "{err}"
    );
}

#[test]
fn the_builder_writes_what_c_writes() {
    // Rebuilt from its parsed metalayers, a real header comes out byte for byte.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/frame/contiguous.b2nd"
    );
    let real = std::fs::read(path).unwrap();
    let header = frame_ok(&real);
    let entries: Vec<_> = header
        .metalayers
        .iter()
        .map(|m| (fixstr(m.name.as_bytes()), m.content.clone()))
        .collect();
    let mut built = build(&entries).bytes;
    set_frame_len(&mut built, header.info.frame_len);
    assert_eq!(built, real[..header.info.header_len as usize]);
    let two = two();
    assert_eq!(
        frame_ok(&two.bytes).names().collect::<Vec<_>>(),
        ["b2nd", "user"]
    );
}
