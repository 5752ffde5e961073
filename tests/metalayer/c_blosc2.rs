//! Differential tests against the real C library. The harness calls the REAL C-Blosc2 `b2nd_serialize_meta` /
//! `b2nd_deserialize_meta` from the static lib built by `blosc2-src =0.1.4`
//! (bundled C-Blosc2 2.15.3.dev, where B2ND_MAX_DIM == 8).
//!
//! Safety notes for the bundled C:
//! * `b2nd_serialize_meta` has NO ndim check. ndim < 0 => heap overflow (never pass it);
//!   0..=127 is memory-safe (it only reads `ndim` elements of each input array),
//!   but ndim >= 16 writes 0x90+ndim, which is not a msgpack fixarray any more.
//! * `b2nd_deserialize_meta` has NO bounds checks (smeta_len is only used to decide
//!   whether a dtype follows the blockshape). It writes `ndim` entries into the
//!   caller's arrays, so ndim must be <= B2ND_MAX_DIM (8), and the input must be long
//!   enough for everything C will read. `c_deser_precheck` enforces this before calling C.

use crate::c_ffi;

use b2nd_meta::{Meta, MetaB2ndV1, MetaV0Caterva};
use c_ffi::*;
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// The differential tests: our bytes against C's, and each side reading the other's.

fn ours(meta: &MetaB2ndV1) -> Vec<u8> {
    b2nd_meta::to_vec(meta).unwrap()
}

fn c_of(meta: &MetaB2ndV1) -> Vec<u8> {
    c_serialize(
        &meta.shape,
        &meta.chunkshape,
        &meta.blockshape,
        &meta.dtype,
        meta.dtype_format as i8,
    )
}

#[test]
fn c_writes_the_golden_vector() {
    let meta = MetaB2ndV1::new(vec![3, 4], vec![2, 4], vec![1, 2], "<i4");
    assert_eq!(c_of(&meta), ours(&meta));
    assert_eq!(c_of(&meta).len(), 53);
}

#[test]
fn c_writes_0xa0_at_ndim_16_and_so_do_we() {
    let meta = MetaB2ndV1::new(
        (1..=16).collect::<Vec<i64>>(),
        vec![2; 16],
        vec![1; 16],
        "|u1",
    );
    let c = c_of(&meta);
    assert_eq!(c[3], 0xa0);
    assert_eq!(c, ours(&meta));
    assert_eq!(b2nd_meta::from_slice::<MetaB2ndV1>(&c).unwrap(), meta);
}

#[test]
fn c_null_dtype_is_u1_which_we_read() {
    let c = c_serialize_raw(&[5], &[5], &[5], None, 0).unwrap();
    let meta: MetaB2ndV1 = b2nd_meta::from_slice(&c).unwrap();
    assert_eq!(meta.dtype, "|u1");
    assert_eq!(ours(&meta), c);
}

#[test]
fn c_reads_our_caterva_metalayer_with_no_dtype() {
    let meta = MetaV0Caterva {
        shape: vec![10, 7].into(),
        chunkshape: vec![4, 4].into(),
        blockshape: vec![2, 2].into(),
    };
    let bytes = b2nd_meta::to_vec(&meta).unwrap();
    let c = c_deserialize(&bytes);
    assert_eq!(c.ndim, 2);
    assert_eq!(
        (c.shape, c.chunkshape, c.blockshape),
        (
            meta.shape.to_vec(),
            meta.chunkshape.to_vec(),
            meta.blockshape.to_vec()
        )
    );
    assert_eq!(c.dtype, None);
    assert_eq!(c.consumed as usize, bytes.len());
}

/// Valid b2nd v1 values C can hold: ndim up to `max_ndim`, any int64/int32 values, a
/// dtype without NUL (C measures it with strlen), dtype_format 0..=127.
fn meta_strategy(max_ndim: usize) -> impl Strategy<Value = MetaB2ndV1> {
    (0..=max_ndim)
        .prop_flat_map(|ndim| {
            (
                prop::collection::vec(any::<i64>(), ndim),
                prop::collection::vec(any::<i32>(), ndim),
                prop::collection::vec(any::<i32>(), ndim),
                0u8..=127,
                "[^\u{0}]{0,40}",
            )
        })
        .prop_map(
            |(shape, chunkshape, blockshape, dtype_format, dtype)| MetaB2ndV1 {
                shape: shape.into(),
                chunkshape: chunkshape.into(),
                blockshape: blockshape.into(),
                dtype_format,
                dtype: dtype.into(),
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    /// Serialization is byte-identical to C's, up to ndim 16 (C's writer has no limit).
    #[test]
    fn our_bytes_equal_c_bytes(meta in meta_strategy(16)) {
        let c = c_of(&meta);
        prop_assert_eq!(ours(&meta), c.clone());
        let mut direct = vec![0u8; meta.encoded_len()];
        prop_assert_eq!(meta.encode_into(&mut direct).unwrap(), c.len());
        prop_assert_eq!(&direct, &c);
        prop_assert_eq!(meta.encode_to_vec().unwrap(), c);
    }

    /// C decodes what we write to the same values (within the bundled C's ndim <= 8),
    /// consuming exactly our bytes.
    #[test]
    fn c_reads_what_we_write(meta in meta_strategy(C_B2ND_MAX_DIM)) {
        let bytes = ours(&meta);
        let c = c_deserialize(&bytes);
        prop_assert_eq!(c.ndim as usize, meta.ndim());
        prop_assert_eq!(&c.shape, &meta.shape);
        prop_assert_eq!(&c.chunkshape, &meta.chunkshape);
        prop_assert_eq!(&c.blockshape, &meta.blockshape);
        prop_assert_eq!(c.dtype_format as u8, meta.dtype_format);
        prop_assert_eq!(c.dtype_raw.as_deref(), Some(meta.dtype.as_bytes()));
        prop_assert_eq!(c.consumed as usize, bytes.len());
    }

    /// We decode what C writes to the same values, as the typed struct and as Meta.
    #[test]
    fn we_read_what_c_writes(meta in meta_strategy(16)) {
        let c = c_of(&meta);
        prop_assert_eq!(&b2nd_meta::from_slice::<MetaB2ndV1>(&c).unwrap(), &meta);
        prop_assert_eq!(b2nd_meta::from_slice::<Meta>(&c).unwrap(), Meta::B2ndV1(meta));
    }
}
