//! Properties over generated values and bytes.

use crate::common;

use b2nd_meta::{Meta, MetaB2nd, MetaB2ndV1, MetaV0Caterva};
use proptest::prelude::*;

fn dims(max_ndim: usize) -> impl Strategy<Value = (Vec<i64>, Vec<i32>, Vec<i32>)> {
    (0..=max_ndim).prop_flat_map(|n| {
        (
            prop::collection::vec(any::<i64>(), n),
            prop::collection::vec(any::<i32>(), n),
            prop::collection::vec(any::<i32>(), n),
        )
    })
}

/// Any valid metalayer of any layout.
fn meta(max_ndim: usize) -> impl Strategy<Value = Meta> {
    (dims(max_ndim), 0u8..=127, any::<String>(), 0..3).prop_map(
        |((shape, chunkshape, blockshape), dtype_format, dtype, layout)| match layout {
            0 => Meta::V0Caterva(MetaV0Caterva {
                shape: shape.into(),
                chunkshape: chunkshape.into(),
                blockshape: blockshape.into(),
            }),
            1 => Meta::B2nd(MetaB2nd {
                shape: shape.into(),
                chunkshape: chunkshape.into(),
                blockshape: blockshape.into(),
                dtype: dtype.into(),
            }),
            _ => Meta::B2ndV1(MetaB2ndV1 {
                shape: shape.into(),
                chunkshape: chunkshape.into(),
                blockshape: blockshape.into(),
                dtype_format,
                dtype: dtype.into(),
            }),
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// decode(encode(x)) == x, and the length is the one announced.
    #[test]
    fn values_round_trip(m in meta(16)) {
        let bytes = b2nd_meta::to_vec(&m).unwrap();
        prop_assert_eq!(bytes.len(), m.encoded_len());
        prop_assert_eq!(bytes[0], m.layout().header());
        prop_assert_eq!(&b2nd_meta::from_slice::<Meta>(&bytes).unwrap(), &m);
        let mut buf = vec![0u8; m.encoded_len()];
        prop_assert_eq!(b2nd_meta::to_slice(&m, &mut buf).unwrap(), bytes.len());
        prop_assert_eq!(&buf, &bytes);
        // The serde-free encoder writes the same bytes, and refuses a buffer one short.
        let mut direct = vec![0u8; m.encoded_len() + 3];
        prop_assert_eq!(m.encode_into(&mut direct).unwrap(), bytes.len());
        prop_assert_eq!(&direct[..bytes.len()], &bytes[..]);
        if !bytes.is_empty() {
            prop_assert!(m.encode_into(&mut vec![0u8; bytes.len() - 1]).is_err());
        }
        prop_assert_eq!(&m.encode_to_vec().unwrap(), &bytes);
        let mut written = Vec::new();
        b2nd_meta::to_writer(&mut written, &m).unwrap();
        prop_assert_eq!(&written, &bytes);
        prop_assert_eq!(&b2nd_meta::from_reader::<_, Meta>(&bytes[..]).unwrap(), &m);
    }

    /// Decoding into a reused value gives what `from_slice` gives, whatever the value
    /// held before (same layout, other layout, longer or shorter shapes and dtypes); bytes
    /// that do not decode leave it as it was, with `from_slice`'s error.
    #[test]
    fn decode_from_equals_from_slice(before in meta(16), after in meta(16), cut in any::<prop::sample::Index>()) {
        let bytes = b2nd_meta::to_vec(&after).unwrap();
        let mut m = before.clone();
        m.decode_from(&bytes).unwrap();
        prop_assert_eq!(&m, &after);
        let short = &bytes[..cut.index(bytes.len())];
        let mut m = before.clone();
        let err = m.decode_from(short).unwrap_err();
        prop_assert_eq!(err.to_string(), b2nd_meta::from_slice::<Meta>(short).unwrap_err().to_string());
        prop_assert_eq!(&m, &before);
        let mut longer = bytes.clone();
        longer.push(0);
        prop_assert!(m.decode_from(&longer).is_err());
        prop_assert_eq!(&m, &before);
    }

    /// The readable form round-trips through JSON too.
    #[test]
    fn json_round_trips(m in meta(16)) {
        let json = serde_json::to_string(&m).unwrap();
        prop_assert_eq!(&serde_json::from_str::<Meta>(&json).unwrap(), &m);
    }

    /// Binary serde formats that record sequence lengths tell the layouts apart too.
    #[test]
    fn rmp_serde_round_trips(m in meta(16)) {
        let bytes = rmp_serde::to_vec(&m).unwrap();
        prop_assert_eq!(&rmp_serde::from_slice::<Meta>(&bytes).unwrap(), &m);
    }

    /// Our bytes are valid msgpack (where fixarrays can hold ndim: up to 15), holding the
    /// same values: a generic reader just sees wider integers than it would write.
    #[test]
    fn our_bytes_are_msgpack_up_to_ndim_15(((shape, chunkshape, blockshape), dtype_format, dtype) in (dims(15), 0u8..=127, any::<String>())) {
        let m = MetaB2ndV1 { shape: shape.into(), chunkshape: chunkshape.into(), blockshape: blockshape.into(), dtype_format, dtype: dtype.into() };
        let bytes = b2nd_meta::to_vec(&m).unwrap();
        type Generic = (u8, u8, Vec<i64>, Vec<i32>, Vec<i32>, u8, String);
        let g: Generic = rmp_serde::from_slice(&bytes).unwrap();
        prop_assert_eq!(g, (0, m.ndim() as u8, m.shape.to_vec(), m.chunkshape.to_vec(), m.blockshape.to_vec(), m.dtype_format, m.dtype.to_string()));
    }

    /// For any accepted bytes, encode(decode(b)) == b: mutate valid encodings anywhere
    /// and whatever still decodes must re-encode to the same bytes.
    #[test]
    fn accepted_bytes_re_encode_identically(
        m in meta(16),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = b2nd_meta::to_vec(&m).unwrap();
        for (at, value) in edits {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        match b2nd_meta::from_slice::<Meta>(&bytes) {
            Ok(decoded) => prop_assert_eq!(b2nd_meta::to_vec(&decoded).unwrap(), bytes),
            Err(e) => prop_assert!(e.offset().unwrap() <= bytes.len() as u64),
        }
    }

    /// Arbitrary bytes (half of them starting like a metalayer): Ok or Err with an offset
    /// inside the input, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in common::plausible_bytes(256)) {
        for result in [
            b2nd_meta::from_slice::<Meta>(&bytes).map(|m| b2nd_meta::to_vec(&m).unwrap()),
            b2nd_meta::from_slice::<MetaB2ndV1>(&bytes).map(|m| b2nd_meta::to_vec(&m).unwrap()),
        ] {
            match result {
                Ok(re) => prop_assert_eq!(re, bytes.clone()),
                Err(e) => prop_assert!(e.offset().unwrap() <= bytes.len() as u64),
            }
        }
    }
}
