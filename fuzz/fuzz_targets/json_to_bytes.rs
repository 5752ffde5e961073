//! Any JSON text gives a metalayer or an error, never a panic; a metalayer read from
//! JSON always encodes (the JSON reader refuses what the format cannot hold), and the
//! bytes decode back to the same metalayer, which prints back to equal JSON.
#![no_main]

use b2nd_meta::Meta;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(meta) = serde_json::from_slice::<Meta>(data) else {
        return;
    };
    let bytes = b2nd_meta::to_vec(&meta)
        .unwrap_or_else(|e| panic!("read from JSON but not encodable: {e}: {meta:?}"));
    assert_eq!(bytes.len(), meta.encoded_len());
    assert_eq!(b2nd_meta::from_slice::<Meta>(&bytes).unwrap(), meta);
    assert_eq!(b2nd_meta::MetaRef::parse(&bytes).unwrap().to_meta(), meta);
    let _ = meta.validate();
    let json = serde_json::to_string(&meta).unwrap();
    assert_eq!(serde_json::from_str::<Meta>(&json).unwrap(), meta);
});
