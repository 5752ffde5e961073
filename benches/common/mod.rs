//! What every bench measures: the metalayer of an array of `ndim` axes with dtype
//! `"<f8"`, and its bytes, checked to decode back before anything is timed.
#![allow(dead_code)]

use b2nd_meta::{Meta, MetaB2ndV1, MetaRef};

/// The benches' metalayer of `ndim` axes.
pub fn meta(ndim: usize) -> MetaB2ndV1 {
    let shape: Vec<i64> = (0..ndim as i64).map(|i| 1000 + i).collect();
    MetaB2ndV1::new(shape, vec![100; ndim], vec![10; ndim], "<f8")
}

/// `m` encoded, after checking that every decoder reads it back.
pub fn checked_bytes(m: &MetaB2ndV1) -> Vec<u8> {
    let bytes = b2nd_meta::to_vec(m).unwrap();
    assert_eq!(&b2nd_meta::from_slice::<MetaB2ndV1>(&bytes).unwrap(), m);
    assert_eq!(
        MetaRef::parse(&bytes).unwrap().to_meta(),
        Meta::from(m.clone())
    );
    assert_eq!(m.encode_to_vec().unwrap(), bytes);
    bytes
}
