//! `b2nd_meta::bytes`: a metalayer inside another serde document keeps C-Blosc2's exact
//! bytes. The hex below is python's: `msgpack.packb(["a", meta], use_bin_type=True)`
//! with `meta` the 53-byte `b2nd` content C-Blosc2 wrote for
//! `blosc2.zeros((3, 4), chunks=(2, 4), blocks=(1, 2), dtype="<i4")` (python-blosc2
//! 4.14.1, read out of `to_cframe()`), and `msgpack.packb(["a", [0, 2, [3, 4], [2, 4],
//! [1, 2], 0, "<i4"]])` for the generic encoding.

use crate::common;

use b2nd_meta::bytes::Exact;
use b2nd_meta::{Meta, MetaB2ndV1};
use common::hex;
use serde::{Deserialize, Serialize};

const C_META: &str = "97000292d30000000000000003d3000000000000000492d200000002d20000000492d200000001d20000000200db000000033c6934";
const WITH_ADAPTER: &str = "92a161c43597000292d30000000000000003d3000000000000000492d200000002d20000000492d200000001d20000000200db000000033c6934";
const WITH_ADAPTER_NAMED: &str = "82a46e616d65a161a46d657461c43597000292d30000000000000003d3000000000000000492d200000002d20000000492d200000001d20000000200db000000033c6934";
const GENERIC: &str = "92a16197000292030492020492010200a33c6934";

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Exactly {
    name: String,
    #[serde(with = "b2nd_meta::bytes")]
    meta: MetaB2ndV1,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Generic {
    name: String,
    meta: MetaB2ndV1,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct AnyMeta {
    name: String,
    #[serde(with = "b2nd_meta::bytes")]
    meta: Meta,
}

fn meta() -> MetaB2ndV1 {
    MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4")
}

#[test]
fn the_adapter_stores_cs_bytes_as_a_bin() {
    let doc = Exactly {
        name: "a".into(),
        meta: meta(),
    };
    let packed = rmp_serde::to_vec(&doc).unwrap();
    assert_eq!(packed, hex(WITH_ADAPTER));
    assert_eq!(
        rmp_serde::to_vec_named(&doc).unwrap(),
        hex(WITH_ADAPTER_NAMED)
    );
    // The bin holds exactly to_vec's bytes, which are C's.
    assert_eq!(&packed[5..], b2nd_meta::to_vec(&meta()).unwrap());
    assert_eq!(&packed[5..], hex(C_META));
    assert_eq!(rmp_serde::from_slice::<Exactly>(&packed).unwrap(), doc);
    assert_eq!(
        rmp_serde::from_slice::<Exactly>(&hex(WITH_ADAPTER_NAMED)).unwrap(),
        doc
    );
    // Any layout through Meta.
    let any: AnyMeta = rmp_serde::from_slice(&packed).unwrap();
    assert_eq!(any.meta, Meta::from(meta()));
}

#[test]
fn without_the_adapter_the_widths_are_lost() {
    let doc = Generic {
        name: "a".into(),
        meta: meta(),
    };
    let packed = rmp_serde::to_vec(&doc).unwrap();
    assert_eq!(packed, hex(GENERIC));
    assert_ne!(packed.len(), hex(WITH_ADAPTER).len());
}

#[test]
fn the_stored_bytes_are_decoded_strictly() {
    // The C bytes with the int64 of shape[0] written as a fixint by a generic encoder.
    let mut bad = hex(WITH_ADAPTER);
    bad[4] -= 8; // bin length 53 -> 45
    bad.splice(9..18, [0x03]);
    bad.truncate(5 + 45);
    let err = rmp_serde::from_slice::<Exactly>(&bad)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("expected int64 (0xd3), found 0x03 (positive fixint) at byte 4"),
        "{err}"
    );
    // Trailing bytes inside the bin.
    let mut trailing = hex("92a161c436");
    trailing.extend(hex(C_META));
    trailing.push(0);
    let err = rmp_serde::from_slice::<Exactly>(&trailing)
        .unwrap_err()
        .to_string();
    assert!(err.contains("found 1 more byte(s) at byte 53"), "{err}");
}

#[test]
fn exact_goes_inside_option_and_vec() {
    let v: Vec<Option<Exact<MetaB2ndV1>>> = vec![Some(Exact(meta())), None];
    let packed = rmp_serde::to_vec(&v).unwrap();
    let mut want = hex("92c435");
    want.extend(hex(C_META));
    want.push(0xc0);
    assert_eq!(packed, want);
    assert_eq!(
        rmp_serde::from_slice::<Vec<Option<Exact<MetaB2ndV1>>>>(&packed).unwrap(),
        v
    );
}
