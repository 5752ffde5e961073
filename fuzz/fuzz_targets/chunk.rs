//! Any bytes as a Blosc2 chunk: `chunk::decode_with_limit` is `Ok` or `Err`, never a
//! panic; an accepted chunk gives exactly its header's nbytes and lies inside the input;
//! an error's offset is inside the input. Seeds: chunks python-blosc2 wrote with every
//! codec, filter pipeline, typesize, clevel and dictionary (fuzz/build_seeds.py).
#![no_main]

use b2nd_meta::chunk;
use libfuzzer_sys::fuzz_target;

/// Small enough for libFuzzer's malloc limit, large enough for every seed.
const LIMIT: u32 = 4 << 20;

fuzz_target!(|data: &[u8]| {
    match chunk::decode_with_limit(data, LIMIT) {
        Ok(out) => {
            let header = chunk::ChunkHeader::parse(data).expect("a decoded chunk has a header");
            assert_eq!(out.len(), header.nbytes as usize);
            assert!(header.cbytes as usize <= data.len());
        }
        Err(e) => {
            if let Some(offset) = e.offset() {
                assert!(offset <= data.len() as u64, "{e}");
            }
        }
    }
});
