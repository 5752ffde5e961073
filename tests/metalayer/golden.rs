//! Golden vectors, assembled by hand from the seed diagrams (../shared/seeds) and from
//! real C-Blosc2 output, checked in both directions: the value encodes to exactly these
//! bytes, and the bytes decode to exactly this value (as its own type and as `Meta`).
//!
//! Each line of hex is one element of the diagram:
//! `9X | v | nd | 9X shape | 9X chunkshape | 9X blockshape [| dtype_format] [| dtype]`.

use crate::common;

use b2nd_meta::{Layout, Meta, MetaB2nd, MetaB2ndV1, MetaV0Caterva};
use common::{hex, rep, str32};
use serde::{de::DeserializeOwned, Serialize};
use std::fmt::Debug;

/// Checks one value against its expected bytes, both ways.
fn check<T>(source: &str, value: T, expected_hex: &str)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + Clone + Into<Meta>,
{
    let expected = hex(expected_hex);
    let encoded = b2nd_meta::to_vec(&value).unwrap();
    assert_eq!(encoded, expected, "{source}: encoding differs");
    let decoded: T = b2nd_meta::from_slice(&expected).unwrap();
    assert_eq!(decoded, value, "{source}: decoding differs");
    let any: Meta = b2nd_meta::from_slice(&expected).unwrap();
    assert_eq!(any, value.clone().into(), "{source}: Meta decoding differs");
    assert_eq!(
        b2nd_meta::to_vec(&any).unwrap(),
        expected,
        "{source}: Meta encoding differs"
    );
    assert_eq!(any.encoded_len(), expected.len(), "{source}: encoded_len");
}

fn caterva(shape: &[i64], chunkshape: &[i32], blockshape: &[i32]) -> MetaV0Caterva {
    MetaV0Caterva {
        shape: shape.into(),
        chunkshape: chunkshape.into(),
        blockshape: blockshape.into(),
    }
}

fn v1(shape: &[i64], chunkshape: &[i32], blockshape: &[i32], fmt: u8, dtype: &str) -> MetaB2ndV1 {
    MetaB2ndV1 {
        shape: shape.into(),
        chunkshape: chunkshape.into(),
        blockshape: blockshape.into(),
        dtype_format: fmt,
        dtype: dtype.into(),
    }
}

#[test]
fn caterva_v0_seed_000_001_004() {
    check(
        "seeds 000/001/004, ndim 2",
        caterva(&[10, 7], &[4, 4], &[2, 2]),
        "95 00 02
         92 d3 00 00 00 00 00 00 00 0a  d3 00 00 00 00 00 00 00 07
         92 d2 00 00 00 04  d2 00 00 00 04
         92 d2 00 00 00 02  d2 00 00 00 02",
    );
    check(
        "seeds 000/001/004, ndim 0",
        caterva(&[], &[], &[]),
        "95 00 00 90 90 90",
    );
    check(
        "seeds 000/001/004, ndim 1, int64 wider than int32",
        caterva(&[5_000_000_000], &[1 << 30], &[1]),
        "95 00 01
         91 d3 00 00 00 01 2a 05 f2 00
         91 d2 40 00 00 00
         91 d2 00 00 00 01",
    );
}

#[test]
fn caterva_v0_ndim_16_uses_c_header_a0() {
    // C writes 0x90 + 16 = 0xa0 for each 16-element array (a fixstr to generic msgpack).
    check(
        "seed 000 at ndim 16 (C-Blosc2's unguarded 0x90 + ndim)",
        caterva(&[1; 16], &[1; 16], &[1; 16]),
        &format!(
            "95 00 10 a0 {} a0 {} a0 {}",
            rep("d3 00 00 00 00 00 00 00 01", 16),
            rep("d2 00 00 00 01", 16),
            rep("d2 00 00 00 01", 16)
        ),
    );
}

#[test]
fn b2nd_draft_seed_002() {
    check(
        "seed 002, ndim 1, NumPy name dtype",
        MetaB2nd {
            shape: vec![100].into(),
            chunkshape: vec![10].into(),
            blockshape: vec![5].into(),
            dtype: "int32".into(),
        },
        "96 00 01
         91 d3 00 00 00 00 00 00 00 64
         91 d2 00 00 00 0a
         91 d2 00 00 00 05
         db 00 00 00 05 69 6e 74 33 32",
    );
    check(
        "seed 002, ndim 0, empty dtype",
        MetaB2nd::default(),
        "96 00 00 90 90 90 db 00 00 00 00",
    );
}

#[test]
fn b2nd_v1_seed_003_and_c_blosc2() {
    check(
        "C-Blosc2 b2nd_serialize_meta, shape (3,4) chunks (2,4) blocks (1,2) <i4",
        v1(&[3, 4], &[2, 4], &[1, 2], 0, "<i4"),
        "97 00 02
         92 d3 00 00 00 00 00 00 00 03  d3 00 00 00 00 00 00 00 04
         92 d2 00 00 00 02  d2 00 00 00 04
         92 d2 00 00 00 01  d2 00 00 00 02
         00
         db 00 00 00 03 3c 69 34",
    );
    check(
        "C-Blosc2, 0-dimensional array",
        v1(&[], &[], &[], 0, "<i4"),
        "97 00 00 90 90 90 00 db 00 00 00 03 3c 69 34",
    );
    check(
        "seed 003, extremes of each width",
        v1(&[i64::MAX, -1], &[i32::MAX, i32::MIN], &[0, -1], 127, "|b1"),
        "97 00 02
         92 d3 7f ff ff ff ff ff ff ff  d3 ff ff ff ff ff ff ff ff
         92 d2 7f ff ff ff  d2 80 00 00 00
         92 d2 00 00 00 00  d2 ff ff ff ff
         7f
         db 00 00 00 03 7c 62 31",
    );
    let structured = "[('a', '<i4'), ('b', '<f8', (2,))]";
    check(
        "seed 003, structured dtype (python-blosc2 stores str(dtype))",
        v1(&[2], &[2], &[1], 0, structured),
        &format!(
            "97 00 01 91 d3 00 00 00 00 00 00 00 02 91 d2 00 00 00 02 91 d2 00 00 00 01 00 {}",
            str32(structured)
        ),
    );
    check(
        "seed 003, non-ASCII dtype bytes are UTF-8",
        v1(&[1], &[1], &[1], 0, "é"),
        "97 00 01 91 d3 00 00 00 00 00 00 00 01 91 d2 00 00 00 01 91 d2 00 00 00 01 00
         db 00 00 00 02 c3 a9",
    );
}

#[test]
fn b2nd_v1_ndim_16_uses_c_header_a0() {
    // python-blosc2 >= 3.9 writes these (see tests/data/corpus/ndim16_u1.b2nd).
    let shape: Vec<i64> = (1..=16).collect();
    let chunks: Vec<i32> = (1..=16).collect();
    let blocks = vec![1; 16];
    let shape_hex: Vec<String> = (1..=16)
        .map(|i| format!("d3 00 00 00 00 00 00 00 {i:02x}"))
        .collect();
    let chunk_hex: Vec<String> = (1..=16).map(|i| format!("d2 00 00 00 {i:02x}")).collect();
    check(
        "seed 003 at ndim 16, C-Blosc2 >= 2.21.3",
        v1(&shape, &chunks, &blocks, 0, "|u1"),
        &format!(
            "97 00 10 a0 {} a0 {} a0 {} 00 db 00 00 00 03 7c 75 31",
            shape_hex.join(" "),
            chunk_hex.join(" "),
            rep("d2 00 00 00 01", 16)
        ),
    );
}

#[test]
fn encoded_len_formula_of_the_issue() {
    // 12 + 19 * ndim + dtype length for b2nd v1.
    for ndim in 0..=16 {
        assert_eq!(Layout::B2ndV1.encoded_len(ndim, 3), 12 + 19 * ndim + 3);
        assert_eq!(Layout::B2nd.encoded_len(ndim, 3), 11 + 19 * ndim + 3);
        assert_eq!(Layout::V0Caterva.encoded_len(ndim, 3), 6 + 19 * ndim);
    }
}
