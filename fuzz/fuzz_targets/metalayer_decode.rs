//! Any bytes decode to a metalayer or an error, never a panic. A decoded metalayer
//! re-encodes to exactly the bytes it came from; the typed structs and the zero-copy
//! `MetaRef` accept exactly what `Meta` accepts (with the same error offset); and the
//! semantic checks (`validate`, the dtype) never panic on what was decoded.
#![no_main]

use b2nd_meta::{Meta, MetaB2nd, MetaB2ndV1, MetaRef, MetaV0Caterva};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let meta = b2nd_meta::from_slice::<Meta>(data);
    let view = MetaRef::parse(data);
    match (&meta, &view) {
        (Ok(m), Ok(v)) => {
            assert_eq!(b2nd_meta::to_vec(m).unwrap(), data);
            assert_eq!(m.encode_to_vec().unwrap(), data);
            assert_eq!(m.encoded_len(), data.len());
            assert_eq!(&v.to_meta(), m);
            let _ = m.validate();
            let _ = m.validate_with_typesize(u64::from(data.len() as u32));
            let _ = m.check_blocks_within_chunks();
            if let Some(Ok(dtype)) = m.parsed_dtype() {
                let _ = dtype.itemsize();
            }
        }
        (Err(m), Err(v)) => assert_eq!(m.offset(), v.offset(), "{m} / {v}"),
        _ => panic!("from_slice: {meta:?}, MetaRef: {view:?}"),
    }
    // A prefix decode: the value re-encodes to the bytes it consumed.
    if let Ok((m, rest)) = b2nd_meta::take_from_slice::<Meta>(data) {
        let mut again = b2nd_meta::to_vec(&m).unwrap();
        again.extend_from_slice(rest);
        assert_eq!(again, data);
    }
    // The typed structs accept what Meta accepts for their layout, and nothing else.
    let typed = match data.first() {
        Some(0x95) => b2nd_meta::from_slice::<MetaV0Caterva>(data)
            .ok()
            .map(Meta::V0Caterva),
        Some(0x96) => b2nd_meta::from_slice::<MetaB2nd>(data).ok().map(Meta::B2nd),
        Some(0x97) => b2nd_meta::from_slice::<MetaB2ndV1>(data)
            .ok()
            .map(Meta::B2ndV1),
        _ => None,
    };
    assert_eq!(meta.ok(), typed);
});
