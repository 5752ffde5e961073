//! `MetaRef` is exactly as strict as `from_slice::<Meta>`: the same bytes are accepted,
//! to the same values, and the same bytes refused, with the same error at the same offset.

use crate::common;

use b2nd_meta::{Meta, MetaB2ndV1, MetaRef};
use common::{hex, manifest, unhex};
use proptest::prelude::*;

/// Both paths on `bytes`; panics with the input if they disagree.
fn agree(bytes: &[u8]) {
    let owned = b2nd_meta::from_slice::<Meta>(bytes);
    let view = MetaRef::parse(bytes);
    match (&owned, &view) {
        (Ok(meta), Ok(view)) => {
            assert_eq!(&view.to_meta(), meta, "{bytes:02x?}");
            assert_eq!(view.as_bytes(), bytes);
            assert_eq!(view.layout(), meta.layout());
            assert!(view.shape().eq(meta.shape().iter().copied()));
            assert!(view.chunkshape().eq(meta.chunkshape().iter().copied()));
            assert!(view.blockshape().eq(meta.blockshape().iter().copied()));
            assert_eq!(view.shape().len(), meta.ndim());
            assert_eq!(view.dtype(), meta.dtype());
            assert_eq!(view.dtype_format(), meta.dtype_format());
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.offset(), b.offset(), "{bytes:02x?}");
            assert_eq!(a.to_string(), b.to_string(), "{bytes:02x?}");
        }
        _ => panic!("disagree on {bytes:02x?}: owned {owned:?}, view {view:?}"),
    }
}

fn c_vector() -> Vec<u8> {
    hex(
        "97 00 02 92 d3 00 00 00 00 00 00 00 03 d3 00 00 00 00 00 00 00 04
         92 d2 00 00 00 02 d2 00 00 00 04 92 d2 00 00 00 01 d2 00 00 00 02
         00 db 00 00 00 03 3c 69 34",
    )
}

#[test]
fn every_single_byte_change_and_truncation_of_the_c_vectors() {
    let ndim16 = b2nd_meta::to_vec(&MetaB2ndV1::new(
        vec![1; 16],
        vec![1; 16],
        vec![1; 16],
        "|u1",
    ))
    .unwrap();
    let caterva = hex("95 00 01 91 d3 00 00 00 00 00 00 00 0a 91 d2 00 00 00 05 91 d2 00 00 00 02");
    let draft = hex("96 00 00 90 90 90 db 00 00 00 05 69 6e 74 33 32");
    for base in [c_vector(), ndim16, caterva, draft] {
        for len in 0..=base.len() + 1 {
            let mut b = base.clone();
            b.resize(len, 0);
            agree(&b);
        }
        for at in 0..base.len() {
            for value in 0..=255u8 {
                let mut b = base.clone();
                b[at] = value;
                agree(&b);
            }
        }
    }
}

#[test]
fn every_real_metalayer() {
    for file in manifest()["files"].as_array().unwrap() {
        for layer in file["metalayers"].as_array().unwrap() {
            let raw = unhex(layer["raw_hex"].as_str().unwrap());
            agree(&raw);
            if layer["name"] == "b2nd" {
                assert!(MetaRef::parse(&raw).is_ok());
            }
        }
    }
}

#[test]
fn take_returns_the_rest() {
    let mut bytes = c_vector();
    bytes.extend_from_slice(b"stale");
    let (view, rest) = MetaRef::take(&bytes).unwrap();
    assert_eq!(view.as_bytes().len(), 53);
    assert_eq!(rest, b"stale");
    let err = MetaRef::parse(&bytes).unwrap_err();
    assert_eq!(err.offset(), Some(53));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in common::plausible_bytes(128)) {
        agree(&bytes);
    }

    #[test]
    fn mutated_valid_bytes(
        ndim in 0usize..=16,
        dtype in "[ -~]{0,12}",
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        cut in any::<prop::sample::Index>(),
    ) {
        let meta = MetaB2ndV1::new(vec![7; ndim], vec![3; ndim], vec![1; ndim], dtype);
        let mut bytes = b2nd_meta::to_vec(&meta).unwrap();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        let len = bytes.len();
        bytes.truncate(len - cut.index(len.min(4)));
        agree(&bytes);
    }
}
